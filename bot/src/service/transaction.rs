//! The one way a table changes: load it (or take this process's copy), let
//! the work change it on the blocking pool, commit with a compare-and-set
//! on its version, and try again after a conflict or a store failure
//! within the budget, never making a change twice.

use std::sync::Arc;

use doko_engine::{Rng, Rules};

use super::Service;
use super::backoff::Backoff;
use super::error::ServiceError;
use super::receipts::Receipt;
use super::stored::{read_stored, table_json};
use super::unconfirmed::{Idempotence, UnconfirmedCommit, Verdict, settle};
use crate::ids::ChannelId;
use crate::lang::Lang;
use crate::store::{Commit, Keep, Store, Stored};
use crate::table::{Ctx, Table};

/// What one try's work left, ready to be committed.
struct Worked<W> {
    table: Arc<Table>,
    result: W,
    /// The table to commit, as JSON (`None`: nothing to commit).
    json: Option<String>,
    /// Records of the deals the work finished.
    records: Vec<String>,
    /// How the store keeps the table.
    keep: Keep,
    /// The work failed part of the way: the table is not the stored one.
    discard: bool,
    /// The waiting receipts the commit carries.
    carried: Vec<Receipt>,
}

/// A change's tries so far: the pauses between them, the tries whose
/// commit the store did not confirm, and the last store failure once the
/// budget is spent (what is unconfirmed is settled with one more read,
/// then the change gives up).
struct Tries<W> {
    backoff: Backoff,
    unconfirmed: Vec<UnconfirmedCommit<W>>,
    spent: Option<ServiceError>,
}

/// What a try starts from: this process's copy of the table with its
/// version, or else the table as stored (`None`: none is).
type Start = (Option<(u64, Arc<Table>)>, Option<Stored>);

/// What one try's work gets besides the table.
struct TrySetup {
    /// Seeds the deals dealt.
    seed: u64,
    /// Seeds the computer players.
    bots: u64,
    /// The time of the try (ms since 1970, UTC).
    now_ms: u64,
    /// Records kept per table.
    records_kept: u32,
    /// House rules and language of a new table.
    new_tables: (Rules, Lang),
    /// The waiting receipts of the table, carried by a commit.
    receipts: Vec<Receipt>,
}

