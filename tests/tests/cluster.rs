//! Redis Cluster: against a three-primary cluster each test starts itself
//! (`doko_system_tests::LocalCluster`), the Redis store passes the store
//! contract, keeps a table's keys on one node, finds the tables of every
//! primary, and reads every node's settings; and a session played through
//! two services (two bot processes) keeps playing while its table's slot
//! migrates to another primary between two moves (the client follows the
//! cluster's ASK and MOVED redirections) and again while a live
//! `redis-cli --cluster reshard` moves it on.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use common::act_once;
use common::contract::{contract, trimming};
use doko_bot::{
    Actor, ChannelId, Commit, Keep, Kind, Platform, RedisStore, Service, Store, StoreError, Stored, UserId,
};
use doko_system_tests::LocalCluster;
use redis::aio::MultiplexedConnection;

fn start_cluster() -> LocalCluster {
    LocalCluster::start().expect("redis-server and redis-cli must be installed (scripts/test installs them)")
}

/// A plain connection to one node (no redirections followed).
async fn node(url: &str) -> MultiplexedConnection {
    redis::Client::open(url).unwrap().get_multiplexed_async_connection().await.unwrap()
}

/// Runs a command on one node.
async fn run<T: redis::FromRedisValue>(c: &mut MultiplexedConnection, args: &[&str]) -> T {
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
struct Node {
    conn: MultiplexedConnection,
    id: String,
    port: u16,
}

async fn nodes(cluster: &LocalCluster) -> Vec<Node> {
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
    async fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<Commit, StoreError> {
        self.tick();
        self.inner.commit(ch, expected, json, records).await
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
        ChannelId::new(Platform::Discord, "a"),
        ChannelId::new(Platform::Matrix, "a"),
        ChannelId::new(Platform::Discord, "trim"),
        ChannelId::new(Platform::Discord, "all"),
    ];
    for i in 0..60 {
        let ch = ChannelId::new(Platform::Discord, format!("spread-{i}"));
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
    // one seed is enough to find the whole cluster
    let one = RedisStore::connect(&format!("redis+cluster://127.0.0.1:{}", cluster.ports[1]), 3600).await.unwrap();
    assert_eq!(one.channels().await.unwrap(), want);
    assert_eq!(one.record(&ChannelId::new(Platform::Discord, "spread-7"), 1).await.unwrap().as_deref(), Some("r7"));
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

fn people() -> Vec<Actor> {
    ["Anna", "Ben", "Cleo", "Dirk"]
        .iter()
        .enumerate()
        .map(|(i, name)| Actor::new(UserId::new(Platform::Discord, format!("u{i}")), *name, i == 0))
        .collect()
}

/// Whole system on a cluster: four people play a session through two
/// services (each with its own cluster client, as two bot processes), one
/// move through one service, the next through the other. In the first
/// deal the table's slot migrates while a move waits (TRYAGAIN). After the
/// first deal, the table's slot is migrated by hand to another primary with a move
/// in each step (slot migrating: served by the old node; keys moved: the
/// old node answers ASK; slot handed over: MOVED), then a live
/// `redis-cli --cluster reshard` moves it on to the third primary while the
/// people keep playing. The session plays to its end; its sheet and records
/// check out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_keeps_playing_while_its_table_slot_migrates() {
    let cluster = start_cluster();
    let mut nodes = nodes(&cluster).await;
    let ops = Arc::new(AtomicU64::new(0));
    let counted = |seed| {
        let ops = ops.clone();
        let url = cluster.url();
        async move { Service::new(Counted { inner: RedisStore::connect(&url, 3600).await.unwrap(), ops }, seed) }
    };
    let svcs = [counted(31).await, counted(32).await];
    let ch = ChannelId::new(Platform::Discord, "cluster-table");
    let ps = people();
    for p in &ps {
        let m = svcs[0].handle(&ch, p, "join").await.unwrap().messages();
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    }
    let deals = 4;
    let m = svcs[1].handle(&ch, &ps[0], &format!("rules set games_per_session {deals}")).await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    svcs[1].handle(&ch, &ps[0], "start").await.unwrap();
    for n in &mut nodes {
        let _: () = run(&mut n.conn, &["CONFIG", "RESETSTAT"]).await;
    }
    let mut moves = 0usize;
    // one move, through the services in turn; false once the session ended
    macro_rules! step {
        () => {{
            let played = act_once(&svcs[moves % 2], &ch, &ps).await;
            if played {
                moves += 1;
            }
            played
        }};
    }
    let (key, recs) = ("doko:{discord:cluster-table}:table", "doko:{discord:cluster-table}:records");
    let slot: u16 = run(&mut nodes[0].conn, &["CLUSTER", "KEYSLOT", key]).await;
    let s = slot.to_string();
    // 0. in the first deal the table has no records list yet: while its
    //    slot migrates, Redis answers the compare-and-set over both keys
    //    TRYAGAIN (one key there, one missing), and the client retries
    //    until the slot is handed over, here 300 ms later
    let (a, b) = {
        let a = holder(&mut nodes, slot, 1).await;
        (a, (a + 1) % 3)
    };
    let (a_id, b_id) = (nodes[a].id.clone(), nodes[b].id.clone());
    let _: () = run(&mut nodes[b].conn, &["CLUSTER", "SETSLOT", &s, "IMPORTING", &a_id]).await;
    let _: () = run(&mut nodes[a].conn, &["CLUSTER", "SETSLOT", &s, "MIGRATING", &b_id]).await;
    let hand_over = {
        let (s, ports) = (s.clone(), [nodes[a].port, nodes[b].port, nodes[(a + 2) % 3].port]);
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            let b_port = ports[1].to_string();
            run_blocking(ports[0], &["MIGRATE", "127.0.0.1", &b_port, "", "0", "5000", "KEYS", key, recs]);
            for port in [ports[1], ports[0], ports[2]] {
                run_blocking(port, &["CLUSTER", "SETSLOT", &s, "NODE", &b_id]);
            }
        })
    };
    assert!(step!(), "a move while the slot of a table without records migrates (TRYAGAIN, retried)");
    hand_over.join().expect("hand-over");
    assert_eq!(holder(&mut nodes, slot, 1).await, b, "the table moved");
    let tryagain = info_counts(&mut nodes, "errorstats").await;
    assert!(tryagain.get("TRYAGAIN").copied().unwrap_or(0) >= 1, "{tryagain:?}");
    // 1. the first deal, and a move into the second
    loop {
        assert!(step!(), "the session ended in its first deal");
        let (t, _) = svcs[0].table(&ch).await.unwrap();
        if t.session().unwrap().sheet().len() == 1 {
            break;
        }
    }
    assert!(step!());
    // 2. migrate the table's slot by hand, a move between every two steps
    let from = holder(&mut nodes, slot, 2).await;
    let to = (from + 1) % 3;
    let (from_id, to_id, to_port) = (nodes[from].id.clone(), nodes[to].id.clone(), nodes[to].port);
    let _: () = run(&mut nodes[to].conn, &["CLUSTER", "SETSLOT", &s, "IMPORTING", &from_id]).await;
    let _: () = run(&mut nodes[from].conn, &["CLUSTER", "SETSLOT", &s, "MIGRATING", &to_id]).await;
    assert!(step!(), "a move while the slot is migrating (keys still on the old node)");
    let _: () =
        run(&mut nodes[from].conn, &["MIGRATE", "127.0.0.1", &to_port.to_string(), "", "0", "5000", "KEYS", key, recs])
            .await;
    let moved_keys = holder(&mut nodes, slot, 2).await;
    assert_eq!(moved_keys, to, "the keys moved");
    assert!(step!(), "a move with the keys on the new node, the slot not yet handed over (ASK)");
    for i in [to, from, (from + 2) % 3] {
        let _: () = run(&mut nodes[i].conn, &["CLUSTER", "SETSLOT", &s, "NODE", &to_id]).await;
    }
    assert!(step!(), "a move after the slot was handed over (MOVED)");
    let after_manual = moves;
    let redirects = info_counts(&mut nodes, "errorstats").await;
    assert!(redirects.get("ASK").copied().unwrap_or(0) >= 1, "{redirects:?}");
    assert!(redirects.get("MOVED").copied().unwrap_or(0) >= 1, "{redirects:?}");
    // 3. a live reshard moves the slot on to the third primary while the
    //    people play: as many of the new holder's slots, lowest first, as
    //    it takes to include the table's
    let third = (to + 1) % 3;
    let rank = slots_of(&mut nodes[to]).await.iter().position(|x| *x == slot).expect("the new holder serves the slot");
    let reshard = {
        let (seed, from, to, n) =
            (format!("127.0.0.1:{}", nodes[to].port), nodes[to].id.clone(), nodes[third].id.clone(), rank + 1);
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
    };
    while !reshard.is_finished() {
        if !step!() {
            break;
        }
    }
    let during_reshard = moves - after_manual;
    let (resharded, reshard_time) = reshard.join().expect("reshard");
    assert_eq!(holder(&mut nodes, slot, 2).await, third, "the live reshard moved the table on");
    // 4. play the session to its end
    while step!() {}
    let (t, _) = svcs[1].table(&ch).await.unwrap();
    let session = t.session().expect("a session");
    assert!(session.is_over(), "the session ended");
    assert!(session.sheet().len() >= deals, "{} deals", session.sheet().len());
    for row in session.sheet() {
        assert_eq!(row.scores.iter().sum::<i64>(), 0, "deal {}", row.deal);
        let text = svcs[moves % 2].store().record(&ch, row.record).await.unwrap().expect("record stored");
        doko_engine::record::replay_str(&text).unwrap();
    }
    let total: u32 = t.stats().values().map(|s| s.deals).sum();
    assert_eq!(total as usize, 4 * session.sheet().len(), "statistics count every deal once");
    let redirects = info_counts(&mut nodes, "errorstats").await;
    let commands = info_counts(&mut nodes, "commandstats").await;
    let served: u64 = ["hmget", "evalsha", "eval", "script|load"].iter().filter_map(|c| commands.get(*c)).sum();
    println!(
        "cluster session: {moves} moves ({during_reshard} during a live reshard of {resharded} slots taking {reshard_time:?}), \
         {} deals; {} store operations; {served} table commands served by the cluster; redirections {redirects:?}",
        session.sheet().len(),
        ops.load(Ordering::Relaxed),
    );
}
