//! One table across platforms (issue 18, item 6): ONE `doko` process
//! serves the fake Discord (`tests/fake_discord/`) and a real Synapse on
//! loopback (`common/synapse.rs`) at once; a Matrix room and a Discord
//! channel, linked by their admins, share one table.
//!
//! - Both platforms are served by the one process: `/doko table` in the
//!   Discord channel and `!doko table` in the Matrix room are both
//!   answered, each with an empty table of its own.
//! - The link: a wrong code is refused (`no such link code`), a room
//!   member who is no admin (bob) and a plain Discord member (dave) may
//!   not ask for a code; alice (the room's admin) gets a code (`!doko
//!   link`) in her direct room only; carol (Manage Server) takes it in the
//!   Discord channel (`/doko-rules link code:CODE`); both sides are told
//!   (`now shares its table with`), nobody else ever sees the code; it is
//!   used up (the guild's second channel cannot take it); dave may not
//!   `unlink`.
//! - A whole deal with two players on each platform: alice and bob join in
//!   the room and play from their direct rooms, carol and dave join by
//!   `/doko join` and play by clicks on their ephemeral hands; each acts
//!   when it is their turn, from their own platform.
//! - Checked: both channels show the table message (edited as the deal
//!   goes) and the result; the results' `Points:` lines and revealed hands
//!   agree; every hand anyone was shown holds only cards of their own hand
//!   as dealt; no hand in the Discord channel, none in the Matrix room;
//!   hands reach Discord only as ephemeral answers to the Discord player's
//!   own interactions; the Discord side never mentions a Matrix id and
//!   pings only Discord users, the Matrix side never names a Discord
//!   snowflake.
//! - A wrong code given in the linked channel links nothing anew (refused,
//!   no second notice).
//! - `unlink` is refused while a deal runs (the next deal was dealt by
//!   itself); after `reset` alice unlinks from Matrix, both sides are
//!   told (`no longer shares its table`); the room's table keeps alice and
//!   bob only; the Discord channel has an empty table of its own again
//!   (`/doko table` shows it) where carol sits down, not in the room.
//! - The bot's log names no card, no token, no link code.

use crate::synapse;

use std::collections::{BTreeSet, HashMap};
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use doko_system_tests::doko_binary;
use doko_system_tests::fake_discord::{
    Callback, Config, FakeDiscord, FakeUser, InteractionHandle, MessageRecord, Opt, Place, permissions,
};
use matrix_sdk::Room;
use matrix_sdk::ruma::OwnedRoomId;
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use synapse::{Seen, Synapse, Watch, first_playable, from_bot, plain, player, say};
use tokio::sync::mpsc;

/// How long a Discord answer may take.
const DWAIT: Duration = Duration::from_secs(20);
/// How long the whole deal may take.
const DEAL_LIMIT: Duration = Duration::from_secs(240);

const ALICE: usize = 0;
const BOB: usize = 1;
const MATRIX_NAMES: [&str; 2] = ["alice", "bob"];
const ROOM_NAME: &str = "Doko Abend";
const CAROL: u64 = 1_300_000_000_000_001_003;
const DAVE: u64 = 1_300_000_000_000_001_004;

/// The one bot process, serving Matrix and Discord; killed when dropped.
struct Both {
    child: Child,
}

