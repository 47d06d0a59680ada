//! The Matrix adapter's failures.

/// A failure of the Matrix adapter.
#[derive(Debug, thiserror::Error)]
pub enum AdapterError {
    /// matrix-sdk (the homeserver or the local stores) failed.
    #[error("matrix: {0}")]
    Matrix(#[from] matrix_sdk::Error),
    /// A request to the homeserver failed.
    #[error("matrix: {0}")]
    Http(#[from] matrix_sdk::HttpError),
    /// Building the client failed.
    #[error("matrix client: {0}")]
    Build(#[from] matrix_sdk::ClientBuildError),
    /// An id in the configuration is not a Matrix id.
    #[error("matrix id: {0}")]
    Id(#[from] matrix_sdk::IdParseError),
    /// The stored session could not be read or written.
    #[error("session file {path}: {why}")]
    Session {
        /// The file.
        path: String,
        /// What went wrong.
        why: String,
    },
}
