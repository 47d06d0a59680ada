//! The turn clock: which person must act and since when, the reminder at
//! half time and the table's policy when the time is up.
//!
//! The clock restarts on every move at the table (also when the same
//! person must act again: a trick's winner who leads, a person alone with
//! computers), so each person has the whole `turn_timeout` for each of
//! their moves. The timeout in force is the table's current setting, so a
//! deal dealt without one can still be rescued by setting one. A stand-in
//! for a person whose time ran out plays their turns to the end of that
//! deal only, and hands the seat back on their next command. Admins can
//! stop the clock (`pause`) and start it again (`resume`).

use serde::{Deserialize, Serialize};

use super::seats::PlayerKey;

/// Which person must act and since when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    pub(super) key: PlayerKey,
    pub(super) since_ms: u64,
    #[serde(default, skip_serializing_if = "super::skip::is_false")]
    pub(super) reminded: bool,
    /// The table's move count when the clock started.
    #[serde(default)]
    pub(super) moves: u64,
}

impl TurnClock {
    /// Who must act.
    pub fn key(&self) -> &PlayerKey {
        &self.key
    }

    /// Since when, in milliseconds since the Unix epoch.
    pub fn since_ms(&self) -> u64 {
        self.since_ms
    }

    /// Whether the reminder was sent.
    pub fn reminded(&self) -> bool {
        self.reminded
    }
}
