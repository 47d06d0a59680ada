//! The tables a process keeps as it last committed or read them, so that
//! a command at a table this process serves needs no read of the store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::ids::ChannelId;
use crate::table::Table;

/// How many tables a process keeps as it last committed them (see
/// [`Service::transact`](super::Service)).
pub const TABLES_CACHED: usize = 1_024;

/// A kept table: its version, the table, and when it was last put back.
type Kept = (u64, Arc<Table>, u64);

/// The tables a process keeps: each with its version and when it was last
/// put back (a count), so that a full set drops its least recently used
/// eighth, not everything (which made every table read again at once).
#[derive(Default)]
pub(super) struct TableCache {
    inner: Mutex<Copies>,
}

/// The kept tables by channel, and the count that orders their use.
#[derive(Default)]
struct Copies {
    map: HashMap<ChannelId, Kept>,
    clock: u64,
}

impl TableCache {
    /// Takes this process's copy of a table (as it last committed or read
    /// it, with its version) out while a command works on it (so it is
    /// changed in place, not copied; a command on the same table meanwhile
    /// reads it from the store).
    pub(super) fn take(&self, ch: &ChannelId) -> Option<(u64, Arc<Table>)> {
        self.inner.lock().expect("lock").map.remove(ch).map(|(v, t, _)| (v, t))
    }

    /// Keeps a table this process committed or read (at most
    /// [`TABLES_CACHED`]: beyond, the least recently used eighth is
    /// dropped, and read again as needed).
    pub(super) fn keep(&self, ch: &ChannelId, version: u64, t: &Arc<Table>) {
        let dropped: Vec<Kept>;
        {
            let mut c = self.inner.lock().expect("lock");
            if c.map.get(ch).is_some_and(|(v, _, _)| *v > version) {
                // (a command meanwhile kept a newer one)
                return;
            }
            dropped = if c.map.len() >= TABLES_CACHED && !c.map.contains_key(ch) {
                let mut used: Vec<u64> = c.map.values().map(|e| e.2).collect();
                let (_, cut, _) = used.select_nth_unstable(TABLES_CACHED / 8);
                let cut = *cut;
                c.map.extract_if(|_, e| e.2 <= cut).map(|(_, e)| e).collect()
            } else {
                Vec::new()
            };
            c.clock += 1;
            let used = c.clock;
            c.map.insert(ch.clone(), (version, t.clone(), used));
        }
        // (the copies dropped are freed outside the lock)
        drop(dropped);
    }

    /// Forgets this process's copy of a table (it is read again).
    pub(super) fn forget(&self, ch: &ChannelId) {
        self.inner.lock().expect("lock").map.remove(ch);
    }
}
