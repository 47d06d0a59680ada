//! The fake's state and the records a test reads: users, guilds,
//! messages, callbacks, uploads, gateway sessions and the ids and times
//! Discord writes. The lowest floor of the fake: every part reads it.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

/// The permission bits of Discord's `topics/permissions.mdx` that tests
/// commonly need.
pub mod permissions {
    /// `ADMINISTRATOR` (`1 << 3`).
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// `MANAGE_CHANNELS` (`1 << 4`).
    pub const MANAGE_CHANNELS: u64 = 1 << 4;
    /// `MANAGE_GUILD` (`1 << 5`).
    pub const MANAGE_GUILD: u64 = 1 << 5;
    /// `VIEW_CHANNEL` (`1 << 10`).
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    /// `SEND_MESSAGES` (`1 << 11`).
    pub const SEND_MESSAGES: u64 = 1 << 11;
    /// `EMBED_LINKS` (`1 << 14`).
    pub const EMBED_LINKS: u64 = 1 << 14;
    /// `ATTACH_FILES` (`1 << 15`).
    pub const ATTACH_FILES: u64 = 1 << 15;
    /// `READ_MESSAGE_HISTORY` (`1 << 16`).
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    /// `MENTION_EVERYONE` (`1 << 17`).
    pub const MENTION_EVERYONE: u64 = 1 << 17;
    /// `USE_EXTERNAL_EMOJIS` (`1 << 18`).
    pub const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
    /// `USE_APPLICATION_COMMANDS` (`1 << 31`).
    pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
    /// What an ordinary member has in a text channel.
    pub const MEMBER: u64 = VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS;
    /// What the server's owner has: every bit, as Discord computes it for
    /// administrators.
    pub const ALL: u64 = (1 << 51) - 1;
}

/// The message flag `EPHEMERAL` (`1 << 6`).
pub const EPHEMERAL: u64 = 1 << 6;
/// The message flag `LOADING` (`1 << 7`): a deferred response.
pub const LOADING: u64 = 1 << 7;

/// A user of the fake: a guild member who can use commands and receive
/// direct messages.
#[derive(Clone, Debug)]
pub struct FakeUser {
    /// The snowflake.
    pub id: u64,
    /// The username (also the global name).
    pub name: String,
    /// The member's permissions in the guild's channels, sent with each of
    /// their interactions as `member.permissions`.
    pub permissions: u64,
}

impl FakeUser {
    /// An ordinary member.
    pub fn new(id: u64, name: &str) -> FakeUser {
        FakeUser { id, name: name.to_string(), permissions: permissions::MEMBER }
    }

    /// The same user with every permission (an administrator).
    pub fn admin(mut self) -> FakeUser {
        self.permissions = permissions::ALL;
        self
    }
}

/// What the fake serves.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot token the bot must present (`Authorization: Bot <token>` on
    /// REST, `token` in IDENTIFY and RESUME).
    pub token: String,
    /// The application's snowflake (READY's `application.id`).
    pub application_id: u64,
    /// The application's flags (READY's `application.flags`).
    pub application_flags: u64,
    /// The bot user.
    pub bot: FakeUser,
    /// The (first) guild the bot is in.
    pub guild_id: u64,
    /// Its name.
    pub guild_name: String,
    /// Its text channels (type 0); the first is named `doko`, the others
    /// `doko-2`, `doko-3`, ...
    pub channels: Vec<u64>,
    /// Further guilds the bot is in, each with its own text channels (the
    /// same members in all).
    pub more_guilds: Vec<FakeGuild>,
    /// The shard count `GET /gateway/bot` recommends.
    pub shards: u64,
    /// The members besides the bot.
    pub users: Vec<FakeUser>,
    /// Users whose direct messages are closed: creating the DM channel
    /// works, sending into it answers 403 with code 50007.
    pub closed_dms: Vec<u64>,
    /// HELLO's `heartbeat_interval` (Discord's is about 41 s; short for
    /// tests).
    pub heartbeat_interval: Duration,
    /// Close a connection (code 4000, resumable) when no heartbeat came for
    /// this long; `None` never does.
    pub heartbeat_timeout: Option<Duration>,
    /// The time from an interaction's creation within which the first
    /// response must arrive (Discord: 3 s), else 10062.
    pub interaction_deadline: Duration,
    /// How long an interaction token is valid for followups and edits of
    /// the original response (Discord: 15 min).
    pub token_lifetime: Duration,
}

