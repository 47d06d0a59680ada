//! Announcements: Re/Kontra (Ansagen) and no 90 ... schwarz (Absagen).

use std::fmt;
use std::str::FromStr;

use crate::seat::{Party, Seat};

/// An announcement level: the win claim (Re or Kontra), then the four
/// Absagen. Each level implies the ones below it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Level {
    /// Re or Kontra: the party claims more than 120.
    Win = 0,
    /// No 90: the opponents stay below 90.
    No90 = 1,
    /// No 60.
    No60 = 2,
    /// No 30.
    No30 = 3,
    /// Schwarz: the opponents take no trick.
    Schwarz = 4,
}

impl Level {
    /// All levels, lowest first.
    pub const ALL: [Level; 5] = [Level::Win, Level::No90, Level::No60, Level::No30, Level::Schwarz];

    /// The level with index `0..5`.
    pub const fn from_index(i: usize) -> Level {
        Level::ALL[i]
    }

    /// What the opponents must stay below (card points) for an Absage;
    /// `None` for the win claim and schwarz (schwarz counts tricks).
    pub const fn limit(self) -> Option<u32> {
        match self {
            Level::No90 => Some(90),
            Level::No60 => Some(60),
            Level::No30 => Some(30),
            _ => None,
        }
    }
}

/// What a player says: an announcement for their own party.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// "Re" (only a Re player).
    Re,
    /// "Kontra" (only a Kontra player).
    Kontra,
    /// "keine 90".
    No90,
    /// "keine 60".
    No60,
    /// "keine 30".
    No30,
    /// "schwarz".
    Schwarz,
}

impl Call {
    /// All calls in record order.
    pub const ALL: [Call; 6] = [Call::Re, Call::Kontra, Call::No90, Call::No60, Call::No30, Call::Schwarz];

    /// The level this call reaches.
    pub const fn level(self) -> Level {
        match self {
            Call::Re | Call::Kontra => Level::Win,
            Call::No90 => Level::No90,
            Call::No60 => Level::No60,
            Call::No30 => Level::No30,
            Call::Schwarz => Level::Schwarz,
        }
    }

    /// The call of a level for a party (Re/Kontra for the win level).
    pub const fn of(level: Level, party: Party) -> Call {
        match level {
            Level::Win => match party {
                Party::Re => Call::Re,
                Party::Kontra => Call::Kontra,
            },
            Level::No90 => Call::No90,
            Level::No60 => Call::No60,
            Level::No30 => Call::No30,
            Level::Schwarz => Call::Schwarz,
        }
    }

    /// The party a call names, if it names one.
    pub const fn party(self) -> Option<Party> {
        // a load, not a jump by the call (random play's calls are random)
        const PARTY: [Option<Party>; 6] = [Some(Party::Re), Some(Party::Kontra), None, None, None, None];
        PARTY[self as usize]
    }

    /// The record name: `re`, `kontra`, `no90`, `no60`, `no30`, `schwarz`.
    pub const fn name(self) -> &'static str {
        match self {
            Call::Re => "re",
            Call::Kontra => "kontra",
            Call::No90 => "no90",
            Call::No60 => "no60",
            Call::No30 => "no30",
            Call::Schwarz => "schwarz",
        }
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown announcement name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown announcement '{0}' (expected re, kontra, no90, no60, no30 or schwarz)")]
pub struct ParseCallError(pub String);

impl FromStr for Call {
    type Err = ParseCallError;
    fn from_str(s: &str) -> Result<Call, ParseCallError> {
        Call::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseCallError(crate::quote::quoted(s)))
    }
}

/// One announcement as it was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Announcement {
    /// Who said it.
    pub seat: Seat,
    /// For which party (always the announcer's own).
    pub party: Party,
    /// The level reached (lower levels implied).
    pub level: Level,
    /// Cards the announcer held when saying it.
    pub cards_in_hand: u8,
    /// Cards played in the deal before it (its place among the plays).
    pub after_plays: u8,
}

impl Announcement {
    /// The call that names this announcement.
    pub const fn call(&self) -> Call {
        Call::of(self.level, self.party)
    }
}

/// Something a player says that is no announcement, where the house rules
/// have it: "half a chicken" (both tens of diamonds), and piglets and
/// superpiglets where they count only once said (`piglets_when play`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// "Halbes Hähnchen": the player holds both tens of diamonds. It
    /// changes nothing.
    HalfChicken,
    /// "Schweinchen": the player's two foxes become the highest trumps.
    Piglets,
    /// "Superschweinchen": after piglets, the player's two nines (without
    /// nines: kings) of diamonds rank above them.
    Superpiglets,
}

impl Declaration {
    /// Every declaration.
    pub const ALL: [Declaration; 3] = [Declaration::HalfChicken, Declaration::Piglets, Declaration::Superpiglets];

    /// Its name in records and commands.
    pub const fn name(self) -> &'static str {
        match self {
            Declaration::HalfChicken => "half-chicken",
            Declaration::Piglets => "piglets",
            Declaration::Superpiglets => "superpiglets",
        }
    }

    /// Looks a declaration up by its name.
    pub fn from_name(name: &str) -> Option<Declaration> {
        Declaration::ALL.into_iter().find(|d| d.name() == name)
    }
}

impl fmt::Display for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A declaration as made: who, what, and when (cards played and
/// announcements made before it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Said {
    /// Who said it.
    pub seat: Seat,
    /// What.
    pub what: Declaration,
    /// Cards played before it.
    pub after_plays: u8,
    /// Announcements made before it.
    pub after_anns: u8,
}
