//! # doko-engine
//!
//! A pure Doppelkopf rules engine: cards, deals from a seed, reservations,
//! contracts, tricks, announcements, scoring per the DDV tournament rules
//! and the house rules of `house-rules.md`, information views per seat,
//! game records (`doko-record/1`), and sessions (dealer rotation,
//! compulsory solos, Bock, the score sheet). No I/O, no clocks, no async.
//!
//! ```
//! use doko_engine::{Action, Bid, Game, Rules, Seat};
//! let mut g = Game::deal(Rules::default(), Seat::new(0), 42);
//! for s in g.forehand().clockwise() {
//!     g.act(s, Action::Bid(Bid::Healthy)).unwrap();
//! }
//! while let Some(s) = g.to_act() {
//!     let card = g.legal_cards(s).iter().next().unwrap();
//!     g.act(s, Action::Play(card)).unwrap();
//! }
//! let score = g.score().unwrap();
//! assert_eq!(score.scores.iter().sum::<i32>(), 0);
//! assert_eq!(score.card_points[0] + score.card_points[1], 240);
//! ```

#![warn(missing_docs)]

mod announce;
mod card;
mod cards;
mod compact;
mod contract;
mod error;
#[doc(hidden)]
pub mod fuzzing;
mod game;
mod phase;
mod player;
mod playout;
mod quote;
pub mod record;
mod rng;
mod rules;
mod score;
mod seat;
mod session;
mod shared;
mod solo;
mod view;
pub mod wire;

pub use announce::{Announcement, Call, Declaration, Level, ParseCallError, Said};
pub use card::{Card, ParseCardError, Rank, Suit};
pub use cards::Cards;
pub use compact::COMPACT_VERSION;
pub use contract::{Bid, Class, Contract, Order, Reservation};
pub use error::{ActionError, Attempt, SwitchedOff};
pub use game::{Action, CurrentTrick, DealError, Game, Genscher, Poverty, Trick, combinations, normal_game_trumps};
pub use phase::{Phase, RedealReason};
pub use player::{ByPlayer, MAX_PLAYERS, MIN_PLAYERS, Player};
pub use playout::{playout, playouts, random_game};
pub use record::{Record, RecordError, ReplayResult};
pub use rng::{Digits, Rng, deal, deal_random, deal_with, forehand};
pub use rules::{
    BockSet, BockStacking, BockTrigger, Dulle, Extra, ExtraSet, KEYS, KeyInfo, PigletsWhen, Preset, ReDeadline,
    ReKontra, RuleEntry, RuleError, Rules, SoloPriority, SoloSet, ValueKind, WeddingRule, key_table,
};
pub use score::{Breakdown, Extras, Facts, Item, Reason, Score, evaluate};
pub use seat::{Party, Seat};
pub use session::{
    Deal, DealStart, NextDeal, Outcome, Scored, Session, SessionError, SheetRow, bock_factor, triggers_bock,
};
pub use shared::Shared;
pub use solo::{SoloKind, Trumps};
pub use view::{HandView, PublicView, SeatView, SeenBid, SeenPoverty};
pub use wire::WireError;
