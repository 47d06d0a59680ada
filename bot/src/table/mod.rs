//! A channel's table: seats, the session (a series of deals under one rule
//! set with its score sheet, kept by the engine's
//! [`Session`](doko_engine::Session)), per-player statistics, and the
//! commands that change them. Pure and synchronous: the service loads a
//! table, applies a command, lets the computer players act and stores the
//! result.
//!
//! Three index spaces meet here, each with its own type: a [`TableSeat`]
//! (where someone sat down), a session [`Player`](doko_engine::Player) and
//! an engine game [`Seat`]. The session's roster joins players to seats by
//! their stored [`PlayerKey`]; the deal joins game seats to players.
//!
//! The deal in progress is kept as its (partial) game record and rebuilt by
//! replaying it through the engine, so what is stored is exactly what a
//! dispute would be settled with.

mod clock;
mod computers;
mod errors;
mod events;
mod play;
mod seats;
mod session;
mod stats;

use std::collections::VecDeque;

use doko_engine::record::{rules_from_json, rules_to_json};
use doko_engine::{Action, Cards, Game, Preset, Rules, Seat, SeatView, Session};
use serde::{Deserialize, Serialize};

pub use clock::TurnClock;
pub use errors::CommandError;
pub use events::{Event, PovertyMove, Summary};
pub use seats::{MAX_SEATS, Occupant, PlayerKey, SeatInfo, Seats, TableSeat};
pub use session::TableSession;
pub use stats::{PlayerStats, Stats};

use crate::command::{BotLevel, Command, PovertyStep, RulesCmd, TimeoutPolicy};
use crate::ids::{Actor, UserId};
use crate::lang::Lang;

/// How many delivery ids a table remembers.
pub const DELIVERIES_KEPT: usize = 256;

/// A channel's table. Fields are private: it changes through
/// [`Table::apply`] and the other commands below.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    lang: Lang,
    #[serde(with = "rules_serde")]
    rules: Rules,
    seats: Seats,
    session: Option<TableSession>,
    stats: Stats,
    records: u32,
    computers: u32,
    #[serde(default)]
    delivered: VecDeque<String>,
    #[serde(default)]
    policy: TimeoutPolicy,
    #[serde(default)]
    turn: Option<TurnClock>,
    #[serde(default)]
    display: Option<String>,
}

mod rules_serde {
    use super::*;
    pub fn serialize<S: serde::Serializer>(r: &Rules, s: S) -> Result<S::Ok, S::Error> {
        rules_to_json(r).serialize(s)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        rules_from_json(Some(&v)).map_err(serde::de::Error::custom)
    }
}

impl Default for Table {
    fn default() -> Table {
        Table {
            lang: Lang::En,
            rules: Rules::default(),
            seats: Seats::default(),
            session: None,
            stats: Stats::default(),
            records: 0,
            computers: 0,
            delivered: VecDeque::new(),
            policy: TimeoutPolicy::StandIn,
            turn: None,
            display: None,
        }
    }
}

/// Where new deals' seeds come from, and where finished deals' records go.
pub struct Ctx<'a> {
    /// Produces a seed for each new deal.
    pub seed: &'a mut (dyn FnMut() -> u64 + Send),
    /// Records of deals finished by this command, in order.
    pub new_records: Vec<String>,
}

impl Table {
    /// Language of the channel.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The channel's house rules (used from the next deal on).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seats, in clockwise order.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The session, if one was started.
    pub fn session(&self) -> Option<&TableSession> {
        self.session.as_ref()
    }

    /// Statistics per player.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Records stored for this channel.
    pub fn records(&self) -> u32 {
        self.records
    }

    /// Ids of the latest deliveries applied (platform interaction or event
    /// ids), oldest first.
    pub fn delivered(&self) -> &VecDeque<String> {
        &self.delivered
    }

