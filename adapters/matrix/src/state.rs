//! The adapter's state shared by its handlers and workers: the service,
//! the Matrix client, the configuration, the inbox, and the rooms it keeps
//! track of.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use doko_bot::App;
use matrix_sdk::Client;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId};
use tokio::sync::{Mutex, mpsc};

use crate::MatrixConfig;
use crate::inbox::Inbox;
use crate::job::Job;

/// The adapter: the service plus what it needs of Matrix.
pub struct Adapter {
    /// The service.
    pub app: Arc<dyn App>,
    /// The Matrix client, logged in.
    pub client: Client,
    /// The configuration.
    pub cfg: MatrixConfig,
    /// The bot's own user.
    pub me: OwnedUserId,
    /// Milliseconds since the epoch: older events are ignored (the start,
    /// or, catching up, the oldest command still answered).
    pub started_ms: u64,
    /// The commands received and not yet answered (see [`Received`]).
    pub inbox: Inbox,
    /// One queue per table room, so a table's commands run in order.
    pub workers: Mutex<HashMap<OwnedRoomId, mpsc::UnboundedSender<Job>>>,
    /// Direct rooms by user, so concurrent tables do not open two.
    pub dms: Mutex<HashMap<OwnedUserId, OwnedRoomId>>,
    /// Direct rooms this process opened.
    pub created: Mutex<HashSet<OwnedRoomId>>,
}

impl Adapter {
    /// The adapter with no workers and no direct rooms known yet; events
    /// older than `started_ms` (milliseconds since the epoch) are ignored.
    pub fn new(
        app: Arc<dyn App>,
        client: Client,
        cfg: MatrixConfig,
        me: OwnedUserId,
        started_ms: u64,
        inbox: Inbox,
    ) -> Adapter {
        Adapter {
            app,
            client,
            cfg,
            me,
            started_ms,
            inbox,
            workers: Mutex::new(HashMap::new()),
            dms: Mutex::new(HashMap::new()),
            created: Mutex::new(HashSet::new()),
        }
    }
}
