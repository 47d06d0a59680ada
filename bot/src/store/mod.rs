//! Storage of tables, records and statistics: one trait, three backends
//! (in memory for unit tests, an embedded file store for a single process,
//! Redis for several processes), all passing one contract test suite.
//!
//! Every change is a compare-and-set on the table's version: a commit
//! carries the version it was based on and fails with
//! [`Commit::Conflict`] when someone else committed in between, so two
//! bot processes acting on one table can never lose or double an action.
//! The records a change produced are stored in the same atomic step, and
//! the oldest beyond the table's cap are trimmed in it ([`Keep`]).

mod any;
mod api;
mod embedded;
mod memory;
pub mod packed;
mod redis;

pub use any::AnyStore;
pub use api::{Commit, FormatError, Keep, Quarantined, STORE_FORMAT, Store, StoreError, Stored, check_format};
pub use embedded::{EmbeddedStore, create_private_dir, create_private_file};
pub use memory::MemoryStore;
pub use redis::{
    CAS, REDIS_CLUSTER_REQUEST_TIMEOUT, REDIS_CLUSTER_SCHEME, REDIS_CONNECTION_TIMEOUT, REDIS_RESPONSE_TIMEOUT,
    REPLICA_WAIT_MAX_MS, RedisStore, WAIT_STEP_MS,
};
