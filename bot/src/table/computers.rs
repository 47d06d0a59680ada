//! Computer players (and stand-ins for absent people) taking their turns.

use doko_engine::{Action, Bid, SeatView};

use super::{CommandError, Ctx, Event, Table};
use doko_players::BotLevel;

/// At most this many computer steps per call (a session of computers only
/// ends long before).
const MAX_STEPS: usize = 10_000;

impl Table {
    /// Lets computer players (and stand-ins) act until a person must act or
    /// the session ends. `decide` chooses an action from a seat's view.
    pub fn run_computers(
        &mut self,
        ctx: &mut Ctx<'_>,
        decide: &mut dyn FnMut(BotLevel, &SeatView) -> Action,
    ) -> Result<Vec<Event>, CommandError> {
        let mut ev = Vec::new();
        for _ in 0..MAX_STEPS {
            let Some(sess) = &self.session else { break };
            let Some(g) = sess.game() else { break };
            let Some(seat) = g.to_act() else { break };
            let Some(ts) = self.table_seat(seat) else { break };
            let Some(level) = self.seats[ts].computer_level() else { break };
            let view = g.view(seat);
            let mut action = decide(level, &view);
            if let Action::Bid(b) = action {
                action = Action::Bid(sess.computer_bid(seat, b));
            }
            // never stall: a refused choice falls back to the first legal action
            let fallback = match view.legal.first() {
                Some(Action::Bid(_)) => Some(Action::Bid(sess.computer_bid(seat, Bid::Healthy))),
                a => a.copied(),
            };
            let name = self.seats[ts].name().to_string();
            let session = self.session_mut()?;
            let taken = match session.act(seat, action) {
                Ok(a) => a,
                Err(_) => {
                    let fallback = fallback.ok_or_else(|| CommandError::Damaged("no legal action".into()))?;
                    session.act(seat, fallback)?
                }
            };
            self.moves += 1;
            ev.push(self.event_of(name, taken));
            self.after_action(ctx, &mut ev)?;
            #[cfg(feature = "failpoints")]
            if crate::failpoint::fails("computer-step") {
                return Err(CommandError::Damaged("failpoint computer-step".into()));
            }
        }
        Ok(ev)
    }
}
