//! The Matrix side: login, sync, event handlers, one worker per table, and
//! sending (notices, edits of the table message, direct rooms, card
//! pictures).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use doko_bot::ids::ServerId;
use doko_bot::{
    Actor, App, ChannelId, Input, Kind, Lang, Notice, Picture, Platform, Private, TableMessage, Transport,
    TransportError, UserId, deliver,
};
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::member::{MembershipState, StrippedRoomMemberEvent};
use matrix_sdk::ruma::events::room::message::{
    MessageType, OriginalSyncRoomMessageEvent, Relation, ReplacementMetadata, RoomMessageEventContent,
    TextMessageEventContent,
};
use matrix_sdk::ruma::events::room::power_levels::UserPowerLevel;
use matrix_sdk::ruma::{Int, OwnedEventId, OwnedRoomId, OwnedUserId, RoomId, UInt};
use matrix_sdk::{Client, Room, RoomState, SessionMeta, SessionTokens};
use tokio::sync::{Mutex, mpsc};
use tracing::{Instrument, info_span};

use crate::{Auth, MatrixConfig, Route};

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

/// One unit of work for a table's worker.
enum Job {
    /// A command from a person.
    Command {
        actor: Actor,
        text: String,
        delivery: String,
        /// The direct room it came from (else the table's room).
        from_direct: Option<Box<Room>>,
        /// The command as written down on arrival (see [`Received`]).
        received: Box<Received>,
    },
    /// The turn timer.
    Tick,
    /// What a command on another platform owes this room (a table shared
    /// across platforms).
    Deliver(Box<doko_bot::Outbox>),
}

