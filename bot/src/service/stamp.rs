//! A hand's stamp: where the deal stood when the hand was shown (the deal
//! and the moves made), so that a click on a hand the deal has moved past
//! is told from a current one.

use crate::ids::UserId;
use crate::table::Table;

/// Where the deal stands for a person: the deal (a hash of the hands as
/// dealt, so a redeal is a new deal) and the moves made so far.
pub(super) fn stamp(t: &Table, user: &UserId) -> Option<String> {
    if !t.plays_in_deal(user) {
        return None;
    }
    t.current_game().map(stamp_of)
}

/// [`stamp`] of a deal.
pub(super) fn stamp_of(g: &doko_engine::Game) -> String {
    use std::hash::{Hash, Hasher};
    thread_local! {
        /// The last deal hashed and its hash: a move shows two hands of
        /// the same deal, one after the other.
        static LAST: std::cell::Cell<Option<([doko_engine::Cards; 4], u32)>> = const { std::cell::Cell::new(None) };
    }
    let dealt = *g.dealt();
    let hash = match LAST.get() {
        Some((d, h)) if d == dealt => h,
        _ => {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            dealt.hash(&mut h);
            let h = h.finish() as u32;
            LAST.set(Some((dealt, h)));
            h
        }
    };
    let moves = g.plays() + g.announcements().len() + g.bids().iter().flatten().count();
    stamp_text(hash, moves)
}

/// A stamp's text: the deal's hash as eight hex digits, a dot, the moves
/// (what `format!("{hash:08x}.{moves}")` writes, without its formatting
/// machinery: two hands are stamped at every move).
fn stamp_text(hash: u32, moves: usize) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(16);
    for shift in (0..8).rev() {
        out.push(char::from(HEX[(hash >> (shift * 4)) as usize & 15]));
    }
    out.push('.');
    push_decimal(&mut out, moves);
    out
}

/// Writes `n` in decimal digits.
fn push_decimal(out: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use doko_engine::Rng;

    /// A stamp's text is the deal's hash in eight lowercase hex digits, a
    /// dot and the moves, as `format!` writes them.
    #[test]
    fn a_stamps_text_is_hex_and_moves() {
        let mut rng = Rng::new(7);
        let hashes =
            [0, 1, 0xf, 0xabc, 0x8000_0000, u32::MAX].into_iter().chain((0..200).map(|_| rng.next_u64() as u32));
        for hash in hashes {
            for moves in [0, 1, 9, 10, 47, 99, 100, 1234, usize::MAX] {
                assert_eq!(stamp_text(hash, moves), format!("{hash:08x}.{moves}"));
            }
        }
    }
}
