//! The embedded store: one redb file, for a single process (the default).

use std::path::Path;
use std::sync::Arc;

use redb::{ReadableDatabase, ReadableTable};

use super::api::{Commit, Keep, Quarantined, Store, StoreError, Stored};
use crate::ids::ChannelId;

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

const TABLES: redb::TableDefinition<&str, (u64, &str)> = redb::TableDefinition::new("tables");
const RECORDS: redb::TableDefinition<(&str, u32), &str> = redb::TableDefinition::new("records");
/// Tables set aside: (channel, version) → [`Quarantined`] as JSON.
const QUARANTINE: redb::TableDefinition<(&str, u64), &str> = redb::TableDefinition::new("quarantine");
/// The store's own facts: `format` → [`STORE_FORMAT`] it was written in.
const META: redb::TableDefinition<&str, u64> = redb::TableDefinition::new("meta");

/// The embedded store: one redb file. redb is a pure-Rust, ACID,
/// crash-safe key-value store (copy-on-write B-trees, every commit durable
/// on disk), with a stable file format; a single process owns the file.
#[derive(Clone)]
pub struct EmbeddedStore {
    db: Arc<redb::Database>,
}

impl EmbeddedStore {
    /// Opens (or creates) the store file. What it creates is readable by
    /// its user only: missing directories 0700, the file 0600 (a file left
    /// readable by others is made private).
    pub fn open(path: &Path) -> Result<EmbeddedStore, StoreError> {
        let io = |p: &Path, e: std::io::Error| StoreError::Embedded(format!("{}: {e}", p.display()));
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            create_private_dir(dir).map_err(|e| io(dir, e))?;
        }
        create_private_file(path).map_err(|e| io(path, e))?;
        let db = redb::Database::create(path)?;
        let tx = db.begin_write()?;
        tx.open_table(TABLES)?;
        tx.open_table(RECORDS)?;
        tx.open_table(QUARANTINE)?;
        tx.open_table(META)?;
        tx.commit()?;
        Ok(EmbeddedStore { db: Arc::new(db) })
    }
}

/// Creates a directory and its missing parents, readable by the user only
/// (0700 on Unix); one that exists is left as it is.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// Creates a file if it is missing, readable and writable by the user only
/// (0600 on Unix); one that exists is made so.
pub fn create_private_file(path: &Path) -> std::io::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let f = o.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = f.metadata()?.permissions().mode();
        if mode & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(mode & 0o700))?;
        }
    }
    Ok(())
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

    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
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
                        // the last number given (trimmed records leave gaps
                        // at the start, never at the end)
                        let mut n = match r.range((key.as_str(), 0)..=(key.as_str(), u32::MAX))?.next_back() {
                            Some(entry) => entry?.0.value().1,
                            None => 0,
                        };
                        for rec in &records {
                            n += 1;
                            r.insert((key.as_str(), n), rec.as_str())?;
                        }
                        if keep.records > 0 && n > keep.records {
                            r.retain_in((key.as_str(), 0)..=(key.as_str(), n - keep.records), |_, _| false)?;
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

    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        self.blocking(move |db| {
            let tx = db.begin_read()?;
            let t = match tx.open_table(TABLES) {
                Ok(t) => t,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
                Err(e) => return Err(e.into()),
            };
            let mut out = Vec::new();
            for entry in t.iter()? {
                let (k, _) = entry?;
                out.extend(ChannelId::from_key(k.value()));
            }
            Ok(out)
        })
        .await
    }

    async fn quarantine(&self, q: &Quarantined) -> Result<bool, StoreError> {
        let json = serde_json::to_string(q).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let (key, version) = (q.channel.clone(), q.version);
        self.blocking(move |db| {
            let tx = db.begin_write()?;
            let new = {
                let mut t = tx.open_table(QUARANTINE)?;
                let new = t.get((key.as_str(), version))?.is_none();
                if new {
                    t.insert((key.as_str(), version), json.as_str())?;
                }
                new
            };
            tx.commit()?;
            Ok(new)
        })
        .await
    }

    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        self.blocking(move |db| {
            let tx = db.begin_read()?;
            let t = tx.open_table(QUARANTINE)?;
            let mut out = Vec::new();
            for entry in t.iter()? {
                let (_, v) = entry?;
                out.push(serde_json::from_str(v.value()).map_err(|e| StoreError::Corrupt(e.to_string()))?);
            }
            Ok(out)
        })
        .await
    }

    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        self.blocking(move |db| {
            let tx = db.begin_read()?;
            let t = tx.open_table(META)?;
            Ok(t.get("format")?.map(|v| v.value() as u32))
        })
        .await
    }

    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        self.blocking(move |db| {
            let tx = db.begin_write()?;
            tx.open_table(META)?.insert("format", u64::from(v))?;
            tx.commit()?;
            Ok(())
        })
        .await
    }
}
