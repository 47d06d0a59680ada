//! The Matrix adapter: a room is a table.
//!
//! - In a group room the bot answers messages that start with the prefix
//!   (`!doko join`, `!doko play ♣Q`, ...). Replies are `m.notice` messages
//!   with an HTML body and a plain-text body. The table message (what
//!   happened and the table) is edited in place with `m.replace`; when an
//!   edit is not possible a new table message is sent and remembered.
//! - Private hands go to one direct room per player (marked direct, created
//!   encrypted, reused across deals and tables); each message there names
//!   its table. In a direct room commands need no prefix; someone who sits
//!   at two tables prefixes the command with the table's number (`2: play
//!   ♣Q`) and is told so when it is ambiguous.
//! - Admins are members whose power level is at least the level needed to
//!   change room state (the room's `state_default`, 50 by default, or the
//!   configured level); in room version 12 creators have unlimited power.
//! - Restart safety: the sync position, the crypto store and the device live
//!   in matrix-sdk's SQLite stores. Each command is written to an inbox in
//!   the same store when it arrives and struck off once answered, so one the
//!   bot received but had not answered when it died is answered after the
//!   restart; commands sent while it was down are answered as they arrive
//!   (up to ten minutes old; on the very first start one sync runs before any
//!   handler and nothing older than the start is answered). Every command is
//!   passed on with its event id, so a duplicate delivery changes nothing.
//!
//! No game logic lives here: text in, the service's messages out.

#![recursion_limit = "256"]

mod adapter;
mod config;
pub mod dialect;
mod encryption;
mod error;
mod inbox;
mod login;
mod rooms;
mod run;
mod send;
mod text;

pub use config::{Auth, ConfigError, MatrixConfig, invite_allowed, server_of};
pub use encryption::RECOVERY_KEY_FILE;
pub use error::AdapterError;
pub use run::{run, run_until};
pub use text::{Route, ask_which, both, command_text, escape, html, no_table, plain, route};
