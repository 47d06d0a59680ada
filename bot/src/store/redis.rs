//! The Redis store, on one server or a Redis Cluster, for several
//! processes serving the same tables: each change one Lua script that
//! compares and sets the table's version and appends its records.

use std::collections::HashMap;
use std::sync::Arc;

use super::api::{Commit, Keep, Quarantined, Store, StoreError, Stored};
use super::packed;
use crate::ids::ChannelId;

/// Lua reading the head of a table's string (`VERSION RECORDS|STATE`,
/// see [`CAS`]) or of its format 1 hash: sets `v` (0 for none) and `n`
/// (nil where the records were never counted).
macro_rules! lua_head {
    () => {
        r#"
local v, n = 0, nil
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'string' then
  local a, b = string.match(redis.call('GETRANGE', KEYS[1], 0, 47), '^(%d+) (%d*)|')
  v = tonumber(a) or 0
  n = tonumber(b)
elseif kind == 'hash' then
  v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
  n = tonumber(redis.call('HGET', KEYS[1], 'n'))
end
"#
    };
}

/// Compare-and-set of a table plus its new records, atomically.
/// KEYS[1] the table, KEYS[2] the records list; ARGV[1] expected version,
/// ARGV[2] the table's state (its JSON, or compressed: [`packed`]),
/// ARGV[3] expiry seconds (0: none, and any expiry is removed), ARGV[4]
/// records kept (0: all), ARGV[5..] records.
///
/// The table is one string, `VERSION RECORDS|STATE` (store format 2; a
/// hash's overhead was a sixth of a table): RECORDS counts the records
/// ever stored (empty for a list that was never trimmed), so numbers stay
/// put when the oldest are trimmed. Format 1's hash (fields `v`, `state`,
/// `n`) is read and replaced by the string at its next commit.
/// (Public for `doko bench tables`, which measures Redis with it alone.)
pub const CAS: &str = concat!(
    lua_head!(),
    r#"
if v ~= tonumber(ARGV[1]) then return -1 end
local new = #ARGV - 4
if new > 0 then
  local total = n or redis.call('LLEN', KEYS[2])
  for i = 5, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  n = total + new
  local keep = tonumber(ARGV[4])
  if keep > 0 then redis.call('LTRIM', KEYS[2], -keep, -1) end
end
redis.call('SET', KEYS[1], string.format('%d %s|', v + 1, n and string.format('%d', n) or '') .. ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
else
  redis.call('PERSIST', KEYS[2])
end
return v + 1
"#
);

/// Record ARGV[1] (from 1) of a table: KEYS[1] the table, KEYS[2] the
/// records list (see [`CAS`]).
const RECORD: &str = concat!(
    lua_head!(),
    r#"
local len = redis.call('LLEN', KEYS[2])
local total = n or len
local i = tonumber(ARGV[1]) - 1 - (total - len)
if i < 0 or i >= len then return false end
return redis.call('LINDEX', KEYS[2], i)
"#
);

/// A table's version and state (KEYS[1], see [`CAS`]), as
/// `VERSION RECORDS|STATE`; nil when there is none.
const LOAD: &str = r#"
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'string' then return redis.call('GET', KEYS[1]) end
if kind == 'hash' then
  local r = redis.call('HMGET', KEYS[1], 'v', 'state')
  if r[1] and r[2] then return r[1] .. ' |' .. r[2] end
end
return false
"#;

/// A table's version (KEYS[1], see [`CAS`]); 0 when there is none.
const VERSION: &str = concat!(lua_head!(), "return v\n");

/// A table's state as stored in Redis, as its JSON text ([`packed`]). A
/// state that cannot be read back becomes text that is no table (its
/// error and the stored bytes in base64): the service then sets it aside
/// for inspection as it does a damaged table, where failing the load would
/// answer every command as if the store were down.
fn unpacked(state: &[u8]) -> String {
    packed::unpack(state).unwrap_or_else(|e| {
        use base64::Engine as _;
        format!("{e}; the stored state in base64: {}", base64::engine::general_purpose::STANDARD.encode(state))
    })
}

/// The Redis store: one key namespace per table, `doko:{platform:id}:...`
/// (the braces are a hash tag, so a table's keys share a cluster slot).
/// Tables untouched for `ttl_secs` expire, except durable ones (a session
/// in progress, statistics: see [`Keep`]), which carry no expiry.
///
/// It talks to one Redis server or to a Redis Cluster, as its URL says
/// ([`RedisStore::connect`]). Every command and script touches the keys of
/// one table only, so all of them go to the one node serving the table's
/// slot; the cluster client follows the cluster's `MOVED` and `ASK`
/// redirections when a slot moves to another node.
#[derive(Clone)]
pub struct RedisStore {
    conn: RedisConn,
    script: Arc<redis::Script>,
    record_script: Arc<redis::Script>,
    load_script: Arc<redis::Script>,
    version_script: Arc<redis::Script>,
    ttl_secs: u64,
    /// Wait this long for one replica to confirm each commit (`WAIT 1`);
    /// `None`: answer once the primary has it.
    replica_wait_ms: Option<u64>,
}

/// The connection of a [`RedisStore`]: to one server (reconnecting by
/// itself), or to a cluster (connections to every node it needs, the slot
/// map refreshed on redirections). Both run the same commands and scripts.
#[derive(Clone)]
enum RedisConn {
    Single(redis::aio::ConnectionManager),
    Cluster(redis::cluster_async::ClusterConnection),
}

impl redis::aio::ConnectionLike for RedisConn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a redis::Cmd) -> redis::RedisFuture<'a, redis::Value> {
        match self {
            RedisConn::Single(c) => c.req_packed_command(cmd),
            RedisConn::Cluster(c) => c.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> redis::RedisFuture<'a, Vec<redis::Value>> {
        match self {
            RedisConn::Single(c) => c.req_packed_commands(pipeline, offset, count),
            RedisConn::Cluster(c) => c.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            RedisConn::Single(c) => c.get_db(),
            RedisConn::Cluster(c) => c.get_db(),
        }
    }
}

