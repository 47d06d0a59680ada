//! Replays the committed fuzz corpus (`fuzz/corpus/command`) and the crash
//! regressions (`fuzz/regressions/command`) through the body of the fuzz
//! target, so every test run checks what the fuzzer found without a
//! fuzzer.

use std::fs;
use std::path::{Path, PathBuf};

/// The files of `fuzz/<dir>/command`, sorted (none when it is missing).
fn inputs(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz").join(dir).join("command");
    let mut files: Vec<PathBuf> = match fs::read_dir(&root) {
        Ok(entries) => entries.map(|e| e.expect("a corpus entry").path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

#[test]
fn command_corpus_replays_cleanly() {
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        for path in inputs(dir) {
            let data = fs::read(&path).expect("a corpus file is read");
            let outcome = std::panic::catch_unwind(|| doko_bot::fuzzing::command(&data));
            assert!(outcome.is_ok(), "{} panics", path.display());
            n += 1;
        }
    }
    assert!(n > 0, "the command corpus is empty");
}
