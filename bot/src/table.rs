//! A channel's table: seats, the session (a series of deals under one rule
//! set with its score sheet), per-player statistics, and the commands that
//! change them. Pure and synchronous: the service loads a table, applies a
//! command, lets the computer players act and stores the result.
//!
//! The deal in progress is kept as its (partial) game record and rebuilt by
//! replaying it through the engine, so what is stored is exactly what a
//! dispute would be settled with.

use std::collections::BTreeMap;

use doko_engine::record::{rules_from_json, rules_to_json};
use doko_engine::{
    Action, ActionError, Bid, Call, Card, Cards, Game, Party, Phase, Preset, Record, RedealReason, Reservation,
    RuleError, Rules, Score, Seat, SeatView,
};
use serde::{Deserialize, Serialize};

use crate::command::{BotLevel, Command, PovertyStep, RulesCmd, TimeoutPolicy};
use crate::ids::{Actor, UserId};
use crate::lang::Lang;

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Occupant {
    /// A person.
    Human {
        /// Their platform id.
        user: UserId,
    },
    /// A computer player.
    Computer {
        /// Its strength.
        level: BotLevel,
        /// A number unique at this table.
        id: u32,
    },
}

/// One seat at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Who sits here.
    pub occupant: Occupant,
    /// The name shown.
    pub name: String,
    /// A computer playing for the absent person, if any.
    pub stand_in: Option<BotLevel>,
    /// Also send this person's hand as a direct message.
    #[serde(default)]
    pub dm: bool,
}

impl SeatInfo {
    /// The key the score sheet and statistics use.
    pub fn key(&self) -> String {
        match &self.occupant {
            Occupant::Human { user } => user.key(),
            Occupant::Computer { id, .. } => format!("bot:{id}"),
        }
    }

    /// The computer that acts for this seat: the seat's own, or the stand-in.
    pub fn computer(&self) -> Option<BotLevel> {
        match &self.occupant {
            Occupant::Computer { level, .. } => Some(*level),
            Occupant::Human { .. } => self.stand_in,
        }
    }
}

/// A finished deal on the score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetRow {
    /// Deal number in the session, from 1.
    pub deal: u32,
    /// The contract's record name (`normal`, `solo-queens`, ...).
    pub contract: String,
    /// Points per session player (0 for the one sitting out).
    pub scores: Vec<i64>,
    /// Whether it counted double (Bock).
    pub bock: bool,
    /// Its record number in the channel (from 1).
    pub record: u32,
}

/// The deal being played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealState {
    /// Session player index of each game seat 0..4.
    pub seats: [usize; 4],
    /// The deal so far; stored as its `doko-record/1` record and rebuilt
    /// by replaying it when loaded.
    #[serde(with = "game_serde", rename = "record")]
    pub game: Game,
    /// Whether it counts double.
    pub bock: bool,
    /// A forced compulsory solo (vorführen) by this session player.
    pub forced: Option<usize>,
}

/// A series of deals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// The players' keys, in table order (4 or 5).
    pub players: Vec<String>,
    /// Their names.
    pub names: Vec<String>,
    /// The dealer (session player index).
    pub dealer: usize,
    /// Deals scored so far.
    pub deals: u32,
    /// The score sheet.
    pub sheet: Vec<SheetRow>,
    /// Running totals per player.
    pub totals: Vec<i64>,
    /// Compulsory solos each player still owes.
    pub duty_left: Vec<u8>,
    /// Deals that still count double.
    pub bock_left: u32,
    /// The deal being played.
    pub deal: Option<DealState>,
    /// The session has ended.
    pub over: bool,
}

/// Per-player statistics of a channel, across sessions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