/// The adapter: the service plus what it needs of Matrix.
struct Adapter {
    app: Arc<dyn App>,
    client: Client,
    cfg: MatrixConfig,
    me: OwnedUserId,
    /// Milliseconds since the epoch: older events are ignored (the start,
    /// or, catching up, the oldest command still answered).
    started_ms: u64,
    /// The commands received and not yet answered (see [`Received`]).
    inbox: Inbox,
    /// One queue per table room, so a table's commands run in order.
    workers: Mutex<HashMap<OwnedRoomId, mpsc::UnboundedSender<Job>>>,
    /// Direct rooms by user, so concurrent tables do not open two.
    dms: Mutex<HashMap<OwnedUserId, OwnedRoomId>>,
    /// Direct rooms this process opened.
    created: Mutex<std::collections::HashSet<OwnedRoomId>>,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

fn channel(room: &RoomId) -> ChannelId {
    ChannelId::new(Platform::Matrix, room.as_str())
}

fn user(u: &matrix_sdk::ruma::UserId) -> UserId {
    UserId::new(Platform::Matrix, u.as_str())
}

fn session_error(path: &Path, why: impl std::fmt::Display) -> AdapterError {
    AdapterError::Session { path: path.display().to_string(), why: why.to_string() }
}

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
    mut stop: tokio::sync::watch::Receiver<bool>,
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
    let adapter = Arc::new(Adapter {
        app,
        client: client.clone(),
        cfg,
        me: me.clone(),
        started_ms,
        inbox,
        workers: Mutex::new(HashMap::new()),
        dms: Mutex::new(HashMap::new()),
        created: Mutex::new(std::collections::HashSet::new()),
    });
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
    // invitations that arrived while we were away
    for room in client.invited_rooms() {
        let a = adapter.clone();
        tokio::spawn(async move {
            if let Ok(inv) = room.invite_details().await {
                a.accept(room, inv.inviter_id.as_str()).await;
            }
        });
    }
    // what commands on other platforms owe these rooms, in each room's
    // order with its own commands
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
    // the turn timer for every table room
    {
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
    ready(me.as_str());
    doko_bot::metrics::set_adapter("matrix", true);
    // one long poll after the other, with no pause between them: the SDK's
    // own `sync` loop sleeps a second before a /sync that follows the last
    // one within a second, which in a busy room (the bot's own messages end
    // each long poll early) delays nearly every command; back off only on
    // errors
    let settings = SyncSettings::default().timeout(Duration::from_secs(30));
    let mut backoff = Duration::from_secs(1);
    if let Some(pending) = pending {
        if !pending.is_empty() {
            tracing::info!(commands = pending.len(), "answering the commands received before the restart");
        }
        for r in pending {
            adapter.replay(r).await;
        }
    }
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
                secured.after_sync(&client).await;
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

/// The file in the bot's data directory that holds its account's recovery
/// key (readable by the bot's user only).
pub const RECOVERY_KEY_FILE: &str = "recovery-key";

/// What a careful Matrix client sets up once for its account, so that
/// nobody has to act on it: cross-signing (the bot's device signed by the
/// bot's own identity: clients show its messages without the warning for a
/// device its owner has not verified) and key backup with recovery (the
/// keys of its rooms kept on the homeserver, encrypted; secret storage
/// holding the backup and cross-signing keys under a recovery key, written
/// to [`RECOVERY_KEY_FILE`]). A later start of the same device finds it all
/// set up; a new device (its stores lost) recovers the secrets with that
/// file. Only what an operator must act on is a WARN.
async fn secure(client: &Client, cfg: &MatrixConfig) -> Secured {
    use matrix_sdk::encryption::recovery::RecoveryState;
    let enc = client.encryption();
    enc.wait_for_e2ee_initialization_tasks().await;
    let path = cfg.data.join(RECOVERY_KEY_FILE);
    let key = std::fs::read_to_string(&path).ok().map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
    let recovery = enc.recovery();
    if recovery.state() == RecoveryState::Incomplete {
        // secret storage exists, this device lacks its secrets: a new device
        return match &key {
            Some(k) => match recovery.recover(k).await {
                Ok(()) => {
                    tracing::info!("recovered the account's secrets with the recovery key");
                    Secured::SignAfterUpload
                }
                Err(e) => {
                    tracing::warn!(error = %e, file = %path.display(),
                        "the recovery key does not open the account's secret storage: this device stays \
                         unverified and its room keys are not backed up");
                    Secured::Done
                }
            },
            None => {
                tracing::warn!(file = %path.display(),
                    "the bot's account has secret storage but its recovery key is not in the file: this \
                     device stays unverified and its room keys are not backed up; put the recovery key there");
                Secured::Done
            }
        };
    }
    let status = enc.cross_signing_status().await;
    if !status.is_some_and(|s| s.has_master && s.has_self_signing && s.has_user_signing)
        && let Err(e) = cross_signing(client, cfg).await
    {
        tracing::warn!(error = %e, "could not set up cross-signing: clients will mark the bot's messages as sent by an unverified device");
        return Secured::Done;
    }
    match recovery.state() {
        RecoveryState::Enabled => tracing::info!("cross-signing and key backup are set up"),
        RecoveryState::Disabled => match recovery.enable().await {
            Ok(k) => match write_private(&path, &k) {
                Ok(()) => tracing::info!(file = %path.display(),
                    "set up cross-signing and key backup; the recovery key is in the file (keep a copy)"),
                Err(e) => tracing::warn!(error = %e, file = %path.display(),
                    "set up key backup but could not write its recovery key"),
            },
            Err(e) => tracing::warn!(error = %e, "could not set up key backup and recovery"),
        },
        other => tracing::debug!(state = ?other, "recovery left as it is"),
    }
    Secured::Done
}

/// What is left to do once the device keys are on the homeserver.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Secured {
    /// Nothing.
    Done,
    /// The device was recovered before its keys were uploaded (the first
    /// sync uploads them): its signature by the account's identity is
    /// uploaded again after that sync.
    SignAfterUpload,
}

impl Secured {
    /// After a sync (which uploads the device keys): what is left, done once.
    async fn after_sync(&mut self, client: &Client) {
        if std::mem::replace(self, Secured::Done) == Secured::SignAfterUpload {
            sign_own_device(client).instrument(info_span!("matrix_secure")).await;
        }
    }
}

/// Signs the bot's own device with the account's (recovered) self-signing
/// key, once its keys are on the homeserver.
async fn sign_own_device(client: &Client) {
    match client.encryption().get_own_device().await {
        Ok(Some(device)) => match device.verify().await {
            Ok(()) => tracing::info!("the bot's device is signed by its account's identity"),
            Err(e) => {
                tracing::warn!(error = %e, "could not sign the bot's device: clients will mark its messages as sent by an unverified device")
            }
        },
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "could not read the bot's own device"),
    }
}

/// Cross-signing for the bot's account (its device keys uploaded first):
/// the first upload needs no authentication on current homeservers, else
/// the password (a bot started with an access token cannot give it). No
/// key query before it: the device keys of a new device are not on the
/// homeserver yet. An identity made elsewhere without secret storage (so
/// without a way for this device to get its keys) is replaced.
async fn cross_signing(client: &Client, cfg: &MatrixConfig) -> Result<(), matrix_sdk::Error> {
    use matrix_sdk::ruma::api::client::uiaa;
    let enc = client.encryption();
    let Err(e) = enc.bootstrap_cross_signing(None).await else {
        return Ok(());
    };
    match (e.as_uiaa_response(), &cfg.auth) {
        (Some(info), Auth::Password(pw)) => {
            let id = uiaa::UserIdentifier::Matrix(uiaa::MatrixUserIdentifier::new(cfg.user.clone()));
            let mut password = uiaa::Password::new(id, pw.clone());
            password.session = info.session.clone();
            enc.bootstrap_cross_signing(Some(uiaa::AuthData::Password(password))).await
        }
        _ => Err(e),
    }
}

