//! `doko` with no platform configured: a person plays a complete deal in
//! the terminal through stdin/stdout against three computer players; the
//! process is killed mid-deal and started again, and the session resumes.

use std::io::Write;

mod common;
use common::{Doko, choose};

fn start(data: &std::path::Path) -> Doko {
    Doko::start(&["--data".as_ref(), data.as_os_str()])
}

#[test]
fn a_complete_deal_in_the_terminal_and_a_resume_after_kill() {
    let data = std::env::temp_dir().join(format!("doko-term-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut d = start(&data);
    let mut screen = d.next();
    assert!(screen.contains("you and three computer players"), "{screen}");
    assert!(screen.contains("Deal 1"), "{screen}");
    let mut all = screen.clone();
    let mut moves = 0;
    while !all.contains("Result of deal 1") {
        let line = choose(&screen).unwrap_or_else(|| "hand".into());
        screen = d.send(&line);
        all.push_str(&screen);
        moves += 1;
        assert!(moves < 200, "the deal does not end:\n{all}");
    }
    assert!(all.contains("Points:"), "{all}");
    assert!(all.contains("Deal 2"), "the next deal is dealt");
    // a bad command gets a helpful answer
    let s = d.send("spiele xyz");
    assert!(s.contains("is not a card"), "{s}");
    let s = d.send("help");
    assert!(s.contains("addbot"), "{s}");
    // play a little into deal 2, then kill the process
    screen = d.send("hand");
    for _ in 0..3 {
        if let Some(line) = choose(&screen) {
            screen = d.send(&line);
        }
    }
    let table_before = d.send("table");
    let hand_before = d.send("hand");
    d.child.kill().unwrap();
    d.child.wait().unwrap();

    let mut d = start(&data);
    let screen = d.next();
    assert!(screen.contains("Resuming the session."), "{screen}");
    let table_after = d.send("table");
    let hand_after = d.send("hand");
    assert_eq!(table_before, table_after, "the table is as it was");
    assert_eq!(hand_before, hand_after, "the hand is as it was");
    let s = d.send("score");
    assert!(s.contains("normal") || s.contains("solo") || s.contains("wedding"), "{s}");
    d.stdin.write_all(b"quit\n").unwrap();
    let status = d.child.wait().unwrap();
    assert!(status.success());
    let _ = std::fs::remove_dir_all(&data);
}

/// The admin's tools at the terminal (the person there is the admin of
/// their own table): abort a deal, kick a computer mid-deal, end the
/// session; each answered in words, the aborted deal's record says so.
#[test]
fn abort_kick_and_reset_in_the_terminal() {
    let data = std::env::temp_dir().join(format!("doko-term-mod-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut d = start(&data);
    let screen = d.next();
    assert!(screen.contains("Deal 1"), "{screen}");
    // the running deal is void: it counts for nobody, its record says why
    let s = d.send("abort");
    assert!(s.contains("aborts the deal; it counts for nobody (record 1)"), "{s}");
    let s = d.send("record 1");
    assert!(s.contains("\"aborted\""), "{s}");
    let s = d.send("score");
    let rows = s.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count();
    assert_eq!(rows, 0, "an aborted deal is not on the sheet: {s}");
    // the next deal; a computer is removed mid-deal and plays to its end
    let s = d.send("start");
    assert!(s.contains("Deal"), "{s}");
    let table = d.send("table");
    let bot = ["Bot 1", "Bot 2", "Bot 3"].into_iter().find(|b| table.contains(b)).unwrap_or_else(|| panic!("{table}"));
    let s = d.send(&format!("kick {bot}"));
    assert!(
        s.contains(&format!("removes {bot} from the table; a computer plays the seat until this deal ends")),
        "{s}"
    );
    let s = d.send("kick nobody-here");
    assert!(s.contains("nobody-here"), "an unknown name is named in the refusal: {s}");
    // the deal is aborted: the kicked seat is free, the session is over
    let s = d.send("abort");
    assert!(s.contains("aborts the deal"), "{s}");
    assert!(s.contains(&format!("{bot}'s seat is free")), "{s}");
    let s = d.send("start");
    assert!(!s.contains("Deal 3"), "three seats cannot deal: {s}");
    let s = d.send("addbot");
    assert!(s.contains("(4/4)") || s.contains("joins"), "{s}");
    let s = d.send("start");
    assert!(s.contains("Deal"), "{s}");
    // the session ends by the admin's word; its sheet stays in history
    let s = d.send("reset");
    assert!(s.contains("ends the session; its score sheet is kept"), "{s}");
    d.stdin.write_all(b"quit\n").unwrap();
    assert!(d.child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&data);
}
