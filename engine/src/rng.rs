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

/// Several small random choices from one 64-bit draw, for random games
/// (simulations and the speed benchmark), never for a seeded deal: each
/// [`below`](Self::below) reads the draw's next digit in base `n` (a
/// multiply-shift that keeps the fraction). The choices of one draw are
/// jointly uniform up to a relative bias of the product of their `n`
/// over 2^64 ([`deal_random`]: under 2^-30).
#[derive(Clone, Copy, Debug)]
struct Digits(u64);

impl Digits {
    /// The next digit: a number in `0..n` (`n > 0`).
    #[inline(always)]
    fn below(&mut self, n: usize) -> usize {
        let m = self.0 as u128 * n as u128;
        self.0 = m as u64;
        (m >> 64) as usize
    }
}

impl Rng {
    /// One draw read as [`Digits`].
    #[inline(always)]
    fn digits(&mut self) -> Digits {
        Digits(self.next_u64())
    }
}

/// A random deal for random games: the same Fisher-Yates shuffle as
/// [`deal_with`], with half a hand's places (five or six) from each draw
/// (place `i` the draw's next digit in base `i + 1`: a relative bias
/// below 2^-30), eight draws where the seeded deal takes 47. Not the
/// seeded deal: a seed's hands come from [`deal`].
pub fn deal_random(rng: &mut Rng, nines: bool) -> [Cards; 4] {
    let (mut pack, n) = if nines { (PACK_48, 48) } else { (PACK_40, 40) };
    let half = n / 8;
    let mut hands = [Cards::EMPTY; 4];
    let mut i = n;
    for hand in hands.iter_mut().rev() {
        let mut bits = 0u64;
        for _ in 0..2 {
            let mut d = rng.digits();
            for _ in 0..half {
                i -= 1;
                // (the last place: `below(1)` is 0)
                bits |= fix(&mut pack, i, d.below(i + 1));
            }
        }
        *hand = Cards::from_bits(bits);
    }
    hands
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
    // physical cards are bit positions: card i's copies are bits 2i, 2i+1;
    // 64 slots so that an index masked with 63 needs no bounds check
    let (mut pack, n) = if nines { (PACK_48, 48) } else { (PACK_40, 40) };
    let per = n / 4;
    let mut hands = [Cards::EMPTY; 4];
    // a Fisher-Yates shuffle from the back, where position i is final
    // once it is drawn, and positions s * per .. (s + 1) * per are seat
    // s's hand: each card goes to its hand as it is drawn
    let mut i = n;
    for hand in hands.iter_mut().rev() {
        let mut bits = 0u64;
        for _ in 0..per {
            i -= 1;
            // (the last place takes what is left: no draw)
            let j = if i > 0 { rng.below(i + 1) } else { 0 };
            bits |= fix(&mut pack, i, j);
        }
        *hand = Cards::from_bits(bits);
    }
    hands
}

/// A shuffle's step: place `i` (from the back) takes the card at `j <= i`,
/// whose place takes place `i`'s card; returns the card taken as its bit.
#[inline(always)]
fn fix(pack: &mut [u8; 64], i: usize, j: usize) -> u64 {
    let b = pack[j & 63];
    pack[j & 63] = pack[i & 63];
    1 << (b & 63)
}

/// The physical cards (bit positions) of the pack with nines, in order.
const PACK_48: [u8; 64] = pack(true);
/// The pack without nines.
const PACK_40: [u8; 64] = pack(false);

const fn pack(nines: bool) -> [u8; 64] {
    let mut out = [0u8; 64];
    let mut n = 0;
    let mut bit = 0;
    while bit < 48 {
        if nines || Card::from_index(bit / 2).rank() as u8 != Rank::Nine as u8 {
            out[n] = bit as u8;
            n += 1;
        }
        bit += 1;
    }
    out
}

/// The seat to the dealer's left, who bids first and normally leads.
pub const fn forehand(dealer: Seat) -> Seat {
    dealer.next()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shuffle as first written: the pack shuffled in full, then cut
    /// into hands. Dealing card by card into the hands deals the same.
    fn shuffled_then_cut(rng: &mut Rng, nines: bool) -> [Cards; 4] {
        let (mut pack, n) = if nines { (PACK_48, 48) } else { (PACK_40, 40) };
        for i in (1..n).rev() {
            let j = rng.below(i + 1);
            pack.swap(i, j);
        }
        let per = n / 4;
        let mut hands = [Cards::EMPTY; 4];
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = Cards::from_bits(pack[s * per..(s + 1) * per].iter().fold(0, |b, p| b | 1 << p));
        }
        hands
    }

    /// The random games' deal deals the whole pack, a quarter to each
    /// seat, and each card goes to each seat as often as chance says.
    #[test]
    fn the_random_deal_deals_each_card_to_each_seat_alike() {
        for nines in [true, false] {
            let n = if nines { 48 } else { 40 };
            let copies = |h: Cards, c: usize| (h.bits() >> (2 * c) & 3).count_ones();
            let mut rng = Rng::new(5);
            // how many copies of each card went to each seat
            let mut seen = [[0u32; 4]; 24];
            let deals = 40_000;
            for _ in 0..deals {
                let hands = deal_random(&mut rng, nines);
                for c in 0..24 {
                    let total: u32 = hands.iter().map(|&h| copies(h, c)).sum();
                    assert_eq!(total, copies(Cards::pack(nines), c), "card {c}");
                }
                for (s, &h) in hands.iter().enumerate() {
                    assert_eq!(h.len(), n / 4);
                    for (c, seen) in seen.iter_mut().enumerate() {
                        seen[s] += copies(h, c);
                    }
                }
            }
            // each seat holds half a card's two copies on average, with a
            // standard deviation of about 125 over 40,000 deals
            for (c, seen) in seen.iter().enumerate().filter(|(c, _)| copies(Cards::pack(nines), *c) == 2) {
                for (s, &k) in seen.iter().enumerate() {
                    let off = (f64::from(k) - f64::from(deals) / 2.0).abs();
                    assert!(off < 6.0 * 125.0, "card {c} to seat {s}: {k} copies");
                }
            }
        }
    }

    #[test]
    fn dealing_into_the_hands_deals_as_shuffling_and_cutting() {
        for nines in [true, false] {
            for seed in 0..20_000 {
                let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
                assert_eq!(deal_with(&mut a, nines), shuffled_then_cut(&mut b, nines), "seed {seed}");
                assert_eq!(a.next_u64(), b.next_u64(), "the same draws, seed {seed}");
            }
        }
    }
}
