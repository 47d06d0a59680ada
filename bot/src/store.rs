//! Storage of tables, records and statistics: one trait, three backends
//! (in memory for unit tests, an embedded file store for a single process,
//! Redis for several processes), all passing one contract test suite.
//!
//! Every change is a compare-and-set on the table's version: a commit
//! carries the version it was based on and fails with
//! [`Commit::Conflict`] when someone else committed in between, so two
//! bot processes acting on one table can never lose or double an action.
//! The records a change produced are stored in the same atomic step.

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex};

use redb::{ReadableDatabase, ReadableTable};

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
}

impl From<redb::Error> for StoreError {
    fn from(e: redb::Error) -> StoreError {
        StoreError::Embedded(e.to_string())
    }
}

macro_rules! redb_err {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> StoreError {
                StoreError::Embedded(e.to_string())
            }
        }
    )*};
}
redb_err!(redb::DatabaseError, redb::TransactionError, redb::TableError, redb::StorageError, redb::CommitError);

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

/// Table storage keyed by channel.
pub trait Store: Send + Sync + 'static {
    /// The table of a channel and its version, if stored.
    fn load(&self, ch: &ChannelId) -> impl Future<Output = Result<Option<Stored>, StoreError>> + Send;

    /// Stores a table if its stored version is still `expected` (0 for
    /// none), appending `records` to the channel's records in the same step.
    fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> impl Future<Output = Result<Commit, StoreError>> + Send;

    /// Record `n` (from 1) of a channel.
    fn record(&self, ch: &ChannelId, n: u32) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;
}

// ---------------------------------------------------------------- memory

/// A channel's table and records in memory.
type MemoryEntry = (Stored, Vec<String>);

/// An in-memory store (unit tests of the service seam).
#[derive(Clone, Default)]
pub struct MemoryStore {
    inner: Arc<Mutex<HashMap<String, MemoryEntry>>>,
}

impl Store for MemoryStore {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        Ok(self.inner.lock().expect("lock").get(&ch.key()).map(|(s, _)| s.clone()))
    }

    async fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<Commit, StoreError> {
        let mut m = self.inner.lock().expect("lock");
        let e = m.entry(ch.key()).or_insert_with(|| (Stored { json: String::new(), version: 0 }, Vec::new()));
        if e.0.version != expected {
            return Ok(Commit::Conflict);
        }
        e.0 = Stored { json: json.to_string(), version: expected + 1 };
        e.1.extend(records.iter().cloned());
        Ok(Commit::Done(expected + 1))
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        let m = self.inner.lock().expect("lock");
        Ok(m.get(&ch.key()).and_then(|(_, r)| r.get((n as usize).checked_sub(1)?).cloned()))
    }
}

// ---------------------------------------------------------------- embedded

const TABLES: redb::TableDefinition<&str, (u64, &str)> = redb::TableDefinition::new("tables");
const RECORDS: redb::TableDefinition<(&str, u32), &str> = redb::TableDefinition::new("records");

/// The embedded store: one redb file. redb is a pure-Rust, ACID,
/// crash-safe key-value store (copy-on-write B-trees, every commit durable
/// on disk), with a stable file format; a single process owns the file.
#[derive(Clone)]
pub struct EmbeddedStore {
    db: Arc<redb::Database>,
}

impl EmbeddedStore {
    /// Opens (or creates) the store file.
    pub fn open(path: &Path) -> Result<EmbeddedStore, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Embedded(format!("{}: {e}", dir.display())))?;
        }
        let db = redb::Database::create(path)?;
        let tx = db.begin_write()?;
        tx.open_table(TABLES)?;
        tx.open_table(RECORDS)?;
        tx.commit()?;
        Ok(EmbeddedStore { db: Arc::new(db) })
    }
}

impl EmbeddedStore {
    /// Runs a synchronous redb transaction on tokio's blocking pool, never
    /// on an async worker (a durable commit waits for the disk).
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&redb::Database) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || f(&db)).await.map_err(|e| StoreError::Embedded(e.to_string()))?
    }
}

