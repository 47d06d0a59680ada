//! Running the adapter: log in, set up encryption, one sync before any
//! handler (or the inbox of a bot that ran before), the handlers and
//! workers, then one long poll after the other until the stop.

use std::sync::Arc;
use std::time::Duration;

use doko_bot::App;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::ruma::OwnedRoomId;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::member::StrippedRoomMemberEvent;
use matrix_sdk::ruma::events::room::message::OriginalSyncRoomMessageEvent;
use matrix_sdk::{Client, Room};
use tracing::{Instrument, info_span};

use crate::adapter::{Adapter, Job};
use crate::config::MatrixConfig;
use crate::encryption::{Secured, secure};
use crate::error::AdapterError;
use crate::inbox::{CATCH_UP, Inbox};
use crate::login::login;
use crate::rooms::{direct_of_two, now_ms};

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
    let client = login(&cfg).await?;
    let me = client.user_id().ok_or(matrix_sdk::Error::AuthenticationRequired)?.to_owned();
    let device = client.device_id().map(|d| d.to_string()).unwrap_or_default();
    if let Ok(Some(own)) = client.encryption().get_own_device().await {
        tracing::info!(user = %me, device = %device, ed25519 = ?own.ed25519_key().map(|k| k.to_base64()), "matrix device");
    }
    // one sync before any handler: whatever happened while we were away is
    // state, not commands
    // (no long poll: whatever arrives after this sync is handled)
    // ... unless the bot ran before: then the commands sent while it was
    // away (up to CATCH_UP old) are answered when they arrive, and those
    // it had received but not answered when it stopped are answered from
    // its inbox (each once: the table remembers the event ids it handled)
    // cross-signing and key backup before the first sync (a few requests,
    // once per account; nothing to do on later starts): the SDK backs up
    // room keys after every sync
    let mut secured = secure(&client, &cfg).instrument(info_span!("matrix_secure")).await;
    let inbox = Inbox::new(&client);
    let pending = inbox.load().await;
    let started_ms = match &pending {
        Some(_) => started_ms.saturating_sub(CATCH_UP.as_millis() as u64),
        None => {
            let first = client.sync_once(SyncSettings::default().timeout(Duration::ZERO)).await?;
            tracing::info!(next_batch = %first.next_batch, "first sync done");
            secured.after_sync(&client).await;
            inbox.save(&[]).await;
            started_ms
        }
    };
    let adapter = Arc::new(Adapter::new(app, &client, cfg, me.clone(), started_ms, inbox));
    attach(&adapter, &client);
    spawn_relayed(&adapter);
    spawn_turn_timer(&adapter);
    ready(me.as_str());
    doko_bot::metrics::set_adapter("matrix", true);
    if let Some(pending) = pending {
        if !pending.is_empty() {
            tracing::info!(commands = pending.len(), "answering the commands received before the restart");
        }
        for r in pending {
            adapter.replay(r).await;
        }
    }
    sync_until(&client, secured, stop).await
}

/// The handlers of invitations, messages and messages that cannot be
/// decrypted; and the invitations that arrived while we were away.
fn attach(adapter: &Arc<Adapter>, client: &Client) {
    {
        let a = adapter.clone();
        client.add_event_handler(move |ev: StrippedRoomMemberEvent, room: Room| {
            let a = a.clone();
            async move { a.on_invite(ev, room).await }
        });
    }
    {
        let a = adapter.clone();
        client.add_event_handler(move |ev: OriginalSyncRoomMessageEvent, room: Room| {
            let a = a.clone();
            async move { a.on_message(ev, room).await }
        });
    }
    {
        let a = adapter.clone();
        client.add_event_handler(move |ev: OriginalSyncRoomEncryptedEvent, room: Room| {
            let a = a.clone();
            async move { a.on_undecryptable(ev, room).await }
        });
    }
    for room in client.invited_rooms() {
        let a = adapter.clone();
        tokio::spawn(async move {
            if let Ok(inv) = room.invite_details().await {
                a.accept(room, inv.inviter_id.as_str()).await;
            }
        });
    }
}

/// What commands on other platforms owe these rooms, in each room's order
/// with its own commands.
fn spawn_relayed(adapter: &Arc<Adapter>) {
    if let Some(mut relayed) = adapter.app.relayed(doko_bot::Platform::Matrix) {
        let a = adapter.clone();
        tokio::spawn(async move {
            while let Some(out) = relayed.recv().await {
                let room = OwnedRoomId::try_from(out.channel.id.as_str()).ok().and_then(|id| a.client.get_room(&id));
                match room {
                    Some(room) => a.enqueue(&room, Job::Deliver(Box::new(out))).await,
                    None => tracing::warn!(room = %out.channel.id, "a shared table's room is not joined"),
                }
            }
        });
    }
}

/// The turn timer for every table room.
fn spawn_turn_timer(adapter: &Arc<Adapter>) {
    let a = adapter.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            every.tick().await;
            for room in a.client.joined_rooms() {
                if !direct_of_two(&room).await {
                    a.enqueue(&room, Job::Tick).await;
                }
            }
        }
    });
}

/// One long poll after the other, with no pause between them, until
/// `stop`: the SDK's own `sync` loop sleeps a second before a /sync that
/// follows the last one within a second, which in a busy room (the bot's
/// own messages end each long poll early) delays nearly every command;
/// back off only on errors.
async fn sync_until(
    client: &Client,
    mut secured: Secured,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(), AdapterError> {
    let settings = SyncSettings::default().timeout(Duration::from_secs(30));
    let mut backoff = Duration::from_secs(1);
    loop {
        let synced = tokio::select! {
            r = client.sync_once(settings.clone()) => r,
            _ = doko_bot::stopped(&mut stop) => {
                tracing::info!("the Matrix sync stops");
                doko_bot::metrics::set_adapter("matrix", false);
                return Ok(());
            }
        };
        match synced {
            Ok(_) => {
                backoff = Duration::from_secs(1);
                doko_bot::metrics::set_adapter("matrix", true);
                secured.after_sync(client).await;
            }
            Err(e) => {
                doko_bot::metrics::set_adapter("matrix", false);
                tracing::warn!(error = %e, "sync failed; retrying in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}
