//! `Cards`: a multiset of cards holding each card at most twice, in one `u64`.

use std::fmt;

use crate::card::{Card, Rank, Suit};

/// A multiset of cards with at most two copies of each card (a hand, a
/// trick's cards, a mask of cards).
///
/// Card `i` owns bits `2i` (first copy) and `2i + 1` (second copy); the
/// second bit is only ever set together with the first. Used as a mask, a
/// `Cards` with both bits of a card set selects both copies.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Cards(u64);

const LOW: u64 = 0x0000_5555_5555_5555; // first-copy bits of all 24 cards

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards(0);
    /// Both copies of all 24 cards: the 48-card pack.
    pub const FULL: Cards = Cards(LOW | (LOW << 1));

    /// Both copies of one card (a mask).
    #[inline]
    pub const fn both(card: Card) -> Cards {
        Cards(3 << (2 * card.index()))
    }

    /// The mask of both copies of every card matching `pred`.
    pub fn mask(pred: impl Fn(Card) -> bool) -> Cards {
        let mut m = Cards::EMPTY;
        for c in Card::all() {
            if pred(c) {
                m.0 |= Cards::both(c).0;
            }
        }
        m
    }

    /// Both copies of every card of a suit (printed suit).
    pub fn suit(suit: Suit) -> Cards {
        Cards::mask(|c| c.suit() == suit)
    }

    /// Both copies of every card of a rank.
    pub fn rank(rank: Rank) -> Cards {
        Cards::mask(|c| c.rank() == rank)
    }

    /// The pack: 48 cards, or 40 without nines.
    pub fn pack(nines: bool) -> Cards {
        if nines { Cards::FULL } else { Cards::FULL.without_mask(Cards::rank(Rank::Nine)) }
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Builds from raw bits, normalising so that a second copy never
    /// stands without a first.
    pub const fn from_bits(bits: u64) -> Cards {
        let b = bits & Cards::FULL.0;
        let hi = b & (LOW << 1);
        let lo = b & LOW;
        // count = lo + hi per card; re-encode
        let both = lo & (hi >> 1);
        let one = (lo ^ (hi >> 1)) & LOW;
        Cards(both | (both << 1) | one)
    }

    /// Number of cards (counting copies).
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// No cards at all.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many copies of `card` (0, 1 or 2).
    #[inline]
    pub const fn count(self, card: Card) -> usize {
        ((self.0 >> (2 * card.index())) & 3).count_ones() as usize
    }

    /// At least one copy of `card`.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << (2 * card.index())) != 0
    }

    /// Adds one copy; `false` (and no change) when two are held already.
    #[inline]
    pub fn insert(&mut self, card: Card) -> bool {
        let lo = 1u64 << (2 * card.index());
        if self.0 & lo == 0 {
            self.0 |= lo;
            true
        } else if self.0 & (lo << 1) == 0 {
            self.0 |= lo << 1;
            true
        } else {
            false
        }
    }

    /// Removes one copy; `false` (and no change) when none is held.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        // a card's two bits hold 0b00, 0b01 or 0b11: shifting them right
        // by one takes one copy away, without a branch
        let sh = 2 * card.index();
        let f = (self.0 >> sh) & 3;
        self.0 = (self.0 & !(3 << sh)) | ((f >> 1) << sh);
        f != 0
    }

    /// The cards of `self` that a mask selects (copies kept).
    #[inline]
    pub const fn with_mask(self, mask: Cards) -> Cards {
        Cards(self.0 & mask.0)
    }

    /// The cards of `self` that a mask does not select.
    #[inline]
    pub const fn without_mask(self, mask: Cards) -> Cards {
        Cards::from_bits(self.0 & !mask.0)
    }

    /// Each card held at least once, as a set with one copy each.
    #[inline]
    pub const fn distinct(self) -> Cards {
        Cards((self.0 | (self.0 >> 1)) & LOW)
    }

    /// Both copies of each card held at least once (a mask).
    #[inline]
    pub const fn as_mask(self) -> Cards {
        let d = self.distinct().0;
        Cards(d | (d << 1))
    }

    /// Multiset union, capped at two copies; `None` when a card would
    /// occur three or more times.
    pub fn checked_add(self, other: Cards) -> Option<Cards> {
        let mut out = self;
        for c in other.iter() {
            if !out.insert(c) {
                return None;
            }
        }
        Some(out)
    }

    /// Multiset difference; `None` when `other` holds a card more often
    /// than `self`.
    pub fn checked_sub(self, other: Cards) -> Option<Cards> {
        let mut out = self;
        for c in other.iter() {
            if !out.remove(c) {
                return None;
            }
        }
        Some(out)
    }

    /// Whether `other` is a sub-multiset of `self`.
    pub fn includes(self, other: Cards) -> bool {
        self.checked_sub(other).is_some()
    }

    /// The cards with copies, in card index order.
    pub fn iter(self) -> Iter {
        Iter(self.0)
    }

    /// Card points of all cards.
    pub fn points(self) -> u32 {
        self.iter().map(|c| c.points() as u32).sum()
    }

    /// The `n`-th card (counting copies, in bit order), for uniform random
    /// choice. `n` must be below `len()`.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Card> {
        if n >= self.len() {
            return None;
        }
        Some(Card::from_index(select(self.0, n as u64) as usize / 2))
    }

    /// [`nth`](Self::nth) by the BMI2 instruction that deposits a bit at
    /// the `n`-th set bit (`pdep`): a few cycles where the broadword
    /// selection takes some twenty, for the hot loops that check for the
    /// instruction once ([`crate::random_game`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(crate) fn nth_bmi2(self, n: usize) -> Option<Card> {
        if n >= self.len() {
            return None;
        }
        let bit = std::arch::x86_64::_pdep_u64(1 << n, self.0);
        Some(Card::from_index(bit.trailing_zeros() as usize / 2))
    }

    /// The `n`-th set bit of the cards (`n` below `len()`), as a one-bit
    /// word: for a set of distinct cards ([`distinct`](Self::distinct)),
    /// the low bit of the `n`-th card's pair (see [`Card::from_bit`] and
    /// [`remove_bit`](Self::remove_bit)). The random loops' pick, without
    /// `nth`'s range check (their `n` is below `len()` by construction).
    #[inline]
    pub(crate) fn nth_bit(self, n: usize) -> u64 {
        debug_assert!(n < self.len());
        1 << select(self.0, n as u64)
    }

    /// [`nth_bit`](Self::nth_bit) by BMI2's `pdep`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(crate) fn nth_bit_bmi2(self, n: usize) -> u64 {
        debug_assert!(n < self.len());
        std::arch::x86_64::_pdep_u64(1 << n, self.0)
    }

    /// Takes one copy of the card whose pair's low bit is `bit` (from
    /// [`nth_bit`](Self::nth_bit) of these cards' distinct cards), as
    /// [`remove`](Self::remove) does, in four operations.
    #[inline]
    pub(crate) fn remove_bit(&mut self, bit: u64) {
        debug_assert!(bit.count_ones() == 1 && bit & LOW != 0 && self.0 & bit != 0);
        // the pair 0b11 becomes 0b01 (its high bit flipped: `bit` plus
        // `bit`), the pair 0b01 becomes 0b00 (its low bit flipped)
        self.0 ^= bit + ((self.0 >> 1) & bit);
    }
}

