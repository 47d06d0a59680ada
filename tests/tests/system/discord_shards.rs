//! Gateway sharding across processes, the whole system: two real `doko`
//! processes on one Redis, one with `DOKO_DISCORD_SHARDS=0-0/2` and one
//! with `1-1/2`, against one fake Discord with two guilds whose ids fall on
//! different shards. Discord sends each guild's events to the session of
//! the guild's shard only (`events/gateway.mdx`, Sharding), so each table
//! is served by one process.
//!
//! The second guild's channel has a snowflake that falls on the *other*
//! shard than its guild, as channel ids may on Discord: whose table it is
//! follows from the guild, never from the channel's own id.
//!
//! Asserted: every interaction goes to the session of its guild's shard and
//! is answered in time by the process holding that session; while one
//! process is dead, the other answers its own guild and does not answer the
//! dead one's; after a SIGKILL and a restart with the same shard range, the
//! restarted process's table's turn clock goes on with nobody typing, and
//! the other process (its session, its table's clock) went on unaffected.

use doko_system_tests::doko_binary;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use doko_system_tests::LocalRedis;
use doko_system_tests::fake_discord::{Config, FakeDiscord, InteractionHandle, Opt, Place};

const WAIT: Duration = Duration::from_secs(20);

/// One `doko` process running some gateway shards, on Redis.
struct Bot {
    child: Child,
    log: PathBuf,
}

impl Bot {
    fn start(fake: &FakeDiscord, redis: &LocalRedis, data: &Path, shards: &str) -> Bot {
        std::fs::create_dir_all(data).unwrap();
        let log = data.join("bot.log");
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&log).unwrap();
        let child = Command::new(doko_binary())
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_SHARDS", shards)
            // global commands: the bot is in two guilds
            .env_remove("DOKO_DISCORD_GUILD")
            .env("DOKO_REDIS_URL", redis.url())
            .env("DOKO_DATA", data)
            .env_remove("DOKO_MATRIX_HOMESERVER")
            // the test plays at machine speed: no rate limits (bot/tests/bounds.rs has them)
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            .env("DOKO_LOG", "info,doko_discord=debug,serenity=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(file))
            .spawn()
            .expect("starting doko");
        Bot { child, log }
    }