/// A channel's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Language of the channel.
    pub lang: Lang,
    /// The channel's house rules (used from the next deal on).
    #[serde(with = "rules_serde")]
    pub rules: Rules,
    /// The seats, in clockwise order.
    pub seats: Vec<SeatInfo>,
    /// The session, if one was started.
    pub session: Option<Session>,
    /// Statistics per player key.
    pub stats: BTreeMap<String, PlayerStats>,
    /// Records stored for this channel.
    pub records: u32,
    /// Computer players seated so far (for their numbers).
    pub computers: u32,
    /// Ids of the latest deliveries applied (platform interaction or event
    /// ids), so that a duplicate delivery changes state once.
    #[serde(default)]
    pub delivered: std::collections::VecDeque<String>,
    /// What happens when a player's time runs out.
    #[serde(default)]
    pub policy: TimeoutPolicy,
    /// Who must act and since when (for `turn_timeout`).
    #[serde(default)]
    pub turn: Option<TurnClock>,
    /// The platform's id of the public table message (kept for the adapter,
    /// so every process edits the same message).
    #[serde(default)]
    pub display: Option<String>,
    /// People told in this deal that they cannot be reached privately (by
    /// user key), so the channel is told once per deal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<String>,
}

/// The turn clock: which person must act and since when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    /// The seat's key.
    pub key: String,
    /// Since when, in milliseconds since the Unix epoch.
    pub since_ms: u64,
    /// Whether the reminder was sent.
    pub reminded: bool,
}

/// How many delivery ids a table remembers.
pub const DELIVERIES_KEPT: usize = 256;

mod game_serde {
    use super::*;
    pub fn serialize<S: serde::Serializer>(g: &Game, s: S) -> Result<S::Ok, S::Error> {
        Record::from_game(g).to_value().serialize(s)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let rec = Record::from_value(&v).map_err(serde::de::Error::custom)?;
        rec.to_game().map_err(serde::de::Error::custom)
    }
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
            seats: Vec::new(),
            session: None,
            stats: BTreeMap::new(),
            records: 0,
            computers: 0,
            delivered: Default::default(),
            policy: TimeoutPolicy::StandIn,
            turn: None,
            display: None,
            unreachable: Vec::new(),
        }
    }
}

/// Why a command was refused. Rendered for people by `render`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Not seated at this table.
    #[error("you are not seated at this table")]
    NotSeated,
    /// Already seated.
    #[error("you are already seated")]
    AlreadySeated,
    /// All seats taken.
    #[error("the table is full")]
    TableFull,
    /// Fewer than four seated.
    #[error("{0} of 4 seats taken; join or addbot first")]
    NotEnoughPlayers(usize),
    /// A deal is running.
    #[error("a deal is running")]
    DealRunning,
    /// No deal is running.
    #[error("no deal is running; start one")]
    NoDeal,
    /// The player sits out this deal (five at the table).
    #[error("you sit out this deal (you deal)")]
    SittingOut,
    /// Only admins.
    #[error("only the channel's admins may do that")]
    NotAdmin,
    /// A computer plays this seat.
    #[error("a computer plays your seat; say back to take it over")]
    ComputerPlays,
    /// Not away.
    #[error("you are not away")]
    NotAway,
    /// The engine refused.
    #[error("{0}")]
    Rule(#[from] ActionError),
    /// A house-rule error.
    #[error("{0}")]
    Rules(#[from] RuleError),
    /// A forced solo: this player must bid a solo, the others healthy.
    #[error("this deal is a forced solo (vorführen): {0}")]
    Forced(&'static str),
    /// No such record.
    #[error("no record number {0}")]
    NoRecord(u32),
    /// The stored deal could not be rebuilt (a bug or a damaged store).
    #[error("the stored deal is damaged: {0}")]
    Damaged(String),
}

/// Something that happened, for rendering.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Took a seat.
    Joined(String),
    /// Left.
    Left(String),
    /// A computer sat down.
    ComputerJoined(String),
    /// A computer took over a seat.
    Away(String),
    /// A person took their seat back.
    Back(String),
    /// A deal was dealt.
    Dealt {
        /// Deal number from 1.
        number: u32,
        /// The dealer's name.
        dealer: String,
        /// Counts double.
        bock: bool,
        /// A forced solo by this player.
        forced: Option<String>,
    },
    /// A seat answered the reservation query (only healthy or not is public).
    Bid {
        /// Who.
        name: String,
        /// Said "Vorbehalt".
        reserved: bool,
    },
    /// A card was played.
    Played {
        /// Who.
        name: String,
        /// The card.
        card: Card,
    },
    /// A trick was completed.
    TrickWon {
        /// Who took it.
        name: String,
        /// Its points.
        points: u32,
    },
    /// An announcement.
    Announced {
        /// Who.
        name: String,
        /// What.
        call: Call,
    },
    /// A poverty step (public part).
    Poverty {
        /// Who.
        name: String,
        /// What.
        step: &'static str,
    },
    /// The deal ended with a score.
    Scored(Box<Summary>),
    /// The deal was void.
    Redeal(RedealReason),
    /// The session ended.
    SessionOver,
    /// Rules changed.
    RulesChanged,
    /// A person's time is running out.
    Reminder(String),
    /// A person's time ran out; a computer plays for them.
    TimedOut(String),
    /// A person's time ran out; the deal is aborted.
    Aborted(String),
    /// Language changed.
    LangChanged,
}

/// The result of a scored deal, for the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Deal number in the session.
    pub number: u32,
    /// Record number in the channel.
    pub record: u32,
    /// The contract.
    pub contract: doko_engine::Contract,
    /// The declarer's name.
    pub declarer: Option<String>,
    /// Re's names.
    pub re: Vec<String>,
    /// Kontra's names.
    pub kontra: Vec<String>,
    /// Card points `[re, kontra]`.
    pub card_points: [u32; 2],
    /// The winner, if any.
    pub winner: Option<Party>,
    /// The game value.
    pub value: i32,
    /// Every item of the value.
    pub items: Vec<doko_engine::Item>,
    /// Points of this deal per session player (name, points).
    pub scores: Vec<(String, i64)>,
    /// Counted double.
    pub bock: bool,
}

