//! One contract test suite that every store passes (memory, embedded,
//! Redis against a real redis-server), and the race: two service instances
//! on one Redis acting on the same table never lose or double an action.

use crate::common;

use std::sync::Arc;

use common::RedisServer;
use common::contract::{contract, trimming};
use doko_bot::command::Command;
use doko_bot::{
    Actor, ChannelId, EmbeddedStore, Keep, Kind, MemoryStore, Platform, RedisStore, Service, Store, UserId,
};

#[tokio::test]
async fn memory_store_passes_the_contract() {
    contract(&MemoryStore::default()).await;
    trimming(&MemoryStore::default()).await;
}

#[tokio::test]
async fn embedded_store_passes_the_contract_and_survives_reopening() {
    let dir = std::env::temp_dir().join(format!("doko-contract-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("s.redb");
    {
        let s = EmbeddedStore::open(&path).unwrap();
        contract(&s).await;
        trimming(&s).await;
    }
    let s = EmbeddedStore::open(&path).unwrap();
    let a = ChannelId::new(Platform::DISCORD, "a");
    assert_eq!(s.load(&a).await.unwrap().unwrap().version, 4);
    assert_eq!(s.record(&a, 2).await.unwrap().as_deref(), Some("r2"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn redis_store_passes_the_contract() {
    let r = RedisServer::start();
    let s = RedisStore::connect(&r.url(), 3600).await.unwrap();
    contract(&s).await;
    // one hash-tagged namespace per table, with an expiry
    let client = redis::Client::open(r.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query_async(&mut c).await.unwrap();
    let mut keys = keys;
    keys.sort();
    assert_eq!(
        keys,
        ["doko:{discord:a}:records", "doko:{discord:a}:table", "doko:{matrix:a}:records", "doko:{matrix:a}:table"]
    );
    let ttl: i64 = redis::cmd("TTL").arg("doko:{discord:a}:table").query_async(&mut c).await.unwrap();
    assert!(ttl > 3000 && ttl <= 3600, "{ttl}");
    trimming(&s).await;
    // a durable table carries no expiry (and loses one it had)
    for key in ["doko:{discord:trim}:table", "doko:{discord:trim}:records"] {
        let ttl: i64 = redis::cmd("TTL").arg(key).query_async(&mut c).await.unwrap();
        assert_eq!(ttl, -1, "{key}");
    }
    let ttl: i64 = redis::cmd("TTL").arg("doko:{discord:all}:records").query_async(&mut c).await.unwrap();
    assert!(ttl > 3000, "{ttl}");
    s.commit_kept(&ChannelId::new(Platform::DISCORD, "all"), 5, "{}", &[], Keep { durable: true, records: 0 })
        .await
        .unwrap();
    for key in ["doko:{discord:all}:table", "doko:{discord:all}:records"] {
        let ttl: i64 = redis::cmd("TTL").arg(key).query_async(&mut c).await.unwrap();
        assert_eq!(ttl, -1, "{key}");
    }
}

/// A server that forgot the scripts (restarted without them, `SCRIPT
/// FLUSH`): the commit loads its script again and is made once.
#[tokio::test]
async fn redis_commits_after_the_server_forgot_the_script() {
    let r = RedisServer::start();
    let s = RedisStore::connect(&r.url(), 3600).await.unwrap();
    let ch = ChannelId::new(Platform::DISCORD, "forgot");
    assert_eq!(s.commit(&ch, 0, "{}", &["r1".into()]).await.unwrap(), doko_bot::Commit::Done(1));
    let client = redis::Client::open(r.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let () = redis::cmd("SCRIPT").arg("FLUSH").query_async(&mut c).await.unwrap();
    let () = redis::cmd("CONFIG").arg("RESETSTAT").query_async(&mut c).await.unwrap();
    assert_eq!(s.commit(&ch, 1, "{\"a\":1}", &["r2".into()]).await.unwrap(), doko_bot::Commit::Done(2));
    // the first try was refused for the unknown script, the second made
    let stats: String = redis::cmd("INFO").arg("errorstats").query_async(&mut c).await.unwrap();
    assert!(stats.contains("errorstat_NOSCRIPT:count=1"), "{stats}");
    // made once: the new state, both records
    let stored = s.load(&ch).await.unwrap().unwrap();
    assert_eq!((stored.version, stored.json.as_str()), (2, "{\"a\":1}"));
    assert_eq!(s.record(&ch, 2).await.unwrap().as_deref(), Some("r2"));
    assert_eq!(s.record(&ch, 3).await.unwrap(), None);
    // and a conflict is still one
    assert_eq!(s.commit(&ch, 1, "{}", &[]).await.unwrap(), doko_bot::Commit::Conflict);
}

/// Through the service: a table nobody has played at expires; one with a
/// session in progress or statistics does not.
/// Store format 2 keeps a table on Redis as one string,
/// `VERSION RECORDS|STATE`; a table format 1 kept as a hash (fields `v`,
/// `state`, `n`) is read as it is, its records keep their numbers, and
/// its next commit writes the string.
#[tokio::test]
async fn redis_reads_format_one_hashes_and_writes_one_string() {
    let r = RedisServer::start();
    let s = RedisStore::connect(&r.url(), 3600).await.unwrap();
    let client = redis::Client::open(r.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let (table, recs) = ("doko:{discord:old}:table", "doko:{discord:old}:records");
    // format 1: version 7, five records ever stored, the oldest three trimmed
    let () = redis::cmd("HSET")
        .arg(table)
        .arg("v")
        .arg(7)
        .arg("state")
        .arg("{\"old\":1}")
        .arg("n")
        .arg(5)
        .query_async(&mut c)
        .await
        .unwrap();
    let () = redis::cmd("RPUSH").arg(recs).arg("r4").arg("r5").query_async(&mut c).await.unwrap();
    let ch = ChannelId::new(Platform::DISCORD, "old");
    let got = s.load(&ch).await.unwrap().unwrap();
    assert_eq!((got.version, got.json.as_str()), (7, "{\"old\":1}"));
    assert_eq!(s.version(&ch).await.unwrap(), 7);
    assert_eq!(s.record(&ch, 4).await.unwrap().as_deref(), Some("r4"));
    assert_eq!(s.record(&ch, 3).await.unwrap(), None, "trimmed");
    assert_eq!(s.commit(&ch, 6, "{}", &[]).await.unwrap(), doko_bot::Commit::Conflict);
    // the next commit: one string, the records counted on
    let keep = Keep { durable: true, records: 0 };
    let done = s.commit_kept(&ch, 7, "{\"new\":|1}", &["r6".to_string()], keep).await.unwrap();
    assert_eq!(done, doko_bot::Commit::Done(8));
    let kind: String = redis::cmd("TYPE").arg(table).query_async(&mut c).await.unwrap();
    assert_eq!(kind, "string");
    let raw: String = redis::cmd("GET").arg(table).query_async(&mut c).await.unwrap();
    assert_eq!(raw, "8 6|{\"new\":|1}", "VERSION RECORDS|STATE (a | in the state is kept)");
    let got = s.load(&ch).await.unwrap().unwrap();
    assert_eq!((got.version, got.json.as_str()), (8, "{\"new\":|1}"));
    assert_eq!(s.version(&ch).await.unwrap(), 8);
    assert_eq!(s.record(&ch, 6).await.unwrap().as_deref(), Some("r6"));
    assert_eq!(s.record(&ch, 5).await.unwrap().as_deref(), Some("r5"));
    // a table never trimmed: no count; a new table starts at version 1
    let fresh = ChannelId::new(Platform::DISCORD, "fresh");
    assert_eq!(s.version(&fresh).await.unwrap(), 0);
    assert!(s.load(&fresh).await.unwrap().is_none());
    assert_eq!(s.commit(&fresh, 0, "{}", &[]).await.unwrap(), doko_bot::Commit::Done(1));
    let raw: String = redis::cmd("GET").arg("doko:{discord:fresh}:table").query_async(&mut c).await.unwrap();
    assert_eq!(raw, "1 |{}");
}

#[tokio::test]
async fn redis_keeps_tables_with_a_session_or_statistics_without_expiry() {
    let r = RedisServer::start();
    let svc = Service::new(RedisStore::connect(&r.url(), 3600).await.unwrap(), 21);
    let client = redis::Client::open(r.url()).unwrap();
    let c = client.get_multiplexed_async_connection().await.unwrap();
    let ch = ChannelId::new(Platform::DISCORD, "ttl");
    let anna = Actor::new(UserId::new(Platform::DISCORD, "a"), "Anna", false);
    let ttl = |key: &'static str| {
        let mut c = c.clone();
        async move { redis::cmd("TTL").arg(key).query_async::<i64>(&mut c).await.unwrap() }
    };
    svc.handle(&ch, &anna, "join").await.unwrap();
    assert!(ttl("doko:{discord:ttl}:table").await > 0, "nothing played yet: it may expire");
    for cmd in ["addbot", "addbot", "addbot", "start"] {
        svc.handle(&ch, &anna, cmd).await.unwrap();
    }
    assert_eq!(ttl("doko:{discord:ttl}:table").await, -1, "a session in progress");
    svc.handle(&ch, &anna, "away").await.unwrap();
    assert_eq!(ttl("doko:{discord:ttl}:table").await, -1);
    assert_eq!(ttl("doko:{discord:ttl}:records").await, -1);
    let admin = Actor::new(UserId::new(Platform::DISCORD, "m"), "Mod", true);
    svc.handle(&ch, &admin, "reset").await.unwrap();
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(!t.session_open());
    assert_eq!(ttl("doko:{discord:ttl}:table").await, -1, "statistics are kept");
}

/// The bot warns at start when Redis may evict tables or does not keep an
/// append-only file; a server set up as `docs/hosting.md` says gets no
/// warning.
#[tokio::test]
async fn redis_settings_that_endanger_tables_are_warned_about_in_the_log() {
    let r = RedisServer::start();
    let client = redis::Client::open(r.url()).unwrap();
    let c = client.get_multiplexed_async_connection().await.unwrap();
    let set = |name: &'static str, value: &'static str| {
        let mut c = c.clone();
        async move {
            let _: () = redis::cmd("CONFIG").arg("SET").arg(name).arg(value).query_async(&mut c).await.unwrap();
        }
    };
    set("maxmemory-policy", "volatile-lru").await;
    let s = RedisStore::connect(&r.url(), 3600).await.unwrap();
    let log = common::Log::default();
    let warnings = {
        let _guard = tracing::subscriber::set_default(log.subscriber());
        s.check_settings().await
    };
    let text = log.text();
    println!("{text}");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(text.contains("WARN") && text.contains("maxmemory-policy is volatile-lru"), "{text}");
    assert!(text.contains("appendonly is no"), "{text}");
    set("maxmemory-policy", "noeviction").await;
    set("appendonly", "yes").await;
    assert_eq!(s.check_settings().await, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_services_on_one_redis_never_lose_or_double_an_action() {
    let r = RedisServer::start();
    let s1 = Arc::new(Service::new(RedisStore::connect(&r.url(), 3600).await.unwrap(), 11));
    let s2 = Arc::new(Service::new(RedisStore::connect(&r.url(), 3600).await.unwrap(), 12));
    let ch = ChannelId::new(Platform::DISCORD, "race");
    // 1. eight people join at once through both services: exactly five seats
    //    are taken, nobody twice
    let mut handles = Vec::new();
    for i in 0..8 {
        let svc = if i % 2 == 0 { s1.clone() } else { s2.clone() };
        let ch = ch.clone();
        handles.push(tokio::spawn(async move {
            let a = Actor::new(UserId::new(Platform::DISCORD, format!("p{i}")), format!("P{i}"), true);
            svc.execute(&ch, &a, Command::Join).await.unwrap().messages()
        }));
    }
    let mut ok = 0;
    for h in handles {
        let msgs = h.await.unwrap();
        if msgs.iter().all(|m| m.kind != Kind::Error) {
            ok += 1;
        }
    }
    let (t, _) = s1.table(&ch).await.unwrap();
    assert_eq!(t.seats().len(), 5);
    assert_eq!(ok, 5, "exactly the seated five were told they joined");
    let mut keys: Vec<doko_bot::table::PlayerKey> = t.seats().iter().map(|s| s.key()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 5);
    // 2. play on with four: the fifth leaves before the deal
    let fifth = &t.seats()[doko_bot::table::TableSeat::new(4)];
    let leaver = Actor::new(
        match fifth.occupant() {
            doko_bot::table::Occupant::Human { user } => user.clone(),
            _ => unreachable!(),
        },
        fifth.name(),
        true,
    );
    s1.execute(&ch, &leaver, Command::Leave).await.unwrap().messages();
    let (t, _) = s1.table(&ch).await.unwrap();
    let people: Vec<Actor> = t
        .seats()
        .iter()
        .map(|s| match s.occupant() {
            doko_bot::table::Occupant::Human { user } => Actor::new(user.clone(), s.name(), true),
            _ => unreachable!(),
        })
        .collect();
    s2.execute(&ch, &people[0], Command::Start).await.unwrap().messages();
    // 3. every action is delivered twice at once, once to each service
    //    (a duplicate delivery): each lands exactly once
    let mut actions = 0;
    for _ in 0..60 {
        let (t, _) = s1.table(&ch).await.unwrap();
        let Some(g) = t.game().unwrap() else { break };
        let Some(seat) = g.to_act() else { break };
        let ts = t.table_seat(seat).unwrap();
        let actor = people.iter().find(|a| t.seat_of(&a.user) == Some(ts)).unwrap().clone();
        let action = g.view(seat).legal[0];
        let cmd = common::command_for(action);
        let before = g.plays() + g.bids().iter().flatten().count();
        let (a1, a2) = (actor.clone(), actor);
        let (c1, c2) = (cmd.clone(), cmd);
        let (sa, sb, cha, chb) = (s1.clone(), s2.clone(), ch.clone(), ch.clone());
        // the platform delivers one interaction twice, with the same id
        let id = format!("interaction-{actions}");
        let (id1, id2) = (id.clone(), id);
        let h1 = tokio::spawn(async move { sa.execute_delivery(&cha, &a1, c1, Some(&id1)).await.unwrap().messages() });
        let h2 = tokio::spawn(async move { sb.execute_delivery(&chb, &a2, c2, Some(&id2)).await.unwrap().messages() });
        let (m1, m2) = (h1.await.unwrap(), h2.await.unwrap());
        let applied = [&m1, &m2].iter().filter(|m| !m.is_empty()).count();
        assert_eq!(applied, 1, "one delivery is applied, the duplicate ignored: {m1:?} {m2:?}");
        assert!(m1.iter().chain(&m2).all(|x| x.kind != Kind::Error), "the action itself was legal");
        let (t, _) = s1.table(&ch).await.unwrap();
        if let Some(g) = t.game().unwrap() {
            let after = g.plays() + g.bids().iter().flatten().count();
            if t.session().unwrap().deals() == 0 {
                assert_eq!(after, before + 1, "exactly one action more");
            }
        }
        actions += 1;
    }
    assert!(actions >= 40, "{actions} actions raced");
}

/// Store format 4: Redis keeps a table's state compressed (after
/// `VERSION RECORDS|`, a byte that starts no text, the JSON's length and
/// an LZ4 block), shorter than its JSON and never readable as text (a doko
/// of format 3 fails to read it rather than misread it); a state format 3
/// wrote (JSON) is read as it is, played on, and written compressed.
#[tokio::test]
async fn redis_keeps_tables_compressed_and_reads_format_three_json() {
    let r = RedisServer::start();
    let store = RedisStore::connect(&r.url(), 3600).await.unwrap();
    let svc = Service::new(store.clone(), 5);
    let client = redis::Client::open(r.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let ch = ChannelId::new(Platform::DISCORD, "packed");
    let key = "doko:{discord:packed}:table";
    let anna = Actor::new(UserId::new(Platform::DISCORD, "1180000000000000001"), "Anna", false);
    for cmd in ["join", "addbot", "addbot", "addbot", "start"] {
        svc.handle(&ch, &anna, cmd).await.unwrap();
    }
    let stored = store.load(&ch).await.unwrap().unwrap();
    let raw: Vec<u8> = redis::cmd("GET").arg(key).query_async(&mut c).await.unwrap();
    let head = format!("{} |", stored.version);
    assert!(raw.starts_with(head.as_bytes()), "{:?}", String::from_utf8_lossy(&raw[..8]));
    assert_eq!(raw[head.len()], doko_bot::store::packed::PACKED, "compressed");
    let state = &raw[head.len()..];
    assert!(
        state.len() * 10 < stored.json.len() * 7,
        "{} bytes kept for {} bytes of JSON",
        state.len(),
        stored.json.len()
    );
    assert_eq!(doko_bot::store::packed::unpack(state).unwrap(), stored.json);
    let as_text: Result<String, _> = redis::cmd("GET").arg(key).query_async(&mut c).await;
    assert!(as_text.is_err(), "a reader of text (format 3) fails on it: {as_text:?}");

    // the table as format 3 wrote it: JSON after the head
    let three = format!("{} |{}", stored.version + 1, stored.json);
    let () = redis::cmd("SET").arg(key).arg(&three).query_async(&mut c).await.unwrap();
    let fresh = Service::new(RedisStore::connect(&r.url(), 3600).await.unwrap(), 6);
    let (read, v) = fresh.table(&ch).await.unwrap();
    assert_eq!((v, serde_json::to_string(&read).unwrap()), (stored.version + 1, stored.json.clone()), "read as it was");
    let hand = fresh.handle(&ch, &anna, "hand").await.unwrap();
    assert!(!hand.unavailable, "{hand:?}");
    svc.handle(&ch, &anna, "away").await.unwrap();
    let raw: Vec<u8> = redis::cmd("GET").arg(key).query_async(&mut c).await.unwrap();
    let at = raw.iter().position(|&b| b == b'|').unwrap();
    assert_eq!(raw[at + 1], doko_bot::store::packed::PACKED, "written compressed again");
    let after = store.load(&ch).await.unwrap().unwrap();
    assert!(after.version >= stored.version + 2, "the change was kept: {} -> {}", stored.version, after.version);
    assert_ne!(after.json, stored.json);
}
