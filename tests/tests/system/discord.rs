//! The whole system on Discord: the real `doko` binary against the fake
//! Discord (gateway v10 and REST on loopback). Four people play two complete
//! deals only by slash commands and by clicks on their own ephemeral hand
//! messages, as they would in a client; the bot is killed with SIGKILL in
//! the middle of the first deal and started again; the gateway asks it to
//! reconnect (op 7) and invalidates its session (op 9) mid-deal. One player
//! has closed direct messages and asked for hands by DM.
//!
//! Asserted: every interaction answered within Discord's 3 s; hands only
//! ever in ephemeral messages (or the DMs of the person who asked); one
//! table message per deal, edited in place; at most one "could not send
//! you a DM" notice per deal; no route the fake does not know; mentions
//! ping at most the person named.

use doko_system_tests::doko_binary;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use doko_system_tests::fake_discord::{Callback, Config, FakeDiscord, InteractionHandle, Opt, Place};

const WAIT: Duration = Duration::from_secs(20);

/// The bot as a separate process on the fake's API.
struct Bot {
    child: Child,
}

impl Bot {
    fn start(fake: &FakeDiscord, data: &Path) -> Bot {
        Bot::start_logging(fake, data, "info,doko_discord=debug,serenity=warn")
    }

    /// Started with `DOKO_LOG` set to `log`.
    fn start_logging(fake: &FakeDiscord, data: &Path, log_filter: &str) -> Bot {
        Bot::start_with(fake, data, log_filter, None)
    }

    /// Started with a crash point (`DOKO_FAILPOINT`, bot/src/failpoint.rs).
    fn start_with(fake: &FakeDiscord, data: &Path, log_filter: &str, failpoint: Option<&str>) -> Bot {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(data.join("bot.log")).unwrap();
        let mut cmd = Command::new(doko_binary());
        match failpoint {
            Some(f) => cmd.env("DOKO_FAILPOINT", f),
            None => cmd.env_remove("DOKO_FAILPOINT"),
        };
        let child = cmd
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_GUILD", fake.config().guild_id.to_string())
            .env("DOKO_DATA", data)
            .env_remove("DOKO_REDIS_URL")
            .env_remove("DOKO_MATRIX_HOMESERVER")
            // the test plays at machine speed: no rate limits (bot/tests/bounds.rs has them)
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            .env("DOKO_LOG", log_filter)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("starting doko");
        Bot { child }
    }

    /// Waits for the process to end by itself (a crash point): true when it
    /// did within `wait`.
    fn exited(&mut self, wait: Duration) -> bool {
        doko_system_tests::exited(&mut self.child, wait)
    }

    /// SIGKILL: no chance to clean up.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A person at the table with their own latest ephemeral hand message.
struct Person {
    id: u64,
    /// The ephemeral message that shows their hand (the response to their
    /// last command or click).
    hand: Option<u64>,
}

/// Everything the test sent, to check the answers at the end.
struct Table<'a> {
    fake: &'a FakeDiscord,
    channel: u64,
    people: Vec<Person>,
    sent: Vec<InteractionHandle>,
    /// Whom to ask first who is to act.
    next: usize,
}

impl<'a> Table<'a> {
    /// The first channel's table, once the bot is connected and its
    /// commands are registered; nobody seated yet.
    async fn ready(fake: &'a FakeDiscord, data: &Path) -> Table<'a> {
        fake.wait_ready(WAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log(data)));
        fake.wait_for("the commands registered", WAIT, |f| {
            (!f.guild_commands(f.config().guild_id).is_empty()).then_some(())
        })
        .await
        .unwrap();
        let channel = fake.config().channels[0];
        let people = fake.config().users.iter().map(|u| Person { id: u.id, hand: None }).collect();
        Table { fake, channel, people, sent: Vec::new(), next: 0 }
    }

    fn place(&self) -> Place {
        Place::Channel(self.channel)
    }

