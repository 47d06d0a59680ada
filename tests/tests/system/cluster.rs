//! Redis Cluster: against a three-primary cluster each test starts itself
//! (`doko_system_tests::LocalCluster`), the Redis store passes the store
//! contract, keeps a table's keys on one node, finds the tables of every
//! primary, and reads every node's settings; a session played through two
//! services (two bot processes) keeps playing while its table's slot
//! migrates to another primary (the client retries TRYAGAIN and follows
//! the cluster's ASK and MOVED redirections), by hand between two moves and
//! during a live `redis-cli --cluster reshard`; and, on a cluster with a
//! replica of each primary, through a manual failover and the crash of the
//! table's primary.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use common::act_once;
use common::contract::{contract, trimming};
use doko_bot::{
    Actor, ChannelId, Commit, Keep, Kind, Platform, RedisStore, Service, Store, StoreError, Stored, UserId,
};
use doko_engine::Action;
use doko_system_tests::LocalCluster;
use redis::aio::MultiplexedConnection;

fn start_cluster() -> LocalCluster {
    LocalCluster::start().expect("redis-server and redis-cli must be installed (scripts/test installs them)")
}

/// A plain connection to one node (no redirections followed).
pub(crate) async fn node(url: &str) -> MultiplexedConnection {
    redis::Client::open(url).unwrap().get_multiplexed_async_connection().await.unwrap()
}

/// Runs a command on one node.
pub(crate) async fn run<T: redis::FromRedisValue>(c: &mut MultiplexedConnection, args: &[&str]) -> T {
    let mut cmd = redis::cmd(args[0]);
    for a in &args[1..] {
        cmd.arg(*a);
    }
    match cmd.query_async(c).await {
        Ok(v) => v,
        Err(e) => panic!("{args:?}: {e}"),
    }
}

/// Runs a command on one node from a plain thread (no runtime).
fn run_blocking(port: u16, args: &[&str]) {
    let mut c = redis::Client::open(format!("redis://127.0.0.1:{port}/")).unwrap().get_connection().unwrap();
    let mut cmd = redis::cmd(args[0]);
    for a in &args[1..] {
        cmd.arg(*a);
    }
    if let Err(e) = cmd.query::<redis::Value>(&mut c) {
        panic!("{args:?} on {port}: {e}");
    }
}

/// The nodes of a cluster: a connection, its id and address.
pub(crate) struct Node {
    pub(crate) conn: MultiplexedConnection,
    pub(crate) id: String,
    port: u16,
}

pub(crate) async fn nodes(cluster: &LocalCluster) -> Vec<Node> {
    let mut out = Vec::new();
    for (i, &port) in cluster.ports.iter().enumerate() {
        let mut conn = node(&cluster.node_url(i)).await;
        let id: String = run(&mut conn, &["CLUSTER", "MYID"]).await;
        out.push(Node { conn, id, port });
    }
    out
}

/// The index of the node that holds a slot's keys (`want` of them).
async fn holder(nodes: &mut [Node], slot: u16, want: u64) -> usize {
    for (i, n) in nodes.iter_mut().enumerate() {
        let count: u64 = run(&mut n.conn, &["CLUSTER", "COUNTKEYSINSLOT", &slot.to_string()]).await;
        if count == want {
            return i;
        }
    }
    panic!("no node holds the {want} keys of slot {slot}");
}

/// The slots a node serves, in order (from its own `CLUSTER NODES` line).
async fn slots_of(n: &mut Node) -> Vec<u16> {
    let text: String = run(&mut n.conn, &["CLUSTER", "NODES"]).await;
    let me = text.lines().find(|l| l.contains("myself")).expect("own line");
    let mut out = Vec::new();
    for range in me.split_whitespace().skip(8).filter(|t| !t.starts_with('[')) {
        let (a, b) = range.split_once('-').unwrap_or((range, range));
        out.extend(a.parse::<u16>().unwrap()..=b.parse::<u16>().unwrap());
    }
    out
}

