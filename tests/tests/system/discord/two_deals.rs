//! Four people play two complete deals (and the start of a third) only by
//! slash commands and clicks, across a SIGKILL, a reconnect (op 7) and an
//! invalidated session (op 9), one of them with closed direct messages.

use std::path::Path;
use std::time::Duration;

use doko_system_tests::fake_discord::{Config, FakeDiscord, InteractionHandle, Opt};

use super::{Bot, Person, Table, WAIT, log};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_people_play_two_deals_through_the_gateway_across_a_kill_and_reconnects() {
    let carol_id = Config::default().users[2].id;
    let config = Config {
        heartbeat_interval: Duration::from_millis(1_000),
        heartbeat_timeout: Some(Duration::from_millis(3_500)),
        closed_dms: vec![carol_id],
        ..Config::default()
    };
    let fake = FakeDiscord::start(config).await.unwrap();
    let data = std::env::temp_dir().join(format!("doko-discord-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut bot = Bot::start(&fake, &data);
    see_the_commands_registered(&fake, &data).await;

    let channel = fake.config().channels[0];
    let people = fake.config().users.iter().map(|u| Person { id: u.id, hand: None }).collect();
    let mut t = Table { fake: &fake, channel, people, sent: Vec::new(), next: 0 };
    four_join_at_once_and_a_burst_of_table_commands(&mut t).await;
    // carol wants her hand by direct message, but hers are closed
    t.slash(2, "dm", vec![Opt::bool("on", true)]).await;
    t.slash(0, "start", vec![]).await;

    let mut bot = first_deal_across_a_kill(&mut t, &data, &mut bot).await;
    second_deal_across_a_reconnect_and_an_invalid_session(&mut t).await;
    let _bot = third_deal_s_turn_clock_after_a_restart(&mut t, &data, &mut bot).await;

    check_every_interaction_answered_in_time(&fake);
    check_hands_private_and_one_table_message_a_deal(&t, carol_id);
    check_mentions_rate_limits_and_the_log(&fake, &data);
    let _ = std::fs::remove_dir_all(&data);
}

/// The bot is connected and its `doko` command registered.
async fn see_the_commands_registered(fake: &FakeDiscord, data: &Path) {
    fake.wait_ready(WAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log(data)));
    let commands = fake
        .wait_for("the commands registered", WAIT, |f| {
            let c = f.guild_commands(f.config().guild_id);
            (!c.is_empty()).then_some(c)
        })
        .await
        .unwrap();
    assert!(commands.iter().any(|c| c["name"] == "doko"), "{commands:?}");
}

/// Four join at once, then 200 commands for the table at once: one table
/// message, however the answers interleave.
async fn four_join_at_once_and_a_burst_of_table_commands(t: &mut Table<'_>) {
    let (fake, channel) = (t.fake, t.channel);
    let joins: Vec<InteractionHandle> =
        futures_util::future::join_all((0..4).map(|p| {
            fake.send_interaction(fake.slash(t.people[p].id, t.place(), "doko", vec![Opt::sub("join", vec![])]))
        }))
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    for h in &joins {
        let cb = fake.wait_callback(h, WAIT).await.unwrap();
        assert!(cb.in_time() && cb.ephemeral(), "{cb:?}");
    }
    fake.wait_for("everyone seated", WAIT, |f| {
        f.channel_messages(channel).iter().find(|m| m.content.contains("(4/4)")).map(|_| ())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {:?}", fake.channel_messages(channel)));
    assert_eq!(t.table_messages().len(), 1, "{:?}", fake.channel_messages(channel));
    // 200 commands for the table at once: still one table message
    let burst: Vec<InteractionHandle> = futures_util::future::join_all((0..200).map(|i| {
        let who = t.people[i % 4].id;
        fake.send_interaction(fake.slash(who, t.place(), "doko", vec![Opt::sub("table", vec![])]))
    }))
    .await
    .into_iter()
    .map(Result::unwrap)
    .collect();
    for h in &burst {
        let cb = fake.wait_callback(h, WAIT).await.unwrap();
        assert!(cb.in_time(), "{cb:?}");
    }
    assert_eq!(t.table_messages().len(), 1, "{:?}", fake.channel_messages(channel));
}

/// The first deal: some moves, a SIGKILL, a restart, the rest. The
/// restarted bot.
async fn first_deal_across_a_kill(t: &mut Table<'_>, data: &Path, bot: &mut Bot) -> Bot {
    let fake = t.fake;
    t.play(15).await;
    bot.kill();
    let identified = fake.identify_count();
    let bot = Bot::start(fake, data);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {}", log(data)));
    let rest = t.finish_deal().await;
    assert!(15 + rest >= 52, "the first deal ended after {} moves: {}", 15 + rest, log(data));
    bot
}

/// The second deal follows by itself; played across a reconnect (op 7),
/// rate limits, a rule change and an invalidated session (op 9).
async fn second_deal_across_a_reconnect_and_an_invalid_session(t: &mut Table<'_>) {
    let (fake, channel) = (t.fake, t.channel);
    // the second deal follows by itself; `start` says it is running
    let text = t.slash(1, "start", vec![]).await;
    assert!(!text.is_empty());
    t.play(10).await;
    let resumed = fake.resume_count();
    assert!(fake.reconnect());
    fake.wait_for("a RESUME after op 7", WAIT, |f| (f.resume_count() > resumed && f.ready()).then_some(()))
        .await
        .unwrap();
    // Discord limits the bot for a while: waited out, nothing lost
    fake.rate_limit("PATCH", "/messages/", 2, Duration::from_millis(200));
    fake.rate_limit("POST", &format!("/channels/{channel}/messages"), 2, Duration::from_millis(200));
    t.play(10).await;
    // from the next deal on, three seconds to act
    t.admin(0, "set", vec![Opt::string("key", "turn_timeout"), Opt::string("value", "3")]).await;
    fake.wait_for("the rule change told", WAIT, |f| {
        f.channel_messages(channel).iter().find(|m| m.content.contains("turn_timeout")).map(|_| ())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {:?}", fake.channel_messages(channel).last()));
    let identified = fake.identify_count();
    assert!(fake.invalid_session(false));
    fake.wait_for("a new IDENTIFY after op 9", Duration::from_secs(30), |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap();
    let rest = t.finish_deal().await;
    assert!(20 + rest >= 52, "the second deal ended after {} moves", 20 + rest);
}

/// The third deal is there to be played; the bot dies in it and, after the
/// restart, its turn clock goes on without anyone typing. The restarted
/// bot (killed again).
async fn third_deal_s_turn_clock_after_a_restart(t: &mut Table<'_>, data: &Path, bot: &mut Bot) -> Bot {
    let (fake, channel) = (t.fake, t.channel);
    t.play(2).await;
    bot.kill();
    let seen = |f: &FakeDiscord| f.channel_messages(channel).iter().map(|m| m.versions.len()).sum::<usize>();
    let before = seen(fake);
    let identified = fake.identify_count();
    let mut bot = Bot::start(fake, data);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap();
    fake.wait_for("the turn clock after the restart", WAIT, |f| (seen(f) > before).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {}", log(data)));
    bot.kill();
    bot
}

/// Every interaction answered in time (also those sent while the bot was
/// being killed: none, the test waits for each answer); the figure for
/// BENCHMARKS.md printed, not asserted.
fn check_every_interaction_answered_in_time(fake: &FakeDiscord) {
    let mut times = Vec::new();
    for c in fake.callbacks() {
        assert!(c.in_time(), "{c:?}");
        assert!(c.elapsed < Duration::from_secs(3), "{c:?}");
        times.push(c.elapsed);
    }
    // the figure for BENCHMARKS.md (printed, not asserted)
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "interaction to callback through the fake gateway: {} interactions, median {:.1} ms, p99 {:.1} ms",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3
    );
}

/// Hands only in ephemeral messages (or DMs); one table message per deal,
/// edited in place; carol, whose DMs were refused, told at most once a
/// deal.
fn check_hands_private_and_one_table_message_a_deal(t: &Table<'_>, carol_id: u64) {
    let (fake, channel) = (t.fake, t.channel);
    for m in fake.channel_messages(channel) {
        let card = m.custom_ids().iter().any(|id| id.contains(":play ") || id.contains(":healthy"));
        assert!(!card, "a hand in public: {m:?}");
        for v in &m.versions {
            assert!(!v.to_string().contains("play "), "a hand's button in public: {v}");
        }
    }
    // one table message per deal, edited in place
    // (the table before the first deal, the two deals, the third)
    let tables = t.table_messages();
    assert_eq!(tables.len(), 4, "table messages: {:?}", tables.iter().map(|m| &m.content).collect::<Vec<_>>());
    let edits: Vec<usize> = tables.iter().map(|m| m.edits()).collect();
    assert!(edits[1] >= 40 && edits[2] >= 40, "edits of the table messages: {edits:?}");
    // carol: her DMs were refused, the channel was told at most once a deal
    assert!(!fake.refused_dms(carol_id).is_empty(), "the bot never tried carol's DMs");
    // and tried them once: not again for every hand (one try per bot
    // process: the test runs three of them)
    let tries = fake.refused_dms(carol_id).len();
    assert!(tries <= 3, "{tries} direct messages to carol refused in three deals");
    let told = fake
        .channel_messages(channel)
        .iter()
        .filter(|m| m.content.starts_with(&format!("<@{carol_id}>")) && m.content.contains("private messages"))
        .count();
    assert!((1..=3).contains(&told), "carol was told {told} times about her DMs (three deals)");
}

/// Mentions: the payload lets Discord ping only the person named; no
/// route the fake does not know; the rate limits were hit; nothing failed
/// in the log.
fn check_mentions_rate_limits_and_the_log(fake: &FakeDiscord, data: &Path) {
    for r in fake.requests().iter().filter(|r| r.method == "POST" && r.path.ends_with("/messages")) {
        let users = r.body["allowed_mentions"]["users"].as_array().cloned().unwrap_or_default();
        assert!(r.body["allowed_mentions"].is_object(), "no allowed_mentions: {:?}", r.body);
        assert!(r.body["allowed_mentions"]["parse"].as_array().is_none_or(|p| p.is_empty()), "{:?}", r.body);
        assert!(users.len() <= 1, "{:?}", r.body);
    }
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    let limited = fake.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(limited, 4, "the rate limits were hit");
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    for failed in ["table message failed", "posting a notice failed", "posting the mention failed"] {
        assert!(!log.contains(failed), "{failed}: {log}");
    }
}
