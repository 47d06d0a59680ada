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
pub struct Digits(u64);

impl Digits {
    /// The next digit: a number in `0..n` (`n > 0`).
    #[inline(always)]
    pub fn below(&mut self, n: usize) -> usize {
        let m = self.0 as u128 * n as u128;
        self.0 = m as u64;
        (m >> 64) as usize
    }
}

impl Rng {
    /// One draw read as [`Digits`].
    #[inline(always)]
    pub fn digits(&mut self) -> Digits {
        Digits(self.next_u64())
    }
}

/// A random deal for random games: each seat but the last takes its
/// cards one by one, each uniformly from the cards not yet dealt (the
/// `k`-th of those left, found by its bit: no pack is shuffled in memory,
/// whose stores and loads made each card wait for the one before); the
/// last seat takes what is left. Half a hand's choices (five or six) come
/// from each draw (the next digit in base "cards left": a relative bias
/// below 2^-30), six draws where the seeded deal takes 47. Not the seeded
/// deal: a seed's hands come from [`deal`].
pub fn deal_random(rng: &mut Rng, nines: bool) -> [Cards; 4] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: this CPU has BMI2, checked just above
        return unsafe { deal_random_bmi2(rng, nines) };
    }
    deal_random_by(rng, nines, kth_left)
}

/// The bit of the `k`-th card left (the `k`-th set bit of `left`), by
/// the portable broadword selection.
fn kth_left(left: u64, k: usize) -> u64 {
    1 << crate::cards::select(left, k as u64)
}

/// [`deal_random`] with BMI2's `pdep` for the `k`-th card left: the same
/// hands from the same draws.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn deal_random_bmi2(rng: &mut Rng, nines: bool) -> [Cards; 4] {
    deal_random_by(rng, nines, |left, k| std::arch::x86_64::_pdep_u64(1 << k, left))
}

/// [`deal_random`]'s body, with the way to find the bit of the `k`-th
/// set bit of the cards left (physical cards: bits `2i` and `2i + 1` are
/// card `i`'s copies).
#[inline(always)]
fn deal_random_by(rng: &mut Rng, nines: bool, kth: impl Fn(u64, usize) -> u64) -> [Cards; 4] {
    let n = if nines { 48 } else { 40 };
    let mut left = Cards::pack(nines).bits();
    let half = n / 8;
    let mut hands = [Cards::EMPTY; 4];
    let mut count = n;
    for hand in &mut hands[..3] {
        let mut bits = 0u64;
        for _ in 0..2 {
            let mut d = rng.digits();
            for _ in 0..half {
                let bit = kth(left, d.below(count));
                count -= 1;
                left ^= bit;
                bits |= bit;
            }
        }
        *hand = Cards::from_bits(bits);
    }
    hands[3] = Cards::from_bits(left);
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

    /// Two given physical cards share a hand as often as in a uniform
    /// deal (`(per - 1) / (n - 1)` of deals), for pairs of cards dealt
    /// early, late and apart in the random deal's order.
    #[test]
    fn the_random_deal_puts_two_cards_together_as_chance_says() {
        for nines in [true, false] {
            let n = if nines { 48u32 } else { 40 };
            let per = n / 4;
            let places: Vec<u32> = (0..48).filter(|b| Cards::pack(nines).bits() >> b & 1 == 1).collect();
            let pairs = [(0, 1), (0, n - 1), (n / 2, n / 2 + 1), (n - 2, n - 1), (3, n / 3)];
            let mut rng = Rng::new(11);
            let deals = 40_000u32;
            let mut together = [0u32; 5];
            for _ in 0..deals {
                // the physical cards as raw bits (no normalising): the hand
                // of each place
                let mut owner = [0usize; 48];
                let hands = deal_random_raw(&mut rng, nines);
                for (s, h) in hands.iter().enumerate() {
                    for (b, o) in owner.iter_mut().enumerate() {
                        if h >> b & 1 == 1 {
                            *o = s;
                        }
                    }
                }
                for (k, (a, b)) in pairs.iter().enumerate() {
                    together[k] +=
                        u32::from(owner[places[*a as usize] as usize] == owner[places[*b as usize] as usize]);
                }
            }
            let p = f64::from(per - 1) / f64::from(n - 1);
            let sd = (f64::from(deals) * p * (1.0 - p)).sqrt();
            for (k, t) in together.iter().enumerate() {
                let off = (f64::from(*t) - f64::from(deals) * p).abs();
                assert!(off < 6.0 * sd, "pair {:?}, nines {nines}: {t} of {deals}", pairs[k]);
            }
        }
    }

    /// The random deal's hands as physical bits (before the copies of a
    /// card are normalised): each card picked, in order, recorded as the
    /// portable selection finds it.
    fn deal_random_raw(rng: &mut Rng, nines: bool) -> [u64; 4] {
        let picks = std::cell::RefCell::new(Vec::new());
        let hands = deal_random_by(rng, nines, |left, k| {
            let bit = kth_left(left, k);
            picks.borrow_mut().push(bit);
            bit
        });
        let picks = picks.into_inner();
        let per = if nines { 12 } else { 10 };
        assert_eq!(picks.len(), 3 * per);
        let mut raw = [0u64; 4];
        for (s, r) in raw.iter_mut().take(3).enumerate() {
            *r = picks[s * per..(s + 1) * per].iter().fold(0, |a, b| a | b);
        }
        raw[3] = Cards::pack(nines).bits() ^ (raw[0] | raw[1] | raw[2]);
        for (s, r) in raw.iter().enumerate() {
            assert_eq!(Cards::from_bits(*r), hands[s]);
            assert_eq!(r.count_ones() as usize, per);
        }
        raw
    }

    /// Where the CPU has BMI2, its random deal deals what the portable
    /// one does from the same draws.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_bmi2_random_deal_deals_as_the_portable_one() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            eprintln!("no BMI2 on this CPU: nothing to compare");
            return;
        }
        for nines in [true, false] {
            for seed in 0..20_000 {
                let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
                let portable = deal_random_by(&mut a, nines, kth_left);
                // SAFETY: BMI2 is there, checked above
                let fast = unsafe { deal_random_bmi2(&mut b, nines) };
                assert_eq!(portable, fast, "seed {seed}");
                assert_eq!(a.next_u64(), b.next_u64(), "the same draws, seed {seed}");
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
