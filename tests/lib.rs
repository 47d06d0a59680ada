//! Whole-system tests of doko live in `tests/tests/`: they drive the
//! service as adapters do, against a real `redis-server` each test starts
//! on its own port with its own data directory, and against the embedded
//! store on disk. The terminal test, which needs the `doko` binary, lives
//! beside it in `cli/tests/`.
//!
//! The library holds the shared test support: [`LocalRedis`],
//! [`LocalCluster`] (a three-primary Redis Cluster), and
//! [`fake_discord`], a Discord (REST and gateway) on loopback for the bot to
//! connect to.

pub mod fake_discord;
mod local_cluster;
mod local_redis;

pub use local_cluster::LocalCluster;
pub use local_redis::LocalRedis;
