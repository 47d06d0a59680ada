//! A timed run's latencies, and the open loop's actions answered late.

use std::time::{Duration, Instant};

/// The latencies of a run and its length in seconds.
pub struct RunResult {
    /// Each action's latency, sorted.
    pub lat: Vec<Duration>,
    /// The run's length in seconds.
    pub secs: f64,
    /// The open loop's actions answered over [`LATE`] after they were
    /// due: when each was due (from the run's start), how late its
    /// driver sent it, and how long the service took to answer it.
    pub late: Vec<Late>,
    /// When the run's clock started.
    pub start: Instant,
}

impl RunResult {
    /// The latency at quantile `p` (0.5: the median), in milliseconds.
    pub fn pct(&self, p: f64) -> f64 {
        let i = ((self.lat.len() as f64 * p) as usize).min(self.lat.len().saturating_sub(1));
        self.lat.get(i).copied().unwrap_or_default().as_secs_f64() * 1e3
    }
}

/// An open-loop action answered late (see [`RunResult::late`]): when it
/// was due; how long after that its table's previous action was answered
/// (a table's next action is decided from the answer to its last, so a
/// late answer makes the next action late before it is sent); how late
/// the driver sent it beyond that (its thread or the runtime kept from
/// running); how long the service took to answer it.
#[derive(Clone, Copy)]
pub struct Late {
    /// When it was due, from the run's start.
    pub due: Duration,
    /// How long after that its table's previous action was answered.
    pub waited: Duration,
    /// How late the driver sent it beyond that.
    pub sent_late: Duration,
    /// How long the service took to answer it.
    pub answer: Duration,
}

/// How late an open-loop action is answered before the bench lists it.
pub const LATE: Duration = Duration::from_millis(5);

/// How long the players wait for any answer before the run fails (a
/// task that panicked sends none).
pub const SILENCE: Duration = Duration::from_secs(60);
