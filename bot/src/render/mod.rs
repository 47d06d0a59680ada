//! Messages as platform-neutral values. Public text is built only from the
//! engine's [`PublicView`](doko_engine::PublicView) and the table's names
//! and sheet; a private hand only from that seat's
//! [`HandView`](doko_engine::HandView). Nothing here can reach another
//! seat's hand.

mod coach;
mod events;
mod hand;
mod pictures;
mod refusals;
mod rules;
mod sheet;
mod table;

pub use crate::message::{Audience, Kind, Message};
pub use coach::advice;
pub use events::{events, summary};
pub use hand::{
    already_done, hand, hand_label, hand_model, hand_with_model, stale, unavailable, unreachable, your_turn,
};
pub(crate) use pictures::faces;
pub use pictures::{deal_picture, hand_picture, table_picture};
pub use refusals::{error, parse_error, rule_error, rules_error};
pub use rules::{RULES_PART_CHARS, rules, rules_parts};
pub(crate) use sheet::sheet_contract;
pub use sheet::{
    LEADERBOARD_ROWS, MyList, Ranked, analysis, contract_name, leaderboard, list, me, party_name, ranking, score, stats,
};
pub use table::{last_trick, table};