impl Default for Config {
    fn default() -> Config {
        let interval = Duration::from_millis(2_000);
        Config {
            token: "fake-bot-token".to_string(),
            application_id: 1_300_000_000_000_000_001,
            application_flags: 0,
            bot: FakeUser::new(1_300_000_000_000_000_001, "doko"),
            guild_id: 1_300_000_000_000_000_100,
            guild_name: "Doppelkopf club".to_string(),
            channels: vec![1_300_000_000_000_000_200, 1_300_000_000_000_000_201],
            more_guilds: vec![],
            shards: 1,
            users: vec![
                FakeUser::new(1_300_000_000_000_001_001, "alice").admin(),
                FakeUser::new(1_300_000_000_000_001_002, "bob"),
                FakeUser::new(1_300_000_000_000_001_003, "carol"),
                FakeUser::new(1_300_000_000_000_001_004, "dave"),
            ],
            closed_dms: vec![],
            heartbeat_interval: interval,
            heartbeat_timeout: Some(interval * 2 + Duration::from_secs(1)),
            interaction_deadline: Duration::from_secs(3),
            token_lifetime: Duration::from_secs(15 * 60),
        }
    }
}

/// Where an interaction happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In a text channel of the guild: the interaction carries `guild_id`
    /// and `member` (with the user's permissions).
    Channel(u64),
    /// In the user's direct messages with the bot: it carries `user` and
    /// the DM channel.
    Dm,
}

/// An interaction the fake dispatched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InteractionHandle {
    /// The interaction's snowflake.
    pub id: u64,
    /// Its token.
    pub token: String,
    /// Its type (2 command, 3 component, 4 autocomplete).
    pub kind: u64,
}

/// One attempt to respond to an interaction
/// (`POST /interactions/{id}/{token}/callback`).
#[derive(Clone, Debug)]
pub struct Callback {
    /// The interaction.
    pub interaction: u64,
    /// The callback type (1 PONG, 4 message, 5 deferred message, 6
    /// deferred update, 7 update message, 8 autocomplete result, 9 modal).
    pub kind: u64,
    /// The whole `data` object (`null` when absent).
    pub data: Value,
    /// `data.flags` (64 = ephemeral).
    pub flags: u64,
    /// `data.content`.
    pub content: Option<String>,
    /// `data.components` (`null` when absent).
    pub components: Value,
    /// The files uploaded with it (multipart), with their names and bytes.
    pub attachments: Vec<Upload>,
    /// The time from the interaction's creation to the callback.
    pub elapsed: Duration,
    /// The HTTP status the fake answered (204, or 200 with
    /// `with_response`, or an error).
    pub status: u16,
    /// The JSON error code when refused (10062, 40060, 50035, ...).
    pub error_code: Option<u64>,
}

impl Callback {
    /// Accepted, and within the interaction deadline.
    pub fn in_time(&self) -> bool {
        self.error_code.is_none() && (200..300).contains(&self.status)
    }

    /// The response is ephemeral (flag 64).
    pub fn ephemeral(&self) -> bool {
        self.flags & EPHEMERAL != 0
    }
}

/// A file uploaded with a request (`multipart/form-data`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// The form field (`files[0]`, ...).
    pub field: String,
    /// The file name.
    pub filename: String,
    /// The content.
    pub bytes: Vec<u8>,
}

/// A message the bot made: in a channel, a DM, or as an interaction
/// response or followup.
#[derive(Clone, Debug)]
pub struct MessageRecord {
    /// The snowflake.
    pub id: u64,
    /// The channel it is in.
    pub channel_id: u64,
    /// The current content.
    pub content: String,
    /// The current components.
    pub components: Value,
    /// The current flags.
    pub flags: u64,
    /// The current embeds.
    pub embeds: Value,
    /// The files attached.
    pub attachments: Vec<Upload>,
    /// The request bodies: the creation first, then each edit.
    pub versions: Vec<Value>,
    /// Deleted by the bot.
    pub deleted: bool,
    /// The interaction it answers, if it is a response or a followup.
    pub interaction: Option<u64>,
}

impl MessageRecord {
    /// Visible only to the one user (flag 64).
    pub fn ephemeral(&self) -> bool {
        self.flags & EPHEMERAL != 0
    }

    /// How many times it was edited.
    pub fn edits(&self) -> usize {
        self.versions.len().saturating_sub(1)
    }