impl Both {
    /// Starts `doko` with both platforms' settings and waits until it
    /// serves Matrix (its first sync done) and its Discord gateway session
    /// is ready with its commands registered.
    async fn start(matrix_url: &str, fake: &FakeDiscord, data: &Path) -> Both {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(data.join("bot.log")).unwrap();
        let mut child = Command::new(doko_binary())
            // Matrix
            .env("DOKO_MATRIX_HOMESERVER", matrix_url)
            .env("DOKO_MATRIX_USER", "bot")
            .env("DOKO_MATRIX_PASSWORD", "pw-bot")
            .env("DOKO_MATRIX_ALLOW", "@alice:localhost, @bob:localhost")
            // Discord
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_GUILD", fake.config().guild_id.to_string())
            // one embedded store
            .env("DOKO_DATA", data)
            .env_remove("DOKO_FAILPOINT")
            .env_remove("DOKO_REDIS_URL")
            .env_remove("DOKO_DISCORD_TOKEN_FILE")
            .env_remove("DOKO_DISCORD_INTERACTIONS")
            .env_remove("DOKO_DISCORD_SHARDS")
            // the test plays at machine speed
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            // the bot's own crates at DEBUG: still no card, token or code
            .env("DOKO_LOG", "info,doko=debug,doko_bot=debug,doko_matrix=debug,doko_discord=debug,serenity=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("starting doko");
        let stdout = child.stdout.take().unwrap();
        let (tx, mut rx) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("doko: serving Matrix as") {
                    let _ = tx.send(line);
                }
            }
        });
        let both = Both { child };
        let line = tokio::time::timeout(synapse::WAIT, rx.recv())
            .await
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("the bot did not serve Matrix:\n{}", log_tail(data)));
        assert_eq!(line, "doko: serving Matrix as @bot:localhost");
        fake.wait_ready(DWAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log_tail(data)));
        fake.wait_for("the commands registered", DWAIT, |f| {
            (!f.guild_commands(f.config().guild_id).is_empty()).then_some(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {}", log_tail(data)));
        both
    }
}

impl Drop for Both {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn log_tail(data: &Path) -> String {
    let s = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
    let tail: Vec<&str> = s.lines().rev().filter(|l| !l.contains("job done")).take(40).collect();
    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
}

/// The Discord side as the test drives it: carol and dave in the guild's
/// first channel, with each one's latest ephemeral hand message, and every
/// interaction sent with the user who sent it.
struct Discord<'a> {
    fake: &'a FakeDiscord,
    channel: u64,
    hands: HashMap<u64, u64>,
    sent: Vec<(InteractionHandle, u64)>,
}

impl<'a> Discord<'a> {
    async fn send(&mut self, user: u64, interaction: serde_json::Value) -> (InteractionHandle, Callback) {
        let h = self.fake.send_interaction(interaction).await.unwrap();
        self.sent.push((h.clone(), user));
        let cb = self.fake.wait_callback(&h, DWAIT).await.unwrap();
        assert!(cb.in_time(), "interaction {} answered late or refused: {cb:?}", h.id);
        (h, cb)
    }

    /// `/top sub [options]` by `user` in the channel; the answer's
    /// callback, text and handle.
    async fn command(
        &mut self,
        user: u64,
        top: &str,
        sub: &str,
        options: Vec<Opt>,
    ) -> (Callback, String, InteractionHandle) {
        let i = self.fake.slash(user, Place::Channel(self.channel), top, vec![Opt::sub(sub, options)]);
        let (h, cb) = self.send(user, i).await;
        let text = self.answer_text(&h, &cb).await;
        if let Some(m) = self.fake.original_message(&h)
            && m.custom_ids().iter().any(|id| id.contains(":play ") || id.starts_with("doko:hand@"))
        {
            self.hands.insert(user, m.id);
        }
        (cb, text, h)
    }

    /// The text of an answer (the callback's, or the deferred response's
    /// once edited).
    async fn answer_text(&self, h: &InteractionHandle, cb: &Callback) -> String {
        if cb.kind == 5 || cb.kind == 6 {
            let m = self
                .fake
                .wait_for("the deferred answer", DWAIT, |f| f.original_message(h).filter(|m| m.edits() >= 1))
                .await
                .unwrap();
            return m.content;
        }
        cb.content.clone().unwrap_or_default()
    }

    /// Everything an interaction was answered with so far (the callback,
    /// the response as edited, the followups).
    fn all_answers(&self, h: &InteractionHandle) -> String {
        let mut out: Vec<String> = self.fake.callbacks_for(h).into_iter().filter_map(|c| c.content).collect();
        out.extend(self.fake.original_message(h).map(|m| m.content));
        out.extend(self.fake.followups(h).into_iter().map(|m| m.content));
        out.join("\n")
    }

    /// Waits until the answers to `h` say `text`.
    async fn answered(&self, h: &InteractionHandle, text: &str) -> String {
        self.fake
            .wait_for(text, DWAIT, |_| {
                let all = self.all_answers(h);
                all.contains(text).then_some(all)
            })
            .await
            .unwrap_or_else(|e| panic!("{e}: {:?}", self.all_answers(h)))
    }

    /// `/doko <sub>`, answered privately.
    async fn doko(&mut self, user: u64, sub: &str, options: Vec<Opt>) -> String {
        let (cb, text, _) = self.command(user, "doko", sub, options).await;
        assert!(cb.ephemeral(), "/doko {sub} answered in public: {cb:?}");
        text
    }

    /// A click on `user`'s hand message; the message's text after the
    /// update.
    async fn click(&mut self, user: u64, custom_id: &str) -> String {
        let msg = self.hands[&user];
        let i = self.fake.click(user, Place::Channel(self.channel), msg, custom_id);
        let (h, cb) = self.send(user, i).await;
        assert!(matches!(cb.kind, 6 | 7), "a click on a hand is answered by updating it: {cb:?}");
        self.answer_text(&h, &cb).await;
        self.fake.message(msg).unwrap().content
    }

    /// The enabled buttons of `user`'s hand message.
    fn enabled(&self, user: u64) -> Vec<String> {
        let Some(m) = self.hands.get(&user).and_then(|id| self.fake.message(*id)) else { return vec![] };
        m.enabled_ids()
    }

    /// `user`'s hand, shown afresh (the refresh button, else `/doko hand`);
    /// the text.
    async fn refresh(&mut self, user: u64) -> String {
        match self.enabled(user).into_iter().find(|b| b.starts_with("doko:hand@")) {
            Some(r) => self.click(user, &r).await,
            None => self.doko(user, "hand", vec![]).await,
        }
    }
}

/// A button's command (`doko:play CQ@stamp` is `play CQ`).
fn command_of(id: &str) -> String {
    id.strip_prefix("doko:").unwrap_or(id).split('@').next().unwrap_or("").to_string()
}

/// What a plain player does from these buttons: the first playable card,
/// else `healthy`; nothing else (no announcements).
fn choose(buttons: &[String]) -> Option<String> {
    buttons
        .iter()
        .find(|b| command_of(b).starts_with("play "))
        .or_else(|| buttons.iter().find(|b| matches!(command_of(b).as_str(), "bid healthy" | "healthy")))
        .cloned()
}

/// The cards of a line `PREFIX: [♣Q] ♠10 ...` of a text (brackets that
/// mark playable cards dropped).
fn labels_after(text: &str, prefix: &str) -> Option<Vec<String>> {
    let line = text.lines().find_map(|l| l.trim().strip_prefix(prefix))?;
    let line = line.split(" -> ").next().unwrap_or(line);
    Some(line.split_whitespace().map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string()).collect())
}

