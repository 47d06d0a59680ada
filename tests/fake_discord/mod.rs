//! A fake Discord on loopback for whole-system tests: the REST API under
//! `/api/v10` and the gateway (WebSocket, v10, JSON), written from Discord's
//! own documentation (github.com/discord/discord-api-docs, `developers/`):
//!
//! - `events/gateway.mdx`: connecting (`GET /gateway`, `GET /gateway/bot`),
//!   HELLO, heartbeats and their ACK, IDENTIFY and READY, disconnecting,
//!   resuming (replay of missed events, then RESUMED);
//! - `events/gateway-events.mdx`: the payload structure (`op`, `d`, `s`,
//!   `t`), READY's fields, GUILD_CREATE, RECONNECT (op 7), INVALID_SESSION
//!   (op 9), INTERACTION_CREATE;
//! - `topics/opcodes-and-status-codes.mdx`: gateway opcodes and close
//!   codes, HTTP status codes, JSON error codes and the error shape
//!   `{"message": ..., "code": ...}`;
//! - `interactions/receiving-and-responding.mdx`: the interaction object,
//!   callback types 1, 4-9, the 3 s deadline for the first response, one
//!   response per interaction, `@original` and followups (15 min tokens);
//! - `resources/message.mdx`, `resources/channel.mdx`, `resources/user.mdx`
//!   (Create DM), `interactions/application-commands.mdx` (bulk overwrite).
//!
//! What serenity 0.12 sends was checked in its source: the REST base is
//! `{origin}/api/v10/...` with `HttpBuilder::proxy(origin)` and
//! `ratelimiter_disabled(true)`; the gateway URL comes from `GET /gateway`
//! (the shard count from `GET /gateway/bot`) and is opened as `{url}?v=10`
//! (no `encoding`, no transport compression); IDENTIFY asks for payload
//! compression (`compress: true`), which Discord documents as optional per
//! packet, so the fake answers in plain text frames.
//!
//! One application, one bot user, one guild with text channels (more guilds
//! and several shards on request: [`Config::sharded`], see [`shards`]), and
//! the users of the test. Everything the bot does is recorded for the
//! test to assert on; every request to a route the fake does not know is
//! recorded as unknown and answered 404 the way Discord does.
//!
//! ```no_run
//! # async fn demo() {
//! use doko_system_tests::fake_discord::{Config, FakeDiscord, Place};
//! use std::time::Duration;
//! let fake = FakeDiscord::start(Config::default()).await.unwrap();
//! // start the bot with fake.api_origin() as its REST base, then:
//! fake.wait_ready(Duration::from_secs(20)).await.unwrap();
//! let alice = fake.config().users[0].id;
//! let channel = fake.config().channels[0];
//! let i = fake.slash(alice, Place::Channel(channel), "doko", vec![]);
//! let h = fake.send_interaction(i).await.unwrap();
//! let cb = fake.wait_callback(&h, Duration::from_secs(5)).await.unwrap();
//! assert!(cb.in_time());
//! # }
//! ```

mod endpoint;
mod gateway;
mod http;
mod model;
mod payloads;
mod rest;
pub mod shards;
mod signing;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::watch;

pub use endpoint::EndpointReply;
pub use model::*;
pub use payloads::Opt;
pub use shards::ShardSession;
pub use signing::{SIGNING_SEED, SignedRequest, public_key_of, unix_now};

/// The fake Discord: a REST server and a gateway on loopback, running until
/// dropped.
pub struct FakeDiscord {
    inner: Arc<Inner>,
    config: Config,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// Discord's side of interactions endpoints (connections kept alive).
    client: http::Client,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
        // end the live connections too
        for s in self.inner.lock().sessions.values() {
            if let Some((_, tx)) = &s.conn {
                let _ = tx.send(ConnCmd::Drop);
            }
        }
    }
}

