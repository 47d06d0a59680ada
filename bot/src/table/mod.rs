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
mod commands;
mod computers;
mod deliveries;
mod errors;
mod events;
mod layers;
mod links;
mod owed;
mod play;
mod seats;
mod session;
mod stats;
mod watch;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use doko_engine::record::{rules_from_json, rules_to_json};
use doko_engine::{Game, HandView, Rules, Seat, SeatView};
use serde::{Deserialize, Serialize};

pub use clock::TurnClock;
pub use deliveries::Deliveries;
pub use errors::CommandError;
pub use events::{Event, PovertyMove, RevealedTrick, Summary};
pub use layers::{Layer, ServerLayer, Source};
pub use links::{CODE_LEN, LINK_CODE_MS, Link, LinkCode, is_code};
pub use owed::{OWED_KEPT, OWED_MAX_AGE_MS, Owed, OwedEntry};
pub use seats::{MAX_SEATS, Occupant, PlayerKey, SeatInfo, Seats, TableSeat};
pub use session::TableSession;
pub use stats::{PlayerStats, Stats, date_of, month_of};
pub use watch::{MAX_SPECTATORS, Spectator};

use crate::authority::{self, ActorKind, CommandKind, Refusal};
use crate::command::{CardStyle, Command, ServerCmd, TimeoutPolicy};
use crate::ids::{Actor, UserId};
use crate::lang::Lang;
use doko_engine::Shared;
use doko_players::BotLevel;

/// How many delivery ids a table remembers.
pub const DELIVERIES_KEPT: usize = 256;

/// How many refused deliveries a table remembers with their refusal (the
/// newest; each also among the [`DELIVERIES_KEPT`] delivery ids).
pub const REFUSALS_KEPT: usize = 32;

/// A delivery that was refused, with the refusal it was answered with:
/// the same delivery arriving again gets the same answer and is not
/// applied, even if it has become legal meanwhile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedDelivery {
    /// The delivery id.
    pub id: String,
    /// The refusal's text, as the person was told.
    pub answer: String,
}

/// The deliveries of a stored table, read without the rest of it.
#[derive(Deserialize)]
struct DeliveriesOnly {
    #[serde(default, alias = "delivered")]
    deliveries: Deliveries,
}

/// Whether a stored table (its JSON) remembers a delivery id, applied or
/// refused; reads only the deliveries, not the deal.
pub fn stored_knows_delivery(json: &str, id: &str) -> Result<bool, serde_json::Error> {
    let d: DeliveriesOnly = serde_json::from_str(json)?;
    Ok(d.deliveries.contains(id))
}

/// What can be read of a stored table that cannot be read whole.
#[derive(Deserialize)]
struct Probe {
    #[serde(default = "first_format")]
    format: u32,
    #[serde(default)]
    lang: Option<Lang>,
}

/// Tables stored before they said their format are in format 1.
fn first_format() -> u32 {
    1
}

/// The format a stored table says it is in, and its language, where they
/// can be read (a table that cannot be read whole may still say these).
pub fn stored_probe(json: &str) -> Option<(u32, Option<Lang>)> {
    let p: Probe = serde_json::from_str(json).ok()?;
    Some((p.format, p.lang))
}

