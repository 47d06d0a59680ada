//! # doko-players
//!
//! Computer players for the Doppelkopf engine, on the floor between the
//! engine and the bot: they see a seat's view and choose an action, and
//! know nothing of tables, commands or rendering.
//!
//! - [`player`]: the [`Player`](player::Player) trait, the basic and the
//!   random player;
//! - [`level`]: the strengths ([`BotLevel`]) and [`decide`] by strength;
//! - [`strong`]: determinized Monte Carlo within a time budget;
//! - [`search`]: the expert (weighted worlds, UCT trees, an end solver)
//!   and the plain ensemble UCT it is measured against;
//! - [`analysis`]: what a seat could have done better in a finished deal;
//! - [`policy`]: the card-play model the expert reads hidden hands with;
//! - [`coach`]: the expert's choice for a seat with one line of why
//!   (`hint` at tables with the `coach` rule);
//! - [`seat`]: an outside program seated through the seat protocol;
//! - [`arena`]: players against each other over duplicate deals.

#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod coach;
pub mod level;
pub mod player;
mod playout;
pub mod policy;
pub mod search;
pub mod seat;
mod simulate;
pub mod strong;
mod worlds;

pub use level::{BotLevel, decide};