impl FakeDiscord {
    /// Starts the REST server and the gateway on free loopback ports.
    pub async fn start(config: Config) -> std::io::Result<FakeDiscord> {
        let rest_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let ws_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let api_origin = format!("http://{}", rest_listener.local_addr()?);
        // as Discord's own: a URL with a trailing slash, to which the client
        // appends `?v=10&encoding=json`
        let gateway_url = format!("ws://{}/", ws_listener.local_addr()?);
        let state = State {
            config: config.clone(),
            started: Instant::now(),
            api_origin,
            gateway_url,
            sessions: BTreeMap::new(),
            sessions_started: 0,
            connections: Vec::new(),
            ops: Vec::new(),
            interactions: BTreeMap::new(),
            callbacks: Vec::new(),
            messages: BTreeMap::new(),
            dm_channels: BTreeMap::new(),
            global_commands: Vec::new(),
            guild_commands: BTreeMap::new(),
            command_ids: BTreeMap::new(),
            requests: Vec::new(),
            unknown: Vec::new(),
            refused_dms: Vec::new(),
            nonces: BTreeMap::new(),
            nonce_repeats: 0,
            rate_limits: Vec::new(),
            dispatched: Vec::new(),
            last_snowflake: 0,
        };
        let inner = Arc::new(Inner { state: Mutex::new(state), changed: watch::Sender::new(0) });
        let rest = {
            let inner = inner.clone();
            tokio::spawn(http::serve(rest_listener, Arc::new(move |req| rest::handle(&inner, req))))
        };
        let gw = tokio::spawn(gateway::serve(ws_listener, inner.clone()));
        Ok(FakeDiscord { inner, config, tasks: vec![rest, gw], client: http::Client::default() })
    }

    /// What the fake serves.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The REST origin, `http://127.0.0.1:<port>`: what the bot takes as its
    /// Discord API base (serenity: `HttpBuilder::proxy`), which then calls
    /// `<origin>/api/v10/...`.
    pub fn api_origin(&self) -> String {
        self.inner.lock().api_origin.clone()
    }

    /// The gateway URL `GET /gateway` answers, `ws://127.0.0.1:<port>/`.
    pub fn gateway_url(&self) -> String {
        self.inner.lock().gateway_url.clone()
    }

