//! A message as the bot hands it to a platform: who sees it, what kind of
//! message it is (so an adapter can place it) and its text. The lowest
//! floor of what is sent: rendering fills it, the outbox carries it.

use crate::ids::UserId;

/// Who may see a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everybody in the channel.
    Public,
    /// Only this user (an ephemeral reply, a direct room, the terminal).
    Private(UserId),
}

/// What a message is, so adapters can place it (edit the table message,
/// send a hand privately, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    /// What just happened.
    Events,
    /// The table: seats, trick, announcements, who is to act.
    Table,
    /// A player's hand.
    Hand,
    /// The score sheet.
    Score,
    /// A game record.
    Record,
    /// Statistics.
    Stats,
    /// The rule set.
    Rules,
    /// Help.
    Help,
    /// A refused command.
    Error,
    /// A deal's result (the deal revealed): its own message, posted before
    /// the next deal's table message, so it stays readable in the channel.
    Result,
}

/// A message to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who sees it.
    pub to: Audience,
    /// What it is.
    pub kind: Kind,
    /// The text (plain, with card symbols).
    pub text: String,
    /// Users to mention (the player to act), for adapters that can.
    pub mention: Vec<UserId>,
}

impl Message {
    /// A public message.
    pub fn public(kind: Kind, text: String) -> Message {
        Message { to: Audience::Public, kind, text, mention: Vec::new() }
    }
    /// A private message.
    pub fn private(user: &UserId, kind: Kind, text: String) -> Message {
        Message { to: Audience::Private(user.clone()), kind, text, mention: Vec::new() }
    }
}
