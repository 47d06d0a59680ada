//! Replays the committed fuzz corpus (`fuzz/corpus/record`,
//! `fuzz/corpus/actions`) and the crash regressions
//! (`fuzz/regressions/<target>`) through the bodies of the fuzz targets,
//! so every test run checks what the fuzzer found without a fuzzer.

use std::fs;
use std::path::{Path, PathBuf};

/// The files of `fuzz/<dir>/<target>`, sorted (none when it is missing).
fn inputs(dir: &str, target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz").join(dir).join(target);
    let mut files: Vec<PathBuf> = match fs::read_dir(&root) {
        Ok(entries) => entries.map(|e| e.expect("a corpus entry").path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs every input of a target; returns how many ran.
fn replay(target: &str, body: fn(&[u8])) -> usize {
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        for path in inputs(dir, target) {
            let data = fs::read(&path).expect("a corpus file is read");
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{} panics", path.display());
            n += 1;
        }
    }
    n
}

#[test]
fn record_corpus_replays_cleanly() {
    let n = replay("record", doko_engine::fuzzing::record);
    assert!(n > 0, "the record corpus is empty");
}

#[test]
fn actions_corpus_replays_cleanly() {
    let n = replay("actions", doko_engine::fuzzing::actions);
    assert!(n > 0, "the actions corpus is empty");
}
