//! `doko export` and `doko import` as an admin moves a community from the
//! embedded store to Redis: tables with deals in progress and records
//! (the oldest trimmed) are exported by the real binary, imported into a
//! real redis-server, found there unchanged under the same record numbers,
//! exported again to the same bytes, and the deal goes on on Redis. A
//! second import is refused without writing anything.

use std::path::{Path, PathBuf};

use doko_bot::{
    Actor, ChannelId, EmbeddedStore, Limits, Platform, RedisStore, Service, Store, Table, UserId, check_format,
};

mod common;

#[path = "../../tests/local_redis.rs"]
mod local_redis;

fn doko(args: &[&str]) -> (bool, String) {
    let out = common::doko().args(args).output().unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn anna() -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, "1"), "Anna", true)
}

async fn table<S: Store>(svc: &Service<S>, ch: &ChannelId) -> Table {
    svc.table(ch).await.unwrap().0
}

/// Anna plays her first legal action until `done` holds.
async fn play_until<S: Store>(svc: &Service<S>, ch: &ChannelId, done: impl Fn(&Table) -> bool) {
    for _ in 0..2000 {
        let t = table(svc, ch).await;
        if done(&t) {
            return;
        }
        let view = t.view_for(&anna().user).expect("Anna sits at the table");
        let text = doko_bot::Command::from_action(view.legal[0]).to_string();
        let out = svc.handle(ch, &anna(), &text).await.unwrap().messages();
        assert!(!out.iter().any(|m| m.kind == doko_bot::Kind::Error), "{text}: {out:?}");
    }
    panic!("not done after 2000 actions");
}

async fn seat_anna_with_computers<S: Store>(svc: &Service<S>, ch: &ChannelId) {
    for text in ["join", "addbot", "addbot", "addbot", "start"] {
        svc.handle(ch, &anna(), text).await.unwrap();
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("doko-transfer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every table's JSON and every record (by number) of a store.
async fn contents<S: Store>(store: &S) -> Vec<(String, String, Vec<(u32, Option<String>)>)> {
    let mut chs = store.channels().await.unwrap();
    chs.sort();
    let mut out = Vec::new();
    for ch in chs {
        let json = store.load(&ch).await.unwrap().unwrap().json;
        let last = serde_json::from_str::<Table>(&json).unwrap().records();
        let mut recs = Vec::new();
        for n in 1..=last + 1 {
            recs.push((n, store.record(&ch, n).await.unwrap()));
        }
        out.push((ch.key(), json, recs));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_embedded_store_moves_to_redis_and_play_goes_on() {
    let d = dir("move");
    let data = d.join("data");
    let (a, b, c) = (
        ChannelId::new(Platform::DISCORD, "100"),
        ChannelId::new(Platform::MATRIX, "!room:example.org"),
        ChannelId::new(Platform::DISCORD, "300"),
    );
    {
        let store = EmbeddedStore::open(&data.join("doko.redb")).unwrap();
        check_format(&store).await.unwrap();
        // channel a: three deals with one record kept (records 1 and 2
        // trimmed), the fourth in progress
        let svc = Service::new(store, 5).with_limits(Limits { records_kept: 1, ..Limits::default() });
        seat_anna_with_computers(&svc, &a).await;
        play_until(&svc, &a, |t| t.records() == 3).await;
        play_until(&svc, &a, |t| t.game().ok().flatten().is_some_and(|g| g.plays() >= 9)).await;
        // channel b: people seated, nothing dealt; channel c: a deal just begun
        svc.handle(&b, &anna(), "join").await.unwrap();
        seat_anna_with_computers(&svc, &c).await;
    }
    let before = contents(&EmbeddedStore::open(&data.join("doko.redb")).unwrap()).await;
    assert_eq!(before.len(), 3);
    let a_recs = &before.iter().find(|(k, ..)| *k == a.key()).unwrap().2;
    assert_eq!(
        a_recs.iter().map(|(n, r)| (*n, r.is_some())).collect::<Vec<_>>(),
        [(1, false), (2, false), (3, true), (4, false)]
    );

    // export with the binary (the bot is stopped: one process owns the file)
    let dump = d.join("dump.jsonl");
    let (ok, out) = doko(&["--data", path(&data), "export", path(&dump)]);
    assert!(ok, "{out}");
    assert!(out.contains("exported 3 tables and 1 records"), "{out}");

    // import into a real redis-server
    let redis = local_redis::LocalRedis::start().unwrap();
    let url = redis.url();
    let (ok, out) = doko(&["--redis", &url, "import", path(&dump)]);
    assert!(ok, "{out}");
    assert!(out.contains("imported 3 tables and 1 records"), "{out}");
    let rs = RedisStore::connect(&url, 3600).await.unwrap();
    assert_eq!(contents(&rs).await, before, "the same tables and records under the same numbers");
    // a second import is refused and writes nothing
    let (ok, out) = doko(&["--redis", &url, "import", path(&dump)]);
    assert!(!ok && out.contains("already has a table in this store; nothing imported"), "{out}");
    assert_eq!(contents(&rs).await, before);
    // exported again from Redis: the same file
    let again = d.join("again.jsonl");
    let (ok, out) = doko(&["--redis", &url, "export", path(&again)]);
    assert!(ok, "{out}");
    assert_eq!(std::fs::read_to_string(&again).unwrap(), std::fs::read_to_string(&dump).unwrap());

    // the deal in progress goes on on Redis and its record follows the
    // kept one
    let svc = Service::new(rs.clone(), 9).with_limits(Limits { records_kept: 1, ..Limits::default() });
    let plays = table(&svc, &a).await.game().unwrap().unwrap().plays();
    assert!(plays >= 9);
    play_until(&svc, &a, |t| t.records() == 4).await;
    assert!(rs.record(&a, 4).await.unwrap().is_some());
    assert!(rs.record(&a, 3).await.unwrap().is_none(), "trimmed as the limit says");
    play_until(&svc, &c, |t| t.game().ok().flatten().is_some_and(|g| g.plays() >= 4)).await;
}

#[tokio::test]
async fn a_broken_export_is_refused_before_anything_is_written() {
    let d = dir("broken");
    let data = d.join("data");
    for (name, text, says) in [
        ("empty", "", "the file is empty"),
        ("foreign", "{\"format\":\"other\"}\n", "not a doko export"),
        (
            "short",
            "{\"format\":\"doko-export/1\",\"store_format\":1,\"tables\":2}\n{\"channel\":\"discord:1\",\"table\":\"{}\",\"records\":[]}\n",
            "cut short: 1 of 2 tables",
        ),
        (
            "numbers",
            "{\"format\":\"doko-export/1\",\"tables\":1}\n{\"channel\":\"discord:1\",\"table\":\"{}\",\"records\":[[2,\"x\"],[1,\"y\"]]}\n",
            "line 2: record numbers must rise",
        ),
    ] {
        let f = d.join(format!("{name}.jsonl"));
        std::fs::write(&f, text).unwrap();
        let (ok, out) = doko(&["--data", path(&data), "import", path(&f)]);
        assert!(!ok && out.contains(says), "{name}: {out}");
    }
    let store = EmbeddedStore::open(&data.join("doko.redb")).unwrap();
    assert!(store.channels().await.unwrap().is_empty(), "nothing written");
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}
