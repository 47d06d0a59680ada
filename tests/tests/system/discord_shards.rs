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
//!
//! And issue 63's absent person, on both processes at once: the only
//! person at a table of computers stops answering; the channel is told
//! once, no further deal is dealt (across a restart of one process) until
//! they are back.

use doko_system_tests::doko_binary;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use doko_system_tests::LocalRedis;
use doko_system_tests::fake_discord::{
    Config, FakeDiscord, FakeGuild, FakeUser, InteractionHandle, MessageRecord, Opt, Place,
};

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
    let (bot0, mut bot1) = two_processes(&fake, &redis, [&data0, &data1]).await;
    let sessions = fake.sessions();
    assert_eq!(sessions.iter().map(|s| (s.shard, s.num_shards)).collect::<Vec<_>>(), vec![(0, 2), (1, 2)]);
    assert_eq!((fake.identify_count_for(0), fake.identify_count_for(1)), (1, 1));

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

/// Two processes on one Redis, the first with shard 0 of two, the second
/// with shard 1, each with its data directory: both connected, the
/// commands registered.
async fn two_processes(fake: &FakeDiscord, redis: &LocalRedis, [data0, data1]: [&Path; 2]) -> (Bot, Bot) {
    let bot0 = Bot::start(fake, redis, data0, "0-0/2");
    fake.wait_for("shard 0's session", WAIT, |f| f.shard_ready(0).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e}: {}", bot0.log()));
    let bot1 = Bot::start(fake, redis, data1, "1-1/2");
    fake.wait_shards_ready(&[0, 1], WAIT).await.unwrap_or_else(|e| panic!("{e}: {}", bot1.log()));
    let commands = fake
        .wait_for("the commands registered", WAIT, |f| {
            let c = f.global_commands();
            (!c.is_empty()).then_some(c)
        })
        .await
        .unwrap();
    assert!(commands.iter().any(|c| c["name"] == "doko"), "{commands:?}");
    (bot0, bot1)
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

/// What the turn clock tells the channel when a person's time runs out
/// (`event-timed-out` in bot/locales/en/doko.ftl, at `turn_timeout` 3).
const TIMED_OUT: &str = ": no move in 3 seconds; a computer plays your turns until you are back.";
/// What a table of computers and absent people says when a deal ends
/// (`event-waiting`).
const WAITING: &str =
    "Nobody plays in person now (away, or computers only): the next deal waits until someone says start.";

/// One person alone with three computers at a table of one guild.
struct Lone {
    channel: u64,
    guild: u64,
    person: u64,
    name: String,
}

impl Lone {
    /// The person's table in the guild's first channel.
    fn new(guild: &FakeGuild, person: &FakeUser) -> Lone {
        Lone { channel: guild.channels[0], guild: guild.id, person: person.id, name: person.name.clone() }
    }

    /// `/<command> <sub> [options]` by `user` in the table's channel,
    /// answered in time; the answer's text.
    async fn slash(
        &self,
        fake: &FakeDiscord,
        sent: &mut Vec<(InteractionHandle, u64)>,
        (user, command): (u64, &str),
        sub: &str,
        options: Vec<Opt>,
    ) -> String {
        let i = fake.slash(user, Place::Channel(self.channel), command, vec![Opt::sub(sub, options)]);
        send(fake, sent, i, self.guild).await;
        let (h, _) = sent.last().expect("just sent");
        let cb = fake.callbacks_for(h).into_iter().next().expect("answered");
        crate::discord::answer_text(fake, h, &cb).await
    }

    /// The person sits down, three computers join, an admin sets a turn
    /// clock of three seconds, the person starts the first deal.
    async fn open(&self, fake: &FakeDiscord, admin: u64, sent: &mut Vec<(InteractionHandle, u64)>) {
        self.slash(fake, sent, (self.person, "doko"), "join", vec![]).await;
        for _ in 0..3 {
            self.slash(fake, sent, (self.person, "doko"), "addbot", vec![]).await;
        }
        let set = vec![Opt::string("key", "turn_timeout"), Opt::string("value", "3")];
        self.slash(fake, sent, (admin, "doko-rules"), "set", set).await;
        self.slash(fake, sent, (self.person, "doko"), "start", vec![]).await;
        fake.wait_for("the first deal's table message", WAIT, |f| (self.deals(f) == 2).then_some(()))
            .await
            .unwrap_or_else(|e| panic!("{e}: {:#?}", self.contents(fake)));
    }

    /// How many times the channel came to say `text`: a message created
    /// saying it, or edited to say it (a table message shows the events
    /// of the change that edited it: an edit that goes on saying it is
    /// the same telling).
    fn told(&self, fake: &FakeDiscord, text: &str) -> usize {
        let appearances = |m: &MessageRecord| {
            let (mut shown, mut n) = (false, 0);
            for content in m.versions.iter().filter_map(|v| v.get("content").and_then(|c| c.as_str())) {
                let now = content.contains(text);
                n += usize::from(now && !shown);
                shown = now;
            }
            n
        };
        fake.channel_messages(self.channel).iter().map(appearances).sum()
    }

    /// The clock's notices that this person's time ran out.
    fn timed_out(&self, fake: &FakeDiscord) -> usize {
        self.told(fake, &format!("{}{TIMED_OUT}", self.name))
    }

    /// The table messages (with the "my hand" button): the one before the
    /// first deal, then one for every deal dealt.
    fn deals(&self, fake: &FakeDiscord) -> usize {
        let hand = |m: &MessageRecord| m.custom_ids().iter().any(|id| id == "doko:hand");
        fake.channel_messages(self.channel).iter().filter(|m| hand(m)).count()
    }

    /// Every version of every message of the channel, to show when a
    /// check fails.
    fn contents(&self, fake: &FakeDiscord) -> Vec<Vec<String>> {
        let text = |v: &serde_json::Value| v.get("content").and_then(|c| c.as_str()).unwrap_or("-").to_string();
        fake.channel_messages(self.channel).iter().map(|m| m.versions.iter().map(text).collect()).collect()
    }
}

/// Issue 63: the only person at a table of computers stops answering, at a
/// table on each of two processes serving by shard. The channel is told
/// once that a computer plays their turns; the stand-in ends the deal and
/// no further deal is dealt while nobody plays in person (over three ticks
/// of the five-second turn clock, each of which would deal and time out a
/// deal, and across a SIGKILL and restart of the second process). Any
/// command of theirs brings them back, `start` deals the next deal, and a
/// new absence is told once again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_absent_person_is_told_once_and_no_deal_follows_until_they_are_back() {
    let redis = LocalRedis::start().expect("redis-server");
    let fake = FakeDiscord::start(Config::sharded()).await.unwrap();
    let (guilds, users) = (fake.config().guilds(), fake.config().users.clone());
    // alice alone in the first guild (shard 0), bob in the second (shard 1);
    // alice, an admin, sets the clock in both
    let lone = [Lone::new(&guilds[0], &users[0]), Lone::new(&guilds[1], &users[1])];
    let admin = users[0].id;
    let root = std::env::temp_dir().join(format!("doko-discord-absence-{}-{}", std::process::id(), redis.port));
    let _ = std::fs::remove_dir_all(&root);
    let (data0, data1) = (root.join("shard-0"), root.join("shard-1"));
    let (bot0, mut bot1) = two_processes(&fake, &redis, [&data0, &data1]).await;
    let mut sent = Vec::new();
    for t in &lone {
        t.open(&fake, admin, &mut sent).await;
    }

    // nobody answers: told once, the deal ends, the table waits
    for t in &lone {
        fake.wait_for("the stand-in's notice", WAIT, |f| (t.timed_out(f) >= 1).then_some(()))
            .await
            .unwrap_or_else(|e| panic!("{e}: {:#?}\n{}\n{}", t.contents(&fake), bot0.log(), bot1.log()));
    }
    let dealt: Vec<usize> = lone.iter().map(|t| t.deals(&fake)).collect();
    // the receipts of what was delivered are committed (MARK_DELAY), then
    // the second process dies and comes back, its clocks resumed
    tokio::time::sleep(Duration::from_secs(7)).await;
    bot1.kill();
    let bot1 = Bot::start(&fake, &redis, &data1, "1-1/2");
    fake.wait_for("shard 1's new session", WAIT, |f| (f.identify_count_for(1) == 2 && f.shard_ready(1)).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e}: {}", bot1.log()));
    tokio::time::sleep(Duration::from_secs(6)).await;
    for (t, dealt) in lone.iter().zip(&dealt) {
        let shown = t.contents(&fake);
        assert_eq!(t.timed_out(&fake), 1, "{}: {shown:#?}", t.name);
        assert_eq!(t.told(&fake, WAITING), 1, "{}: {shown:#?}", t.name);
        assert_eq!((t.deals(&fake), *dealt), (2, 2), "{}: a deal dealt while nobody plays: {shown:#?}", t.name);
    }

    back_and_absent_again(&fake, &lone, &mut sent).await;
    for (h, g) in &sent {
        assert_eq!(fake.interaction_shard(h), Some(Config::shard_of(*g, 2)), "{h:?}");
    }
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop((bot0, bot1));
    let _ = std::fs::remove_dir_all(&root);
}

