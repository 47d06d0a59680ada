//! Either persistent backend, chosen at start-up, as one store.

use super::api::{Commit, Keep, Quarantined, Store, StoreError, Stored};
use super::embedded::EmbeddedStore;
use super::memory::MemoryStore;
use super::redis::RedisStore;
use crate::ids::ChannelId;

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
    async fn version(&self, ch: &ChannelId) -> Result<u64, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.version(ch).await,
            AnyStore::Redis(s) => s.version(ch).await,
            AnyStore::Memory(s) => s.version(ch).await,
        }
    }
    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
    ) -> Result<Commit, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.commit_kept(ch, expected, json, records, keep).await,
            AnyStore::Redis(s) => s.commit_kept(ch, expected, json, records, keep).await,
            AnyStore::Memory(s) => s.commit_kept(ch, expected, json, records, keep).await,
        }
    }
    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.record(ch, n).await,
            AnyStore::Redis(s) => s.record(ch, n).await,
            AnyStore::Memory(s) => s.record(ch, n).await,
        }
    }
    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.channels().await,
            AnyStore::Redis(s) => s.channels().await,
            AnyStore::Memory(s) => s.channels().await,
        }
    }
    async fn quarantine(&self, q: &Quarantined) -> Result<bool, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.quarantine(q).await,
            AnyStore::Redis(s) => s.quarantine(q).await,
            AnyStore::Memory(s) => s.quarantine(q).await,
        }
    }
    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.quarantined().await,
            AnyStore::Redis(s) => s.quarantined().await,
            AnyStore::Memory(s) => s.quarantined().await,
        }
    }
    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        match self {
            AnyStore::Embedded(s) => s.format_version().await,
            AnyStore::Redis(s) => s.format_version().await,
            AnyStore::Memory(s) => s.format_version().await,
        }
    }
    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        match self {
            AnyStore::Embedded(s) => s.set_format_version(v).await,
            AnyStore::Redis(s) => s.set_format_version(v).await,
            AnyStore::Memory(s) => s.set_format_version(v).await,
        }
    }
}