/// The cards of the `Your hand:` line of a text.
fn hand_of(text: &str) -> Option<Vec<String>> {
    labels_after(text, "Your hand:")
}

/// Whether every card of `part` is in `whole` (as many times).
fn sub_multiset(part: &[String], whole: &[String]) -> bool {
    let mut left: Vec<&String> = whole.iter().collect();
    part.iter().all(|c| match left.iter().position(|w| *w == c) {
        Some(i) => {
            left.remove(i);
            true
        }
        None => false,
    })
}

/// The hands shown to one person in order, split where the count of cards
/// goes up (the next deal): those of the first deal.
fn first_deal(hands: &[Vec<String>]) -> &[Vec<String>] {
    let end = hands.windows(2).position(|w| w[1].len() > w[0].len()).map_or(hands.len(), |i| i + 1);
    &hands[..end]
}

/// The text of the channel's messages from the one that starts with
/// `title` up to the one with the points line (a result may come in
/// pieces).
fn result_in(fake: &FakeDiscord, channel: u64, title: &str) -> Option<String> {
    let msgs = fake.channel_messages(channel);
    let start = msgs.iter().position(|m| m.content.starts_with(title))?;
    let mut out = String::new();
    for m in &msgs[start..] {
        out.push_str(&m.content);
        out.push('\n');
        if m.content.lines().any(|l| l.starts_with("Points: ")) {
            return Some(out);
        }
    }
    None
}

fn points_line(result: &str) -> String {
    result.lines().find(|l| l.starts_with("Points: ")).unwrap_or_else(|| panic!("no points line: {result}")).to_string()
}

fn contents(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.channel_messages(channel).into_iter().map(|m| m.content).collect()
}

/// Every text of a message: each version's content.
fn versions(m: &MessageRecord) -> Vec<String> {
    let mut out: Vec<String> = m.versions.iter().filter_map(|v| v["content"].as_str().map(String::from)).collect();
    out.push(m.content.clone());
    out
}

/// The newest message id so far.
fn mark(fake: &FakeDiscord) -> u64 {
    fake.messages().iter().map(|m| m.id).max().unwrap_or(0)
}

/// Waits until some public message of the channel after `since` (any
/// version of it) says `text`; that text.
async fn posted(fake: &FakeDiscord, channel: u64, since: u64, text: &str) -> String {
    fake.wait_for(text, DWAIT, |f| {
        f.channel_messages(channel).iter().filter(|m| m.id > since).flat_map(versions).find(|c| c.contains(text))
    })
    .await
    .unwrap_or_else(|e| panic!("{e}: {:#?}", contents(fake, channel)))
}

/// The ids `<@123>` mentions name in a text.
fn mentioned(text: &str) -> Vec<String> {
    text.split("<@")
        .skip(1)
        .filter_map(|r| {
            let r = r.strip_prefix('!').unwrap_or(r);
            let end = r.find('>')?;
            Some(r[..end].to_string())
        })
        .collect()
}

/// The deal as the four play it: who acted on what, what each was shown.
#[derive(Default)]
struct Deal {
    /// The Matrix players' direct rooms with the bot.
    dms: [Option<OwnedRoomId>; 2],
    /// The last hand message each Matrix player acted on.
    acted_on: [Option<String>; 2],
    /// The hands each Matrix player was shown in their direct room, in
    /// order.
    matrix_hands: [Vec<Vec<String>>; 2],
    /// The hands each Discord player was shown in their answers, in order.
    discord_hands: HashMap<u64, Vec<Vec<String>>>,
    /// Cards played from each platform (on Matrix: the sizes of the
    /// hands a card was played from).
    matrix_played: [BTreeSet<usize>; 2],
    discord_cards: HashMap<u64, usize>,
    /// The result as the Matrix room got it (until its points line).
    matrix_result: String,
    /// When someone last acted.
    progress: Option<Instant>,
}

impl Deal {
    fn matrix_done(&self) -> bool {
        self.matrix_result.lines().any(|l| l.starts_with("Points: "))
    }