/// Where new deals' seeds come from, and where finished deals' records go.
pub struct Ctx<'a> {
    /// Produces a seed for each new deal.
    pub seed: &'a mut (dyn FnMut() -> u64 + Send),
    /// Records of deals finished by this command, in order.
    pub new_records: Vec<String>,
}

impl Table {
    /// The seat index of a user.
    pub fn seat_of(&self, user: &UserId) -> Option<usize> {
        self.seats.iter().position(|s| matches!(&s.occupant, Occupant::Human { user: u } if u == user))
    }

    /// The deal being played, rebuilt from its record.
    pub fn game(&self) -> Result<Option<Game>, CommandError> {
        Ok(self.session.as_ref().and_then(|s| s.deal.as_ref()).map(|d| d.game.clone()))
    }

    /// The table seat index (into `seats`) playing game seat `s` now.
    pub fn table_seat(&self, s: Seat) -> Option<usize> {
        let sess = self.session.as_ref()?;
        let d = sess.deal.as_ref()?;
        let key = &sess.players[d.seats[s.index()]];
        self.seats.iter().position(|x| &x.key() == key)
    }

    /// The game seat of a table seat in the current deal.
    pub fn game_seat(&self, table_seat: usize) -> Option<Seat> {
        let sess = self.session.as_ref()?;
        let d = sess.deal.as_ref()?;
        let key = self.seats.get(table_seat)?.key();
        let p = sess.players.iter().position(|k| *k == key)?;
        d.seats.iter().position(|x| *x == p).map(Seat::new)
    }

    /// The name playing game seat `s`.
    pub fn name_of(&self, s: Seat) -> String {
        self.table_seat(s).map(|i| self.seats[i].name.clone()).unwrap_or_else(|| format!("seat {s}"))
    }

    /// The view of the user's game seat, if they play in the current deal.
    pub fn view_for(&self, user: &UserId) -> Option<SeatView> {
        let ts = self.seat_of(user)?;
        let gs = self.game_seat(ts)?;
        let g = self.game().ok()??;
        Some(g.view(gs))
    }

