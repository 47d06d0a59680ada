//! What the deliverers need of a table, beside the game: which message
//! shows the deal in the home channel (its platform's id, or since when a
//! process is posting it), which deal's message that is, whom the channel
//! was told could not be reached privately, and what the table owes the
//! platforms (the durable outbox). It is part of the table's stored
//! document, so it changes in the same atomic write as the game; a linked
//! channel's message is kept with its [`Link`](super::Link).

use serde::{Deserialize, Serialize};

use super::owed::Owed;
use crate::ids::UserId;
use crate::outbox::POSTING_CLAIM_MS;

/// What the deliverers need of a table (see the module).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posting {
    /// The platform's id of this deal's table message in the home channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    display: Option<String>,
    /// Counts the deals' table messages: a new deal wants a new message.
    #[serde(default)]
    epoch: u32,
    /// A process is posting the table message since this time (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    posting: Option<u64>,
    /// People told in this deal that they cannot be reached privately (by
    /// player key), so the channel is told once per deal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unreachable: Vec<String>,
    /// What the table owes the platforms (the durable outbox).
    #[serde(default, skip_serializing_if = "Owed::is_empty")]
    owed: Owed,
}

/// Whether a claim made at `since` still holds at `now_ms`.
pub(super) fn claim_holds(since: Option<u64>, now_ms: u64) -> bool {
    since.is_some_and(|since| now_ms.saturating_sub(since) < POSTING_CLAIM_MS)
}

impl Posting {
    /// A new deal: a new table message (Discord rate-limits edits of
    /// messages older than an hour, and the channel reads better with the
    /// deal's result next to the new deal), nobody told yet.
    pub(super) fn new_deal(&mut self) {
        self.unreachable.clear();
        self.display = None;
        self.posting = None;
        self.epoch += 1;
    }

    /// The platform's id of the home channel's table message.
    pub fn display(&self) -> &Option<String> {
        &self.display
    }

    /// Remembers the platform's id of the table message (the claim to
    /// post it ends).
    pub fn set_display(&mut self, id: Option<String>) {
        self.posting = None;
        self.display = id;
    }

    /// Which table message the table is on: one per deal.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Whether a process claimed the posting of the table message less
    /// than [`POSTING_CLAIM_MS`] before `now_ms`.
    pub fn posting_claimed(&self, now_ms: u64) -> bool {
        claim_holds(self.posting, now_ms)
    }

    /// Claims the posting of the table message at `now_ms`.
    pub fn claim_posting(&mut self, now_ms: u64) {
        self.posting = Some(now_ms);
    }

    /// Notes that a person could not be reached privately in this deal;
    /// true the first time.
    pub fn note_unreachable(&mut self, user: &UserId) -> bool {
        let key = user.key();
        let new = !self.unreachable.contains(&key);
        if new {
            self.unreachable.push(key);
        }
        new
    }

    /// Whether the channel was told in this deal that a person cannot be
    /// reached privately.
    pub fn was_unreachable(&self, user: &UserId) -> bool {
        let key = user.key();
        self.unreachable.contains(&key)
    }

    /// What the table owes the platforms.
    pub fn owed(&self) -> &Owed {
        &self.owed
    }

    /// What the table owes the platforms, to change.
    pub fn owed_mut(&mut self) -> &mut Owed {
        &mut self.owed
    }
}
