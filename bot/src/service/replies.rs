//! The short answers to one person: a private message at a table (held
//! confidential while they play), a refusal, and what a command gets while
//! the bot restarts or the table cannot be reached.

use crate::ids::{ChannelId, UserId};
use crate::lang::Lang;
use crate::outbox::{Outbox, Private};
use crate::render::{self, Kind};
use crate::table::{CommandError, Table};
use crate::tr;

/// A refusal's text for the person (the table, as the refusal leaves it,
/// names the players and gives the language).
pub(super) fn refusal(t: &Table, e: &CommandError) -> String {
    match e {
        CommandError::Rule(r) => render::rule_error(t, r),
        e => render::error(t.lang(), e),
    }
}

/// A private message to a person at a table.
pub(super) fn private(t: &Table, to: &UserId, kind: Kind, text: String) -> Private {
    private_to(t, to, kind, text, t.plays_in_deal(to))
}

/// [`private`], where whether the person plays in the deal (and so is
/// answered confidentially) is known.
pub(super) fn private_to(t: &Table, to: &UserId, kind: Kind, text: String, plays: bool) -> Private {
    let seat = t.seat_of(to).and_then(|i| t.seats().get(i));
    Private { confidential: plays, dm: seat.is_some_and(|s| s.dm()), ..Private::new(to.clone(), kind, text) }
}

/// The answer to a command while the bot shuts down: not applied, try
/// again in a moment.
pub(super) fn restarting(ch: &ChannelId, to: &UserId) -> Outbox {
    refused(ch, to, tr!(Lang::default(), "restarting"))
}

/// A person's answer when the table cannot be reached.
pub(super) fn unavailable(ch: &ChannelId, to: &UserId) -> Outbox {
    Outbox { unavailable: true, ..refused(ch, to, render::unavailable()) }
}

/// A command not taken, and why, for the person who gave it only.
pub(super) fn refused(ch: &ChannelId, to: &UserId, why: String) -> Outbox {
    let mut out = Outbox::new(ch.clone(), Lang::default());
    out.actor = Some(to.clone());
    out.private.push(Private::new(to.clone(), Kind::Error, why));
    out
}
