//! The kinds of solo and the trumps each makes: what the rules list as
//! allowed solos and what a contract orders its cards by.

use crate::card::{Rank, Suit};

/// The kinds of solo.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum SoloKind {
    /// Diamonds solo: the normal game's trumps.
    Diamonds = 0,
    /// Hearts solo (the hearts ten stays on top).
    Hearts = 1,
    /// Spades solo.
    Spades = 2,
    /// Clubs solo.
    Clubs = 3,
    /// Queens solo (Damensolo).
    Queens = 4,
    /// Jacks solo (Bubensolo).
    Jacks = 5,
    /// Aces solo, no trumps (Fleischlos).
    Aces = 6,
    /// Kings solo (house rule).
    Kings = 7,
}

impl SoloKind {
    /// All solo kinds, in key order.
    pub const ALL: [SoloKind; 8] = [
        SoloKind::Diamonds,
        SoloKind::Hearts,
        SoloKind::Spades,
        SoloKind::Clubs,
        SoloKind::Queens,
        SoloKind::Jacks,
        SoloKind::Aces,
        SoloKind::Kings,
    ];

    /// The kind's name in rule keys and records (`solo-<key>`).
    pub const fn key(self) -> &'static str {
        match self {
            SoloKind::Diamonds => "diamonds",
            SoloKind::Hearts => "hearts",
            SoloKind::Spades => "spades",
            SoloKind::Clubs => "clubs",
            SoloKind::Queens => "queens",
            SoloKind::Jacks => "jacks",
            SoloKind::Aces => "aces",
            SoloKind::Kings => "kings",
        }
    }

    /// The kind for a key.
    pub fn from_key(s: &str) -> Option<SoloKind> {
        SoloKind::ALL.into_iter().find(|k| k.key() == s)
    }

    /// The trump structure of this solo.
    pub const fn trumps(self) -> Trumps {
        match self {
            SoloKind::Diamonds => Trumps::Suit(Suit::Diamonds),
            SoloKind::Hearts => Trumps::Suit(Suit::Hearts),
            SoloKind::Spades => Trumps::Suit(Suit::Spades),
            SoloKind::Clubs => Trumps::Suit(Suit::Clubs),
            SoloKind::Queens => Trumps::Rank(Rank::Queen),
            SoloKind::Jacks => Trumps::Rank(Rank::Jack),
            SoloKind::Kings => Trumps::Rank(Rank::King),
            SoloKind::Aces => Trumps::None,
        }
    }
}

/// Which cards are trumps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Trumps {
    /// Hearts ten, queens, jacks, then the suit's A 10 K 9.
    Suit(Suit),
    /// Only the four cards of a rank (queens, jacks or kings).
    Rank(Rank),
    /// No trumps (aces solo).
    None,
}
