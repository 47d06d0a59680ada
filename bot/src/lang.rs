//! Languages and Doppelkopf's own terms in each.

use doko_engine::{Call, Card, Contract, Party, Rank, SoloKind, Suit};
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
    /// The language for a code (`en`, `de`, `english`, `deutsch`).
    pub fn from_code(s: &str) -> Option<Lang> {
        match s.to_lowercase().as_str() {
            "en" | "english" | "englisch" => Some(Lang::En),
            "de" | "deutsch" | "german" => Some(Lang::De),
            _ => None,
        }
    }

    /// The code.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }

    /// Picks the English or German text.
    pub fn t<'a>(self, en: &'a str, de: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::De => de,
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

    /// The party's name (Re and Kontra in both languages).
    pub fn party(self, p: Party) -> &'static str {
        match p {
            Party::Re => "Re",
            Party::Kontra => "Kontra",
        }
    }

    /// An announcement's name.
    pub fn call(self, c: Call) -> &'static str {
        match (self, c) {
            (_, Call::Re) => "Re",
            (_, Call::Kontra) => "Kontra",
            (Lang::En, Call::No90) => "no 90",
            (Lang::En, Call::No60) => "no 60",
            (Lang::En, Call::No30) => "no 30",
            (Lang::De, Call::No90) => "keine 90",
            (Lang::De, Call::No60) => "keine 60",
            (Lang::De, Call::No30) => "keine 30",
            (_, Call::Schwarz) => "schwarz",
        }
    }

    /// A solo kind's name.
    pub fn solo(self, k: SoloKind) -> &'static str {
        match (self, k) {
            (Lang::En, SoloKind::Diamonds) => "diamonds solo",
            (Lang::En, SoloKind::Hearts) => "hearts solo",
            (Lang::En, SoloKind::Spades) => "spades solo",
            (Lang::En, SoloKind::Clubs) => "clubs solo",
            (Lang::En, SoloKind::Queens) => "queens solo",
            (Lang::En, SoloKind::Jacks) => "jacks solo",
            (Lang::En, SoloKind::Aces) => "aces solo (fleischlos)",
            (Lang::En, SoloKind::Kings) => "kings solo",
            (Lang::De, SoloKind::Diamonds) => "Karo-Solo",
            (Lang::De, SoloKind::Hearts) => "Herz-Solo",
            (Lang::De, SoloKind::Spades) => "Pik-Solo",
            (Lang::De, SoloKind::Clubs) => "Kreuz-Solo",
            (Lang::De, SoloKind::Queens) => "Damensolo",
            (Lang::De, SoloKind::Jacks) => "Bubensolo",
            (Lang::De, SoloKind::Aces) => "Fleischloser",
            (Lang::De, SoloKind::Kings) => "Königssolo",
        }
    }

    /// A contract's name.
    pub fn contract(self, c: Contract) -> String {
        match c {
            Contract::Normal => self.t("normal game", "Normalspiel").into(),
            Contract::Wedding => self.t("wedding (Hochzeit)", "Hochzeit").into(),
            Contract::SilentSolo => self.t("silent solo", "stilles Solo").into(),
            Contract::Poverty => self.t("poverty (Armut)", "Armut").into(),
            Contract::Solo(k) => self.solo(k).into(),
        }
    }
}