/// A channel's table. Fields are private: it changes through
/// [`Table::apply`] and the other commands below.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The format it is stored in ([`crate::store::STORE_FORMAT`]).
    #[serde(default = "first_format")]
    format: u32,
    lang: Lang,
    #[serde(with = "rules_serde")]
    rules: Rules,
    seats: Seats,
    session: Option<TableSession>,
    /// (This and the other parts that change at most once a deal are
    /// shared copy-on-write: a command's copy of the table, kept to put
    /// it back on a refusal, does not copy them; the statistics, the
    /// months, the ended lists and who sat where also keep their JSON, so
    /// a commit does not write them out again.)
    stats: Shared<Stats>,
    records: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    computers: u32,
    /// The deliveries handled (store format 2 kept the ids themselves, as
    /// `delivered`).
    #[serde(default, alias = "delivered", skip_serializing_if = "is_no_delivery")]
    deliveries: Arc<Deliveries>,
    /// The newest refused deliveries with their refusals (at most
    /// [`REFUSALS_KEPT`], each id also among the deliveries).
    #[serde(default, skip_serializing_if = "is_empty_shared")]
    refused: Arc<VecDeque<RefusedDelivery>>,
    #[serde(default, skip_serializing_if = "is_default_policy")]
    policy: TimeoutPolicy,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<TurnClock>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    display: Option<String>,
    /// Counts the deals' table messages: a new deal wants a new message.
    #[serde(default)]
    epoch: u32,
    /// Counts the table's committed changes (what is newer than what).
    #[serde(default)]
    revision: u64,
    /// A process is posting the table message since this time (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    posting: Option<u64>,
    /// People told in this deal that they cannot be reached privately (by
    /// player key), so the channel is told once per deal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unreachable: Vec<String>,
    /// Moves made at this table (game actions and deals), so the turn
    /// clock restarts on every move, also when the same person acts again.
    #[serde(default)]
    moves: u64,
    /// The turn clock is stopped (`pause`).
    #[serde(default, skip_serializing_if = "is_false")]
    clock_paused: bool,
    /// Sessions that ended, the latest last (at most [`HISTORY_KEPT`]).
    #[serde(default, skip_serializing_if = "is_empty_shared")]
    history: Shared<Vec<TableSession>>,
    /// What the table owes the platforms (the durable outbox).
    #[serde(default, skip_serializing_if = "Owed::is_empty")]
    owed: Owed,
    /// How the table shows cards (`cards`).
    #[serde(default, skip_serializing_if = "is_text")]
    cards: CardStyle,
    /// People watching the table (`watch`), at most [`MAX_SPECTATORS`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    spectators: Vec<Spectator>,
    /// The settings are kept in layers (`base`, `server`, `own`); a table
    /// stored before they were is read with its settings as its own.
    #[serde(default)]
    layered: bool,
    /// The host's defaults the table was made with.
    #[serde(default, skip_serializing_if = "Layer::is_empty")]
    base: Layer,
    /// The server's defaults, as last copied from the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    server: Option<ServerLayer>,
    /// What the channel's admins set here.
    #[serde(default, skip_serializing_if = "Layer::is_empty")]
    own: Layer,
    /// Statistics per calendar month (`2026-11`, UTC), the newest
    /// [`MONTHS_KEPT`].
    #[serde(default, skip_serializing_if = "is_empty_shared")]
    monthly: Shared<BTreeMap<String, Stats>>,
    /// Lists (sessions) started here: the last one's number.
    #[serde(default)]
    lists: u32,
    /// The channels that share this table (`link`), each with its table
    /// message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    links: Vec<Link>,
    /// This channel shares the table of that channel (its home).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    linked_to: Option<crate::ids::ChannelId>,
    /// Since when (ms).
    #[serde(default, skip_serializing_if = "is_zero_ms")]
    linked_since: u64,
    /// The code that links another channel, while it is valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    link_code: Option<LinkCode>,
    /// Who sat where in the newest recorded deals (at most
    /// [`PLAYED_KEPT`]), for `analysis`.
    #[serde(default, skip_serializing_if = "is_empty_shared")]
    played: Shared<VecDeque<Played>>,
}

/// How many of the newest recorded deals `analysis` can examine (the
/// table keeps who sat where in them).
pub const PLAYED_KEPT: usize = 10;

/// Who sat where in a recorded deal: the player key of each of the deal's
/// seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    record: u32,
    seats: [PlayerKey; 4],
}

/// How many calendar months of statistics a table keeps.
pub const MONTHS_KEPT: usize = 13;

/// Whether no delivery is remembered.
fn is_no_delivery(d: &Arc<Deliveries>) -> bool {
    d.is_empty()
}

/// Whether a shared collection (list, map, queue) holds nothing.
fn is_empty_shared<P>(c: &P) -> bool
where
    P: std::ops::Deref,
    for<'a> &'a P::Target: IntoIterator,
{
    (&**c).into_iter().next().is_none()
}

