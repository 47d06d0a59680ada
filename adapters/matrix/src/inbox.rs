//! The inbox: commands written down on arrival and struck off once
//! answered, so that a restart answers what the bot received and had not
//! answered.

use std::time::Duration;

use matrix_sdk::Client;
use tokio::sync::Mutex;

/// How old a command sent while the bot was away may be and still be
/// answered when it starts again.
pub const CATCH_UP: Duration = Duration::from_secs(10 * 60);

/// A command as it arrived, written down before it is handled and struck
/// off once it is answered.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Received {
    /// The table's room.
    pub room: String,
    /// The event id (the command's delivery id).
    pub event: String,
    /// Who sent it.
    pub sender: String,
    /// The command's text (without the prefix).
    pub text: String,
    /// The direct room it came from, if it did.
    pub direct: Option<String>,
}

/// The commands received and not yet answered, kept in matrix-sdk's state
/// store (the bot's own SQLite store). matrix-sdk saves its sync position
/// as soon as a sync arrives, before the commands in it are answered: a bot
/// that died in between would never see them again. Written down on
/// arrival, they are answered after a restart.
pub struct Inbox {
    client: Client,
    /// Serialises the read-modify-write of the list.
    lock: Mutex<()>,
}

/// The inbox's key in the state store.
const INBOX_KEY: &[u8] = b"doko.inbox";

/// At most this many commands are kept unanswered (the oldest dropped).
const INBOX_KEPT: usize = 256;

impl Inbox {
    /// The inbox in `client`'s state store.
    pub fn new(client: &Client) -> Inbox {
        Inbox { client: client.clone(), lock: Mutex::new(()) }
    }

    async fn read(&self) -> Option<Vec<Received>> {
        match self.client.state_store().get_custom_value(INBOX_KEY).await {
            Ok(Some(v)) => Some(serde_json::from_slice(&v).unwrap_or_default()),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(error = %e, "reading the inbox failed");
                Some(Vec::new())
            }
        }
    }

    /// What was received and not answered; `None`: the bot never ran here.
    pub async fn load(&self) -> Option<Vec<Received>> {
        let _l = self.lock.lock().await;
        self.read().await
    }

    /// Writes the list (a warning when it fails).
    pub async fn save(&self, list: &[Received]) {
        let v = serde_json::to_vec(list).unwrap_or_default();
        if let Err(e) = self.client.state_store().set_custom_value_no_read(INBOX_KEY, v).await {
            tracing::warn!(error = %e, "writing the inbox failed");
        }
    }

    /// Writes a command down as it arrives (once; the oldest dropped beyond
    /// [`INBOX_KEPT`]).
    pub async fn add(&self, r: &Received) {
        let _l = self.lock.lock().await;
        let mut list = self.read().await.unwrap_or_default();
        if list.iter().any(|x| x.event == r.event) {
            return;
        }
        list.push(r.clone());
        let over = list.len().saturating_sub(INBOX_KEPT);
        list.drain(..over);
        self.save(&list).await;
    }

    /// Strikes an answered command off.
    pub async fn remove(&self, event: &str) {
        let _l = self.lock.lock().await;
        let mut list = self.read().await.unwrap_or_default();
        let before = list.len();
        list.retain(|x| x.event != event);
        if list.len() != before {
            self.save(&list).await;
        }
    }
}
