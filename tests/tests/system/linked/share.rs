//! The linked table played through: the link made by code, a whole deal
//! with two players on each platform, the link refused again and undone,
//! and a log that names no secret.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use doko_system_tests::fake_discord::{Config, FakeDiscord, FakeUser, Opt, permissions};
use matrix_sdk::Room;
use matrix_sdk::ruma::OwnedRoomId;
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use tokio::sync::mpsc;

use super::checks::{
    check_both_table_messages, check_discord_shows_only_its_own, check_matrix_shows_only_its_own,
    check_prompts_and_pings, check_the_cards_played_and_the_results,
};
use super::deal::{Deal, on_matrix};
use super::discord::Discord;
use super::text::{choose, command_of, contents, mark, posted, result_in, to_act_on_discord};
use super::{ALICE, BOB, Both, CAROL, DAVE, DEAL_LIMIT, DWAIT, MATRIX_NAMES, ROOM_NAME, log_tail};
use crate::synapse::{Seen, Synapse, Watch, from_bot, plain, player, say};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matrix_room_and_a_discord_channel_share_one_table() {
    let t0 = Instant::now();
    // 1. Synapse with alice (the room's admin), bob and the bot; the fake
    // Discord with carol (Manage Server) and dave (a plain member)
    let syn = Synapse::start_with_users("bot alice bob");
    stage(t0, "synapse up");
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
    stage(t0, "one bot serving both");
    let mut l = Linked::room_with_alice_bob_and_the_bot(t0, &syn, &fake, channel, &data).await;

    l.both_platforms_answer_and_the_admins_can_link().await;
    let code = l.link_by_code().await;
    l.four_sit_down_and_start().await;
    let (deal, discord_result) = l.play_the_deal().await;
    stage(t0, "the deal finished");

    // 4. what each side saw
    let dealt = check_the_cards_played_and_the_results(&deal, &discord_result);
    check_both_table_messages(&fake, channel, &l.watch.log, &l.rid);
    check_matrix_shows_only_its_own(&l.watch.log, &deal, &dealt);
    check_discord_shows_only_its_own(&fake, &l.d, &deal, &dealt);
    check_prompts_and_pings(&fake, channel, &l.watch.log, &l.rid);
    stage(t0, "checked what each side saw");

    l.a_code_in_the_linked_channel_links_nothing_anew().await;
    l.unlink_only_between_sessions().await;
    l.each_has_its_own_table_again().await;
    stage(t0, "unlinked");

    // the bot's log: no card (symbol or code), no token, no link code
    drop(bot);
    check_the_log_keeps_the_secrets(&fake, &data, &code);
    stage(t0, "done");
}

/// How long the test has run, printed with what it has reached.
fn stage(t0: Instant, what: &str) {
    eprintln!("[linked] {what}: {} ms", t0.elapsed().as_millis());
}

/// What the bot says in the table room `rid`, as `p` sees it.
fn in_room(rid: &OwnedRoomId, p: usize, text: &str) -> impl Fn(&Seen) -> bool + use<> {
    let (rid, text) = (rid.clone(), text.to_string());
    move |s: &Seen| from_bot(s) && s.player == p && s.room == rid && s.body.contains(&text)
}

/// What the bot says to `p` anywhere.
fn to(p: usize, text: &str) -> impl Fn(&Seen) -> bool + use<> {
    let text = text.to_string();
    move |s: &Seen| from_bot(s) && s.player == p && s.body.contains(&text)
}

/// The two platforms as the test drives them: alice and bob on Matrix in
/// alice's room, carol and dave in the Discord channel.
struct Linked<'a> {
    t0: Instant,
    fake: &'a FakeDiscord,
    channel: u64,
    data: &'a Path,
    /// Everything alice and bob see.
    watch: Watch,
    /// Keeps the Matrix players' events coming.
    _tx: mpsc::UnboundedSender<Seen>,
    clients: [matrix_sdk::Client; 2],
    /// The table room as alice and as bob have it.
    rooms: [Room; 2],
    rid: OwnedRoomId,
    d: Discord<'a>,
}