/// Sums `INFO` counters over every node: `errorstat_NAME:count=N` and
/// `cmdstat_NAME:calls=N`, by name.
async fn info_counts(nodes: &mut [Node], section: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for n in nodes {
        let text: String = run(&mut n.conn, &["INFO", section]).await;
        for line in text.lines() {
            let Some((name, rest)) = line.split_once(':') else { continue };
            let Some(name) = name.strip_prefix("errorstat_").or_else(|| name.strip_prefix("cmdstat_")) else {
                continue;
            };
            let count = rest
                .split(',')
                .find_map(|kv| kv.strip_prefix("count=").or_else(|| kv.strip_prefix("calls=")))
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0);
            *out.entry(name.to_string()).or_default() += count;
        }
    }
    out
}

/// A store that counts the operations it passes on to the Redis store (a
/// load, a commit, a record read, a scan: one each).
#[derive(Clone)]
struct Counted {
    inner: RedisStore,
    ops: Arc<AtomicU64>,
}

impl Counted {
    fn tick(&self) {
        self.ops.fetch_add(1, Ordering::Relaxed);
    }
}

impl Store for Counted {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        self.tick();
        self.inner.load(ch).await
    }
    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
    ) -> Result<Commit, StoreError> {
        self.tick();
        self.inner.commit_kept(ch, expected, json, records, keep).await
    }
    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        self.tick();
        self.inner.record(ch, n).await
    }
    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        self.tick();
        self.inner.channels().await
    }

    async fn quarantine(&self, q: &doko_bot::Quarantined) -> Result<bool, StoreError> {
        self.tick();
        self.inner.quarantine(q).await
    }

    async fn quarantined(&self) -> Result<Vec<doko_bot::Quarantined>, StoreError> {
        self.tick();
        self.inner.quarantined().await
    }

    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        self.tick();
        self.inner.format_version().await
    }

    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        self.tick();
        self.inner.set_format_version(v).await
    }
}

#[tokio::test]
async fn redis_cluster_store_passes_the_contract_and_finds_tables_on_every_primary() {
    let cluster = start_cluster();
    let s = RedisStore::connect(&cluster.url(), 3600).await.unwrap();
    assert!(s.is_cluster());
    contract(&s).await;
    trimming(&s).await;
    // enough tables that every primary holds some
    let mut want = vec![
        ChannelId::new(Platform::DISCORD, "a"),
        ChannelId::new(Platform::MATRIX, "a"),
        ChannelId::new(Platform::DISCORD, "trim"),
        ChannelId::new(Platform::DISCORD, "all"),
    ];
    for i in 0..60 {
        let ch = ChannelId::new(Platform::DISCORD, format!("spread-{i}"));
        assert_eq!(s.commit(&ch, 0, "{}", &[format!("r{i}")]).await.unwrap(), Commit::Done(1));
        want.push(ch);
    }
    want.sort();
    assert_eq!(s.channels().await.unwrap(), want, "every table of every primary, once");
    // a table's two keys share a slot, so they live on one node; every
    // primary holds tables
    let mut nodes = nodes(&cluster).await;
    let mut tables = 0;
    for n in &mut nodes {
        let keys: Vec<String> = run(&mut n.conn, &["KEYS", "doko:*"]).await;
        let here = keys.iter().filter(|k| k.ends_with(":table")).count();
        assert!(here > 0, "node {} holds no table", n.port);
        tables += here;
        for k in keys.iter().filter(|k| k.ends_with(":records")) {
            let table = k.replace(":records", ":table");
            assert!(keys.contains(&table), "{k} is on node {} without {table}", n.port);
        }
    }
    assert_eq!(tables, want.len());
    // every node forgets the scripts (a restart, a failover to a fresh
    // replica): the commits load the script again and go through
    for n in &mut nodes {
        let _: () = run(&mut n.conn, &["SCRIPT", "FLUSH"]).await;
        let _: () = run(&mut n.conn, &["CONFIG", "RESETSTAT"]).await;
    }
    for (i, ch) in want.iter().filter(|c| c.key().starts_with("discord:spread-")).take(12).enumerate() {
        let done = s.commit(ch, 1, "{}", &[format!("again{i}")]).await.unwrap();
        assert_eq!(done, Commit::Done(2), "{ch}");
    }
    let errors = info_counts(&mut nodes, "errorstats").await;
    // (once: the first commit loaded the script on every primary)
    assert_eq!(errors.get("NOSCRIPT"), Some(&1), "the script was called unknown once: {errors:?}");
    // one seed is enough to find the whole cluster
    let one = RedisStore::connect(&format!("redis+cluster://127.0.0.1:{}", cluster.ports[1]), 3600).await.unwrap();
    assert_eq!(one.channels().await.unwrap(), want);
    assert_eq!(one.record(&ChannelId::new(Platform::DISCORD, "spread-7"), 1).await.unwrap().as_deref(), Some("r7"));
    // a cluster URL with a database is refused
    let bad = RedisStore::connect(&format!("redis+cluster://127.0.0.1:{}/3", cluster.ports[0]), 3600).await;
    assert!(matches!(bad, Err(StoreError::BadUrl(_))), "database 3 on a cluster");
}

