//! What a delivery reports back to its table (entries delivered, the id of
//! the table message posted, a person who could not be reached): at once in
//! a commit of its own, or (with [`Service::defer_marks`]) carried by the
//! table's next commit, what is left waiting committed after a delay.

use std::sync::Arc;
use std::time::Duration;

use super::Service;
use super::error::ServiceError;
use super::receipts::{Note, Receipt};
use super::unconfirmed::Idempotence;
use crate::ids::{ChannelId, UserId};
use crate::store::Store;

/// How long a delivery's receipt (a delivered entry's mark, a person out of
/// reach; the id of a table message posted waits a second at most) waits
/// for its table's next commit to carry it (see [`Service::defer_marks`])
/// before it is committed on its own: at a table in play the next move
/// comes sooner, and the receipt costs no round trip of its own. Far below
/// [`OWED_GRACE_MS`](super::OWED_GRACE_MS) (another process sends an entry
/// after that) and the minutes in which Discord and Matrix drop a message
/// sent again with the same key (what a crash before the mark leads to).
pub const MARK_DELAY: Duration = Duration::from_secs(5);

/// How often the receipts that waited [`MARK_DELAY`] are committed.
const MARK_FLUSH_EVERY: Duration = Duration::from_secs(1);

impl<S: Store> Service<S> {
    /// Lets what a delivery reports (see [`crate::outbox::PostOffice`]: a
    /// delivered entry's mark, the id of a table message posted, a person
    /// unreachable) ride on its table's next commit instead of a commit of
    /// its own: at a table in play an action then costs one store round
    /// trip, where marking at once took a second one for every action,
    /// and posting a deal's message two more. A receipt that waited
    /// [`MARK_DELAY`] is committed on its own, by a task this starts (it
    /// ends with the service); [`flush_marks`](Self::flush_marks) commits
    /// the rest at a graceful stop. A process that dies with receipts
    /// waiting leaves their entries owed, as one that died between
    /// delivering and marking always did: the next turn clock sends them
    /// again with the same keys, and the platforms drop the second copy
    /// (and a table message posted is posted again, once).
    pub fn defer_marks(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        self.receipts.defer();
        let service = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(MARK_FLUSH_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(s) = service.upgrade() else { return };
                s.flush_marks(MARK_DELAY).await;
            }
        })
    }

    /// Commits the receipts (see [`defer_marks`](Self::defer_marks)) that
    /// waited at least `age` (all of them with zero), each table's in one
    /// commit; returns how many tables it committed. A receipt that cannot
    /// be committed (the store is away) is given up on, logged: entries it
    /// marked are sent again later, with the same keys.
    pub async fn flush_marks(&self, age: Duration) -> usize {
        let due = self.receipts.take_due(tokio::time::Instant::now(), age);
        let mut committed = 0;
        for (ch, receipts) in due {
            match self.enter_receipts(&ch, receipts).await {
                Ok(true) => committed += 1,
                Ok(false) => {}
                Err(e) => {
                    // sent again by a later turn clock (platforms that can
                    // drop the second copy do)
                    tracing::warn!(error = %e, channel = %ch, "entering what was delivered failed");
                }
            }
        }
        committed
    }

    /// Notes what a delivery in `ch` reports: it waits for the table's next
    /// commit when receipts are deferred, else it is committed now.
    pub(super) async fn note(&self, ch: &ChannelId, note: Note) {
        let deferrable = match &note {
            Note::Delivered { salt, seqs } => {
                if seqs.is_empty() {
                    return;
                }
                *salt != 0
            }
            Note::Posted { .. } | Note::Unreachable { .. } => true,
        };
        if deferrable && self.receipts.deferring() {
            // (waits for the table's next commit, or MARK_DELAY)
            self.receipts.wait(ch, Receipt::new(note));
            return;
        }
        if let Err(e) = self.enter_receipts(ch, vec![Receipt::new(note)]).await {
            // sent again by a later turn clock (platforms that can drop the
            // second copy do)
            tracing::warn!(error = %e, channel = %ch, "entering what was delivered failed");
        }
    }

    /// Whether a person is told for the first time in this deal that they
    /// cannot be reached privately in `ch` (the channel is told once per
    /// deal): the table remembers whom it told, with its next commit when
    /// receipts are deferred.
    pub(super) async fn first_unreachable(&self, ch: &ChannelId, user: &UserId) -> bool {
        if !self.receipts.deferring() {
            let who = user.clone();
            let r = self
                .transact(ch, Idempotence::SafeToRepeat, move |table, _, _| {
                    let new = table.note_unreachable(&who);
                    (new, new)
                })
                .await;
            return r.map(|(_, new)| new).unwrap_or(true);
        }
        let (epoch, told) = match self.table(ch).await {
            Ok((t, _)) => (t.epoch(), t.was_unreachable(user)),
            Err(e) => {
                tracing::warn!(error = %e, channel = %ch, "table unreadable");
                return true;
            }
        };
        let note = Note::Unreachable { epoch, user: user.clone() };
        if told || self.receipts.waits(ch, &note) {
            return false;
        }
        self.receipts.wait(ch, Receipt::new(note));
        true
    }

    /// Enters receipts in `ch`'s table in one commit (none when nothing
    /// changes); whether it committed.
    async fn enter_receipts(&self, ch: &ChannelId, receipts: Vec<Receipt>) -> Result<bool, ServiceError> {
        let (_, changed) = self
            .transact(ch, Idempotence::SafeToRepeat, move |table, ctx, _| {
                // (each channel of a shared table delivers its part)
                let all: Vec<String> =
                    std::iter::once(String::new()).chain(table.links().map(ChannelId::key)).collect();
                let mut changed = false;
                for r in &receipts {
                    changed |= r.note.enter(table, ctx.via.as_ref(), &all);
                }
                (changed, changed)
            })
            .await?;
        Ok(changed)
    }
}