impl Store for EmbeddedStore {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        let key = ch.key();
        self.blocking(move |db| {
            let tx = db.begin_read()?;
            let t = tx.open_table(TABLES)?;
            Ok(t.get(key.as_str())?.map(|v| {
                let (version, json) = v.value();
                Stored { json: json.to_string(), version }
            }))
        })
        .await
    }

    async fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<Commit, StoreError> {
        let (key, json, records) = (ch.key(), json.to_string(), records.to_vec());
        self.blocking(move |db| {
            let tx = db.begin_write()?;
            let outcome = {
                let mut t = tx.open_table(TABLES)?;
                let current = t.get(key.as_str())?.map_or(0, |v| v.value().0);
                if current != expected {
                    Commit::Conflict
                } else {
                    t.insert(key.as_str(), (expected + 1, json.as_str()))?;
                    if !records.is_empty() {
                        let mut r = tx.open_table(RECORDS)?;
                        let mut n = r.range((key.as_str(), 0)..=(key.as_str(), u32::MAX))?.count() as u32;
                        for rec in &records {
                            n += 1;
                            r.insert((key.as_str(), n), rec.as_str())?;
                        }
                    }
                    Commit::Done(expected + 1)
                }
            };
            if outcome == Commit::Conflict {
                tx.abort()?;
            } else {
                tx.commit()?;
            }
            Ok(outcome)
        })
        .await
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        let key = ch.key();
        self.blocking(move |db| {
            let tx = db.begin_read()?;
            let t = tx.open_table(RECORDS)?;
            Ok(t.get((key.as_str(), n))?.map(|v| v.value().to_string()))
        })
        .await
    }
}

// ---------------------------------------------------------------- redis

/// Compare-and-set of a table plus its new records, atomically.
/// KEYS[1] the table hash, KEYS[2] the records list; ARGV[1] expected
/// version, ARGV[2] table JSON, ARGV[3] expiry seconds, ARGV[4..] records.
const CAS: &str = r#"
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'state', ARGV[2])
for i = 4, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
end
return v + 1
"#;

/// The Redis store: one key namespace per table, `doko:{platform:id}:...`
/// (the braces are a hash tag, so a table's keys share a cluster slot).
/// Tables untouched for `ttl_secs` expire.
#[derive(Clone)]
pub struct RedisStore {
    conn: redis::aio::ConnectionManager,
    script: Arc<redis::Script>,
    ttl_secs: u64,
}

impl RedisStore {
    /// Connects (a connection manager that reconnects by itself).
    pub async fn connect(url: &str, ttl_secs: u64) -> Result<RedisStore, StoreError> {
        let client = redis::Client::open(url)?;
        let conn = redis::aio::ConnectionManager::new(client).await?;
        Ok(RedisStore { conn, script: Arc::new(redis::Script::new(CAS)), ttl_secs })
    }

    fn keys(ch: &ChannelId) -> (String, String) {
        let tag = ch.key();
        (format!("doko:{{{tag}}}:table"), format!("doko:{{{tag}}}:records"))
    }
}

impl Store for RedisStore {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        let (table, _) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let (v, state): (Option<u64>, Option<String>) =
            redis::cmd("HMGET").arg(&table).arg("v").arg("state").query_async(&mut c).await?;
        Ok(match (v, state) {
            (Some(version), Some(json)) => Some(Stored { json, version }),
            _ => None,
        })
    }

    async fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<Commit, StoreError> {
        let (table, recs) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let mut inv = self.script.key(&table);
        inv.key(&recs).arg(expected).arg(json).arg(self.ttl_secs);
        for r in records {
            inv.arg(r);
        }
        let v: i64 = inv.invoke_async(&mut c).await?;
        Ok(if v < 0 { Commit::Conflict } else { Commit::Done(v as u64) })
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        if n == 0 {
            return Ok(None);
        }
        let (_, recs) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let r: Option<String> = redis::cmd("LINDEX").arg(&recs).arg(n as i64 - 1).query_async(&mut c).await?;
        Ok(r)
    }
}

/// Either persistent backend, chosen at start-up.
#[derive(Clone)]
pub enum AnyStore {
    /// The embedded file store.
    Embedded(EmbeddedStore),
    /// Redis.
    Redis(RedisStore),
    /// In memory (tests).
    Memory(MemoryStore),
}

impl Store for AnyStore {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.load(ch).await,
            AnyStore::Redis(s) => s.load(ch).await,
            AnyStore::Memory(s) => s.load(ch).await,
        }
    }
    async fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<Commit, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.commit(ch, expected, json, records).await,
            AnyStore::Redis(s) => s.commit(ch, expected, json, records).await,
            AnyStore::Memory(s) => s.commit(ch, expected, json, records).await,
        }
    }
    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.record(ch, n).await,
            AnyStore::Redis(s) => s.record(ch, n).await,
            AnyStore::Memory(s) => s.record(ch, n).await,
        }
    }
}