/// Each person gives a command (`hand`): they are back, and that alone
/// deals nothing; their `start` deals the next deal, and when they do not
/// answer in it, the channel is told once more.
async fn back_and_absent_again(fake: &FakeDiscord, lone: &[Lone], sent: &mut Vec<(InteractionHandle, u64)>) {
    for t in lone {
        t.slash(fake, sent, (t.person, "doko"), "hand", vec![]).await;
        let back = format!("{} is back.", t.name);
        fake.wait_for("the person back", WAIT, |f| (t.told(f, &back) == 1).then_some(()))
            .await
            .unwrap_or_else(|e| panic!("{e}: {:#?}", t.contents(fake)));
        assert_eq!(t.deals(fake), 2, "{:#?}", t.contents(fake));
        t.slash(fake, sent, (t.person, "doko"), "start", vec![]).await;
        fake.wait_for("the second deal's table message", WAIT, |f| (t.deals(f) == 3).then_some(()))
            .await
            .unwrap_or_else(|e| panic!("{e}: {:#?}", t.contents(fake)));
    }
    for t in lone {
        fake.wait_for("the second absence told", WAIT, |f| (t.timed_out(f) == 2).then_some(()))
            .await
            .unwrap_or_else(|e| panic!("{e}: {:#?}", t.contents(fake)));
    }
}
