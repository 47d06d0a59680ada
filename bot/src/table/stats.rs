//! Per-player statistics of a channel, across sessions.

use std::collections::BTreeMap;

use doko_engine::{ByPlayer, Scored, Seat};
use serde::{Deserialize, Serialize};

use super::seats::PlayerKey;

/// One player's statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Name last seen.
    pub name: String,
    /// Deals played.
    pub deals: u32,
    /// Deals won.
    pub won: u32,
    /// Solos played as declarer.
    pub solos: u32,
    /// Solos won.
    pub solos_won: u32,
    /// Points in total.
    pub points: i64,
    /// Sessions played.
    pub sessions: u32,
}

/// Statistics by stored player id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Stats(BTreeMap<PlayerKey, PlayerStats>);

impl Stats {
    /// A player's statistics.
    pub fn get(&self, key: &PlayerKey) -> Option<&PlayerStats> {
        self.0.get(key)
    }

    /// Whether nobody has statistics yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every player's statistics, by key.
    pub fn values(&self) -> impl Iterator<Item = &PlayerStats> {
        self.0.values()
    }

    /// Every player with their statistics.
    pub fn iter(&self) -> impl Iterator<Item = (&PlayerKey, &PlayerStats)> {
        self.0.iter()
    }

    /// Counts a new session for these players.
    pub(super) fn session_started<'a>(&mut self, keys: impl IntoIterator<Item = &'a PlayerKey>) {
        for k in keys {
            self.0.entry(k.clone()).or_default().sessions += 1;
        }
    }

    /// Counts a scored deal for the four who played it.
    pub(super) fn deal_scored(&mut self, keys: &ByPlayer<PlayerKey>, names: &ByPlayer<String>, scored: &Scored) {
        let g = scored.deal.game();
        for s in Seat::ALL {
            let p = scored.deal.player(s);
            let st = self.0.entry(keys[p].clone()).or_default();
            st.name = names[p].clone();
            st.deals += 1;
            let won = scored.score.winner.is_some_and(|w| w == g.party(s));
            st.won += u32::from(won);
            st.points += scored.row.scores[p];
            if g.is_solo() && g.declarer() == Some(s) {
                st.solos += 1;
                st.solos_won += u32::from(won);
            }
        }
    }
}
