//! Languages and Doppelkopf's own terms in each. The words come from the
//! catalog ([`crate::i18n`]); only the card symbols are built here.

use doko_engine::{Call, Card, Contract, Party, Rank, Reservation, SoloKind, Suit};
use serde::{Deserialize, Serialize};

use crate::cached_tr;

/// A channel's language.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English (Doppelkopf's German terms kept where players use them).
    #[default]
    En,
    /// German.
    De,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::De];

    /// The language for a code (`en`, `de`, `english`, `deutsch`).
    pub fn from_code(s: &str) -> Option<Lang> {
        match s.to_lowercase().as_str() {
            "en" | "english" | "englisch" => Some(Lang::En),
            "de" | "deutsch" | "german" => Some(Lang::De),
            _ => None,
        }
    }

    /// The language of a platform's locale (`de`, `de-DE`, `en-US`, ...);
    /// English for anything else.
    pub fn from_locale(locale: &str) -> Lang {
        if locale.to_lowercase().starts_with("de") { Lang::De } else { Lang::En }
    }

    /// The code.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }

    /// A card with its suit symbol: `♣Q`, `♥10` (the same in both
    /// languages; German ranks D, B for queen and jack).
    pub fn card(self, c: Card) -> String {
        let s = match c.suit() {
            Suit::Clubs => '♣',
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
        };
        let r = match (self, c.rank()) {
            (Lang::De, Rank::Queen) => "D",
            (Lang::De, Rank::Jack) => "B",
            (_, r) => r.code(),
        };
        format!("{s}{r}")
    }

    /// Cards with their symbols, separated by spaces.
    pub fn cards(self, cards: impl IntoIterator<Item = Card>) -> String {
        cards.into_iter().map(|c| self.card(c)).collect::<Vec<_>>().join(" ")
    }

    /// The party's name (Re and Kontra in both languages).
    pub fn party(self, p: Party) -> String {
        cached_tr!(self, "party", party = party_key(p))
    }

    /// An announcement's name.
    pub fn call(self, c: Call) -> String {
        cached_tr!(self, "call", call = c.name())
    }

    /// A solo kind's name.
    pub fn solo(self, k: SoloKind) -> String {
        cached_tr!(self, "solo", kind = k.key())
    }

    /// A reservation's name (a compulsory solo marked so).
    pub fn reservation(self, r: Reservation) -> String {
        match r {
            Reservation::Wedding(None) => cached_tr!(self, "reservation", what = "wedding"),
            Reservation::Wedding(Some(k)) => cached_tr!(self, "reservation-wedding-chosen", kind = k.key()),
            Reservation::Poverty => cached_tr!(self, "reservation", what = "poverty"),
            Reservation::ThrowIn => cached_tr!(self, "reservation", what = "throw-in"),
            Reservation::Solo { kind, duty: false } => self.solo(kind),
            Reservation::Solo { kind, duty: true } => cached_tr!(self, "reservation-duty-solo", solo = self.solo(kind)),
        }
    }

    /// A contract's name.
    pub fn contract(self, c: Contract) -> String {
        match c {
            Contract::Normal => cached_tr!(self, "contract", contract = "normal"),
            Contract::Wedding => cached_tr!(self, "contract", contract = "wedding"),
            Contract::SilentSolo => cached_tr!(self, "contract", contract = "silent-solo"),
            Contract::Poverty => cached_tr!(self, "contract", contract = "poverty"),
            Contract::Solo(k) => self.solo(k),
            Contract::BlackSow(None) => cached_tr!(self, "contract", contract = "black-sow"),
            Contract::BlackSow(Some(k)) => cached_tr!(self, "contract-black-sow-solo", solo = self.solo(k)),
        }
    }
}

/// The catalog's key of a party.
pub(crate) fn party_key(p: Party) -> &'static str {
    match p {
        Party::Re => "re",
        Party::Kontra => "kontra",
    }
}