    /// A Discord player's hand shown: recorded; false when it is no longer
    /// the first deal's (the count of cards went up).
    fn discord_hand(&mut self, user: u64, text: &str) -> bool {
        let Some(hand) = hand_of(text) else { return true };
        let seen = self.discord_hands.entry(user).or_default();
        seen.push(hand);
        first_deal(seen).len() == seen.len()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matrix_room_and_a_discord_channel_share_one_table() {
    let t0 = Instant::now();
    let stage = |what: &str| eprintln!("[linked] {what}: {} ms", t0.elapsed().as_millis());

    // 1. Synapse with alice (the room's admin), bob and the bot; the fake
    // Discord with carol (Manage Server) and dave (a plain member)
    let syn = Synapse::start_with_users("bot alice bob");
    stage("synapse up");
    let config = Config {
        users: vec![
            FakeUser { id: CAROL, name: "carol".into(), permissions: permissions::MEMBER | permissions::MANAGE_GUILD },
            FakeUser::new(DAVE, "dave"),
        ],
        ..Config::default()
    };
    let channel = config.channels[0];
    let fake = FakeDiscord::start(config).await.unwrap();
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let bot = Both::start(&syn.url, &fake, &data).await;
    stage("one bot serving both");
    let (tx, rx) = mpsc::unbounded_channel();
    let mut watch = Watch::new(rx);
    let alice = player(&syn.url, "alice", ALICE, tx.clone()).await;
    let bob = player(&syn.url, "bob", BOB, tx.clone()).await;
    let clients = [alice.clone(), bob.clone()];
    // alice's room (she created it: its admin), with bob and the bot
    let mut req = CreateRoom::new();
    req.name = Some(ROOM_NAME.into());
    req.invite = vec!["@bot:localhost".try_into().unwrap(), "@bob:localhost".try_into().unwrap()];
    let room = alice.create_room(req).await.unwrap();
    let rid = room.room_id().to_owned();
    for who in ["@bot:localhost", "@bob:localhost"] {
        let want = format!("member {who} join");
        watch.since(0, "the bot and bob in the room", |s| s.player == ALICE && s.room == rid && s.body == want).await;
    }
    let bob_room = bob.get_room(&rid).unwrap();
    let rooms: [Room; 2] = [room.clone(), bob_room.clone()];
    stage("room set up");
    // what the bot says in the table room, as `p` sees it
    let in_room = |p: usize, text: &str| {
        let (rid, text) = (rid.clone(), text.to_string());
        move |s: &Seen| from_bot(s) && s.player == p && s.room == rid && s.body.contains(&text)
    };
    // what the bot says to `p` anywhere
    let to = |p: usize, text: &str| {
        let text = text.to_string();
        move |s: &Seen| from_bot(s) && s.player == p && s.body.contains(&text)
    };

    let mut d = Discord { fake: &fake, channel, hands: HashMap::new(), sent: Vec::new() };

    // the one process answers on both platforms, each with a table of its
    // own (nobody seated)
    let at = mark(&fake);
    d.doko(CAROL, "table", vec![]).await;
    posted(&fake, channel, at, "Seats (0/4)").await;
    let from = watch.log.len();
    say(&room, "!doko table").await;
    watch.since(from, "the Matrix room's table", in_room(ALICE, "Seats (0/4)")).await;
    stage("both platforms answer");

    // the admins' commands have `link` (with an optional code) and `unlink`
    let commands = fake.guild_commands(fake.config().guild_id);
    let rules_subs: Vec<String> = commands
        .iter()
        .filter(|c| c["name"] == "doko-rules")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .filter_map(|o| o["name"].as_str().map(String::from))
        .collect();
    for s in ["link", "unlink"] {
        assert!(rules_subs.iter().any(|x| x == s), "/doko-rules {s}: {rules_subs:?}");
    }
    let link_cmd = commands
        .iter()
        .filter(|c| c["name"] == "doko-rules")
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .find(|o| o["name"] == "link")
        .unwrap();
    let code_opt = link_cmd["options"].as_array().and_then(|o| o.iter().find(|o| o["name"] == "code")).cloned();
    let code_opt = code_opt.unwrap_or_else(|| panic!("/doko-rules link has an option `code`: {link_cmd}"));
    assert_eq!(code_opt["type"], 3, "a string: {code_opt}");
    assert_ne!(code_opt["required"], true, "optional: {code_opt}");

    // 2. the link. A wrong code, and a code asked for by someone who is no
    // admin, are refused
    let (_, _, h) = d.command(CAROL, "doko-rules", "link", vec![Opt::string("code", "abcdefgh")]).await;
    d.answered(&h, "no such link code").await;
    let from = watch.log.len();
    say(&bob_room, "!doko link").await;
    watch.since(from, "bob may not link", to(BOB, "only the channel's admins")).await;
    // a plain Discord member may not ask for a code either
    let (_, _, h) = d.command(DAVE, "doko-rules", "link", vec![]).await;
    d.answered(&h, "Manage Server").await;
    // alice's code, in her direct room only
    let from = watch.log.len();
    say(&room, "!doko link").await;
    let answer = watch.since(from, "alice's link code", to(ALICE, "Link code ")).await;
    assert_ne!(answer.room, rid, "the link code in the table room: {answer:?}");
    let code: String = answer.body.split("Link code ").nth(1).unwrap().chars().take(8).collect();
    assert!(
        code.len() == 8 && code.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
        "a code of 8 letters and digits: {:?}",
        answer.body
    );
    let alice_dm = answer.room.clone();
    // carol takes it in the Discord channel: both sides are told
    let at = mark(&fake);
    let from = watch.log.len();
    let (cb, _, h) = d.command(CAROL, "doko-rules", "link", vec![Opt::string("code", &code)]).await;
    let said = posted(&fake, channel, at, "now shares its table with").await;
    assert!(said.contains("the Matrix room"), "{said}");
    let told = watch.since(from, "the room told", in_room(ALICE, "now shares its table with")).await;
    assert!(told.body.contains("the Discord channel"), "{told:?}");
    assert!(!d.all_answers(&h).contains("no such link code"), "{cb:?}");
    stage("linked");
    // the code was told to alice alone
    let told_with_code: Vec<&Seen> =
        watch.log.iter().filter(|s| s.body.contains(&code) && s.room != alice_dm).collect();
    assert!(told_with_code.is_empty(), "the link code outside alice's direct room: {told_with_code:#?}");
    let public: Vec<String> = contents(&fake, channel).into_iter().filter(|c| c.contains(&code)).collect();
    assert!(public.is_empty(), "the link code in the Discord channel: {public:?}");
    // the code is used up: the guild's second channel cannot take it
    let channel2 = fake.config().channels[1];
    let mut d2 = Discord { fake: &fake, channel: channel2, hands: HashMap::new(), sent: Vec::new() };
    let (_, _, h) = d2.command(CAROL, "doko-rules", "link", vec![Opt::string("code", &code)]).await;
    d2.answered(&h, "no such link code").await;
    assert!(!contents(&fake, channel2).iter().any(|c| c.contains("now shares")), "{:#?}", contents(&fake, channel2));
    // a plain Discord member may not unlink
    let (_, _, h) = d.command(DAVE, "doko-rules", "unlink", vec![]).await;
    d.answered(&h, "Manage Server").await;

    // 3. four at the one table: two in the room, two in the channel
    for (p, r) in rooms.iter().enumerate() {
        let from = watch.log.len();
        say(r, "!doko join").await;
        watch.since(from, "a join", in_room(ALICE, &format!("{} joins", MATRIX_NAMES[p]))).await;
    }
    for u in [CAROL, DAVE] {
        d.doko(u, "join", vec![]).await;
    }
    posted(&fake, channel, 0, "Seats (4/4)").await;
    watch.since(0, "four seated, in the room", in_room(ALICE, "Seats (4/4)")).await;
    stage("four seated");
    d.doko(CAROL, "start", vec![]).await;

    // the deal: each acts when it is their turn, from their own platform
    let mut deal = Deal { progress: Some(Instant::now()), ..Deal::default() };
    let mut discord_versions = 0;
    let mut discord_checked = Instant::now();
    let mut discord_done: HashMap<u64, bool> = HashMap::new();
    let mut nudged = Instant::now();
    let title = "Result of deal 1";
    loop {
        let discord_result = result_in(&fake, channel, title);
        if deal.matrix_done() && discord_result.is_some() {
            break;
        }
        assert!(
            t0.elapsed() < DEAL_LIMIT,
            "the deal did not end: cards played on Matrix {:?}, on Discord {:?}\nDiscord: {:#?}\nlog: {}",
            deal.matrix_played,
            deal.discord_cards,
            contents(&fake, channel),
            log_tail(&data)
        );
        // Matrix: what arrived (waiting a little for it)
        if let Ok(s) = tokio::time::timeout(Duration::from_millis(100), watch.next()).await {
            on_matrix(&mut deal, &s, &rid, &clients).await;
            continue;
        }
        // Discord: when the channel changed (or now and then), whoever of
        // carol and dave the table names to act looks at their hand and
        // acts
        let now: usize = fake.channel_messages(channel).iter().map(|m| m.versions.len()).sum();
        if now == discord_versions && discord_checked.elapsed() < Duration::from_millis(1500) {
            // nobody acted for long: the Matrix players look at their hands
            let quiet = deal.progress.is_none_or(|p| p.elapsed() > Duration::from_secs(8));
            if quiet && nudged.elapsed() > Duration::from_secs(8) {
                nudged = Instant::now();
                eprintln!("[linked] nobody acted for 8 s: alice and bob ask for their hands");
                for p in [ALICE, BOB] {
                    deal.acted_on[p] = None;
                    say(&rooms[p], "!doko hand").await;
                }
            }
            continue;
        }
        discord_versions = now;
        discord_checked = Instant::now();
        let who = to_act_on_discord(&fake, channel);
        for (u, name) in [(CAROL, "carol"), (DAVE, "dave")] {
            if discord_done.get(&u) == Some(&true) || who.as_ref().is_some_and(|w| w != name) {
                continue;
            }
            if deal.matrix_done() || result_in(&fake, channel, title).is_some() {
                break;
            }
            let text = d.refresh(u).await;
            if !deal.discord_hand(u, &text) {
                discord_done.insert(u, true);
                continue;
            }
            let Some(b) = choose(&d.enabled(u)) else { continue };
            let text = d.click(u, &b).await;
            deal.progress = Some(Instant::now());
            if command_of(&b).starts_with("play ") {
                *deal.discord_cards.entry(u).or_default() += 1;
            }
            if !deal.discord_hand(u, &text) {
                discord_done.insert(u, true);
            }
        }
    }
    let discord_result = result_in(&fake, channel, title).unwrap();
    stage("the deal finished");

    // 4. what each side saw
    let matrix_cards = deal.matrix_played.clone().map(|s| s.len());
    assert_eq!(matrix_cards, [12, 12], "alice and bob played their twelve cards from Matrix");
    assert_eq!(deal.discord_cards.get(&CAROL), Some(&12), "carol played her twelve cards from Discord");
    assert_eq!(deal.discord_cards.get(&DAVE), Some(&12), "dave played his twelve cards from Discord");
    let matrix_result = deal.matrix_result.clone();
    // the results agree: the points, the hands as dealt
    assert_eq!(points_line(&discord_result), points_line(&matrix_result), "{discord_result}\n---\n{matrix_result}");
    let names = ["alice", "bob", "carol", "dave"];
    let mut dealt: HashMap<&str, Vec<String>> = HashMap::new();
    for n in names {
        let prefix = format!("{n}:");
        let on_discord = labels_after(&discord_result, &prefix).unwrap_or_else(|| panic!("{n}: {discord_result}"));
        let on_matrix = labels_after(&matrix_result, &prefix).unwrap_or_else(|| panic!("{n}: {matrix_result}"));
        assert_eq!(on_discord, on_matrix, "{n}'s hand as dealt");
        assert_eq!(on_discord.len(), 12, "{n}'s hand as dealt: {on_discord:?}");
        dealt.insert(n, on_discord);
    }
    for n in names {
        assert!(points_line(&discord_result).contains(&format!("{n} ")), "{n} scored: {discord_result}");
    }
    // both sides had the table message, edited as the deal went
    let discord_table = fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| versions(m).iter().any(|v| v.contains("Trick:")))
        .max_by_key(|m| m.versions.len())
        .unwrap_or_else(|| panic!("no table message with a trick on Discord: {:#?}", contents(&fake, channel)));
    assert!(discord_table.edits() >= 20, "the Discord table message edited: {} edits", discord_table.edits());
    for n in names {
        assert!(versions(&discord_table).iter().any(|v| v.contains(n)), "{n} at the Discord table");
    }
    let room_tables = watch
        .log
        .iter()
        .filter(|s| s.player == ALICE && s.room == rid && from_bot(s) && s.edit && s.body.contains("Trick:"))
        .count();
    assert!(room_tables >= 20, "the Matrix table message edited: {room_tables} edits");
    // every hand each Matrix player was shown: in their own direct room,
    // cards of their own hand
    for p in [ALICE, BOB] {
        let hands = first_deal(&deal.matrix_hands[p]);
        assert!(hands.iter().any(|h| h.len() == 1), "{} was shown the last card: {hands:?}", MATRIX_NAMES[p]);
        for h in hands {
            assert!(sub_multiset(h, &dealt[MATRIX_NAMES[p]]), "{} was shown {h:?}", MATRIX_NAMES[p]);
        }
    }
    for s in watch.log.iter().filter(|s| from_bot(s)) {
        if s.body.contains("Your hand") {
            assert_eq!(Some(&s.room), deal.dms[s.player].as_ref(), "a hand outside the direct room: {s:?}");
        }
        // no Discord snowflake, no Discord mention on Matrix
        for id in [CAROL, DAVE] {
            let id = id.to_string();
            let html = s.html.clone().unwrap_or_default();
            assert!(!s.body.contains(&id) && !html.contains(&id), "a Discord id on Matrix: {s:?}");
        }
        assert!(mentioned(&s.body).is_empty(), "a Discord mention on Matrix: {s:?}");
        let html = s.html.clone().unwrap_or_default();
        for pill in html.split("matrix.to/#/").skip(1) {
            assert!(
                pill.starts_with("@alice:localhost")
                    || pill.starts_with("@bob:localhost")
                    || pill.starts_with("%40alice%3Alocalhost")
                    || pill.starts_with("%40bob%3Alocalhost")
                    || pill.starts_with("@bot:localhost")
                    || pill.starts_with("%40bot%3Alocalhost")
                    || pill.starts_with('!')
                    || pill.starts_with("%21"),
                "a pill for someone not on Matrix: {s:?}"
            );
        }
    }
    // Discord: the hands each player was shown are cards of their own hand
    for (u, n) in [(CAROL, "carol"), (DAVE, "dave")] {
        let hands = first_deal(&deal.discord_hands[&u]);
        assert!(hands.iter().any(|h| h.len() == 1), "{n} was shown the last card: {hands:?}");
        for h in hands {
            assert!(sub_multiset(h, &dealt[n]), "{n} was shown {h:?}, dealt {:?}", dealt[n]);
        }
    }
    // ... and a hand is never public on Discord, never a DM (dm is off),
    // only the answer to its own player's interaction
    let by: HashMap<u64, u64> = d.sent.iter().map(|(h, u)| (h.id, *u)).collect();
    for m in fake.messages() {
        for v in versions(&m) {
            for matrix_id in ["<@@", "@alice:localhost", "@bob:localhost", "@bot:localhost"] {
                assert!(!v.contains(matrix_id), "a Matrix id on Discord: {v}");
            }
            for id in mentioned(&v) {
                assert!(id == CAROL.to_string() || id == DAVE.to_string(), "{id} mentioned on Discord: {v}");
            }
            if !v.contains("Your hand") {
                continue;
            }
            assert!(m.ephemeral(), "a hand in public on Discord: {v}");
            let owner = m.interaction.and_then(|i| by.get(&i)).unwrap_or_else(|| panic!("a hand not asked for: {m:?}"));
            let name = if *owner == CAROL { "carol" } else { "dave" };
            // of their hand as dealt, or the next deal's hand they were
            // shown in answer to their own interaction
            let shown = hand_of(&v).unwrap();
            let own = sub_multiset(&shown, &dealt[name]) || deal.discord_hands[owner].contains(&shown);
            assert!(own, "{name} was shown a hand not their own: {v}");
        }
    }
    for c in fake.callbacks() {
        assert!(c.in_time() && c.elapsed < Duration::from_secs(3), "{c:?}");
        let text = c.content.clone().unwrap_or_default();
        for matrix_id in ["<@@", "@alice:localhost", "@bob:localhost", "@bot:localhost"] {
            assert!(!text.contains(matrix_id), "a Matrix id on Discord: {text}");
        }
        if let Some(shown) = hand_of(&text) {
            assert!(c.ephemeral(), "a hand in public on Discord: {text}");
            let owner = by.get(&c.interaction).unwrap_or_else(|| panic!("a hand not asked for: {c:?}"));
            let name = if *owner == CAROL { "carol" } else { "dave" };
            let own = sub_multiset(&shown, &dealt[name]) || deal.discord_hands[owner].contains(&shown);
            assert!(own, "{name} was shown a hand not their own: {text}");
        }
    }
    for u in [CAROL, DAVE] {
        for m in fake.dms(u) {
            assert!(!m.content.contains("Your hand"), "a hand by DM (dm is off): {}", m.content);
        }
    }
    // the Discord side pings only its own people (and them at their turn)
    for r in fake.requests().iter().filter(|r| matches!(r.method.as_str(), "POST" | "PATCH")) {
        for u in r.body["allowed_mentions"]["users"].as_array().into_iter().flatten() {
            let u = u.as_str().unwrap_or_default();
            assert!(u == CAROL.to_string() || u == DAVE.to_string(), "{u} may be pinged on Discord: {:?}", r.body);
        }
    }
    let prompts: Vec<String> =
        contents(&fake, channel).into_iter().filter(|c| c.contains("your turn") && c.contains("<@")).collect();
    assert!(!prompts.is_empty(), "no Discord player was pinged at their turn");
    for c in contents(&fake, channel).iter().filter(|c| c.contains("your turn")) {
        assert!(
            c.starts_with(&format!("<@{CAROL}>")) || c.starts_with(&format!("<@{DAVE}>")),
            "a prompt on Discord for someone not on Discord: {c}"
        );
    }
    // ... and the Matrix room prompts nobody from Discord
    for s in watch.log.iter().filter(|s| from_bot(s) && s.room == rid && s.body.contains("your turn")) {
        assert!(
            !s.body.contains("carol") && !s.body.contains("dave"),
            "a prompt on Matrix for a Discord player: {s:?}"
        );
    }
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    stage("checked what each side saw");

    // a code (here a wrong one) in a channel that shares a table already
    // is refused: it links nothing anew
    let told = |f: &FakeDiscord| {
        f.channel_messages(channel).iter().filter(|m| m.content.contains("now shares its table with")).count()
    };
    assert_eq!(told(&fake), 1, "{:#?}", contents(&fake, channel));
    let from = watch.log.len();
    let (_, _, h) = d.command(CAROL, "doko-rules", "link", vec![Opt::string("code", "zzzzzzzz")]).await;
    let answer = d.all_answers(&h);
    // (the room's answer to a command sent after it: anything told of the
    // wrong code has arrived by then)
    say(&room, "!doko table").await;
    watch.since(from, "the room's table", in_room(ALICE, "Rules:")).await;
    let again: Vec<&Seen> = watch.log[from..]
        .iter()
        .filter(|s| from_bot(s) && s.room == rid && s.body.contains("now shares its table with"))
        .collect();
    assert!(
        answer.contains("shares a table already") && told(&fake) == 1 && again.is_empty(),
        "a wrong code in the linked channel: answered {answer:?}, Discord notices {:#?}, Matrix notices {again:#?}",
        contents(&fake, channel).into_iter().filter(|c| c.contains("now shares")).collect::<Vec<_>>()
    );

    // 5. unlink: not while a deal runs (the next one was dealt by itself)
    let at = mark(&fake);
    let from = watch.log.len();
    say(&room, "!doko unlink").await;
    let answer = watch
        .since(from, "the unlink's answer", |s| {
            from_bot(s)
                && s.player == ALICE
                && (s.body.contains("a deal is running") || s.body.contains("no longer shares"))
        })
        .await;
    assert!(answer.body.contains("a deal is running"), "unlinked while the next deal runs: {answer:?}");
    assert!(
        !contents(&fake, channel).iter().any(|c| c.contains("no longer shares")),
        "{:#?}",
        contents(&fake, channel)
    );
    // alice ends the session; then the link
    let from = watch.log.len();
    say(&room, "!doko reset").await;
    watch.since(from, "the session ended", in_room(ALICE, "alice ends the session")).await;
    let from = watch.log.len();
    say(&room, "!doko unlink").await;
    watch.since(from, "the room told of the unlink", in_room(ALICE, "no longer shares its table")).await;
    posted(&fake, channel, at, "no longer shares its table").await;
    // the Discord channel's own table again: nobody seated
    // (a new table message, or the old one edited)
    let before: HashMap<u64, usize> = fake.channel_messages(channel).iter().map(|m| (m.id, m.versions.len())).collect();
    let answer = d.doko(CAROL, "table", vec![]).await;
    let table = fake
        .wait_for("the Discord channel's own table", DWAIT, |f| {
            f.channel_messages(channel)
                .into_iter()
                .find(|m| before.get(&m.id).is_none_or(|n| m.versions.len() > *n) && m.content.contains("Seats ("))
        })
        .await
        .unwrap_or_else(|e| {
            let all: Vec<(u64, bool, usize, String)> = fake
                .messages()
                .into_iter()
                .filter(|m| m.channel_id == channel)
                .map(|m| (m.id, m.ephemeral(), m.versions.len(), m.content))
                .collect();
            panic!("{e}: the answer {answer:?}; the channel's messages {all:#?}\n{}", log_tail(&data))
        });
    assert!(table.content.contains("Seats (0/4)"), "the Discord channel's own table: {}", table.content);
    // the room keeps its table
    let from = watch.log.len();
    say(&room, "!doko table").await;
    let t = watch.since(from, "the room's table", in_room(ALICE, "Seats (")).await;
    eprintln!("[linked] the room's table after the unlink:\n{}", t.body);
    assert!(!t.body.contains("carol") && !t.body.contains("dave"), "Discord players left with the link: {}", t.body);
    // carol sits down at the Discord channel's own table: there, not in
    // the room
    let before: HashMap<u64, usize> = fake.channel_messages(channel).iter().map(|m| (m.id, m.versions.len())).collect();
    d.doko(CAROL, "join", vec![]).await;
    let table = fake
        .wait_for("carol at the Discord channel's own table", DWAIT, |f| {
            f.channel_messages(channel)
                .into_iter()
                .find(|m| before.get(&m.id).is_none_or(|n| m.versions.len() > *n) && m.content.contains("Seats ("))
        })
        .await
        .unwrap_or_else(|e| panic!("{e}: {:#?}", contents(&fake, channel)));
    assert!(table.content.contains("Seats (1/4): carol"), "the Discord channel's own table: {}", table.content);
    let from = watch.log.len();
    say(&room, "!doko table").await;
    let t = watch.since(from, "the room's table", in_room(ALICE, "Seats (")).await;
    assert!(!t.body.contains("carol"), "carol seated in the room: {}", t.body);
    stage("unlinked");

    // the bot's log: no card (symbol or code), no token, no link code
    drop(bot);
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    let log: Vec<String> = log.lines().map(plain).collect();
    let codes: Vec<String> =
        "CSHD".chars().flat_map(|s| ["9", "10", "J", "Q", "K", "A"].map(|r| format!("{s}{r}"))).collect();
    for l in &log {
        assert!(!l.contains(['♣', '♠', '♥', '♦']), "a card in the log: {l}");
        assert!(!l.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| codes.iter().any(|c| c == w)), "{l}");
        for secret in [fake.config().token.as_str(), "pw-bot", "doko:play", "Your hand", code.as_str()] {
            assert!(!l.contains(secret), "the log shows {secret:?}: {l}");
        }
    }
    let loud: Vec<&String> = log.iter().filter(|l| l.contains(" WARN ") || l.contains("ERROR ")).collect();
    if !loud.is_empty() {
        eprintln!("[linked] the log's warnings: {loud:#?}");
    }
    assert!(!log.iter().any(|l| l.contains("ERROR ")), "errors in the log: {loud:#?}");
    stage("done");
}

