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
mod coach;
mod commands;
mod computers;
mod deliveries;
mod errors;
mod events;
mod layering;
mod layers;
mod linking;
mod links;
mod owed;
mod page;
mod play;
mod posting;
mod probe;
mod seat_changes;
mod seats;
mod session;
mod skip;
mod stats;
mod turns;
mod watch;
mod web;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use doko_engine::record::{rules_from_json, rules_to_json};
use doko_engine::{Game, HandView, Rules, Seat, SeatView};
use serde::{Deserialize, Serialize};

pub use clock::TurnClock;
pub use deliveries::Deliveries;
pub use errors::CommandError;
pub use events::{Event, PovertyMove, RevealedTrick, Summary};
pub use layering::server_change;
pub use layers::{Layer, ServerLayer, Source};
pub use links::{CODE_LEN, LINK_CODE_MS, Link, LinkCode, is_code};
pub use owed::{OWED_KEPT, OWED_MAX_AGE_MS, Owed, OwedEntry};
pub use page::{PageLink, is_token};
pub use posting::Posting;
pub use probe::{stored_knows_delivery, stored_probe};
pub use seats::{MAX_SEATS, Occupant, PlayerKey, SeatInfo, Seats, TableSeat};
pub use session::TableSession;
pub use stats::{PlayerStats, Stats, date_of, month_of};
pub use watch::{MAX_SPECTATORS, Spectator};

use crate::authority::{self, ActorKind, CommandKind, Refusal};
use crate::command::{CardStyle, Command, TimeoutPolicy};
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

/// A channel's table. Fields are private: it changes through
/// [`Table::apply`] and the other commands below.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The format it is stored in ([`crate::store::STORE_FORMAT`]).
    #[serde(default = "skip::first_format")]
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
    #[serde(default, skip_serializing_if = "skip::is_zero")]
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
    /// What the deliverers need: the table message, what is owed, who
    /// cannot be reached (stored beside the other fields, as before it
    /// was a part of its own).
    #[serde(flatten)]
    posting: Posting,
    /// Counts the table's committed changes (what is newer than what).
    #[serde(default)]
    revision: u64,
    /// Moves made at this table (game actions and deals), so the turn
    /// clock restarts on every move, also when the same person acts again.
    #[serde(default)]
    moves: u64,
    /// The turn clock is stopped (`pause`).
    #[serde(default, skip_serializing_if = "skip::is_false")]
    clock_paused: bool,
    /// Sessions that ended, the latest last (at most [`HISTORY_KEPT`]).
    #[serde(default, skip_serializing_if = "is_empty_shared")]
    history: Shared<Vec<TableSession>>,
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
    #[serde(default, skip_serializing_if = "skip::is_zero_ms")]
    linked_since: u64,
    /// The code that links another channel, while it is valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    link_code: Option<LinkCode>,
    /// Who sat where in the newest recorded deals (at most
    /// [`PLAYED_KEPT`]), for `analysis`.
    #[serde(default, skip_serializing_if = "is_empty_shared")]
    played: Shared<VecDeque<Played>>,
    /// The table's web pages (`web`), while the host serves them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    page: Option<PageLink>,
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

fn is_default_policy(p: &TimeoutPolicy) -> bool {
    *p == TimeoutPolicy::default()
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
            posting: Posting::default(),
            revision: 0,
            moves: 0,
            clock_paused: false,
            history: Shared::default(),
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
            page: None,
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
        t.apply_layers();
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
            // (a person kicked during a deal is no longer at the table; a
            // computer plays the seat to the deal's end)
            None => ActorKind::Stranger,
            Some(ts) if self.seats[ts].leaving() => ActorKind::Stranger,
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

    /// What the deliverers need of the table (see [`Posting`]).
    pub fn posting(&self) -> &Posting {
        &self.posting
    }

    /// What the deliverers need of the table, to change.
    pub fn posting_mut(&mut self) -> &mut Posting {
        &mut self.posting
    }

    /// The platform's id of the public table message (kept for the adapter,
    /// so every process edits the same message).
    pub fn display(&self) -> &Option<String> {
        self.posting.display()
    }

    /// Notes that a person could not be reached privately in this deal;
    /// true the first time.
    pub fn note_unreachable(&mut self, user: &UserId) -> bool {
        self.posting.note_unreachable(user)
    }

    /// Whether the channel was told in this deal that a person cannot be
    /// reached privately.
    pub fn was_unreachable(&self, user: &UserId) -> bool {
        self.posting.was_unreachable(user)
    }

    /// Which table message the table is on: one per deal.
    pub fn epoch(&self) -> u32 {
        self.posting.epoch()
    }

    /// The number of committed changes so far.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// What the table owes the platforms.
    pub fn owed(&self) -> &Owed {
        self.posting.owed()
    }

    /// What the table owes the platforms, to change.
    pub fn owed_mut(&mut self) -> &mut Owed {
        self.posting.owed_mut()
    }

    /// Counts a change about to be committed.
    pub fn bump_revision(&mut self) {
        self.revision += 1;
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
        self.current_game().is_some() && self.holding_seat_of(user).and_then(|ts| self.game_seat(ts)).is_some()
    }

    /// The seat whose cards a person holds: theirs, unless they were
    /// kicked (the seat is a computer's to the deal's end, and its cards
    /// are never shown to them again).
    fn holding_seat_of(&self, user: &UserId) -> Option<TableSeat> {
        self.seat_of(user).filter(|ts| !self.seats[*ts].leaving())
    }

    /// The view of the user's game seat, if they play in the current deal.
    pub fn view_for(&self, user: &UserId) -> Option<SeatView> {
        let gs = self.game_seat(self.holding_seat_of(user)?)?;
        Some(self.current_game()?.view(gs))
    }

    /// The hand's part of [`view_for`](Self::view_for) (what a hand
    /// message shows), without the table's view.
    pub fn hand_view_for(&self, user: &UserId) -> Option<HandView> {
        let gs = self.game_seat(self.holding_seat_of(user)?)?;
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
