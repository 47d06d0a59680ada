//! What the service counts, through the `metrics` facade: the binary
//! installs a Prometheus recorder and serves it; without a recorder every
//! call here is a no-op. No label ever carries a card, a name or a text:
//! command kinds, outcomes, platforms.
//!
//! - `doko_commands_total{kind, outcome}`: commands by kind (`play`,
//!   `bid`, ...) and outcome (`done`, `refused`, `stale`, `duplicate`,
//!   `limited`, `closing`, `error`);
//! - `doko_command_seconds{kind}`: a command's time to its answer;
//! - `doko_deals_total{outcome}`: deals filed (`scored` or `aborted`);
//! - `doko_errors_total{kind}`: failures (`store`, `contention`, ...);
//! - `doko_store_seconds`: each store call's time;
//! - `doko_tables_active`: tables this process served a command for in the
//!   last [`ACTIVE_WINDOW`];
//! - `doko_adapter_connected{platform}`: 1 while a front end is connected.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::ids::ChannelId;

/// How long a table counts as active after its last command.
pub const ACTIVE_WINDOW: Duration = Duration::from_secs(600);

/// A command answered: its kind, outcome and time.
pub fn command(kind: &'static str, outcome: &'static str, seconds: f64) {
    metrics::counter!("doko_commands_total", "kind" => kind, "outcome" => outcome).increment(1);
    metrics::histogram!("doko_command_seconds", "kind" => kind).record(seconds);
}

/// A deal filed with its record (scored, or aborted before its end).
pub fn deal(aborted: bool) {
    metrics::counter!("doko_deals_total", "outcome" => if aborted { "aborted" } else { "scored" }).increment(1);
}

/// A failure of this kind.
pub fn error(kind: &'static str) {
    metrics::counter!("doko_errors_total", "kind" => kind).increment(1);
}

/// A store call and its time.
pub fn store_call(seconds: f64, ok: bool) {
    metrics::histogram!("doko_store_seconds").record(seconds);
    if !ok {
        error("store");
    }
}

/// The tables served lately, by channel, and when the next sweep of the
/// old ones is due (by the map's length: a sweep is O(tables), so it is
/// made when the map has doubled since the last, not at every command).
#[derive(Default)]
struct Touched {
    at: HashMap<ChannelId, Instant>,
    sweep_from: usize,
}

fn touched_tables() -> &'static Mutex<Touched> {
    static T: OnceLock<Mutex<Touched>> = OnceLock::new();
    T.get_or_init(Default::default)
}

/// The fewest tables kept before old ones are swept.
const SWEEP_FROM: usize = 4096;

impl Touched {
    /// Stamps a table served at `now`; sweeps the old ones when due.
    fn touch(&mut self, channel: &ChannelId, now: Instant) {
        if let Some(at) = self.at.get_mut(channel) {
            *at = now;
            return;
        }
        self.at.insert(channel.clone(), now);
        if self.at.len() > self.sweep_from.max(SWEEP_FROM) {
            self.sweep(now);
        }
    }

    /// Forgets the tables not served within [`ACTIVE_WINDOW`] of `now`.
    fn sweep(&mut self, now: Instant) {
        self.at.retain(|_, at| now.duration_since(*at) < ACTIVE_WINDOW);
        self.sweep_from = 2 * self.at.len();
    }
}

/// A command for a table (a table served again is only stamped: no key
/// copied).
pub fn touched(channel: &ChannelId) {
    let now = Instant::now();
    touched_tables().lock().expect("tables lock").touch(channel, now);
}

/// The tables served within [`ACTIVE_WINDOW`]; sets the gauge too.
pub fn active_tables() -> usize {
    let mut t = touched_tables().lock().expect("tables lock");
    t.sweep(Instant::now());
    metrics::gauge!("doko_tables_active").set(t.at.len() as f64);
    t.at.len()
}

fn adapter_states() -> &'static Mutex<BTreeMap<&'static str, bool>> {
    static A: OnceLock<Mutex<BTreeMap<&'static str, bool>>> = OnceLock::new();
    A.get_or_init(Default::default)
}

/// A front end's connection: `platform` (`discord`, `matrix`) connected or
/// not. The first call registers it for the readiness check.
pub fn set_adapter(platform: &'static str, connected: bool) {
    adapter_states().lock().expect("adapters lock").insert(platform, connected);
    metrics::gauge!("doko_adapter_connected", "platform" => platform).set(if connected { 1.0 } else { 0.0 });
}

/// Every registered front end and whether it is connected.
pub fn adapters() -> Vec<(&'static str, bool)> {
    adapter_states().lock().expect("adapters lock").iter().map(|(k, v)| (*k, *v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Platform;

    /// A table served again is stamped, not added; old tables are swept
    /// once the map has grown past the last sweep's double, and the
    /// active ones stay.
    #[test]
    fn tables_served_are_counted_once_and_old_ones_swept() {
        let mut t = Touched::default();
        let start = Instant::now();
        let ch = |i: usize| ChannelId::new(Platform::DISCORD, format!("{i}"));
        for i in 0..SWEEP_FROM {
            t.touch(&ch(i), start);
            t.touch(&ch(i), start);
        }
        assert_eq!(t.at.len(), SWEEP_FROM, "each table once");
        // later, past the window: the new tables force a sweep of the old
        let later = start + ACTIVE_WINDOW + Duration::from_secs(1);
        t.touch(&ch(0), later);
        for i in SWEEP_FROM..SWEEP_FROM + 2 {
            t.touch(&ch(i), later);
        }
        assert_eq!(t.at.len(), 3, "the old tables swept, the ones served lately kept");
        // no sweep at every command: the next is due at twice the kept
        assert_eq!(t.sweep_from, 4);
        for i in 0..SWEEP_FROM {
            t.touch(&ch(10_000 + i), later);
        }
        assert_eq!(t.at.len(), SWEEP_FROM + 3);
    }
}
