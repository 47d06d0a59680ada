//! `doko bench-tables` as one runs it: it starts a redis-server of its
//! own, plays every table's actions through the service in the closed
//! loop and in the open loop (its players on a thread of their own, each
//! action sent when due), and prints the figures.

use std::process::Command;

/// The bench's output for `args`, after checking that it succeeded.
fn bench(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_doko")).arg("bench-tables").args(args).output().expect("doko starts");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    text
}

/// The number after `prefix` in `line`, up to the next space.
fn number_after(line: &str, prefix: &str) -> f64 {
    let rest = &line[line.find(prefix).unwrap_or_else(|| panic!("{prefix:?} in {line:?}")) + prefix.len()..];
    rest.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("a number after {prefix:?}: {line}"))
}

/// Six tables of 70 actions each (a deal and part of the next, so each
/// table's deal is read again when it ends): all 420 are played in both
/// loops, with one store round trip each; the open loop offers its
/// rate, so 420 actions at 600 a second take at least 0.7 s, and each
/// latency counts from when the action was due.
#[test]
fn every_action_is_played_in_both_loops_at_the_rate_offered() {
    let text = bench(&["--tables", "6", "--actions", "70", "--rate", "600", "--no-durable"]);
    let closed = text
        .lines()
        .find(|l| l.starts_with("6 tables on Redis (without the durable outbox): "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(closed.contains(": 420 actions in "), "{closed}");
    // (one a command; a refused choice's fallback, rare, is a command
    // more that is not timed)
    let trips = number_after(closed, " ms; ");
    assert!((1.0..1.05).contains(&trips), "{closed}");
    let open = text
        .lines()
        .find(|l| l.starts_with("open loop at 600 actions/s offered: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(open.contains("offered: 420 actions in "), "{open}");
    let secs = number_after(open, "420 actions in ");
    assert!((0.69..30.0).contains(&secs), "{open}");
    let (median, p99) = (number_after(open, "median "), number_after(open, "p99 "));
    assert!(median > 0.0 && median <= p99, "{open}");
    assert!(text.contains("Redis alone: "), "{text}");
    // Redis alone at the same rate, its calls due at the same times
    let alone = text
        .lines()
        .find(|l| l.starts_with("Redis alone in the open loop at 600 calls/s offered: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(alone.contains("offered: 420 calls in "), "{alone}");
    let secs = number_after(alone, "420 calls in ");
    assert!((0.69..30.0).contains(&secs), "{alone}");
    let (median, p99) = (number_after(alone, "median "), number_after(alone, "p99 "));
    assert!(median > 0.0 && median <= p99, "{alone}");
}

/// By default with the durable outbox, as the bot runs: each action's outbox is
/// stored with it and marked delivered after it, the mark riding on the
/// table's next commit: one round trip an action, every action played.
#[test]
fn the_durable_outbox_costs_no_second_round_trip() {
    let text = bench(&["--tables", "4", "--actions", "60", "--rate", "800"]);
    let closed = text
        .lines()
        .find(|l| l.starts_with("4 tables on Redis (durable outbox): "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(closed.contains(": 240 actions in "), "{closed}");
    // (the mark of what an action owes rides on the table's next commit:
    // one round trip an action, the last mark of each table apart)
    let trips = number_after(closed, " ms; ");
    assert!((1.0..1.05).contains(&trips), "{closed}");
    assert!(text.lines().any(|l| l.starts_with("open loop at 800 actions/s offered: 240 actions in ")), "{text}");
}
