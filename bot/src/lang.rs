//! A channel's language and the card symbols in it; Doppelkopf's words in
//! each language come from the catalog (`i18n`, `terms`).

use doko_engine::Card;
use serde::{Deserialize, Serialize};

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