    /// `/doko-rules <sub> [options]` by person `p` (an admin's command).
    async fn admin(&mut self, p: usize, sub: &str, options: Vec<Opt>) -> String {
        let i = self.fake.slash(self.people[p].id, self.place(), "doko-rules", vec![Opt::sub(sub, options)]);
        let (h, cb) = self.send(i).await;
        self.answer_text(&h, &cb).await
    }

    /// Sends an interaction and waits for its answer.
    async fn send(&mut self, interaction: serde_json::Value) -> (InteractionHandle, Callback) {
        let h = self.fake.send_interaction(interaction).await.unwrap();
        let cb = self.fake.wait_callback(&h, WAIT).await.unwrap();
        assert!(cb.in_time(), "interaction {} answered late or refused: {cb:?}", h.id);
        self.sent.push(h.clone());
        (h, cb)
    }

    /// `/doko <sub> [options]` by person `p`; their hand message is the
    /// answer, when it shows a hand.
    async fn slash(&mut self, p: usize, sub: &str, options: Vec<Opt>) -> String {
        let i = self.fake.slash(self.people[p].id, self.place(), "doko", vec![Opt::sub(sub, options)]);
        let (h, cb) = self.send(i).await;
        assert!(cb.ephemeral(), "/doko {sub} answered in public: {cb:?}");
        let text = self.answer_text(&h, &cb).await;
        if let Some(m) = self.fake.original_message(&h)
            && !m.custom_ids().is_empty()
        {
            self.people[p].hand = Some(m.id);
        }
        text
    }

    /// The text of an answer (the callback's, or the deferred response's
    /// once edited).
    async fn answer_text(&self, h: &InteractionHandle, cb: &Callback) -> String {
        if cb.kind == 5 || cb.kind == 6 {
            let m = self
                .fake
                .wait_for("the deferred answer", WAIT, |f| f.original_message(h).filter(|m| m.edits() >= 1))
                .await
                .unwrap();
            return m.content;
        }
        cb.content.clone().unwrap_or_default()
    }

    /// Clicks a button on person `p`'s hand message; the message is then
    /// updated with the answer.
    async fn click(&mut self, p: usize, custom_id: &str) -> String {
        let msg = self.people[p].hand.expect("a hand message");
        let i = self.fake.click(self.people[p].id, self.place(), msg, custom_id);
        let (h, cb) = self.send(i).await;
        assert!(matches!(cb.kind, 6 | 7), "a click on a hand is answered by updating it: {cb:?}");
        self.answer_text(&h, &cb).await;
        self.fake.message(msg).unwrap().content
    }

    /// The buttons on person `p`'s hand message that can be clicked.
    fn enabled(&self, p: usize) -> Vec<String> {
        let Some(m) = self.people[p].hand.and_then(|id| self.fake.message(id)) else { return vec![] };
        m.enabled_ids()
    }

    /// The action a plain player takes from these buttons: the first
    /// playable card, else "healthy", else the first other choice.
    fn choose(buttons: &[String]) -> Option<String> {
        let command = |id: &String| id.strip_prefix("doko:").unwrap_or(id).split('@').next().unwrap_or("").to_string();
        let moves: Vec<&String> = buttons.iter().filter(|b| command(b) != "hand").collect();
        moves
            .iter()
            .find(|b| command(b).starts_with("play "))
            .or_else(|| moves.iter().find(|b| command(b) == "healthy"))
            .or_else(|| moves.iter().find(|b| !command(b).starts_with("announce")))
            .map(|b| (*b).clone())
    }

    /// The person to act (from a refreshed hand, from the person after
    /// `from` on), acts once. False when nobody has anything to do.
    async fn act(&mut self, from: usize) -> Option<usize> {
        for k in 0..4 {
            let p = (from + k) % 4;
            let refresh = self.enabled(p).into_iter().find(|b| b.starts_with("doko:hand@"));
            match refresh {
                Some(r) => {
                    self.click(p, &r).await;
                }
                None => {
                    self.slash(p, "hand", vec![]).await;
                }
            }
            if let Some(b) = Self::choose(&self.enabled(p)) {
                let answer = self.click(p, &b).await;
                assert!(!answer.is_empty());
                return Some(p);
            }
        }
        None
    }

