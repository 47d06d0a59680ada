//! A store that counts the service's round trips and commits, and the
//! bytes Redis keeps of a sample of the commits.

/// A store that counts the calls the service makes (its round trips) and
/// its commits, with the bytes Redis keeps of a sample of them (for Redis
/// alone with tables of the size doko commits).
pub struct Counting<S> {
    /// The store counted.
    pub inner: S,
    /// The calls made to it.
    pub calls: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// The commits made, and the sample's bytes.
    pub commits: std::sync::Arc<Commits>,
}

/// The commits [`Counting`] saw: how many, and, for every [`SAMPLED`]th,
/// its bytes as Redis keeps them (compressed: [`doko_bot::store::packed`]).
#[derive(Default)]
pub struct Commits {
    made: std::sync::atomic::AtomicU64,
    sampled: std::sync::atomic::AtomicU64,
    stored: std::sync::atomic::AtomicU64,
}

/// One commit in this many is compressed again by the bench to learn the
/// size Redis keeps (all of them would add the compressor's time twice).
const SAMPLED: u64 = 32;

impl Commits {
    /// The sampled commits and their bytes as Redis keeps them, now.
    pub fn read(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.sampled.load(Relaxed), self.stored.load(Relaxed))
    }

    /// The mean bytes Redis keeps per commit since the counters read
    /// `before` ([`Commits::read`]); `None` when none was sampled.
    pub fn stored_mean(&self, before: (u64, u64)) -> Option<usize> {
        let (sampled, stored) = self.read();
        Some((stored - before.1).checked_div(sampled - before.0)? as usize).filter(|&b| b > 0)
    }
}

impl<S> Counting<S> {
    fn count(&self) {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn committed(&self, json: &str) {
        use std::sync::atomic::Ordering::Relaxed;
        if self.commits.made.fetch_add(1, Relaxed).is_multiple_of(SAMPLED) {
            self.commits.sampled.fetch_add(1, Relaxed);
            self.commits.stored.fetch_add(doko_bot::store::packed::pack(json).len() as u64, Relaxed);
        }
    }
}

impl<S: doko_bot::Store> doko_bot::Store for Counting<S> {
    async fn load(&self, ch: &doko_bot::ChannelId) -> Result<Option<doko_bot::Stored>, doko_bot::StoreError> {
        self.count();
        self.inner.load(ch).await
    }
    async fn commit_kept(
        &self,
        ch: &doko_bot::ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: doko_bot::Keep,
    ) -> Result<doko_bot::Commit, doko_bot::StoreError> {
        self.count();
        self.committed(json);
        self.inner.commit_kept(ch, expected, json, records, keep).await
    }
    async fn version(&self, ch: &doko_bot::ChannelId) -> Result<u64, doko_bot::StoreError> {
        self.count();
        self.inner.version(ch).await
    }
    async fn record(&self, ch: &doko_bot::ChannelId, n: u32) -> Result<Option<String>, doko_bot::StoreError> {
        self.count();
        self.inner.record(ch, n).await
    }
    async fn channels(&self) -> Result<Vec<doko_bot::ChannelId>, doko_bot::StoreError> {
        self.inner.channels().await
    }
    async fn quarantine(&self, q: &doko_bot::store::Quarantined) -> Result<bool, doko_bot::StoreError> {
        self.inner.quarantine(q).await
    }
    async fn quarantined(&self) -> Result<Vec<doko_bot::store::Quarantined>, doko_bot::StoreError> {
        self.inner.quarantined().await
    }
    async fn format_version(&self) -> Result<Option<u32>, doko_bot::StoreError> {
        self.inner.format_version().await
    }
    async fn set_format_version(&self, v: u32) -> Result<(), doko_bot::StoreError> {
        self.inner.set_format_version(v).await
    }
}
