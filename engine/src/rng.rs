//! A small, fast, reproducible random number generator (SplitMix64) and
//! dealing from a seed. Its output is part of the engine's contract: the
//! same seed always deals the same hands, in every version.

use crate::card::{Card, Rank};
use crate::cards::Cards;
use crate::seat::Seat;

/// SplitMix64: tiny state, good statistical quality, stable forever.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), by multiply-shift (bias below
    /// 2^-58 for the small `n` used here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Deals the pack (48 cards, or 40 without nines) into four hands from a
/// seed, by a Fisher-Yates shuffle. Hands are indexed by seat.
///
/// ```
/// use doko_engine::deal;
/// let hands = deal(7, true);
/// assert!(hands.iter().all(|h| h.len() == 12));
/// assert_eq!(hands, deal(7, true));
/// ```
pub fn deal(seed: u64, nines: bool) -> [Cards; 4] {
    let mut rng = Rng::new(seed);
    deal_with(&mut rng, nines)
}

/// Deals with a given generator (see [`deal`]).
pub fn deal_with(rng: &mut Rng, nines: bool) -> [Cards; 4] {
    // physical cards are bit positions: card i's copies are bits 2i, 2i+1
    let mut pack = [0u8; 48];
    let mut n = 0;
    for bit in 0..48u8 {
        if nines || Card::from_index(bit as usize / 2).rank() != Rank::Nine {
            pack[n] = bit;
            n += 1;
        }
    }
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        pack.swap(i, j);
    }
    let per = n / 4;
    let mut hands = [Cards::EMPTY; 4];
    for (s, hand) in hands.iter_mut().enumerate() {
        let mut bits = 0u64;
        for b in &pack[s * per..(s + 1) * per] {
            bits |= 1 << b;
        }
        *hand = Cards::from_bits(bits);
    }
    hands
}

/// The seat to the dealer's left, who bids first and normally leads.
pub const fn forehand(dealer: Seat) -> Seat {
    dealer.next()
}