/// How long the bot waits for Redis's answer to one request before it
/// counts the request as failed: 1 s. A load or a compare-and-set of one
/// table takes well under a millisecond on a healthy server, and a few
/// milliseconds when an `appendonly` fsync or a snapshot's fork gets in the
/// way, so 1 s is only ever reached when Redis or the network is in
/// trouble. It is shorter than the service's own limit on a store call
/// ([`crate::service::STORE_TIMEOUT`]), so Redis's error is the one
/// reported; a commit that timed out may still have been made, which the
/// service finds out by reading the table again.
pub const REDIS_RESPONSE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(1);

/// The longest single `WAIT` for a replica's confirmation (see
/// [`RedisStore::with_replica_wait`]): well inside
/// [`REDIS_RESPONSE_TIMEOUT`]; a longer wait is asked in steps.
pub const WAIT_STEP_MS: u64 = 500;

/// The longest replica wait a host may set: a commit with its wait stays
/// inside the service's deadline for one store call (3 s).
pub const REPLICA_WAIT_MAX_MS: u64 = 2_000;

/// How long one attempt to (re)connect to Redis may take: 2 s, enough for
/// a TLS handshake across a region, short enough that a command waiting
/// for a reconnection still gets its answer (or "table unavailable")
/// within the service's budget ([`crate::service::STORE_BUDGET`]).
pub const REDIS_CONNECTION_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// On a Redis Cluster, how long one request may take in all, with the
/// redirections and retries the cluster asks for (a slot moving to another
/// node, a failover): 2 s. Each attempt still waits at most
/// [`REDIS_RESPONSE_TIMEOUT`]; the whole stays below the service's limit on
/// a store call ([`crate::service::STORE_TIMEOUT`]).
pub const REDIS_CLUSTER_REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The URL scheme that names a Redis Cluster:
/// `redis+cluster://[user[:password]@]host:port[,host:port...]`, one or
/// more nodes of the cluster to learn its layout from (the others are found
/// by asking them). Any other URL (`redis://...`) names one server.
pub const REDIS_CLUSTER_SCHEME: &str = "redis+cluster://";

