//! What each command does to a table, once the authority has allowed it
//! ([`Table::apply`](super::Table::apply) checks, then dispatches here):
//! one method per command that changes something; queries change nothing.

use doko_engine::{Action, Cards, Seat, Session};
use doko_players::BotLevel;

use super::errors::CommandError;
use super::events::Event;
use super::seats::{MAX_SEATS, SeatInfo};
use super::session::TableSession;
use super::watch::{MAX_SPECTATORS, Spectator};
use super::{Ctx, Table, server_change, stats};
use crate::command::{Command, PovertyStep, RulesCmd, ServerCmd};
use crate::ids::Actor;

impl Table {
    /// Carries out an allowed command, adding what happened to `ev`.
    pub(super) fn dispatch(
        &mut self,
        actor: &Actor,
        cmd: &Command,
        ctx: &mut Ctx<'_>,
        ev: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        match cmd {
            Command::Join => self.join(actor, ev)?,
            Command::Leave => self.leave(actor, ev)?,
            Command::AddBot(level) => self.add_computer(*level, ev)?,
            Command::Away => {
                let ts = self.require_seat(actor)?;
                self.seats[ts].set_stand_in(Some(BotLevel::Basic));
                ev.push(Event::Away(actor.name.clone()));
            }
            Command::Back => self.back(actor, ev)?,
            Command::Start => self.start(ctx, ev)?,
            Command::Bid(bid) => self.act_for(actor, Action::Bid(*bid), ctx, ev)?,
            Command::Play(card) => self.act_for(actor, Action::Play(*card), ctx, ev)?,
            Command::Announce(call) => self.act_for(actor, Action::Announce(*call), ctx, ev)?,
            Command::Say(what) => self.act_for(actor, Action::Say(*what), ctx, ev)?,
            Command::Genscher(who) => self.genscher(actor, who, ctx, ev)?,
            Command::Poverty(step) => self.act_for(actor, poverty_action(step), ctx, ev)?,
            Command::Rules(rc) => self.rules_command(rc, ev)?,
            Command::Lang(l) => {
                self.own.lang = Some(*l);
                self.apply_layers();
                ev.push(Event::LangChanged);
            }
            Command::Dm(on) => {
                let ts = self.require_seat(actor)?;
                self.seats[ts].set_dm(*on);
            }
            Command::Policy(p) => {
                self.own.policy = Some(*p);
                self.apply_layers();
                ev.push(Event::RulesChanged);
            }
            Command::Cards(c) => {
                self.cards = *c;
                ev.push(Event::CardStyle(*c));
            }
            Command::RemoveBot(name) => {
                let ts = self.find_computer(name.as_deref())?;
                ev.extend(self.free_seat(ts, None)?);
            }
            Command::Kick(who) => {
                let ts = self.find_seat(who)?;
                ev.extend(self.free_seat(ts, Some(actor.name.clone()))?);
            }
            Command::Abort => {
                let record = self.abort_deal("admin", ctx)?;
                ev.push(Event::AbortedBy { name: actor.name.clone(), record });
                self.end_of_deal(ev)?;
            }
            Command::Reset => self.reset(actor, ctx, ev)?,
            Command::Pause => {
                self.clock_paused = true;
                ev.push(Event::ClockPaused(actor.name.clone()));
            }
            Command::Resume => self.resume(actor, ev),
            Command::Watch => self.watch(actor, ev)?,
            Command::Unwatch => self.unwatch(actor, ev)?,
            Command::Kiebitz(None) => self.end_kiebitz(actor, ev)?,
            Command::Kiebitz(Some(who)) => self.start_kiebitz(actor, who, ev)?,
            Command::Server(sc) => self.check_server_command(actor, sc)?,
            // (the home's admins only: not through a linked channel)
            Command::Link(None) if ctx.via.is_some() => return Err(CommandError::LinkedElsewhere),
            Command::Link(None) => self.issue_link_code((ctx.seed)(), ctx.now_ms)?,
            Command::Link(Some(_)) => self.check_link_join(ctx)?,
            Command::Unlink => self.unlink(ctx, ev)?,
            Command::List(Some(n)) if self.list(*n).is_none() => return Err(CommandError::NoList(*n)),
            Command::List(None) if self.session.is_none() => return Err(CommandError::NoList(0)),
            Command::Record(Some(n)) if *n == 0 || *n > self.records => return Err(CommandError::NoRecord(*n)),
            Command::Record(None) if self.records == 0 => return Err(CommandError::NoRecord(0)),
            Command::Analysis(n) => {
                self.analysable(&actor.user, *n)?;
            }
            Command::Hint => self.hint(actor, ev)?,
            Command::Hand
            | Command::Table
            | Command::LastTrick
            | Command::Score
            | Command::Record(_)
            | Command::Stats
            | Command::List(_)
            | Command::Leaderboard(_)
            | Command::Me
            | Command::Web { .. }
            | Command::Help(_) => {}
        }
        Ok(())
    }

