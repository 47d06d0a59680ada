//! Typed identifiers: a channel id can never be passed as a user id, and
//! ids from different platforms never collide.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The platform a channel or user lives on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    /// Discord (guild channel or DM).
    Discord,
    /// Matrix (room).
    Matrix,
    /// The local terminal.
    Terminal,
}

impl Platform {
    /// The short name used in keys.
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Discord => "discord",
            Platform::Matrix => "matrix",
            Platform::Terminal => "terminal",
        }
    }
}

/// A channel (Discord channel, Matrix room, the terminal): one table each.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChannelId {
    /// The platform.
    pub platform: Platform,
    /// The platform's own id.
    pub id: String,
}

impl ChannelId {
    /// A channel id.
    pub fn new(platform: Platform, id: impl Into<String>) -> ChannelId {
        ChannelId { platform, id: id.into() }
    }

    /// The storage key, `platform:id`.
    pub fn key(&self) -> String {
        format!("{}:{}", self.platform.name(), self.id)
    }
}

impl fmt::Display for ChannelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// A user on a platform.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UserId {
    /// The platform.
    pub platform: Platform,
    /// The platform's own id.
    pub id: String,
}

impl UserId {
    /// A user id.
    pub fn new(platform: Platform, id: impl Into<String>) -> UserId {
        UserId { platform, id: id.into() }
    }

    /// The storage key, `platform:id`.
    pub fn key(&self) -> String {
        format!("{}:{}", self.platform.name(), self.id)
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// Who sends a command: the user, the name to show, and whether the
/// adapter says they are an admin of the channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The user.
    pub user: UserId,
    /// Display name.
    pub name: String,
    /// May change the channel's rules and language.
    pub admin: bool,
}

impl Actor {
    /// An actor.
    pub fn new(user: UserId, name: impl Into<String>, admin: bool) -> Actor {
        Actor { user, name: name.into(), admin }
    }
}