    /// SIGKILL: no chance to clean up.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last lines of its log.
    fn log(&self) -> String {
        let s = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = s.lines().rev().take(40).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What a channel shows: each message's number of versions (creation and
/// edits), by message id.
fn seen(fake: &FakeDiscord, channel: u64) -> BTreeMap<u64, usize> {
    fake.channel_messages(channel).iter().map(|m| (m.id, m.versions.len())).collect()
}

/// The turn clock spoke in a channel since `before`: a new message or edit
/// with a reminder or a stand-in's takeover.
fn clock_spoke(fake: &FakeDiscord, channel: u64, before: &BTreeMap<u64, usize>) -> bool {
    fake.channel_messages(channel).iter().any(|m| {
        m.versions.iter().skip(before.get(&m.id).copied().unwrap_or(0)).any(|v| {
            let text = v.to_string();
            text.contains("time is running out") || text.contains("no move in")
        })
    })
}

/// Sends an interaction and waits for its answer, which must come in time.
async fn send(fake: &FakeDiscord, sent: &mut Vec<(InteractionHandle, u64)>, i: serde_json::Value, guild: u64) {
    let h = fake.send_interaction(i).await.unwrap();
    let cb = fake.wait_callback(&h, WAIT).await.unwrap();
    assert!(cb.in_time(), "interaction {} answered late or refused: {cb:?}", h.id);
    sent.push((h, guild));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_each_serve_their_shard_and_a_restart_resumes_its_turn_clocks() {
    let redis = LocalRedis::start().expect("redis-server");
    let config = Config {
        heartbeat_interval: Duration::from_millis(1_000),
        heartbeat_timeout: Some(Duration::from_millis(3_500)),
        ..Config::sharded()
    };
    let fake = FakeDiscord::start(config).await.unwrap();
    let guilds = fake.config().guilds();
    let (g0, g1) = (guilds[0].clone(), guilds[1].clone());
    assert_eq!((Config::shard_of(g0.id, 2), Config::shard_of(g1.id, 2)), (0, 1));
    let (c0, c1) = (g0.channels[0], g1.channels[0]);
    // the second guild's table sits in a channel whose own snowflake maps
    // to shard 0: only its guild says it is shard 1's
    assert_eq!(Config::shard_of(c1, 2), 0);
    let root = std::env::temp_dir().join(format!("doko-discord-shards-{}-{}", std::process::id(), redis.port));
    let _ = std::fs::remove_dir_all(&root);
    let (data0, data1) = (root.join("shard-0"), root.join("shard-1"));

    // two processes, one shard each
    let bot0 = Bot::start(&fake, &redis, &data0, "0-0/2");
    fake.wait_for("shard 0's session", WAIT, |f| f.shard_ready(0).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e}: {}", bot0.log()));
    let mut bot1 = Bot::start(&fake, &redis, &data1, "1-1/2");
    fake.wait_shards_ready(&[0, 1], WAIT).await.unwrap_or_else(|e| panic!("{e}: {}", bot1.log()));
    let sessions = fake.sessions();
    assert_eq!(sessions.iter().map(|s| (s.shard, s.num_shards)).collect::<Vec<_>>(), vec![(0, 2), (1, 2)]);
    assert_eq!((fake.identify_count_for(0), fake.identify_count_for(1)), (1, 1));
    let commands = fake
        .wait_for("the commands registered", WAIT, |f| {
            let c = f.global_commands();
            (!c.is_empty()).then_some(c)
        })
        .await
        .unwrap();
    assert!(commands.iter().any(|c| c["name"] == "doko"), "{commands:?}");

    let users: Vec<u64> = fake.config().users.iter().map(|u| u.id).collect();
    let tables = [(c0, g0.id), (c1, g1.id)];
    let mut sent: Vec<(InteractionHandle, u64)> = Vec::new();
    a_table_in_each_guild(&fake, &users, tables, &mut sent).await;
    let (orphan, before1) =
        the_second_process_dies_the_first_goes_on(&fake, &bot0, &mut bot1, tables, &users, &mut sent).await;

    // the second process again, same shard range: its table's clock goes
    // on with nobody typing
    let bot1 = Bot::start(&fake, &redis, &data1, "1-1/2");
    fake.wait_for("shard 1's new session", WAIT, |f| (f.identify_count_for(1) == 2 && f.shard_ready(1)).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e}: {}", bot1.log()));
    fake.wait_for("the second table's turn clock after the restart", WAIT, |f| {
        clock_spoke(f, c1, &before1).then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e}: {}", bot1.log()));
    // the first process was not disturbed: the same session on the same
    // connection, never identified again
    let now = fake.sessions();
    assert_eq!(
        (now[0].session_id.as_str(), now[0].connection),
        (sessions[0].session_id.as_str(), sessions[0].connection)
    );
    assert_eq!(fake.identify_count_for(0), 1);
    // both answer their own guild
    for (ch, g) in tables {
        let i = fake.slash(users[2], Place::Channel(ch), "doko", vec![Opt::sub("hand", vec![])]);
        send(&fake, &mut sent, i, g).await;
    }
    check_each_went_to_its_shard_in_time(&fake, &sent, &orphan);
    drop((bot0, bot1));
    let _ = std::fs::remove_dir_all(&root);
}

/// A table in each guild (`tables`: channel and guild): four join at once
/// in both, an admin sets a short turn clock, the first person starts.
async fn a_table_in_each_guild(
    fake: &FakeDiscord,
    users: &[u64],
    tables: [(u64, u64); 2],
    sent: &mut Vec<(InteractionHandle, u64)>,
) {
    let joins = futures_util::future::join_all(tables.into_iter().flat_map(|(ch, g)| {
        users.iter().map(move |u| async move {
            let i = fake.slash(*u, Place::Channel(ch), "doko", vec![Opt::sub("join", vec![])]);
            (fake.send_interaction(i).await.unwrap(), g)
        })
    }))
    .await;
    for (h, g) in joins {
        let cb = fake.wait_callback(&h, WAIT).await.unwrap();
        assert!(cb.in_time() && cb.ephemeral(), "{cb:?}");
        sent.push((h, g));
    }
    for (ch, _) in tables {
        fake.wait_for("everyone seated", WAIT, |f| {
            f.channel_messages(ch).iter().find(|m| m.content.contains("(4/4)")).map(|_| ())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}: {:?}", fake.channel_messages(ch)));
    }
    for (ch, g) in tables {
        let set = vec![Opt::string("key", "turn_timeout"), Opt::string("value", "3")];
        let i = fake.slash(users[0], Place::Channel(ch), "doko-rules", vec![Opt::sub("set", set)]);
        send(fake, sent, i, g).await;
        let i = fake.slash(users[0], Place::Channel(ch), "doko", vec![Opt::sub("start", vec![])]);
        send(fake, sent, i, g).await;
    }
}

/// The second process dies: the first answers its own guild and not the
/// dead one's, its table's clock goes on, nobody keeps the dead one's
/// table's clock. The interaction sent to the dead shard and what the
/// second table showed when its process died.
async fn the_second_process_dies_the_first_goes_on(
    fake: &FakeDiscord,
    bot0: &Bot,
    bot1: &mut Bot,
    [(c0, g0), (c1, _)]: [(u64, u64); 2],
    users: &[u64],
    sent: &mut Vec<(InteractionHandle, u64)>,
) -> (InteractionHandle, BTreeMap<u64, usize>) {
    bot1.kill();
    fake.wait_for("shard 1's connection gone", WAIT, |f| (!f.shard_ready(1)).then_some(())).await.unwrap();
    let before1 = seen(fake, c1);
    let before0 = seen(fake, c0);
    // the first answers its own guild, and not the dead one's
    let i = fake.slash(users[1], Place::Channel(c0), "doko", vec![Opt::sub("hand", vec![])]);
    send(fake, sent, i, g0).await;
    let orphan = fake
        .send_interaction(fake.slash(users[1], Place::Channel(c1), "doko", vec![Opt::sub("hand", vec![])]))
        .await
        .unwrap();
    assert_eq!(fake.interaction_shard(&orphan), Some(1));
    assert!(fake.wait_callback(&orphan, Duration::from_millis(1_500)).await.is_err(), "shard 0 answered shard 1's");
    // the first process's table's clock goes on meanwhile
    fake.wait_for("the first table's turn clock while the second process is dead", WAIT, |f| {
        clock_spoke(f, c0, &before0).then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e}: {}", bot0.log()));
    // and nobody kept the dead process's table's clock
    assert_eq!(seen(fake, c1), before1, "the second table moved while its process was dead");
    (orphan, before1)
}

/// Every interaction went to its guild's shard and was answered in time;
/// the one sent while its shard was down was lost with the session, as on
/// Discord: never answered, never answered by the other process.
fn check_each_went_to_its_shard_in_time(
    fake: &FakeDiscord,
    sent: &[(InteractionHandle, u64)],
    orphan: &InteractionHandle,
) {
    for (h, g) in sent {
        assert_eq!(fake.interaction_shard(h), Some(Config::shard_of(*g, 2)), "{h:?}");
        let cbs = fake.callbacks_for(h);
        assert!(!cbs.is_empty() && cbs.iter().all(|c| c.in_time()), "{cbs:?}");
    }
    assert!(fake.callbacks_for(orphan).is_empty());
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
}
