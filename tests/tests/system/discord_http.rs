//! The whole system in HTTP interactions mode: two real `doko` processes
//! serve Discord's interactions endpoint (`DOKO_DISCORD_INTERACTIONS`) on
//! one Redis, behind no gateway; the fake Discord signs every interaction
//! with the application's Ed25519 key and POSTs it to one process or the
//! other, alternately, as a load balancer would spread them. Later
//! messages (the table message, its edits, notices, deferred answers) go
//! from the processes to the fake's REST API.
//!
//! Four people play a whole deal for one table only by slash commands and
//! clicks on their own ephemeral hand messages. Asserted: every interaction
//! answered 200 with a valid response body within Discord's 3 s; hands only
//! ever in ephemeral messages; one table message per deal, edited in
//! place; no REST request refused and no route the fake does not know.
//! Then the endpoint's guard: PING answered PONG; a forged signature (wrong
//! key), a missing signature, a changed body, a stale or future timestamp,
//! and an exact replay of an accepted request are refused with 401 and
//! change nothing.
//!
//! `interactions_per_second` (ignored; run it by name) measures what the
//! two processes sustain: many tables played at once.

use doko_system_tests::doko_binary;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use doko_system_tests::LocalRedis;
use doko_system_tests::fake_discord::{
    Config, EndpointReply, FakeDiscord, InteractionHandle, Opt, Place, SignedRequest, unix_now,
};
use serde_json::Value;

const WAIT: Duration = Duration::from_secs(20);
/// Discord's deadline for the first response.
const DEADLINE: Duration = Duration::from_secs(3);

/// A `doko` process serving the interactions endpoint on a loopback port.
struct Endpoint {
    child: Child,
    /// `http://127.0.0.1:<port>/interactions`.
    url: String,
    log: PathBuf,
}

impl Endpoint {
    fn start(fake: &FakeDiscord, redis: &LocalRedis, data: &Path, name: &str) -> Endpoint {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = data.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("bot.log");
        let out = std::fs::OpenOptions::new().create(true).append(true).open(&log).unwrap();
        let mut cmd = Command::new(doko_binary());
        // nothing of the caller's environment configures the bot
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("DOKO_") {
                cmd.env_remove(k);
            }
        }
        let child = cmd
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_GUILD", fake.config().guild_id.to_string())
            .env("DOKO_DISCORD_INTERACTIONS", format!("127.0.0.1:{port}"))
            .env("DOKO_DISCORD_PUBLIC_KEY", fake.public_key())
            .env("DOKO_REDIS_URL", redis.url())
            .env("DOKO_DATA", &dir)
            // the test plays at machine speed: no rate limits (bot/tests/bounds.rs has them)
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            .env("DOKO_LOG", "info,doko_discord=debug,serenity=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(out))
            .spawn()
            .expect("starting doko");
        Endpoint { child, url: format!("http://127.0.0.1:{port}/interactions"), log }
    }

    /// Waits until the endpoint answers a signed PING with PONG.
    async fn listening(&mut self, fake: &FakeDiscord) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("doko ended ({status}): {}", self.log_tail());
            }
            if let Ok(r) = fake.post_signed(&self.url, &fake.sign(&fake.ping())).await {
                assert_eq!((r.status, r.kind()), (200, Some(1)), "PING: {r:?}");
                return;
            }
            assert!(start.elapsed() < WAIT, "the endpoint did not come up: {}", self.log_tail());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn log_tail(&self) -> String {
        let s = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = s.lines().rev().take(40).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A person at a table with their own latest ephemeral hand message.
struct Person {
    id: u64,
    hand: Option<u64>,
}

/// One table played through the endpoints, its interactions sent to them
/// in turn.
struct Table<'a> {
    fake: &'a FakeDiscord,
    urls: Vec<String>,
    channel: u64,
    people: Vec<Person>,
    /// Every accepted request, the endpoint it went to, and the answer.
    sent: Vec<(SignedRequest, usize, EndpointReply)>,
    /// Whom to ask first who is to act.
    next: usize,
    /// Panic on a late or bad answer (else count it).
    strict: bool,
    /// After each answer, wait until the bot's REST requests are done, as
    /// people are slower than the bot (else send at once).
    pace: bool,
    /// Late or bad answers (when not strict).
    failures: usize,
}

