//! The pauses between tries of a change after a conflict or a store
//! failure: growing, jittered, and bounded by a number of tries and a time
//! budget, so that a person is answered within what a platform waits.

use std::time::Duration;

use doko_engine::Rng;

/// How often a change is tried again after a conflict, and how long the
/// pauses between tries may grow: 2 ms doubling up to 200 ms, each a random
/// fraction of that ("full jitter"), at most 16 tries (about 1.5 s in the
/// worst case).
const RETRY_BASE: Duration = Duration::from_millis(2);
const RETRY_CAP: Duration = Duration::from_millis(200);
const RETRY_TRIES: u32 = 16;

/// How long a command keeps trying after store failures (errors,
/// timeouts) before the person is told that the table is unavailable: 6 s
/// from its first try, within what a platform waits for a deferred answer.
/// A try that starts in time may take up to
/// [`STORE_TIMEOUT`](super::STORE_TIMEOUT) longer.
pub const STORE_BUDGET: Duration = Duration::from_secs(6);

/// Exponential backoff with full jitter, a bounded number of tries and a
/// deadline ([`STORE_BUDGET`]).
pub(super) struct Backoff {
    tries: u32,
    rng: Rng,
    deadline: tokio::time::Instant,
}

impl Backoff {
    /// A backoff whose pauses are drawn from `seed`, its budget starting now.
    pub(super) fn new(seed: u64) -> Backoff {
        Backoff { tries: 0, rng: Rng::new(seed), deadline: tokio::time::Instant::now() + STORE_BUDGET }
    }

    /// Waits before the next try; false when the tries or the time are
    /// used up.
    pub(super) async fn wait(&mut self) -> bool {
        self.tries += 1;
        if self.tries >= RETRY_TRIES {
            return false;
        }
        let cap = RETRY_CAP.min(RETRY_BASE * 2u32.saturating_pow(self.tries.min(16)));
        let pause = Duration::from_micros(self.rng.next_u64() % (cap.as_micros() as u64 + 1));
        if tokio::time::Instant::now() + pause > self.deadline {
            return false;
        }
        tokio::time::sleep(pause).await;
        true
    }
}
