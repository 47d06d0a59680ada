//! The marks of delivered entries that wait for their table's next commit
//! to carry them (see [`Service::defer_marks`](super::Service::defer_marks)),
//! so that marking costs no store round trip of its own.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::ids::ChannelId;

/// A delivered entry's mark: the table's salt, the entries, when it was
/// made, and a number to tell it from the others.
#[derive(Clone, Debug)]
pub(super) struct Mark {
    /// The salt of the table whose entries were delivered.
    pub(super) salt: u64,
    /// The entries delivered.
    pub(super) seqs: Vec<u64>,
    /// When it was made.
    pub(super) at: tokio::time::Instant,
    /// Its number among the waiting marks (0 until it waits).
    pub(super) id: u64,
}

/// Whether marks wait for their table's next commit, and those waiting.
#[derive(Default)]
pub(super) struct WaitingMarks {
    deferring: AtomicBool,
    waiting: Mutex<ByChannel>,
}

/// The marks waiting, by the channel that delivered them.
#[derive(Default)]
struct ByChannel {
    by_channel: HashMap<ChannelId, Vec<Mark>>,
    next: u64,
}

impl WaitingMarks {
    /// Lets marks wait from now on.
    pub(super) fn defer(&self) {
        self.deferring.store(true, Ordering::SeqCst);
    }

    /// Whether marks wait.
    pub(super) fn deferring(&self) -> bool {
        self.deferring.load(Ordering::Relaxed)
    }

    /// Lets a mark of `ch` wait, numbered.
    pub(super) fn wait(&self, ch: &ChannelId, mut mark: Mark) {
        let mut m = self.waiting.lock().expect("marks lock");
        m.next += 1;
        mark.id = m.next;
        m.by_channel.entry(ch.clone()).or_default().push(mark);
    }

    /// The marks waiting for a table's next commit that it can carry: those
    /// its own channel delivered (a linked channel's are committed on their
    /// own, through the link).
    pub(super) fn for_table(&self, key: &ChannelId) -> Vec<Mark> {
        if !self.deferring() {
            return Vec::new();
        }
        self.waiting.lock().expect("marks lock").by_channel.get(key).cloned().unwrap_or_default()
    }

    /// Forgets the marks a commit of `key`'s table carried.
    pub(super) fn carried(&self, key: &ChannelId, carried: &[Mark]) {
        if carried.is_empty() {
            return;
        }
        let mut m = self.waiting.lock().expect("marks lock");
        if let Some(marks) = m.by_channel.get_mut(key) {
            marks.retain(|k| !carried.iter().any(|c| c.id == k.id));
            if marks.is_empty() {
                m.by_channel.remove(key);
            }
        }
    }

    /// Takes out the marks that waited at least `age` by `now`, by channel.
    pub(super) fn take_due(&self, now: tokio::time::Instant, age: std::time::Duration) -> Vec<(ChannelId, Vec<Mark>)> {
        let mut m = self.waiting.lock().expect("marks lock");
        let mut due = Vec::new();
        m.by_channel.retain(|ch, marks| {
            let (old, young): (Vec<Mark>, Vec<Mark>) = marks.drain(..).partition(|k| now - k.at >= age);
            if !old.is_empty() {
                due.push((ch.clone(), old));
            }
            *marks = young;
            !marks.is_empty()
        });
        due
    }
}
