//! A table's state as Redis keeps it (store format 4): its JSON, or, from
//! [`PACK_FROM`] bytes on, its JSON compressed with LZ4 (a block, its
//! length before it). A table is written at every move, so the compressor
//! is one of the fastest there are; a table's JSON repeats its field names
//! and its people's keys, which LZ4 finds.
//!
//! Layout of a compressed state: [`PACKED`], the JSON's length in bytes
//! (`u32`, little endian), the LZ4 block.

use std::borrow::Cow;

/// The first byte of a compressed state. It starts no UTF-8 text, so a
/// doko that reads states as text (store format 3 and older) fails to
/// read a compressed one rather than misread it, and it starts no JSON
/// table (`{`), so a state's first byte says which it is.
pub const PACKED: u8 = 0xFF;

/// States shorter than this stay JSON (what LZ4 saves on them is a few
/// bytes).
pub const PACK_FROM: usize = 192;

/// The longest JSON a compressed state may say it holds: a guard against
/// a damaged length asking for gigabytes. A table is far smaller (its
/// records are kept apart, its memories are bounded).
const MAX_UNPACKED: usize = 64 << 20;

/// The bytes of the length before the block.
const HEAD: usize = 1 + 4;

/// A table's JSON as Redis keeps it: compressed when it is at least
/// [`PACK_FROM`] bytes and compressing makes it shorter, else as it is.
pub fn pack(json: &str) -> Cow<'_, [u8]> {
    let mut out = Vec::new();
    match pack_into(json.as_bytes(), &mut out) {
        Some(n) => {
            out.truncate(n);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(json.as_bytes()),
    }
}

/// The largest buffer a thread keeps for [`with_packed`]: a bigger state
/// is compressed into a buffer of its own.
const KEPT_BUFFER: usize = 64 << 10;

/// Calls `f` with a table's JSON as Redis keeps it (as [`pack`] gives
/// it), compressed into a buffer the thread keeps: a commit allocates and
/// zeroes no buffer of its own (`f` copies the bytes into its command).
pub fn with_packed<R>(json: &str, f: impl FnOnce(&[u8]) -> R) -> R {
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let raw = json.as_bytes();
    if HEAD + lz4_flex::block::get_maximum_output_size(raw.len()) > KEPT_BUFFER {
        return f(&pack(json));
    }
    BUFFER.with(|b| match b.try_borrow_mut() {
        Ok(mut buf) => match pack_into(raw, &mut buf) {
            Some(n) => f(&buf[..n]),
            None => f(raw),
        },
        // (`f` packing again on this thread: a buffer of its own)
        Err(_) => f(&pack(json)),
    })
}

/// Compresses `raw` into `out` (grown as needed, never shrunk or zeroed
/// again) as [`pack`] describes; the compressed state's length, or `None`
/// when `raw` is kept as it is.
fn pack_into(raw: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    if !(PACK_FROM..=MAX_UNPACKED).contains(&raw.len()) {
        return None;
    }
    let need = HEAD + lz4_flex::block::get_maximum_output_size(raw.len());
    if out.len() < need {
        out.resize(need, 0);
    }
    out[0] = PACKED;
    // (MAX_UNPACKED fits a u32)
    out[1..HEAD].copy_from_slice(&(raw.len() as u32).to_le_bytes());
    // the compressor's table kept by each thread: made anew it was 8 KB
    // allocated and zeroed at every commit
    thread_local! {
        static TABLE: std::cell::RefCell<lz4_flex::block::CompressTable> = Default::default();
    }
    let packed =
        TABLE.with(|t| lz4_flex::block::compress_into_with_table(raw, &mut out[HEAD..need], &mut t.borrow_mut()));
    match packed {
        Ok(n) if HEAD + n < raw.len() => Some(HEAD + n),
        _ => None,
    }
}

/// Why a stored state could not be read back as text.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// A compressed state too short to hold its length.
    #[error("a compressed state of {0} bytes, too short for its length")]
    Short(usize),
    /// A compressed state whose length is beyond any table's.
    #[error("a compressed state says it holds {0} bytes")]
    TooLong(usize),
    /// The block does not decompress to the length it gives.
    #[error("a compressed state does not decompress: {0}")]
    Block(String),
    /// The state (or what it decompressed to) is not UTF-8 text.
    #[error("a stored state is not UTF-8 text")]
    NotText,
}