/// Builds the client on the SQLite stores and logs in once; later starts
/// reuse the stored session (and so the same device and crypto keys).
async fn login(cfg: &MatrixConfig) -> Result<Client, AdapterError> {
    let store = cfg.data.join("store");
    let session_file = cfg.data.join("session.json");
    // the session (an access token) and the crypto stores: the bot's user only
    doko_bot::create_private_dir(&cfg.data).map_err(|e| session_error(&cfg.data, e))?;
    make_private(&cfg.data).map_err(|e| session_error(&cfg.data, e))?;
    let stored = match std::fs::read_to_string(&session_file) {
        Ok(text) => Some(serde_json::from_str::<MatrixSession>(&text).map_err(|e| session_error(&session_file, e))?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(session_error(&session_file, e)),
    };
    if let Some(session) = stored {
        let client = build(cfg, &store).await?;
        client.restore_session(session).await?;
        match client.whoami().await {
            Ok(_) => {
                tracing::info!("restored the stored Matrix session");
                return Ok(client);
            }
            Err(e) if refused(&e) => {
                // logged out elsewhere: start over as a new device
                tracing::warn!("the stored Matrix session was refused; logging in again (a new device)");
                drop(client);
                std::fs::remove_file(&session_file).map_err(|e| session_error(&session_file, e))?;
            }
            Err(e) => {
                // the homeserver may be down: keep the session, sync retries
                tracing::warn!(error = %e, "could not check the stored session; going on with it");
                return Ok(client);
            }
        }
    }
    if store.exists() {
        // stores of a device we no longer have the session for
        std::fs::remove_dir_all(&store).map_err(|e| session_error(&store, e))?;
    }
    let client = build(cfg, &store).await?;
    match &cfg.auth {
        Auth::Password(pw) => {
            client.matrix_auth().login_username(&cfg.user, pw).initial_device_display_name("doko bot").send().await?;
        }
        Auth::Token { token, device } => {
            let session = MatrixSession {
                meta: SessionMeta { user_id: cfg.user.as_str().try_into()?, device_id: device.as_str().into() },
                tokens: SessionTokens { access_token: token.clone(), refresh_token: None },
            };
            client.restore_session(session).await?;
            // check the token before keeping it
            client.whoami().await?;
        }
    }
    let session = client.matrix_auth().session().ok_or(matrix_sdk::Error::AuthenticationRequired)?;
    let text = serde_json::to_string(&session).map_err(|e| session_error(&session_file, e))?;
    write_private(&session_file, &text).map_err(|e| session_error(&session_file, e))?;
    tracing::info!("logged in; session stored");
    Ok(client)
}

async fn build(cfg: &MatrixConfig, store: &Path) -> Result<Client, AdapterError> {
    doko_bot::create_private_dir(store).map_err(|e| session_error(store, e))?;
    let client = Client::builder()
        .homeserver_url(&cfg.homeserver)
        .sqlite_store(store, cfg.store_passphrase.as_deref())
        .build()
        .await?;
    make_private(store).map_err(|e| session_error(store, e))?;
    Ok(client)
}

/// Makes the bot's own directory readable by its user only (a directory
/// an earlier version created readable by others included).
fn make_private(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    let _ = dir;
    Ok(())
}

/// The homeserver does not know the access token (logged out, deleted).
fn refused(e: &matrix_sdk::HttpError) -> bool {
    use matrix_sdk::ruma::api::error::ErrorKind;
    matches!(e.client_api_error_kind(), Some(ErrorKind::UnknownToken { .. } | ErrorKind::MissingToken))
}

/// Writes a file only its owner can read (it holds the access token).
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

impl Adapter {
    async fn on_invite(self: Arc<Self>, ev: StrippedRoomMemberEvent, room: Room) {
        if ev.state_key != self.me || ev.content.membership != MembershipState::Invite {
            return;
        }
        tokio::spawn(async move { self.accept(room, ev.sender.as_str()).await });
    }

    /// Joins an invited room when the allow-list lets us, else declines.
    async fn accept(&self, room: Room, inviter: &str) {
        let span = info_span!("matrix_invite", room = %room.room_id(), inviter);
        async {
            if !crate::invite_allowed(&self.cfg.allow, self.me.as_str(), room.room_id().as_str(), inviter) {
                tracing::info!("invitation declined (not on the allow-list)");
                let _ = room.leave().await;
                return;
            }
            // a fresh room can refuse the join for a moment: retry
            let mut wait = Duration::from_millis(500);
            for _ in 0..8 {
                if room.state() == RoomState::Joined {
                    return;
                }
                // (joining an invitation marked direct marks the room direct)
                match room.join().await {
                    Ok(()) => {
                        tracing::info!("joined");
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "join failed; retrying");
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(Duration::from_secs(30));
                    }
                }
            }
        }
        .instrument(span)
        .await
    }

    async fn on_message(self: Arc<Self>, ev: OriginalSyncRoomMessageEvent, room: Room) {
        if ev.sender == self.me || room.state() != RoomState::Joined {
            return;
        }
        if u64::from(ev.origin_server_ts.0) < self.started_ms {
            tracing::debug!(event = %ev.event_id, "older than the start: ignored");
            return;
        }
        if matches!(ev.content.relates_to, Some(Relation::Replacement(_))) {
            return; // edits are not new commands
        }
        let MessageType::Text(text) = &ev.content.msgtype else { return };
        let body = text.body.clone();
        let span = info_span!("matrix_message", room = %room.room_id(), sender = %ev.sender, event = %ev.event_id);
        async {
            if !self.is_private(&room, &ev.sender).await {
                let Some(cmd) = crate::command_text(&self.cfg.prefix, &body) else { return };
                let actor = self.actor(&room, &ev.sender).await;
                let received = Received {
                    room: room.room_id().to_string(),
                    event: ev.event_id.to_string(),
                    sender: ev.sender.to_string(),
                    text: cmd.to_string(),
                    direct: None,
                };
                self.inbox.add(&received).await;
                let job = Job::Command {
                    actor,
                    text: cmd.to_string(),
                    delivery: ev.event_id.to_string(),
                    from_direct: None,
                    received: Box::new(received),
                };
                self.enqueue(&room, job).await;
                return;
            }
            // a direct room: the command goes to the person's table
            let cmd = crate::command_text(&self.cfg.prefix, &body).unwrap_or(body.trim()).to_string();
            let tables = self.tables_of(&ev.sender).await;
            match crate::route(tables.len(), &cmd) {
                Route::At(i, text) => {
                    let table_room = tables[i].0.clone();
                    let actor = self.actor(&table_room, &ev.sender).await.from_direct();
                    let received = Received {
                        room: table_room.room_id().to_string(),
                        event: ev.event_id.to_string(),
                        sender: ev.sender.to_string(),
                        text: text.clone(),
                        direct: Some(room.room_id().to_string()),
                    };
                    self.inbox.add(&received).await;
                    let job = Job::Command {
                        actor,
                        text,
                        delivery: ev.event_id.to_string(),
                        from_direct: Some(Box::new(room.clone())),
                        received: Box::new(received),
                    };
                    self.enqueue(&table_room, job).await;
                }
                Route::NoTable => {
                    self.send_notice(&room, None, &crate::no_table(&self.cfg.prefix), false).await;
                }
                Route::Ask => {
                    let lang = tables.first().map(|t| t.2).unwrap_or_default();
                    let names: Vec<String> = tables.iter().map(|t| t.1.clone()).collect();
                    self.send_notice(&room, None, &crate::ask_which(lang, &names), false).await;
                }
            }
        }
        .instrument(span)
        .await
    }

    /// A message that stayed encrypted (no keys): in a direct room the
    /// person is told to send it again, instead of silence; in a group room
    /// it may not have been for us, so it is only logged.
    async fn on_undecryptable(self: Arc<Self>, ev: OriginalSyncRoomEncryptedEvent, room: Room) {
        if ev.sender == self.me || u64::from(ev.origin_server_ts.0) < self.started_ms {
            return;
        }
        tracing::warn!(room = %room.room_id(), sender = %ev.sender, event = %ev.event_id, "could not decrypt a message");
        if self.is_private(&room, &ev.sender).await {
            let text = crate::both(|l| doko_bot::tr!(l, "undecryptable"));
            self.send_notice(&room, None, &text, false).await;
        }
    }

    /// A direct room between the bot and this person only (marked direct,
    /// no third member); anything else is a group room, where nothing
    /// private is ever sent.
    async fn is_private(&self, room: &Room, u: &matrix_sdk::ruma::UserId) -> bool {
        if room.state() != RoomState::Joined || !room.is_direct().await.unwrap_or(false) {
            return false;
        }
        let members = active_members(room).await;
        if self.created.lock().await.contains(room.room_id()) && members <= 2 {
            return true; // opened by us for this person; members may lag a sync
        }
        members == 2 && member_present(room, u).await
    }

    /// The actor: name from the room's member list, admin from power
    /// levels; in a room of a space, that space (its admin from the
    /// space's power levels).
    async fn actor(&self, room: &Room, sender: &matrix_sdk::ruma::UserId) -> Actor {
        let name = match room.get_member_no_sync(sender).await {
            Ok(Some(m)) => m.name().to_string(),
            _ => sender.localpart().to_string(),
        };
        let actor = Actor::new(user(sender), name, self.is_admin(room, sender).await);
        match self.space_of(room).await {
            Some(space) => {
                let admin = self.is_admin(&space, sender).await;
                actor.in_server(ServerId::new(Platform::Matrix, space.room_id().to_string()), admin)
            }
            // a direct room tells nothing of a table's space
            None if direct_of_two(room).await => actor,
            None => actor.in_no_server(),
        }
    }

    /// The space a room belongs to: a space the room names as its parent
    /// (`m.space.parent`) that names the room as its child in turn
    /// (`m.space.child`, the spec's reciprocal relationship), which the
    /// bot has joined (so it can read who its admins are). A room's claim
    /// alone is not enough: anyone who may change a room's state could
    /// name any space. The first such space by id, when there are several.
    async fn space_of(&self, room: &Room) -> Option<Room> {
        use matrix_sdk::deserialized_responses::SyncOrStrippedState;
        use matrix_sdk::ruma::events::SyncStateEvent;
        use matrix_sdk::ruma::events::space::child::SpaceChildEventContent;
        use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
        let parents = room.get_state_events_static::<SpaceParentEventContent>().await.ok()?;
        let mut ids: Vec<OwnedRoomId> = parents
            .into_iter()
            .filter_map(|e| match e.deserialize() {
                Ok(SyncOrStrippedState::Sync(SyncStateEvent::Original(e))) if !e.content.via.is_empty() => {
                    Some(e.state_key)
                }
                _ => None,
            })
            .collect();
        ids.sort();
        for id in ids {
            let Some(space) = self.client.get_room(&id) else { continue };
            if space.state() != RoomState::Joined {
                continue;
            }
            let child = space.get_state_event_static_for_key::<SpaceChildEventContent, _>(room.room_id()).await;
            let ok = match child.ok().flatten().map(|raw| raw.deserialize()) {
                Some(Ok(SyncOrStrippedState::Sync(SyncStateEvent::Original(e)))) => !e.content.via.is_empty(),
                _ => false,
            };
            if ok {
                return Some(space);
            }
        }
        None
    }

    /// A member whose power level is at least the level for changing room
    /// state (or the configured level); creators in room version 12.
    async fn is_admin(&self, room: &Room, sender: &matrix_sdk::ruma::UserId) -> bool {
        // (a room without a power-levels event: the spec's defaults, where
        // the creator has 100 and everyone else 0)
        let pl = room.power_levels_or_default().await;
        let need = match self.cfg.admin_level {
            Some(l) => Int::new_saturating(l),
            None => pl.state_default,
        };
        pl.for_user(sender) >= UserPowerLevel::Int(need)
    }

    /// The table rooms where this person holds a seat: room, name, language.
    async fn tables_of(&self, sender: &matrix_sdk::ruma::UserId) -> Vec<(Room, String, Lang)> {
        let u = user(sender);
        let mut out = Vec::new();
        let mut rooms = self.client.joined_rooms();
        rooms.sort_by(|a, b| a.room_id().cmp(b.room_id()));
        for room in rooms {
            if direct_of_two(&room).await {
                continue;
            }
            if let Some(lang) = self.app.seated(&channel(room.room_id()), &u).await {
                let name = room_name(&room).await;
                out.push((room, name, lang));
            }
        }
        out
    }

    /// Queues a job for a table room's worker (started on first use).
    async fn enqueue(self: &Arc<Self>, room: &Room, mut job: Job) {
        let mut workers = self.workers.lock().await;
        let id = room.room_id().to_owned();
        if let Some(tx) = workers.get(&id) {
            match tx.send(job) {
                Ok(()) => return,
                Err(back) => job = back.0,
            }
        }
        let (tx, mut rx) = mpsc::unbounded_channel::<Job>();
        let a = self.clone();
        let r = room.clone();
        tokio::spawn(async move {
            while let Some(job) = rx.recv().await {
                // each job in its own task: a panic ends that job only, and
                // the room's later commands still run, in order
                let (a2, r2) = (a.clone(), r.clone());
                if let Err(e) = tokio::spawn(async move { a2.work(&r2, job).await }).await {
                    tracing::error!(error = %e, room = %r.room_id(), "a command failed");
                }
            }
        });
        let _ = tx.send(job);
        workers.insert(id, tx);
    }

    async fn work(&self, room: &Room, job: Job) {
        let received = match &job {
            Job::Command { received, .. } => Some(received.event.clone()),
            Job::Tick | Job::Deliver(_) => None,
        };
        self.answer(room, job).await;
        if let Some(event) = received {
            self.inbox.remove(&event).await;
        }
    }

    /// Answers a command received before a restart (written down in the
    /// inbox on arrival, not answered then).
    async fn replay(self: &Arc<Self>, r: Received) {
        let (Ok(room_id), Ok(sender)) =
            (OwnedRoomId::try_from(r.room.as_str()), OwnedUserId::try_from(r.sender.as_str()))
        else {
            self.inbox.remove(&r.event).await;
            return;
        };
        let Some(room) = self.client.get_room(&room_id) else {
            self.inbox.remove(&r.event).await;
            return;
        };
        let direct =
            r.direct.as_deref().and_then(|d| OwnedRoomId::try_from(d).ok()).and_then(|d| self.client.get_room(&d));
        let mut actor = self.actor(&room, &sender).await;
        if direct.is_some() {
            actor = actor.from_direct();
        }
        let job = Job::Command {
            actor,
            text: r.text.clone(),
            delivery: r.event.clone(),
            from_direct: direct.map(Box::new),
            received: Box::new(r),
        };
        self.enqueue(&room, job).await;
    }

    async fn answer(&self, room: &Room, job: Job) {
        let ch = channel(room.room_id());
        let span = info_span!("matrix_table", room = %room.room_id());
        async {
            let t0 = std::time::Instant::now();
            let (out, actor, from_direct) = match job {
                Job::Command { actor, text, delivery, from_direct, received: _ } => {
                    let out = self.app.handle(&ch, &actor, Input::Text(text), Some(&delivery)).await;
                    (out, Some(actor), from_direct)
                }
                Job::Tick => (self.app.tick(&ch).await, None, None),
                Job::Deliver(out) => (*out, None, None),
            };
            if (out.is_empty() && out.owed.is_empty()) || out.duplicate {
                // nothing to say, or a command answered before (caught up
                // on again after a restart: answered once)
                return;
            }
            let handled = t0.elapsed();
            let name = room_name(room).await;
            let transport =
                RoomTransport { adapter: self, room, name, actor: actor.as_ref(), from_direct: from_direct.as_deref() };
            let sent = deliver(&*self.app, &transport, &out).await;
            tracing::debug!(
                handled_ms = handled.as_millis() as u64,
                answered_ms = t0.elapsed().as_millis() as u64,
                failed = sent.failed,
                "job done"
            );
        }
        .instrument(span)
        .await
    }

    async fn send_notice(&self, room: &Room, heading: Option<&str>, text: &str, code: bool) {
        if let Err(e) = try_notice(room, heading, text, code).await {
            tracing::warn!(error = %e, room = %room.room_id(), "sending failed");
        }
    }

    /// The person's direct room with the bot: an existing one they are in
    /// (or invited to), else a new one (encrypted, marked direct).
    async fn direct_room(&self, u: &matrix_sdk::ruma::UserId) -> Option<Room> {
        let mut dms = self.dms.lock().await;
        let known = dms.get(u).and_then(|id| self.client.get_room(id)).filter(|r| r.state() == RoomState::Joined);
        let mut found = None;
        if let Some(r) = known {
            match member_state(&r, u).await {
                // just opened by us: the invitation may not have synced yet
                None if self.created.lock().await.contains(r.room_id()) => return Some(r),
                Some(MembershipState::Join | MembershipState::Invite) if active_members(&r).await <= 2 => {
                    return Some(r);
                }
                // they left or declined: do not invite them again with every
                // hand; they can invite the bot to a direct room themselves
                Some(MembershipState::Leave | MembershipState::Ban) => found = Some(None),
                _ => {}
            }
        }
        for r in self.client.get_dm_rooms(u) {
            if active_members(&r).await <= 2 && member_present(&r, u).await {
                found = Some(Some(r));
                break;
            }
        }
        let found = match found {
            Some(Some(r)) => Some(r),
            Some(None) => return None,
            None => None,
        };
        let room = match found {
            Some(r) => r,
            None => match self.client.create_dm(u).await {
                Ok(r) => {
                    tracing::info!(user = %u, room = %r.room_id(), "opened a direct room");
                    self.created.lock().await.insert(r.room_id().to_owned());
                    r
                }
                Err(e) => {
                    tracing::warn!(error = %e, user = %u, "could not open a direct room");
                    return None;
                }
            },
        };
        dms.insert(u.to_owned(), room.room_id().to_owned());
        Some(room)
    }
}