    /// The `custom_id` of every button of its rows that can be clicked
    /// (not disabled), in order.
    pub fn enabled_ids(&self) -> Vec<String> {
        let mut out = Vec::new();
        for row in self.components.as_array().into_iter().flatten() {
            for b in row["components"].as_array().into_iter().flatten() {
                if b["disabled"].as_bool() != Some(true)
                    && let Some(id) = b["custom_id"].as_str()
                {
                    out.push(id.to_string());
                }
            }
        }
        out
    }

    /// Every `custom_id` in its components.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut out = Vec::new();
        collect_custom_ids(&self.components, &mut out);
        out
    }
}

fn collect_custom_ids(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|c| collect_custom_ids(c, out)),
        Value::Object(o) => {
            if let Some(Value::String(id)) = o.get("custom_id") {
                out.push(id.clone());
            }
            if let Some(c) = o.get("components") {
                collect_custom_ids(c, out);
            }
            if let Some(c) = o.get("accessory") {
                collect_custom_ids(c, out);
            }
        }
        _ => {}
    }
}

/// A REST request the fake received.
#[derive(Clone, Debug)]
pub struct RestRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, `/api/v10/...`, without the query.
    pub path: String,
    /// The query string (without `?`), empty when none.
    pub query: String,
    /// The JSON body (`payload_json` for multipart), `null` when none.
    pub body: Value,
    /// The status answered.
    pub status: u16,
}

/// A payload the client sent over the gateway.
#[derive(Clone, Debug)]
pub struct GatewayOp {
    /// Which connection (1, 2, ... in the order they were opened).
    pub connection: u64,
    /// The opcode.
    pub op: u64,
    /// The data (`d`), with any `token` replaced by `"<redacted>"`.
    pub d: Value,
    /// When, after the fake started.
    pub at: Duration,
}

/// A gateway connection the client opened.
#[derive(Clone, Debug)]
pub struct ConnectionRecord {
    /// 1, 2, ... in order.
    pub id: u64,
    /// The query string of the WebSocket request (serenity: `v=10`).
    pub query: String,
    /// The close code the fake sent, if it closed the connection.
    pub closed_by_fake: Option<u16>,
    /// The close code the client sent in its close frame, if it closed the
    /// connection properly.
    pub closed_by_client: Option<u16>,
    /// The connection ended.
    pub ended: bool,
}

/// A wait that ran out, or a request the fake cannot serve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitError(pub String);

impl std::fmt::Display for WaitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WaitError {}

/// Commands sent to a live gateway connection.
#[derive(Debug)]
pub(crate) enum ConnCmd {
    /// Send this text frame.
    Send(String),
    /// Send a close frame with this code and reason, then end.
    Close(u16, String),
    /// End the TCP connection without a close frame.
    Drop,
}

/// A gateway session (READY to invalidation).
pub(crate) struct Session {
    pub(crate) id: String,
    /// `[shard_id, num_shards]` from IDENTIFY (`[0, 1]` when absent).
    pub(crate) shard: [u64; 2],
    /// The last sequence number used.
    pub(crate) seq: u64,
    /// Every dispatch of the session as sent (`s`, frame), for replay.
    pub(crate) events: Vec<(u64, String)>,
    /// The connection the session is attached to.
    pub(crate) conn: Option<(u64, mpsc::UnboundedSender<ConnCmd>)>,
}

/// An interaction the fake created.
pub(crate) struct Pending {
    pub(crate) id: u64,
    pub(crate) token: String,
    pub(crate) kind: u64,
    pub(crate) created: Instant,
    pub(crate) channel_id: u64,
    /// The message a component was attached to.
    pub(crate) message_id: Option<u64>,
    /// The first accepted callback's type.
    pub(crate) acked: Option<u64>,
    /// The message `@original` refers to.
    pub(crate) original: Option<u64>,
}

/// Everything the fake knows, behind one lock (never held across an await).
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) started: Instant,
    pub(crate) api_origin: String,
    pub(crate) gateway_url: String,
    /// The sessions, one per shard, by shard id.
    pub(crate) sessions: BTreeMap<u64, Session>,
    pub(crate) sessions_started: u64,
    pub(crate) connections: Vec<ConnectionRecord>,
    pub(crate) ops: Vec<GatewayOp>,
    pub(crate) interactions: BTreeMap<u64, Pending>,
    pub(crate) callbacks: Vec<Callback>,
    pub(crate) messages: BTreeMap<u64, MessageRecord>,
    pub(crate) dm_channels: BTreeMap<u64, u64>,
    pub(crate) global_commands: Vec<Value>,
    pub(crate) guild_commands: BTreeMap<u64, Vec<Value>>,
    pub(crate) command_ids: BTreeMap<String, u64>,
    pub(crate) requests: Vec<RestRequest>,
    pub(crate) unknown: Vec<RestRequest>,
    pub(crate) refused_dms: Vec<(u64, Value)>,
    /// Nonces of created messages with `enforce_nonce`: the message and
    /// when (Discord checks "the past few minutes").
    pub(crate) nonces: BTreeMap<String, (u64, std::time::Instant)>,
    /// Creations answered with the earlier message of the same nonce.
    pub(crate) nonce_repeats: usize,
    pub(crate) rate_limits: Vec<RateLimit>,
    /// Every interaction dispatched, with the shard it went to.
    pub(crate) dispatched: Vec<(u64, u64)>,
    pub(crate) last_snowflake: u64,
}