fn is_zero_ms(n: &u64) -> bool {
    *n == 0
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_default_policy(p: &TimeoutPolicy) -> bool {
    *p == TimeoutPolicy::default()
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_text(c: &CardStyle) -> bool {
    *c == CardStyle::Text
}

/// How many ended sessions a table keeps with their score sheets.
pub const HISTORY_KEPT: usize = 10;

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

impl Table {
    /// A new table with these house rules and language (a host's defaults
    /// for new tables; admins change them at the table).
    pub fn new_with(rules: Rules, lang: Lang) -> Table {
        let mut t = Table { base: Layer::of(&rules, Some(lang)), ..Table::default() };
        t.relayer();
        t
    }

    /// A table stored before its settings were kept in layers takes its
    /// rules (what differs from the DDV rules), language and policy as the
    /// channel's own: nothing it had changes, and a server's defaults
    /// reach what it left at the built-in defaults.
    pub fn upgrade(&mut self) {
        // (format 3 reads formats 1 and 2 as they are; what it writes is
        // format 3)
        self.format = crate::store::STORE_FORMAT;
        if self.layered {
            return;
        }
        self.own = Layer::of(&self.rules, (self.lang != Lang::En).then_some(self.lang));
        self.own.policy = (self.policy != TimeoutPolicy::default()).then_some(self.policy);
        self.base = Layer::default();
        self.layered = true;
        self.relayer();
    }

    /// Puts the layers together into the rules, language and policy in
    /// force.
    fn relayer(&mut self) {
        let server = self.server.as_ref().map(|s| &s.layer);
        self.rules = layers::rules(&self.base, server, &self.own);
        self.lang = layers::lang(&self.base, server, &self.own);
        self.policy = layers::policy(&self.base, server, &self.own);
    }

    /// The server's defaults this table holds, if it belongs to a server.
    pub fn server(&self) -> Option<&ServerLayer> {
        self.server.as_ref()
    }

    /// What the channel's admins set here.
    pub fn own(&self) -> &Layer {
        &self.own
    }

    /// Takes a server's defaults (a newer version of them, or another
    /// server's when the channel moved): true when the table changed.
    pub fn set_server(&mut self, layer: ServerLayer) -> bool {
        if let Some(s) = &self.server
            && s.id == layer.id
            && s.version >= layer.version
        {
            return false;
        }
        self.server = Some(layer);
        self.relayer();
        true
    }

    /// Leaves the server the table belonged to (the platform says the
    /// channel belongs to none now): true when it did belong to one.
    pub fn leave_server(&mut self) -> bool {
        if self.server.take().is_none() {
            return false;
        }
        self.relayer();
        true
    }

    /// Where a house-rule key's value in force comes from.
    pub fn rule_source(&self, key: &str) -> Source {
        layers::rule_source(self.server.as_ref().map(|s| &s.layer), &self.own, key)
    }

    /// Which layer set a house-rule key by itself, if one did (not
    /// through a preset).
    pub fn rule_setter(&self, key: &str) -> Option<Source> {
        layers::rule_setter(self.server.as_ref().map(|s| &s.layer), &self.own, key)
    }

    /// Where the preset in force comes from.
    pub fn preset_source(&self) -> Source {
        layers::preset_source(self.server.as_ref().map(|s| &s.layer), &self.own)
    }

    /// Where the language comes from.
    pub fn lang_source(&self) -> Source {
        layers::lang_source(self.server.as_ref().map(|s| &s.layer), &self.own)
    }

    /// Where the timeout policy comes from.
    pub fn policy_source(&self) -> Source {
        layers::policy_source(self.server.as_ref().map(|s| &s.layer), &self.own)
    }

    /// Statistics of a calendar month (`2026-11`).
    pub fn month_stats(&self, month: &str) -> Option<&Stats> {
        self.monthly.get(month)
    }

    /// The lists (sessions) started here so far.
    pub fn lists(&self) -> u32 {
        self.lists
    }
}

impl Default for Table {
    fn default() -> Table {
        Table {
            format: crate::store::STORE_FORMAT,
            lang: Lang::En,
            rules: Rules::default(),
            seats: Seats::default(),
            session: None,
            stats: Shared::default(),
            records: 0,
            computers: 0,
            deliveries: Arc::default(),
            refused: Arc::default(),
            policy: TimeoutPolicy::StandIn,
            turn: None,
            display: None,
            epoch: 0,
            revision: 0,
            posting: None,
            unreachable: Vec::new(),
            moves: 0,
            clock_paused: false,
            history: Shared::default(),
            owed: Owed::default(),
            cards: CardStyle::Text,
            spectators: Vec::new(),
            layered: true,
            base: Layer::default(),
            server: None,
            own: Layer::default(),
            monthly: Shared::default(),
            lists: 0,
            links: Vec::new(),
            linked_to: None,
            linked_since: 0,
            link_code: None,
            played: Shared::default(),
        }
    }
}

/// Where new deals' seeds come from, and where finished deals' records go.
pub struct Ctx<'a> {
    /// Produces a seed for each new deal.
    pub seed: &'a mut (dyn FnMut() -> u64 + Send),
    /// Records of deals finished by this command, in order.
    pub new_records: Vec<String>,
    /// Set by work that failed part of the way through (computer players
    /// on damaged data): the table is neither committed nor kept by the
    /// process, so the next command reads the stored one.
    pub discard: bool,
    /// The time now (ms since 1970, UTC): dates lists and counts
    /// statistics by month.
    pub now_ms: u64,
    /// The command came through this channel, linked to the table's home
    /// (`None`: the home itself).
    pub via: Option<crate::ids::ChannelId>,
}

impl Table {
    /// A new table speaking `lang`.
    pub fn with_lang(lang: Lang) -> Table {
        let mut t = Table { base: Layer { lang: Some(lang), ..Layer::default() }, ..Table::default() };
        t.relayer();
        t
    }

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

    /// The latest deliveries handled (platform interaction or event ids),
    /// oldest first, at most [`DELIVERIES_KEPT`].
    pub fn deliveries(&self) -> &Deliveries {
        &self.deliveries
    }

    /// Remembers a delivery id; `false` when it was handled before (a
    /// duplicate delivery, to be ignored). The oldest ids beyond
    /// [`DELIVERIES_KEPT`] are forgotten, with their refusals.
    pub fn remember_delivery(&mut self, id: &str) -> bool {
        // (the id hashed once; a duplicate does not copy the deliveries)
        let e = Deliveries::entry(id);
        if self.deliveries.holds(&e) {
            return false;
        }
        let forgotten = Arc::make_mut(&mut self.deliveries).push(e, DELIVERIES_KEPT);
        if !forgotten.is_empty() && !self.refused.is_empty() {
            Arc::make_mut(&mut self.refused).retain(|r| !forgotten.contains(&Deliveries::entry(&r.id)));
        }
        true
    }

    /// Whether a delivery id was handled (applied or refused) and is still
    /// remembered.
    pub fn knows_delivery(&self, id: &str) -> bool {
        self.deliveries.contains(id)
    }

    /// Remembers a delivery as refused with the refusal it was answered
    /// with (and its id as handled); the oldest refusals beyond
    /// [`REFUSALS_KEPT`] are forgotten (their ids stay handled while
    /// remembered, answered as duplicates without the refusal).
    pub fn remember_refusal(&mut self, id: &str, answer: &str) {
        self.remember_delivery(id);
        let refused = Arc::make_mut(&mut self.refused);
        refused.retain(|r| r.id != id);
        refused.push_back(RefusedDelivery { id: id.to_string(), answer: answer.to_string() });
        while refused.len() > REFUSALS_KEPT {
            refused.pop_front();
        }
    }

    /// The refusal a remembered refused delivery was answered with.
    pub fn refusal_of(&self, id: &str) -> Option<&str> {
        self.refused.iter().rev().find(|r| r.id == id).map(|r| r.answer.as_str())
    }

    /// The refused deliveries remembered, oldest first.
    pub fn refused(&self) -> &VecDeque<RefusedDelivery> {
        &self.refused
    }

    /// Moves made at this table so far: game actions by anyone (people,
    /// computers, stand-ins) and deals dealt.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// What happens when a player's time runs out.
    pub fn policy(&self) -> TimeoutPolicy {
        self.policy
    }

    /// Who must act and since when (for `turn_timeout`).
    pub fn turn(&self) -> Option<&TurnClock> {
        self.turn.as_ref()
    }

    /// Whether the turn clock is stopped (`pause`).
    pub fn clock_paused(&self) -> bool {
        self.clock_paused
    }

    /// Sessions that ended, with their score sheets, the latest last.
    pub fn history(&self) -> &[TableSession] {
        &self.history
    }

    /// Whether the table must be kept without expiry: a session is in
    /// progress, or it holds statistics (or ended sessions' sheets).
    pub fn durable(&self) -> bool {
        self.session_open()
            || !self.stats.is_empty()
            || !self.history.is_empty()
            || self.linked_to.is_some()
            || !self.links.is_empty()
    }

    /// Whether a session is in progress (started and not over): its
    /// players keep their seats and newcomers wait for its end.
    pub fn session_open(&self) -> bool {
        self.session.as_ref().is_some_and(|s| !s.is_over())
    }

    /// The kind of a person at this table, for the authority table: a
    /// stranger, seated, or the one to act.
    pub fn actor_kind(&self, user: &UserId) -> ActorKind {
        match self.seat_of(user) {
            None => ActorKind::Stranger,
            Some(_) if self.person_to_act().is_some_and(|(u, _)| &u == user) => ActorKind::ToAct,
            Some(_) => ActorKind::Seated,
        }
    }

    /// Whether the authority table lets this person give this command.
    pub fn authorize(&self, actor: &Actor, cmd: &Command) -> Result<(), CommandError> {
        let kind = self.actor_kind(&actor.user);
        authority::check(CommandKind::of(cmd), kind, actor.admin, actor.direct).map_err(|r| match r {
            Refusal::NotSeated | Refusal::ComputersOnlyPlay | Refusal::NotYourTurn => CommandError::NotSeated,
            Refusal::AlreadySeated => CommandError::AlreadySeated,
            Refusal::SeatedOrAdmin => CommandError::NotAtTable,
            Refusal::AdminOnly => CommandError::NotAdmin,
            Refusal::InChannel => CommandError::InChannel,
        })
    }

    /// A person whose time ran out takes their seat back with whatever
    /// command they give next: the stand-in leaves. Returns the event
    /// (none when they had not timed out).
    pub fn hand_back(&mut self, user: &UserId) -> Vec<Event> {
        match self.seat_of(user) {
            Some(ts) if self.seats[ts].timed_out() => {
                self.seats[ts].set_stand_in(None);
                vec![Event::Back(self.seats[ts].name().to_string())]
            }
            _ => Vec::new(),
        }
    }

    /// The platform's id of the public table message (kept for the adapter,
    /// so every process edits the same message).
    pub fn display(&self) -> &Option<String> {
        &self.display
    }

    /// Notes that a person could not be reached privately in this deal;
    /// true the first time.
    pub fn note_unreachable(&mut self, user: &UserId) -> bool {
        let key = user.key();
        let new = !self.unreachable.contains(&key);
        if new {
            self.unreachable.push(key);
        }
        new
    }

    /// Which table message the table is on: one per deal.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// The number of committed changes so far.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// What the table owes the platforms.
    pub fn owed(&self) -> &Owed {
        &self.owed
    }

    /// What the table owes the platforms, to change.
    pub fn owed_mut(&mut self) -> &mut Owed {
        &mut self.owed
    }

    /// Counts a change about to be committed.
    pub fn bump_revision(&mut self) {
        self.revision += 1;
    }

    /// Whether a process claimed the posting of the table message less
    /// than five seconds before `now_ms`.
    pub fn posting_claimed(&self, now_ms: u64) -> bool {
        self.posting.is_some_and(|since| now_ms.saturating_sub(since) < 5_000)
    }

    /// Claims the posting of the table message at `now_ms`.
    pub fn claim_posting(&mut self, now_ms: u64) {
        self.posting = Some(now_ms);
    }

    /// Remembers the platform's id of the table message.
    pub fn set_display(&mut self, id: Option<String>) {
        self.posting = None;
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

    /// The deal being played, borrowed (where [`game`](Self::game) copies it).
    pub fn current_game(&self) -> Option<&Game> {
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

    /// The name playing game seat `s` (borrowed from its seat).
    pub fn name_of(&self, s: Seat) -> std::borrow::Cow<'_, str> {
        match self.table_seat(s) {
            Some(ts) => std::borrow::Cow::Borrowed(self.seats[ts].name()),
            None => std::borrow::Cow::Owned(format!("seat {s}")),
        }
    }

    /// Whether the user plays in the current deal (has a view: see
    /// [`view_for`](Self::view_for)), without building the view.
    pub fn plays_in_deal(&self, user: &UserId) -> bool {
        self.current_game().is_some() && self.seat_of(user).and_then(|ts| self.game_seat(ts)).is_some()
    }

    /// The view of the user's game seat, if they play in the current deal.
    pub fn view_for(&self, user: &UserId) -> Option<SeatView> {
        let gs = self.game_seat(self.seat_of(user)?)?;
        Some(self.current_game()?.view(gs))
    }

    /// The hand's part of [`view_for`](Self::view_for) (what a hand
    /// message shows), without the table's view.
    pub fn hand_view_for(&self, user: &UserId) -> Option<HandView> {
        let gs = self.game_seat(self.seat_of(user)?)?;
        Some(self.current_game()?.hand_view(gs))
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

    /// Applies a command by a person: first the authority table
    /// ([`crate::authority`]), then the table's state. Queries (table,
    /// score, ...) change nothing and return no events.
    ///
    /// A move ([`Command::is_move`]) that is refused leaves the table
    /// exactly as it was: no copy of the table is needed to put it back
    /// (`bot/tests/atomic.rs` holds every kind of move to that).
    pub fn apply(&mut self, actor: &Actor, cmd: &Command, ctx: &mut Ctx<'_>) -> Result<Vec<Event>, CommandError> {
        // seats freed since the last command (a leave, a kick at a deal's
        // end the computers played) take their grants with them before
        // anyone sits down again or a grant is changed; a move does
        // neither, and the grants' readers ask whether both people are
        // still there (`kiebitz_sees`)
        if !cmd.is_move() {
            self.prune_spectators();
        }
        if matches!(cmd, Command::Hand) && self.kiebitz_sees(&actor.user).is_some() {
            // a spectator let see a player's hand asks for it
            return Ok(Vec::new());
        }
        self.authorize(actor, cmd)?;
        let mut ev = Vec::new();
        self.dispatch(actor, cmd, ctx, &mut ev)?;
        Ok(ev)
    }

    /// Notes who sat where in the deal just recorded as `record`.
    pub(super) fn remember_played(&mut self, record: u32, deal: &doko_engine::Deal) {
        let Some(s) = &self.session else { return };
        let seats = deal.seats().map(|p| s.players()[p].clone());
        let played = self.played.make_mut();
        played.push_back(Played { record, seats });
        while played.len() > PLAYED_KEPT {
            played.pop_front();
        }
    }

    /// The recorded deal `analysis` examines for a person, and their seat
    /// in it: record `n`, or the newest they played in.
    pub fn analysable(&self, user: &UserId, n: Option<u32>) -> Result<(u32, Seat), CommandError> {
        let key = PlayerKey::person(user);
        self.played
            .iter()
            .rev()
            .filter(|p| n.is_none_or(|n| p.record == n))
            .find_map(|p| p.seats.iter().position(|k| *k == key).map(|i| (p.record, Seat::new(i))))
            .ok_or(CommandError::NoAnalysis(n.unwrap_or(0)))
    }

    /// List `n` of this table: the current one or a kept one.
    pub fn list(&self, n: u32) -> Option<&TableSession> {
        self.session.iter().chain(self.history.iter().rev()).find(|s| s.number() == n)
    }

    /// How the table shows cards.
    pub fn card_style(&self) -> CardStyle {
        self.cards
    }

    /// Whether a command's step here is quick (tens of microseconds): no
    /// computer that searches acts for a seat (a basic or random one
    /// decides in microseconds) and no card pictures are drawn (a few
    /// milliseconds each). The service runs such steps where the command
    /// arrived, not on a thread of their own.
    pub fn steps_in_microseconds(&self) -> bool {
        self.cards != CardStyle::Images
            && self
                .seats
                .iter()
                .all(|s| s.computer_level().is_none_or(|l| matches!(l, BotLevel::Basic | BotLevel::Random)))
    }

    /// The people watching the table.
    pub fn spectators(&self) -> &[Spectator] {
        &self.spectators
    }

    /// The seated person whose hand a spectator may see now (the Kiebitz
    /// custom), if any.
    pub fn kiebitz_sees(&self, spectator: &UserId) -> Option<&UserId> {
        let s = self.spectators.iter().find(|s| s.user() == spectator)?;
        let player = s.sees()?;
        // only while the player sits here and the spectator does not
        (self.seat_of(player).is_some() && self.seat_of(spectator).is_none()).then_some(player)
    }

    /// A spectator's view of the hand they may see: the player's name and
    /// their hand's view, if the player holds cards now.
    pub fn kiebitz_view(&self, spectator: &UserId) -> Option<(String, HandView)> {
        let player = self.kiebitz_sees(spectator)?;
        let ts = self.seat_of(player)?;
        Some((self.seats[ts].name().to_string(), self.hand_view_for(player)?))
    }

    /// Drops what no longer holds: spectators who sat down, and hands
    /// shown by people who left their seat.
    fn prune_spectators(&mut self) {
        let seats = &self.seats;
        self.spectators.retain(|s| seats.of_user(s.user()).is_none());
        for s in &mut self.spectators {
            if s.sees().is_some_and(|p| seats.of_user(p).is_none()) {
                s.set_sees(None);
            }
        }
    }
}

impl Table {
    /// Keeps an ended session with its sheet (the oldest beyond
    /// [`HISTORY_KEPT`] go).
    fn keep_in_history(&mut self, old: TableSession) {
        let history = self.history.make_mut();
        history.push(old);
        let extra = history.len().saturating_sub(HISTORY_KEPT);
        history.drain(..extra);
    }

    /// The seat a kick names: a mention (`<@123>`, `<@!123>`), a platform
    /// id (`@anna:example.org`), or the name shown at the table (`@` in
    /// front allowed), all without regard to case.
    fn find_seat(&self, who: &str) -> Result<TableSeat, CommandError> {
        let w = who.trim().to_lowercase();
        let id = w.strip_prefix("<@").and_then(|r| r.strip_suffix('>')).map(|r| r.trim_start_matches('!'));
        let bare = w.strip_prefix('@').unwrap_or(&w);
        self.seats
            .enumerate()
            .find(|(_, s)| {
                let uid = s.user().map(|u| u.id.to_lowercase());
                uid.as_deref().is_some_and(|u| Some(u) == id || u == w)
                    || s.name().to_lowercase() == w
                    || s.name().to_lowercase() == bare
            })
            .map(|(ts, _)| ts)
            .ok_or_else(|| CommandError::NoSuchPlayer(who.to_string()))
    }

    /// A computer's seat: by name, or the last computer seated.
    fn find_computer(&self, name: Option<&str>) -> Result<TableSeat, CommandError> {
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
    fn free_seat(&mut self, ts: TableSeat, by: Option<String>) -> Result<Vec<Event>, CommandError> {
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
        self.records += 1;
        self.remember_played(self.records, &deal);
        ctx.new_records.push(doko_engine::Record::aborted(&g, reason).to_compact());
        Ok(self.records)
    }

    /// When a deal ends (scored, void or aborted): stand-ins for people
    /// whose time ran out leave (the seat is theirs again in the next
    /// deal), and seats marked leaving are freed, which ends the session.
    /// Returns whether the session may go on.
    pub(super) fn end_of_deal(&mut self, ev: &mut Vec<Event>) -> Result<bool, CommandError> {
        // (the seats' kept JSON is written again only when one changes)
        if self.seats.iter().any(|s| s.timed_out()) {
            for s in self.seats.iter_mut() {
                if s.timed_out() {
                    s.set_stand_in(None);
                }
            }
        }
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

/// Makes a server command's change on a server's layer.
pub fn server_change(layer: &mut Layer, cmd: &ServerCmd) -> Result<(), CommandError> {
    match cmd {
        ServerCmd::Set { key, value } => {
            let below = layers::rules(&Layer::default(), Some(layer), &Layer::default());
            layer.set_rule(&below, key, value)?;
        }
        ServerCmd::Preset(name) => layer.set_preset(name)?,
        ServerCmd::Lang(l) => layer.lang = Some(*l),
        ServerCmd::Policy(p) => layer.policy = Some(*p),
        ServerCmd::Reset => *layer = Layer::default(),
    }
    Ok(())
}