/// How old a command sent while the bot was away may be and still be
/// answered when it starts again.
const CATCH_UP: Duration = Duration::from_secs(10 * 60);

/// A command as it arrived, written down before it is handled and struck
/// off once it is answered.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Received {
    /// The table's room.
    room: String,
    /// The event id (the command's delivery id).
    event: String,
    sender: String,
    /// The command's text (without the prefix).
    text: String,
    /// The direct room it came from, if it did.
    direct: Option<String>,
}

/// The commands received and not yet answered, kept in matrix-sdk's state
/// store (the bot's own SQLite store). matrix-sdk saves its sync position
/// as soon as a sync arrives, before the commands in it are answered: a bot
/// that died in between would never see them again. Written down on
/// arrival, they are answered after a restart.
struct Inbox {
    client: Client,
    /// Serialises the read-modify-write of the list.
    lock: Mutex<()>,
}

/// The inbox's key in the state store.
const INBOX_KEY: &[u8] = b"doko.inbox";

/// At most this many commands are kept unanswered (the oldest dropped).
const INBOX_KEPT: usize = 256;

impl Inbox {
    fn new(client: &Client) -> Inbox {
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
    async fn load(&self) -> Option<Vec<Received>> {
        let _l = self.lock.lock().await;
        self.read().await
    }

    async fn save(&self, list: &[Received]) {
        let v = serde_json::to_vec(list).unwrap_or_default();
        if let Err(e) = self.client.state_store().set_custom_value_no_read(INBOX_KEY, v).await {
            tracing::warn!(error = %e, "writing the inbox failed");
        }
    }

    async fn add(&self, r: &Received) {
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

    async fn remove(&self, event: &str) {
        let _l = self.lock.lock().await;
        let mut list = self.read().await.unwrap_or_default();
        let before = list.len();
        list.retain(|x| x.event != event);
        if list.len() != before {
            self.save(&list).await;
        }
    }
}

/// Marked direct, with at most the bot and one person: not a table room.
async fn direct_of_two(room: &Room) -> bool {
    room.is_direct().await.unwrap_or(false) && active_members(room).await <= 2
}

/// Joined and invited members, from the stored member list (the sync
/// summary's counts are not always sent).
async fn active_members(room: &Room) -> usize {
    room.members_no_sync(matrix_sdk::RoomMemberships::ACTIVE).await.map(|m| m.len()).unwrap_or(usize::MAX)
}

async fn member_state(room: &Room, u: &matrix_sdk::ruma::UserId) -> Option<MembershipState> {
    match room.get_member_no_sync(u).await {
        Ok(Some(m)) => Some(m.membership().clone()),
        _ => None,
    }
}

async fn member_present(room: &Room, u: &matrix_sdk::ruma::UserId) -> bool {
    matches!(member_state(room, u).await, Some(MembershipState::Join | MembershipState::Invite))
}

async fn room_name(room: &Room) -> String {
    match room.display_name().await {
        Ok(n) => n.to_string(),
        Err(_) => room.room_id().to_string(),
    }
}

async fn try_notice(room: &Room, heading: Option<&str>, text: &str, code: bool) -> Result<(), TransportError> {
    keyed_notice(room, heading, text, code, None).await
}

/// The transaction id of an owed message (see `doko_bot::Owed`): the same
/// at every re-send, so the homeserver keeps one copy (it drops a repeated
/// transaction id of the same device). `kind` tells a post from an edit.
fn txn(key: Option<&String>, kind: &str) -> Option<matrix_sdk::ruma::OwnedTransactionId> {
    key.map(|k| format!("doko.{k}.{kind}").into())
}

/// Sends a message, with a transaction id when it is owed.
async fn send_keyed(
    room: &Room,
    content: RoomMessageEventContent,
    txn_id: Option<matrix_sdk::ruma::OwnedTransactionId>,
) -> Result<OwnedEventId, matrix_sdk::Error> {
    let send = room.send(content);
    let send = match txn_id {
        Some(t) => send.with_transaction_id(t),
        None => send,
    };
    send.await.map(|r| r.response.event_id)
}

async fn keyed_notice(
    room: &Room,
    heading: Option<&str>,
    text: &str,
    code: bool,
    key: Option<&String>,
) -> Result<(), TransportError> {
    let content = RoomMessageEventContent::notice_html(crate::plain(heading, text), crate::html(heading, text, code));
    send_keyed(room, content, txn(key, "n")).await.map(|_| ()).map_err(|e| TransportError::Platform(e.to_string()))
}

/// The file name of the picture of a whole deal (every hand as dealt), the
/// only picture sent into the table's room.
const DEAL_PICTURE: &str = "deal.png";

/// The width and height of a PNG (its `IHDR` chunk), if it is one.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    let ihdr = png.get(12..24).filter(|h| h.starts_with(b"IHDR"))?;
    let be = |b: &[u8]| b.try_into().ok().map(u32::from_be_bytes);
    Some((be(&ihdr[4..8])?, be(&ihdr[8..12])?))
}

/// Sends a card picture as an `m.image` (after the message that says the
/// same in words): in an encrypted room the SDK encrypts the file before
/// uploading it and sends its key inside the encrypted event (`file`, not
/// `url`). Its body is the picture's alt text (a caption, with the file
/// name beside it), for screen readers; with the picture's size. An owed
/// message's picture has a transaction id made from its key, as its text
/// has (a re-send uploads the file again, the homeserver keeps one event).
/// Logged by name, size and room only: never the cards.
async fn send_picture(room: &Room, picture: &Picture, key: Option<&String>) -> Result<(), matrix_sdk::Error> {
    let mut info = BaseImageInfo { size: UInt::new(picture.png.len() as u64), ..Default::default() };
    if let Some((w, h)) = png_size(&picture.png) {
        info.width = Some(UInt::from(w));
        info.height = Some(UInt::from(h));
    }
    let mut config = AttachmentConfig::new()
        .info(AttachmentInfo::Image(info))
        .caption(Some(TextMessageEventContent::plain(picture.alt.clone())));
    if let Some(t) = txn(key, "i") {
        config = config.txn_id(t);
    }
    // (the type of `image/png` is the `mime` crate's, inferred here)
    room.send_attachment(
        picture.name.clone(),
        &"image/png".parse().expect("a MIME type"),
        picture.png.to_vec(),
        config,
    )
    .await?;
    tracing::debug!(picture = %picture.name, bytes = picture.png.len(), room = %room.room_id(), "sent a card picture");
    Ok(())
}

/// A table room while one job's answer is delivered: public messages into
/// the room (the table message edited with `m.replace`), hands always into
/// the person's direct room, the actor's other private answers where the
/// command came from: into the direct room while the actor holds cards (a
/// refusal can name a held card).
///
/// Card pictures (tables that show cards as pictures), each an `m.image`
/// after the text that says the same: a hand's picture follows its text in
/// the direct room, never anywhere else. Into the table's room goes only
/// the deal's picture (`deal.png`, every hand as dealt, once the deal is
/// over), after the result's notice. The trick's picture (`trick.png`, carried by the table
/// message) is not sent on Matrix: the table message is edited in place
/// with `m.replace`, which cannot swap a picture, and a new picture per
/// card would flood the room; the table's text shows the trick.
struct RoomTransport<'a> {
    adapter: &'a Adapter,
    room: &'a Room,
    /// The room's name, heading everything sent to a direct room.
    name: String,
    actor: Option<&'a Actor>,
    /// The direct room the command came from.
    from_direct: Option<&'a Room>,
}

