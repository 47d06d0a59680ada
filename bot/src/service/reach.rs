//! The people this process found out of reach privately (closed direct
//! messages, no direct room): their direct messages are not tried again
//! for [`HELD_FOR`], or until they say `dm on`, so that a platform does not
//! count a refusal against the bot for every hand of a deal.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::ids::UserId;

/// How long a person found out of reach is not tried again (a person who
/// opens their direct messages later gets them again after this, or at
/// once with `dm on`).
pub const HELD_FOR: Duration = Duration::from_secs(15 * 60);

/// At most this many people are remembered (beyond, the memory starts
/// afresh: each of them is tried once more).
const REMEMBERED: usize = 10_000;

/// The people found out of reach privately, and when.
#[derive(Default)]
pub(super) struct OutOfReach {
    people: Mutex<HashMap<UserId, tokio::time::Instant>>,
    /// One private send at a time per person (see [`Self::attempts`]).
    attempts: Mutex<HashMap<UserId, Arc<tokio::sync::Mutex<()>>>>,
}

impl OutOfReach {
    /// A private message to `user` was refused: not tried again for now.
    pub(super) fn found(&self, user: &UserId) {
        let mut p = self.people.lock().expect("reach lock");
        if p.len() >= REMEMBERED {
            p.clear();
        }
        p.insert(user.clone(), tokio::time::Instant::now());
    }

    /// Whether direct messages to `user` are tried.
    pub(super) fn reachable(&self, user: &UserId) -> bool {
        let p = self.people.lock().expect("reach lock");
        p.get(user).is_none_or(|since| since.elapsed() >= HELD_FOR)
    }

    /// The lock a private send to `user` holds: a second outbox's send to
    /// the same person waits for the first's answer, so a refusal is known
    /// before they are tried again (outboxes are delivered at the same
    /// time).
    pub(super) fn attempts(&self, user: &UserId) -> Arc<tokio::sync::Mutex<()>> {
        let mut a = self.attempts.lock().expect("reach lock");
        if a.len() >= REMEMBERED {
            // (those not in use)
            a.retain(|_, l| Arc::strong_count(l) > 1);
        }
        a.entry(user.clone()).or_default().clone()
    }

    /// `user` asked for direct messages (`dm on`): tried again.
    pub(super) fn asked(&self, user: &UserId) {
        self.people.lock().expect("reach lock").remove(user);
    }
}
