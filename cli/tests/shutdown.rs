//! A graceful stop as a service manager does it: SIGTERM to the real
//! binary in the middle of a deal, with a card just typed. The process
//! finishes that command, says it stopped and exits 0; started again it
//! resumes the session, and the card is played exactly when its answer was
//! printed (no command lost, none applied unseen).

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

mod common;
use common::{Doko, choose};

fn start(data: &Path) -> Doko {
    Doko::start(&["--name".as_ref(), "Tessa".as_ref(), "--data".as_ref(), data.as_os_str()])
}

/// The cards in the last hand line of a screen.
fn hand_size(screen: &str) -> usize {
    let hand = screen.lines().rev().find(|l| l.contains("Your hand:")).unwrap_or_else(|| panic!("{screen}"));
    hand.split("Your hand:").nth(1).unwrap().split_whitespace().count()
}

#[test]
fn sigterm_mid_deal_finishes_the_command_exits_0_and_the_deal_goes_on() {
    let data = std::env::temp_dir().join(format!("doko-shutdown-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut d = start(&data);
    let mut screen = d.next();
    // into the deal: the bid and two cards
    let mut cards = 0;
    while cards < 2 {
        let line = choose(&screen).unwrap_or_else(|| "hand".into());
        cards += usize::from(line.starts_with("play"));
        screen = d.send(&line);
    }
    while choose(&screen).is_none_or(|l| !l.starts_with("play")) {
        screen = d.send("hand");
    }
    let before = hand_size(&screen);
    let card = choose(&screen).unwrap();
    // the card typed, and SIGTERM at once
    d.stdin.write_all(format!("{card}\n").as_bytes()).unwrap();
    d.stdin.flush().unwrap();
    let pid = d.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = d.child.wait().unwrap();
    assert!(status.success(), "a graceful stop exits 0: {status:?}");
    std::thread::sleep(Duration::from_millis(100));
    let tail = d.tail();
    assert!(tail.contains("doko stopped; the table is kept."), "{tail}");
    let answered = tail.contains("Tessa plays");
    let refused = tail.contains("doko is restarting");
    assert!(answered || refused || !tail.contains("Tessa"), "{tail}");

    // started again: the session resumes; the card is played exactly when
    // its answer was printed
    let mut d = start(&data);
    let screen = d.next();
    assert!(screen.contains("Resuming the session."), "{screen}");
    let screen = d.send("hand");
    let after = hand_size(&screen);
    assert_eq!(after, if answered { before - 1 } else { before }, "answered {answered}:\n{tail}\n{screen}");
    // and the deal goes on
    let line = choose(&screen).unwrap_or_else(|| "hand".into());
    let s = d.send(&line);
    assert!(!s.contains("restarting"), "{s}");
    d.stdin.write_all(b"quit\n").unwrap();
    assert!(d.child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&data);
}