    fn require_seat(&self, actor: &Actor) -> Result<usize, CommandError> {
        self.seat_of(&actor.user).ok_or(CommandError::NotSeated)
    }

    fn deal_running(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.deal.is_some())
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
                if self.seats.len() >= 5 || (self.deal_running() && self.seats.len() >= 4) {
                    return Err(CommandError::TableFull);
                }
                self.seats.push(SeatInfo {
                    occupant: Occupant::Human { user: actor.user.clone() },
                    name: actor.name.clone(),
                    stand_in: None,
                    dm: false,
                });
                ev.push(Event::Joined(actor.name.clone()));
            }
            Command::Leave => {
                let i = self.require_seat(actor)?;
                if self.deal_running() {
                    return Err(CommandError::DealRunning);
                }
                self.seats.remove(i);
                if let Some(s) = &mut self.session
                    && !s.over
                {
                    s.over = true;
                    ev.push(Event::SessionOver);
                }
                ev.push(Event::Left(actor.name.clone()));
            }
            Command::AddBot(level) => {
                if self.seats.len() >= 4 && (self.deal_running() || self.seats.len() >= 5) {
                    return Err(CommandError::TableFull);
                }
                self.computers += 1;
                let name = format!("Bot {}", self.computers);
                self.seats.push(SeatInfo {
                    occupant: Occupant::Computer { level: *level, id: self.computers },
                    name: name.clone(),
                    stand_in: None,
                    dm: false,
                });
                ev.push(Event::ComputerJoined(name));
            }
            Command::Away => {
                let i = self.require_seat(actor)?;
                self.seats[i].stand_in = Some(BotLevel::Basic);
                ev.push(Event::Away(actor.name.clone()));
            }
            Command::Back => {
                let i = self.require_seat(actor)?;
                if self.seats[i].stand_in.take().is_none() {
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
                let fresh = self.session.as_ref().is_none_or(|s| s.over || s.players.len() != self.seats.len());
                if fresh {
                    let n = self.seats.len();
                    self.session = Some(Session {
                        players: self.seats.iter().map(SeatInfo::key).collect(),
                        names: self.seats.iter().map(|s| s.name.clone()).collect(),
                        dealer: n - 1,
                        deals: 0,
                        sheet: Vec::new(),
                        totals: vec![0; n],
                        duty_left: vec![self.rules.compulsory_solos; n],
                        bock_left: 0,
                        deal: None,
                        over: false,
                    });
                    for s in &self.seats {
                        self.stats.entry(s.key()).or_default().sessions += 1;
                    }
                }
                self.deal_next(ctx, &mut ev);
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
                let i = self.require_seat(actor)?;
                self.seats[i].dm = *on;
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

    /// A person's game action: checked by the engine, kept, reported.
    fn act_for(
        &mut self,
        actor: &Actor,
        action: Action,
        ctx: &mut Ctx<'_>,
        ev: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let (mut g, seat) = self.my_game(actor)?;
        let action = match action {
            Action::Bid(b) => Action::Bid(self.adjust_bid(seat, b, &g)?),
            a => a,
        };
        g.act(seat, action)?;
        self.put_game(&g);
        ev.push(event_for(actor.name.clone(), action));
        self.after_action(g, ctx, ev)
    }

    fn require_admin(&self, actor: &Actor) -> Result<(), CommandError> {
        if actor.admin { Ok(()) } else { Err(CommandError::NotAdmin) }
    }

    fn my_game(&self, actor: &Actor) -> Result<(Game, Seat), CommandError> {
        let ts = self.require_seat(actor)?;
        let g = self.game()?.ok_or(CommandError::NoDeal)?;
        let seat = self.game_seat(ts).ok_or(CommandError::SittingOut)?;
        if self.seats[ts].stand_in.is_some() {
            return Err(CommandError::ComputerPlays);
        }
        Ok((g, seat))
    }

    /// A solo by a player who still owes a compulsory solo is that solo;
    /// on a forced deal the forced player must bid a solo, the others healthy.
    fn adjust_bid(&self, seat: Seat, bid: Bid, g: &Game) -> Result<Bid, CommandError> {
        let sess = self.session.as_ref().expect("a deal has a session");
        let deal = sess.deal.as_ref().expect("a deal is running");
        let p = deal.seats[seat.index()];
        let owes = sess.duty_left[p] > 0 && g.rules().compulsory_solos > 0;
        match (deal.forced, bid) {
            (Some(f), Bid::Reserve(Reservation::Solo { .. })) if f != p => {
                return Err(CommandError::Forced("only the forced player bids; say healthy"));
            }
            (Some(f), Bid::Reserve(Reservation::Solo { .. })) if f == p => {}
            (Some(f), _) if f == p => return Err(CommandError::Forced("you must bid a solo")),
            (Some(_), Bid::Healthy) => {}
            (Some(_), _) => return Err(CommandError::Forced("only the forced player bids; say healthy")),
            _ => {}
        }
        Ok(match bid {
            Bid::Reserve(Reservation::Solo { kind, .. }) => Bid::Reserve(Reservation::Solo { kind, duty: owes }),
            b => b,
        })
    }

    /// A computer's bid made to fit the session: a compulsory solo where
    /// owed, the forced player's solo on a forced deal.
    fn computer_bid(&self, seat: Seat, bid: Bid, g: &Game) -> Bid {
        match self.adjust_bid(seat, bid, g) {
            Ok(b) => b,
            Err(CommandError::Forced("you must bid a solo")) => {
                let solo = g
                    .legal_bids(seat)
                    .into_iter()
                    .find(|b| matches!(b, Bid::Reserve(Reservation::Solo { .. })))
                    .unwrap_or(Bid::Healthy);
                self.adjust_bid(seat, solo, g).unwrap_or(solo)
            }
            Err(_) => Bid::Healthy,
        }
    }

    /// Keeps the deal's game after an action.
    fn put_game(&mut self, g: &Game) {
        let d = self.session.as_mut().and_then(|s| s.deal.as_mut()).expect("a deal is running");
        d.game = g.clone();
    }

    fn deal_next(&mut self, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) {
        let rules = self.rules;
        let sess = self.session.as_mut().expect("session");
        let n = sess.players.len();
        // the session is over after its deals, once every compulsory solo is played
        let limit = rules.games_per_session as u32;
        let forced = if limit > 0 && sess.deals >= limit {
            match sess.duty_left.iter().position(|d| *d > 0) {
                Some(p) if rules.compulsory_solos > 0 => Some(p),
                _ => {
                    sess.over = true;
                    ev.push(Event::SessionOver);
                    return;
                }
            }
        } else {
            None
        };
        // with five, the dealer sits out: a forced solo never falls on them
        if n == 5
            && let Some(f) = forced
            && f == sess.dealer
        {
            sess.dealer = (f + n - 1) % n;
        }
        let dealer = sess.dealer;
        // game seat i = player dealer+1+i; with five, the dealer sits out
        let seats = [(dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n, (dealer + 4) % n];
        let game = Game::deal(rules, Seat::new(3), (ctx.seed)());
        self.unreachable.clear();
        let bock = sess.bock_left > 0;
        sess.deal = Some(DealState { seats, game, bock, forced });
        ev.push(Event::Dealt {
            number: sess.deals + 1,
            dealer: sess.names[dealer].clone(),
            bock,
            forced: forced.map(|p| sess.names[p].clone()),
        });
    }

    /// After any action: report completed tricks, score a finished deal,
    /// deal again when the deal was void or scored and the session goes on.
    fn after_action(&mut self, g: Game, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) -> Result<(), CommandError> {
        if let Some(Event::Played { .. }) = ev.last()
            && g.current_trick().len == 0
            && let Some(t) = g.tricks().last()
        {
            ev.push(Event::TrickWon { name: self.name_of(t.winner), points: t.points() });
        }
        match g.phase() {
            Phase::Redeal(r) => {
                ev.push(Event::Redeal(r));
                let sess = self.session.as_mut().expect("session");
                sess.deal = None; // same dealer deals again
                self.deal_next(ctx, ev);
            }
            Phase::Finished => {
                let score = g.score().expect("finished deals score");
                self.finish_deal(&g, &score, ctx, ev);
                if !self.session.as_ref().is_some_and(|s| s.over) {
                    self.deal_next(ctx, ev);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finish_deal(&mut self, g: &Game, score: &Score, ctx: &mut Ctx<'_>, ev: &mut Vec<Event>) {
        let rules = *g.rules();
        let record = Record::from_game(g).to_json();
        self.records += 1;
        let record_no = self.records;
        ctx.new_records.push(record);
        let sess = self.session.as_mut().expect("session");
        let deal = sess.deal.take().expect("deal");
        let factor = if deal.bock { 2 } else { 1 };
        let mut scores = vec![0i64; sess.players.len()];
        for s in Seat::ALL {
            scores[deal.seats[s.index()]] = score.scores[s.index()] as i64 * factor;
        }
        debug_assert_eq!(scores.iter().sum::<i64>(), 0, "zero sum");
        for (t, d) in sess.totals.iter_mut().zip(&scores) {
            *t += d;
        }
        sess.deals += 1;
        sess.sheet.push(SheetRow {
            deal: sess.deals,
            contract: g.contract().name(),
            scores: scores.clone(),
            bock: deal.bock,
            record: record_no,
        });
        // compulsory solo: counted, and the same dealer deals again
        let duty_solo = g.declarer().is_some_and(|d| {
            matches!(g.bids()[d.index()], Some(Bid::Reserve(Reservation::Solo { duty: true, .. })))
                && g.contract() != doko_engine::Contract::SilentSolo
        });
        if let Some(d) = g.declarer().filter(|_| duty_solo) {
            let p = deal.seats[d.index()];
            sess.duty_left[p] = sess.duty_left[p].saturating_sub(1);
        } else {
            sess.dealer = (sess.dealer + 1) % sess.players.len();
        }
        // Bock: a 120:120 split or a lost Re/Kontra starts a Bock round
        if deal.bock {
            sess.bock_left = sess.bock_left.saturating_sub(1);
        }
        if rules.bock {
            let tie = score.card_points[0] == 120;
            let lost_claim = [Party::Re, Party::Kontra]
                .into_iter()
                .any(|p| g.levels()[p.index()].is_some() && score.winner.is_some_and(|w| w != p));
            if tie || lost_claim {
                sess.bock_left += sess.players.len() as u32;
            }
        }
        // statistics
        for s in Seat::ALL {
            let p = deal.seats[s.index()];
            let st = self.stats.entry(sess.players[p].clone()).or_default();
            st.name = sess.names[p].clone();
            st.deals += 1;
            let won = score.winner.is_some_and(|w| w == g.party(s));
            st.won += won as u32;
            st.points += scores[p];
            if g.is_solo() && g.declarer() == Some(s) {
                st.solos += 1;
                st.solos_won += won as u32;
            }
        }
        let names = |p: Party| -> Vec<String> {
            Seat::ALL
                .into_iter()
                .filter(|s| g.party(*s) == p)
                .map(|s| sess.names[deal.seats[s.index()]].clone())
                .collect()
        };
        let summary = Summary {
            number: sess.deals,
            record: record_no,
            contract: g.contract(),
            declarer: g.declarer().map(|d| sess.names[deal.seats[d.index()]].clone()),
            re: names(Party::Re),
            kontra: names(Party::Kontra),
            card_points: score.card_points,
            winner: score.winner,
            value: score.game_value,
            items: score.breakdown.items().to_vec(),
            scores: sess.names.iter().cloned().zip(scores.iter().copied()).collect(),
            bock: deal.bock,
        };
        ev.push(Event::Scored(Box::new(summary)));
    }

    /// The person who must act now (seat key and table seat), if a person must.
    pub fn person_to_act(&self) -> Option<(String, usize)> {
        let g = self.game().ok()??;
        let s = g.mandatory_announcement().or(g.to_act())?;
        let ts = self.table_seat(s)?;
        let seat = &self.seats[ts];
        match &seat.occupant {
            Occupant::Human { .. } if seat.stand_in.is_none() => Some((seat.key(), ts)),
            _ => None,
        }
    }

    /// Keeps the turn clock: restarts it when another person must act.
    pub fn update_clock(&mut self, now_ms: u64) {
        let who = self.person_to_act().map(|(k, _)| k);
        match (&self.turn, who) {
            (Some(t), Some(k)) if t.key == k => {}
            (_, Some(k)) => self.turn = Some(TurnClock { key: k, since_ms: now_ms, reminded: false }),
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
        let limit = self.game()?.map_or(self.rules.turn_timeout, |g| g.rules().turn_timeout) as u64 * 1000;
        let Some(turn) = self.turn.clone() else { return Ok(Vec::new()) };
        let Some((key, ts)) = self.person_to_act() else { return Ok(Vec::new()) };
        if limit == 0 || key != turn.key {
            return Ok(Vec::new());
        }
        let elapsed = now_ms.saturating_sub(turn.since_ms);
        let name = self.seats[ts].name.clone();
        let mut ev = Vec::new();
        if elapsed >= limit {
            match self.policy {
                TimeoutPolicy::StandIn => {
                    self.seats[ts].stand_in = Some(BotLevel::Basic);
                    ev.push(Event::TimedOut(name));
                    ev.extend(self.run_computers(ctx, decide)?);
                }
                TimeoutPolicy::Abort => {
                    if let Some(s) = &mut self.session {
                        s.deal = None;
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

    /// Lets computer players (and stand-ins) act until a person must act or
    /// the session ends. `decide` chooses an action from a seat's view.
    pub fn run_computers(
        &mut self,
        ctx: &mut Ctx<'_>,
        decide: &mut dyn FnMut(BotLevel, &SeatView) -> Action,
    ) -> Result<Vec<Event>, CommandError> {
        let mut ev = Vec::new();
        for _ in 0..10_000 {
            let Some(g) = self.game()? else { break };
            let Some(seat) = g.to_act() else { break };
            let Some(ts) = self.table_seat(seat) else { break };
            let Some(level) = self.seats[ts].computer() else { break };
            let view = g.view(seat);
            let mut action = decide(level, &view);
            if let Action::Bid(b) = action {
                action = Action::Bid(self.computer_bid(seat, b, &g));
            }
            let mut g2 = g.clone();
            if g2.act(seat, action).is_err() {
                // never stall: a refused choice falls back to the first legal action
                action = match view.legal.first() {
                    Some(Action::Bid(_)) => Action::Bid(self.computer_bid(seat, Bid::Healthy, &g)),
                    Some(a) => *a,
                    None => return Err(CommandError::Damaged("no legal action".into())),
                };
                g2 = g.clone();
                g2.act(seat, action)?;
            }
            let name = self.seats[ts].name.clone();
            self.put_game(&g2);
            ev.push(event_for(name, action));
            self.after_action(g2, ctx, &mut ev)?;
        }
        Ok(ev)
    }
}

/// The public event of a game action.
fn event_for(name: String, action: Action) -> Event {
    match action {
        Action::Bid(b) => Event::Bid { name, reserved: b != Bid::Healthy },
        Action::Play(card) => Event::Played { name, card },
        Action::Announce(call) => Event::Announced { name, call },
        Action::Give(_) => Event::Poverty { name, step: "gave" },
        Action::Answer(true) => Event::Poverty { name, step: "accepted" },
        Action::Answer(false) => Event::Poverty { name, step: "declined" },
        Action::Return(_) => Event::Poverty { name, step: "returned" },
    }
}

fn cards_of(v: &[Card]) -> Cards {
    let mut c = Cards::EMPTY;
    for x in v {
        c.insert(*x);
    }
    c
}