    /// Makes `n` moves.
    async fn play(&mut self, n: usize) {
        for k in 0..n {
            let p = self.act(self.next).await.unwrap_or_else(|| panic!("nobody could act after {k} of {n} moves"));
            self.next = (p + 1) % 4;
        }
    }

    /// Plays until the next deal's table message is posted: the deal in
    /// play is over. The number of moves made.
    async fn finish_deal(&mut self) -> usize {
        let tables = self.table_messages().len();
        for n in 0..120 {
            if n >= 48 {
                // the last card's table message follows its answer
                let posted = self
                    .fake
                    .wait_for("the next deal's table message", Duration::from_millis(500), |f| {
                        let t = Table::tables_in(f, self.channel);
                        (t > tables).then_some(())
                    })
                    .await;
                if posted.is_ok() {
                    return n;
                }
            }
            let p = self.act(self.next).await.unwrap_or_else(|| panic!("nobody could act after {n} moves"));
            self.next = (p + 1) % 4;
        }
        panic!("the deal did not end in 120 moves");
    }

    fn tables_in(fake: &FakeDiscord, channel: u64) -> usize {
        fake.channel_messages(channel).iter().filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand")).count()
    }

    /// The public table messages: those with the "my hand" button.
    fn table_messages(&self) -> Vec<doko_system_tests::fake_discord::MessageRecord> {
        self.fake
            .channel_messages(self.channel)
            .into_iter()
            .filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand"))
            .collect()
    }
}

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
    fake.wait_ready(WAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log(&data)));
    let commands = fake
        .wait_for("the commands registered", WAIT, |f| {
            let c = f.guild_commands(f.config().guild_id);
            (!c.is_empty()).then_some(c)
        })
        .await
        .unwrap();
    assert!(commands.iter().any(|c| c["name"] == "doko"), "{commands:?}");

    let channel = fake.config().channels[0];
    let people = fake.config().users.iter().map(|u| Person { id: u.id, hand: None }).collect();
    let mut t = Table { fake: &fake, channel, people, sent: Vec::new(), next: 0 };

    // four join at once: one table message, however the answers interleave
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
    // carol wants her hand by direct message, but hers are closed
    t.slash(2, "dm", vec![Opt::bool("on", true)]).await;
    t.slash(0, "start", vec![]).await;

    // the first deal: some moves, a SIGKILL, a restart, the rest
    t.play(15).await;
    bot.kill();
    let identified = fake.identify_count();
    let mut bot = Bot::start(&fake, &data);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {}", log(&data)));
    let rest = t.finish_deal().await;
    assert!(15 + rest >= 52, "the first deal ended after {} moves: {}", 15 + rest, log(&data));

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
    // the third deal is there to be played; the bot dies in it and, after
    // the restart, its turn clock goes on without anyone typing
    t.play(2).await;
    bot.kill();
    let seen = |f: &FakeDiscord| f.channel_messages(channel).iter().map(|m| m.versions.len()).sum::<usize>();
    let before = seen(&fake);
    let identified = fake.identify_count();
    let mut bot = Bot::start(&fake, &data);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap();
    fake.wait_for("the turn clock after the restart", WAIT, |f| (seen(f) > before).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {}", log(&data)));
    bot.kill();

    // every interaction answered in time (also those sent while the bot was
    // being killed: none, the test waits for each answer)
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
    // hands only in ephemeral messages (or DMs)
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
    let told = fake
        .channel_messages(channel)
        .iter()
        .filter(|m| m.content.starts_with(&format!("<@{carol_id}>")) && m.content.contains("private messages"))
        .count();
    assert!((1..=3).contains(&told), "carol was told {told} times about her DMs (three deals)");
    // mentions: the payload lets Discord ping only the person named
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
    let _ = std::fs::remove_dir_all(&data);
}

