//! Failpoints for the whole-system tests (built only with the
//! `failpoints` feature, which the test crate turns on; a release build has
//! none): `DOKO_FAILPOINT=NAME:N` makes the process abort, as a crash
//! would, the `N`th time it passes the point `NAME` (from 1).
//!
//! Points: `after-commit` (a command's change is committed, nothing of what
//! it owes is delivered yet), `before-answer` (a command is handled, its
//! answer is about to be sent), `after-deliver` (what a change owed was
//! sent, it is not yet marked delivered).

use std::sync::atomic::{AtomicU64, Ordering};

static PASSED: AtomicU64 = AtomicU64::new(0);

/// Passes the point `name`: aborts the process if `DOKO_FAILPOINT` says so.
pub fn hit(name: &str) {
    let Ok(spec) = std::env::var("DOKO_FAILPOINT") else { return };
    let Some((point, n)) = spec.split_once(':') else { return };
    if point != name {
        return;
    }
    let Ok(n) = n.parse::<u64>() else { return };
    if PASSED.fetch_add(1, Ordering::SeqCst) + 1 == n {
        tracing::info!(point = name, "failpoint: aborting");
        eprintln!("doko failpoint {name}:{n}: aborting");
        std::process::abort();
    }
}
