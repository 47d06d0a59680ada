//! A Matrix space as a server, against a real homeserver (Synapse on
//! loopback, the real `doko` binary, matrix-sdk clients; the harness is
//! `common/synapse.rs`): alice owns a space with two rooms in it (each
//! room names the space as its parent, the space names each room as its
//! child, the bot is a member of the space); bob is an admin of the second
//! room and a plain member of the space.
//!
//! Server-wide defaults: alice's `server lang de` and `server set bock on`
//! in the first room reach the second room (German, `bock = on (Server)`);
//! bob may not change the space's defaults (he is no admin of the space)
//! but may set his room's own rule, which wins there (`(Kanal)`) while the
//! first room keeps the space's; a room that names the space as its parent
//! without the space naming it as a child is in no space (a room cannot
//! claim a space alone); `server reset` hands both rooms back to the
//! built-in defaults, the second room keeping its own rule.
//!
//! Lists and rankings: alice plays a whole deal in the first room and bob
//! one in the second (each with three computers, both at once, from their
//! direct rooms); `leaderboard` in the first room ranks alice and bob (the
//! space's two rooms), with the points their results gave and no computer;
//! `me` answers alice in her direct room only. The bot's log is quiet and
//! names no card.

use crate::synapse;

use matrix_sdk::Client;
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::space::child::SpaceChildEventContent;
use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{OwnedRoomId, OwnedServerName, OwnedUserId};
use synapse::{Bot, Seen, Synapse, Watch, first_playable, from_bot, plain, player, say};
use tokio::sync::mpsc;

const ALICE: usize = 0;
const BOB: usize = 1;
const NAMES: [&str; 2] = ["alice", "bob"];
/// The rooms' names (a direct message is headed with its table's).
const TABLES: [&str; 2] = ["Erster Tisch", "Zweiter Tisch"];

fn localhost() -> Vec<OwnedServerName> {
    vec!["localhost".try_into().unwrap()]
}

/// A room alice creates with the bot (and whoever else) invited, naming
/// `parent` as its space (`m.space.parent`), with these users' power
/// levels.
async fn create_room(
    alice: &Client,
    name: &str,
    invite: &[&str],
    parent: Option<&OwnedRoomId>,
    power: serde_json::Value,
) -> OwnedRoomId {
    let mut req = CreateRoom::new();
    req.name = Some(name.into());
    req.invite = invite.iter().map(|u| OwnedUserId::try_from(*u).unwrap()).collect();
    if let Some(space) = parent {
        let parent = InitialStateEvent::new(space.clone(), SpaceParentEventContent::new(localhost()));
        req.initial_state = vec![parent.to_raw_any()];
    }
    if !power.is_null() {
        req.power_level_content_override = Some(Raw::from_json_string(power.to_string()).unwrap());
    }
    alice.create_room(req).await.unwrap().room_id().to_owned()
}

/// The points a result gives a player (`Points: alice +3, Bot 1 -3, ...`).
fn points_in_result(result: &str, name: &str) -> i64 {
    let line = result.lines().find_map(|l| l.strip_prefix("Points: ")).unwrap_or_else(|| panic!("{result}"));
    let line = line.split("  (record").next().unwrap();
    line.split(", ")
        .find_map(|e| {
            let (n, p) = e.rsplit_once(' ')?;
            (n == name).then(|| p.parse().unwrap_or_else(|_| panic!("points: {e}")))
        })
        .unwrap_or_else(|| panic!("{name} in the result's points: {result}"))
}

/// Whether `name`'s party won the deal of `result`: the "Winner: PARTY"
/// line names the party, the party's line ("Re: alice, Bot 1 - 130
/// points") its players. A winner can score 0 (the other side's extra
/// points), so the points alone do not say it.
fn won_in_result(result: &str, name: &str) -> bool {
    let Some(winner) = result.lines().find_map(|l| l.strip_prefix("Winner: ")) else {
        return false; // no winner
    };
    let party = winner.split(", ").next().unwrap();
    let line = result
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{party}: ")))
        .unwrap_or_else(|| panic!("the winning party's line: {result}"));
    let names = line.rsplit_once(" - ").map_or(line, |(n, _)| n);
    names.split(", ").any(|n| n == name)
}

