//! Marking what a table owed as delivered once a platform has it: at once
//! in a commit of its own, or (with [`Service::defer_marks`]) carried by the
//! table's next commit, the marks left waiting committed after a delay.

use std::sync::Arc;
use std::time::Duration;

use super::Service;
use super::error::ServiceError;
use super::marks::Mark;
use super::unconfirmed::Idempotence;
use crate::ids::ChannelId;
use crate::store::Store;

/// How long a delivered entry's mark waits for its table's next commit
/// to carry it (see [`Service::defer_marks`]) before it is committed on
/// its own: at a table in play the next move comes sooner, and the mark
/// costs no round trip of its own. Far below
/// [`OWED_GRACE_MS`](super::OWED_GRACE_MS) (another process sends an entry
/// after that) and the minutes in which Discord and Matrix drop a message
/// sent again with the same key (what a crash before the mark leads to).
pub const MARK_DELAY: Duration = Duration::from_secs(5);

/// How often the marks that waited [`MARK_DELAY`] are committed.
const MARK_FLUSH_EVERY: Duration = Duration::from_secs(1);

impl<S: Store> Service<S> {
    /// Lets the mark of a delivered entry (see
    /// [`App::delivered`](crate::outbox::App::delivered)) ride on its
    /// table's next commit instead of a commit of its own: at a table in
    /// play an action then costs one store round trip, where marking at
    /// once took a second one for every action. A mark that waited
    /// [`MARK_DELAY`] is committed on its own, by a task this starts (it
    /// ends with the service); [`flush_marks`](Self::flush_marks) commits
    /// the rest at a graceful stop. A process that dies with marks waiting
    /// leaves their entries owed, as one that died between delivering and
    /// marking always did: the next turn clock sends them again with the
    /// same keys, and the platforms drop the second copy.
    pub fn defer_marks(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        self.marks.defer();
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

    /// Commits the marks (see [`defer_marks`](Self::defer_marks)) that
    /// waited at least `age` (all of them with zero), each table's in one
    /// commit; returns how many tables it committed. A mark that cannot be
    /// committed (the store is away) is given up on, logged: its entries
    /// are sent again later, with the same keys.
    pub async fn flush_marks(&self, age: Duration) -> usize {
        let due = self.marks.take_due(tokio::time::Instant::now(), age);
        let mut committed = 0;
        for (ch, marks) in due {
            match self.mark_delivered(&ch, marks).await {
                Ok(true) => committed += 1,
                Ok(false) => {}
                Err(e) => {
                    // sent again by a later turn clock (platforms that can
                    // drop the second copy do)
                    tracing::warn!(error = %e, channel = %ch, "marking messages delivered failed");
                }
            }
        }
        committed
    }

    /// Notes that `ch` delivered the entries `owed` of the table salted
    /// `salt`: the mark waits for the table's next commit when marks are
    /// deferred, else it is committed now.
    pub(super) async fn note_delivered(&self, ch: &ChannelId, salt: u64, owed: &[u64]) {
        if owed.is_empty() {
            return;
        }
        let mark = Mark { salt, seqs: owed.to_vec(), at: tokio::time::Instant::now(), id: 0 };
        if salt != 0 && self.marks.deferring() {
            // (waits for the table's next commit, or MARK_DELAY)
            self.marks.wait(ch, mark);
            return;
        }
        if let Err(e) = self.mark_delivered(ch, vec![mark]).await {
            // sent again by a later turn clock (platforms that can drop the
            // second copy do)
            tracing::warn!(error = %e, channel = %ch, "marking messages delivered failed");
        }
    }

    /// Marks owed entries delivered in `ch` in one commit of their table
    /// (none when nothing changes); whether it committed.
    async fn mark_delivered(&self, ch: &ChannelId, marks: Vec<Mark>) -> Result<bool, ServiceError> {
        let (_, changed) = self
            .transact(ch, Idempotence::SafeToRepeat, move |table, ctx, _| {
                // (each channel of a shared table delivers its part)
                let by = ctx.via.as_ref().map(ChannelId::key).unwrap_or_default();
                let all: Vec<String> =
                    std::iter::once(String::new()).chain(table.links().map(ChannelId::key)).collect();
                let mut changed = false;
                for m in &marks {
                    changed |= table.owed_mut().delivered_of(m.salt, &m.seqs, &by, &all);
                }
                (changed, changed)
            })
            .await?;
        Ok(changed)
    }
}
