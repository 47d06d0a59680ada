//! The seats of a table: who sits where, typed by [`TableSeat`].

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::ids::UserId;
use doko_engine::Shared;
use doko_players::BotLevel;

/// The most seats at a table.
pub const MAX_SEATS: usize = 5;

/// A seat at the table, `0..5`, in the order people sat down. Not the
/// engine's game [`Seat`](doko_engine::Seat) (four per deal) nor a session
/// [`Player`](doko_engine::Player).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TableSeat(u8);

impl TableSeat {
    /// The seat with a number `0..5`.
    ///
    /// # Panics
    /// When the number is 5 or more.
    #[track_caller]
    pub const fn new(n: usize) -> TableSeat {
        assert!(n < MAX_SEATS, "table seat out of range");
        TableSeat(n as u8)
    }

    /// The seat's number.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for TableSeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A player's stable stored id: a person's platform key, or `bot:N` for a
/// computer. Statistics, the session's roster and the turn clock are kept
/// by it, so they survive seats changing between sessions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerKey(String);

impl PlayerKey {
    /// The key of a person.
    pub fn person(user: &UserId) -> PlayerKey {
        PlayerKey(user.key())
    }

    /// The key of a computer player by its number at the table.
    pub fn computer(id: u32) -> PlayerKey {
        PlayerKey(format!("bot:{id}"))
    }

    /// Whether it is a computer's (numbered at its table).
    pub fn is_computer(&self) -> bool {
        self.0.starts_with("bot:")
    }

    /// The key as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who sits on a seat. A person is stored as their user id's key
/// (format 2), a computer as `{"kind": "computer", "level", "id"}`; the
/// tagged person format 1 wrote is read as well.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// The tagged form of an occupant (a computer's; a person's in format 1).
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Tagged {
    Human { user: UserId },
    Computer { level: BotLevel, id: u32 },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StoredOccupant {
    Person(UserId),
    Tagged(Tagged),
}

impl Serialize for Occupant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Occupant::Human { user } => user.serialize(s),
            Occupant::Computer { level, id } => Tagged::Computer { level: *level, id: *id }.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Occupant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match StoredOccupant::deserialize(d)? {
            StoredOccupant::Person(user) | StoredOccupant::Tagged(Tagged::Human { user }) => Occupant::Human { user },
            StoredOccupant::Tagged(Tagged::Computer { level, id }) => Occupant::Computer { level, id },
        })
    }
}

/// One seat at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    occupant: Occupant,
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stand_in: Option<BotLevel>,
    #[serde(default, skip_serializing_if = "super::skip::is_false")]
    dm: bool,
    /// The stand-in is there because the person's time ran out (not
    /// because they said away): it plays their turns in this deal only and
    /// hands the seat back on their next command.
    #[serde(default, skip_serializing_if = "super::skip::is_false")]
    timed_out: bool,
    /// The seat is freed when the deal being played ends (kicked, or a
    /// computer removed during a deal); a computer plays it until then.
    #[serde(default, skip_serializing_if = "super::skip::is_false")]
    leaving: bool,
}

impl SeatInfo {
    /// A person's seat.
    pub fn person(user: UserId, name: impl Into<String>) -> SeatInfo {
        SeatInfo {
            occupant: Occupant::Human { user },
            name: name.into(),
            stand_in: None,
            dm: false,
            timed_out: false,
            leaving: false,
        }
    }

    /// A computer player's seat.
    pub fn computer(level: BotLevel, id: u32, name: impl Into<String>) -> SeatInfo {
        SeatInfo {
            occupant: Occupant::Computer { level, id },
            name: name.into(),
            stand_in: None,
            dm: false,
            timed_out: false,
            leaving: false,
        }
    }

    /// Who sits here.
    pub fn occupant(&self) -> &Occupant {
        &self.occupant
    }

    /// The person sitting here, if a person does.
    pub fn user(&self) -> Option<&UserId> {
        match &self.occupant {
            Occupant::Human { user } => Some(user),
            Occupant::Computer { .. } => None,
        }
    }

    /// The name shown.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A computer playing for the absent person, if any.
    pub fn stand_in(&self) -> Option<BotLevel> {
        self.stand_in
    }

    /// Whether this person also gets their hand as a direct message.
    pub fn dm(&self) -> bool {
        self.dm
    }

    /// The stable id the score sheet and statistics use.
    pub fn key(&self) -> PlayerKey {
        match &self.occupant {
            Occupant::Human { user } => PlayerKey::person(user),
            Occupant::Computer { id, .. } => PlayerKey::computer(*id),
        }
    }

    /// Whether `key` is this seat's [`key`](Self::key) (without writing
    /// the key out: this is asked for every seat on every command).
    pub fn has_key(&self, key: &PlayerKey) -> bool {
        let k = key.as_str();
        match &self.occupant {
            Occupant::Human { user } => {
                // `platform:id`, the id's last byte first: the ids of a
                // table's people (Discord's snowflakes) are of one length
                // and differ in their last digits
                let (p, id) = (user.platform.name().as_bytes(), user.id.as_bytes());
                let k = k.as_bytes();
                k.len() == p.len() + 1 + id.len()
                    && k.last() == id.last()
                    && k[p.len() + 1..] == *id
                    && k[p.len()] == b':'
                    && k[..p.len()] == *p
            }
            Occupant::Computer { id, .. } => k.strip_prefix("bot:").is_some_and(|n| {
                // the digits as `key` writes them: no sign, no leading zero
                n.bytes().all(|b| b.is_ascii_digit())
                    && (n == "0" || !n.starts_with('0'))
                    && n.parse::<u32>().ok() == Some(*id)
            }),
        }
    }