#[async_trait]
impl Transport for RoomTransport<'_> {
    async fn post_table(&self, _: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        let text = msg.text();
        let content = RoomMessageEventContent::notice_html(crate::plain(None, &text), crate::html(None, &text, false));
        let sent = send_keyed(self.room, content, txn(msg.key.as_ref(), "p"))
            .await
            .map_err(|e| TransportError::Platform(e.to_string()))?;
        Ok(sent.to_string())
    }

    async fn edit_table(&self, _: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        let id = OwnedEventId::try_from(id).map_err(|_| TransportError::EditFailed)?;
        let text = msg.text();
        let content = RoomMessageEventContent::notice_html(crate::plain(None, &text), crate::html(None, &text, false));
        let edit = content.make_replacement(ReplacementMetadata::new(id, None));
        send_keyed(self.room, edit, txn(msg.key.as_ref(), "e")).await.map_err(|_| TransportError::EditFailed)?;
        Ok(())
    }

    async fn notice(&self, _: &ChannelId, notice: &Notice) -> Result<(), TransportError> {
        match notice.mention.as_ref().and_then(|u| OwnedUserId::try_from(u.id.as_str()).ok()) {
            None => keyed_notice(self.room, None, &notice.text, false, notice.key.as_ref()).await?,
            Some(uid) => {
                let html = format!(
                    "<a href=\"https://matrix.to/#/{uid}\">{}</a>: {}",
                    crate::escape(uid.as_str()),
                    crate::escape(&notice.text)
                );
                let content = RoomMessageEventContent::notice_html(format!("{uid}: {}", notice.text), html)
                    .add_mentions(Mentions::with_user_ids([uid]));
                send_keyed(self.room, content, txn(notice.key.as_ref(), "n"))
                    .await
                    .map_err(|e| TransportError::Platform(e.to_string()))?;
            }
        }
        // a notice is sent once: so is its picture (the deal's, after the result)
        if let Some(p) = &notice.picture {
            self.room_picture(p, notice.key.as_ref()).await;
        }
        Ok(())
    }

    async fn private(&self, _: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        let Ok(uid) = OwnedUserId::try_from(to.id.as_str()) else { return Ok(()) };
        let is_actor = self.actor.is_some_and(|a| &a.user == to);
        for m in msgs {
            let code = m.kind == Kind::Record;
            if m.kind != Kind::Hand && is_actor && self.from_direct.is_none() && !m.confidential {
                let text = format!("{}: {}", self.actor.map(|a| a.name.as_str()).unwrap_or(""), m.text);
                keyed_notice(self.room, None, &text, code, m.key.as_ref()).await?;
                continue;
            }
            let dm = match (is_actor, self.from_direct) {
                (true, Some(d)) => Some(d.clone()),
                _ => self.adapter.direct_room(&uid).await,
            };
            let Some(d) = dm else { return Err(TransportError::Unreachable(to.clone())) };
            keyed_notice(&d, Some(&self.name), &m.text, code, m.key.as_ref()).await?;
            // a hand's picture: only ever into the direct room, after its text
            if let Some(p) = &m.picture
                && let Err(e) = send_picture(&d, p, m.key.as_ref()).await
            {
                tracing::warn!(error = %e, picture = %p.name, room = %d.room_id(), "sending a card picture failed");
            }
        }
        Ok(())
    }

    fn mentions(&self) -> bool {
        self.adapter.cfg.mention
    }
}

impl RoomTransport<'_> {
    /// A picture for the table's room, after the notice it belongs to:
    /// only the deal's (`deal.png`, every hand as dealt: public once the
    /// deal is over), never a hand's, and not the trick's (see
    /// [`RoomTransport`]). Best effort: the text says the same.
    async fn room_picture(&self, p: &Picture, key: Option<&String>) {
        if p.name != DEAL_PICTURE {
            return;
        }
        if let Err(e) = send_picture(self.room, p, key).await {
            tracing::warn!(error = %e, picture = %p.name, room = %self.room.room_id(), "sending a card picture failed");
        }
    }
}