/// The seed node URLs a `redis+cluster://` URL names (`None` for a URL of
/// one server): `redis://[user[:password]@]host:port/` each.
fn cluster_seeds(url: &str) -> Option<Result<Vec<String>, StoreError>> {
    let rest = url.strip_prefix(REDIS_CLUSTER_SCHEME)?;
    let bad = |why: &str| StoreError::BadUrl(format!("{REDIS_CLUSTER_SCHEME}...: {why}"));
    // the node list ends at the path; the user and password at the last @
    // before it (a password may contain '@' when percent-encoded or not)
    let (rest, path) = rest.split_once('/').unwrap_or((rest, ""));
    if !(path.is_empty() || path == "0") {
        return Some(Err(bad("a cluster has database 0 only (no path after the nodes)")));
    }
    let (auth, hosts) = match rest.rsplit_once('@') {
        Some((auth, hosts)) => (format!("{auth}@"), hosts),
        None => (String::new(), rest),
    };
    let seeds: Vec<String> =
        hosts.split(',').map(str::trim).filter(|h| !h.is_empty()).map(|h| format!("redis://{auth}{h}/")).collect();
    Some(if seeds.is_empty() { Err(bad("no node named")) } else { Ok(seeds) })
}

impl RedisStore {
    /// Connects to the Redis server or cluster `url` names, with the
    /// timeouts [`REDIS_RESPONSE_TIMEOUT`] and [`REDIS_CONNECTION_TIMEOUT`]
    /// (and [`REDIS_CLUSTER_REQUEST_TIMEOUT`] on a cluster):
    ///
    /// - `redis://[user[:password]@]host[:port][/db]`: one server, through
    ///   a connection manager that reconnects by itself;
    /// - `redis+cluster://[user[:password]@]host:port[,host:port...]`
    ///   ([`REDIS_CLUSTER_SCHEME`]): a Redis Cluster, found from the nodes
    ///   named; the client keeps the cluster's slot map, follows `MOVED` and
    ///   `ASK` redirections (a slot migrating between nodes) and retries
    ///   `TRYAGAIN` within the request timeout.
    pub async fn connect(url: &str, ttl_secs: u64) -> Result<RedisStore, StoreError> {
        let conn = match cluster_seeds(url) {
            Some(seeds) => {
                let client = redis::cluster::ClusterClient::builder(seeds?)
                    .connection_timeout(REDIS_CONNECTION_TIMEOUT)
                    .response_timeout(REDIS_RESPONSE_TIMEOUT)
                    .overall_response_timeout(Some(REDIS_CLUSTER_REQUEST_TIMEOUT))
                    // retries (a TRYAGAIN while a slot migrates, a node
                    // failing over) wait 2 ms, growing to at most 200 ms,
                    // as the service's own retries do
                    .min_retry_wait(2)
                    .max_retry_wait(200)
                    .retry_wait_formula(10, 2)
                    .build()?;
                RedisConn::Cluster(client.get_async_connection().await?)
            }
            None => {
                let client = redis::Client::open(url)?;
                let config = redis::aio::ConnectionManagerConfig::new()
                    .set_response_timeout(Some(REDIS_RESPONSE_TIMEOUT))
                    .set_connection_timeout(Some(REDIS_CONNECTION_TIMEOUT));
                RedisConn::Single(redis::aio::ConnectionManager::new_with_config(client, config).await?)
            }
        };
        Ok(RedisStore {
            conn,
            script: Arc::new(redis::Script::new(CAS)),
            record_script: Arc::new(redis::Script::new(RECORD)),
            load_script: Arc::new(redis::Script::new(LOAD)),
            version_script: Arc::new(redis::Script::new(VERSION)),
            ttl_secs,
            replica_wait_ms: None,
        })
    }

