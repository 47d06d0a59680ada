//! The faulty store: the in-memory store behind the [`Store`] trait, failing,
//! delaying or leaving commits unclear by a seeded generator or a script.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use doko_bot::service::STORE_TIMEOUT;
use doko_bot::{ChannelId, Commit, Keep, MemoryStore, Store, StoreError, Stored};
use doko_engine::Rng;

/// What the faulty store does to one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The call is made as asked.
    None,
    /// It fails before doing anything.
    Fail,
    /// It waits this long, then is made (when longer than the service's
    /// limit, the service stops waiting first and it is never made).
    Delay(Duration),
    /// (commits) The commit is made, then an error is reported.
    Unclear,
    /// (commits) The commit is made, and answered after the service
    /// stopped waiting.
    Late,
}

/// Per mille of calls that get each fault (loads get failures and delays
/// only).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rates {
    pub(crate) fail: usize,
    pub(crate) delay: usize,
    pub(crate) unclear: usize,
    pub(crate) late: usize,
}

/// Where the faults come from.
pub(crate) enum Plan {
    /// Drawn from a seeded generator.
    Random(Rng, Rates),
    /// The next loads and commits get these; then commits get `then`.
    Script { loads: VecDeque<Fault>, commits: VecDeque<Fault>, then: Fault },
}

/// Faults injected, by kind, and the calls made.
#[derive(Default, Debug)]
pub(crate) struct Counts {
    pub(crate) calls: AtomicU64,
    pub(crate) fail: AtomicU64,
    pub(crate) delay: AtomicU64,
    pub(crate) timeout: AtomicU64,
    pub(crate) unclear: AtomicU64,
    pub(crate) late: AtomicU64,
    /// Unclear and late commits that were made (not conflicts).
    pub(crate) made: AtomicU64,
}

/// Counts one more.
fn bump(c: &AtomicU64) {
    c.fetch_add(1, Ordering::SeqCst);
}

/// A count as it stands.
pub(crate) fn get(c: &AtomicU64) -> u64 {
    c.load(Ordering::SeqCst)
}

/// The in-memory store with faults.
#[derive(Clone)]
pub(crate) struct Faulty {
    pub(crate) inner: MemoryStore,
    pub(crate) plan: Arc<Mutex<Plan>>,
    pub(crate) counts: Arc<Counts>,
}

/// A delay past the service's limit on a store call.
pub(crate) const LONG: Duration = Duration::from_millis(STORE_TIMEOUT.as_millis() as u64 + 1_000);

impl Faulty {
    /// A fresh in-memory store with faults from `plan`.
    fn new(plan: Plan) -> Faulty {
        Faulty { inner: MemoryStore::default(), plan: Arc::new(Mutex::new(plan)), counts: Arc::default() }
    }

    /// Faults drawn at `rates` from a generator seeded with `seed`.
    pub(crate) fn random(seed: u64, rates: Rates) -> Faulty {
        Faulty::new(Plan::Random(Rng::new(seed), rates))
    }

    /// Commits get `commits`, then `then`; loads get none.
    pub(crate) fn script(commits: &[Fault], then: Fault) -> Faulty {
        Faulty::new(Plan::Script { loads: VecDeque::new(), commits: commits.iter().copied().collect(), then })
    }

    /// Faults from `plan` from now on.
    pub(crate) fn set(&self, plan: Plan) {
        *self.plan.lock().unwrap() = plan;
    }

    /// The fault for the next call (a commit or a load), counted.
    fn draw(&self, commit: bool) -> Fault {
        bump(&self.counts.calls);
        let f = match &mut *self.plan.lock().unwrap() {
            Plan::Random(rng, r) => {
                let x = rng.below(1000);
                let delay = |rng: &mut Rng| {
                    if rng.below(2) == 0 { LONG } else { Duration::from_millis(1 + rng.below(500) as u64) }
                };
                if x < r.fail {
                    Fault::Fail
                } else if x < r.fail + r.delay {
                    Fault::Delay(delay(rng))
                } else if commit && x < r.fail + r.delay + r.unclear {
                    Fault::Unclear
                } else if commit && x < r.fail + r.delay + r.unclear + r.late {
                    Fault::Late
                } else {
                    Fault::None
                }
            }
            Plan::Script { loads, commits, then } => {
                if commit {
                    commits.pop_front().unwrap_or(*then)
                } else {
                    loads.pop_front().unwrap_or(Fault::None)
                }
            }
        };
        match f {
            Fault::None => {}
            Fault::Fail => bump(&self.counts.fail),
            Fault::Delay(d) if d > STORE_TIMEOUT => bump(&self.counts.timeout),
            Fault::Delay(_) => bump(&self.counts.delay),
            Fault::Unclear => bump(&self.counts.unclear),
            Fault::Late => bump(&self.counts.late),
        }
        f
    }
}

/// The error a failed call reports.
fn injected() -> StoreError {
    StoreError::Embedded("injected fault".into())
}

impl Store for Faulty {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        match self.draw(false) {
            Fault::Fail => Err(injected()),
            Fault::Delay(d) => {
                tokio::time::sleep(d).await;
                self.inner.load(ch).await
            }
            _ => self.inner.load(ch).await,
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
        match self.draw(true) {
            Fault::None => self.inner.commit_kept(ch, expected, json, records, keep).await,
            Fault::Fail => Err(injected()),
            Fault::Delay(d) => {
                tokio::time::sleep(d).await;
                self.inner.commit_kept(ch, expected, json, records, keep).await
            }
            Fault::Unclear => {
                if let Commit::Done(_) = self.inner.commit_kept(ch, expected, json, records, keep).await? {
                    bump(&self.counts.made);
                }
                Err(injected())
            }
            Fault::Late => {
                let r = self.inner.commit_kept(ch, expected, json, records, keep).await;
                if let Ok(Commit::Done(_)) = r {
                    bump(&self.counts.made);
                }
                tokio::time::sleep(LONG).await;
                r
            }
        }
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        self.inner.record(ch, n).await
    }

    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        self.inner.channels().await
    }

    async fn quarantine(&self, q: &doko_bot::Quarantined) -> Result<bool, StoreError> {
        self.inner.quarantine(q).await
    }

    async fn quarantined(&self) -> Result<Vec<doko_bot::Quarantined>, StoreError> {
        self.inner.quarantined().await
    }

    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        // a read, faulted as loads are (the service's health check)
        match self.draw(false) {
            Fault::Fail => Err(injected()),
            Fault::Delay(d) => {
                tokio::time::sleep(d).await;
                self.inner.format_version().await
            }
            _ => self.inner.format_version().await,
        }
    }

    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        self.inner.set_format_version(v).await
    }
}
