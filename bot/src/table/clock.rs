//! The turn clock: which person must act and since when, the reminder at
//! half time and the table's policy when the time is up.

use doko_engine::{Action, SeatView};
use serde::{Deserialize, Serialize};

use super::seats::PlayerKey;
use super::{CommandError, Ctx, Event, Table};
use crate::command::{BotLevel, TimeoutPolicy};

/// Which person must act and since when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    key: PlayerKey,
    since_ms: u64,
    reminded: bool,
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

impl Table {
    /// Keeps the turn clock: restarts it when another person must act.
    pub fn update_clock(&mut self, now_ms: u64) {
        let who = self.person_to_act().map(|(u, _)| PlayerKey::person(&u));
        match (&self.turn, who) {
            (Some(t), Some(k)) if t.key == k => {}
            (_, Some(key)) => self.turn = Some(TurnClock { key, since_ms: now_ms, reminded: false }),
            (_, None) => self.turn = None,
        }
    }

    /// Applies the turn timeout at `now_ms`: a reminder at half time, then
    /// the table's policy. Returns the events (none when nothing is due).
    pub fn check_timeout(
        &mut self,
        now_ms: u64,
        ctx: &mut Ctx<'_>,
        decide: &mut dyn FnMut(BotLevel, &SeatView) -> Action,
    ) -> Result<Vec<Event>, CommandError> {
        let limit = u64::from(self.current_game().map_or(self.rules.turn_timeout, |g| g.rules().turn_timeout)) * 1000;
        let Some(turn) = self.turn.clone() else { return Ok(Vec::new()) };
        let Some((user, ts)) = self.person_to_act() else { return Ok(Vec::new()) };
        if limit == 0 || PlayerKey::person(&user) != turn.key {
            return Ok(Vec::new());
        }
        let elapsed = now_ms.saturating_sub(turn.since_ms);
        let name = self.seats[ts].name().to_string();
        let mut ev = Vec::new();
        if elapsed >= limit {
            match self.policy {
                TimeoutPolicy::StandIn => {
                    self.seats[ts].set_stand_in(Some(BotLevel::Basic));
                    ev.push(Event::TimedOut(name));
                    ev.extend(self.run_computers(ctx, decide)?);
                }
                TimeoutPolicy::Abort => {
                    if let Some(s) = &mut self.session {
                        // not scored; the same dealer deals again on start
                        let _ = s.session_mut().abort();
                    }
                    ev.push(Event::Aborted(name));
                }
            }
            self.update_clock(now_ms);
        } else if elapsed * 2 >= limit && !turn.reminded {
            self.turn.as_mut().expect("clock").reminded = true;
            ev.push(Event::Reminder(name));
        }
        Ok(ev)
    }
}
