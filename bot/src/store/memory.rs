//! A store in memory, for unit tests of the service seam.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::api::{Commit, Keep, Quarantined, Store, StoreError, Stored};
use crate::ids::ChannelId;

/// A channel's table, its records kept, and how many were trimmed.
type MemoryEntry = (Stored, Vec<String>, u32);

/// An in-memory store (unit tests of the service seam).
#[derive(Clone, Default)]
pub struct MemoryStore {
    inner: Arc<Mutex<HashMap<String, MemoryEntry>>>,
    aside: Arc<Mutex<Vec<Quarantined>>>,
    format: Arc<Mutex<Option<u32>>>,
}

impl Store for MemoryStore {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        Ok(self.inner.lock().expect("lock").get(&ch.key()).map(|(s, _, _)| s.clone()))
    }

    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
    ) -> Result<Commit, StoreError> {
        let mut m = self.inner.lock().expect("lock");
        let e = m.entry(ch.key()).or_insert_with(|| (Stored { json: String::new(), version: 0 }, Vec::new(), 0));
        if e.0.version != expected {
            return Ok(Commit::Conflict);
        }
        e.0 = Stored { json: json.to_string(), version: expected + 1 };
        e.1.extend(records.iter().cloned());
        let cap = keep.records as usize;
        if cap > 0 && e.1.len() > cap {
            let extra = e.1.len() - cap;
            e.1.drain(..extra);
            e.2 += extra as u32;
        }
        Ok(Commit::Done(expected + 1))
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        let m = self.inner.lock().expect("lock");
        Ok(m.get(&ch.key()).and_then(|(_, r, trimmed)| r.get(n.checked_sub(1 + trimmed)? as usize).cloned()))
    }

    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        Ok(self.inner.lock().expect("lock").keys().filter_map(|k| ChannelId::from_key(k)).collect())
    }

    async fn quarantine(&self, q: &Quarantined) -> Result<bool, StoreError> {
        let mut aside = self.aside.lock().expect("lock");
        if aside.iter().any(|a| a.channel == q.channel && a.version == q.version) {
            return Ok(false);
        }
        aside.push(q.clone());
        Ok(true)
    }

    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        Ok(self.aside.lock().expect("lock").clone())
    }

    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        Ok(*self.format.lock().expect("lock"))
    }

    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        *self.format.lock().expect("lock") = Some(v);
        Ok(())
    }
}