/// The settings check asks every node and names those that differ.
#[tokio::test]
async fn redis_cluster_settings_are_checked_on_every_node() {
    let cluster = start_cluster();
    let mut nodes = nodes(&cluster).await;
    for n in &mut nodes[..2] {
        let _: () = run(&mut n.conn, &["CONFIG", "SET", "maxmemory-policy", "noeviction"]).await;
        let _: () = run(&mut n.conn, &["CONFIG", "SET", "appendonly", "yes"]).await;
    }
    let _: () = run(&mut nodes[2].conn, &["CONFIG", "SET", "maxmemory-policy", "volatile-lru"]).await;
    let s = RedisStore::connect(&cluster.url(), 3600).await.unwrap();
    let log = common::Log::default();
    let warnings = {
        let _guard = tracing::subscriber::set_default(log.subscriber());
        s.check_settings().await
    };
    let third = format!("127.0.0.1:{}", nodes[2].port);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with(&format!("Redis maxmemory-policy is volatile-lru on {third}, ")), "{warnings:?}");
    assert!(warnings[1].starts_with(&format!("Redis appendonly is no on {third}, ")), "{warnings:?}");
    for n in &nodes[..2] {
        let other = format!("127.0.0.1:{}", n.port);
        assert!(warnings.iter().all(|w| !w.contains(&other)), "{warnings:?}");
    }
    assert!(log.text().contains("WARN"), "{}", log.text());
    let n = &mut nodes[2];
    let _: () = run(&mut n.conn, &["CONFIG", "SET", "maxmemory-policy", "noeviction"]).await;
    let _: () = run(&mut n.conn, &["CONFIG", "SET", "appendonly", "yes"]).await;
    assert_eq!(s.check_settings().await, Vec::<String>::new());
}

pub(crate) fn people() -> Vec<Actor> {
    ["Anna", "Ben", "Cleo", "Dirk"]
        .iter()
        .enumerate()
        .map(|(i, name)| Actor::new(UserId::new(Platform::DISCORD, format!("u{i}")), *name, i == 0))
        .collect()
}

/// Whole system on a cluster: four people play a session through two
/// services (each with its own cluster client, as two bot processes), one
/// move through one service, the next through the other. In the first
/// deal the table's slot migrates while a move waits (TRYAGAIN). After the
/// first deal, the table's slot is migrated by hand to another primary with
/// a move in each step (slot migrating: served by the old node; keys moved:
/// the old node answers ASK; slot handed over: MOVED), then a live
/// `redis-cli --cluster reshard` of 300 slots, the table's first, moves it
/// on to the third primary while the people keep playing. The session plays
/// to its end; its sheet, records and statistics check out. Prints the
/// figures: moves, store operations, commands the cluster served,
/// redirections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_keeps_playing_while_its_table_slot_migrates() {
    let cluster = start_cluster();
    let mut nodes = nodes(&cluster).await;
    let ops = Arc::new(AtomicU64::new(0));
    let (ch, key, recs, slot) = table_with_a_low_slot(&mut nodes).await;
    let mut p = Players::connect(&cluster, &ops, [31, 32], ch).await;
    let deals = 4;
    p.seat_and_start_checked(deals).await;
    for n in &mut nodes {
        let _: () = run(&mut n.conn, &["CONFIG", "RESETSTAT"]).await;
    }
    let table_keys = [key.as_str(), recs.as_str()];
    p.move_while_a_slot_without_records_migrates(&mut nodes, slot, table_keys).await;
    p.play_the_first_deal_and_a_move().await;
    let (to, third) = p.migrate_by_hand_a_move_each_step(&mut nodes, slot, table_keys).await;
    let after_manual = p.moves;
    let (during_reshard, resharded, reshard_time) = p.play_through_a_live_reshard(&mut nodes, slot, to, third).await;
    // 4. play the session to its end
    while p.step().await {}
    let moves = p.moves;
    let after_reshard = moves - after_manual - during_reshard;
    assert!(
        after_reshard > 0,
        "{moves} moves, {after_manual} before the reshard, {during_reshard} during it ({resharded} slots, {reshard_time:?})"
    );
    let sheet_len = p.check_the_session(deals, 1, p.moves % 2).await;
    // (the errors counted also hold one ERR per connection: redis-rs
    // announces itself with CLIENT SETINFO, which Redis 7.0 does not know)
    let mut redirects = info_counts(&mut nodes, "errorstats").await;
    redirects.retain(|e, _| ["ASK", "MOVED", "TRYAGAIN"].contains(&e.as_str()));
    let commands = info_counts(&mut nodes, "commandstats").await;
    let served: u64 = ["hmget", "evalsha", "eval", "script|load"].iter().filter_map(|c| commands.get(*c)).sum();
    println!(
        "cluster session: {moves} moves ({during_reshard} during a live reshard of {resharded} slots taking \
         {reshard_time:?}, {after_reshard} after it), \
         {} deals; {} store operations; {served} table commands served by the cluster; redirections {redirects:?}",
        sheet_len,
        ops.load(Ordering::Relaxed),
    );
}

