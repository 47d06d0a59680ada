//! Issue 19, one store round trip per action: each process keeps the
//! tables it committed and commits on its copy with the compare-and-set;
//! only a conflict (another process changed the table) or a miss reads
//! the table. A query on a copy checks the stored version first. Two
//! services on one store stand for two processes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use doko_bot::{Actor, ChannelId, Kind, MemoryStore, Platform, Service, Store, UserId};

/// A store that counts the calls made on it.
#[derive(Clone, Default)]
struct Calls {
    inner: MemoryStore,
    loads: Arc<AtomicU64>,
    versions: Arc<AtomicU64>,
    commits: Arc<AtomicU64>,
}

impl Calls {
    fn take(&self) -> (u64, u64, u64) {
        (
            self.loads.swap(0, Ordering::SeqCst),
            self.versions.swap(0, Ordering::SeqCst),
            self.commits.swap(0, Ordering::SeqCst),
        )
    }
}

impl Store for Calls {
    async fn load(&self, ch: &ChannelId) -> Result<Option<doko_bot::Stored>, doko_bot::StoreError> {
        self.loads.fetch_add(1, Ordering::SeqCst);
        self.inner.load(ch).await
    }
    async fn version(&self, ch: &ChannelId) -> Result<u64, doko_bot::StoreError> {
        self.versions.fetch_add(1, Ordering::SeqCst);
        Ok(self.inner.load(ch).await?.map_or(0, |s| s.version))
    }
    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: doko_bot::Keep,
    ) -> Result<doko_bot::Commit, doko_bot::StoreError> {
        self.commits.fetch_add(1, Ordering::SeqCst);
        self.inner.commit_kept(ch, expected, json, records, keep).await
    }
    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, doko_bot::StoreError> {
        self.inner.record(ch, n).await
    }
    async fn channels(&self) -> Result<Vec<ChannelId>, doko_bot::StoreError> {
        self.inner.channels().await
    }
    async fn quarantine(&self, q: &doko_bot::Quarantined) -> Result<bool, doko_bot::StoreError> {
        self.inner.quarantine(q).await
    }
    async fn quarantined(&self) -> Result<Vec<doko_bot::Quarantined>, doko_bot::StoreError> {
        self.inner.quarantined().await
    }
    async fn format_version(&self) -> Result<Option<u32>, doko_bot::StoreError> {
        self.inner.format_version().await
    }
    async fn set_format_version(&self, v: u32) -> Result<(), doko_bot::StoreError> {
        self.inner.set_format_version(v).await
    }
}

fn person(id: &str, name: &str) -> Actor {
    Actor::new(UserId::new(Platform::MATRIX, format!("@{id}:example.org")), name, false)
}

#[tokio::test]
async fn one_round_trip_per_action_and_nothing_lost_between_two_processes() {
    let store = Calls::default();
    let one = Service::new(store.clone(), 1);
    let two = Service::new(store.clone(), 2);
    let ch = ChannelId::new(Platform::MATRIX, "!cache:example.org");
    let (anna, ben, cleo) = (person("anna", "Anna"), person("ben", "Ben"), person("cleo", "Cleo"));

    one.handle(&ch, &anna, "join").await.unwrap();
    store.take();
    // the process committed the table: its next action is its commit only
    one.handle(&ch, &anna, "addbot").await.unwrap();
    assert_eq!(store.take(), (0, 0, 1), "one round trip: the commit");
    // a query on its copy: the stored version, nothing else
    let out = one.handle(&ch, &anna, "table").await.unwrap();
    assert!(out.table.unwrap().table.contains("Anna"));
    assert_eq!(store.take(), (0, 1, 0), "one round trip: the version");

    // the other process: a miss, then its own commit
    two.handle(&ch, &ben, "join").await.unwrap();
    assert_eq!(store.take(), (1, 0, 1));
    // the first one's copy is old now: a query reads the table again and
    // shows Ben; an action meets the conflict, reads, and loses nothing
    let out = one.handle(&ch, &anna, "table").await.unwrap();
    assert!(out.table.unwrap().table.contains("Ben"), "a query never answers from an old copy");
    assert_eq!(store.take(), (1, 1, 0));
    // (what a query read is kept: the next action is its commit only)
    one.handle(&ch, &anna, "addbot").await.unwrap();
    assert_eq!(store.take(), (0, 0, 1));
    let out = two.handle(&ch, &cleo, "join").await.unwrap();
    assert!(out.messages().iter().all(|m| m.kind != Kind::Error));
    store.take();
    let out = one.handle(&ch, &anna, "removebot").await.unwrap();
    assert!(out.messages().iter().all(|m| m.kind != Kind::Error), "{:?}", out.messages());
    assert_eq!(store.take(), (1, 0, 2), "a conflict, a read, the commit again");
    let (t, _) = two.table(&ch).await.unwrap();
    let names: Vec<&str> = t.seats().iter().map(|s| s.name()).collect();
    assert_eq!(names, ["Anna", "Bot 1", "Ben", "Cleo"], "nothing lost, nothing doubled");
}