impl<'a> Linked<'a> {
    /// Alice's room (she created it: its admin), with bob and the bot.
    async fn room_with_alice_bob_and_the_bot(
        t0: Instant,
        syn: &Synapse,
        fake: &'a FakeDiscord,
        channel: u64,
        data: &'a Path,
    ) -> Linked<'a> {
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
            watch
                .since(0, "the bot and bob in the room", |s| s.player == ALICE && s.room == rid && s.body == want)
                .await;
        }
        let bob_room = bob.get_room(&rid).unwrap();
        let rooms: [Room; 2] = [room.clone(), bob_room.clone()];
        stage(t0, "room set up");
        let d = Discord { fake, channel, hands: HashMap::new(), sent: Vec::new() };
        Linked { t0, fake, channel, data, watch, _tx: tx, clients, rooms, rid, d }
    }

    /// The one process answers on both platforms, each with a table of its
    /// own (nobody seated); the admins' commands have `link` (with an
    /// optional code) and `unlink`.
    async fn both_platforms_answer_and_the_admins_can_link(&mut self) {
        let (fake, channel) = (self.fake, self.channel);
        let at = mark(fake);
        self.d.doko(CAROL, "table", vec![]).await;
        posted(fake, channel, at, "Seats (0/4)").await;
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko table").await;
        self.watch.since(from, "the Matrix room's table", in_room(&self.rid, ALICE, "Seats (0/4)")).await;
        stage(self.t0, "both platforms answer");

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
    }

    /// Step 2: The link. A wrong code, and a code asked for by someone who is no
    /// admin, are refused; alice's code, in her direct room only, taken by
    /// carol in the channel: both sides are told; the code is used up; dave
    /// may not unlink. The code.
    async fn link_by_code(&mut self) -> String {
        let (fake, channel, rid) = (self.fake, self.channel, self.rid.clone());
        let (_, _, h) = self.d.command(CAROL, "doko-rules", "link", vec![Opt::string("code", "abcdefgh")]).await;
        self.d.answered(&h, "no such link code").await;
        let from = self.watch.log.len();
        say(&self.rooms[BOB], "!doko link").await;
        self.watch.since(from, "bob may not link", to(BOB, "only the channel's admins")).await;
        // a plain Discord member may not ask for a code either
        let (_, _, h) = self.d.command(DAVE, "doko-rules", "link", vec![]).await;
        self.d.answered(&h, "Manage Server").await;
        // alice's code, in her direct room only
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko link").await;
        let answer = self.watch.since(from, "alice's link code", to(ALICE, "Link code ")).await;
        assert_ne!(answer.room, rid, "the link code in the table room: {answer:?}");
        let code: String = answer.body.split("Link code ").nth(1).unwrap().chars().take(8).collect();
        assert!(
            code.len() == 8 && code.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            "a code of 8 letters and digits: {:?}",
            answer.body
        );
        let alice_dm = answer.room.clone();
        // carol takes it in the Discord channel: both sides are told
        let at = mark(fake);
        let from = self.watch.log.len();
        let (cb, _, h) = self.d.command(CAROL, "doko-rules", "link", vec![Opt::string("code", &code)]).await;
        let said = posted(fake, channel, at, "now shares its table with").await;
        assert!(said.contains("the Matrix room"), "{said}");
        let told = self.watch.since(from, "the room told", in_room(&rid, ALICE, "now shares its table with")).await;
        assert!(told.body.contains("the Discord channel"), "{told:?}");
        assert!(!self.d.all_answers(&h).contains("no such link code"), "{cb:?}");
        stage(self.t0, "linked");
        self.the_code_is_alice_s_alone_and_used_up(&code, &alice_dm).await;
        // a plain Discord member may not unlink
        let (_, _, h) = self.d.command(DAVE, "doko-rules", "unlink", vec![]).await;
        self.d.answered(&h, "Manage Server").await;
        code
    }

    /// The code was told to alice alone (in `alice_dm`); it is used up: the
    /// guild's second channel cannot take it.
    async fn the_code_is_alice_s_alone_and_used_up(&self, code: &str, alice_dm: &OwnedRoomId) {
        let (fake, channel) = (self.fake, self.channel);
        let told_with_code: Vec<&Seen> =
            self.watch.log.iter().filter(|s| s.body.contains(code) && &s.room != alice_dm).collect();
        assert!(told_with_code.is_empty(), "the link code outside alice's direct room: {told_with_code:#?}");
        let public: Vec<String> = contents(fake, channel).into_iter().filter(|c| c.contains(code)).collect();
        assert!(public.is_empty(), "the link code in the Discord channel: {public:?}");
        // the code is used up: the guild's second channel cannot take it
        let channel2 = fake.config().channels[1];
        let mut d2 = Discord { fake, channel: channel2, hands: HashMap::new(), sent: Vec::new() };
        let (_, _, h) = d2.command(CAROL, "doko-rules", "link", vec![Opt::string("code", code)]).await;
        d2.answered(&h, "no such link code").await;
        assert!(!contents(fake, channel2).iter().any(|c| c.contains("now shares")), "{:#?}", contents(fake, channel2));
    }

    /// Step 3: Four at the one table: two in the room, two in the channel; carol
    /// starts.
    async fn four_sit_down_and_start(&mut self) {
        let rid = self.rid.clone();
        for (p, r) in self.rooms.iter().enumerate() {
            let from = self.watch.log.len();
            say(r, "!doko join").await;
            self.watch.since(from, "a join", in_room(&rid, ALICE, &format!("{} joins", MATRIX_NAMES[p]))).await;
        }
        for u in [CAROL, DAVE] {
            self.d.doko(u, "join", vec![]).await;
        }
        posted(self.fake, self.channel, 0, "Seats (4/4)").await;
        self.watch.since(0, "four seated, in the room", in_room(&rid, ALICE, "Seats (4/4)")).await;
        stage(self.t0, "four seated");
        self.d.doko(CAROL, "start", vec![]).await;
    }

    /// The deal: each acts when it is their turn, from their own platform,
    /// until both sides had the result. The deal as played and the result
    /// on Discord.
    async fn play_the_deal(&mut self) -> (Deal, String) {
        let (fake, channel) = (self.fake, self.channel);
        let mut deal = Deal { progress: Some(Instant::now()), ..Deal::default() };
        let mut discord_versions = 0;
        let mut discord_checked = Instant::now();
        let mut discord_done: HashMap<u64, bool> = HashMap::new();
        let mut nudged = Instant::now();
        let title = "Result of deal 1";
        loop {
            let discord_result = result_in(fake, channel, title);
            if deal.matrix_done() && discord_result.is_some() {
                break;
            }
            assert!(
                self.t0.elapsed() < DEAL_LIMIT,
                "the deal did not end: cards played on Matrix {:?}, on Discord {:?}\nDiscord: {:#?}\nlog: {}",
                deal.matrix_played,
                deal.discord_cards,
                contents(fake, channel),
                log_tail(self.data)
            );
            // Matrix: what arrived (waiting a little for it)
            if let Ok(s) = tokio::time::timeout(Duration::from_millis(100), self.watch.next()).await {
                on_matrix(&mut deal, &s, &self.rid, &self.clients).await;
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
                        say(&self.rooms[p], "!doko hand").await;
                    }
                }
                continue;
            }
            discord_versions = now;
            discord_checked = Instant::now();
            self.carol_or_dave_acts(&mut deal, &mut discord_done, title).await;
        }
        let discord_result = result_in(fake, channel, title).unwrap();
        (deal, discord_result)
    }

    /// Whoever of carol and dave the table names to act looks at their
    /// hand and acts (until their first deal is over).
    async fn carol_or_dave_acts(&mut self, deal: &mut Deal, discord_done: &mut HashMap<u64, bool>, title: &str) {
        let (fake, channel) = (self.fake, self.channel);
        let who = to_act_on_discord(fake, channel);
        for (u, name) in [(CAROL, "carol"), (DAVE, "dave")] {
            if discord_done.get(&u) == Some(&true) || who.as_ref().is_some_and(|w| w != name) {
                continue;
            }
            if deal.matrix_done() || result_in(fake, channel, title).is_some() {
                break;
            }
            let text = self.d.refresh(u).await;
            if !deal.discord_hand(u, &text) {
                discord_done.insert(u, true);
                continue;
            }
            let Some(b) = choose(&self.d.enabled(u)) else { continue };
            let text = self.d.click(u, &b).await;
            deal.progress = Some(Instant::now());
            if command_of(&b).starts_with("play ") {
                *deal.discord_cards.entry(u).or_default() += 1;
            }
            if !deal.discord_hand(u, &text) {
                discord_done.insert(u, true);
            }
        }
    }

    /// A code (here a wrong one) in a channel that shares a table already
    /// is refused: it links nothing anew.
    async fn a_code_in_the_linked_channel_links_nothing_anew(&mut self) {
        let (fake, channel, rid) = (self.fake, self.channel, self.rid.clone());
        let told = |f: &FakeDiscord| {
            f.channel_messages(channel).iter().filter(|m| m.content.contains("now shares its table with")).count()
        };
        assert_eq!(told(fake), 1, "{:#?}", contents(fake, channel));
        let from = self.watch.log.len();
        let (_, _, h) = self.d.command(CAROL, "doko-rules", "link", vec![Opt::string("code", "zzzzzzzz")]).await;
        let answer = self.d.all_answers(&h);
        // (the room's answer to a command sent after it: anything told of the
        // wrong code has arrived by then)
        say(&self.rooms[ALICE], "!doko table").await;
        self.watch.since(from, "the room's table", in_room(&rid, ALICE, "Rules:")).await;
        let again: Vec<&Seen> = self.watch.log[from..]
            .iter()
            .filter(|s| from_bot(s) && s.room == rid && s.body.contains("now shares its table with"))
            .collect();
        assert!(
            answer.contains("shares a table already") && told(fake) == 1 && again.is_empty(),
            "a wrong code in the linked channel: answered {answer:?}, Discord notices {:#?}, Matrix notices {again:#?}",
            contents(fake, channel).into_iter().filter(|c| c.contains("now shares")).collect::<Vec<_>>()
        );
    }

    /// Step 5: Unlink: not while a deal runs (the next one was dealt by itself);
    /// after alice ends the session, both sides are told.
    async fn unlink_only_between_sessions(&mut self) {
        let (fake, channel, rid) = (self.fake, self.channel, self.rid.clone());
        let at = mark(fake);
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko unlink").await;
        let answer = self
            .watch
            .since(from, "the unlink's answer", |s| {
                from_bot(s)
                    && s.player == ALICE
                    && (s.body.contains("a deal is running") || s.body.contains("no longer shares"))
            })
            .await;
        assert!(answer.body.contains("a deal is running"), "unlinked while the next deal runs: {answer:?}");
        assert!(
            !contents(fake, channel).iter().any(|c| c.contains("no longer shares")),
            "{:#?}",
            contents(fake, channel)
        );
        // alice ends the session; then the link
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko reset").await;
        self.watch.since(from, "the session ended", in_room(&rid, ALICE, "alice ends the session")).await;
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko unlink").await;
        self.watch.since(from, "the room told of the unlink", in_room(&rid, ALICE, "no longer shares its table")).await;
        posted(fake, channel, at, "no longer shares its table").await;
    }

    /// The Discord channel's own table again (nobody seated, then carol
    /// there); the room keeps its table, without the Discord players.
    async fn each_has_its_own_table_again(&mut self) {
        let (fake, channel, rid) = (self.fake, self.channel, self.rid.clone());
        // the Discord channel's own table again: nobody seated
        // (a new table message, or the old one edited)
        let before: HashMap<u64, usize> =
            fake.channel_messages(channel).iter().map(|m| (m.id, m.versions.len())).collect();
        let answer = self.d.doko(CAROL, "table", vec![]).await;
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
                panic!("{e}: the answer {answer:?}; the channel's messages {all:#?}\n{}", log_tail(self.data))
            });
        assert!(table.content.contains("Seats (0/4)"), "the Discord channel's own table: {}", table.content);
        // the room keeps its table
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko table").await;
        let t = self.watch.since(from, "the room's table", in_room(&rid, ALICE, "Seats (")).await;
        eprintln!("[linked] the room's table after the unlink:\n{}", t.body);
        assert!(
            !t.body.contains("carol") && !t.body.contains("dave"),
            "Discord players left with the link: {}",
            t.body
        );
        // carol sits down at the Discord channel's own table: there, not in
        // the room
        let before: HashMap<u64, usize> =
            fake.channel_messages(channel).iter().map(|m| (m.id, m.versions.len())).collect();
        self.d.doko(CAROL, "join", vec![]).await;
        let table = fake
            .wait_for("carol at the Discord channel's own table", DWAIT, |f| {
                f.channel_messages(channel)
                    .into_iter()
                    .find(|m| before.get(&m.id).is_none_or(|n| m.versions.len() > *n) && m.content.contains("Seats ("))
            })
            .await
            .unwrap_or_else(|e| panic!("{e}: {:#?}", contents(fake, channel)));
        assert!(table.content.contains("Seats (1/4): carol"), "the Discord channel's own table: {}", table.content);
        let from = self.watch.log.len();
        say(&self.rooms[ALICE], "!doko table").await;
        let t = self.watch.since(from, "the room's table", in_room(&rid, ALICE, "Seats (")).await;
        assert!(!t.body.contains("carol"), "carol seated in the room: {}", t.body);
    }
}

/// The bot's log: no card (symbol or code), no token, no link code, no
/// error.
fn check_the_log_keeps_the_secrets(fake: &FakeDiscord, data: &Path, code: &str) {
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    let log: Vec<String> = log.lines().map(plain).collect();
    let codes: Vec<String> =
        "CSHD".chars().flat_map(|s| ["9", "10", "J", "Q", "K", "A"].map(|r| format!("{s}{r}"))).collect();
    for l in &log {
        assert!(!l.contains(['♣', '♠', '♥', '♦']), "a card in the log: {l}");
        assert!(!l.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| codes.iter().any(|c| c == w)), "{l}");
        for secret in [fake.config().token.as_str(), "pw-bot", "doko:play", "Your hand", code] {
            assert!(!l.contains(secret), "the log shows {secret:?}: {l}");
        }
    }
    let loud: Vec<&String> = log.iter().filter(|l| l.contains(" WARN ") || l.contains("ERROR ")).collect();
    if !loud.is_empty() {
        eprintln!("[linked] the log's warnings: {loud:#?}");
    }
    assert!(!log.iter().any(|l| l.contains("ERROR ")), "errors in the log: {loud:#?}");
}