/// A stored state as the table's JSON text (see [`pack`]).
pub fn unpack(stored: &[u8]) -> Result<String, UnpackError> {
    if stored.first() != Some(&PACKED) {
        return std::str::from_utf8(stored).map(str::to_owned).map_err(|_| UnpackError::NotText);
    }
    let len: [u8; 4] = stored.get(1..HEAD).and_then(|l| l.try_into().ok()).ok_or(UnpackError::Short(stored.len()))?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_UNPACKED {
        return Err(UnpackError::TooLong(len));
    }
    let mut out = vec![0u8; len];
    match lz4_flex::block::decompress_into(&stored[HEAD..], &mut out) {
        Ok(n) if n == len => String::from_utf8(out).map_err(|_| UnpackError::NotText),
        Ok(n) => Err(UnpackError::Block(format!("{n} bytes where it says {len}"))),
        Err(e) => Err(UnpackError::Block(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table-like JSON: field names and keys repeated, as a table's are.
    fn table_like(people: usize) -> String {
        let seats: Vec<String> = (0..people)
            .map(|i| {
                format!("{{\"user\":\"discord:11800000000000000{i:02}\",\"name\":\"Player {i}\",\"score\":{}}}", i * 7)
            })
            .collect();
        format!("{{\"format\":4,\"seats\":[{}],\"stats\":[{}]}}", seats.join(","), seats.join(","))
    }

    #[test]
    fn a_table_reads_back_as_written_and_shorter() {
        for people in [1, 4, 12, 200] {
            let json = table_like(people);
            let packed = pack(&json);
            if json.len() >= PACK_FROM {
                assert_eq!(packed[0], PACKED, "{people} people: compressed");
                assert!(packed.len() < json.len() * 2 / 3, "{} -> {}", json.len(), packed.len());
                assert!(std::str::from_utf8(&packed).is_err(), "a compressed state is never text");
            } else {
                assert_eq!(&*packed, json.as_bytes(), "short: kept as it is");
            }
            assert_eq!(unpack(&packed).unwrap(), json);
            assert_eq!(with_packed(&json, <[u8]>::to_vec), packed.to_vec(), "{people} people: the thread's buffer");
        }
        // the thread's buffer, used for a long state and then shorter ones,
        // gives each its own bytes (nothing left from the longer)
        for people in [200, 12, 1, 40, 3] {
            let json = table_like(people);
            let bytes = with_packed(&json, <[u8]>::to_vec);
            assert_eq!(bytes, pack(&json).to_vec());
            assert_eq!(unpack(&bytes).unwrap(), json);
            // packing again inside `f`: its own buffer, the same bytes
            assert!(with_packed(&json, |outer| with_packed(&json, <[u8]>::to_vec) == outer));
        }
        // what compresses to nothing shorter stays as it is
        let noise: String =
            (0..400u32).map(|i| char::from(b'!' + (i.wrapping_mul(2_654_435_761) >> 26) as u8)).collect();
        let packed = pack(&noise);
        if packed[0] != PACKED {
            assert_eq!(&*packed, noise.as_bytes());
        }
        assert_eq!(unpack(&packed).unwrap(), noise);
    }

    #[test]
    fn damaged_states_are_refused_not_misread() {
        let json = table_like(12);
        let packed = pack(&json).into_owned();
        assert!(matches!(unpack(&[PACKED, 1, 0]), Err(UnpackError::Short(3))));
        let mut long = packed.clone();
        long[1..HEAD].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(unpack(&long), Err(UnpackError::TooLong(_))));
        let mut cut = packed.clone();
        cut.truncate(packed.len() / 2);
        assert!(matches!(unpack(&cut), Err(UnpackError::Block(_))));
        let mut shorter = packed.clone();
        shorter[1..HEAD].copy_from_slice(&((json.len() - 1) as u32).to_le_bytes());
        assert!(matches!(unpack(&shorter), Err(UnpackError::Block(_))));
        assert!(matches!(unpack(&[b'{', 0xC3]), Err(UnpackError::NotText)));
        // any byte of a compressed state changed, or the state cut at any
        // length: read back or refused, never a panic or a huge allocation
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..4_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut bad = packed.clone();
            let at = HEAD + (x as usize) % (packed.len() - HEAD);
            bad[at] = (x >> 32) as u8;
            let _ = unpack(&bad);
            let _ = unpack(&packed[..i % packed.len()]);
        }
    }
}