impl<'a> Table<'a> {
    fn new(fake: &'a FakeDiscord, urls: &[String], channel: u64, users: &[u64]) -> Table<'a> {
        let people = users.iter().map(|id| Person { id: *id, hand: None }).collect();
        Table {
            fake,
            urls: urls.to_vec(),
            channel,
            people,
            sent: Vec::new(),
            next: 0,
            strict: true,
            pace: true,
            failures: 0,
        }
    }

    fn place(&self) -> Place {
        Place::Channel(self.channel)
    }

    /// Signs and sends an interaction to the next endpoint in turn; checks
    /// the answer: 200, a valid response for the interaction, in time,
    /// applied by the fake without an error.
    async fn send(&mut self, interaction: Value) -> (InteractionHandle, EndpointReply) {
        let to = self.sent.len() % self.urls.len();
        let req = self.fake.sign(&interaction);
        let h = InteractionHandle {
            id: interaction["id"].as_str().unwrap().parse().unwrap(),
            token: interaction["token"].as_str().unwrap().to_string(),
            kind: interaction["type"].as_u64().unwrap(),
        };
        let r = self.fake.post_signed(&self.urls[to], &req).await.unwrap();
        let ok = r.valid_for(h.kind) && r.elapsed < DEADLINE;
        if !self.strict && !ok {
            self.failures += 1;
            return (h, r);
        }
        assert!(r.valid_for(h.kind), "interaction {} (type {}): {r:?}", h.id, h.kind);
        assert!(r.elapsed < DEADLINE, "interaction {} answered after {:?}", h.id, r.elapsed);
        let cb = self.fake.callbacks_for(&h);
        assert!(cb.len() == 1 && cb[0].in_time(), "the answer was refused: {cb:?}");
        self.sent.push((req, to, r.clone()));
        if self.pace {
            settle(self.fake).await;
        }
        (h, r)
    }

    /// The text of an answer (the response's, or the deferred response's
    /// once edited).
    async fn answer_text(&self, h: &InteractionHandle, r: &EndpointReply) -> String {
        if matches!(r.kind(), Some(5 | 6)) {
            let m = self
                .fake
                .wait_for("the deferred answer", WAIT, |f| f.original_message(h).filter(|m| m.edits() >= 1))
                .await
                .unwrap();
            return m.content;
        }
        r.content().unwrap_or_default().to_string()
    }

    /// `/doko <sub> [options]` by person `p`; their hand message is the
    /// answer, when it shows a hand.
    async fn slash(&mut self, p: usize, sub: &str, options: Vec<Opt>) -> String {
        let i = self.fake.slash(self.people[p].id, self.place(), "doko", vec![Opt::sub(sub, options)]);
        let (h, r) = self.send(i).await;
        assert!(r.ephemeral() || r.kind() == Some(5), "/doko {sub} answered in public: {r:?}");
        let text = self.answer_text(&h, &r).await;
        if let Some(m) = self.fake.original_message(&h)
            && !m.custom_ids().is_empty()
        {
            self.people[p].hand = Some(m.id);
        }
        text
    }

    /// Clicks a button on person `p`'s hand message, which the answer
    /// updates.
    async fn click(&mut self, p: usize, custom_id: &str) -> String {
        let msg = self.people[p].hand.expect("a hand message");
        let i = self.fake.click(self.people[p].id, self.place(), msg, custom_id);
        let (h, r) = self.send(i).await;
        assert!(matches!(r.kind(), Some(6 | 7)), "a click on a hand is answered by updating it: {r:?}");
        self.answer_text(&h, &r).await;
        self.fake.message(msg).unwrap().content
    }

    /// The buttons on person `p`'s hand message that can be clicked.
    fn enabled(&self, p: usize) -> Vec<String> {
        let Some(m) = self.people[p].hand.and_then(|id| self.fake.message(id)) else { return vec![] };
        m.enabled_ids()
    }

    /// The command text of a button (`doko:play CQ@123~stamp` → `play CQ`).
    fn command(id: &str) -> &str {
        id.strip_prefix("doko:").unwrap_or(id).split('@').next().unwrap_or("")
    }

    /// The move a plain player makes from these buttons: the first playable
    /// card, else "healthy", else the first other choice but announcements.
    fn choose(buttons: &[String]) -> Option<String> {
        let moves: Vec<&String> = buttons.iter().filter(|b| Self::command(b) != "hand").collect();
        moves
            .iter()
            .find(|b| Self::command(b).starts_with("play "))
            .or_else(|| moves.iter().find(|b| Self::command(b) == "healthy"))
            .or_else(|| moves.iter().find(|b| !Self::command(b).starts_with("announce")))
            .map(|b| (*b).clone())
    }

    /// Refreshes person `p`'s hand (the refresh button, else `/doko hand`)
    /// and returns the move they would make now.
    async fn ready_move(&mut self, p: usize) -> Option<String> {
        match self.enabled(p).into_iter().find(|b| b.starts_with("doko:hand@")) {
            Some(r) => {
                self.click(p, &r).await;
            }
            None => {
                self.slash(p, "hand", vec![]).await;
            }
        }
        Self::choose(&self.enabled(p))
    }

    /// The person to act (from a refreshed hand, from `self.next` on)
    /// acts once; who it was.
    async fn act(&mut self) -> Option<usize> {
        for k in 0..4 {
            let p = (self.next + k) % 4;
            if let Some(b) = self.ready_move(p).await {
                let answer = self.click(p, &b).await;
                assert!(!answer.is_empty());
                self.next = (p + 1) % 4;
                return Some(p);
            }
        }
        None
    }

    /// The public table messages: those with the "my hand" button.
    fn table_messages(&self) -> Vec<doko_system_tests::fake_discord::MessageRecord> {
        tables_in(self.fake, self.channel)
    }

    /// Plays until the result of deal `number` is shown in the channel.
    /// The number of moves made.
    async fn finish_deal(&mut self, number: u32) -> usize {
        let result = format!("Result of deal {number}");
        for n in 0..120 {
            if n >= 48 {
                // the last card's table message follows its answer
                let shown = self
                    .fake
                    .wait_for("the deal's result", Duration::from_millis(500), |f| {
                        shown_in(f, self.channel, &result).then_some(())
                    })
                    .await;
                if shown.is_ok() {
                    return n;
                }
            }
            self.act().await.unwrap_or_else(|| panic!("nobody could act after {n} moves"));
        }
        panic!("the deal did not end in 120 moves");
    }
}

/// Whether any version of a public message in the channel says `text`.
fn shown_in(fake: &FakeDiscord, channel: u64, text: &str) -> bool {
    fake.channel_messages(channel)
        .iter()
        .any(|m| m.versions.iter().any(|v| v["content"].as_str().is_some_and(|c| c.contains(text))))
}

/// Waits until the bot has made no REST request for a while: what an
/// interaction set off is done.
async fn settle(fake: &FakeDiscord) {
    let mut seen = fake.request_count();
    loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let now = fake.request_count();
        if now == seen {
            return;
        }
        seen = now;
    }
}

