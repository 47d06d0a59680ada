//! Damaged stored state, on every store (in memory, the embedded file,
//! a real Redis): a table that cannot be read is set aside once with its
//! error, the channel is told clearly (no card in it, none in the log),
//! every command is answered, an admin's `reset` frees the channel, a table
//! written by a newer doko is left alone, and a store in a newer format is
//! refused.

use crate::common;

use common::{Log, RedisServer};
use doko_bot::{
    Actor, AnyStore, App, ChannelId, EmbeddedStore, FormatError, Input, MemoryStore, Outbox, Platform, RedisStore,
    STORE_FORMAT, Service, Store, UserId, check_format,
};
use serde_json::Value;

fn people() -> Vec<Actor> {
    ["Anna", "Ben", "Cleo", "Dora"]
        .iter()
        .map(|n| Actor::new(UserId::new(Platform::TERMINAL, n.to_lowercase()), *n, false))
        .collect()
}

fn admin() -> Actor {
    Actor::new(UserId::new(Platform::TERMINAL, "admin"), "Ada", true)
}

async fn say<S: Store>(svc: &Service<S>, ch: &ChannelId, who: &Actor, text: &str, id: &str) -> Outbox {
    App::handle(svc, ch, who, Input::Text(text.to_string()), Some(id)).await
}

/// Everything an outbox would show anyone.
fn shown(out: &Outbox) -> String {
    let mut s = String::new();
    if let Some(t) = &out.table {
        s.push_str(&t.text());
    }
    for n in &out.notices {
        s.push_str(&n.text);
        s.push('\n');
    }
    for p in &out.private {
        s.push_str(&p.text);
        s.push('\n');
    }
    s
}

/// Every card of the deck in every notation the bot or the engine writes.
fn card_words() -> Vec<String> {
    let mut w = Vec::new();
    for suit in ["C", "S", "H", "D"] {
        for rank in ["9", "10", "T", "J", "Q", "K", "A"] {
            w.push(format!("\"{suit}{rank}\""));
        }
    }
    for sym in ['♣', '♠', '♥', '♦'] {
        w.push(sym.to_string());
    }
    w
}

/// Seats four people and deals; returns the stored JSON and version.
async fn a_running_deal<S: Store>(svc: &Service<S>, ch: &ChannelId) -> (String, u64) {
    for (i, p) in people().iter().enumerate() {
        say(svc, ch, p, "join", &format!("j{i}")).await;
    }
    let out = say(svc, ch, &people()[0], "start", "s").await;
    assert!(!out.unavailable, "{out:?}");
    let stored = svc.store().load(ch).await.unwrap().unwrap();
    (stored.json, stored.version)
}

/// The deal's record made to deal one card twice (as a record written
/// under an older, looser engine might): the engine refuses it, and its
/// error may name the card.
fn card_dealt_twice(json: &str) -> (String, String) {
    let mut v: Value = serde_json::from_str(json).unwrap();
    // (kept compact; written here as the JSON record format 1 kept, which
    // is read as well)
    let rec = &mut v["session"]["deal"]["record"];
    if let Value::String(s) = rec {
        *rec = doko_engine::Record::from_compact(s).unwrap().to_value();
    }
    let hands = &mut v["session"]["deal"]["record"]["hands"];
    // a card of the second hand that differs from the first hand's first
    let dup = hands[1].as_array().unwrap().iter().find(|c| **c != hands[0][0]).unwrap().clone();
    hands[0][0] = dup.clone();
    (serde_json::to_string(&v).unwrap(), dup.as_str().unwrap().to_string())
}

