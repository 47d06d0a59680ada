//! Failpoints for the whole-system tests (built only with the
//! `failpoints` feature, which the test crate turns on; a release build has
//! none): `DOKO_FAILPOINT=NAME:N` makes the process abort, as a crash
//! would, the `N`th time it passes the point `NAME` (from 1).
//!
//! Points: `after-commit` (a command's change is committed, nothing of what
//! it owes is delivered yet), `before-answer` (a command is handled, its
//! answer is about to be sent), `after-deliver` (what a change owed was
//! sent, it is not yet marked delivered).
//!
//! A point passed with [`fails`] does not abort: the step there fails as
//! it would on damaged data. Such points: `computer-step` (a computer
//! player's step, after it was taken).

use std::sync::atomic::{AtomicU64, Ordering};

static PASSED: AtomicU64 = AtomicU64::new(0);

/// Whether `DOKO_FAILPOINT` names the point `name` and this is its `N`th
/// pass.
fn strikes(name: &str) -> bool {
    let Ok(spec) = std::env::var("DOKO_FAILPOINT") else { return false };
    let Some((point, n)) = spec.split_once(':') else { return false };
    if point != name {
        return false;
    }
    let Ok(n) = n.parse::<u64>() else { return false };
    PASSED.fetch_add(1, Ordering::SeqCst) + 1 == n
}

/// Passes the point `name`: aborts the process if `DOKO_FAILPOINT` says so.
pub fn hit(name: &str) {
    if strikes(name) {
        tracing::info!(point = name, "failpoint: aborting");
        eprintln!("doko failpoint {name}: aborting");
        std::process::abort();
    }
}

/// Passes the point `name`: true (the step fails) if `DOKO_FAILPOINT`
/// says so.
pub fn fails(name: &str) -> bool {
    let strikes = strikes(name);
    if strikes {
        tracing::info!(point = name, "failpoint: failing");
    }
    strikes
}