fn log(data: &Path) -> String {
    let s = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
    let tail: Vec<&str> = s.lines().rev().take(40).collect();
    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
}

/// Waits until some version of a message in the channel says `text`.
async fn said(fake: &FakeDiscord, channel: u64, text: &str) {
    fake.wait_for(text, WAIT, |f| {
        f.channel_messages(channel)
            .iter()
            .any(|m| {
                m.content.contains(text)
                    || m.versions.iter().any(|v| v["content"].as_str().is_some_and(|c| c.contains(text)))
            })
            .then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {:?}", f_contents(fake, channel)));
}

fn f_contents(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.channel_messages(channel).into_iter().map(|m| m.content).collect()
}

/// An admin's moderation through the gateway: a member who is no admin is
/// refused; the admin kicks a player mid-deal (a computer plays the seat
/// to the deal's end, the kicked player's old buttons play nothing),
/// aborts the deal (void, the record says aborted, the seat is freed and
/// the session ends), and ends a new session with its sheet kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_kicks_aborts_and_ends_the_session_through_the_gateway() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data = std::env::temp_dir().join(format!("doko-discord-mod-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    // everything logged, also the libraries' wire traffic as far as the
    // binary lets it through: no hand and no token may show up in it
    let bot = Bot::start_logging(&fake, &data, "trace");
    let mut t = Table::ready(&fake, &data).await;
    let channel = t.channel;
    let bob = t.people[1].id;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    t.play(6).await;

    // bob is no admin: Discord shows him the admin command, the bot refuses
    let text = t.admin(1, "abort", vec![]).await;
    assert!(text.contains("Manage Server"), "{text}");
    // alice kicks bob by mention; a computer plays his seat to the end
    let text = t.admin(0, "kick", vec![Opt::string("player", &format!("<@{bob}>"))]).await;
    assert!(!text.is_empty());
    said(&fake, channel, "removes bob from the table; a computer plays the seat until this deal ends").await;
    // bob's old hand message: a click plays nothing for him any more
    let old = t.enabled(1);
    if let Some(b) = old.iter().find(|b| b.contains(":play ")) {
        let before = t.table_messages().last().map(|m| m.versions.len());
        let answer = t.click(1, b).await;
        assert!(!answer.contains("Your turn"), "{answer}");
        let after = t.table_messages().last().map(|m| m.versions.len());
        assert_eq!(before, after, "a kicked player's click changed the table");
    }
    // the others play on; bob's turns are the computer's
    t.people[1].hand = None;
    t.play(4).await;
    // alice aborts the deal: it counts for nobody, bob's seat is freed
    t.admin(0, "abort", vec![]).await;
    said(&fake, channel, "alice aborts the deal; it counts for nobody (record 1)").await;
    said(&fake, channel, "bob's seat is free").await;
    // the record says so
    let text = t.slash(0, "record", vec![]).await;
    let rec = fake
        .wait_for("the record file", WAIT, |f| {
            f.messages().into_iter().rev().find(|m| !m.attachments.is_empty()).map(|m| m.attachments[0].clone())
        })
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {text}"));
    assert!(String::from_utf8_lossy(&rec.bytes).contains("\"aborted\""), "{text}");

    // bob comes back, a new session; alice ends it and its sheet is kept
    t.slash(1, "join", vec![]).await;
    t.slash(0, "start", vec![]).await;
    t.play(4).await;
    t.admin(0, "end-session", vec![]).await;
    said(&fake, channel, "alice ends the session; its score sheet is kept").await;
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop(bot);
    let trace = std::fs::read_to_string(data.join("bot.log")).unwrap();
    // the bot's own spans at TRACE, with their fields (a command's kind,
    // never its text)
    assert!(trace.contains("command") && trace.contains("discord_interaction"), "the log at TRACE:\n{trace}");
    for secret in [fake.config().token.as_str(), "doko:play", "Your hand", "♣", "♠", "♥", "♦"] {
        let hit = trace.lines().find(|l| l.contains(secret));
        assert!(hit.is_none(), "the log shows {secret:?}: {hit:?}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

impl Table<'_> {
    /// The person to act and the button they would click, from refreshed
    /// hands (from person `from` on), without clicking it.
    async fn ready_move(&mut self, from: usize) -> Option<(usize, String)> {
        for k in 0..4 {
            let p = (from + k) % 4;
            match self.enabled(p).into_iter().find(|b| b.starts_with("doko:hand@")) {
                Some(r) => {
                    self.click(p, &r).await;
                }
                None => {
                    self.slash(p, "hand", vec![]).await;
                }
            }
            if let Some(b) = Self::choose(&self.enabled(p)) {
                return Some((p, b));
            }
        }
        None
    }

    /// The channel's messages that ping person `p` with "your turn", by id.
    fn prompts(&self, p: usize) -> Vec<u64> {
        let start = format!("<@{}>", self.people[p].id);
        self.fake
            .channel_messages(self.channel)
            .iter()
            .filter(|m| m.content.starts_with(&start) && m.content.contains("your turn"))
            .map(|m| m.id)
            .collect()
    }
}

/// The durable outbox (issue 23) through the gateway: the bot crashes at a
/// crash point right after committing a deal's last card, before anything
/// of it is delivered; started again, it posts what it owed (the result,
/// the next deal's table message) once, then pings the person to act, who
/// plays on. Then the same crash mid-deal, and the bot that delivers what
/// was owed crashes after sending it but before marking it delivered;
/// started again, it sends it all again with the same nonces, which Discord
/// (`enforce_nonce`) answers with the first messages: one prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_crashed_bot_owed_arrives_once_after_the_restart() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data =
        std::env::temp_dir().join(format!("doko-discord-owed-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let quiet = "info,doko_discord=debug,serenity=warn";
    let mut bot = Bot::start(&fake, &data);
    let mut t = Table::ready(&fake, &data).await;
    let channel = t.channel;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    // four "healthy" and 47 cards: one card is left
    t.play(51).await;
    let (p, last) = t.ready_move(t.next).await.expect("the last card");
    assert!(last.contains(":play "), "{last}");

    // a bot that dies right after its next commit
    let restart = |bot: &mut Bot, failpoint: Option<&str>| {
        bot.kill();
        let identified = fake.identify_count();
        let b = Bot::start_with(&fake, &data, quiet, failpoint);
        (b, identified)
    };
    let (mut crashing, identified) = restart(&mut bot, Some("after-commit:1"));
    fake.wait_for("the bot's IDENTIFY", WAIT, |f| (f.identify_count() > identified && f.ready()).then_some(()))
        .await
        .unwrap();
    let msg = t.people[p].hand.unwrap();
    let click = fake.click(t.people[p].id, t.place(), msg, &last);
    fake.send_interaction(click).await.unwrap();
    assert!(crashing.exited(WAIT), "the crash point was not reached: {}", log(&data));
    let tables = t.table_messages().len();
    assert!(
        !fake.channel_messages(channel).iter().any(|m| m.content.contains("Result of deal 1")),
        "delivered before the crash"
    );
    // started again: what it owed, then the prompt
    let (mut bot, identified) = restart(&mut crashing, None);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap();
    said(&fake, channel, "Result of deal 1").await;
    // (the result comes first, then the next deal's table message, then
    // the prompt)
    fake.wait_for("the next deal's table message", WAIT, |f| (Table::tables_in(f, channel) > tables).then_some(()))
        .await
        .unwrap();
    let newest = |t: &Table| t.table_messages().iter().map(|m| m.id).max().unwrap_or(0);
    let after = |t: &Table, q: usize| t.prompts(q).into_iter().filter(|id| *id > newest(t)).count();
    let to_act = fake
        .wait_for("the prompt after the restart", WAIT, |_| (0..4).find(|q| after(&t, *q) > 0))
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {:?} {}", f_contents(&fake, channel), log(&data)));
    assert_eq!(
        t.table_messages().len(),
        tables + 1,
        "the next deal's table message, once: {:?}",
        f_contents(&fake, channel)
    );
    assert_eq!((0..4).map(|q| after(&t, q)).sum::<usize>(), 1, "one prompt: {:?}", f_contents(&fake, channel));
    let results: Vec<u64> = fake
        .channel_messages(channel)
        .iter()
        .filter(|m| m.versions.iter().any(|v| v["content"].as_str().is_some_and(|c| c.contains("Result of deal 1"))))
        .map(|m| m.id)
        .collect();
    assert_eq!(results.len(), 1, "the result once: {:?}", f_contents(&fake, channel));
    // the person pinged plays on
    t.next = to_act;
    t.play(3).await;

    // the same crash mid-deal; then the bot that delivers what was owed
    // dies too, after sending it and before marking it delivered: the
    // third one sends it all again, with the same nonces
    let (p, card) = t.ready_move(t.next).await.expect("a card");
    let (mut crashing, identified) = restart(&mut bot, Some("after-commit:1"));
    fake.wait_for("the bot's IDENTIFY", WAIT, |f| (f.identify_count() > identified && f.ready()).then_some(()))
        .await
        .unwrap();
    let newest_before = fake.messages().iter().map(|m| m.id).max().unwrap_or(0);
    let click = fake.click(t.people[p].id, t.place(), t.people[p].hand.unwrap(), &card);
    fake.send_interaction(click).await.unwrap();
    assert!(crashing.exited(WAIT), "the crash point was not reached: {}", log(&data));
    let (mut crashing, _) = restart(&mut crashing, Some("after-deliver:1"));
    assert!(crashing.exited(WAIT), "the second crash point was not reached: {}", log(&data));
    let repeats = fake.nonce_repeats();
    let (mut bot, _) = restart(&mut crashing, None);
    fake.wait_for("what was owed, sent again", WAIT, |f| (f.nonce_repeats() > repeats).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {}", log(&data)));
    // one prompt after the crash, though it was sent twice
    let prompts: Vec<u64> = (0..4).flat_map(|q| t.prompts(q)).filter(|id| *id > newest_before).collect();
    assert_eq!(prompts.len(), 1, "one prompt: {:?}", f_contents(&fake, channel));
    let made: Vec<_> = fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| m.id > newest_before)
        .filter_map(|m| m.versions[0]["nonce"].as_str().map(str::to_string))
        .collect();
    let mut distinct = made.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(made.len(), distinct.len(), "two messages with one nonce: {made:?}");
    t.next = (0..4).find(|q| t.prompts(*q).contains(&prompts[0])).unwrap();
    t.play(2).await;
    bot.kill();
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    let log_text = std::fs::read_to_string(data.join("bot.log")).unwrap();
    assert_eq!(log_text.matches("failpoint: aborting").count(), 3, "{log_text}");
    let _ = std::fs::remove_dir_all(&data);
}

/// A graceful stop as a service manager does it: SIGTERM to the bot in the
/// middle of a deal. It closes its gateway connection properly (a close
/// frame with 1000, Discord's "logging off"), exits 0, and started again it
/// connects anew and the deal goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_the_gateway_and_the_deal_goes_on_after_a_restart() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data =
        std::env::temp_dir().join(format!("doko-discord-term-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut bot = Bot::start(&fake, &data);
    let mut t = Table::ready(&fake, &data).await;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    t.play(6).await;
    let pid = bot.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    assert!(bot.exited(WAIT), "no exit after SIGTERM: {}", log(&data));
    let status = bot.child.wait().unwrap();
    assert!(status.success(), "{status:?}: {}", log(&data));
    let conns = fake.connections();
    assert!(conns.iter().any(|c| c.closed_by_client == Some(1000)), "no close frame: {conns:?}");
    // started again: a new session, the deal where it was
    let identified = fake.identify_count();
    let _bot = Bot::start(&fake, &data);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {}", log(&data)));
    for p in &mut t.people {
        p.hand = None;
    }
    t.play(4).await;
    let _ = std::fs::remove_dir_all(&data);
}

/// The card labels of a line `PREFIX: [♣Q] ♠10 ...` of a message (the
/// brackets that mark playable cards dropped).
fn labels_after(text: &str, prefix: &str) -> Option<Vec<String>> {
    let line = text.lines().find_map(|l| l.trim().strip_prefix(prefix))?;
    let line = line.split(" -> ").next().unwrap_or(line);
    Some(line.split_whitespace().map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string()).collect())
}

/// The cards a picture was drawn from (read back from the PNG), as labels.
fn picture_labels(png: &[u8]) -> Vec<Vec<String>> {
    let rows = doko_bot::picture::cards_of(png).expect("a card picture made by doko");
    rows.into_iter().map(|r| r.into_iter().map(|c| doko_bot::Lang::En.card(c)).collect()).collect()
}

/// Issue 18 through the gateway: an admin switches the table to card
/// pictures; each hand message carries a picture of exactly that hand,
/// the table message a picture of the trick on the table and the last one
/// (cards everyone saw), the result the whole deal (only once it is over),
/// and no public message ever a hand. A fifth person watches; alice lets
/// her see her hand (Kiebitz): she gets alice's hand with its picture by
/// direct message and nobody else's, ever. `lasttrick` answers privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_pictures_spectators_and_the_last_trick_through_the_gateway() {
    let mut config = Config::default();
    config.users.push(doko_system_tests::fake_discord::FakeUser::new(1_300_000_000_000_001_005, "eve"));
    // names as long as Discord's (32): the result with every trick comes
    // whole (in more than one message where it must)
    for (u, n) in config.users[1..4].iter_mut().zip(["bob", "carol", "dave"]) {
        u.name = format!("{n}{}", "_".repeat(32 - n.len()));
    }
    let names: Vec<String> = config.users[..4].iter().map(|u| u.name.clone()).collect();
    let fake = FakeDiscord::start(config).await.unwrap();
    let data = std::env::temp_dir().join(format!("doko-discord-pic-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&fake, &data);
    let mut t = Table::ready(&fake, &data).await;
    let channel = t.channel;
    let (alice, eve) = (t.people[0].id, t.people[4].id);
    // only an admin may switch the table to pictures
    let text = t.admin(1, "cards", vec![Opt::string("style", "images")]).await;
    assert!(text.contains("Manage Server"), "{text}");
    t.admin(0, "cards", vec![Opt::string("style", "images")]).await;
    said(&fake, channel, "Cards are shown as pictures from now on").await;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    let text = t.slash(4, "watch", vec![]).await;
    assert!(!text.contains("not"), "{text}");
    said(&fake, channel, "eve watches the table.").await;
    // a stranger's hand request shows nothing
    let text = t.slash(4, "hand", vec![]).await;
    assert!(text.contains("not seated"), "{text}");
    t.slash(0, "kiebitz", vec![Opt::string("spectator", &format!("<@{eve}>"))]).await;
    said(&fake, channel, "alice lets eve see their hand (Kiebitz).").await;
    t.slash(0, "start", vec![]).await;
    // eve's direct message: alice's hand as dealt, in words and picture
    let first = fake
        .wait_for("eve's Kiebitz hand", WAIT, |f| f.dms(eve).into_iter().find(|m| !m.attachments.is_empty()))
        .await
        .unwrap();
    let words = labels_after(&first.content, "alice's hand (you are their Kiebitz: do not tell):").expect("the hand");
    assert_eq!(words.len(), 12, "{}", first.content);
    assert_eq!(first.attachments[0].filename, "hand.png");
    assert_eq!(picture_labels(&first.attachments[0].bytes), vec![words.clone()]);
    // eve asks herself: alice's hand again, in her ephemeral answer
    let text = t.slash(4, "hand", vec![]).await;
    assert!(text.contains("alice's hand"), "{text}");

    // play until a trick is taken
    for _ in 0..12 {
        t.play(1).await;
        if t.table_messages().last().is_some_and(|m| m.content.contains("Last trick:")) {
            break;
        }
    }
    // one trick taken, one card of the next on the table: the table's
    // picture shows exactly those, as its text does
    let table = t.table_messages().last().cloned().expect("the table message");
    let pic = table
        .attachments
        .iter()
        .find(|a| a.filename == "trick.png")
        .unwrap_or_else(|| panic!("the trick's picture: {:?} {}", table.attachments, table.content));
    let rows = picture_labels(&pic.bytes);
    assert_eq!(rows[0], labels_after(&table.content, "Trick:").unwrap_or_default(), "{}", table.content);
    assert_eq!(Some(rows[1].clone()), labels_after(&table.content, "Last trick:"), "{}", table.content);
    // lasttrick: privately, card by card
    let text = t.slash(1, "lasttrick", vec![]).await;
    assert!(text.starts_with("Last trick (1.): "), "{text}");
    for l in &rows[1] {
        assert!(text.contains(l.as_str()), "{l} in {text}");
    }
    t.finish_deal().await;

    // every hand picture went with its own hand's words
    let mut checked = 0;
    for cb in fake.callbacks() {
        for a in cb.attachments.iter().filter(|a| a.filename == "hand.png") {
            let content = cb.content.clone().unwrap_or_default();
            let words = labels_after(&content, "Your hand:")
                .or_else(|| labels_after(&content, "alice's hand (you are their Kiebitz: do not tell):"))
                .unwrap_or_else(|| panic!("a hand picture without its hand: {content}"));
            assert_eq!(picture_labels(&a.bytes), vec![words], "{content}");
            checked += 1;
        }
    }
    assert!(checked >= 48, "a picture with every hand shown: {checked}");
    // eve got alice's hand only: by direct message, never anyone else's
    for m in fake.dms(eve) {
        assert!(m.content.contains("alice's hand"), "{}", m.content);
        assert!(!m.content.contains("Your hand"), "{}", m.content);
    }
    for p in 1..4 {
        assert!(fake.dms(t.people[p].id).iter().all(|m| m.attachments.is_empty()), "no DMs were asked for");
    }
    let _ = alice;
    // in public: never a hand picture; the result shows the whole deal
    let public = fake.channel_messages(channel);
    assert!(public.iter().all(|m| m.attachments.iter().all(|a| a.filename != "hand.png")));
    // the result, in as many messages as it takes, the deal's picture with
    // the last
    let start = public.iter().position(|m| m.content.starts_with("Result of deal 1")).expect("the result");
    let mut result = String::new();
    let mut deal = None;
    for m in &public[start..] {
        assert!(m.content.chars().count() <= 2000, "a message Discord refuses");
        result.push_str(&m.content);
        result.push('\n');
        if let Some(a) = m.attachments.iter().find(|a| a.filename == "deal.png") {
            deal = Some(a);
            break;
        }
    }
    assert!(!result.contains('…'), "nothing of the result cut off: {result}");
    for n in 1..=12 {
        assert!(result.contains(&format!("\n  {n}. ")), "trick {n} in the result: {result}");
    }
    let rows = picture_labels(&deal.expect("the deal's picture").bytes);
    let hands: Vec<Vec<String>> = names.iter().filter_map(|n| labels_after(&result, &format!("{n}:"))).collect();
    assert_eq!(hands.len(), 4, "{result}");
    for h in &hands {
        assert!(rows.contains(h), "{h:?} in the deal's picture {rows:?}");
    }
    // eve stops watching: no hand for her any more
    t.slash(4, "unwatch", vec![]).await;
    let text = t.slash(4, "hand", vec![]).await;
    assert!(text.contains("not seated"), "{text}");
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop(bot);
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    for secret in ["♣", "♠", "♥", "♦", "Your hand"] {
        assert!(!log.contains(secret), "the log shows {secret}");
    }
    let _ = std::fs::remove_dir_all(&data);
}