/// The Discord player the Discord table message names to act (`carol to
/// play.`), `Some("")` for someone else, `None` when it names nobody.
fn to_act_on_discord(fake: &FakeDiscord, channel: u64) -> Option<String> {
    let table = fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand") || m.content.contains("Rules:"))
        .max_by_key(|m| m.id)?;
    for l in table.content.lines() {
        for n in ["alice", "bob", "carol", "dave"] {
            if l.starts_with(&format!("{n} to ")) || l.starts_with(&format!("{n} must announce")) {
                return Some(if n == "carol" || n == "dave" { n.to_string() } else { String::new() });
            }
        }
    }
    None
}

/// A Matrix player sees something: the result in the room is kept; a
/// hand in their direct room is acted on when it is their turn.
async fn on_matrix(deal: &mut Deal, s: &Seen, rid: &OwnedRoomId, clients: &[matrix_sdk::Client; 2]) {
    if !from_bot(s) {
        return;
    }
    let p = s.player;
    if &s.room == rid {
        assert!(!s.body.contains("Your hand"), "a hand in the Matrix room: {s:?}");
        if p == ALICE && !s.edit && !deal.matrix_done() {
            if s.body.starts_with("Result of deal 1") {
                deal.matrix_result = s.body.clone();
            } else if !deal.matrix_result.is_empty() {
                deal.matrix_result.push('\n');
                deal.matrix_result.push_str(&s.body);
            }
        }
        return;
    }
    if !s.notice && s.body.starts_with("member ") {
        return; // the bot joining a direct room
    }
    match &deal.dms[p] {
        Some(dm) => assert_eq!(&s.room, dm, "a message from the bot outside the room and the direct room: {s:?}"),
        None => deal.dms[p] = Some(s.room.clone()),
    }
    let Some(hand) = hand_of(&s.body) else { return };
    deal.matrix_hands[p].push(hand);
    if first_deal(&deal.matrix_hands[p]).len() < deal.matrix_hands[p].len() || deal.matrix_done() {
        return; // the next deal's
    }
    if deal.acted_on[p].as_deref() == Some(s.body.as_str()) {
        return; // shown again
    }
    deal.acted_on[p] = Some(s.body.clone());
    let dm = clients[p].get_room(&s.room).unwrap();
    if s.body.contains("Your turn") {
        let card = first_playable(&s.body).expect("a playable card");
        say(&dm, &format!("play {card}")).await;
        deal.matrix_played[p].insert(hand_of(&s.body).map_or(0, |h| h.len()));
        deal.progress = Some(Instant::now());
    } else if let Some(can) = s.body.lines().find_map(|l| l.strip_prefix("You can: "))
        && can.split(", ").any(|c| c == "healthy")
    {
        say(&dm, "healthy").await;
        deal.progress = Some(Instant::now());
    }
}