/// A table whose slot lies low (below 5000, in the first primary's third),
/// so that after the hand-over in step 2 it is the lowest slot of its
/// holder and the live reshard in step 3 moves it first: its channel, its
/// table key, its records key and its slot.
async fn table_with_a_low_slot(nodes: &mut [Node]) -> (ChannelId, String, String, u16) {
    let mut i = 0;
    loop {
        let key = format!("doko:{{discord:cluster-table-{i}}}:table");
        let slot: u16 = run(&mut nodes[0].conn, &["CLUSTER", "KEYSLOT", &key]).await;
        if slot < 5000 {
            let ch = ChannelId::new(Platform::DISCORD, format!("cluster-table-{i}"));
            break (ch, key, format!("doko:{{discord:cluster-table-{i}}}:records"), slot);
        }
        i += 1;
    }
}

/// Four people playing through two services (each with its own cluster
/// client, as two bot processes), one move through one service, the next
/// through the other.
struct Players {
    svcs: [Service<Counted>; 2],
    ch: ChannelId,
    ps: Vec<Actor>,
    /// The moves made so far.
    moves: usize,
}

impl Players {
    /// Two services on the cluster, counting their store operations in
    /// `ops`, seeded with `seeds`, for the table of `ch`.
    async fn connect(cluster: &LocalCluster, ops: &Arc<AtomicU64>, seeds: [u64; 2], ch: ChannelId) -> Players {
        let counted = |seed| {
            let ops = ops.clone();
            let url = cluster.url();
            async move { Service::new(Counted { inner: RedisStore::connect(&url, 3600).await.unwrap(), ops }, seed) }
        };
        let svcs = [counted(seeds[0]).await, counted(seeds[1]).await];
        Players { svcs, ch, ps: people(), moves: 0 }
    }

    /// The four join, a session of `deals` deals is set and started, each
    /// without an error.
    async fn seat_and_start_checked(&self, deals: usize) {
        let (svcs, ch, ps) = (&self.svcs, &self.ch, &self.ps);
        for p in ps {
            let m = svcs[0].handle(ch, p, "join").await.unwrap().messages();
            assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
        }
        let m = svcs[1].handle(ch, &ps[0], &format!("rules set games_per_session {deals}")).await.unwrap().messages();
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
        svcs[1].handle(ch, &ps[0], "start").await.unwrap();
    }

    /// One move, through the services in turn; false once the session
    /// ended.
    async fn step(&mut self) -> bool {
        let played = act_once(&self.svcs[self.moves % 2], &self.ch, &self.ps).await;
        if played {
            self.moves += 1;
        }
        played
    }

    /// The first deal, and a move into the second.
    async fn play_the_first_deal_and_a_move(&mut self) {
        loop {
            assert!(self.step().await, "the session ended in its first deal");
            let (t, _) = self.svcs[0].table(&self.ch).await.unwrap();
            if t.session().unwrap().sheet().len() == 1 {
                break;
            }
        }
        assert!(self.step().await);
    }

