//! The durable outbox: what a table owes the platforms.
//!
//! Every change that owes messages (the table message with what happened,
//! notices, answers, hands) stores them here, in the table, so they are
//! written in the same atomic commit as the change itself (the Redis script
//! and the redb transaction alike). Delivering them marks them delivered
//! and drops them; a process that dies in between leaves them here, and the
//! next process serving the table (a restart, or another process on the
//! same store) sends them. Each message carries a key made from the table's
//! salt, the entry's number and the message's place in it, the same at
//! every re-send: Matrix sends it as the transaction id and Discord as the
//! nonce, and both drop a second copy.
//!
//! Hands are not stored as text: an owed hand is made afresh from the table
//! when it is delivered (the cards a person holds now, with a stamp their
//! buttons can act on).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::ids::UserId;
use crate::message::Kind;
use crate::outbox::{Notice, Outbox, Private, TableMessage};

/// At most this many entries are kept undelivered; beyond it the oldest is
/// given up on (logged).
pub const OWED_KEPT: usize = 64;

/// An undelivered entry older than this (ms) is given up on (logged) when
/// the table next changes: the table message shows where the table stands
/// anyway.
pub const OWED_MAX_AGE_MS: u64 = 60 * 60 * 1000;

/// What a table owes the platforms, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owed {
    /// Part of every key, so the keys of this table differ from those of
    /// an earlier table of the same channel (after a `reset`).
    #[serde(default)]
    salt: u64,
    /// The number of the next entry.
    #[serde(default)]
    next: u64,
    /// Entries not yet delivered, oldest first.
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    entries: VecDeque<OwedEntry>,
}

/// What one change owes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwedEntry {
    /// Its number (see [`Outbox::owed`]).
    pub seq: u64,
    /// When it was committed (ms since the epoch).
    pub at_ms: u64,
    /// The table message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableMessage>,
    /// Public notices, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<Notice>,
    /// Private messages other than hands, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub private: Vec<Private>,
    /// The people owed their hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<UserId>,
    /// The person who gave the command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<UserId>,
    /// At a table shared by several channels (`link`): the channels that
    /// delivered it so far (`""` the home, else a linked channel's key);
    /// it is dropped once every channel has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub done: Vec<String>,
}

impl Owed {
    /// Nothing owed, nothing ever owed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.next == 0
    }

    /// The entries not yet delivered, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = &OwedEntry> {
        self.entries.iter()
    }

    /// Whether anything is owed.
    pub fn any(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The table's salt (0 until it first owes something): which table
    /// an entry's number belongs to, since a table made anew (`reset`)
    /// numbers its entries from 0 again.
    pub fn salt(&self) -> u64 {
        self.salt
    }

    /// The key of a message: the table's salt, the entry, the place in it
    /// (at most 25 characters, Discord's limit for a nonce).
    pub fn key(&self, seq: u64, part: &str) -> String {
        format!("{:x}.{seq}.{part}", self.salt & 0xffff_ffff_ffff)
    }

    /// Stores what `out` owes as a new entry, gives its messages their keys
    /// and notes the entry in `out`. `salt` is asked once per table.
    /// Entries beyond [`OWED_KEPT`] or older than [`OWED_MAX_AGE_MS`] are
    /// given up on.
    pub fn keep_until_delivered(&mut self, out: &mut Outbox, now_ms: u64, salt: impl FnOnce() -> u64) {
        if out.is_empty() {
            return;
        }
        if self.salt == 0 {
            self.salt = salt().max(1);
        }
        let seq = self.next;
        self.next += 1;
        if let Some(t) = &mut out.table {
            t.key = Some(self.key(seq, "t"));
        }
        for (i, n) in out.notices.iter_mut().enumerate() {
            n.key = Some(self.key(seq, &format!("n{i}")));
        }
        let mut hands: Vec<UserId> = Vec::new();
        let mut private = Vec::new();
        for (i, p) in out.private.iter_mut().enumerate() {
            p.key = Some(self.key(seq, &format!("p{i}")));
            if p.kind == Kind::Hand {
                if !hands.contains(&p.to) {
                    hands.push(p.to.clone());
                }
            } else {
                private.push(p.clone());
            }
        }
        self.entries.push_back(OwedEntry {
            seq,
            at_ms: now_ms,
            table: out.table.clone(),
            notices: out.notices.clone(),
            private,
            hands,
            actor: out.actor.clone(),
            done: Vec::new(),
        });
        out.owed.push(seq);
        out.owed_salt = self.salt;
        while let Some(first) = self.entries.front() {
            let old = now_ms.saturating_sub(first.at_ms) > OWED_MAX_AGE_MS;
            if self.entries.len() <= OWED_KEPT && !old {
                break;
            }
            tracing::warn!(
                seq = first.seq,
                age_ms = now_ms.saturating_sub(first.at_ms),
                "an owed message was given up on undelivered"
            );
            self.entries.pop_front();
        }
    }

    /// Notes entries delivered in channel `by` (`""` the home) and drops
    /// those delivered in every channel of `all`; true if any changed.
    pub fn delivered(&mut self, seqs: &[u64], by: &str, all: &[String]) -> bool {
        let mut changed = false;
        for e in self.entries.iter_mut().filter(|e| seqs.contains(&e.seq)) {
            if !e.done.iter().any(|d| d == by) {
                e.done.push(by.to_string());
                changed = true;
            }
        }
        let before = self.entries.len();
        self.entries.retain(|e| !all.iter().all(|c| e.done.contains(c)));
        changed || self.entries.len() != before
    }

    /// As [`delivered`](Self::delivered), for entries of the table with
    /// this `salt` only (0: whichever table this is): a mark made for a
    /// table that was made anew since (whose entries are numbered from 0
    /// again) changes nothing.
    pub fn delivered_of(&mut self, salt: u64, seqs: &[u64], by: &str, all: &[String]) -> bool {
        (salt == 0 || salt == self.salt) && self.delivered(seqs, by, all)
    }

    /// The entries another process left (committed before `started_ms`,
    /// this process's start) or that have waited longer than `grace_ms`,
    /// not yet delivered in channel `by`.
    pub fn left(&self, now_ms: u64, started_ms: u64, grace_ms: u64, by: &str) -> Vec<OwedEntry> {
        self.entries
            .iter()
            .filter(|e| e.at_ms < started_ms || now_ms.saturating_sub(e.at_ms) > grace_ms)
            .filter(|e| !e.done.iter().any(|d| d == by))
            .cloned()
            .collect()
    }
}
