//! Nothing lost, nothing doubled: the service on a store that fails.
//!
//! [`Faulty`] wraps the in-memory store through the [`Store`] trait and,
//! driven by a seeded generator (or a script), fails a call before making
//! it, delays it (beyond the service's limit: the service stops waiting
//! and the call is never made), makes a commit and then reports an error
//! ("commit happened, outcome unclear"), or makes a commit and answers only
//! after the service stopped waiting. Four people play through the
//! service as a platform drives it, each re-sending an unanswered or
//! errored command with the same delivery id; the table as stored (read
//! past the faults) is the judge.

mod common;
mod race;
mod random;
mod scripted;
mod store;