impl<S: Store> Service<S> {
    /// The one way a table changes: load it, let `work` change it (on the
    /// blocking pool; it says whether to commit), commit with the
    /// compare-and-set, and on a conflict try again from the fresh table
    /// after a backoff. `work` gets the deal seeds (through the context)
    /// and a generator for computer players.
    ///
    /// A load that fails or times out is tried again within the budget
    /// ([`STORE_BUDGET`](super::STORE_BUDGET)). A commit that fails or
    /// times out may have been made all the same: the table is read again
    /// and the unconfirmed try settled as `idempotence` says. When it was
    /// made, its answer is given (as for any applied command); when it was
    /// not, the change is tried again within the budget; else the caller
    /// gets an error (and the person the short "table unavailable").
    pub(super) async fn transact_key<W, F>(
        &self,
        ch: &ChannelId,
        idempotence: Idempotence,
        work: F,
    ) -> Result<(Arc<Table>, W), ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        let work = Arc::new(work);
        let mut tries = Tries { backoff: Backoff::new(self.next_u64()), unconfirmed: Vec::new(), spent: None };
        loop {
            let Some((held, stored)) = self.load_try(ch, &mut tries).await? else { continue };
            if let Some(made) = judge(stored.as_ref(), &mut tries.unconfirmed, &idempotence)? {
                return Ok(made);
            }
            if let Some(e) = tries.spent.take() {
                return Err(e);
            }
            let from_cache = held.is_some();
            let version = match &held {
                Some((v, _)) => *v,
                None => stored.as_ref().map_or(0, |s| s.version),
            };
            let mut worked = self.work_once(ch, held, stored, work.clone()).await?;
            let done = match worked.json.take() {
                None => self.unchanged(ch, version, from_cache, worked, &mut tries).await?,
                Some(json) => self.commit_try(ch, version, json, worked, &mut tries).await?,
            };
            if let Some(done) = done {
                return Ok(done);
            }
        }
    }

    /// The table a try starts from: this process's copy when it holds it
    /// (and nothing is unconfirmed: no read; a commit on it that meets a
    /// newer table conflicts, and the table is read then), else the stored
    /// one. `None` to try again after a failed read (and a pause); an error
    /// once the tries or the budget are spent.
    async fn load_try<W>(&self, ch: &ChannelId, tries: &mut Tries<W>) -> Result<Option<Start>, ServiceError> {
        let held = if tries.unconfirmed.is_empty() { self.tables.take(ch) } else { None };
        if held.is_some() {
            return Ok(Some((held, None)));
        }
        match self.timed(self.store.load(ch)).await {
            Ok(stored) => Ok(Some((None, stored))),
            Err(e) => {
                tracing::warn!(error = %e, "reading the table failed");
                if tries.spent.is_some() || !tries.backoff.wait().await {
                    return Err(if tries.unconfirmed.is_empty() { e } else { ServiceError::Unconfirmed });
                }
                Ok(None)
            }
        }
    }

    /// A try whose work did not change the table (at `version`): its
    /// answer, or `None` to try again when the held copy turned out not to
    /// be the stored table.
    async fn unchanged<W>(
        &self,
        ch: &ChannelId,
        version: u64,
        from_cache: bool,
        worked: Worked<W>,
        tries: &mut Tries<W>,
    ) -> Result<Option<(Arc<Table>, W)>, ServiceError> {
        let Worked { table, result, discard, .. } = worked;
        if discard {
            // work that failed part of the way: this copy is not the stored
            // table (taken out of the cache, it stays out: the next command
            // reads the store)
            return Ok(Some((table, result)));
        }
        if from_cache {
            if self.held_is_current(ch, version, &mut tries.backoff).await? {
                self.tables.keep(ch, version, &table);
                return Ok(Some((table, result)));
            }
            return Ok(None);
        }
        if version > 0 && tries.unconfirmed.is_empty() {
            // read from the store: kept for the next command
            self.tables.keep(ch, version, &table);
        }
        Ok(Some((table, result)))
    }

    /// Commits a try's change on `version` with the compare-and-set: its
    /// answer once made, or `None` to try again (after a conflict, or a
    /// commit the store did not confirm, noted for the next read).
    async fn commit_try<W>(
        &self,
        ch: &ChannelId,
        version: u64,
        json: String,
        worked: Worked<W>,
        tries: &mut Tries<W>,
    ) -> Result<Option<(Arc<Table>, W)>, ServiceError> {
        let Worked { table, result, records, keep, carried, .. } = worked;
        match self.timed(self.store.commit_kept(ch, version, &json, &records, keep)).await {
            Ok(Commit::Done(v)) => {
                self.committed(ch, v, &table, &records, &carried);
                return Ok(Some((table, result)));
            }
            Ok(Commit::Conflict) => {
                tracing::debug!("conflict, retrying");
                self.tables.forget(ch);
                if !tries.backoff.wait().await {
                    // a conflict may be an unconfirmed try of ours that landed
                    if tries.unconfirmed.is_empty() {
                        crate::metrics::error("contention");
                        return Err(ServiceError::Contention);
                    }
                    tries.spent = Some(ServiceError::Contention);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "commit failed, outcome unclear; reading the table again");
                self.tables.forget(ch);
                tries.unconfirmed.push(UnconfirmedCommit { expected: version, json, table, result });
                if !tries.backoff.wait().await {
                    tries.spent = Some(e);
                }
            }
        }
        Ok(None)
    }

    /// Runs `work` once on the held table or the stored one: a quick step
    /// (a held table without searching computers or pictures) here, any
    /// other on a blocking thread. A stored table that cannot be read is
    /// set aside.
    async fn work_once<W, F>(
        &self,
        ch: &ChannelId,
        held: Option<(u64, Arc<Table>)>,
        stored: Option<Stored>,
        work: Arc<F>,
    ) -> Result<Worked<W>, ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        let setup = TrySetup {
            seed: self.next_u64(),
            bots: self.next_u64(),
            records_kept: self.limits.records_kept,
            new_tables: self.new_tables,
            now_ms: self.now_ms(),
            // what deliveries reported, waiting for this table's next
            // commit: a commit carries it
            receipts: self.receipts.for_table(ch),
        };
        let span = tracing::Span::current();
        // handing a quick step to a blocking thread and waking this task
        // again cost more than the step itself
        let in_place = held.as_ref().is_some_and(|(_, t)| t.steps_in_microseconds());
        let step = move || {
            let _span = span.enter();
            let table = match held {
                // (the only holder, unless an answer still renders it)
                Some((_, t)) => Arc::try_unwrap(t).unwrap_or_else(|t| Table::clone(&t)),
                None => read_stored(stored, &setup.new_tables)?.0,
            };
            work_on(table, setup, &*work)
        };
        let worked = if in_place {
            // (a step that panics is a failed command here too, as a
            // blocking thread's panic is: the person is answered)
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(step))
                .map_err(|_| ServiceError::Failed("the command's step panicked".into()))?
        } else {
            tokio::task::spawn_blocking(step).await.map_err(|e| ServiceError::Failed(e.to_string()))?
        };
        match worked {
            Err(ServiceError::Damaged(d)) => Err(ServiceError::Damaged(self.set_aside(ch, d).await)),
            worked => worked,
        }
    }

    /// Whether the table a try held (and did not change) is still the
    /// stored one: one short read, its version. `false` when it changed
    /// elsewhere or the read failed (after a pause); an error once the
    /// budget is spent.
    async fn held_is_current(&self, ch: &ChannelId, version: u64, backoff: &mut Backoff) -> Result<bool, ServiceError> {
        match self.timed(self.store.version(ch)).await {
            Ok(v) if v == version => return Ok(true),
            Ok(_) => tracing::debug!("the table changed elsewhere; reading it"),
            Err(e) => {
                tracing::warn!(error = %e, "reading the table's version failed");
                if !backoff.wait().await {
                    return Err(e);
                }
            }
        }
        Ok(false)
    }

    /// After a commit as version `v`: the deals it finished counted, the
    /// receipts it carried forgotten, the table kept.
    fn committed(&self, ch: &ChannelId, v: u64, table: &Arc<Table>, records: &[String], carried: &[Receipt]) {
        for r in records {
            crate::metrics::deal(doko_engine::Record::from_stored(r).is_ok_and(|r| r.aborted.is_some()));
        }
        self.receipts.carried(ch, carried);
        self.tables.keep(ch, v, table);
    }
}

