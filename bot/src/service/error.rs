//! What goes wrong in the service itself (not a refused command): the
//! error every service call returns, and the damage of a stored table that
//! cannot be read, kept apart so that its content never reaches a log.

/// A failure of the service itself (not a refused command).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// A stored table could not be read.
    #[error("stored table unreadable: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// The channel's stored table cannot be read: it is set aside for
    /// inspection and the channel waits for an admin's `reset`.
    #[error("the channel's stored table (version {}) cannot be read", .0.version)]
    Damaged(Box<Damage>),
    /// Too many concurrent changes to one table.
    #[error("the table is too busy; try again")]
    Contention,
    /// A store call took longer than [`STORE_TIMEOUT`](super::STORE_TIMEOUT).
    #[error("the store did not answer in time")]
    Timeout,
    /// A change was sent to the store, which did not say whether it made
    /// it, and reading the table again could not tell (or failed).
    #[error("the store did not confirm a change")]
    Unconfirmed,
    /// The rules work stopped unexpectedly (a bug).
    #[error("the command failed: {0}")]
    Failed(String),
}

/// A stored table that cannot be read. Its reader's error may quote the
/// stored state (a hand, a card), so it goes to the quarantine for the
/// operator, never into a log or a channel: `Debug` and the log show only
/// what kind of error it is and where.
pub struct Damage {
    /// The stored version.
    pub version: u64,
    /// Written by a newer doko (in a format this one does not know): not
    /// damaged, so not set aside; a newer process reads it.
    pub newer: bool,
    /// The channel's language, if that much could be read.
    pub lang: Option<crate::lang::Lang>,
    /// It was set aside by this command (the channel is told once).
    pub fresh: bool,
    /// The error's kind and place (no content).
    pub what: String,
    /// The reader's error, which may quote the stored state.
    pub(super) error: String,
    /// The stored state as read.
    pub(super) state: String,
}

impl std::fmt::Debug for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Damage")
            .field("version", &self.version)
            .field("newer", &self.newer)
            .field("what", &self.what)
            .finish_non_exhaustive()
    }
}
