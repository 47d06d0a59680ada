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

fn touched_tables() -> &'static Mutex<HashMap<String, Instant>> {
    static T: OnceLock<Mutex<HashMap<String, Instant>>> = OnceLock::new();
    T.get_or_init(Default::default)
}

/// A command for a table (by its channel key).
pub fn touched(channel: &str) {
    let mut t = touched_tables().lock().expect("tables lock");
    let now = Instant::now();
    t.insert(channel.to_string(), now);
    if t.len() > 4096 {
        t.retain(|_, at| now.duration_since(*at) < ACTIVE_WINDOW);
    }
}

/// The tables served within [`ACTIVE_WINDOW`]; sets the gauge too.
pub fn active_tables() -> usize {
    let mut t = touched_tables().lock().expect("tables lock");
    let now = Instant::now();
    t.retain(|_, at| now.duration_since(*at) < ACTIVE_WINDOW);
    metrics::gauge!("doko_tables_active").set(t.len() as f64);
    t.len()
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
