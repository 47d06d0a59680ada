//! The syntax of a link code (`link CODE`): the letters it is made of, its
//! length, how a new one is made and whether a word has its shape. Here,
//! below both the parser (which reads `link CODE`) and the table (which
//! issues codes).

/// The letters of a link code: no 0/o, 1/l/i (read aloud, typed by hand).
const CODE_LETTERS: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// The length of a link code.
pub const CODE_LEN: usize = 8;

/// A new link code from a seed.
pub fn new_code(mut seed: u64) -> String {
    let mut out = String::with_capacity(CODE_LEN);
    for _ in 0..CODE_LEN {
        out.push(CODE_LETTERS[(seed % CODE_LETTERS.len() as u64) as usize] as char);
        seed /= CODE_LETTERS.len() as u64;
        if seed == 0 {
            seed = 0x9e37_79b9_7f4a_7c15;
        }
    }
    out
}

/// Whether a text has the shape of a link code.
pub fn is_code(text: &str) -> bool {
    text.len() == CODE_LEN && text.bytes().all(|b| CODE_LETTERS.contains(&b))
}
