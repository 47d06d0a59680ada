//! The seat protocol's conformance test, on the real binary: arena matches
//! played through the protocol (`doko arena --a "cmd:doko seat ..."`) give
//! the same results deal by deal as the same matches in one process with
//! the same seeds, with `doko seat --strict` checking every event against
//! the view; programs that answer nonsense, die, hang or never greet are
//! counted or reported, never followed.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use doko_system_tests::doko_binary;

fn arena(args: &[&str]) -> Output {
    Command::new(doko_binary()).arg("arena").args(args).output().expect("doko arena runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The total and the deal-by-deal digest of side A, and the illegal
/// choices, from the arena's report.
fn result(o: &Output) -> (String, usize) {
    let out = String::from_utf8_lossy(&o.stdout);
    let line =
        out.lines().find(|l| l.starts_with("points of ")).unwrap_or_else(|| panic!("no result in:\n{}", text(o)));
    let (_, tail) = line.split_once(" over all plays: ").expect("result line");
    let illegal = out
        .lines()
        .find_map(|l| l.split_once("illegal choices ").map(|(_, n)| n.trim().parse::<usize>().expect("a count")))
        .expect("illegal choices line");
    (tail.to_string(), illegal)
}

fn seat_cmd(kind: &str, extra: &str) -> String {
    format!("cmd:{} seat --kind {kind} --strict {extra}", doko_binary().display())
}

const STRONG: [&str; 4] = ["--worlds", "4", "--budget-ms", "600000"];

#[test]
fn basic_through_the_protocol_plays_as_in_one_process() {
    // the DDV rules, and house rules with more kinds of event (poverty,
    // piglets said in play, half a chicken, Genscher, Schwarze Sau)
    let house = r#"{"preset":"ddv","poverty":"on","poverty_max_trumps":5,"black_sow":"on","piglets":"on","piglets_when":"play","piglets_announce":"on","half_chicken":"on","genscher":"on"}"#;
    for rules in ["ddv", house] {
        let common = ["--b", "strong", "--deals", "24", "--seed", "7", "--threads", "1", "--rules", rules];
        let local = arena(&[&["--a", "basic"][..], &common, &STRONG].concat());
        assert!(local.status.success(), "{}", text(&local));
        let cmd = seat_cmd("basic", "");
        let remote = arena(&[&["--a", cmd.as_str()][..], &common, &STRONG].concat());
        assert!(remote.status.success(), "{}", text(&remote));
        let (l, r) = (result(&local), result(&remote));
        assert_eq!(r.1, 0, "illegal choices through the protocol:\n{}", text(&remote));
        assert_eq!(l, r, "{rules}: in one process:\n{}\nthrough the protocol:\n{}", text(&local), text(&remote));
    }
}

#[test]
fn strong_and_random_through_the_protocol_play_as_in_one_process() {
    // the strong player decides by its seed and its world count (a budget
    // no decision reaches), so both runs make the same choices
    for (kind, b) in [("strong", "basic"), ("random", "strong")] {
        let common = ["--b", b, "--deals", "12", "--seed", "11", "--threads", "1"];
        let local = arena(&[&["--a", kind][..], &common, &STRONG].concat());
        assert!(local.status.success(), "{}", text(&local));
        let cmd = seat_cmd(kind, &STRONG.join(" "));
        let remote = arena(&[&["--a", cmd.as_str()][..], &common, &STRONG].concat());
        assert!(remote.status.success(), "{}", text(&remote));
        assert_eq!(result(&remote).1, 0, "{}", text(&remote));
        assert_eq!(result(&local), result(&remote), "{kind}:\n{}\n{}", text(&local), text(&remote));
    }
}

#[test]
fn both_sides_can_be_programs() {
    let a = seat_cmd("basic", "");
    let b = seat_cmd("random", "");
    let local = arena(&["--a", "basic", "--b", "random", "--deals", "10", "--seed", "3", "--threads", "2"]);
    let remote = arena(&["--a", &a, "--b", &b, "--deals", "10", "--seed", "3", "--threads", "2"]);
    assert!(remote.status.success(), "{}", text(&remote));
    assert_eq!(result(&local), result(&remote), "{}\n{}", text(&local), text(&remote));
}

#[test]
fn a_program_answering_nonsense_has_every_decision_counted_illegal() {
    // greets properly, then answers each question with a card nobody holds
    let prog = r#"cmd:read l; echo "doko-seat 1 nonsense"; while read l; do case "$l" in ask*) echo "play:XQ";; quit) exit 0;; esac; done"#;
    let o = arena(&["--a", prog, "--b", "basic", "--deals", "3", "--seed", "5", "--threads", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    let (_, illegal) = result(&o);
    // 3 deals, 2 plays, 2 seats: at least 4 bids and 24 cards each play
    assert!(illegal >= 3 * 2 * 2 * 13, "{illegal} illegal choices:\n{}", text(&o));
}

#[test]
fn a_program_answering_a_legal_card_out_of_its_choices_is_refused() {
    // answers the first choice offered, except that it always claims the
    // queen of clubs: legal only when the seat holds it and may play it
    let prog = r#"cmd:read l; echo "doko-seat 1 queens"; while read l; do case "$l" in ask*play:*) echo "play:CQ";; ask*) set -- $l; echo "$2";; quit) exit 0;; esac; done"#;
    let o = arena(&["--a", prog, "--b", "basic", "--deals", "4", "--seed", "9", "--threads", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    let (_, illegal) = result(&o);
    assert!(illegal > 0, "{}", text(&o));
}

#[test]
fn a_program_that_dies_or_hangs_is_reported_and_the_match_ends() {
    let dies = r#"cmd:read l; echo "doko-seat 1 short-lived"; read l; exit 0"#;
    let o = arena(&["--a", dies, "--b", "basic", "--deals", "2", "--seed", "1", "--threads", "1"]);
    assert!(!o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("short-lived"), "{t}");
    assert!(result(&o).1 > 0, "{t}");

    let hangs = r#"cmd:read l; echo "doko-seat 1 sleeper"; exec sleep 30"#;
    let start = std::time::Instant::now();
    let o = arena(&[
        "--a",
        hangs,
        "--b",
        "basic",
        "--deals",
        "2",
        "--seed",
        "1",
        "--threads",
        "1",
        "--seat-timeout-ms",
        "300",
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("no answer within 300 ms"), "{}", text(&o));
    assert!(start.elapsed() < std::time::Duration::from_secs(20), "the arena waited for the hanging program");
}

#[test]
fn a_program_that_does_not_greet_is_refused_at_once() {
    let o = arena(&["--a", "cmd:echo hello; cat > /dev/null", "--b", "basic", "--deals", "1", "--threads", "1"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("doko-seat 1 NAME' expected"), "{}", text(&o));
    let o = arena(&["--a", "cmd:", "--b", "basic"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn doko_seat_greets_refuses_another_version_and_a_bad_view() {
    let run = |input: &str| {
        let mut c = Command::new(doko_binary())
            .args(["seat", "--kind", "basic"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        c.wait_with_output().unwrap()
    };
    let o = run("doko-seat 1\nquit\n");
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("doko-seat 1 doko-basic "), "{}", text(&o));

    let o = run("doko-seat 7 8\n");
    assert!(!o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "error doko-seat 1 only");

    let o = run("doko-seat 1\ndeal 0 3 1\nview {\"seat\": 9}\n");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("view:"), "{}", text(&o));

    let o = run("hello\n");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected first"), "{}", text(&o));
}

#[test]
fn a_program_in_another_language_plays_from_the_events_alone() {
    // docs/examples/first_legal.py keeps its hand from `hand` and `play`
    // lines only and plays only cards it believes it holds: an illegal
    // choice would show an event missing or wrong
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/first_legal.py");
    let prog = format!("cmd:python3 {}", script.display());
    let house = r#"{"preset":"ddv","poverty":"on","poverty_max_trumps":5,"genscher":"on"}"#;
    for rules in ["ddv", house] {
        let o =
            arena(&["--a", &prog, "--b", "basic", "--deals", "20", "--seed", "4", "--threads", "1", "--rules", rules]);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(result(&o).1, 0, "{}", text(&o));
        assert!(text(&o).contains("points of cmd:python3"), "{}", text(&o));
    }
}