/// The position of the `k`-th set bit of `x` (from 0; `k` below the
/// number of set bits), without a branch or a loop: the bytes' running
/// counts locate the byte, a table the bit in it (Vigna's broadword
/// selection). A random card is one such choice, so a loop whose length
/// is random would be mispredicted at almost every card.
#[inline]
pub(crate) const fn select(x: u64, k: u64) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const MSBS: u64 = 0x8080_8080_8080_8080;
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    let byte_sums = s.wrapping_mul(ONES);
    let geq = ((k.wrapping_mul(ONES) | MSBS).wrapping_sub(byte_sums)) & MSBS;
    let place = geq.count_ones() * 8;
    let byte_rank = k - (((byte_sums << 8) >> place) & 0xFF);
    place + SELECT_IN_BYTE[(((x >> place) & 0xFF) | (byte_rank << 8)) as usize & 2047] as u32
}

/// `SELECT_IN_BYTE[b | r << 8]`: the position of the `r`-th set bit of the
/// byte `b` (8 where it has fewer).
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut t = [8u8; 2048];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b | (r << 8)] = i as u8;
                r += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

impl FromIterator<Card> for Cards {
    /// Collects cards; copies beyond the second are dropped (use
    /// [`Cards::checked_add`] where that must be an error).
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Cards {
        let mut out = Cards::EMPTY;
        for c in iter {
            out.insert(c);
        }
        out
    }
}

