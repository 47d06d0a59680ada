//! # doko-bot
//!
//! The platform-neutral Doppelkopf bot: one table per channel, seats and
//! sessions with their score sheet, commands parsed from text, rendering
//! for the table and for each player privately (English and German) and
//! the stores (Redis, and an embedded file store for a single process);
//! the computer players come from `doko-players`. Adapters (terminal,
//! Discord, Matrix) only translate transport to and from
//! [`service::Service`].

#![warn(missing_docs)]

pub mod authority;
pub mod command;
pub mod dialect;
#[cfg(feature = "failpoints")]
pub mod failpoint;
#[doc(hidden)]
pub mod fuzzing;
pub mod i18n;
pub mod ids;
pub mod lang;
pub mod limits;
pub mod message;
pub mod metrics;
pub mod outbox;
pub mod picture;
pub mod render;
pub mod server;
pub mod service;
pub mod store;
pub mod table;
mod terms;
pub mod web;

pub use command::{Command, ParseError, parse};
pub use ids::{Actor, ChannelId, Platform, ServerId, UserId};
pub use lang::Lang;
pub use limits::{Limits, Rate};
pub use outbox::{
    App, CardChoice, Choice, Claim, Delivered, HandModel, Input, Notice, Outbox, Picture, PostOffice, Private, Route,
    TableMessage, TableMessages, Transport, TransportError, deliver, stopped,
};
pub use render::{Audience, Kind, Message};
pub use service::{Service, ServiceError, StoreHealth};
pub use store::{
    AnyStore, Commit, EmbeddedStore, FormatError, Keep, MemoryStore, Quarantined, REPLICA_WAIT_MAX_MS, RedisStore,
    STORE_FORMAT, Store, StoreError, Stored, check_format, create_private_dir,
};
pub use table::{CommandError, Event, Table};
