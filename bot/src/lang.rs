//! Languages and Doppelkopf's own terms in each. The words come from the
//! catalog ([`crate::i18n`]); only the card symbols are built here.

use doko_engine::{Call, Card, Contract, Party, Reservation, SoloKind};
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
        self.card_str(c).to_string()
    }

    /// [`card`](Self::card) without a new string: the symbols of the 24
    /// cards in each language are written once, at compile time.
    pub fn card_str(self, c: Card) -> &'static str {
        let names = match self {
            Lang::En => &CARDS_EN,
            Lang::De => &CARDS_DE,
        };
        names[c.index()]
    }

    /// Cards with their symbols, separated by spaces.
    pub fn cards(self, cards: impl IntoIterator<Item = Card>) -> String {
        self.cards_marked(cards, |_| false)
    }

    /// [`cards`](Self::cards), those for which `marked` holds in brackets
    /// (a hand's playable cards: `[♣Q] ♥10`).
    pub fn cards_marked(self, cards: impl IntoIterator<Item = Card>, marked: impl Fn(Card) -> bool) -> String {
        // (a hand's dozen cards without growing: a symbol is at most 7
        // bytes, with brackets and a space 10)
        let mut out = String::with_capacity(128);
        for c in cards {
            if !out.is_empty() {
                out.push(' ');
            }
            if marked(c) {
                out.push('[');
                out.push_str(self.card_str(c));
                out.push(']');
            } else {
                out.push_str(self.card_str(c));
            }
        }
        out
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

/// The cards' symbols in English, by card index (`suit * 6 + rank`).
const CARDS_EN: [&str; 24] = [
    "♣A", "♣10", "♣K", "♣Q", "♣J", "♣9", "♠A", "♠10", "♠K", "♠Q", "♠J", "♠9", //
    "♥A", "♥10", "♥K", "♥Q", "♥J", "♥9", "♦A", "♦10", "♦K", "♦Q", "♦J", "♦9",
];

/// The cards' symbols in German (D for the queen, B for the jack).
const CARDS_DE: [&str; 24] = [
    "♣A", "♣10", "♣K", "♣D", "♣B", "♣9", "♠A", "♠10", "♠K", "♠D", "♠B", "♠9", //
    "♥A", "♥10", "♥K", "♥D", "♥B", "♥9", "♦A", "♦10", "♦K", "♦D", "♦B", "♦9",
];

/// The catalog's key of a party.
pub(crate) fn party_key(p: Party) -> &'static str {
    match p {
        Party::Re => "re",
        Party::Kontra => "kontra",
    }
}

#[cfg(test)]
mod tests {
    use doko_engine::{Rank, Suit};

    use super::*;

    /// Each card's symbol is its suit's sign and its rank's letter in the
    /// language, for all 24 cards (the tables are indexed as cards are).
    #[test]
    fn a_cards_symbol_is_its_suit_and_rank() {
        for l in Lang::ALL {
            for suit in Suit::ALL {
                for rank in Rank::ALL {
                    let c = Card::new(suit, rank);
                    let sign = match suit {
                        Suit::Clubs => '♣',
                        Suit::Spades => '♠',
                        Suit::Hearts => '♥',
                        Suit::Diamonds => '♦',
                    };
                    let r = match (l, rank) {
                        (Lang::De, Rank::Queen) => "D",
                        (Lang::De, Rank::Jack) => "B",
                        (_, r) => r.code(),
                    };
                    assert_eq!(l.card(c), format!("{sign}{r}"), "{l:?}");
                }
            }
            let two = [Card::new(Suit::Hearts, Rank::Ten), Card::new(Suit::Clubs, Rank::Queen)];
            assert_eq!(l.cards(two), format!("{} {}", l.card(two[0]), l.card(two[1])));
            assert_eq!(l.cards([]), "");
            let marked = l.cards_marked(two, |c| c.rank() == Rank::Queen);
            assert_eq!(marked, format!("{} [{}]", l.card(two[0]), l.card(two[1])));
        }
    }
}