    /// Remembers a delivery id; `false` when it was applied before (a
    /// duplicate delivery, to be ignored).
    pub fn remember_delivery(&mut self, id: &str) -> bool {
        if self.delivered.iter().any(|d| d == id) {
            return false;
        }
        self.delivered.push_back(id.to_string());
        while self.delivered.len() > DELIVERIES_KEPT {
            self.delivered.pop_front();
        }
        true
    }

    /// What happens when a player's time runs out.
    pub fn policy(&self) -> TimeoutPolicy {
        self.policy
    }

    /// Who must act and since when (for `turn_timeout`).
    pub fn turn(&self) -> Option<&TurnClock> {
        self.turn.as_ref()
    }

    /// The platform's id of the public table message (kept for the adapter,
    /// so every process edits the same message).
    pub fn display(&self) -> &Option<String> {
        &self.display
    }

    /// Sets the platform's id of the public table message.
    pub fn set_display(&mut self, id: Option<String>) {
        self.display = id;
    }

    /// The seat of a user.
    pub fn seat_of(&self, user: &UserId) -> Option<TableSeat> {
        self.seats.of_user(user)
    }

    /// The deal being played.
    pub fn game(&self) -> Result<Option<Game>, CommandError> {
        Ok(self.current_game().cloned())
    }

    fn current_game(&self) -> Option<&Game> {
        self.session.as_ref()?.game()
    }

    /// Whether a deal is being played.
    pub fn deal_running(&self) -> bool {
        self.current_game().is_some()
    }

    /// The table seat playing game seat `s` now.
    pub fn table_seat(&self, s: Seat) -> Option<TableSeat> {
        let sess = self.session.as_ref()?;
        sess.table_seat(&self.seats, sess.deal()?.player(s))
    }

    /// The game seat of a table seat in the current deal.
    pub fn game_seat(&self, ts: TableSeat) -> Option<Seat> {
        let sess = self.session.as_ref()?;
        sess.deal()?.seat_of(sess.player_at(&self.seats, ts)?)
    }

    /// The name playing game seat `s`.
    pub fn name_of(&self, s: Seat) -> String {
        self.table_seat(s).map(|ts| self.seats[ts].name().to_string()).unwrap_or_else(|| format!("seat {s}"))
    }

    /// The view of the user's game seat, if they play in the current deal.
    pub fn view_for(&self, user: &UserId) -> Option<SeatView> {
        let gs = self.game_seat(self.seat_of(user)?)?;
        Some(self.current_game()?.view(gs))
    }

    /// The person who must act now and their seat, if a person must.
    pub fn person_to_act(&self) -> Option<(UserId, TableSeat)> {
        let g = self.current_game()?;
        let s = g.mandatory_announcement().or(g.to_act())?;
        let ts = self.table_seat(s)?;
        let seat = &self.seats[ts];
        let user = seat.user().filter(|_| seat.person_plays())?;
        Some((user.clone(), ts))
    }

    fn require_seat(&self, actor: &Actor) -> Result<TableSeat, CommandError> {
        self.seat_of(&actor.user).ok_or(CommandError::NotSeated)
    }

    fn require_admin(&self, actor: &Actor) -> Result<(), CommandError> {
        if actor.admin { Ok(()) } else { Err(CommandError::NotAdmin) }
    }