fn tables_in(fake: &FakeDiscord, channel: u64) -> Vec<doko_system_tests::fake_discord::MessageRecord> {
    fake.channel_messages(channel).into_iter().filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand")).collect()
}

/// The table messages of a channel: first lines and edits (for failures).
fn describe_tables(fake: &FakeDiscord, channel: u64) -> String {
    tables_in(fake, channel)
        .iter()
        .map(|m| {
            format!("{} ({} edits): {}", m.id, m.edits(), m.content.lines().take(3).collect::<Vec<_>>().join(" / "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a message shows a hand: a card or a bid among its buttons.
fn shows_hand(ids: &[String]) -> bool {
    ids.iter().any(|id| id.starts_with("doko:play ") || id.starts_with("doko:healthy"))
}

/// Everything Discord keeps that the bot can change, to compare before and
/// after a refused request.
fn snapshot(fake: &FakeDiscord) -> (usize, usize, usize) {
    let versions = fake.messages().iter().map(|m| m.versions.len()).sum();
    (fake.requests().len(), fake.callbacks().len(), versions)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doko-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_endpoint_processes_on_one_redis_serve_a_whole_deal_and_refuse_forgeries() {
    let redis = LocalRedis::start().expect("redis-server (is it installed?)");
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data = temp_dir("discord-http");
    let mut a = Endpoint::start(&fake, &redis, &data, "a");
    let mut b = Endpoint::start(&fake, &redis, &data, "b");
    a.listening(&fake).await;
    b.listening(&fake).await;
    // each registered the commands in the guild, through REST only
    let commands = fake.guild_commands(fake.config().guild_id);
    assert!(commands.iter().any(|c| c["name"] == "doko"), "{commands:?}");
    assert!(fake.connections().is_empty(), "HTTP mode opened a gateway connection");

    let channel = fake.config().channels[0];
    let users: Vec<u64> = fake.config().users.iter().map(|u| u.id).collect();
    let urls = vec![a.url.clone(), b.url.clone()];
    let mut t = Table::new(&fake, &urls, channel, &users);
    four_join_and_play_a_deal(&mut t).await;
    check_both_served_in_time_and_hands_private(&t);

    // the guard: a move prepared for the person to act...
    let mut chosen = None;
    for k in 0..4 {
        let q = (t.next + k) % 4;
        if let Some(b) = t.ready_move(q).await {
            chosen = Some((q, b));
            break;
        }
    }
    let (p, button) = chosen.expect("nobody to act in the second deal");
    let click = fake.click(users[p], Place::Channel(channel), t.people[p].hand.unwrap(), &button);
    let genuine = fake.sign(&click);
    check_forgeries_refused_at_both(&fake, &urls, &click, &genuine).await;
    the_genuine_request_moves_once_a_replay_not(&fake, &urls, channel, &genuine).await;

    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    for ep in [&mut a, &mut b] {
        assert!(ep.child.try_wait().unwrap().is_none(), "a process ended: {}", ep.log_tail());
    }
    drop((a, b));
    let _ = std::fs::remove_dir_all(&data);
}

/// Four join, one after the other, alternately at the two processes; the
/// first deal is played through.
async fn four_join_and_play_a_deal(t: &mut Table<'_>) {
    let (fake, channel) = (t.fake, t.channel);
    for p in 0..4 {
        let text = t.slash(p, "join", vec![]).await;
        assert!(!text.is_empty());
    }
    fake.wait_for("everyone seated", WAIT, |f| {
        f.channel_messages(channel).iter().find(|m| m.content.contains("(4/4)")).map(|_| ())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {:?}", fake.channel_messages(channel)));
    t.slash(0, "start", vec![]).await;
    let moves = t.finish_deal(1).await;
    assert!(moves >= 48, "the deal ended after {moves} moves");
}

/// Both processes served; every answer valid and in time; hands only ever
/// ephemeral; one table message per deal, edited in place; every request
/// of the bots answered as the fake knows it.
fn check_both_served_in_time_and_hands_private(t: &Table<'_>) {
    let (fake, channel) = (t.fake, t.channel);
    assert!(t.sent.iter().any(|(_, to, _)| *to == 0) && t.sent.iter().any(|(_, to, _)| *to == 1));
    let mut times: Vec<Duration> = t.sent.iter().map(|(_, _, r)| r.elapsed).collect();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "HTTP interactions mode, two processes: {} interactions, response median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3
    );
    for c in fake.callbacks() {
        assert!(c.in_time() && c.elapsed < DEADLINE, "{c:?}");
    }
    // hands only ever ephemeral
    for m in fake.messages() {
        let hand = shows_hand(&m.custom_ids())
            || m.versions
                .iter()
                .any(|v| v.to_string().contains("doko:play ") || v.to_string().contains("doko:healthy"));
        assert!(!hand || m.ephemeral(), "a hand in public: {m:?}");
    }
    // one table message per deal, edited in place: the one before the
    // first deal, the first deal's, the second deal's
    let tables = t.table_messages();
    let edits: Vec<usize> = tables.iter().map(|m| m.edits()).collect();
    assert_eq!(tables.len(), 3, "table messages: {}", describe_tables(fake, channel));
    assert!(edits[1] >= 40, "edits of the first deal's table message: {edits:?}");
    // every request of the bots answered as the fake knows it
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    let refused: Vec<_> = fake.requests().into_iter().filter(|r| r.status >= 400).collect();
    assert!(refused.is_empty(), "requests refused: {refused:?}");
}

/// The `click` prepared, forged in every way (and a PING too), is refused
/// with 401 at both processes and changes nothing.
async fn check_forgeries_refused_at_both(fake: &FakeDiscord, urls: &[String], click: &Value, genuine: &SignedRequest) {
    let body = genuine.body.clone();
    let now = unix_now();
    let mut changed = genuine.clone();
    changed.body = body.clone();
    let last = changed.body.len() - 1;
    changed.body.insert(last, b' ');
    let refused = [
        ("a forged signature", SignedRequest::sign(&[7; 32], body.clone(), now)),
        ("no signature", SignedRequest::unsigned(body.clone())),
        ("a signature without its timestamp", SignedRequest { timestamp: None, ..genuine.clone() }),
        ("a changed body", changed),
        ("a stale timestamp", fake.sign_at(click, now - 400)),
        ("a future timestamp", fake.sign_at(click, now + 400)),
    ];
    for (to, url) in urls.iter().enumerate() {
        for (what, req) in &refused {
            let before = snapshot(fake);
            let r = fake.post_signed(url, req).await.unwrap();
            assert_eq!(r.status, 401, "{what} at process {to}: {r:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
            assert_eq!(snapshot(fake), before, "{what} at process {to} changed something");
        }
        // a PING too
        let ping = fake.ping().to_string().into_bytes();
        for req in [SignedRequest::sign(&[7; 32], ping.clone(), now), SignedRequest::unsigned(ping)] {
            assert_eq!(fake.post_signed(url, &req).await.unwrap().status, 401, "{req:?}");
        }
    }
}

/// ...the move is made by the genuine request, once; an exact replay is
/// refused by the process that took it, and moves nothing at the other.
async fn the_genuine_request_moves_once_a_replay_not(
    fake: &FakeDiscord,
    urls: &[String],
    channel: u64,
    genuine: &SignedRequest,
) {
    let edits_before = tables_in(fake, channel).last().unwrap().edits();
    let r = fake.post_signed(&urls[0], genuine).await.unwrap();
    assert!(r.status == 200 && matches!(r.kind(), Some(6 | 7)), "{r:?}");
    let cb = fake.callbacks().last().cloned().unwrap();
    assert!(cb.in_time(), "{cb:?}");
    fake.wait_for("the move told in the table message", WAIT, |f| {
        (tables_in(f, channel).last().unwrap().edits() > edits_before).then_some(())
    })
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // an exact replay is refused by the process that took it
    let before = snapshot(fake);
    let r = fake.post_signed(&urls[0], genuine).await.unwrap();
    assert_eq!(r.status, 401, "a replay: {r:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(snapshot(fake), before, "a replay changed something");
    // (the other process has not seen it: it may take it, and then the
    // service knows the interaction and changes nothing)
    let table = tables_in(fake, channel).last().unwrap().content.clone();
    let r = fake.post_signed(&urls[1], genuine).await.unwrap();
    assert!(r.status == 401 || r.status == 200, "{r:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(tables_in(fake, channel).last().unwrap().content, table, "a replay at the other process moved");
    eprintln!("an exact replay at the process that had not seen it: {} {}", r.status, r.text);
}

/// An answer that carries a file (a game record) cannot go in the HTTP
/// response: the endpoint defers in the response and the adapter edits
/// `@original` with the file right after. That edit races the response:
/// when it reaches Discord before the response has been taken, Discord
/// answers 10015 (Unknown Webhook); the adapter tries the edit again
/// shortly, so the person gets the file. Sent five times to make the race
/// show.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_answer_reaches_the_person_after_a_deferral_in_the_http_response() {
    let redis = LocalRedis::start().expect("redis-server (is it installed?)");
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data = temp_dir("discord-http-file");
    let mut a = Endpoint::start(&fake, &redis, &data, "a");
    a.listening(&fake).await;
    let (user, channel) = (fake.config().users[0].id, fake.config().channels[0]);
    // a record: alice and three computers, a deal dealt and aborted
    let place = Place::Channel(channel);
    let urls = [a.url.clone()];
    let mut t = Table::new(&fake, &urls, channel, &[user]);
    t.slash(0, "join", vec![]).await;
    for _ in 0..3 {
        t.slash(0, "addbot", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    let i = fake.slash(user, place, "doko-rules", vec![Opt::sub("abort", vec![])]);
    t.send(i).await;
    for _ in 0..5 {
        let i = fake.slash(user, place, "doko", vec![Opt::sub("record", vec![Opt::int("number", 1)])]);
        let (h, r) = fake.post_interaction(&a.url, i).await.unwrap();
        assert_eq!((r.status, r.kind()), (200, Some(5)), "{r:?}");
        fake.wait_for("the file", Duration::from_secs(5), |f| {
            f.original_message(&h).filter(|m| !m.attachments.is_empty()).map(|_| ())
        })
        .await
        .unwrap_or_else(|e| {
            let refused: Vec<_> = fake.requests().into_iter().filter(|r| r.status >= 400).collect();
            panic!("{e}: {refused:?}")
        });
    }
    drop(a);
    let _ = std::fs::remove_dir_all(&data);
}

/// People who act at nearly the same moment, their interactions spread
/// over two processes: the table message is claimed through the store
/// (`claim_display`), so a process that has not yet seen the id stored by
/// the other waits for it and edits, and the deal keeps one table message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_changes_at_two_processes_keep_one_table_message() {
    let redis = LocalRedis::start().expect("redis-server (is it installed?)");
    let channels = (0..8).map(|i| 1_300_000_000_000_000_300 + i).collect();
    let fake = FakeDiscord::start(Config { channels, ..Config::default() }).await.unwrap();
    let data = temp_dir("discord-http-quick");
    let mut a = Endpoint::start(&fake, &redis, &data, "a");
    let mut b = Endpoint::start(&fake, &redis, &data, "b");
    a.listening(&fake).await;
    b.listening(&fake).await;
    let users: Vec<u64> = fake.config().users.iter().map(|u| u.id).collect();
    let urls = [a.url.clone(), b.url.clone()];
    // at each table four join one right after the other, alternately at
    // the two processes
    for &channel in &fake.config().channels {
        let mut t = Table::new(&fake, &urls, channel, &users);
        t.pace = false;
        for p in 0..4 {
            t.slash(p, "join", vec![]).await;
        }
    }
    settle(&fake).await;
    for &channel in &fake.config().channels {
        assert_eq!(tables_in(&fake, channel).len(), 1, "{}", describe_tables(&fake, channel));
    }
    drop((a, b));
    let _ = std::fs::remove_dir_all(&data);
}

/// The CPU time a process has used so far (Linux: `/proc/<pid>/stat`,
/// user and system time in clock ticks of 10 ms); `None` elsewhere.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // the fields after the command's name, which is in parentheses
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let (utime, stime): (u64, u64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    Some(Duration::from_millis((utime + stime) * 10))
}

/// The process id of the `redis-server` on a port.
fn redis_pid(port: u16) -> Option<u32> {
    // its arguments, or the title it gives itself (`redis-server 127.0.0.1:port`)
    let (args, title) = (format!("--port\0{port}\0"), format!(":{port}"));
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
        let cmd = String::from_utf8_lossy(&cmd);
        (cmd.starts_with("redis-server") && (cmd.contains(&args) || cmd.contains(&title))).then_some(pid)
    })
}

/// The percentile `q` of sorted durations, in milliseconds.
fn ms(sorted: &[Duration], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3
}

/// Interactions per second that two endpoint processes on one Redis
/// sustain: `DOKO_BENCH_TABLES` tables (default 32) in as many channels,
/// each with four people playing as fast as the answers come, for
/// `DOKO_BENCH_SECS` seconds (default 20); every interaction (refreshing a
/// hand, a bid, a card) goes to the two processes in turn. Load generator,
/// fake Discord, both processes and Redis share the machine.
///
/// ```text
/// cargo build --release -p doko
/// DOKO_BIN=$CARGO_TARGET_DIR/release/doko cargo test -p doko-system-tests \
///     --test system -- --ignored --nocapture interactions_per_second
/// ```
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run it by name"]
async fn interactions_per_second() {
    let env = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let (tables, secs) = (env("DOKO_BENCH_TABLES", 32) as usize, env("DOKO_BENCH_SECS", 20));
    let channels: Vec<u64> = (0..tables as u64).map(|i| 1_300_000_000_000_010_000 + i).collect();
    let config = Config { channels: channels.clone(), ..Config::default() };
    let redis = LocalRedis::start().expect("redis-server (is it installed?)");
    let fake = FakeDiscord::start(config).await.unwrap();
    let data = temp_dir("discord-http-bench");
    let mut a = Endpoint::start(&fake, &redis, &data, "a");
    let mut b = Endpoint::start(&fake, &redis, &data, "b");
    a.listening(&fake).await;
    b.listening(&fake).await;
    let urls = vec![a.url.clone(), b.url.clone()];
    let users: Vec<u64> = fake.config().users.iter().map(|u| u.id).collect();
    let mut all: Vec<Table> = channels.iter().map(|c| Table::new(&fake, &urls, *c, &users)).collect();
    for t in &mut all {
        t.strict = false;
        t.pace = false;
    }
    // seat everyone and deal at every table
    futures_util::future::join_all(all.iter_mut().map(|t| async move {
        for p in 0..4 {
            t.slash(p, "join", vec![]).await;
        }
        t.slash(0, "start", vec![]).await;
    }))
    .await;
    let setup: usize = all.iter().map(|t| t.sent.len()).sum();
    // play at every table at once until the time is up
    let pids = [a.child.id(), b.child.id()];
    let redis_pid = redis_pid(redis.port);
    let cpu = |pids: &[u32]| pids.iter().filter_map(|p| cpu_time(*p)).sum::<Duration>();
    let (doko_before, redis_before) = (cpu(&pids), redis_pid.map_or(Duration::ZERO, |p| cpu(&[p])));
    let start = Instant::now();
    let until = start + Duration::from_secs(secs);
    futures_util::future::join_all(all.iter_mut().map(|t| async move {
        while Instant::now() < until {
            if t.act().await.is_none() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }))
    .await;
    let elapsed = start.elapsed();
    let doko_cpu = cpu(&pids) - doko_before;
    let redis_cpu = redis_pid.map_or(Duration::ZERO, |p| cpu(&[p])) - redis_before;
    let mut times: Vec<Duration> = all.iter().flat_map(|t| t.sent[..].iter().map(|(_, _, r)| r.elapsed)).collect();
    let played = times.len() - setup;
    let failures: usize = all.iter().map(|t| t.failures).sum();
    times.sort();
    eprintln!(
        "HTTP interactions mode, 2 processes on 1 Redis, {tables} tables: {played} interactions in {:.1} s = {:.0} interactions/s; response median {:.1} ms, p99 {:.1} ms; {failures} late or invalid",
        elapsed.as_secs_f64(),
        played as f64 / elapsed.as_secs_f64(),
        ms(&times, 0.5),
        ms(&times, 0.99),
    );
    let per = |d: Duration| d.as_secs_f64() * 1e3 / played as f64;
    eprintln!(
        "CPU: the two doko processes {:.1} s ({:.0}% of one core), {:.2} ms per interaction = {:.0} interactions/s per core; redis-server {:.1} s, {:.2} ms per interaction; {} cores here, shared with the load generator and the fake",
        doko_cpu.as_secs_f64(),
        100.0 * doko_cpu.as_secs_f64() / elapsed.as_secs_f64(),
        per(doko_cpu),
        1e3 / per(doko_cpu),
        redis_cpu.as_secs_f64(),
        per(redis_cpu),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop((a, b));
    let _ = std::fs::remove_dir_all(&data);
}
