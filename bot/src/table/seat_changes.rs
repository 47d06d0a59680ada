//! Finding and freeing seats (kick, remove a computer), ending or
//! aborting a deal, and keeping ended lists.

use super::errors::CommandError;
use super::events::Event;
use super::seats::TableSeat;
use super::session::TableSession;
use super::{Ctx, HISTORY_KEPT, Table};

impl Table {
    /// Keeps an ended session with its sheet (the oldest beyond
    /// [`HISTORY_KEPT`] go).
    pub(super) fn keep_in_history(&mut self, old: TableSession) {
        let history = self.history.make_mut();
        history.push(old);
        let extra = history.len().saturating_sub(HISTORY_KEPT);
        history.drain(..extra);
    }

    /// The seat a kick names: a platform id (`@anna:example.org`; an
    /// adapter gives a mention as the id it names), or the name shown at
    /// the table (`@` in front allowed), all without regard to case.
    pub(super) fn find_seat(&self, who: &str) -> Result<TableSeat, CommandError> {
        let w = who.trim().to_lowercase();
        let bare = w.strip_prefix('@').unwrap_or(&w);
        self.seats
            .enumerate()
            .find(|(_, s)| {
                let uid = s.user().map(|u| u.id.to_lowercase());
                uid.as_deref() == Some(w.as_str()) || s.name().to_lowercase() == w || s.name().to_lowercase() == bare
            })
            .map(|(ts, _)| ts)
            .ok_or_else(|| CommandError::NoSuchPlayer(who.to_string()))
    }

    /// A computer's seat: by name, or the last computer seated.
    pub(super) fn find_computer(&self, name: Option<&str>) -> Result<TableSeat, CommandError> {
        let mut computers = self.seats.enumerate().filter(|(_, s)| s.is_computer() && !s.leaving());
        let found = match name {
            Some(n) => {
                let n = n.trim().to_lowercase();
                computers.find(|(_, s)| s.name().to_lowercase() == n)
            }
            None => computers.last(),
        };
        found.map(|(ts, _)| ts).ok_or(CommandError::NoComputer)
    }

    /// Frees a seat (a kick when `by` names the admin, else a computer
    /// removed): at once between deals, which ends a session it played in;
    /// during a deal a computer plays it to the deal's end.
    pub(super) fn free_seat(&mut self, ts: TableSeat, by: Option<String>) -> Result<Vec<Event>, CommandError> {
        let name = self.seats[ts].name().to_string();
        let now = !self.deal_running();
        let mut ev = vec![match by {
            Some(by) => Event::Kicked { name, by, now },
            None => Event::BotRemoved { name, now },
        }];
        if now {
            self.seats.remove(ts);
            if let Some(s) = &mut self.session
                && s.session_mut().end()?
            {
                ev.push(Event::SessionOver);
            }
        } else {
            self.seats[ts].set_leaving();
        }
        Ok(ev)
    }

    /// Voids the deal being played and files its record as aborted (for
    /// `reason`: `admin`, `reset`, `timeout`); the same dealer deals next.
    /// Returns the record's number.
    pub(super) fn abort_deal(&mut self, reason: &str, ctx: &mut Ctx<'_>) -> Result<u32, CommandError> {
        let g = self.current_game().ok_or(CommandError::NoDeal)?.clone();
        let deal = self.session_mut()?.abort()?;
        if let Some(s) = &mut self.session {
            s.deal_ended(None);
        }
        self.records += 1;
        self.remember_played(self.records, &deal);
        ctx.new_records.push(doko_engine::Record::aborted(&g, reason).to_compact());
        Ok(self.records)
    }

    /// When a deal ends (scored, void or aborted): seats marked leaving
    /// are freed, which ends the session. Returns whether the session may
    /// go on. (A person whose time ran out stays away, their stand-in
    /// playing, until they give a command: one notice per absence, and a
    /// table where nobody is left deals no further deal.)
    pub(super) fn end_of_deal(&mut self, ev: &mut Vec<Event>) -> Result<bool, CommandError> {
        let freed = self.seats.remove_leaving();
        if freed.is_empty() {
            return Ok(true);
        }
        ev.extend(freed.into_iter().map(Event::Freed));
        if let Some(s) = &mut self.session
            && s.session_mut().end()?
        {
            ev.push(Event::SessionOver);
        }
        Ok(false)
    }
}