async fn damaged_table_on<S: Store + Clone>(store: S, name: &str) {
    let log = Log::default();
    let _guard = tracing::subscriber::set_default(log.subscriber());
    let svc = Service::new(store.clone(), 7);
    let ch = ChannelId::new(Platform::TERMINAL, format!("damaged-{name}"));
    let (json, version) = a_running_deal(&svc, &ch).await;
    let (bad, card) = card_dealt_twice(&json);
    assert_eq!(store.commit(&ch, version, &bad, &[]).await.unwrap(), doko_bot::Commit::Done(version + 1));
    let id = format!("{}@{}", ch.key(), version + 1);

    // the first command meets it: set aside, the channel told once
    let p = people();
    let out = say(&svc, &ch, &p[1], "hand", "h1").await;
    let text = shown(&out);
    assert!(text.contains("cannot be read") && text.contains(&id), "{name}: {text}");
    assert!(text.contains("reset"), "{name}: says what to do: {text}");
    assert_eq!(out.notices.len(), 1, "{name}: the channel is told: {out:?}");
    assert_eq!(out.private.len(), 1, "{name}: the person is answered: {out:?}");
    assert!(!out.unavailable, "{name}");
    let q = store.quarantined().await.unwrap();
    assert_eq!(q.len(), 1, "{name}: {q:?}");
    assert_eq!((q[0].id(), q[0].state.as_str()), (id.clone(), bad.as_str()), "{name}");
    assert!(!q[0].error.is_empty(), "{name}");

    // every later command is answered, privately, and the channel is not
    // told again; a computer's or the clock's tick does nothing
    for (i, cmd) in ["play CQ", "join", "start", "score", "reset"].iter().enumerate() {
        let out = say(&svc, &ch, &p[i % 4], cmd, &format!("later{i}")).await;
        let text = shown(&out);
        assert!(text.contains("cannot be read"), "{name}: {cmd}: {text}");
        assert!(out.notices.is_empty(), "{name}: {cmd}: {out:?}");
    }
    assert!(App::tick(&svc, &ch).await.is_empty());
    assert_eq!(store.quarantined().await.unwrap().len(), 1, "{name}: set aside once");
    assert_eq!(store.load(&ch).await.unwrap().unwrap().version, version + 1, "{name}: nothing changed");

    // no card in anything shown, none in the log (the reader's error is
    // only in the quarantine)
    let log_text = log.text();
    assert!(log_text.contains("set aside"), "{name}: the operator is told: {log_text}");
    for w in card_words() {
        assert!(!log_text.contains(&w), "{name}: {w} in the log:\n{log_text}");
    }
    assert!(!log_text.contains(&format!("{card} ")), "{name}");

    // an admin's reset frees the channel; the damaged state stays aside
    let out = say(&svc, &ch, &admin(), "reset", "r").await;
    assert!(shown(&out).contains("started afresh"), "{name}: {out:?}");
    let out = say(&svc, &ch, &p[0], "join", "again").await;
    assert!(!shown(&out).contains("cannot be read"), "{name}: {out:?}");
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.seat_of(&p[0].user).is_some(), "{name}");
    assert_eq!(store.quarantined().await.unwrap().len(), 1, "{name}");

    // JSON that is not a table at all: the same, in German where the table
    // said so
    let ch2 = ChannelId::new(Platform::TERMINAL, format!("garbage-{name}"));
    say(&svc, &ch2, &admin(), "lang de", "l").await;
    let v = store.load(&ch2).await.unwrap().unwrap().version;
    store.commit(&ch2, v, r#"{"lang":"de","seats":17}"#, &[]).await.unwrap();
    let out = say(&svc, &ch2, &p[0], "beitreten", "b").await;
    assert!(shown(&out).contains("nicht lesbar"), "{name}: {out:?}");
    assert_eq!(store.quarantined().await.unwrap().len(), 2, "{name}");

    // written by a newer doko: not damaged, not set aside, nothing changed
    let ch3 = ChannelId::new(Platform::TERMINAL, format!("newer-{name}"));
    say(&svc, &ch3, &p[0], "join", "n").await;
    let s = store.load(&ch3).await.unwrap().unwrap();
    let mut v: Value = serde_json::from_str(&s.json).unwrap();
    v["format"] = Value::from(STORE_FORMAT + 1);
    v["seats"] = Value::from("a newer shape");
    store.commit(&ch3, s.version, &v.to_string(), &[]).await.unwrap();
    for who in [&p[1], &admin()] {
        let out = say(&svc, &ch3, who, "reset", &format!("n-{}", who.name)).await;
        assert!(shown(&out).contains("newer version of doko"), "{name}: {out:?}");
    }
    assert_eq!(store.quarantined().await.unwrap().len(), 2, "{name}: a newer table is not set aside");
    assert_eq!(store.load(&ch3).await.unwrap().unwrap().version, s.version + 1, "{name}: and not replaced");
    println!("{name}: a damaged table set aside once, 12 commands answered, freed by an admin's reset");
}

#[tokio::test]
async fn a_damaged_table_in_memory() {
    damaged_table_on(MemoryStore::default(), "memory").await;
}