    /// Waits until `check` holds, re-checking after every change the fake
    /// records. `check` may call any of the fake's getters.
    pub async fn wait_for<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> Result<T, WaitError> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.inner.changed.subscribe();
        loop {
            if let Some(v) = check(self) {
                return Ok(v);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => {
                    return check(self)
                        .ok_or_else(|| WaitError(format!("timed out after {timeout:?} waiting for {what}")));
                }
            }
        }
    }

    /// Waits until a session is ready: READY and GUILD_CREATE sent (after
    /// an IDENTIFY) or RESUMED sent (after a RESUME) on a live connection
    /// (with several shards: every session, see [`ready`](Self::ready)).
    pub async fn wait_ready(&self, timeout: Duration) -> Result<(), WaitError> {
        self.wait_for("a ready gateway session", timeout, |f| f.ready().then_some(())).await
    }

    /// There is a session and every session is attached to a live
    /// connection (one session unless sharded; see
    /// [`shard_ready`](Self::shard_ready) for one shard).
    pub fn ready(&self) -> bool {
        let st = self.inner.lock();
        !st.sessions.is_empty() && st.sessions.values().all(|s| s.conn.is_some())
    }

    /// The current session's id (the first shard's, unless sharded the
    /// only one).
    pub fn session_id(&self) -> Option<String> {
        self.inner.lock().first_session().map(|s| s.id.clone())
    }

    /// Builds an APPLICATION_COMMAND interaction (type 2): `/name` with the
    /// given options (subcommands, groups, values), by `user` at `place`.
    /// The command's id is the one the bot registered under that name, if
    /// any.
    pub fn slash(&self, user: u64, place: Place, name: &str, options: Vec<Opt>) -> Value {
        payloads::command_interaction(&mut self.inner.lock(), user, place, name, options, 2)
    }

    /// Builds an APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4); one
    /// option should be [`Opt::focused`].
    pub fn autocomplete(&self, user: u64, place: Place, name: &str, options: Vec<Opt>) -> Value {
        payloads::command_interaction(&mut self.inner.lock(), user, place, name, options, 4)
    }

    /// Builds a MESSAGE_COMPONENT interaction (type 3): `user` clicks the
    /// button `custom_id` on the message `message_id` (one the bot made,
    /// with its flags, ephemeral or not, and components; an unknown id
    /// gives a minimal message in the place's channel).
    pub fn click(&self, user: u64, place: Place, message_id: u64, custom_id: &str) -> Value {
        payloads::component_interaction(&mut self.inner.lock(), user, place, message_id, custom_id)
    }

    /// Dispatches an interaction built by [`slash`](Self::slash),
    /// [`click`](Self::click) or [`autocomplete`](Self::autocomplete)
    /// (possibly changed by the test) as INTERACTION_CREATE, on the session
    /// of its guild's shard (DMs: shard 0). Its 3 s start now. Waits up to
    /// 10 s for that gateway session. While the session has no live
    /// connection the event waits in the session and is replayed on RESUME;
    /// a client that identifies anew never gets it (as on Discord).
    pub async fn send_interaction(&self, interaction: Value) -> Result<InteractionHandle, WaitError> {
        let guild = id_of(&interaction["guild_id"]);
        let shard = self
            .wait_for("a gateway session to dispatch on", Duration::from_secs(10), |f| f.inner.lock().shard_of(guild))
            .await?;
        let handle = {
            let mut st = self.inner.lock();
            let id = id_of(&interaction["id"]).ok_or_else(|| WaitError("interaction without id".into()))?;
            let token = interaction["token"].as_str().unwrap_or_default().to_string();
            let kind = interaction["type"].as_u64().unwrap_or(0);
            let channel_id = id_of(&interaction["channel_id"]).unwrap_or(0);
            let message_id = id_of(&interaction["message"]["id"]);
            st.interactions.insert(
                id,
                Pending {
                    id,
                    token: token.clone(),
                    kind,
                    created: Instant::now(),
                    channel_id,
                    message_id,
                    acked: None,
                    original: None,
                },
            );
            st.dispatch(shard, "INTERACTION_CREATE", interaction)?;
            st.dispatched.push((id, shard));
            InteractionHandle { id, token, kind }
        };
        self.inner.bump();
        Ok(handle)
    }

    /// Waits for the first response to an interaction (accepted or not).
    pub async fn wait_callback(&self, handle: &InteractionHandle, timeout: Duration) -> Result<Callback, WaitError> {
        self.wait_for(&format!("a callback to interaction {}", handle.id), timeout, |f| {
            f.inner.lock().callbacks.iter().find(|c| c.interaction == handle.id).cloned()
        })
        .await
    }

    /// Every response attempt, in order.
    pub fn callbacks(&self) -> Vec<Callback> {
        self.inner.lock().callbacks.clone()
    }

    /// The response attempts to one interaction.
    pub fn callbacks_for(&self, handle: &InteractionHandle) -> Vec<Callback> {
        self.inner.lock().callbacks.iter().filter(|c| c.interaction == handle.id).cloned().collect()
    }

    /// The message an interaction's `@original` refers to: the response
    /// message (types 4, 5) or the message a component was on (types 6, 7).
    pub fn original_message(&self, handle: &InteractionHandle) -> Option<MessageRecord> {
        let st = self.inner.lock();
        let id = st.interactions.get(&handle.id)?.original?;
        st.messages.get(&id).cloned()
    }

    /// The followups of an interaction.
    pub fn followups(&self, handle: &InteractionHandle) -> Vec<MessageRecord> {
        let st = self.inner.lock();
        let original = st.interactions.get(&handle.id).and_then(|p| p.original);
        st.messages.values().filter(|m| m.interaction == Some(handle.id) && Some(m.id) != original).cloned().collect()
    }

    /// A message by id.
    pub fn message(&self, id: u64) -> Option<MessageRecord> {
        self.inner.lock().messages.get(&id).cloned()
    }

    /// Every message the bot made, in order.
    pub fn messages(&self) -> Vec<MessageRecord> {
        self.inner.lock().messages.values().cloned().collect()
    }

    /// The messages everyone in a channel sees, in order, with their edit
    /// history: those posted to the channel and the non-ephemeral
    /// interaction responses there.
    pub fn channel_messages(&self, channel: u64) -> Vec<MessageRecord> {
        self.inner.lock().messages.values().filter(|m| m.channel_id == channel && !m.ephemeral()).cloned().collect()
    }

    /// The DM channel with a user, once the bot opened it.
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        self.inner.lock().dm_channels.get(&user).copied()
    }

    /// The direct messages the bot sent a user, in order.
    pub fn dms(&self, user: u64) -> Vec<MessageRecord> {
        let st = self.inner.lock();
        let Some(c) = st.dm_channels.get(&user) else { return Vec::new() };
        st.messages.values().filter(|m| m.channel_id == *c).cloned().collect()
    }

    /// Creations with `enforce_nonce` answered with the message created
    /// earlier with the same nonce (no second copy made).
    pub fn nonce_repeats(&self) -> usize {
        self.inner.lock().nonce_repeats
    }

    /// The direct messages refused with 50007 (DMs closed): the bodies.
    pub fn refused_dms(&self, user: u64) -> Vec<Value> {
        self.inner.lock().refused_dms.iter().filter(|(u, _)| *u == user).map(|(_, b)| b.clone()).collect()
    }

    /// The commands registered globally (the last bulk overwrite).
    pub fn global_commands(&self) -> Vec<Value> {
        self.inner.lock().global_commands.clone()
    }

    /// The commands registered in a guild (the last bulk overwrite).
    pub fn guild_commands(&self, guild: u64) -> Vec<Value> {
        self.inner.lock().guild_commands.get(&guild).cloned().unwrap_or_default()
    }

    /// Answers the next `count` requests with this method whose path
    /// contains `path_contains` with 429 Too Many Requests (not executed;
    /// recorded with status 429), as Discord does when a rate limit is
    /// exceeded.
    pub fn rate_limit(&self, method: &str, path_contains: &str, count: usize, retry_after: Duration) {
        self.inner.lock().rate_limits.push(RateLimit {
            method: method.to_string(),
            path_contains: path_contains.to_string(),
            count,
            retry_after,
        });
    }

    /// Every REST request, in order.
    pub fn requests(&self) -> Vec<RestRequest> {
        self.inner.lock().requests.clone()
    }

    /// The requests to routes the fake does not know (answered 404 or 405).
    pub fn unknown_routes(&self) -> Vec<RestRequest> {
        self.inner.lock().unknown.clone()
    }

    /// Every payload the client sent over the gateway.
    pub fn gateway_ops(&self) -> Vec<GatewayOp> {
        self.inner.lock().ops.clone()
    }

    /// How many payloads with this opcode the client sent.
    pub fn op_count(&self, op: u64) -> usize {
        self.inner.lock().ops.iter().filter(|o| o.op == op).count()
    }

    /// IDENTIFY (op 2) count.
    pub fn identify_count(&self) -> usize {
        self.op_count(2)
    }

    /// RESUME (op 6) count.
    pub fn resume_count(&self) -> usize {
        self.op_count(6)
    }

    /// Heartbeat (op 1) count.
    pub fn heartbeat_count(&self) -> usize {
        self.op_count(1)
    }

    /// The gateway connections, in order.
    pub fn connections(&self) -> Vec<ConnectionRecord> {
        self.inner.lock().connections.clone()
    }

    /// Sends a dispatch of the test's own (`t`, `d`) on the session of the
    /// shard of `d`'s `guild_id` (shard 0 without one).
    pub fn dispatch(&self, t: &str, d: Value) -> Result<u64, WaitError> {
        let r = {
            let mut st = self.inner.lock();
            let shard = st.shard_of(id_of(&d["guild_id"])).ok_or_else(|| WaitError("no gateway session".into()))?;
            st.dispatch(shard, t, d)
        };
        self.inner.bump();
        r
    }

    /// Sends RECONNECT (op 7) on the first session (the only one unless
    /// sharded); the client should resume on a new connection. As Discord
    /// does, the old connection is closed a few seconds later (code 4000)
    /// if the client has not left it.
    pub fn reconnect(&self) -> bool {
        let Some((_, tx)) = self.inner.lock().first_session().and_then(|s| s.conn.clone()) else { return false };
        let sent = tx.send(ConnCmd::Send(json!({"op": 7, "d": null}).to_string())).is_ok();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(3)).await;
            // a no-op when the connection already ended
            let _ = tx.send(ConnCmd::Close(4000, "reconnect".into()));
        });
        sent
    }

    /// Sends INVALID_SESSION (op 9) with `d = resumable` on the first
    /// session (the only one unless sharded). Not resumable: the session
    /// ends (a RESUME is refused), the client must identify.
    pub fn invalid_session(&self, resumable: bool) -> bool {
        let mut st = self.inner.lock();
        let sent = st.to_connection(ConnCmd::Send(json!({"op": 9, "d": resumable}).to_string()));
        if !resumable {
            st.end_first_session();
        }
        drop(st);
        self.inner.bump();
        sent
    }

    /// Ends the first session's live connection without a close frame (as
    /// a network failure does); the session stays resumable.
    pub fn drop_connection(&self) -> bool {
        self.inner.lock().to_connection(ConnCmd::Drop)
    }

    /// Closes the first session's live connection with a close code
    /// (4000-4014 as documented; 4007 and 4009 also end the session).
    pub fn close_connection(&self, code: u16) -> bool {
        let mut st = self.inner.lock();
        let sent = st.to_connection(ConnCmd::Close(code, "closed by the test".into()));
        if matches!(code, 4004 | 4007 | 4009 | 4010 | 4011 | 4012 | 4013 | 4014) {
            st.end_first_session();
        }
        drop(st);
        self.inner.bump();
        sent
    }

    /// Asks the client for a heartbeat now (op 1 from the gateway) on the
    /// first session.
    pub fn request_heartbeat(&self) -> bool {
        let s = self.inner.lock().first_session().map(|s| s.seq);
        self.inner.lock().to_connection(ConnCmd::Send(json!({"op": 1, "d": s}).to_string()))
    }
}
