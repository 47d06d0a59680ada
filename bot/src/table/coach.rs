//! The coach (`hint`, at tables whose deal has the `coach` rule on): the
//! table checks and marks it; the advice itself is the service's to
//! compute (it searches), from the person's own view only.

use super::{CommandError, Event, Table};
use crate::ids::Actor;

impl Table {
    /// `hint` on the person's own turn (the authority checked the turn):
    /// allowed when the deal's rules have the coach on; the deal is marked
    /// for the score sheet and the table is told.
    pub(super) fn hint(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let ts = self.require_seat(actor)?;
        let g = self.current_game().ok_or(CommandError::NoDeal)?;
        // (on one's own turn, as a move: the engine's answer otherwise)
        let seat = self.game_seat(ts).ok_or(CommandError::SittingOut)?;
        let turn = g.mandatory_announcement().or(g.to_act()).ok_or(CommandError::NoDeal)?;
        if seat != turn {
            return Err(doko_engine::ActionError::NotYourTurn { seat, turn }.into());
        }
        if !g.rules().coach {
            return Err(CommandError::NoCoach);
        }
        self.session.as_mut().ok_or(CommandError::NoDeal)?.take_hint();
        ev.push(Event::HintTaken(actor.name.clone()));
        Ok(())
    }
}
