//! The `command` fuzz target: its body is `doko_bot::fuzzing::command`, which the
//! workspace tests also run over the committed corpus.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| doko_bot::fuzzing::command(data));