/// Judges the unconfirmed tries (if any) by the table as stored now: the
/// made one's table and answer, `None` to go on (none was made), or an
/// error when it cannot be told.
fn judge<W>(
    stored: Option<&Stored>,
    unconfirmed: &mut Vec<UnconfirmedCommit<W>>,
    idempotence: &Idempotence,
) -> Result<Option<(Arc<Table>, W)>, ServiceError> {
    if unconfirmed.is_empty() {
        return Ok(None);
    }
    match settle(stored, unconfirmed, idempotence)? {
        Verdict::Made(i) => {
            tracing::info!("an unconfirmed commit was made");
            let u = unconfirmed.swap_remove(i);
            Ok(Some((u.table, u.result)))
        }
        Verdict::CannotTell => {
            tracing::warn!("whether an unconfirmed commit was made cannot be told");
            Err(ServiceError::Unconfirmed)
        }
        Verdict::NotMade => {
            tracing::debug!("an unconfirmed commit was not made");
            Ok(None)
        }
    }
}

/// Lets `work` change `table` with the try's seeds and clock; a change to
/// commit carries the waiting receipts and a new revision, and is written
/// out.
fn work_on<W, F>(mut table: Table, setup: TrySetup, work: &F) -> Result<Worked<W>, ServiceError>
where
    F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool),
{
    let mut seeds = Rng::new(setup.seed);
    let mut next = move || seeds.next_u64();
    let mut ctx = Ctx { seed: &mut next, new_records: Vec::new(), discard: false, now_ms: setup.now_ms, via: None };
    let (result, commit) = work(&mut table, &mut ctx, &mut Rng::new(setup.bots));
    let (commit, discard) = (commit && !ctx.discard, ctx.discard);
    // (a table linked elsewhere owes nothing of its own here)
    let carried = if commit && !setup.receipts.is_empty() && table.linked_to().is_none() {
        let all: Vec<String> = std::iter::once(String::new()).chain(table.links().map(ChannelId::key)).collect();
        for r in &setup.receipts {
            r.note.enter(&mut table, None, &all);
        }
        setup.receipts
    } else {
        Vec::new()
    };
    if commit {
        table.bump_revision();
    }
    let records = std::mem::take(&mut ctx.new_records);
    let json = if commit { Some(table_json(&table)?) } else { None };
    let keep = Keep { durable: table.durable(), records: setup.records_kept };
    Ok(Worked { table: Arc::new(table), result, json, records, keep, discard, carried })
}
