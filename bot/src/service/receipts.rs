//! What a delivery reports back to its table (entries delivered, the id of
//! the table message posted, a person who could not be reached), waiting
//! for the table's next commit to carry it (see
//! [`Service::defer_marks`](super::Service::defer_marks)), so that a
//! delivery costs no store round trip of its own.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::ids::{ChannelId, UserId};
use crate::table::Table;

/// How long the id of a table message posted waits at most for its
/// table's next commit: another process that shows the same deal waits for
/// it (see [`POSTING_CLAIM_MS`](crate::outbox::POSTING_CLAIM_MS)).
pub(super) const POSTED_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

/// What a delivery reports back to its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Note {
    /// Owed entries were delivered: the salt of the table whose entries
    /// they are, and the entries.
    Delivered { salt: u64, seqs: Vec<u64> },
    /// The deal's table message (`epoch`) was posted: its platform's id.
    Posted { epoch: u32, id: String },
    /// A person could not be reached privately in the deal `epoch`.
    Unreachable { epoch: u32, user: UserId },
}

impl Note {
    /// Enters the note in the table (`via` the linked channel that
    /// delivered, else the home; `all` the keys of every channel of the
    /// table, the home's empty); whether the table changed.
    pub(super) fn enter(&self, table: &mut Table, via: Option<&ChannelId>, all: &[String]) -> bool {
        match self {
            Note::Delivered { salt, seqs } => {
                let by = via.map(ChannelId::key).unwrap_or_default();
                table.owed_mut().delivered_of(*salt, seqs, &by, all)
            }
            Note::Posted { epoch, id } => {
                let changed = table.epoch() == *epoch && table.display_for(via) != Some(id);
                if changed {
                    table.set_display_for(via, Some(id.clone()));
                }
                changed
            }
            Note::Unreachable { epoch, user } => table.epoch() == *epoch && table.note_unreachable(user),
        }
    }
}

/// A note waiting for its table's next commit: when it was made, and a
/// number to tell it from the others.
#[derive(Clone, Debug)]
pub(super) struct Receipt {
    /// What it reports.
    pub(super) note: Note,
    /// When it was made.
    pub(super) at: tokio::time::Instant,
    /// Its number among the waiting receipts (0 until it waits).
    pub(super) id: u64,
}

impl Receipt {
    /// A receipt made now.
    pub(super) fn new(note: Note) -> Receipt {
        Receipt { note, at: tokio::time::Instant::now(), id: 0 }
    }
}

/// Whether receipts wait for their table's next commit, and those waiting.
#[derive(Default)]
pub(super) struct WaitingReceipts {
    deferring: AtomicBool,
    waiting: Mutex<ByChannel>,
}

/// The receipts waiting, by the channel that delivered them.
#[derive(Default)]
struct ByChannel {
    by_channel: HashMap<ChannelId, Vec<Receipt>>,
    next: u64,
}

impl WaitingReceipts {
    /// Lets receipts wait from now on.
    pub(super) fn defer(&self) {
        self.deferring.store(true, Ordering::SeqCst);
    }

    /// Whether receipts wait.
    pub(super) fn deferring(&self) -> bool {
        self.deferring.load(Ordering::Relaxed)
    }

    /// Lets a receipt of `ch` wait, numbered.
    pub(super) fn wait(&self, ch: &ChannelId, mut receipt: Receipt) {
        let mut m = self.waiting.lock().expect("receipts lock");
        m.next += 1;
        receipt.id = m.next;
        m.by_channel.entry(ch.clone()).or_default().push(receipt);
    }

    /// Whether a note like this one waits for `ch`'s table.
    pub(super) fn waits(&self, ch: &ChannelId, note: &Note) -> bool {
        let m = self.waiting.lock().expect("receipts lock");
        m.by_channel.get(ch).is_some_and(|r| r.iter().any(|r| &r.note == note))
    }

    /// The receipts waiting for a table's next commit that it can carry:
    /// those its own channel delivered (a linked channel's are committed on
    /// their own, through the link).
    pub(super) fn for_table(&self, key: &ChannelId) -> Vec<Receipt> {
        if !self.deferring() {
            return Vec::new();
        }
        self.waiting.lock().expect("receipts lock").by_channel.get(key).cloned().unwrap_or_default()
    }

    /// Forgets the receipts a commit of `key`'s table carried.
    pub(super) fn carried(&self, key: &ChannelId, carried: &[Receipt]) {
        if carried.is_empty() {
            return;
        }
        let mut m = self.waiting.lock().expect("receipts lock");
        if let Some(marks) = m.by_channel.get_mut(key) {
            marks.retain(|k| !carried.iter().any(|c| c.id == k.id));
            if marks.is_empty() {
                m.by_channel.remove(key);
            }
        }
    }

    /// Takes out the receipts that waited at least `age` by `now` (the id
    /// of a table message posted at most [`POSTED_DELAY`]: other processes
    /// wait for it), by channel.
    pub(super) fn take_due(
        &self,
        now: tokio::time::Instant,
        age: std::time::Duration,
    ) -> Vec<(ChannelId, Vec<Receipt>)> {
        let mut m = self.waiting.lock().expect("receipts lock");
        let mut due = Vec::new();
        m.by_channel.retain(|ch, marks| {
            let (old, young): (Vec<Receipt>, Vec<Receipt>) = marks.drain(..).partition(|k| {
                let age = match k.note {
                    Note::Posted { .. } => age.min(POSTED_DELAY),
                    _ => age,
                };
                now - k.at >= age
            });
            if !old.is_empty() {
                due.push((ch.clone(), old));
            }
            *marks = young;
            !marks.is_empty()
        });
        due
    }
}
