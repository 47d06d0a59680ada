//! Several guilds and gateway sharding, as `events/gateway.mdx` ("Sharding")
//! documents them: IDENTIFY carries `shard: [shard_id, num_shards]`; the
//! events of a guild go to shard `(guild_id >> 22) % num_shards`, direct
//! messages to shard 0; a bot holds several sessions at once, one per
//! shard; `GET /gateway/bot` recommends a shard count.
//!
//! The fake keeps one session per shard id. A new IDENTIFY for a shard
//! replaces that shard's session (its old connection, if still open, is
//! closed with 4009); a shard id not below its count is refused with 4010
//! (Invalid shard). READY lists the guilds of the session's shard, each
//! followed by its GUILD_CREATE. Every dispatch about a guild goes to the
//! session whose `[shard_id, num_shards]` that guild maps to.
//!
//! ```no_run
//! # async fn demo() {
//! use doko_system_tests::fake_discord::{Config, FakeDiscord};
//! use std::time::Duration;
//! let fake = FakeDiscord::start(Config::sharded()).await.unwrap();
//! // start two bots, one with shard [0, 2], one with [1, 2], then:
//! fake.wait_shards_ready(&[0, 1], Duration::from_secs(20)).await.unwrap();
//! let second = &fake.config().guilds()[1];
//! assert_eq!(Config::shard_of(second.id, 2), 1);
//! # }
//! ```

use std::time::Duration;

use super::model::FakeGuild;
use super::{Config, FakeDiscord, InteractionHandle, Session, State, WaitError};

/// One gateway session of the fake, as a test sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSession {
    /// The shard id.
    pub shard: u64,
    /// The shard count the client identified with.
    pub num_shards: u64,
    /// The session id (READY's `session_id`).
    pub session_id: String,
    /// The live connection the session is attached to (see
    /// [`FakeDiscord::connections`]), if any.
    pub connection: Option<u64>,
    /// The last sequence number sent.
    pub seq: u64,
}

impl Config {
    /// The default guild plus a second one, "Skat club", whose id falls on
    /// the other shard of two; `GET /gateway/bot` recommends two shards.
    /// The second guild's channel ids fall on the first guild's shard, as
    /// they may on Discord: a channel's snowflake says nothing of its
    /// guild's shard.
    pub fn sharded() -> Config {
        let mut c = Config::default();
        let guild = c.guild_id + (1 << 22);
        let channels = c.channels.iter().map(|ch| ch + (2 << 22)).collect();
        c.more_guilds = vec![FakeGuild::new(guild, "Skat club", channels)];
        c.shards = 2;
        debug_assert_ne!(Config::shard_of(c.guild_id, 2), Config::shard_of(guild, 2));
        c
    }

    /// Every guild the bot is in: the first (`guild_id`, `guild_name`,
    /// `channels`), then `more_guilds`.
    pub fn guilds(&self) -> Vec<FakeGuild> {
        let mut out = vec![FakeGuild::new(self.guild_id, &self.guild_name, self.channels.clone())];
        out.extend(self.more_guilds.iter().cloned());
        out
    }

    /// The guild a text channel belongs to, and the channel's position in
    /// it.
    pub fn guild_of(&self, channel: u64) -> Option<(FakeGuild, usize)> {
        self.guilds().into_iter().find_map(|g| {
            let pos = g.channels.iter().position(|c| *c == channel)?;
            Some((g, pos))
        })
    }

    /// The shard that gets a guild's events: `(guild_id >> 22) %
    /// num_shards`.
    pub fn shard_of(guild: u64, num_shards: u64) -> u64 {
        (guild >> 22) % num_shards.max(1)
    }
}

impl State {
    /// The session of the lowest shard id (the only one unless sharded).
    pub(crate) fn first_session(&self) -> Option<&Session> {
        self.sessions.values().next()
    }

    /// Ends the first session (a RESUME of it is then refused).
    pub(crate) fn end_first_session(&mut self) {
        if let Some(k) = self.sessions.keys().next().copied() {
            self.sessions.remove(&k);
        }
    }

    /// The shard id of the session that gets the events of this guild
    /// (`None`: a direct message, shard 0), if there is one.
    pub(crate) fn shard_of(&self, guild: Option<u64>) -> Option<u64> {
        self.sessions
            .iter()
            .find(|(_, s)| {
                let [k, n] = s.shard;
                match guild {
                    Some(g) => Config::shard_of(g, n) == k,
                    None => k == 0,
                }
            })
            .map(|(k, _)| *k)
    }

    /// The guilds whose events go to shard `[k, n]`.
    pub(crate) fn guilds_on(&self, [k, n]: [u64; 2]) -> Vec<FakeGuild> {
        self.config.guilds().into_iter().filter(|g| Config::shard_of(g.id, n) == k).collect()
    }
}

impl FakeDiscord {
    /// The session of shard `shard` is attached to a live connection
    /// (READY and GUILD_CREATE, or RESUMED, sent).
    pub fn shard_ready(&self, shard: u64) -> bool {
        self.inner.lock().sessions.get(&shard).is_some_and(|s| s.conn.is_some())
    }

    /// Waits until the sessions of all these shards are ready.
    pub async fn wait_shards_ready(&self, shards: &[u64], timeout: Duration) -> Result<(), WaitError> {
        self.wait_for(&format!("ready gateway sessions for shards {shards:?}"), timeout, |f| {
            shards.iter().all(|k| f.shard_ready(*k)).then_some(())
        })
        .await
    }

    /// The gateway sessions, by shard id.
    pub fn sessions(&self) -> Vec<ShardSession> {
        self.inner
            .lock()
            .sessions
            .iter()
            .map(|(k, s)| ShardSession {
                shard: *k,
                num_shards: s.shard[1],
                session_id: s.id.clone(),
                connection: s.conn.as_ref().map(|(c, _)| *c),
                seq: s.seq,
            })
            .collect()
    }

    /// The shard an interaction was dispatched to.
    pub fn interaction_shard(&self, handle: &InteractionHandle) -> Option<u64> {
        self.inner.lock().dispatched.iter().find(|(i, _)| *i == handle.id).map(|(_, k)| *k)
    }

    /// How many IDENTIFY payloads asked for this shard id (no `shard`
    /// field: shard 0).
    pub fn identify_count_for(&self, shard: u64) -> usize {
        self.inner.lock().ops.iter().filter(|o| o.op == 2 && o.d["shard"][0].as_u64().unwrap_or(0) == shard).count()
    }
}