/// A leaderboard's rows: place, name, points, deals, win rate, solos won.
fn leaderboard_rows(body: &str) -> Vec<(usize, String, i64, u32, String, String)> {
    body.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let place = f.first()?.parse().ok()?;
            assert_eq!(f.len(), 6, "a leaderboard row: {l:?}");
            Some((place, f[1].to_string(), f[2].parse().unwrap(), f[3].parse().unwrap(), f[4].into(), f[5].into()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_space_is_a_server_over_matrix() {
    let t0 = std::time::Instant::now();
    let syn = Synapse::start_with_users("bot alice bob");
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&syn.url, &data);
    stage(t0, "bot serving");

    let mut sp = Space::with_its_rooms(t0, &syn).await;
    sp.the_space_s_defaults_reach_room_2().await;
    sp.a_room_admin_s_own_rule_wins_in_the_room_only().await;
    sp.a_room_cannot_claim_a_space_alone().await;
    sp.the_space_s_defaults_dropped().await;
    let (results, dms, points) = sp.a_deal_in_each_room().await;
    sp.the_space_s_leaderboard(&results, points).await;
    sp.me_in_alice_s_direct_room_only(&results, &dms, points).await;
    drop(bot);
    check_the_log_is_quiet_and_names_no_card(&data);
    stage(t0, "done");
}

/// How long the test has run, printed with what it has reached.
fn stage(t0: std::time::Instant, what: &str) {
    eprintln!("[matrix server] {what}: {} ms", t0.elapsed().as_millis());
}

/// What the bot says in a room, as `p` sees it.
fn said(p: usize, room: &OwnedRoomId, text: &str) -> impl Fn(&Seen) -> bool + use<> {
    let (room, text) = (room.clone(), text.to_string());
    move |s: &Seen| from_bot(s) && s.player == p && s.room == room && s.body.contains(&text)
}

/// Alice's space with its rooms, alice and bob in them, and everything
/// they see.
struct Space {
    t0: std::time::Instant,
    watch: Watch,
    /// Keeps the players' events coming.
    _tx: mpsc::UnboundedSender<Seen>,
    clients: [Client; 2],
    space_id: OwnedRoomId,
    /// The space's two rooms and the room that claims it alone.
    r1: OwnedRoomId,
    r2: OwnedRoomId,
    r3: OwnedRoomId,
    room1: matrix_sdk::Room,
    room3: matrix_sdk::Room,
    bob_room2: matrix_sdk::Room,
}

/// The results of the two deals, the direct rooms and the points.
type Played = ([Option<String>; 2], [Option<OwnedRoomId>; 2], [i64; 2]);

impl Space {
    /// Alice's space (she is its creator: its admin), the bot and bob
    /// invited (both join: the bot because alice is on its allow-list);
    /// two rooms in the space, bob an admin of the second; a third room
    /// names the space as its parent, but the space does not name it.
    async fn with_its_rooms(t0: std::time::Instant, syn: &Synapse) -> Space {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut watch = Watch::new(rx);
        let alice = player(&syn.url, "alice", ALICE, tx.clone()).await;
        let bob = player(&syn.url, "bob", BOB, tx.clone()).await;
        let clients = [alice.clone(), bob.clone()];

        // alice's space (she is its creator: its admin); the bot and bob are
        // invited (both join: the bot because alice is on its allow-list)
        let mut req = CreateRoom::new();
        req.name = Some("Doko-Verein".into());
        req.creation_content = Some(Raw::from_json_string(r#"{"type":"m.space"}"#.into()).unwrap());
        req.invite = vec!["@bot:localhost".try_into().unwrap(), "@bob:localhost".try_into().unwrap()];
        let space = alice.create_room(req).await.unwrap();
        let space_id = space.room_id().to_owned();
        for who in ["@bot:localhost", "@bob:localhost"] {
            let want = format!("member {who} join");
            watch
                .since(0, "the bot and bob in the space", |s| s.player == ALICE && s.room == space_id && s.body == want)
                .await;
        }
        // two rooms in the space; bob is an admin of the second; a third room
        // names the space as its parent, but the space does not name it
        let r1 = create_room(&alice, TABLES[0], &[], Some(&space_id), serde_json::Value::Null).await;
        let power = serde_json::json!({"users": {"@bob:localhost": 100}});
        let r2 = create_room(&alice, TABLES[1], &["@bob:localhost"], Some(&space_id), power).await;
        let r3 = create_room(&alice, "Dritter Tisch", &[], Some(&space_id), serde_json::Value::Null).await;
        for r in [&r1, &r2] {
            space.send_state_event_for_key(r, SpaceChildEventContent::new(localhost())).await.unwrap();
        }
        // the bot is invited once the space names its rooms
        let bot_id: OwnedUserId = "@bot:localhost".try_into().unwrap();
        for r in [&r1, &r2, &r3] {
            alice.get_room(r).unwrap().invite_user_by_id(&bot_id).await.unwrap();
        }
        for (r, who) in
            [(&r1, "@bot:localhost"), (&r2, "@bot:localhost"), (&r3, "@bot:localhost"), (&r2, "@bob:localhost")]
        {
            let want = format!("member {who} join");
            watch.since(0, "everyone in the rooms", |s| s.player == ALICE && &s.room == r && s.body == want).await;
        }
        let room1 = alice.get_room(&r1).unwrap();
        let room3 = alice.get_room(&r3).unwrap();
        let bob_room2 = bob.get_room(&r2).unwrap();
        stage(t0, "space and rooms set up");
        Space { t0, watch, _tx: tx, clients, space_id, r1, r2, r3, room1, room3, bob_room2 }
    }

    /// The second room's table before any default of the space: English,
    /// built-in. Then alice (an admin of the space) sets the space's
    /// defaults in the first room; the change reaches the second room's
    /// table at once.
    async fn the_space_s_defaults_reach_room_2(&mut self) {
        let Space { watch, r1, r2, room1, bob_room2, .. } = self;
        let from = watch.log.len();
        say(bob_room2, "!doko rules").await;
        watch.since(from, "room 2's rules", said(BOB, r2, ENGLISH)).await;

        // 1. alice (an admin of the space) sets the space's defaults in the
        // first room; the change reaches the second room's table at once
        let from = watch.log.len();
        say(room1, "!doko server lang de").await;
        let changed = watch
            .since(from, "the language of the space", said(ALICE, r1, "hat die Vorgaben dieses Servers geändert"))
            .await;
        assert!(changed.body.contains("server lang de (2 Kanäle"), "both rooms took it: {}", changed.body);
        let from = watch.log.len();
        say(room1, "!doko server set bock on").await;
        watch.since(from, "bock for the space", said(ALICE, r1, "server set bock on (2 Kanäle")).await;
        let from = watch.log.len();
        say(bob_room2, "!doko rules").await;
        let german = "Sprache de (Server), bei Zeitüberschreitung standin (Standard)";
        watch.since(from, "room 2 in German", said(BOB, r2, german)).await;
        watch.since(from, "room 2 with the space's bock", said(BOB, r2, "bock = on (Server)")).await;
        stage(self.t0, "the space's defaults reach room 2");
    }

    /// Step 2: Bob is an admin of his room, not of the space: refused there ...
    /// but his room's own rule wins over the space's, there only.
    async fn a_room_admin_s_own_rule_wins_in_the_room_only(&mut self) {
        let Space { watch, r1, r2, room1, bob_room2, .. } = self;
        let from = watch.log.len();
        say(bob_room2, "!doko server set bock off").await;
        let refusal = "Nur die Admins dieses Servers oder Space dürfen seine Vorgaben ändern.";
        watch.since(from, "bob refused", said(BOB, r2, refusal)).await;
        // ... but his room's own rule wins over the space's, there only
        say(bob_room2, "!doko rules set bock off").await;
        let from = watch.log.len();
        say(bob_room2, "!doko rules").await;
        watch.since(from, "room 2's own bock", said(BOB, r2, "bock = off (Kanal)")).await;
        let from = watch.log.len();
        say(room1, "!doko rules").await;
        watch.since(from, "room 1 keeps the space's", said(ALICE, r1, "bock = on (Server)")).await;
        stage(self.t0, "bob refused for the space, his room's own rule");
    }

    /// Step 3: A room cannot claim a space on its own: the third room names the
    /// space as its parent, the space does not name it (alice is the
    /// room's admin and the space's).
    async fn a_room_cannot_claim_a_space_alone(&mut self) {
        let Space { watch, r3, room3, .. } = self;
        let from = watch.log.len();
        say(room3, "!doko server set bock on").await;
        let none = "This channel belongs to no server or space";
        watch.since(from, "no space for room 3", said(ALICE, r3, none)).await;
        let from = watch.log.len();
        say(room3, "!doko rules").await;
        watch.since(from, "room 3's rules", said(ALICE, r3, ENGLISH)).await;
        let bock = watch.since(from, "room 3's bock", said(ALICE, r3, " bock = ")).await;
        let line = bock.body.lines().find(|l| l.contains(" bock = ")).unwrap();
        // (`bock = off - what it means`: no source named)
        assert!(!line.split(" - ").next().unwrap().contains('('), "room 3's bock is the built-in one: {line}");
    }

    /// Step 4: The space's defaults dropped: English and built-in in both rooms,
    /// room 2 keeping its own bock.
    async fn the_space_s_defaults_dropped(&mut self) {
        let Space { watch, r1, r2, room1, bob_room2, .. } = self;
        let from = watch.log.len();
        say(room1, "!doko server reset").await;
        watch.since(from, "the space's defaults dropped", said(ALICE, r1, "server reset (2 channels")).await;
        let from = watch.log.len();
        say(bob_room2, "!doko rules").await;
        watch.since(from, "room 2 in English", said(BOB, r2, ENGLISH)).await;
        watch.since(from, "room 2 keeps its bock", said(BOB, r2, "bock = off (channel)")).await;
        let from = watch.log.len();
        say(room1, "!doko rules").await;
        watch.since(from, "room 1 in English", said(ALICE, r1, ENGLISH)).await;
        let bock = watch.since(from, "room 1's bock", said(ALICE, r1, " bock = ")).await;
        let line = bock.body.lines().find(|l| l.contains(" bock = ")).unwrap();
        assert!(!line.split(" - ").next().unwrap().contains('('), "room 1's bock is the built-in one again: {line}");
        stage(self.t0, "server reset");
    }

    /// Step 5: A whole deal in each room, alice's and bob's at once, each with
    /// three computers, played from their direct rooms.
    async fn a_deal_in_each_room(&mut self) -> Played {
        let tables = [self.r1.clone(), self.r2.clone()];
        let rooms = [self.room1.clone(), self.bob_room2.clone()];
        for p in [ALICE, BOB] {
            say(&rooms[p], "!doko join").await;
            self.watch.until("seated", said(p, &tables[p], &format!("{} joins the table.", NAMES[p]))).await;
            for _ in 0..3 {
                say(&rooms[p], "!doko addbot").await;
                self.watch.until("a computer seated", said(p, &tables[p], "(computer) joins the table.")).await;
            }
        }
        stage(self.t0, "tables set up");
        for p in [ALICE, BOB] {
            say(&rooms[p], "!doko start").await;
        }
        let public = [self.r1.clone(), self.r2.clone(), self.r3.clone(), self.space_id.clone()];
        let mut dms: [Option<OwnedRoomId>; 2] = [None, None];
        let mut acted_on: [Option<String>; 2] = [None, None];
        let mut results: [Option<String>; 2] = [None, None];
        let mut plays = [0; 2];
        while results.iter().any(Option::is_none) {
            let s = self.watch.next().await;
            if !from_bot(&s) {
                continue;
            }
            let p = s.player;
            if public.contains(&s.room) {
                assert!(!s.body.contains("Your hand"), "a hand in a public room: {s:?}");
                if s.room == tables[p] && results[p].is_none() && s.body.starts_with("Result of deal ") {
                    results[p] = Some(s.body.clone());
                    stage(self.t0, &format!("{}'s deal finished", NAMES[p]));
                }
                continue;
            }
            if !s.notice && s.body.starts_with("member ") {
                continue; // the bot joining the direct room
            }
            match &dms[p] {
                Some(d) => {
                    assert_eq!(&s.room, d, "a message from the bot outside the rooms and the direct room: {s:?}")
                }
                None => dms[p] = Some(s.room.clone()),
            }
            if !s.body.lines().any(|l| l.starts_with("Your hand:")) {
                continue;
            }
            assert!(s.body.starts_with(&format!("{}\n", TABLES[p])), "a direct message names its table: {s:?}");
            if results[p].is_some() || acted_on[p].as_deref() == Some(s.body.as_str()) {
                continue; // the next deal, or a hand shown again
            }
            acted_on[p] = Some(s.body.clone());
            let dm = self.clients[p].get_room(&s.room).unwrap();
            plays[p] += act_on_the_hand(&dm, &s.body).await;
        }
        assert_eq!(plays, [12, 12], "alice and bob played their twelve cards");
        let points = [
            points_in_result(results[ALICE].as_ref().unwrap(), "alice"),
            points_in_result(results[BOB].as_ref().unwrap(), "bob"),
        ];
        stage(self.t0, &format!("both deals finished: alice {:+}, bob {:+}", points[0], points[1]));
        (results, dms, points)
    }

    /// Step 6: The space's leaderboard, asked in room 1: alice and bob, each
    /// with the points of their deal, by points; no computer.
    async fn the_space_s_leaderboard(&mut self, results: &[Option<String>; 2], points: [i64; 2]) {
        for (period, heading) in
            [("", "Leaderboard of this server (2 channels), all time; people only:"), (" month", "; people only:")]
        {
            say(&self.room1, &format!("!doko leaderboard{period}")).await;
            let board = self
                .watch
                .until("the leaderboard", said(ALICE, &self.r1, "Leaderboard of this server (2 channels), "))
                .await;
            let body = board.body.trim_start_matches("alice: ");
            assert!(body.lines().next().unwrap().ends_with(heading), "{body}");
            let rows = leaderboard_rows(body);
            assert_eq!(rows.len(), 2, "alice and bob, no computer: {body}");
            assert!(!body.contains("Bot "), "a computer ranked: {body}");
            for (p, name) in NAMES.iter().enumerate() {
                let row = rows.iter().find(|r| r.1 == *name).unwrap_or_else(|| panic!("{name} not ranked: {body}"));
                assert_eq!(row.2, points[p], "{name}'s points as their result gave them: {body}");
                assert_eq!(row.3, 1, "{name} played one deal: {body}");
                let rate = if won_in_result(results[p].as_ref().unwrap(), name) { "100%" } else { "0%" };
                assert_eq!(row.4, rate, "{name}'s win rate: {body}");
            }
            // places: one more than those with better figures (equal figures
            // share a place)
            let figures = |r: &(usize, String, i64, u32, String, String)| {
                (r.2, r.4.trim_end_matches('%').parse::<u32>().unwrap())
            };
            for r in &rows {
                assert_eq!(r.0, 1 + rows.iter().filter(|o| figures(o) > figures(r)).count(), "{body}");
            }
            if points[0] != points[1] {
                let first = if points[ALICE] > points[BOB] { "alice" } else { "bob" };
                assert_eq!(rows[0].1, first, "ranked by points: {body}");
            }
        }
        stage(self.t0, "leaderboards");
    }

    /// Step 7: `me`: alice's own figures, in her direct room only (she holds
    /// the cards of room 1's next deal), also when asked in room 2.
    async fn me_in_alice_s_direct_room_only(
        &mut self,
        results: &[Option<String>; 2],
        dms: &[Option<OwnedRoomId>; 2],
        points: [i64; 2],
    ) {
        let Space { watch, r1, r2, room1, clients, .. } = self;
        let alice_dm = dms[ALICE].clone().expect("alice's direct room");
        // (her place on the leaderboard: equal figures share one)
        let rate_of = |p: usize| points[p] > 0 && !results[p].as_ref().unwrap().contains("No winner");
        let rank = if (points[BOB], rate_of(BOB)) > (points[ALICE], rate_of(ALICE)) { 2 } else { 1 };
        say(room1, "!doko me").await;
        let me = watch
            .until("alice's figures", |s| from_bot(s) && s.player == ALICE && s.body.contains("alice in this server:"))
            .await;
        assert_eq!(me.room, alice_dm, "`me` answered outside alice's direct room: {me:?}");
        assert!(me.body.starts_with(&format!("{}\n", TABLES[0])), "headed with its table: {}", me.body);
        assert!(me.body.contains(&format!("All time: {} points, 1 deal, ", points[ALICE])), "{}", me.body);
        assert!(me.body.contains(&format!("place {rank} of 2")), "{}", me.body);
        assert!(me.body.contains("list 1 in this channel ("), "{}", me.body);
        // in room 2, where she has no seat and holds no cards: her direct room
        // all the same, headed with room 2's table
        let room2 = clients[ALICE].get_room(r2).unwrap();
        say(&room2, "!doko me").await;
        let me2 = watch
            .until("alice's figures from room 2", |s| {
                from_bot(s)
                    && s.player == ALICE
                    && s.body.contains("alice in this server:")
                    && s.body.starts_with(TABLES[1])
            })
            .await;
        assert_eq!(me2.room, alice_dm, "`me` answered outside alice's direct room: {me2:?}");
        assert!(me2.body.contains("list 1 in https://matrix.to/#/"), "room 1's list by a link: {}", me2.body);
        // the next answer in room 1 (after `me`'s): `me` was not answered there
        say(room1, "!doko stats").await;
        let stats = |s: &Seen| from_bot(s) && s.player == ALICE && &s.room == r1 && s.body.starts_with("player");
        watch.until("room 1's statistics", stats).await;
        let leaked: Vec<&Seen> = watch
            .log
            .iter()
            .filter(|s| from_bot(s) && s.room != alice_dm && s.body.contains("in this server:"))
            .collect();
        assert!(leaked.is_empty(), "`me` answered outside alice's direct room: {leaked:#?}");
        stage(self.t0, "me");
    }
}

/// A room's rules before any default of the space: English, built-in.
const ENGLISH: &str = "language en (default), timeout policy standin (default)";

/// A player acts on a hand shown in their direct room `dm`: the first
/// playable card on their turn, else an answer (healthy, decline, or the
/// first one-word choice). The cards played (0 or 1).
async fn act_on_the_hand(dm: &matrix_sdk::Room, body: &str) -> usize {
    if body.contains("Your turn") {
        let card = first_playable(body).expect("a playable card");
        say(dm, &format!("play {card}")).await;
        return 1;
    } else if let Some(can) = body.lines().find_map(|l| l.strip_prefix("You can: ")) {
        let choices: Vec<&str> = can.split(", ").collect();
        let pick = ["healthy", "decline"].into_iter().find(|c| choices.contains(c));
        let pick = pick.or_else(|| choices.iter().copied().find(|c| !c.contains(' ')));
        say(dm, pick.unwrap_or_else(|| panic!("what to answer: {can}"))).await;
    }
    0
}

/// The bot's log: nothing an operator must act on, and no card (as a
/// symbol or a code).
fn check_the_log_is_quiet_and_names_no_card(data: &std::path::Path) {
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    let log: Vec<String> = log.lines().map(plain).collect();
    assert_eq!(log.iter().filter(|l| l.contains("a channel joined its server")).count(), 2, "{log:#?}");
    let loud: Vec<&String> = log.iter().filter(|l| l.contains(" WARN ") || l.contains("ERROR ")).collect();
    assert!(loud.is_empty(), "a quiet log: {loud:#?}");
    let codes: Vec<String> =
        "CSHD".chars().flat_map(|s| ["9", "10", "J", "Q", "K", "A"].map(|r| format!("{s}{r}"))).collect();
    let cards: Vec<&String> = log
        .iter()
        .filter(|l| {
            l.contains(['♣', '♠', '♥', '♦'])
                || l.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| codes.iter().any(|c| c == w))
        })
        .collect();
    assert!(cards.is_empty(), "cards in the bot's log: {cards:#?}");
}