    /// The computer that acts for this seat: the seat's own, or the stand-in.
    pub fn computer_level(&self) -> Option<BotLevel> {
        match &self.occupant {
            Occupant::Computer { level, .. } => Some(*level),
            Occupant::Human { .. } => self.stand_in,
        }
    }

    /// Whether a person plays this seat themselves now.
    pub fn person_plays(&self) -> bool {
        matches!(self.occupant, Occupant::Human { .. }) && self.stand_in.is_none()
    }

    /// Whether the stand-in is there because the person's time ran out.
    pub fn timed_out(&self) -> bool {
        self.timed_out && self.stand_in.is_some()
    }

    /// Whether the seat is freed when the deal being played ends.
    pub fn leaving(&self) -> bool {
        self.leaving
    }

    /// Whether this is a computer player's own seat.
    pub fn is_computer(&self) -> bool {
        matches!(self.occupant, Occupant::Computer { .. })
    }

    /// Sets or clears the stand-in (said away, or back); returns the one
    /// there before.
    pub(super) fn set_stand_in(&mut self, level: Option<BotLevel>) -> Option<BotLevel> {
        self.timed_out = false;
        std::mem::replace(&mut self.stand_in, level)
    }

    /// A computer stands in because the person's time ran out.
    pub(super) fn stand_in_for_timeout(&mut self) {
        self.stand_in = Some(BotLevel::Basic);
        self.timed_out = true;
    }

    /// Frees the seat when the deal being played ends; a person's turns go
    /// to a computer until then.
    pub(super) fn set_leaving(&mut self) {
        self.leaving = true;
        if !self.is_computer() {
            self.stand_in = Some(BotLevel::Basic);
            self.timed_out = false;
        }
    }

    pub(super) fn set_dm(&mut self, on: bool) {
        self.dm = on;
    }
}

/// The seats of a table in clockwise order, indexed by [`TableSeat`].
/// (They change at most a few times a deal: shared copy-on-write and kept
/// with their JSON, so a move's commit does not write them out again.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seats(Shared<Vec<SeatInfo>>);

impl Seats {
    /// How many seats are taken.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nobody sits at the table.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The seats in order.
    pub fn iter(&self) -> std::slice::Iter<'_, SeatInfo> {
        self.0.iter()
    }

    /// The seats with their numbers.
    pub fn enumerate(&self) -> impl Iterator<Item = (TableSeat, &SeatInfo)> {
        self.0.iter().enumerate().map(|(i, s)| (TableSeat::new(i), s))
    }

    /// A seat, if taken.
    pub fn get(&self, ts: TableSeat) -> Option<&SeatInfo> {
        self.0.get(ts.index())
    }

    /// The seat of a person.
    pub fn of_user(&self, user: &UserId) -> Option<TableSeat> {
        self.position(|s| s.user() == Some(user))
    }

    /// The seat of a stored player id.
    pub fn of_key(&self, key: &PlayerKey) -> Option<TableSeat> {
        self.position(|s| s.has_key(key))
    }

    fn position(&self, f: impl FnMut(&SeatInfo) -> bool) -> Option<TableSeat> {
        self.0.iter().position(f).map(TableSeat::new)
    }

    /// Takes the next seat; `false` when all are taken.
    pub(super) fn push(&mut self, seat: SeatInfo) -> bool {
        if self.0.len() >= MAX_SEATS {
            return false;
        }
        self.0.make_mut().push(seat);
        true
    }

    pub(super) fn remove(&mut self, ts: TableSeat) -> SeatInfo {
        self.0.make_mut().remove(ts.index())
    }

    /// Removes every seat marked leaving; returns their names.
    pub(super) fn remove_leaving(&mut self) -> Vec<String> {
        if !self.0.iter().any(|s| s.leaving) {
            return Vec::new();
        }
        let names = self.0.iter().filter(|s| s.leaving).map(|s| s.name.clone()).collect();
        self.0.make_mut().retain(|s| !s.leaving);
        names
    }
}

impl Index<TableSeat> for Seats {
    type Output = SeatInfo;
    #[track_caller]
    fn index(&self, ts: TableSeat) -> &SeatInfo {
        &self.0[ts.index()]
    }
}

impl IndexMut<TableSeat> for Seats {
    #[track_caller]
    fn index_mut(&mut self, ts: TableSeat) -> &mut SeatInfo {
        &mut self.0.make_mut()[ts.index()]
    }
}

impl<'a> IntoIterator for &'a Seats {
    type Item = &'a SeatInfo;
    type IntoIter = std::slice::Iter<'a, SeatInfo>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Platform;

    #[test]
    fn has_key_is_exactly_the_key() {
        let seats = [
            SeatInfo::person(UserId::new(Platform::DISCORD, "123"), "A"),
            SeatInfo::person(UserId::new(Platform::MATRIX, "@a:b.org"), "B"),
            SeatInfo::computer(BotLevel::default(), 0, "Bot 0"),
            SeatInfo::computer(BotLevel::default(), 12, "Bot 12"),
        ];
        let keys = [
            "discord:123",
            "discord:1234",
            "discord:12",
            // of the key's length, one byte off
            "discord:124",
            "discord:023",
            "discord;123",
            "Discord:123",
            "matrix:@a:b.orf",
            "natrix:@a:b.org",
            "matrix:123",
            "matrix:@a:b.org",
            "discord:@a:b.org",
            "bot:0",
            "bot:00",
            "bot:12",
            "bot:012",
            "bot:+12",
            "bot:1",
            "bot:",
            "discord:",
            "123",
            "",
        ];
        for seat in &seats {
            for k in keys {
                let key = PlayerKey(k.to_string());
                assert_eq!(seat.has_key(&key), seat.key() == key, "{k} for {:?}", seat.key());
            }
            assert!(seat.has_key(&seat.key()));
        }
    }
}
