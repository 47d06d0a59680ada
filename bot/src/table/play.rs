//! Playing a session: dealing, a person's game action, and what follows a
//! finished or void deal. The rules of the session are the engine's; this
//! file names the players and keeps records and statistics.

use doko_engine::{Action, Contract, NextDeal, Outcome, Party, Phase, Record, Scored, Seat};

use super::events::{Event, PovertyMove, RevealedTrick, Summary, event_for};
use super::{CommandError, Ctx, Table, TableSession, stats};
use crate::ids::Actor;

impl Table {
    /// A person's game action: checked by the session and the engine,
    /// kept, reported.
    pub(super) fn act_for(
        &mut self,
        actor: &Actor,
        action: Action,
        ctx: &mut Ctx<'_>,
        ev: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let seat = self.my_seat(actor)?;
        let action = self.session_mut()?.act(seat, action)?;
        self.moves += 1;
        ev.push(self.event_of(actor.name.clone(), action));
        self.after_action(ctx, ev)
    }

    /// The public event of an action just taken (cards played before it make
    /// a bid a Schwarze Sau's solo).
    pub(super) fn event_of(&self, name: String, action: Action) -> Event {
        let mid_deal = self.current_game().is_some_and(|g| g.plays() > 0);
        event_for(name, action, mid_deal, |s| self.seat_name(s))
    }

    /// The name of the player on a game seat of the deal being played.
    pub(super) fn seat_name(&self, s: Seat) -> String {
        let Some(ts) = &self.session else { return String::new() };
        ts.session().deal().map(|d| ts.name(d.player(s)).to_string()).unwrap_or_default()
    }

    /// The game seat of a person who may act in the deal being played.
    fn my_seat(&self, actor: &Actor) -> Result<Seat, CommandError> {
        let ts = self.require_seat(actor)?;
        if !self.deal_running() {
            return Err(CommandError::NoDeal);
        }
        let seat = self.game_seat(ts).ok_or(CommandError::SittingOut)?;
        if self.seats[ts].stand_in().is_some() {
            return Err(CommandError::ComputerPlays);
        }
        Ok(seat)
    }

    pub(super) fn session_mut(&mut self) -> Result<&mut doko_engine::Session, CommandError> {
        Ok(self.session.as_mut().ok_or(CommandError::NoDeal)?.session_mut())
    }

    /// Deals the next deal of the session, or ends the session.
    pub(super) fn deal_next(&mut self, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let rules = self.rules;
        let sess = self.session.as_mut().ok_or(CommandError::NoDeal)?;
        match sess.session_mut().next_deal(&rules, &mut *ctx.seed)? {
            NextDeal::Over => ev.push(Event::SessionOver),
            NextDeal::Dealt(d) => ev.push({
                // a new table message for each deal, here and in the
                // linked channels
                self.posting.new_deal();
                for l in &mut self.links {
                    l.new_message();
                }
                self.moves += 1;
                Event::Dealt {
                    number: d.number,
                    dealer: sess.name(d.dealer).to_string(),
                    bock: d.bock_rounds,
                    forced: d.forced.map(|p| sess.name(p).to_string()),
                }
            }),
        }
        Ok(())
    }

    /// Whether a person plays a seat themselves, so the next deal may be
    /// dealt at once. Computers never play past the end of a deal on
    /// their own: a table of computers and absent people waits for a
    /// person's `start` (and says so).
    fn someone_here(&self, ev: &mut Vec<Event>) -> bool {
        let here = self.seats.iter().any(|s| s.person_plays());
        if !here {
            ev.push(Event::Waiting);
        }
        here
    }

    /// After any action: report a completed trick, score a finished deal,
    /// deal again when the deal was void or scored and the session goes on.
    pub(super) fn after_action(&mut self, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let Some(g) = self.current_game() else { return Ok(()) };
        if let Some(Event::Played { .. }) = ev.last()
            && g.current_trick().len == 0
            && let Some(t) = g.tricks().last()
        {
            ev.push(Event::TrickWon { name: self.name_of(t.winner).into_owned(), points: t.points() });
            if g.phase() == Phase::SowChoice {
                ev.push(Event::SowTaken(self.name_of(t.winner).into_owned()));
            }
        }
        if let Some(Event::Poverty { step: PovertyMove::Declined, .. }) = ev.last()
            && g.contract() == Contract::BlackSow(None)
            && g.plays() == 0
        {
            ev.push(Event::SowStarted);
        }
        if !g.is_over() {
            return Ok(());
        }
        let record = self.records + 1;
        match self.session_mut()?.finish(record)? {
            Outcome::Redeal(reason) => {
                self.session.as_mut().expect("a deal had a session").deal_ended(None);
                ev.push(Event::Redeal(reason));
                if self.end_of_deal(ev)? && self.someone_here(ev) { self.deal_next(ctx, ev) } else { Ok(()) }
            }
            Outcome::Scored(scored) => {
                self.session.as_mut().expect("a scored deal has a session").deal_ended(Some(scored.row.deal));
                self.records = record;
                self.remember_played(record, &scored.deal);
                ctx.new_records.push(Record::from_game(scored.deal.game()).to_compact());
                let sess = self.session.as_ref().expect("a scored deal has a session");
                self.stats.make_mut().deal_scored(sess.players(), sess.names(), &scored);
                let month = stats::month_of(ctx.now_ms);
                let monthly = self.monthly.make_mut();
                monthly.entry(month).or_default().deal_scored(sess.players(), sess.names(), &scored);
                while monthly.len() > super::MONTHS_KEPT {
                    monthly.pop_first();
                }
                ev.push(Event::Scored(Box::new(summary(sess, &scored))));
                let over = sess.is_over();
                if self.end_of_deal(ev)? && !over && self.someone_here(ev) { self.deal_next(ctx, ev) } else { Ok(()) }
            }
        }
    }
}

/// The result of a scored deal with the players' names.
fn summary(sess: &TableSession, s: &Scored) -> Summary {
    let g = s.deal.game();
    let name = |seat: Seat| sess.name(s.deal.player(seat)).to_string();
    let names = |p: Party| -> Vec<String> { Seat::ALL.into_iter().filter(|x| g.party(*x) == p).map(name).collect() };
    Summary {
        number: s.row.deal,
        record: s.row.record,
        contract: g.contract(),
        declarer: g.declarer().map(name),
        re: names(Party::Re),
        kontra: names(Party::Kontra),
        card_points: s.score.card_points,
        winner: s.score.winner,
        value: s.score.game_value,
        items: s.score.breakdown.items().to_vec(),
        scores: sess.names().iter().cloned().zip(s.row.scores.iter().copied()).collect(),
        bock: s.row.rounds(),
        hands: Seat::ALL.into_iter().map(|seat| (name(seat), g.order().sorted(g.dealt()[seat.index()]))).collect(),
        tricks: g
            .tricks()
            .iter()
            .map(|t| RevealedTrick {
                leader: name(t.leader),
                cards: t.cards.to_vec(),
                winner: name(t.winner),
                points: t.points(),
            })
            .collect(),
    }
}
