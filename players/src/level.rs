//! The strengths of computer players, by the names players type and the
//! arena takes, and a decision by a player of each strength.

use std::fmt;

use doko_engine::{Action, Rng, SeatView};
use serde::{Deserialize, Serialize};

use crate::player::{BasicPlayer, Player, RandomPlayer};
use crate::search::SearchPlayer;
use crate::strong::{StrongConfig, StrongPlayer};

/// The strength of a computer player (also the arena's kinds).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// Rule-following conventions (the default).
    #[default]
    Basic,
    /// Random legal actions (for tests and beginners' tables).
    Random,
    /// Determinized Monte Carlo within a time budget.
    Strong,
    /// Search over sampled worlds weighted by the bids and plays seen,
    /// playouts by the basic player's cards, an exact end solver.
    Expert,
    /// Ensemble UCT after Sievers and Helmert (an arena anchor).
    Uct,
}

impl BotLevel {
    /// Every level.
    pub const ALL: [BotLevel; 5] =
        [BotLevel::Basic, BotLevel::Strong, BotLevel::Expert, BotLevel::Uct, BotLevel::Random];

    /// The level's name.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Basic => "basic",
            BotLevel::Random => "random",
            BotLevel::Strong => "strong",
            BotLevel::Expert => "expert",
            BotLevel::Uct => "uct",
        }
    }

    /// The level for a word, English or German (`strong`, `stark`): the one
    /// place computer-player kinds are read, for commands and the arena.
    pub fn from_name(word: &str) -> Option<BotLevel> {
        Some(match word.to_lowercase().as_str() {
            "basic" | "einfach" => BotLevel::Basic,
            "random" | "zufall" => BotLevel::Random,
            "strong" | "stark" => BotLevel::Strong,
            "expert" | "experte" => BotLevel::Expert,
            "uct" => BotLevel::Uct,
            _ => return None,
        })
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decision by a computer of the given level (the searching ones within
/// `strong`'s time budget).
pub fn decide(level: BotLevel, view: &SeatView, rng: &mut Rng, strong: StrongConfig) -> Action {
    match level {
        BotLevel::Basic => BasicPlayer.decide(view),
        BotLevel::Random => RandomPlayer(Rng::new(rng.next_u64())).decide(view),
        BotLevel::Strong => StrongPlayer::new(strong, rng.next_u64()).decide(view),
        BotLevel::Expert => SearchPlayer::expert(strong.budget, rng.next_u64()).decide(view),
        BotLevel::Uct => SearchPlayer::uct(strong.budget, rng.next_u64()).decide(view),
    }
}
