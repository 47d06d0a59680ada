//! Matrix's dialect: commands after the prefix in group rooms (help's
//! usage lines show the default one), no mention syntax of its own (a
//! person is named by their Matrix id, `@anna:example.org`, or their name)
//! and a room as a matrix.to link (clients show a link to the room).
//!
//! (Written with `doko_bot` paths only: the bot's tests read this file
//! too, to speak Matrix as this adapter does.)

use doko_bot::dialect::{Dialect, HelpStyle, no_mention};
use doko_bot::{Actor, UserId};

/// The command prefix in group rooms unless one is configured.
pub const DEFAULT_PREFIX: &str = "!doko";

/// How Matrix's people write and read.
pub static DIALECT: Dialect = Dialect { help: HelpStyle::Text(DEFAULT_PREFIX), mention: no_mention, channel_label };

/// A room as a matrix.to link.
fn channel_label(id: &str) -> String {
    format!("https://matrix.to/#/{id}")
}

/// A Matrix person as the bot sees them: speaking Matrix's dialect.
pub fn actor(user: UserId, name: impl Into<String>, admin: bool) -> Actor {
    Actor::new(user, name, admin).with_dialect(&DIALECT)
}