    /// Waits for one replica to confirm each commit, at most `ms`
    /// milliseconds (`WAIT 1 ms` on the node that took it), before the
    /// commit counts as made: a primary that crashes right after a move
    /// was answered cannot take the move with it (replication is
    /// asynchronous otherwise). When no replica confirms in time the
    /// commit fails with [`StoreError::NotReplicated`] and its outcome is
    /// unclear, settled as any other unconfirmed commit. `0`: do not wait.
    pub fn with_replica_wait(mut self, ms: u64) -> RedisStore {
        self.replica_wait_ms = (ms > 0).then_some(ms);
        self
    }

    /// One replica's confirmation of what this connection wrote to the
    /// node serving `key` (see [`RedisStore::with_replica_wait`]), asked
    /// in steps of at most [`WAIT_STEP_MS`] (each step well inside the
    /// connection's response timeout) until `ms` have passed.
    async fn confirmed_by_a_replica(&self, key: &str, ms: u64) -> Result<(), StoreError> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now()).as_millis() as u64;
            let mut wait = redis::cmd("WAIT");
            wait.arg(1).arg(left.clamp(1, WAIT_STEP_MS));
            let replicas: i64 = match &self.conn {
                RedisConn::Single(c) => wait.query_async(&mut c.clone()).await?,
                RedisConn::Cluster(c) => {
                    use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
                    let at = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::with_key(
                        key.as_bytes(),
                        SlotAddr::Master,
                    )));
                    let v = c.clone().route_command(wait, at).await?;
                    redis::from_redis_value(v).map_err(redis::RedisError::from)?
                }
            };
            if replicas >= 1 {
                return Ok(());
            }
            if left <= WAIT_STEP_MS {
                return Err(StoreError::NotReplicated(ms));
            }
        }
    }

    /// Whether this store talks to a Redis Cluster.
    pub fn is_cluster(&self) -> bool {
        matches!(self.conn, RedisConn::Cluster(_))
    }

    /// Checks the server's settings the bot needs and warns (in the log,
    /// and returned) about each one that differs: `maxmemory-policy
    /// noeviction` (any other policy may evict live tables under memory
    /// pressure) and `appendonly yes` (without it a crash loses the moves
    /// since the last snapshot). A server that refuses `CONFIG GET` (some
    /// managed ones do) is warned about too. On a cluster every node is
    /// asked (replicas too: one may become the primary), and a warning
    /// names the nodes it concerns.
    pub async fn check_settings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        for (name, want, why) in [
            ("maxmemory-policy", "noeviction", "Redis may evict live tables when its memory is full"),
            ("appendonly", "yes", "a Redis crash loses the moves since its last snapshot"),
        ] {
            let mut ws = Vec::new();
            match self.config_get(name).await {
                Ok(nodes) => {
                    // the nodes by the value they have, in order
                    let mut by_value: std::collections::BTreeMap<Option<String>, Vec<String>> = Default::default();
                    for (node, value) in nodes {
                        by_value.entry(value).or_default().push(node);
                    }
                    for (value, nodes) in by_value {
                        let on = if self.is_cluster() { format!(" on {}", nodes.join(", ")) } else { String::new() };
                        match value {
                            Some(v) if v == want => {}
                            Some(v) => {
                                ws.push(format!("Redis {name} is {v}{on}, not {want}: {why}; set {name} {want}"))
                            }
                            None => ws.push(format!("Redis{on} does not say its {name}; the bot needs {name} {want}")),
                        }
                    }
                }
                Err(e) => ws.push(format!("could not read Redis's {name} ({e}); the bot needs {name} {want}")),
            }
            for w in ws {
                tracing::warn!(setting = name, "{w}");
                warnings.push(w);
            }
        }
        warnings
    }

    /// A setting's value on the server, or on every node of the cluster
    /// (by address): `None` where a node does not say.
    async fn config_get(&self, name: &str) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let mut cmd = redis::cmd("CONFIG");
        cmd.arg("GET").arg(name);
        let parse = |v: redis::Value| -> Result<Option<String>, StoreError> {
            let m: HashMap<String, String> = redis::from_redis_value(v).map_err(redis::RedisError::from)?;
            Ok(m.get(name).cloned())
        };
        match &self.conn {
            RedisConn::Single(c) => {
                let v: redis::Value = cmd.query_async(&mut c.clone()).await?;
                Ok(vec![(String::new(), parse(v)?)])
            }
            RedisConn::Cluster(c) => {
                use redis::cluster_routing::{MultipleNodeRoutingInfo, RoutingInfo};
                let all = RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllNodes, None));
                let mut out = Vec::new();
                for (node, v) in per_node(c.clone().route_command(cmd, all).await?)? {
                    out.push((node, parse(v)?));
                }
                out.sort();
                Ok(out)
            }
        }
    }

    /// A table's two keys: the table and its records' list.
    pub fn keys(ch: &ChannelId) -> (String, String) {
        // (built by hand: asked at every command, and `format!` cost
        // several times the copying)
        let mut table = String::with_capacity(ch.id.len() + 32);
        table.push_str("doko:{");
        ch.push_key(&mut table);
        table.push('}');
        let mut records = String::with_capacity(table.len() + 8);
        records.push_str(&table);
        table.push_str(":table");
        records.push_str(":records");
        (table, records)
    }

    /// The hash of a channel's tables set aside (version → JSON), in the
    /// table's slot.
    fn quarantine_key(channel: &str) -> String {
        format!("doko:{{{channel}}}:quarantine")
    }

    /// Every key matching `pattern`, found by `SCAN` (so the server is
    /// never blocked); on a cluster, on every primary (each scanned to its
    /// end with its own cursor). A key whose slot moves between nodes while
    /// the scan runs may be missed (it is found by the next scan), never
    /// reported twice.
    async fn scan_keys(&self, pattern: &str) -> Result<Vec<String>, StoreError> {
        let mut out: Vec<String> = Vec::new();
        match &self.conn {
            RedisConn::Single(c) => {
                let mut c = c.clone();
                let mut cursor: u64 = 0;
                loop {
                    let (next, keys): (u64, Vec<String>) = scan_step(pattern, cursor).query_async(&mut c).await?;
                    out.extend(keys);
                    if next == 0 {
                        break;
                    }
                    cursor = next;
                }
            }
            RedisConn::Cluster(c) => {
                use redis::cluster_routing::{MultipleNodeRoutingInfo, RoutingInfo, SingleNodeRoutingInfo};
                let mut c = c.clone();
                // the first step on every primary at once, then each
                // primary on from its own cursor
                let primaries = RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, None));
                for (node, first) in per_node(c.route_command(scan_step(pattern, 0), primaries).await?)? {
                    let (host, port) = node
                        .rsplit_once(':')
                        .and_then(|(h, p)| Some((h.to_string(), p.parse::<u16>().ok()?)))
                        .ok_or_else(|| StoreError::Corrupt(format!("a cluster node's address {node:?}")))?;
                    let mut step = first;
                    loop {
                        let (next, keys): (u64, Vec<String>) =
                            redis::from_redis_value(step).map_err(redis::RedisError::from)?;
                        out.extend(keys);
                        if next == 0 {
                            break;
                        }
                        let at = RoutingInfo::SingleNode(SingleNodeRoutingInfo::ByAddress { host: host.clone(), port });
                        step = c.route_command(scan_step(pattern, next), at).await?;
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

/// The key holding the store's format ([`STORE_FORMAT`]).
const REDIS_FORMAT_KEY: &str = "doko:format";

/// The pattern of every table key.
const TABLE_PATTERN: &str = "doko:{*}:table";

/// One `SCAN` step for keys matching `pattern` from `cursor`.
fn scan_step(pattern: &str, cursor: u64) -> redis::Cmd {
    let mut c = redis::cmd("SCAN");
    c.arg(cursor).arg("MATCH").arg(pattern).arg("COUNT").arg(1000);
    c
}

/// The channel of a table key.
fn channel_of_table_key(key: &str) -> Option<ChannelId> {
    ChannelId::from_key(key.strip_prefix("doko:{")?.strip_suffix("}:table")?)
}

/// A cluster's answer from several nodes (a command routed to several
/// without a rule to combine their answers): each node's address and its
/// answer, an error answer as an error.
fn per_node(v: redis::Value) -> Result<Vec<(String, redis::Value)>, StoreError> {
    let redis::Value::Map(entries) = v else {
        return Err(StoreError::Corrupt(format!("a cluster answered {v:?} for each node's answer")));
    };
    let mut out = Vec::new();
    for (node, answer) in entries {
        let node: String = redis::from_redis_value(node).map_err(redis::RedisError::from)?;
        if let redis::Value::ServerError(e) = answer {
            return Err(StoreError::Redis(e.into()));
        }
        out.push((node, answer));
    }
    Ok(out)
}

impl Store for RedisStore {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        let (table, _) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let raw: Option<Vec<u8>> = self.load_script.key(&table).invoke_async(&mut c).await?;
        let Some(raw) = raw else { return Ok(None) };
        let corrupt = || StoreError::Corrupt(format!("the table at {table} has no version"));
        let bar = raw.iter().position(|&b| b == b'|').ok_or_else(corrupt)?;
        let version = std::str::from_utf8(&raw[..bar])
            .ok()
            .and_then(|head| head.split(' ').next()?.parse().ok())
            .ok_or_else(corrupt)?;
        Ok(Some(Stored { json: unpacked(&raw[bar + 1..]), version }))
    }

    async fn version(&self, ch: &ChannelId) -> Result<u64, StoreError> {
        let (table, _) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let v: u64 = self.version_script.key(&table).invoke_async(&mut c).await?;
        Ok(v)
    }

    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
    ) -> Result<Commit, StoreError> {
        let (table, recs) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let ttl = if keep.durable { 0 } else { self.ttl_secs };
        // the script's call written straight into one command, sized
        // for all of it (the script's own invocation keeps its arguments
        // apart first: one more copy of the state, and an allocation per
        // argument)
        // (the compressed state copied into the command from the thread's
        // buffer)
        let cmd = packed::with_packed(json, |state| {
            let hash = self.script.get_hash();
            let bytes =
                hash.len() + table.len() + recs.len() + state.len() + records.iter().map(String::len).sum::<usize>();
            let mut cmd = redis::Cmd::with_capacity(9 + records.len(), bytes + 64);
            cmd.arg("EVALSHA").arg(hash).arg(2).arg(&table).arg(&recs).arg(expected);
            cmd.arg(state).arg(ttl).arg(keep.records);
            for r in records {
                cmd.arg(r);
            }
            cmd
        });
        let v: i64 = match cmd.query_async(&mut c).await {
            // a server that does not know the script (restarted, flushed,
            // a new node): loaded (on every node of a cluster), then called
            // again, as the script's own invocation does
            Err(e) if e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) => {
                self.script.load_async(&mut c).await?;
                cmd.query_async(&mut c).await?
            }
            r => r?,
        };
        if v < 0 {
            return Ok(Commit::Conflict);
        }
        if let Some(ms) = self.replica_wait_ms {
            self.confirmed_by_a_replica(&table, ms).await?;
        }
        Ok(Commit::Done(v as u64))
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        if n == 0 {
            return Ok(None);
        }
        let (table, recs) = RedisStore::keys(ch);
        let mut c = self.conn.clone();
        let r: Option<String> = self.record_script.key(&table).key(&recs).arg(n).invoke_async(&mut c).await?;
        Ok(r)
    }

    /// Every table key found by `SCAN` ([`RedisStore::scan_keys`]: on a
    /// cluster, on every primary).
    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        let mut out: Vec<ChannelId> =
            self.scan_keys(TABLE_PATTERN).await?.iter().filter_map(|k| channel_of_table_key(k)).collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    async fn quarantine(&self, q: &Quarantined) -> Result<bool, StoreError> {
        let json = serde_json::to_string(q).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut c = self.conn.clone();
        let new: bool = redis::cmd("HSETNX")
            .arg(RedisStore::quarantine_key(&q.channel))
            .arg(q.version)
            .arg(json)
            .query_async(&mut c)
            .await?;
        Ok(new)
    }

    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        let mut out = Vec::new();
        for key in self.scan_keys("doko:{*}:quarantine").await? {
            let mut c = self.conn.clone();
            let all: Vec<(u64, String)> = redis::cmd("HGETALL").arg(&key).query_async(&mut c).await?;
            let mut here = all
                .iter()
                .map(|(_, v)| serde_json::from_str(v).map_err(|e| StoreError::Corrupt(e.to_string())))
                .collect::<Result<Vec<Quarantined>, _>>()?;
            here.sort_by_key(|q| q.version);
            out.extend(here);
        }
        Ok(out)
    }

    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        let mut c = self.conn.clone();
        Ok(redis::cmd("GET").arg(REDIS_FORMAT_KEY).query_async(&mut c).await?)
    }

    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        let mut c = self.conn.clone();
        let () = redis::cmd("SET").arg(REDIS_FORMAT_KEY).arg(v).query_async(&mut c).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_url_names_its_seed_nodes() {
        assert!(cluster_seeds("redis://127.0.0.1:6379/").is_none(), "one server");
        let seeds = |url| cluster_seeds(url).expect("a cluster URL").map_err(|e| e.to_string());
        assert_eq!(seeds("redis+cluster://10.0.0.1:7000").unwrap(), ["redis://10.0.0.1:7000/"]);
        assert_eq!(
            seeds("redis+cluster://bot:s%40cret@10.0.0.1:7000,10.0.0.2:7001/").unwrap(),
            ["redis://bot:s%40cret@10.0.0.1:7000/", "redis://bot:s%40cret@10.0.0.2:7001/"]
        );
        assert_eq!(seeds("redis+cluster://a:1, b:2,").unwrap(), ["redis://a:1/", "redis://b:2/"]);
        assert!(seeds("redis+cluster://a:1/2").unwrap_err().contains("database 0 only"));
        assert!(seeds("redis+cluster://").unwrap_err().contains("no node"));
    }

    /// A table's keys are its channel's key in braces (one cluster slot
    /// for both) with `:table` and `:records`, for each platform and for
    /// ids of any length.
    #[test]
    fn a_tables_keys_name_its_channel() {
        use crate::ids::Platform;
        let long = "x".repeat(300);
        for (platform, id) in [
            (Platform::DISCORD, "1234567890123456789"),
            (Platform::MATRIX, "!room:example.org"),
            (Platform::TERMINAL, ""),
            (Platform::MATRIX, long.as_str()),
        ] {
            let ch = ChannelId::new(platform, id);
            let (table, records) = RedisStore::keys(&ch);
            let key = format!("{}:{id}", platform.name());
            assert_eq!(table, format!("doko:{{{key}}}:table"));
            assert_eq!(records, format!("doko:{{{key}}}:records"));
            assert_eq!(ch.key(), key);
        }
    }
}
