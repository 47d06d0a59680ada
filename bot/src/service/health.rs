//! What the service knows of its store's health, noted at every store
//! call, so that a health endpoint can tell an outage without calling the
//! store itself.

/// What the service knows of its store: whether its last call was
/// answered, since when, and the last failure. Every store call updates
/// it; [`Service::check_store`](super::Service::check_store) makes one when
/// nothing else does, so a health endpoint (`/readyz`) can read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreHealth {
    /// The last store call was answered.
    pub up: bool,
    /// Since when (ms since the Unix epoch, by the service's clock).
    pub since_ms: u64,
    /// Store calls that failed or timed out since the service started.
    pub failures: u64,
    /// The last failure (no stored content: a store error or "timeout").
    pub last_error: Option<String>,
}

impl StoreHealth {
    /// A store that answers, as of `now_ms`.
    pub(super) fn up_since(now_ms: u64) -> StoreHealth {
        StoreHealth { up: true, since_ms: now_ms, failures: 0, last_error: None }
    }

    /// Notes a store call's outcome at `now_ms`; a change is logged once.
    pub(super) fn note(&mut self, now_ms: u64, failure: Option<String>) {
        match failure {
            None if !self.up => {
                tracing::info!(down_ms = now_ms.saturating_sub(self.since_ms), "the store answers again");
                self.up = true;
                self.since_ms = now_ms;
            }
            None => {}
            Some(e) => {
                if self.up {
                    tracing::warn!(error = %e, "the store does not answer; commands are told the table is unavailable");
                    self.up = false;
                    self.since_ms = now_ms;
                }
                self.failures += 1;
                self.last_error = Some(e);
            }
        }
    }
}
