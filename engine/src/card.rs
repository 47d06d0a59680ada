//! Suits, ranks and cards.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the four French suits. The discriminant is the suit's index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// Clubs (Kreuz).
    Clubs = 0,
    /// Spades (Pik).
    Spades = 1,
    /// Hearts (Herz).
    Hearts = 2,
    /// Diamonds (Karo).
    Diamonds = 3,
}

impl Suit {
    /// All suits in their conventional order: clubs, spades, hearts, diamonds.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// The suit's letter in card codes.
    ///
    /// ```
    /// use doko_engine::Suit;
    /// assert_eq!(Suit::Hearts.letter(), 'H');
    /// ```
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
        }
    }

    /// The suit for a letter of a card code (case-insensitive).
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            _ => None,
        }
    }

    /// The English name, lower case ("clubs").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The six ranks of a Doppelkopf pack.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// Ace (As), 11 points.
    Ace = 0,
    /// Ten (Zehn), 10 points.
    Ten = 1,
    /// King (König), 4 points.
    King = 2,
    /// Queen (Dame), 3 points.
    Queen = 3,
    /// Jack (Bube), 2 points.
    Jack = 4,
    /// Nine (Neun), no points; absent in the game without nines.
    Nine = 5,
}

impl Rank {
    /// All ranks from ace to nine.
    pub const ALL: [Rank; 6] = [Rank::Ace, Rank::Ten, Rank::King, Rank::Queen, Rank::Jack, Rank::Nine];

    /// Card points of this rank.
    ///
    /// ```
    /// use doko_engine::Rank;
    /// assert_eq!(Rank::Ace.points() + Rank::Ten.points(), 21);
    /// ```
    pub const fn points(self) -> u8 {
        match self {
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
            Rank::Nine => 0,
        }
    }

    /// The rank's part of a canonical card code ("A", "10", "K", "Q", "J", "9").
    pub const fn code(self) -> &'static str {
        match self {
            Rank::Ace => "A",
            Rank::Ten => "10",
            Rank::King => "K",
            Rank::Queen => "Q",
            Rank::Jack => "J",
            Rank::Nine => "9",
        }
    }
}

/// A card: a suit and a rank. Both physical copies of a card are the same
/// `Card`; a hand is a multiset ([`crate::Cards`]).
///
/// The index (`0..24`) is `suit * 6 + rank`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The queen of clubs (die Alte).
    pub const CQ: Card = Card::new(Suit::Clubs, Rank::Queen);
    /// The jack of clubs (Karlchen, Charlie).
    pub const CJ: Card = Card::new(Suit::Clubs, Rank::Jack);
    /// The ten of hearts (Dulle).
    pub const H10: Card = Card::new(Suit::Hearts, Rank::Ten);
    /// The ace of diamonds (Fuchs, fox).
    pub const DA: Card = Card::new(Suit::Diamonds, Rank::Ace);
    /// The queen of diamonds (Lieschen Müller's catcher).
    pub const DQ: Card = Card::new(Suit::Diamonds, Rank::Queen);
    /// The ace of hearts.
    pub const HA: Card = Card::new(Suit::Hearts, Rank::Ace);
    /// The king of hearts.
    pub const HK: Card = Card::new(Suit::Hearts, Rank::King);
    /// The king of diamonds (Genscher).
    pub const DK: Card = Card::new(Suit::Diamonds, Rank::King);
    /// The queen of spades (the second one makes the Schwarze Sau).
    pub const SQ: Card = Card::new(Suit::Spades, Rank::Queen);
    /// The ten of diamonds (half a chicken).
    pub const D10: Card = Card::new(Suit::Diamonds, Rank::Ten);

    /// The card of a suit and rank.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 6 + rank as u8)
    }

    /// The card with an index `0..24`.
    ///
    /// # Panics
    /// When the index is 24 or more.
    #[track_caller]
    pub const fn from_index(index: usize) -> Card {
        assert!(index < 24, "card index out of range");
        Card(index as u8)
    }

    /// The card whose pair of bits in a [`Cards`](crate::Cards) holds
    /// `bit` (a word with one bit set, below bit 48).
    #[inline]
    pub(crate) const fn from_bit(bit: u64) -> Card {
        debug_assert!(bit.count_ones() == 1 && bit < 1 << 48);
        Card((bit.trailing_zeros() / 2) as u8)
    }

    /// The card's index `0..24`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The printed suit (a trump keeps its printed suit here).
    pub const fn suit(self) -> Suit {
        match self.0 / 6 {
            0 => Suit::Clubs,
            1 => Suit::Spades,
            2 => Suit::Hearts,
            _ => Suit::Diamonds,
        }
    }

    /// The rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 % 6) as usize]
    }

    /// Card points (Augen).
    #[inline]
    pub const fn points(self) -> u8 {
        // by card index (a load, not a division by six); 32 entries so
        // that the masked index needs no bounds check
        const POINTS: [u8; 32] = {
            const BY_RANK: [u8; 6] = [11, 10, 4, 3, 2, 0];
            let mut t = [0u8; 32];
            let mut i = 0;
            while i < 24 {
                t[i] = BY_RANK[i % 6];
                i += 1;
            }
            t
        };
        POINTS[(self.0 & 31) as usize]
    }

    /// All 24 cards, clubs first, ace to nine in each suit.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..24u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 3];
        let mut n = self.suit().letter().encode_utf8(&mut buf).len();
        for b in self.rank().code().bytes() {
            buf[n] = b;
            n += 1;
        }
        f.pad(std::str::from_utf8(&buf[..n]).expect("ASCII"))
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card code that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card code '{0}' (expected a suit C, S, H, D and a rank A, 10, K, Q, J, 9, e.g. CQ or H10)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    /// Reads a card code: suit letter, then rank; case-insensitive, `T`
    /// for ten accepted.
    ///
    /// ```
    /// use doko_engine::Card;
    /// assert_eq!("hT".parse::<Card>().unwrap(), Card::H10);
    /// assert_eq!("cq".parse::<Card>().unwrap().to_string(), "CQ");
    /// assert!("X7".parse::<Card>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(crate::quote::quoted(s));
        let mut chars = s.chars();
        let suit = chars.next().and_then(Suit::from_letter).ok_or_else(err)?;
        let rest = chars.as_str();
        let rank = match rest.to_ascii_uppercase().as_str() {
            "A" => Rank::Ace,
            "10" | "T" => Rank::Ten,
            "K" => Rank::King,
            "Q" => Rank::Queen,
            "J" => Rank::Jack,
            "9" => Rank::Nine,
            _ => return Err(err()),
        };
        Ok(Card::new(suit, rank))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(Card::all().map(|c| c.points() as u32).sum::<u32>() * 2, 240);
    }

    #[test]
    fn bad_codes() {
        for s in ["", "C", "Q", "C1", "CQQ", "Z9", "C8", "♣Q"] {
            assert!(s.parse::<Card>().is_err(), "{s}");
        }
    }
}
