//! Per-player statistics of a channel, across sessions.

use std::collections::BTreeMap;

use doko_engine::{ByPlayer, Scored, Seat};
use serde::{Deserialize, Serialize};

use super::seats::PlayerKey;

/// One player's statistics. Stored as a row, `[name, deals, won, solos,
/// solos_won, points, sessions]` (format 2); the object with named fields
/// that format 1 wrote is read as well.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

type Row = (String, u32, u32, u32, u32, i64, u32);

/// The forms a player's statistics are stored in.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredStats {
    Row(Row),
    Named { name: String, deals: u32, won: u32, solos: u32, solos_won: u32, points: i64, sessions: u32 },
}

impl Serialize for PlayerStats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.name, self.deals, self.won, self.solos, self.solos_won, self.points, self.sessions).serialize(s)
    }
}

impl<'de> Deserialize<'de> for PlayerStats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match StoredStats::deserialize(d)? {
            StoredStats::Row((name, deals, won, solos, solos_won, points, sessions))
            | StoredStats::Named { name, deals, won, solos, solos_won, points, sessions } => {
                PlayerStats { name, deals, won, solos, solos_won, points, sessions }
            }
        })
    }
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

/// The calendar month (UTC) of a time, as `2026-11`.
pub fn month_of(ms: u64) -> String {
    let (y, m, _) = civil(ms / 86_400_000);
    format!("{y:04}-{m:02}")
}

/// The date (UTC) of a time, as `2026-11-26`.
pub fn date_of(ms: u64) -> String {
    let (y, m, d) = civil(ms / 86_400_000);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Year, month and day of a day counted from 1970-01-01 (the proleptic
/// Gregorian calendar, after Howard Hinnant's `civil_from_days`).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

impl Stats {
    /// Adds another table's statistics (a server's leaderboard): by
    /// player, the name of the later one kept.
    pub fn merge(&mut self, other: &Stats) {
        for (k, st) in other.iter() {
            let mine = self.0.entry(k.clone()).or_default();
            if mine.name.is_empty() || !st.name.is_empty() {
                mine.name.clone_from(&st.name);
            }
            mine.deals += st.deals;
            mine.won += st.won;
            mine.solos += st.solos;
            mine.solos_won += st.solos_won;
            mine.points += st.points;
            mine.sessions += st.sessions;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_dates_are_the_calendars() {
        assert_eq!(month_of(0), "1970-01");
        assert_eq!(date_of(951_782_400_000), "2000-02-29");
        assert_eq!(date_of(951_868_800_000), "2000-03-01");
        // 2026-11-26 07:30 UTC and the last millisecond of November
        assert_eq!(date_of(1_795_678_200_000), "2026-11-26");
        assert_eq!(month_of(1_796_083_199_999), "2026-11");
        assert_eq!(month_of(1_796_083_200_000), "2026-12");
    }
}