    fn resume(&mut self, actor: &Actor, ev: &mut Vec<Event>) {
        self.clock_paused = false;
        // the person to act gets their whole time again
        self.turn = None;
        ev.push(Event::ClockResumed(actor.name.clone()));
    }

    fn unwatch(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let i = self.spectators.iter().position(|s| s.user() == &actor.user).ok_or(CommandError::NotWatching)?;
        let s = self.spectators.remove(i);
        ev.push(Event::Unwatched(s.name().to_string()));
        Ok(())
    }

    fn unlink(&mut self, ctx: &Ctx<'_>, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let gone = self.drop_links(ctx.via.as_ref())?;
        if gone.is_empty() {
            return Err(CommandError::NotLinked);
        }
        ev.push(Event::Unlinked(gone));
        Ok(())
    }

    fn join(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.seat_of(&actor.user).is_some() {
            return Err(CommandError::AlreadySeated);
        }
        if self.session_open() {
            return Err(CommandError::SessionOpen);
        }
        if !self.seats.push(SeatInfo::person(actor.user.clone(), actor.name.clone())) {
            return Err(CommandError::TableFull);
        }
        // a spectator who sits down stops watching (and sees no other hand
        // from now on)
        self.spectators.retain(|s| s.user() != &actor.user);
        ev.push(Event::Joined(actor.name.clone()));
        Ok(())
    }

    fn leave(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let ts = self.require_seat(actor)?;
        if self.deal_running() {
            return Err(CommandError::DealRunning);
        }
        self.seats.remove(ts);
        if let Some(s) = &mut self.session
            && s.session_mut().end()?
        {
            ev.push(Event::SessionOver);
        }
        ev.push(Event::Left(actor.name.clone()));
        Ok(())
    }

    fn add_computer(&mut self, level: BotLevel, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.session_open() {
            return Err(CommandError::SessionOpen);
        }
        if self.seats.len() >= MAX_SEATS {
            return Err(CommandError::TableFull);
        }
        self.computers += 1;
        let name = format!("Bot {}", self.computers);
        self.seats.push(SeatInfo::computer(level, self.computers, name.clone()));
        ev.push(Event::ComputerJoined(name));
        Ok(())
    }

    fn back(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let ts = self.require_seat(actor)?;
        if self.seats[ts].leaving() {
            // kicked: the computer plays the seat to the deal's end
            return Err(CommandError::ComputerPlays);
        }
        if self.seats[ts].set_stand_in(None).is_none() {
            return Err(CommandError::NotAway);
        }
        ev.push(Event::Back(actor.name.clone()));
        Ok(())
    }

    fn start(&mut self, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.deal_running() {
            return Err(CommandError::DealRunning);
        }
        if self.seats.len() < 4 {
            return Err(CommandError::NotEnoughPlayers(self.seats.len()));
        }
        if self.session_open() {
            // the session goes on, with exactly its players
            let s = self.session.as_ref().expect("open");
            let same = s.players().len() == self.seats.len()
                && self.seats.iter().all(|seat| s.players().iter().any(|k| *k == seat.key()));
            if !same {
                return Err(CommandError::SessionOpen);
            }
        } else {
            self.lists += 1;
            let session = TableSession::new(&self.seats, Session::new(self.seats.len(), &self.rules)?)
                .numbered(self.lists, ctx.now_ms);
            self.stats.make_mut().session_started(session.players());
            self.monthly.make_mut().entry(stats::month_of(ctx.now_ms)).or_default().session_started(session.players());
            if let Some(old) = self.session.replace(session) {
                self.keep_in_history(old);
            }
        }
        self.deal_next(ctx, ev)
    }

    /// A player by name or mention, or `seat N` of the deal (1-4).
    fn genscher(
        &mut self,
        actor: &Actor,
        who: &str,
        ctx: &mut Ctx<'_>,
        ev: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let by_seat = who.strip_prefix("seat ").and_then(|n| n.trim().parse::<usize>().ok());
        let partner = match by_seat {
            Some(n @ 1..=4) => Seat::new(n - 1),
            _ => {
                let ts = self.find_seat(who)?;
                self.game_seat(ts).ok_or(CommandError::SittingOut)?
            }
        };
        self.act_for(actor, Action::Genscher(partner), ctx, ev)
    }

