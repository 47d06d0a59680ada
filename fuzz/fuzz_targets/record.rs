//! The `record` fuzz target: its body is `doko_engine::fuzzing::record`, which the
//! workspace tests also run over the committed corpus.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| doko_engine::fuzzing::record(data));
