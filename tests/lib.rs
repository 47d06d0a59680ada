//! Whole-system tests of doko live in `tests/tests/`: they drive the
//! service as adapters do, against a real `redis-server` each test starts
//! on its own port with its own data directory, and against the embedded
//! store on disk. The terminal test, which needs the `doko` binary, lives
//! beside it in `cli/tests/`.
//!
//! The library holds the shared test support: [`LocalRedis`],
//! [`LocalCluster`] (a three-primary Redis Cluster), [`fake_discord`], a
//! Discord (REST and gateway) on loopback for the bot to connect to, and
//! [`doko_binary`], the binary the process-level tests start.

pub mod fake_discord;
mod local_cluster;
mod local_redis;

pub use local_cluster::LocalCluster;
pub use local_redis::LocalRedis;

/// The `doko` binary: `$DOKO_BIN` (e.g. a release build for a BENCHMARKS
/// figure), else the one `cargo test --workspace` builds next to the
/// running test.
pub fn doko_binary() -> std::path::PathBuf {
    if let Some(bin) = std::env::var_os("DOKO_BIN") {
        return std::path::PathBuf::from(bin);
    }
    let exe = std::env::current_exe().expect("the test's own path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("the test runs in target/<profile>/deps");
    let bin = dir.join(format!("doko{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.exists(), "{} is missing: run the whole workspace's tests (scripts/test)", bin.display());
    bin
}

/// Waits for a child process (the bot at a crash point) to end by itself:
/// true when it did within `wait`.
pub fn exited(child: &mut std::process::Child, wait: std::time::Duration) -> bool {
    let end = std::time::Instant::now() + wait;
    while std::time::Instant::now() < end {
        if child.try_wait().ok().flatten().is_some() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}