/// A process that keeps as many copies as it may drops the least recently
/// used eighth for a new one, not every copy: the table just used is
/// still one round trip, the one used longest ago is read again.
#[tokio::test]
async fn a_full_set_of_copies_drops_the_least_recently_used() {
    let store = Calls::default();
    let svc = Service::new(store.clone(), 3);
    let anna = person("anna", "Anna");
    let ch = |i: usize| ChannelId::new(Platform::MATRIX, format!("!lru-{i}:example.org"));
    let n = doko_bot::service::TABLES_CACHED;
    for i in 0..n {
        svc.handle(&ch(i), &anna, "join").await.unwrap();
    }
    // table 0 used again: now the most recent
    svc.handle(&ch(0), &anna, "addbot").await.unwrap();
    store.take();
    svc.handle(&ch(0), &anna, "addbot").await.unwrap();
    assert_eq!(store.take(), (0, 0, 1), "kept: its commit only");
    // one table more than there is room for
    svc.handle(&ch(n), &anna, "join").await.unwrap();
    store.take();
    svc.handle(&ch(0), &anna, "removebot").await.unwrap();
    assert_eq!(store.take(), (0, 0, 1), "the table used last is kept");
    svc.handle(&ch(n - 1), &anna, "addbot").await.unwrap();
    assert_eq!(store.take(), (0, 0, 1), "a recent one is kept");
    svc.handle(&ch(1), &anna, "addbot").await.unwrap();
    assert_eq!(store.take(), (1, 0, 1), "the one used longest ago is read again");
}

/// A command's step runs where the command arrived only where it is
/// quick: no computer that searches acts for a seat (basic and random
/// ones decide in microseconds) and no card pictures are drawn. Elsewhere
/// it runs on a thread of its own, off the threads that answer everyone.
#[tokio::test]
async fn quick_steps_are_those_without_searching_computers_or_pictures() {
    let svc = Service::new(MemoryStore::default(), 4);
    // (an admin: the card style is the admins' to choose)
    let anna = Actor::new(UserId::new(Platform::MATRIX, "@anna:example.org"), "Anna", true);
    let quick = |name: &'static str| {
        let svc = &svc;
        let anna = &anna;
        async move {
            let ch = ChannelId::new(Platform::MATRIX, format!("!{name}:example.org"));
            for cmd in name.split(',') {
                let out = svc.handle(&ch, anna, cmd).await.unwrap();
                assert!(out.messages().iter().all(|m| m.kind != Kind::Error), "{cmd}: {:?}", out.messages());
            }
            svc.table(&ch).await.unwrap().0.steps_in_microseconds()
        }
    };
    assert!(quick("join").await);
    assert!(quick("join,addbot").await, "a basic computer decides at once");
    assert!(quick("join,addbot random").await);
    assert!(!quick("join,addbot strong").await, "a strong computer searches");
    assert!(!quick("join,addbot expert").await);
    assert!(!quick("join,cards images").await, "pictures take milliseconds");
}
