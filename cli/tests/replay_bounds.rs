//! `doko replay` among strangers' files: a record larger than the limit
//! (16 MiB) is refused with a short line and status 2, from a file or from
//! standard input, after reading little more than the limit, so the peak
//! memory stays far below the input's size; a record within the limit is
//! read, and what it says wrong is told in a short line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MB: usize = 1_000_000;

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("replay-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `doko replay ARG`, under `/usr/bin/time -v` when there is one, with
/// `stdin` piped in; the output and the peak resident memory in KiB (when
/// measured).
fn replay(arg: &str, stdin: Option<&[u8]>, dir: &Path) -> (Output, Option<u64>) {
    // one report file per run: the tests run side by side in one directory
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let report = dir.join(format!("time-{n}.txt"));
    let _ = std::fs::remove_file(&report);
    let timed = Path::new("/usr/bin/time").exists();
    let mut cmd = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-v").arg("-o").arg(&report).arg(env!("CARGO_BIN_EXE_doko"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_doko"))
    };
    cmd.args(["replay", arg]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("doko starts");
    let input = child.stdin.take().unwrap();
    let writer = stdin.map(|bytes| {
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let mut input = input;
            // doko stops reading at the limit: the pipe then breaks
            let _ = input.write_all(&bytes);
        })
    });
    let out = child.wait_with_output().unwrap();
    if let Some(w) = writer {
        w.join().unwrap();
    }
    let peak = timed.then(|| {
        let text = std::fs::read_to_string(&report).unwrap();
        let line = text.lines().find(|l| l.contains("Maximum resident set size")).expect("a peak in the report");
        line.rsplit(':').next().unwrap().trim().parse::<u64>().unwrap()
    });
    (out, peak)
}

fn check_refused(what: &str, out: &Output, peak: Option<u64>) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err:.300}");
    assert!(out.stdout.is_empty(), "{what}");
    assert!(out.stderr.len() < 200, "{what}: {} bytes on stderr", out.stderr.len());
    assert_eq!(err.trim_end(), "record: larger than 16 MiB; refused", "{what}");
    println!("{what}: refused in {} bytes; peak memory {}", out.stderr.len(), kib(peak));
    if let Some(kib) = peak {
        // the input is 100 MB; reading it whole would take more than that
        assert!(kib < 80 * 1024, "{what}: peak {kib} KiB");
    }
}

fn kib(peak: Option<u64>) -> String {
    peak.map_or("not measured (no /usr/bin/time)".to_string(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
}

/// A record padded to `size` bytes with a string in its `format` field.
fn padded(size: usize) -> Vec<u8> {
    let head = br#"{"format":""#;
    let tail = br#"","dealer":0}"#;
    let mut v = Vec::with_capacity(size);
    v.extend_from_slice(head);
    v.resize(size - tail.len(), b'x');
    v.extend_from_slice(tail);
    v
}

#[test]
fn a_hundred_megabytes_are_refused_in_a_short_line_with_bounded_memory() {
    let d = dir();
    let record = padded(100 * MB);
    let f = d.join("padded.json");
    std::fs::write(&f, &record).unwrap();
    let (out, peak) = replay(f.to_str().unwrap(), None, &d);
    check_refused("a 100 MB record in a file", &out, peak);

    // 100 MB of garbage (not even text)
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let garbage: Vec<u8> = (0..100 * MB)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let g = d.join("garbage.bin");
    std::fs::write(&g, &garbage).unwrap();
    let (out, peak) = replay(g.to_str().unwrap(), None, &d);
    check_refused("100 MB of garbage in a file", &out, peak);
    std::fs::remove_file(&f).unwrap();
    std::fs::remove_file(&g).unwrap();

    // the same from standard input
    let (out, peak) = replay("-", Some(&record), &d);
    check_refused("a 100 MB record on standard input", &out, peak);
    let (out, peak) = replay("-", Some(&garbage), &d);
    check_refused("100 MB of garbage on standard input", &out, peak);
}

#[test]
fn a_record_at_the_limit_is_read_and_its_fault_told_short() {
    let d = dir();
    let f = d.join("at-limit.json");
    std::fs::write(&f, padded(16 * 1024 * 1024)).unwrap();
    let (out, peak) = replay(f.to_str().unwrap(), None, &d);
    std::fs::remove_file(&f).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "read, and refused for what it says: {err:.300}");
    assert!(err.starts_with("record: format must be \"doko-record/1\", not \"xxx"), "{err:.300}");
    assert!(out.stderr.len() < 200, "{} bytes: {err:.300}", out.stderr.len());
    assert_eq!(err.lines().count(), 1);
    println!("a 16 MiB record: its fault in {} bytes; peak memory {}", out.stderr.len(), kib(peak));

    // one byte more is too much
    let f = d.join("over-limit.json");
    std::fs::write(&f, padded(16 * 1024 * 1024 + 1)).unwrap();
    let (out, peak) = replay(f.to_str().unwrap(), None, &d);
    std::fs::remove_file(&f).unwrap();
    check_refused("a record of 16 MiB and one byte", &out, peak);
}