/// Iterator over a [`Cards`], yielding each copy.
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Card::from_index(i / 2))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for Cards {
    type Item = Card;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_count() {
        let mut h = Cards::EMPTY;
        assert!(h.insert(Card::CQ));
        assert!(h.insert(Card::CQ));
        assert!(!h.insert(Card::CQ));
        assert_eq!(h.count(Card::CQ), 2);
        assert_eq!(h.len(), 2);
        assert!(h.remove(Card::CQ));
        assert_eq!(h.count(Card::CQ), 1);
        assert!(h.contains(Card::CQ));
        assert!(h.remove(Card::CQ));
        assert!(!h.remove(Card::CQ));
        assert!(h.is_empty());
    }

    #[test]
    fn pack_sizes_and_points() {
        assert_eq!(Cards::pack(true).len(), 48);
        assert_eq!(Cards::pack(false).len(), 40);
        assert_eq!(Cards::pack(true).points(), 240);
        assert_eq!(Cards::pack(false).points(), 240);
    }

    #[test]
    fn from_bits_normalises() {
        let c = Cards::from_bits(0b10); // a second copy without a first
        assert_eq!(c.count(Card::from_index(0)), 1);
        assert_eq!(c.bits(), 0b01);
    }

    #[test]
    fn nth_and_iter_agree() {
        let h: Cards = ["CQ", "CQ", "H10", "D9"].iter().map(|s| s.parse().unwrap()).collect();
        let v: Vec<Card> = h.iter().collect();
        for (i, c) in v.iter().enumerate() {
            assert_eq!(h.nth(i), Some(*c));
        }
        assert_eq!(h.nth(4), None);
        assert_eq!(h.distinct().len(), 3);
    }

    #[test]
    fn select_agrees_with_clearing_bits() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x = x.rotate_left(7).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ 0x94D0_49BB_1331_11EB;
            let bits = x >> (x % 17);
            let mut b = bits;
            for k in 0..bits.count_ones() {
                assert_eq!(select(bits, u64::from(k)), b.trailing_zeros(), "{bits:#x} {k}");
                b &= b - 1;
            }
        }
    }

    #[test]
    fn remove_takes_one_copy() {
        for i in 0..24 {
            let c = Card::from_index(i);
            let mut h = Cards::FULL;
            assert!(h.remove(c));
            assert_eq!(h.count(c), 1);
            assert_eq!(h.bits(), Cards::from_bits(h.bits()).bits());
            assert!(h.remove(c));
            assert!(!h.remove(c));
            assert_eq!(h.len(), 46);
        }
    }

    /// The random loops' pick by bit agrees with `nth` and `remove`, for
    /// every card of many hands with one and two copies.
    #[test]
    fn nth_bit_and_remove_bit_agree_with_nth_and_remove() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut seen = 0;
        for _ in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let hand = Cards::from_bits(x & Cards::FULL.bits());
            let legal = hand.distinct();
            for n in 0..legal.len() {
                let card = legal.nth(n).expect("in range");
                let bit = legal.nth_bit(n);
                assert_eq!(Card::from_bit(bit), card);
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("bmi2") {
                    // SAFETY: BMI2 is there, checked just above
                    assert_eq!(unsafe { legal.nth_bit_bmi2(n) }, bit);
                }
                let (mut a, mut b) = (hand, hand);
                assert!(a.remove(card));
                b.remove_bit(bit);
                assert_eq!(a, b, "{hand:?} less {card}");
                seen += 1;
            }
        }
        assert!(seen > 30_000);
    }
}
