//! What every store offers: the [`Store`] trait, the values it takes and
//! gives, its errors, and the check of the format a store was written in.

use std::future::Future;

use crate::ids::ChannelId;

/// A storage failure (not a conflict).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Redis failed.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// The embedded database failed.
    #[error("embedded store: {0}")]
    Embedded(String),
    /// Stored data could not be read.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
    /// The store's address is not one the bot understands.
    #[error("store address: {0}")]
    BadUrl(String),
    /// A commit the primary took, but no replica confirmed within this
    /// many milliseconds (see `RedisStore::with_replica_wait`): whether it
    /// outlives a failover is unclear.
    #[error("no replica confirmed the commit within {0} ms")]
    NotReplicated(u64),
}

/// A stored table: its JSON text and version (0: never stored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The table as JSON.
    pub json: String,
    /// The version it has.
    pub version: u64,
}

/// The outcome of a commit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Commit {
    /// Stored with this new version.
    Done(u64),
    /// The table changed since it was loaded; load again and retry.
    Conflict,
}

/// How a committed table is kept.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Keep {
    /// The table holds a session in progress or statistics: it never
    /// expires (a store with an expiry keeps it without one).
    pub durable: bool,
    /// Records kept for the table: the oldest beyond this are trimmed in
    /// the same step (their numbers are not reused); 0: all.
    pub records: u32,
}

/// Table storage keyed by channel.
pub trait Store: Send + Sync + 'static {
    /// The table of a channel and its version, if stored.
    fn load(&self, ch: &ChannelId) -> impl Future<Output = Result<Option<Stored>, StoreError>> + Send;

    /// Stores a table if its stored version is still `expected` (0 for
    /// none), appending `records` to the channel's records in the same
    /// step, kept as `keep` says (no expiry for a durable table, the oldest
    /// records trimmed).
    fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
    ) -> impl Future<Output = Result<Commit, StoreError>> + Send;

    /// Stores a table as [`Store::commit_kept`] does, kept as by default.
    fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> impl Future<Output = Result<Commit, StoreError>> + Send {
        self.commit_kept(ch, expected, json, records, Keep::default())
    }

    /// The version of a channel's stored table (0: none), read without
    /// the table (a process checks that its copy is current).
    fn version(&self, ch: &ChannelId) -> impl Future<Output = Result<u64, StoreError>> + Send {
        async move { Ok(self.load(ch).await?.map_or(0, |s| s.version)) }
    }

    /// Record `n` (from 1) of a channel; `None` when there is none or it
    /// was trimmed.
    fn record(&self, ch: &ChannelId, n: u32) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    /// Every channel with a stored table (for the turn clock after a
    /// restart; a full scan, so not for every tick).
    fn channels(&self) -> impl Future<Output = Result<Vec<ChannelId>, StoreError>> + Send;

    /// Sets a copy of a stored table that cannot be read aside for
    /// inspection (`doko store inspect`), once per channel and version:
    /// true when it was set aside now, false when it already was. The
    /// table itself stays where it is until an admin's `reset` replaces it.
    fn quarantine(&self, q: &Quarantined) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Every table set aside, oldest first per channel.
    fn quarantined(&self) -> impl Future<Output = Result<Vec<Quarantined>, StoreError>> + Send;

    /// The format the store's contents are written in ([`STORE_FORMAT`]);
    /// `None` when it was never written down (a new store, or one written
    /// before the format was).
    fn format_version(&self) -> impl Future<Output = Result<Option<u32>, StoreError>> + Send;

    /// Writes the store's format down.
    fn set_format_version(&self, v: u32) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// The format this build writes tables, records and statistics in. A
/// store says which format it holds ([`Store::format_version`]); a build
/// meeting a newer one refuses to start ([`check_format`]) rather than
/// misread it, and one meeting an older one migrates it first.
///
/// - 1: tables as JSON, the live deal and the records as `doko-record/1`.
/// - 2: the live deal and the records in the compact record form
///   ([`doko_engine::Record::to_compact`]). Format 1's JSON records are
///   read as they are, so migrating from 1 only writes 2 down.
/// - 3: a table remembers the deliveries it handled by a 48-bit hash of
///   each id, as one string (`deliveries`), where it kept the ids
///   (`delivered`). Format 2's ids are read and remembered by their hashes
///   from then on, so migrating from 2 only writes 3 down.
/// - 4: Redis keeps a table's state compressed (LZ4, see [`packed`](super::packed)) when
///   that makes it shorter; the embedded store keeps JSON as before.
///   States of format 3 (JSON) are read as they are, so migrating from 3
///   only writes 4 down. A doko of format 3 fails to read a compressed
///   state as text (it answers as for a store that failed, and changes
///   nothing) rather than misread it.
pub const STORE_FORMAT: u32 = 4;

/// Why a store cannot be used by this build.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The store was written by a newer doko.
    #[error(
        "the store holds format {found}, written by a newer doko; this doko reads format {STORE_FORMAT} and stops \
         rather than misread it: run the newer doko, or restore a backup made for this one"
    )]
    Newer {
        /// The store's format.
        found: u32,
    },
    /// The store's format could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Checks (and, for a store that never wrote it down, writes) the store's
/// format before the bot serves anything: a store in a newer format than
/// [`STORE_FORMAT`] is refused, so an older build never corrupts what a
/// newer one wrote.
pub async fn check_format<S: Store>(store: &S) -> Result<u32, FormatError> {
    match store.format_version().await? {
        Some(found) if found > STORE_FORMAT => Err(FormatError::Newer { found }),
        Some(found) if found == STORE_FORMAT => Ok(found),
        // older, or never written (an empty store, or one of format 1,
        // which did not always write it down): format 4 reads formats 1
        // to 3 as they are, so the migration is writing the new number
        _ => {
            store.set_format_version(STORE_FORMAT).await?;
            Ok(STORE_FORMAT)
        }
    }
}

/// A stored table that could not be read, set aside with why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Quarantined {
    /// The channel's key (`platform:id`).
    pub channel: String,
    /// The table's version when it was set aside.
    pub version: u64,
    /// When (milliseconds since the Unix epoch).
    pub at_ms: u64,
    /// Why it could not be read (the reader's full error: it may quote the
    /// stored state, so it is shown to the store's operator only, never in
    /// a channel or a log).
    pub error: String,
    /// The stored table as it was.
    pub state: String,
}

impl Quarantined {
    /// How the channel and an operator name it: `CHANNEL@VERSION`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.channel, self.version)
    }
}