    fn rules_command(&mut self, rc: &RulesCmd, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        match rc {
            RulesCmd::Show => return Ok(()),
            RulesCmd::Set { key, value } => {
                let rules = self.rules;
                self.own.set_rule(&rules, key, value)?;
            }
            RulesCmd::Preset(name) => self.own.set_preset(name)?,
            // back to the server's defaults, or the built-in ones
            RulesCmd::Reset => self.own.clear_rules(),
        }
        self.apply_layers();
        ev.push(Event::RulesChanged);
        Ok(())
    }

    fn reset(&mut self, actor: &Actor, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        if !self.session_open() {
            return Err(CommandError::NoSession);
        }
        if self.deal_running() {
            let record = self.abort_deal("reset", ctx)?;
            ev.push(Event::AbortedBy { name: actor.name.clone(), record });
            self.end_of_deal(ev)?;
        }
        if let Some(s) = &mut self.session {
            s.session_mut().end()?;
        }
        ev.push(Event::SessionReset(actor.name.clone()));
        Ok(())
    }

    fn watch(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.seat_of(&actor.user).is_some() {
            return Err(CommandError::AlreadySeated);
        }
        if self.spectators.iter().any(|s| s.user() == &actor.user) {
            return Err(CommandError::AlreadyWatching);
        }
        if self.spectators.len() >= MAX_SPECTATORS {
            return Err(CommandError::TooManySpectators);
        }
        self.spectators.push(Spectator::new(actor.user.clone(), actor.name.clone()));
        ev.push(Event::Watching(actor.name.clone()));
        Ok(())
    }

    fn end_kiebitz(&mut self, actor: &Actor, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        self.require_seat(actor)?;
        let s = self.spectators.iter_mut().find(|s| s.sees() == Some(&actor.user)).ok_or(CommandError::NoKiebitz)?;
        s.set_sees(None);
        ev.push(Event::KiebitzEnded { player: actor.name.clone(), spectator: s.name().to_string() });
        Ok(())
    }

    fn start_kiebitz(&mut self, actor: &Actor, who: &str, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        let ts = self.require_seat(actor)?;
        if self.seats[ts].user().is_none() {
            return Err(CommandError::NotSeated);
        }
        // by mention or id first; by name only when one spectator has it
        // (names are not unique)
        let by = |f: &dyn Fn(&Spectator) -> bool| -> Vec<usize> {
            self.spectators.iter().enumerate().filter(|(_, s)| f(s)).map(|(i, _)| i).collect()
        };
        let i = match (by(&|s| s.is_id(who)).as_slice(), by(&|s| s.is_name(who)).as_slice()) {
            ([i], _) => *i,
            ([], [i]) => *i,
            ([], []) => return Err(CommandError::NoSuchSpectator(who.to_string())),
            _ => return Err(CommandError::AmbiguousSpectator(who.to_string())),
        };
        if let Some(other) = self.spectators[i].sees()
            && other != &actor.user
        {
            return Err(CommandError::KiebitzTaken(self.spectators[i].name().to_string()));
        }
        // one spectator per player: the one before sees no more
        for s in &mut self.spectators {
            if s.sees() == Some(&actor.user) {
                s.set_sees(None);
            }
        }
        self.spectators[i].set_sees(Some(actor.user.clone()));
        ev.push(Event::KiebitzStarted { player: actor.name.clone(), spectator: self.spectators[i].name().to_string() });
        Ok(())
    }

    /// Checks a server command here; the service makes it (on the
    /// server's settings, then on each of its tables).
    fn check_server_command(&self, actor: &Actor, sc: &ServerCmd) -> Result<(), CommandError> {
        if actor.server.is_none() {
            return Err(CommandError::NoServer);
        }
        if !actor.server_admin {
            return Err(CommandError::NotServerAdmin);
        }
        let mut scratch = self.server.as_ref().map(|s| s.layer.clone()).unwrap_or_default();
        server_change(&mut scratch, sc)
    }

    /// Checks a `link CODE` here; the service makes it (on the table the
    /// code was made at, then here).
    fn check_link_join(&self, ctx: &Ctx<'_>) -> Result<(), CommandError> {
        if ctx.via.is_none() {
            if !self.links.is_empty() || self.linked_to.is_some() {
                return Err(CommandError::LinkedElsewhere);
            }
            if self.deal_running() {
                return Err(CommandError::DealRunning);
            }
        }
        Ok(())
    }
}

fn poverty_action(step: &PovertyStep) -> Action {
    match step {
        PovertyStep::Give(c) => Action::Give(cards_of(c)),
        PovertyStep::Accept => Action::Answer(true),
        PovertyStep::Decline => Action::Answer(false),
        PovertyStep::Return(c) => Action::Return(cards_of(c)),
    }
}

fn cards_of(v: &[doko_engine::Card]) -> Cards {
    let mut c = Cards::EMPTY;
    for x in v {
        c.insert(*x);
    }
    c
}