#[tokio::test]
async fn a_damaged_table_in_the_embedded_store() {
    let dir = std::env::temp_dir().join(format!("doko-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = EmbeddedStore::open(&dir.join("doko.redb")).unwrap();
    damaged_table_on(AnyStore::Embedded(store), "embedded").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_damaged_table_on_redis() {
    let redis = RedisServer::start();
    let store = RedisStore::connect(&redis.url(), 0).await.unwrap();
    damaged_table_on(AnyStore::Redis(store), "redis").await;
}

/// A compressed state on Redis (store format 4) cut short: it does not
/// decompress, so it is set aside like any damaged table, with its bytes
/// (in base64) for the operator, and the channel is told; no card shows.
#[tokio::test]
async fn a_compressed_state_that_does_not_decompress_is_set_aside() {
    let redis = RedisServer::start();
    let store = RedisStore::connect(&redis.url(), 0).await.unwrap();
    let log = Log::default();
    let _guard = tracing::subscriber::set_default(log.subscriber());
    let svc = Service::new(store.clone(), 7);
    let ch = ChannelId::new(Platform::TERMINAL, "cut");
    let (_, version) = a_running_deal(&svc, &ch).await;
    let client = redis::Client::open(redis.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let key = "doko:{terminal:cut}:table";
    let raw: Vec<u8> = redis::cmd("GET").arg(key).query_async(&mut c).await.unwrap();
    let at = raw.iter().position(|&b| b == b'|').unwrap();
    assert_eq!(raw[at + 1], doko_bot::store::packed::PACKED, "kept compressed");
    // cut short, and a version on (as a commit of another process would
    // leave it: this process's copy is then out of date)
    let mut cut = format!("{} |", version + 1).into_bytes();
    cut.extend_from_slice(&raw[at + 1..at + 1 + (raw.len() - at) / 2]);
    let () = redis::cmd("SET").arg(key).arg(&cut).query_async(&mut c).await.unwrap();

    let p = people();
    let out = say(&svc, &ch, &p[2], "hand", "cut-h").await;
    let text = shown(&out);
    let id = format!("{}@{}", ch.key(), version + 1);
    assert!(text.contains("cannot be read") && text.contains(&id), "{text}");
    assert!(!out.unavailable, "answered as damaged, not as a store that failed: {out:?}");
    let q = store.quarantined().await.unwrap();
    assert_eq!(q.len(), 1, "{q:?}");
    assert!(q[0].state.contains("does not decompress") && q[0].state.contains("base64"), "{}", q[0].state);
    let log_text = log.text();
    for w in card_words() {
        assert!(!log_text.contains(&w) && !text.contains(&w), "{w} shown or logged");
    }
    // an admin's reset frees the channel
    let out = say(&svc, &ch, &admin(), "reset", "cut-r").await;
    assert!(shown(&out).contains("started afresh"), "{out:?}");
}

#[tokio::test]
async fn a_damaged_table_on_a_redis_cluster() {
    let cluster = doko_system_tests::LocalCluster::start().expect("redis-server and redis-cli must be installed");
    let store = RedisStore::connect(&cluster.url(), 0).await.unwrap();
    damaged_table_on(AnyStore::Redis(store), "cluster").await;
}

async fn format_on<S: Store>(store: S, name: &str) {
    assert_eq!(store.format_version().await.unwrap(), None, "{name}: a new store");
    assert_eq!(check_format(&store).await.unwrap(), STORE_FORMAT, "{name}");
    assert_eq!(store.format_version().await.unwrap(), Some(STORE_FORMAT), "{name}: written down");
    assert_eq!(check_format(&store).await.unwrap(), STORE_FORMAT, "{name}: and read again");
    store.set_format_version(STORE_FORMAT + 1).await.unwrap();
    match check_format(&store).await {
        Err(e @ FormatError::Newer { .. }) => {
            let text = e.to_string();
            assert!(text.contains("newer doko") && text.contains(&format!("format {}", STORE_FORMAT + 1)), "{text}");
        }
        other => panic!("{name}: {other:?}"),
    }
    assert_eq!(store.format_version().await.unwrap(), Some(STORE_FORMAT + 1), "{name}: left as it was");
}

#[tokio::test]
async fn a_store_in_a_newer_format_is_refused() {
    format_on(MemoryStore::default(), "memory").await;
    let dir = std::env::temp_dir().join(format!("doko-format-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    format_on(EmbeddedStore::open(&dir.join("doko.redb")).unwrap(), "embedded").await;
    let _ = std::fs::remove_dir_all(&dir);
    let redis = RedisServer::start();
    format_on(RedisStore::connect(&redis.url(), 0).await.unwrap(), "redis").await;
    let cluster = doko_system_tests::LocalCluster::start().expect("redis-server and redis-cli must be installed");
    format_on(RedisStore::connect(&cluster.url(), 0).await.unwrap(), "cluster").await;
}