    /// Applies a command by a person. Queries (table, score, ...) change
    /// nothing and return no events.
    pub fn apply(&mut self, actor: &Actor, cmd: &Command, ctx: &mut Ctx<'_>) -> Result<Vec<Event>, CommandError> {
        let mut ev = Vec::new();
        match cmd {
            Command::Join => {
                if self.seat_of(&actor.user).is_some() {
                    return Err(CommandError::AlreadySeated);
                }
                if self.deal_running() && self.seats.len() >= 4 {
                    return Err(CommandError::TableFull);
                }
                if !self.seats.push(SeatInfo::person(actor.user.clone(), actor.name.clone())) {
                    return Err(CommandError::TableFull);
                }
                ev.push(Event::Joined(actor.name.clone()));
            }
            Command::Leave => {
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
            }
            Command::AddBot(level) => {
                if self.seats.len() >= 4 && (self.deal_running() || self.seats.len() >= MAX_SEATS) {
                    return Err(CommandError::TableFull);
                }
                self.computers += 1;
                let name = format!("Bot {}", self.computers);
                self.seats.push(SeatInfo::computer(*level, self.computers, name.clone()));
                ev.push(Event::ComputerJoined(name));
            }
            Command::Away => {
                let ts = self.require_seat(actor)?;
                self.seats[ts].set_stand_in(Some(BotLevel::Basic));
                ev.push(Event::Away(actor.name.clone()));
            }
            Command::Back => {
                let ts = self.require_seat(actor)?;
                if self.seats[ts].set_stand_in(None).is_none() {
                    return Err(CommandError::NotAway);
                }
                ev.push(Event::Back(actor.name.clone()));
            }
            Command::Start => {
                if self.deal_running() {
                    return Err(CommandError::DealRunning);
                }
                if self.seats.len() < 4 {
                    return Err(CommandError::NotEnoughPlayers(self.seats.len()));
                }
                let fresh = self.session.as_ref().is_none_or(|s| s.is_over() || s.players().len() != self.seats.len());
                if fresh {
                    let session = TableSession::new(&self.seats, Session::new(self.seats.len(), &self.rules)?);
                    self.stats.session_started(session.players());
                    self.session = Some(session);
                }
                self.deal_next(ctx, &mut ev)?;
            }
            Command::Bid(bid) => self.act_for(actor, Action::Bid(*bid), ctx, &mut ev)?,
            Command::Play(card) => self.act_for(actor, Action::Play(*card), ctx, &mut ev)?,
            Command::Announce(call) => self.act_for(actor, Action::Announce(*call), ctx, &mut ev)?,
            Command::Poverty(step) => {
                let action = match step {
                    PovertyStep::Give(c) => Action::Give(cards_of(c)),
                    PovertyStep::Accept => Action::Answer(true),
                    PovertyStep::Decline => Action::Answer(false),
                    PovertyStep::Return(c) => Action::Return(cards_of(c)),
                };
                self.act_for(actor, action, ctx, &mut ev)?
            }
            Command::Rules(rc) => match rc {
                RulesCmd::Show => {}
                RulesCmd::Set { key, value } => {
                    self.require_admin(actor)?;
                    let mut r = self.rules;
                    r.set(key, value)?;
                    self.rules = r;
                    ev.push(Event::RulesChanged);
                }
                RulesCmd::Preset(name) => {
                    self.require_admin(actor)?;
                    self.rules = Rules::preset(Preset::from_name(name)?);
                    ev.push(Event::RulesChanged);
                }
                RulesCmd::Reset => {
                    self.require_admin(actor)?;
                    self.rules = Rules::default();
                    ev.push(Event::RulesChanged);
                }
            },
            Command::Lang(l) => {
                self.require_admin(actor)?;
                self.lang = *l;
                ev.push(Event::LangChanged);
            }
            Command::Dm(on) => {
                let ts = self.require_seat(actor)?;
                self.seats[ts].set_dm(*on);
            }
            Command::Policy(p) => {
                self.require_admin(actor)?;
                self.policy = *p;
                ev.push(Event::RulesChanged);
            }
            Command::Record(Some(n)) if *n == 0 || *n > self.records => return Err(CommandError::NoRecord(*n)),
            Command::Record(None) if self.records == 0 => return Err(CommandError::NoRecord(0)),
            Command::Hand
            | Command::Table
            | Command::Score
            | Command::Record(_)
            | Command::Stats
            | Command::Help(_) => {}
        }
        Ok(ev)
    }
}

fn cards_of(v: &[doko_engine::Card]) -> Cards {
    let mut c = Cards::EMPTY;
    for x in v {
        c.insert(*x);
    }
    c
}