    /// Step 0: In the first deal the table has no records list yet: while its
    /// slot migrates, Redis answers the compare-and-set over both keys
    /// TRYAGAIN (one key there, one missing), and the client retries until
    /// the slot is handed over, here 300 ms later.
    async fn move_while_a_slot_without_records_migrates(
        &mut self,
        nodes: &mut [Node],
        slot: u16,
        [key, recs]: [&str; 2],
    ) {
        let s = slot.to_string();
        let (a, b) = {
            let a = holder(nodes, slot, 1).await;
            (a, (a + 1) % 3)
        };
        let (a_id, b_id) = (nodes[a].id.clone(), nodes[b].id.clone());
        let _: () = run(&mut nodes[b].conn, &["CLUSTER", "SETSLOT", &s, "IMPORTING", &a_id]).await;
        let _: () = run(&mut nodes[a].conn, &["CLUSTER", "SETSLOT", &s, "MIGRATING", &b_id]).await;
        let hand_over = {
            let (s, ports) = (s.clone(), [nodes[a].port, nodes[b].port, nodes[(a + 2) % 3].port]);
            let (key, recs) = (key.to_string(), recs.to_string());
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(300));
                let b_port = ports[1].to_string();
                run_blocking(ports[0], &["MIGRATE", "127.0.0.1", &b_port, "", "0", "5000", "KEYS", &key, &recs]);
                for port in [ports[1], ports[0], ports[2]] {
                    run_blocking(port, &["CLUSTER", "SETSLOT", &s, "NODE", &b_id]);
                }
            })
        };
        assert!(self.step().await, "a move while the slot of a table without records migrates (TRYAGAIN, retried)");
        hand_over.join().expect("hand-over");
        assert_eq!(holder(nodes, slot, 1).await, b, "the table moved");
        let tryagain = info_counts(nodes, "errorstats").await;
        assert!(tryagain.get("TRYAGAIN").copied().unwrap_or(0) >= 1, "{tryagain:?}");
    }

    /// Step 2: Migrates the table's slot by hand, a move between every two
    /// steps, to the primary whose own slots all lie above the table's;
    /// that primary and the third.
    async fn migrate_by_hand_a_move_each_step(
        &mut self,
        nodes: &mut [Node],
        slot: u16,
        [key, recs]: [&str; 2],
    ) -> (usize, usize) {
        let s = slot.to_string();
        let from = holder(nodes, slot, 2).await;
        let mut to = None;
        for i in (0..3).filter(|i| *i != from) {
            if slots_of(&mut nodes[i]).await.first().is_some_and(|lowest| *lowest > slot) {
                to = Some(i);
            }
        }
        let to = to.expect("a primary serving only higher slots");
        let third = (0..3).find(|i| *i != from && *i != to).unwrap();
        let (from_id, to_id, to_port) = (nodes[from].id.clone(), nodes[to].id.clone(), nodes[to].port);
        let _: () = run(&mut nodes[to].conn, &["CLUSTER", "SETSLOT", &s, "IMPORTING", &from_id]).await;
        let _: () = run(&mut nodes[from].conn, &["CLUSTER", "SETSLOT", &s, "MIGRATING", &to_id]).await;
        assert!(self.step().await, "a move while the slot is migrating (keys still on the old node)");
        let _: () = run(
            &mut nodes[from].conn,
            &["MIGRATE", "127.0.0.1", &to_port.to_string(), "", "0", "5000", "KEYS", key, recs],
        )
        .await;
        let moved_keys = holder(nodes, slot, 2).await;
        assert_eq!(moved_keys, to, "the keys moved");
        assert!(self.step().await, "a move with the keys on the new node, the slot not yet handed over (ASK)");
        for i in [to, from, third] {
            let _: () = run(&mut nodes[i].conn, &["CLUSTER", "SETSLOT", &s, "NODE", &to_id]).await;
        }
        assert!(self.step().await, "a move after the slot was handed over (MOVED)");
        let redirects = info_counts(nodes, "errorstats").await;
        assert!(redirects.get("ASK").copied().unwrap_or(0) >= 1, "{redirects:?}");
        assert!(redirects.get("MOVED").copied().unwrap_or(0) >= 1, "{redirects:?}");
        (to, third)
    }

    /// Step 3: A live reshard moves 300 slots of the new holder on to the third
    /// primary while the people play, lowest first: the table's first. The
    /// moves made while it ran, the slots it moved and how long it took.
    async fn play_through_a_live_reshard(
        &mut self,
        nodes: &mut [Node],
        slot: u16,
        to: usize,
        third: usize,
    ) -> (usize, usize, std::time::Duration) {
        let after_manual = self.moves;
        assert_eq!(slots_of(&mut nodes[to]).await.first(), Some(&slot), "the table's slot is the holder's lowest");
        let reshard = reshard_in_a_thread(nodes, to, third);
        // moves while it runs (from the moment it starts; at most 60, well
        // within the deals left), then wait for it
        loop {
            assert!(self.step().await, "the session ended during the reshard");
            if reshard.is_finished() || self.moves - after_manual >= 60 {
                break;
            }
        }
        let during_reshard = self.moves - after_manual;
        let (resharded, reshard_time) = reshard.join().expect("reshard");
        assert_eq!(holder(nodes, slot, 2).await, third, "the live reshard moved the table on");
        assert_eq!(self.svcs[0].store().channels().await.unwrap(), vec![self.ch.clone()], "found on its new primary");
        (during_reshard, resharded, reshard_time)
    }

    /// The session ended after at least `deals` deals (read through service
    /// `by`, its records through service `records_by`): every deal sums to
    /// zero and its record replays, the statistics count every deal once.
    /// The deals on the sheet.
    async fn check_the_session(&self, deals: usize, by: usize, records_by: usize) -> usize {
        let (t, _) = self.svcs[by].table(&self.ch).await.unwrap();
        let session = t.session().expect("a session");
        assert!(session.is_over(), "the session ended");
        assert!(session.sheet().len() >= deals, "{} deals", session.sheet().len());
        for row in session.sheet() {
            assert_eq!(row.scores.iter().sum::<i64>(), 0, "deal {}", row.deal);
            let text =
                self.svcs[records_by].store().record(&self.ch, row.record).await.unwrap().expect("record stored");
            doko_engine::record::replay_stored(&text).unwrap();
        }
        let total: u32 = t.stats().values().map(|s| s.deals).sum();
        assert_eq!(total as usize, 4 * session.sheet().len(), "statistics count every deal once");
        session.sheet().len()
    }
}

