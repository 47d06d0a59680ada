//! The Matrix side's entry points: log in, catch up on what happened while
//! the bot was away, attach the event handlers and the table workers'
//! feeds, then sync until told to stop.

use std::sync::Arc;
use std::time::Duration;

use doko_bot::App;
use matrix_sdk::config::SyncSettings;
use tracing::{Instrument, info_span};

use crate::MatrixConfig;
use crate::inbox::{CATCH_UP, Inbox, Received};
use crate::state::Adapter;
use crate::verification::{Secured, secure};

pub use crate::error::AdapterError;
pub use crate::verification::RECOVERY_KEY_FILE;

/// Logs in (or restores the stored session), runs one sync, attaches the
/// handlers and serves until the process ends. `ready` is called once the
/// bot is listening (after the first sync).
pub async fn run(app: Arc<dyn App>, cfg: MatrixConfig, ready: impl FnOnce(&str)) -> Result<(), AdapterError> {
    let (_keep, stop) = tokio::sync::watch::channel(false);
    run_until(app, cfg, ready, stop).await
}

/// As [`run`], until `stop` says true: then the sync loop ends (the long
/// poll in flight is dropped; what was received is handled and stored) and
/// it returns.
pub async fn run_until(
    app: Arc<dyn App>,
    cfg: MatrixConfig,
    ready: impl FnOnce(&str),
    stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(), AdapterError> {
    let started_ms = now_ms();
    let client = crate::session::login(&cfg).await?;
    let me = client.user_id().ok_or(matrix_sdk::Error::AuthenticationRequired)?.to_owned();
    let device = client.device_id().map(|d| d.to_string()).unwrap_or_default();
    if let Ok(Some(own)) = client.encryption().get_own_device().await {
        tracing::info!(user = %me, device = %device, ed25519 = ?own.ed25519_key().map(|k| k.to_base64()), "matrix device");
    }
    // cross-signing and key backup before the first sync (a few requests,
    // once per account; nothing to do on later starts): the SDK backs up
    // room keys after every sync
    let mut secured = secure(&client, &cfg).instrument(info_span!("matrix_secure")).await;
    let inbox = Inbox::new(&client);
    let pending = inbox.load().await;
    let started_ms = match &pending {
        Some(_) => started_ms.saturating_sub(CATCH_UP.as_millis() as u64),
        None => {
            first_sync(&client, &mut secured, &inbox).await?;
            started_ms
        }
    };
    let adapter = Arc::new(Adapter::new(app, client.clone(), cfg, me.clone(), started_ms, inbox));
    adapter.listen();
    adapter.accept_waiting_invitations();
    adapter.feed_workers();
    ready(me.as_str());
    doko_bot::metrics::set_adapter("matrix", true);
    if let Some(pending) = pending {
        answer_pending(&adapter, pending).await;
    }
    crate::sync::sync_until(&client, &mut secured, stop).await;
    Ok(())
}

/// Milliseconds since the epoch, now.
fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// The very first start: one sync before any handler, so that whatever
/// happened while the bot was away is state, not commands (no long poll:
/// whatever arrives after this sync is handled), and an empty inbox.
///
/// On later starts there is no such sync: the commands sent while the bot
/// was away (up to [`CATCH_UP`] old) are answered when they arrive, and
/// those it had received but not answered when it stopped are answered from
/// its inbox (each once: the table remembers the event ids it handled).
async fn first_sync(client: &matrix_sdk::Client, secured: &mut Secured, inbox: &Inbox) -> Result<(), AdapterError> {
    let first = client.sync_once(SyncSettings::default().timeout(Duration::ZERO)).await?;
    tracing::info!(next_batch = %first.next_batch, "first sync done");
    secured.after_sync(client).await;
    inbox.save(&[]).await;
    Ok(())
}

/// Answers the commands received before the restart and not answered then.
async fn answer_pending(adapter: &Arc<Adapter>, pending: Vec<Received>) {
    if !pending.is_empty() {
        tracing::info!(commands = pending.len(), "answering the commands received before the restart");
    }
    for r in pending {
        adapter.replay(r).await;
    }
}
