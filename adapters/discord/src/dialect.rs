//! Discord's dialect: the slash commands' names (help's usage lines
//! name them), mentions as Discord writes them (`<@123>`, `<@!123>`) and
//! a channel as a mention (`<#123>`, shown as its name).
//!
//! (Written with `doko_bot` paths only: the bot's tests read this file
//! too, to speak Discord as this adapter does.)

use doko_bot::dialect::{Dialect, HelpStyle};
use doko_bot::{Actor, UserId};

/// The public command's name.
pub const COMMAND: &str = "doko";
/// The admin command's name.
pub const ADMIN_COMMAND: &str = "doko-rules";
/// The lists' command's name (lists, leaderboards, statistics).
pub const LISTS_COMMAND: &str = "doko-lists";

/// How Discord's people write and read.
pub static DIALECT: Dialect = Dialect {
    help: HelpStyle::Slash { public: COMMAND, lists: LISTS_COMMAND, admin: ADMIN_COMMAND },
    mention,
    channel_label,
};

/// The user id in a mention (`<@123>`, `<@!123>`, as a client writes a
/// picked person into an option).
fn mention(w: &str) -> Option<&str> {
    w.strip_prefix("<@").and_then(|r| r.strip_suffix('>')).map(|r| r.trim_start_matches('!'))
}

/// A channel as a mention: Discord shows its name.
fn channel_label(id: &str) -> String {
    format!("<#{id}>")
}

/// A Discord person as the bot sees them: speaking Discord's dialect.
pub fn actor(user: UserId, name: impl Into<String>, admin: bool) -> Actor {
    Actor::new(user, name, admin).with_dialect(&DIALECT)
}
