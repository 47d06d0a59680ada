//! The table's side of the turn clock: restarting it on every move, the
//! timeout in force, and what happens when the time is up (a reminder at
//! half time, then the table's timeout policy).

use doko_engine::{Action, SeatView};

use super::clock::TurnClock;
use super::seats::PlayerKey;
use super::{CommandError, Ctx, Event, Table};
use crate::command::TimeoutPolicy;
use doko_players::BotLevel;

impl Table {
    /// Keeps the turn clock: restarts it when another person must act or
    /// anything was played since it started (the same person may have to
    /// act again).
    pub fn update_clock(&mut self, now_ms: u64) {
        let who = self.person_to_act().map(|(u, _)| PlayerKey::person(&u));
        let moves = self.moves;
        match (&self.turn, who) {
            (Some(t), Some(k)) if t.key == k && t.moves == moves => {}
            (_, Some(key)) => self.turn = Some(TurnClock { key, since_ms: now_ms, reminded: false, moves }),
            (_, None) => self.turn = None,
        }
    }

    /// The turn timeout in force, in seconds (the table's current
    /// setting; 0: none).
    pub fn turn_timeout(&self) -> u32 {
        self.rules.turn_timeout
    }

    /// Applies the turn timeout at `now_ms`: a reminder at half time, then
    /// the table's policy. Returns the events (none when nothing is due).
    pub fn check_timeout(
        &mut self,
        now_ms: u64,
        ctx: &mut Ctx<'_>,
        decide: &mut dyn FnMut(BotLevel, &SeatView) -> Action,
    ) -> Result<Vec<Event>, CommandError> {
        let timeout_s = self.turn_timeout();
        let limit = u64::from(timeout_s) * 1000;
        let Some(turn) = self.turn.clone() else { return Ok(Vec::new()) };
        let Some((user, ts)) = self.person_to_act() else { return Ok(Vec::new()) };
        if limit == 0 || self.clock_paused || PlayerKey::person(&user) != turn.key || turn.moves != self.moves {
            return Ok(Vec::new());
        }
        let elapsed = now_ms.saturating_sub(turn.since_ms);
        let name = self.seats[ts].name().to_string();
        let mut ev = Vec::new();
        if elapsed >= limit {
            match self.policy {
                TimeoutPolicy::StandIn => {
                    self.seats[ts].stand_in_for_timeout();
                    ev.push(Event::TimedOut { name, timeout_s });
                    ev.extend(self.run_computers(ctx, decide)?);
                }
                TimeoutPolicy::Abort => {
                    // not scored; the same dealer deals again on start
                    let record = self.abort_deal("timeout", ctx)?;
                    ev.push(Event::Aborted { name, timeout_s, record });
                    self.end_of_deal(&mut ev)?;
                }
            }
            self.update_clock(now_ms);
        } else if elapsed * 2 >= limit && !turn.reminded {
            self.turn.as_mut().expect("clock").reminded = true;
            let left_s = u32::try_from(limit.saturating_sub(elapsed).div_ceil(1000)).unwrap_or(timeout_s);
            ev.push(Event::Reminder { name, left_s, timeout_s });
        }
        Ok(ev)
    }
}
