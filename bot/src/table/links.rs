//! One table across platforms: a channel linked to another channel's table
//! (`link`, `link CODE`, `unlink`).
//!
//! The table lives under its home channel's key. A channel linked to it
//! (on another platform: at most one per platform) keeps its own stored
//! table, marked [`linked_to`](Table::linked_to) the home; commands there
//! run on the home's table, and the home's table lists the channel in
//! [`links`](Table::links) with its own table message (its platform's id,
//! its posting claim). The home's list is what counts: a channel whose
//! home no longer lists it is its own table again.

use serde::{Deserialize, Serialize};

pub use crate::command::{CODE_LEN, is_code};
use crate::ids::ChannelId;

/// How long a link code is valid (ms).
pub const LINK_CODE_MS: u64 = 10 * 60 * 1000;

/// How long a link being made may point at a home that does not list it
/// yet (ms).
pub const LINK_SETTLE_MS: u64 = 60_000;

/// A channel that shares this table, and its table message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The channel.
    pub channel: ChannelId,
    /// The platform's id of this deal's table message there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) display: Option<String>,
    /// A process is posting the table message there since (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) posting: Option<u64>,
}

impl Link {
    /// A new deal's message: none posted there yet.
    pub(super) fn new_message(&mut self) {
        self.display = None;
        self.posting = None;
    }
}

/// A one-time code that links another channel to this table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkCode {
    /// The code.
    pub code: String,
    /// Valid until (ms since the epoch).
    pub until_ms: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::new_code;

    #[test]
    fn codes_have_their_shape_and_differ() {
        let codes: Vec<String> = (1..200u64).map(|s| new_code(s.wrapping_mul(0x2545_f491_4f6c_dd1d))).collect();
        assert!(codes.iter().all(|c| is_code(c)), "{codes:?}");
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len());
        assert!(!is_code("abc"));
        assert!(!is_code("abcdefg0"), "no zero");
        assert!(!is_code("ABCDEFGH"), "lower case (the parser lowers what is typed)");
    }
}
