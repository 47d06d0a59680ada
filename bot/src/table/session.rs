//! The table's session: the engine's [`Session`] with the roster of who
//! its players are.

use std::ops::Deref;

use doko_engine::{ByPlayer, Player, Session};
use serde::{Deserialize, Serialize};

use super::seats::{PlayerKey, Seats, TableSeat};
use doko_engine::Shared;

/// A session at this table: the engine's session (dealer, deals, score
/// sheet, compulsory solos, Bock, the deal being played) and, per session
/// player, their stored id and name. Reads as the engine's session.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "Stored")]
pub struct TableSession {
    /// (The roster never changes in a session: kept with its JSON, so a
    /// commit does not write it out again.)
    players: Shared<ByPlayer<PlayerKey>>,
    names: Shared<ByPlayer<String>>,
    session: Session,
    number: u32,
    started_ms: u64,
    /// A hint was taken in the deal being played.
    hinting: bool,
    /// The sheet's deals in which a hint was taken (their numbers).
    hinted: Vec<u32>,
}

#[derive(Deserialize)]
struct Stored {
    players: ByPlayer<PlayerKey>,
    names: ByPlayer<String>,
    /// The list's number at its table (0: started before lists had one).
    #[serde(default)]
    number: u32,
    /// When it started (ms since 1970; 0: not known).
    #[serde(default)]
    started_ms: u64,
    #[serde(default)]
    hinting: bool,
    #[serde(default)]
    hinted: Vec<u32>,
    #[serde(flatten)]
    session: Session,
}

/// [`Stored`] as written: borrowed from the list (no copy of it).
#[derive(Serialize)]
struct StoredRef<'a> {
    players: &'a Shared<ByPlayer<PlayerKey>>,
    names: &'a Shared<ByPlayer<String>>,
    #[serde(skip_serializing_if = "super::skip::is_zero")]
    number: u32,
    #[serde(skip_serializing_if = "super::skip::is_zero_ms")]
    started_ms: u64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    hinting: bool,
    #[serde(skip_serializing_if = "<[u32]>::is_empty")]
    hinted: &'a [u32],
    #[serde(flatten)]
    session: &'a Session,
}

impl Serialize for TableSession {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StoredRef {
            players: &self.players,
            names: &self.names,
            number: self.number,
            started_ms: self.started_ms,
            hinting: self.hinting,
            hinted: &self.hinted,
            session: &self.session,
        }
        .serialize(s)
    }
}

impl TryFrom<Stored> for TableSession {
    type Error = &'static str;
    fn try_from(s: Stored) -> Result<TableSession, &'static str> {
        if s.players.len() != s.session.players() || s.names.len() != s.session.players() {
            return Err("the session's roster has another number of players than its sheet");
        }
        Ok(TableSession {
            players: Shared::new(s.players),
            names: Shared::new(s.names),
            session: s.session,
            number: s.number,
            started_ms: s.started_ms,
            hinting: s.hinting,
            hinted: s.hinted,
        })
    }
}

impl TableSession {
    /// A session of the people now seated, in seat order.
    pub(super) fn new(seats: &Seats, session: Session) -> TableSession {
        let players = ByPlayer::from_vec(seats.iter().map(|s| s.key()).collect()).expect("4 or 5 seats");
        let names = ByPlayer::from_vec(seats.iter().map(|s| s.name().to_string()).collect()).expect("4 or 5 seats");
        TableSession {
            players: Shared::new(players),
            names: Shared::new(names),
            session,
            number: 0,
            started_ms: 0,
            hinting: false,
            hinted: Vec::new(),
        }
    }

    /// The same session as list `number`, started at `started_ms`.
    pub(super) fn numbered(mut self, number: u32, started_ms: u64) -> TableSession {
        self.number = number;
        self.started_ms = started_ms;
        self
    }

    /// Notes that a hint was taken in the deal being played.
    pub(super) fn take_hint(&mut self) {
        self.hinting = true;
    }

    /// The deal being played ended: scored as sheet deal `scored`, or void
    /// (`None`, nothing written). A hint taken in it marks the deal.
    pub(super) fn deal_ended(&mut self, scored: Option<u32>) {
        if let Some(n) = scored.filter(|_| self.hinting) {
            self.hinted.push(n);
        }
        self.hinting = false;
    }

    /// Whether a hint was taken in the sheet's deal `deal`.
    pub fn hinted(&self, deal: u32) -> bool {
        self.hinted.contains(&deal)
    }

    /// Whether a hint was taken in the deal being played.
    pub fn hinting(&self) -> bool {
        self.hinting
    }

    /// The list's number at its table (0: started before lists had one).
    pub fn number(&self) -> u32 {
        self.number
    }

    /// When it started (ms since 1970, UTC; 0: not known).
    pub fn started_ms(&self) -> u64 {
        self.started_ms
    }

    /// The engine's session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    pub(super) fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Each player's stored id.
    pub fn players(&self) -> &ByPlayer<PlayerKey> {
        &self.players
    }

    /// Each player's name (as when the session started).
    pub fn names(&self) -> &ByPlayer<String> {
        &self.names
    }

    /// A player's name.
    pub fn name(&self, p: Player) -> &str {
        &self.names[p]
    }

    /// The table seat of a session player, if they still sit here.
    pub fn table_seat(&self, seats: &Seats, p: Player) -> Option<TableSeat> {
        seats.of_key(self.players.get(p)?)
    }

    /// The session player on a table seat, if they play in this session.
    pub fn player_at(&self, seats: &Seats, ts: TableSeat) -> Option<Player> {
        // (the seat's key compared, not written out: asked for each hand
        // rendered at every move)
        let seat = seats.get(ts)?;
        self.players.position(|k| seat.has_key(k))
    }
}

impl Deref for TableSession {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}
