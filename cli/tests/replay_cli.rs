//! `doko replay` as a user runs it: files and stdin, table and JSON, exit
//! status, nothing on stdout for a broken record and exactly one line on
//! stderr.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn doko() -> Command {
    Command::new(env!("CARGO_BIN_EXE_doko"))
}

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/records")
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = doko();
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("doko starts");
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

#[test]
fn replay_prints_a_table_and_json() {
    let f = records().join("wedding.json");
    let out = run(&["replay", f.to_str().unwrap()], None);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Contract: wedding (declarer seat 2)"), "{text}");
    assert!(text.contains("Scores (seats 0-3): -11 -11 +11 +11"), "{text}");

    let out = run(&["replay", "--json", f.to_str().unwrap()], None);
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(records().join("wedding.expected.json")).unwrap()).unwrap();
    assert_eq!(v, want);
    // the spec's field order: contract first, scores last
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.find("\"contract\"").unwrap() < s.find("\"scores\"").unwrap());
}

#[test]
fn replay_reads_standard_input() {
    let text = std::fs::read_to_string(records().join("poverty.json")).unwrap();
    let out = run(&["replay", "--json", "-"], Some(&text));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["contract"], "poverty");
}

#[test]
fn a_broken_record_gives_one_line_and_a_failure_status() {
    for name in ["not-following-suit", "announce-too-late", "malformed-json", "unknown-field"] {
        let f = records().join("bad").join(format!("{name}.json"));
        let out = run(&["replay", "--json", f.to_str().unwrap()], None);
        assert!(!out.status.success(), "{name}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        let want = std::fs::read_to_string(f.with_extension("err")).unwrap();
        assert_eq!(err.trim_end(), want.trim_end());
    }
    let out = run(&["replay", "/nonexistent/record.json"], None);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("record: reading /nonexistent/record.json"), "{err}");
}