/// `redis-cli --cluster reshard` of 300 slots from node `to` to node
/// `third`, in a thread, retried for 20 s while the nodes still disagree:
/// the slots moved and the time it took.
fn reshard_in_a_thread(
    nodes: &[Node],
    to: usize,
    third: usize,
) -> std::thread::JoinHandle<(usize, std::time::Duration)> {
    let (seed, from, to, n) =
        (format!("127.0.0.1:{}", nodes[to].port), nodes[to].id.clone(), nodes[third].id.clone(), 300);
    std::thread::spawn(move || {
        let start = std::time::Instant::now();
        loop {
            // right after the manual hand-over the nodes may still
            // disagree for a moment; redis-cli refuses then
            let out = std::process::Command::new("redis-cli")
                .args(["--cluster", "reshard", &seed, "--cluster-from", &from, "--cluster-to", &to])
                .args(["--cluster-slots", &n.to_string(), "--cluster-yes"])
                .stdin(std::process::Stdio::null())
                .output()
                .expect("redis-cli");
            if out.status.success() {
                return (n, start.elapsed());
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "reshard failed: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    })
}

/// A node as the cluster sees it (a line of `CLUSTER NODES`).
#[derive(Debug)]
pub(crate) struct Seen {
    pub(crate) port: u16,
    primary: bool,
    failed: bool,
    /// The primary's id, for a replica.
    pub(crate) of: Option<String>,
    slots: Vec<(u16, u16)>,
}

/// The cluster as node `c` sees it.
pub(crate) async fn seen_from(c: &mut MultiplexedConnection) -> Vec<Seen> {
    let text: String = run(c, &["CLUSTER", "NODES"]).await;
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let port = f[1].split_once(':').unwrap().1.split('@').next().unwrap().parse().unwrap();
            let slots = f[8..]
                .iter()
                .filter(|t| !t.starts_with('['))
                .map(|r| {
                    let (a, b) = r.split_once('-').unwrap_or((r, r));
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect();
            Seen {
                port,
                primary: f[2].contains("master"),
                failed: f[2].contains("fail"),
                of: (f[3] != "-").then(|| f[3].to_string()),
                slots,
            }
        })
        .collect()
}

/// The port of the primary serving a slot, as node `c` sees it.
pub(crate) async fn primary_port(c: &mut MultiplexedConnection, slot: u16) -> u16 {
    let seen = seen_from(c).await;
    let p = seen.iter().find(|n| n.primary && !n.failed && n.slots.iter().any(|(a, b)| (*a..=*b).contains(&slot)));
    p.unwrap_or_else(|| panic!("no primary serves slot {slot}: {seen:?}")).port
}

/// Whole system through failovers: four people play a session through two
/// services on a cluster of three primaries with a replica each. After the
/// first deal, the replica of the table's primary takes over by a manual
/// `CLUSTER FAILOVER` (the old primary becomes its replica) and the next
/// move goes to it (MOVED); then that new primary is killed (SIGKILL) and
/// the very next move is made at once: it waits while the cluster notices
/// the failure and the other node, in sync, is promoted (the service
/// retrying its store calls), and lands there.
/// No move is lost; the session plays to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_keeps_playing_through_failovers() {
    let mut cluster = LocalCluster::start_with_replicas().expect("redis-server and redis-cli must be installed");
    let mut nodes = nodes(&cluster).await;
    let ops = Arc::new(AtomicU64::new(0));
    let ch = ChannelId::new(Platform::DISCORD, "failover-table");
    let mut p = Players::connect(&cluster, &ops, [41, 42], ch).await;
    for person in &p.ps {
        p.svcs[0].handle(&p.ch, person, "join").await.unwrap();
    }
    let deals = 3;
    p.svcs[1].handle(&p.ch, &p.ps[0], &format!("rules set games_per_session {deals}")).await.unwrap();
    p.svcs[1].handle(&p.ch, &p.ps[0], "start").await.unwrap();
    p.play_the_first_deal_and_a_move().await;
    let slot: u16 = run(&mut nodes[0].conn, &["CLUSTER", "KEYSLOT", "doko:{discord:failover-table}:table"]).await;
    let (old, replica) = p.move_after_a_manual_failover(&cluster, &mut nodes, slot).await;
    // 2. the new primary crashes; its replica (the old primary) is in sync
    cluster.wait_for(cluster.ports[old], "INFO replication", "master_link_status:up").unwrap();
    wait_until_the_replica_caught_up(&mut nodes[replica]).await;
    let (actor, cmd, before) = p.a_card_to_play().await;
    cluster.kill(replica);
    let crashed = std::time::Instant::now();
    // the service retries its store calls within its budget
    // (`STORE_BUDGET`) while the cluster promotes the replica
    let m = p.svcs[p.moves % 2].execute(&p.ch, &actor, cmd).await.unwrap().messages();
    let waited = crashed.elapsed();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "a move made right after the primary crashed: {m:?}");
    p.moves += 1;
    let (_, after) = p.svcs[1].table(&p.ch).await.unwrap();
    assert_eq!(after, before + 1, "no move lost, none doubled");
    let served_by = port_index(&cluster.ports, primary_port(&mut nodes[old].conn, slot).await);
    assert_eq!(served_by, old, "the old primary serves again");
    // 3. play the session to its end on the two primaries left and the
    //    promoted one
    while p.step().await {}
    let sheet_len = p.check_the_session_after_the_failovers(deals).await;
    println!(
        "failover session: {} moves, {} deals; {} store operations; the move after the crash waited {waited:?}",
        p.moves,
        sheet_len,
        ops.load(Ordering::Relaxed),
    );
}

/// The index of a node of the cluster by its port.
pub(crate) fn port_index(ports: &[u16], port: u16) -> usize {
    ports.iter().position(|p| *p == port).expect("a node of the cluster")
}

/// Waits (at most 10 s) until the replica of the primary `primary` has
/// caught up with it.
pub(crate) async fn wait_until_the_replica_caught_up(primary: &mut Node) {
    let synced = std::time::Instant::now();
    loop {
        let info: String = run(&mut primary.conn, &["INFO", "replication"]).await;
        let master: u64 =
            info.lines().find_map(|l| l.strip_prefix("master_repl_offset:")).unwrap().trim().parse().unwrap();
        let replica_at = info
            .lines()
            .find_map(|l| l.strip_prefix("slave0:"))
            .and_then(|l| l.split(',').find_map(|kv| kv.strip_prefix("offset=")))
            .and_then(|v| v.parse::<u64>().ok());
        if replica_at == Some(master) {
            break;
        }
        assert!(synced.elapsed() < std::time::Duration::from_secs(10), "the replica did not catch up: {info}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Once the bidding is over (any legal card is then accepted), a card to
/// play: who plays it, the command, and the table's version and cards
/// played before it; `None` while the bidding goes on.
pub(crate) async fn a_card_if_cards_are_played<S: Store>(
    svc: &Service<S>,
    ch: &ChannelId,
    ps: &[Actor],
) -> Option<(Actor, doko_bot::Command, u64, usize)> {
    let (t, version) = svc.table(ch).await.unwrap();
    let g = t.game().unwrap().expect("a deal in progress");
    if g.plays() == 0 || g.mandatory_announcement().is_some() {
        return None;
    }
    let seat = g.to_act().expect("someone to play");
    let ts = t.table_seat(seat).unwrap();
    let actor = ps.iter().find(|a| t.seat_of(&a.user) == Some(ts)).unwrap().clone();
    let card = g.view(seat).legal.iter().copied().find(|a| matches!(a, Action::Play(_))).expect("a card");
    Some((actor, common::command_for(card), version, g.plays()))
}

impl Players {
    /// Step 1: A manual failover: the replica of the table's primary takes over,
    /// in sync, and the next move lands on it once. The old primary and the
    /// new one.
    async fn move_after_a_manual_failover(
        &mut self,
        cluster: &LocalCluster,
        nodes: &mut [Node],
        slot: u16,
    ) -> (usize, usize) {
        let old = port_index(&cluster.ports, primary_port(&mut nodes[0].conn, slot).await);
        let seen = seen_from(&mut nodes[0].conn).await;
        let replica = seen.iter().find(|n| n.of.as_deref() == Some(nodes[old].id.as_str())).expect("a replica").port;
        let replica = port_index(&cluster.ports, replica);
        let _: () = run(&mut nodes[replica].conn, &["CLUSTER", "FAILOVER"]).await;
        cluster.wait_for(cluster.ports[replica], "ROLE", "master").unwrap();
        let (_, before) = self.svcs[0].table(&self.ch).await.unwrap();
        assert!(self.step().await, "a move after the manual failover");
        let (_, after) = self.svcs[1].table(&self.ch).await.unwrap();
        assert_eq!(after, before + 1, "the move landed once");
        assert_eq!(port_index(&cluster.ports, primary_port(&mut nodes[old].conn, slot).await), replica);
        (old, replica)
    }

    /// The move to make: a card (the bidding is over, so any legal card is
    /// accepted), chosen while the cluster is whole; who plays it, the
    /// command and the table's version before it.
    async fn a_card_to_play(&mut self) -> (Actor, doko_bot::Command, u64) {
        loop {
            if let Some((actor, cmd, version, _)) = a_card_if_cards_are_played(&self.svcs[0], &self.ch, &self.ps).await
            {
                break (actor, cmd, version);
            }
            assert!(self.step().await);
        }
    }

    /// The session ended after at least `deals` deals: every deal sums to
    /// zero and its record replays, the table is found on the primaries
    /// left, the statistics count every deal once. The deals on the sheet.
    async fn check_the_session_after_the_failovers(&self, deals: usize) -> usize {
        let (svcs, ch) = (&self.svcs, &self.ch);
        let (t, _) = svcs[0].table(ch).await.unwrap();
        let session = t.session().expect("a session");
        assert!(session.is_over(), "the session ended");
        assert!(session.sheet().len() >= deals, "{} deals", session.sheet().len());
        for row in session.sheet() {
            assert_eq!(row.scores.iter().sum::<i64>(), 0, "deal {}", row.deal);
            let text = svcs[1].store().record(ch, row.record).await.unwrap().expect("record stored");
            doko_engine::record::replay_stored(&text).unwrap();
        }
        assert_eq!(svcs[0].store().channels().await.unwrap(), vec![ch.clone()], "found on the primaries left");
        let total: u32 = t.stats().values().map(|s| s.deals).sum();
        assert_eq!(total as usize, 4 * session.sheet().len());
        session.sheet().len()
    }
}