/// 429s the test asked for.
pub(crate) struct RateLimit {
    pub(crate) method: String,
    pub(crate) path_contains: String,
    pub(crate) count: usize,
    pub(crate) retry_after: Duration,
}

impl State {
    /// A fresh snowflake: milliseconds since Discord's epoch (2015) in the
    /// high bits, as `reference.mdx` describes, strictly increasing.
    pub(crate) fn snowflake(&mut self) -> u64 {
        let ms = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_millis() as u64;
        let id = (ms.saturating_sub(1_420_070_400_000) << 22).max(self.last_snowflake + 1);
        self.last_snowflake = id;
        id
    }

    pub(crate) fn user(&self, id: u64) -> Option<&FakeUser> {
        if self.config.bot.id == id {
            return Some(&self.config.bot);
        }
        self.config.users.iter().find(|u| u.id == id)
    }

    /// The DM channel with a user, made on first use.
    pub(crate) fn dm_channel(&mut self, user: u64) -> u64 {
        if let Some(c) = self.dm_channels.get(&user) {
            return *c;
        }
        let c = self.snowflake();
        self.dm_channels.insert(user, c);
        c
    }

    /// The user whose DM channel this is.
    pub(crate) fn dm_user(&self, channel: u64) -> Option<u64> {
        self.dm_channels.iter().find(|(_, c)| **c == channel).map(|(u, _)| *u)
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Sends a dispatch on the session of shard `shard` (kept for replay).
    pub(crate) fn dispatch(&mut self, shard: u64, t: &str, d: Value) -> Result<u64, WaitError> {
        let Some(s) = self.sessions.get_mut(&shard) else {
            return Err(WaitError(format!("no gateway session for shard {shard}")));
        };
        s.seq += 1;
        let frame = json!({"op": 0, "d": d, "s": s.seq, "t": t}).to_string();
        s.events.push((s.seq, frame.clone()));
        if let Some((_, tx)) = &s.conn {
            let _ = tx.send(ConnCmd::Send(frame));
        }
        Ok(s.seq)
    }

    /// Sends a frame on the live connection of the first session (the only
    /// one unless sharded), if any.
    pub(crate) fn to_connection(&self, cmd: ConnCmd) -> bool {
        match self.first_session().and_then(|s| s.conn.as_ref()) {
            Some((_, tx)) => tx.send(cmd).is_ok(),
            None => false,
        }
    }
}

pub(crate) struct Inner {
    pub(crate) state: Mutex<State>,
    pub(crate) changed: watch::Sender<u64>,
}

impl Inner {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes the waiters; call after every change.
    pub(crate) fn bump(&self) {
        self.changed.send_modify(|n| *n += 1);
    }
}

/// A guild the bot is in, with its text channels (type 0): the first named
/// `doko`, the others `doko-2`, `doko-3`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeGuild {
    /// The snowflake; it decides the guild's shard.
    pub id: u64,
    /// The name.
    pub name: String,
    /// The text channels.
    pub channels: Vec<u64>,
}

impl FakeGuild {
    /// A guild with these channels.
    pub fn new(id: u64, name: &str, channels: Vec<u64>) -> FakeGuild {
        FakeGuild { id, name: name.to_string(), channels }
    }
}

/// A snowflake sent as a string (or a number).
pub(crate) fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// An ISO8601 timestamp (`2026-01-02T03:04:05.678000+00:00`) as Discord
/// writes them.
pub(crate) fn timestamp(t: SystemTime) -> String {
    let d = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // civil from days (Howard Hinnant)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_micros()
    )
}

/// A random-looking hex string (session ids, tokens): not secret, only
/// unique.
pub(crate) fn hex_id(seed: u64) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut out = String::new();
    for i in 0..4u64 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(seed ^ i);
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}
