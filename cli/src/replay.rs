//! `doko replay`: a game record (doko-record/1) read with a bound on its
//! size, checked step by step by the engine, and its result printed.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;

/// The largest record `doko replay` reads: 16 MiB. A record of a whole
/// deal is a few kilobytes, so this is thousands of times any real record;
/// a larger input (a wrong file, an endless stream, a record padded to
/// exhaust memory) is refused after reading at most this much plus one
/// byte, so replaying never holds more than a small multiple of it (the
/// bytes and the JSON tree made from them).
const RECORD_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The longest error line `doko replay` prints, in characters: room for
/// the longest message the engine gives about a record (the unknown rule,
/// listing every rule: about 440 characters with 25 keys), while nothing a
/// record says can make a line longer (the engine quotes at most a short
/// piece of it).
const ERROR_MAX_CHARS: usize = 700;

/// Why a record could not be read.
enum ReadFailure {
    /// Larger than [`RECORD_MAX_BYTES`].
    TooLarge,
    /// Unreadable, or not UTF-8 text.
    Failed(anyhow::Error),
}

/// Reads at most [`RECORD_MAX_BYTES`] of a record (and one byte more, to
/// tell a larger one).
fn read_bounded(input: impl Read, size_hint: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::with_capacity(size_hint.min(RECORD_MAX_BYTES) as usize + 1);
    input.take(RECORD_MAX_BYTES + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= RECORD_MAX_BYTES).then_some(bytes))
}

/// Reads a record from a file, or from standard input for `-`.
fn read_input(file: &str) -> Result<String, ReadFailure> {
    let bytes = if file == "-" {
        read_bounded(std::io::stdin().lock(), 0).context("reading standard input")
    } else {
        std::fs::File::open(file)
            .and_then(|f| {
                let len = f.metadata().map_or(0, |m| m.len());
                read_bounded(f, len)
            })
            .with_context(|| format!("reading {file}"))
    };
    match bytes {
        Ok(Some(bytes)) => {
            String::from_utf8(bytes).context("the record is not UTF-8 text").map_err(ReadFailure::Failed)
        }
        Ok(None) => Err(ReadFailure::TooLarge),
        Err(e) => Err(ReadFailure::Failed(e)),
    }
}

/// An error line cut to [`ERROR_MAX_CHARS`].
fn bounded(line: &str) -> String {
    match line.char_indices().nth(ERROR_MAX_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

/// Replays the record in `file` (`-`: standard input) and prints its result,
/// as text or as JSON; exit status 2 when it cannot be read, 1 when it is
/// not a valid record.
pub fn replay(file: &str, json: bool) -> ExitCode {
    let text = match read_input(file) {
        Ok(t) => t,
        Err(ReadFailure::TooLarge) => {
            eprintln!("record: larger than {} MiB; refused", RECORD_MAX_BYTES >> 20);
            return ExitCode::from(2);
        }
        Err(ReadFailure::Failed(e)) => {
            eprintln!("{}", bounded(&format!("record: {e:#}")));
            return ExitCode::from(2);
        }
    };
    match doko_engine::record::replay_str(&text) {
        Ok(result) => {
            if json {
                println!("{}", serde_json::to_string_pretty(&result.to_json()).expect("JSON value"));
            } else {
                print!("{}", result.to_text());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", bounded(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}
