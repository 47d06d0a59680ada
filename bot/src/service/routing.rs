//! Which stored table a channel shows: its own, or its home's when it is
//! linked to another channel's table (`link`). The home's list of links is
//! what counts; this process remembers the homes it saw.

use std::sync::Arc;

use doko_engine::Rng;

use super::Service;
use super::error::ServiceError;
use super::stored::read_stored;
use super::unconfirmed::Idempotence;
use crate::ids::ChannelId;
use crate::store::Store;
use crate::table::{Ctx, Table};

/// Where a linked channel's command went.
enum Routing<W> {
    /// It ran here, with this answer.
    RanHere(W),
    /// The channel is linked to this home.
    HomeIs(ChannelId),
    /// The home tried does not list the channel (any more).
    NotListed,
}

impl<S: Store> Service<S> {
    /// The channel's table as stored (a new one if none) and its version,
    /// for inspection (tests, benchmarks); adapters never see it.
    /// A channel linked to another's table (see [`Table::linked_to`])
    /// reads that table.
    pub async fn table(&self, ch: &ChannelId) -> Result<(Table, u64), ServiceError> {
        let key = self.home_of(ch);
        if &key != ch {
            let (t, v) = self.table_key(&key).await?;
            if t.is_linked_with(ch) {
                return Ok((t, v));
            }
            self.aliases.lock().expect("lock").remove(ch);
        }
        let (t, v) = self.table_key(ch).await?;
        if let Some(home) = t.linked_to().cloned() {
            let (h, hv) = self.table_key(&home).await?;
            if h.is_linked_with(ch) {
                self.aliases.lock().expect("lock").insert(ch.clone(), home);
                return Ok((h, hv));
            }
        }
        Ok((t, v))
    }

    /// The table stored under a channel's own key.
    async fn table_key(&self, ch: &ChannelId) -> Result<(Table, u64), ServiceError> {
        match read_stored(self.timed(self.store.load(ch)).await?, &self.new_tables) {
            Err(ServiceError::Damaged(d)) => Err(ServiceError::Damaged(self.set_aside(ch, d).await)),
            r => r,
        }
    }

    /// Where a channel's table is stored, as this process last saw it:
    /// its own key, or its home's when it is linked.
    fn home_of(&self, ch: &ChannelId) -> ChannelId {
        self.aliases.lock().expect("lock").get(ch).cloned().unwrap_or_else(|| ch.clone())
    }

    /// Runs `work` on the table a channel shows (its own, or its home's
    /// when linked: `ctx.via` is then the channel), as
    /// [`transact_key`](Self::transact_key); returns the key it ran at.
    /// The home's list of links is what counts: a channel whose home no
    /// longer lists it is its own table again (and forgets the home).
    pub(super) async fn routed<W, F>(
        &self,
        ch: &ChannelId,
        idempotence: Idempotence,
        work: F,
    ) -> Result<(ChannelId, Arc<Table>, W), ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        let work = Arc::new(work);
        let mut key = self.home_of(ch);
        // the home that does not list the channel (any more)
        let mut left: Option<ChannelId> = None;
        for _ in 0..4 {
            let (asked, at, w, gone) = (ch.clone(), key.clone(), work.clone(), left.clone());
            let (t, r) = self
                .transact_key(&key, idempotence.clone(), move |table, ctx, rng| {
                    if at != asked {
                        if !table.is_linked_with(&asked) {
                            return (Routing::NotListed, false);
                        }
                        ctx.via = Some(asked.clone());
                    } else if let Some(home) = table.linked_to().cloned() {
                        if gone.as_ref() != Some(&home) {
                            return (Routing::HomeIs(home), false);
                        }
                        if table.link_settled(ctx.now_ms) {
                            table.set_linked_to(None, ctx.now_ms);
                            let (w, _) = w(table, ctx, rng);
                            return (Routing::RanHere(w), true);
                        }
                        // (a link being made: its own table until the home
                        // takes it)
                    }
                    let (w, commit) = w(table, ctx, rng);
                    (Routing::RanHere(w), commit)
                })
                .await?;
            match r {
                Routing::RanHere(w) => return Ok((key, t, w)),
                Routing::HomeIs(home) => {
                    self.aliases.lock().expect("lock").insert(ch.clone(), home.clone());
                    key = home;
                }
                Routing::NotListed => {
                    tracing::info!(channel = %ch, "a channel's link is gone: its own table again");
                    self.aliases.lock().expect("lock").remove(ch);
                    left = Some(key);
                    key = ch.clone();
                }
            }
        }
        Err(ServiceError::Failed("a channel's link could not be followed".into()))
    }

    /// Runs `work` on the table a channel shows (see [`routed`](Self::routed)).
    pub(super) async fn transact<W, F>(
        &self,
        ch: &ChannelId,
        idempotence: Idempotence,
        work: F,
    ) -> Result<(Arc<Table>, W), ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        self.routed(ch, idempotence, work).await.map(|(_, t, w)| (t, w))
    }
}
