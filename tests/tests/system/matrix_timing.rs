//! How long a card takes to show over Matrix (issue 63), measured by hand
//! on a release build against Synapse on loopback: four players with
//! plain end-to-end-encrypted clients (`timed_client`: their own long-poll
//! sync loops, no pause) play whole deals at a table in an encrypted group
//! room, each acting only on their turn, in their direct room with the
//! bot. For every card: the time from the player's send to the arrival of
//!
//! - (a) the card's line in the group room's table message (the bot edits
//!   it with `m.replace`; at a deal's end the next deal's table message
//!   carries it), as the player sees it;
//! - (b) the player's updated hand, in their direct room;
//! - (c) the next player's prompt: their hand with "Your turn" in their
//!   direct room (mentions are off by default on Matrix: the direct room
//!   is what tells them), or, after a deal's last card, the next deal's
//!   first bid question;
//!
//! each next to a plain round trip in the same run, alternating with the
//! cards: alice sends in an encrypted room of hers and bob's, bob's sync
//! loop receives it and bob answers at once, alice's sync loop receives
//! the answer, timed from alice's send call. Printed, not asserted (but
//! every card's three messages must arrive).

use std::path::Path;
use std::time::{Duration, Instant};

use doko_system_tests::doko_binary;
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId, RoomId};
use matrix_sdk::{Client, Room};
use tokio::sync::mpsc;

use crate::synapse::{Arrival, Bot, Synapse, Watch, cpu_ms, first_playable, quantile, say, timed_client};

const PLAYERS: [&str; 4] = ["alice", "bob", "carol", "dave"];
const BOT: &str = "@bot:localhost";
/// One of a card's times.
type CardTime = fn(&Card) -> Duration;

/// Whole deals played (48 cards each).
const DEALS: usize = 2;
/// Round trips before the game, not counted (the first shares a room key).
const WARM_UP: usize = 5;

/// The figures for BENCHMARKS.md, run by hand on a release build:
/// `DOKO_BIN=.../release/doko cargo test -p doko-system-tests --test system
/// -- --ignored --nocapture matrix_timing` (`DOKO_BENCH_REDIS=1`: the bot
/// on a Redis store).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement for BENCHMARKS.md, run by hand on a release build"]
async fn card_times_next_to_a_plain_round_trip() {
    let syn = Synapse::start();
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let redis = std::env::var_os("DOKO_BENCH_REDIS").map(|_| doko_system_tests::LocalRedis::start().unwrap());
    let bot = Bot::start_on(&syn.url, &data, None, redis.as_ref().map(|r| r.url()).as_deref());
    let mut t = Table::set_up(&syn.url).await;
    t.probe = Probe { synapse: syn.pid(), bot: Some(bot.pid()) };
    let mut m = Measured::default();
    t.play(DEALS * 48, &mut m).await;
    let fan = t.sends_at_once().await;
    // (the last card's answer deals the next deal: its last sends may still
    // be under way)
    jobs_done(&data, t.commands.len()).await;
    drop(bot);
    let store = if redis.is_some() { "Redis" } else { "embedded" };
    m.report(store, &t.w.log);
    report_the_bots_jobs(&data, &t.commands);
    fan.report();
}

/// The processes whose CPU time a card's window is measured by: Synapse,
/// the bot, and this process (the four players' clients).
#[derive(Default)]
struct Probe {
    synapse: Option<u32>,
    bot: Option<u32>,
}

impl Probe {
    /// CPU milliseconds so far: Synapse, the bot, the clients.
    fn now(&self) -> [f64; 3] {
        [self.synapse.map_or(0.0, |p| cpu_ms(Some(p))), self.bot.map_or(0.0, |p| cpu_ms(Some(p))), cpu_ms(None)]
    }

    /// The CPU milliseconds each used since `before`.
    fn since(&self, before: [f64; 3]) -> [f64; 3] {
        let now = self.now();
        [now[0] - before[0], now[1] - before[1], now[2] - before[2]]
    }
}

/// A window's wall time and the CPU time each process used in it.
#[derive(Clone, Copy, Debug, Default)]
struct Busy {
    wall: Duration,
    cpu: [f64; 3],
}

/// Each process's share of the windows' wall time, summed over them.
fn busy_shares(v: impl Iterator<Item = Busy>) -> [f64; 3] {
    let (mut wall, mut cpu) = (0.0, [0.0; 3]);
    for b in v {
        wall += b.wall.as_secs_f64() * 1e3;
        for (s, c) in cpu.iter_mut().zip(b.cpu) {
            *s += c;
        }
    }
    cpu.map(|c| c / wall.max(1.0))
}

/// One encrypted message from alice against three at once to three rooms
/// (as the bot sends a card's answers), alternating: the send calls' time
/// and the time until bob's client has them all.
#[derive(Default)]
struct Fan {
    one: Vec<(Duration, Duration)>,
    three: Vec<(Duration, Duration)>,
}

impl Fan {
    fn report(&self) {
        let med = |v: &[(Duration, Duration)], f: fn(&(Duration, Duration)) -> Duration| {
            let mut x: Vec<Duration> = v.iter().map(f).collect();
            (quantile(&mut x, 0.5), quantile(&mut x, 0.9))
        };
        let (s1, s190) = med(&self.one, |x| x.0);
        let (a1, a190) = med(&self.one, |x| x.1);
        let (s3, s390) = med(&self.three, |x| x.0);
        let (a3, a390) = med(&self.three, |x| x.1);
        eprintln!(
            "one send from one client, {} times: send call median {s1:.1} ms (p90 {s190:.1}), seen by bob {a1:.1} ms \
             (p90 {a190:.1})",
            self.one.len()
        );
        eprintln!(
            "three sends at once to three rooms, {} times: every send call done median {s3:.1} ms (p90 {s390:.1}), \
             all seen by bob {a3:.1} ms (p90 {a390:.1}); three at once over one: {:.2}x (send calls), {:.2}x (seen)",
            self.three.len(),
            s3 / s1,
            a3 / a1
        );
    }
}

/// The four players' clients, their group room, alice's and bob's room
/// for the plain round trips, and everything the clients saw.
struct Table {
    w: Watch<Arrival>,
    /// Keeps the clients' arrivals coming.
    _tx: mpsc::UnboundedSender<Arrival>,
    clients: Vec<Client>,
    /// The group room as each player has it.
    group: Vec<Room>,
    rid: OwnedRoomId,
    /// Alice's and bob's room, as alice and as bob have it.
    pair: (Room, Room),
    /// Every command the bot was sent, in order ("join", "start", "bid",
    /// "card"): one job of the bot's each.
    commands: Vec<&'static str>,
    /// Three more rooms of alice's and bob's (alice's side), for the sends
    /// at once.
    fan: Vec<Room>,
    probe: Probe,
}

/// One card's times from the send, and which of its messages came under
/// a new Megolm session (the bot shared a new room key just before).
#[derive(Clone, Debug)]
struct Card {
    /// The card's number, from 1, over all deals.
    n: usize,
    /// The deal's last card (its answer carries the result and deals the
    /// next deal: four hands).
    last: bool,
    a: Duration,
    b: Duration,
    c: Duration,
    /// The player's send call (encrypting and the homeserver's answer).
    send: Duration,
    /// Whether (c) went to the player who played (they lead the next
    /// trick): then (b) and (c) are one message.
    own_turn: bool,
    new_keys: Vec<&'static str>,
    /// From the send until (a)-(c) were all in.
    busy: Busy,
}

impl Card {
    fn slowest(&self) -> Duration {
        self.a.max(self.b).max(self.c)
    }
}

/// A plain round trip; alice's send call; whether alice's ping or bob's
/// answer came under a new Megolm session.
struct RoundTrip {
    time: Duration,
    send: Duration,
    new_key: bool,
    busy: Busy,
}

#[derive(Default)]
struct Measured {
    cards: Vec<Card>,
    /// The plain round trips, one after each card.
    round_trips: Vec<RoundTrip>,
}

fn from_bot(a: &Arrival) -> bool {
    a.sender.as_str() == BOT
}

/// A hand that asks its player to act: to play ("Your turn") or to bid.
fn is_prompt(a: &Arrival) -> bool {
    from_bot(a)
        && a.body.contains("Your hand:")
        && (a.body.contains("Your turn") || a.body.lines().any(|l| l.starts_with("You can:") && l.contains("healthy")))
}

/// How many cards the hand in `body` holds.
fn held(body: &str) -> Option<usize> {
    let line = body.lines().find(|l| l.starts_with("Your hand:"))?;
    Some(line["Your hand:".len()..].split_whitespace().count())
}

/// An encrypted room `creator` makes, inviting `invite`.
async fn encrypted_room(creator: &Client, name: &str, invite: Vec<OwnedUserId>) -> Room {
    let mut req = CreateRoom::new();
    req.name = Some(name.into());
    req.invite = invite;
    req.initial_state = vec![
        InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults()).to_raw_any(),
    ];
    creator.create_room(req).await.unwrap()
}

/// `c` joins `room` (asked again until it can).
async fn join(c: &Client, room: &RoomId) -> Room {
    for _ in 0..100 {
        if let Ok(r) = c.join_room_by_id(room).await {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("could not join {room}");
}

impl Table {
    /// The four players log in; alice makes the encrypted group room with
    /// the bot and the others, and a room of hers and bob's; all four sit
    /// down at the table; the plain round trip is warmed up.
    async fn set_up(url: &str) -> Table {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut clients = Vec::new();
        for (i, name) in PLAYERS.iter().enumerate() {
            clients.push(timed_client(url, name, i, tx.clone()).await);
        }
        let ids: Vec<OwnedUserId> = clients.iter().map(|c| c.user_id().unwrap().to_owned()).collect();
        let mut invite = vec![BOT.try_into().unwrap()];
        invite.extend(ids[1..].iter().cloned());
        let room = encrypted_room(&clients[0], "Doko Abend", invite).await;
        let rid = room.room_id().to_owned();
        let mut group = vec![room];
        for c in &clients[1..] {
            group.push(join(c, &rid).await);
        }
        let alices = encrypted_room(&clients[0], "ping", vec![ids[1].clone()]).await;
        let bobs = join(&clients[1], alices.room_id()).await;
        let mut w = Watch::new(rx);
        let pid = alices.room_id().to_owned();
        for who in [BOT, "@bob:localhost", "@carol:localhost", "@dave:localhost"] {
            let want = format!("member {who} join");
            w.since(0, "everyone joined", |a| a.who == 0 && a.room == rid && a.body == want).await;
        }
        w.since(0, "bob in the pair's room", |a| a.who == 0 && a.room == pid && a.body == "member @bob:localhost join")
            .await;
        let mut fan = Vec::new();
        for i in 0..3 {
            let r = encrypted_room(&clients[0], &format!("fan {i}"), vec![ids[1].clone()]).await;
            join(&clients[1], r.room_id()).await;
            let rid = r.room_id().to_owned();
            w.since(0, "bob in a fan room", |a| a.who == 0 && a.room == rid && a.body == "member @bob:localhost join")
                .await;
            fan.push(r);
        }
        let mut t = Table {
            w,
            _tx: tx,
            clients,
            group,
            rid,
            pair: (alices, bobs),
            commands: Vec::new(),
            fan,
            probe: Probe::default(),
        };
        for (i, name) in PLAYERS.iter().enumerate() {
            let from = t.w.log.len();
            say(&t.group[i], "!doko join").await;
            t.commands.push("join");
            let joins = format!("{name} joins");
            let rid = &t.rid;
            t.w.since(from, "a join", |a| a.who == i && &a.room == rid && from_bot(a) && a.body.contains(&joins)).await;
        }
        for i in 0..WARM_UP {
            t.round_trip(&format!("warm-up {i}")).await;
        }
        t
    }

    /// The game from `start` until `cards` cards are played: whoever is
    /// prompted acts (a bid: healthy; a card: the first playable), a card
    /// measured and followed by a plain round trip.
    async fn play(&mut self, cards: usize, m: &mut Measured) {
        let from = self.w.log.len();
        say(&self.group[0], "!doko start").await;
        self.commands.push("start");
        let rid = self.rid.clone();
        let mut prompt = self.w.since(from, "the first prompt", |a| a.room != rid && is_prompt(a)).await;
        let mut in_deal = 0;
        while m.cards.len() < cards {
            let p = prompt.who;
            let dm = self.clients[p].get_room(&prompt.room).expect("the direct room");
            assert!(prompt.body.starts_with("Doko Abend\n"), "a direct message names its table: {prompt:?}");
            if !prompt.body.contains("Your turn") {
                let from = self.w.log.len();
                say(&dm, "healthy").await;
                self.commands.push("bid");
                prompt = self.w.since(from, "the next prompt", |a| a.room != rid && is_prompt(a)).await;
                continue;
            }
            in_deal += 1;
            let (card, next) = self.a_card(m.cards.len() + 1, in_deal == 48, &prompt, &dm).await;
            if card.last {
                in_deal = 0;
            }
            m.cards.push(card);
            let rt = self.round_trip(&format!("{}", m.cards.len())).await;
            m.round_trips.push(rt);
            prompt = next;
        }
        eprintln!(
            "[matrix timing] {} cards played in {} deals",
            m.cards.len(),
            m.cards.iter().filter(|c| c.last).count()
        );
    }

    /// Player `prompt.who` plays the first playable card of the hand
    /// `prompt` in their direct room `dm`: the card's times (card `n`,
    /// the deal's `last`), and the next prompt.
    async fn a_card(&mut self, n: usize, last: bool, prompt: &Arrival, dm: &Room) -> (Card, Arrival) {
        let p = prompt.who;
        let card = first_playable(&prompt.body).expect("a playable card");
        let line = format!("{} plays {card}", PLAYERS[p]);
        let before = held(&prompt.body).expect("the hand's cards");
        let (rid, dm_id) = (self.rid.clone(), dm.room_id().to_owned());
        let from = self.w.log.len();
        let cpu0 = self.probe.now();
        let t0 = Instant::now();
        say(dm, &format!("play {card}")).await;
        let send = t0.elapsed();
        self.commands.push("card");
        let table_line = |a: &Arrival| a.body.lines().any(|l| l.trim_end() == line);
        let a =
            self.w.since(from, "the table line", |a| a.who == p && a.room == rid && from_bot(a) && table_line(a)).await;
        // (after a deal's last card: the next deal's hand)
        let updated = |n: usize| n + 1 == before || (last && n == 12);
        let b = self
            .w
            .since(from, "the updated hand", |a| a.room == dm_id && from_bot(a) && held(&a.body).is_some_and(updated))
            .await;
        let c = self.w.since(from, "the next prompt", |a| a.room != rid && is_prompt(a)).await;
        let busy = Busy { wall: t0.elapsed(), cpu: self.probe.since(cpu0) };
        let log = &self.w.log;
        let new_keys: Vec<&'static str> = [("a", &a), ("b", &b), ("c", &c)]
            .into_iter()
            .filter(|(_, x)| new_session(log, x))
            .map(|(k, _)| k)
            .collect();
        let times =
            Card { n, last, a: a.at - t0, b: b.at - t0, c: c.at - t0, send, own_turn: c.who == p, new_keys, busy };
        (times, c)
    }

    /// A plain round trip: alice sends in the pair's room, bob answers as
    /// soon as his sync loop has it, timed from alice's send call to her
    /// sync loop having the answer; whether either came under a new
    /// Megolm session.
    async fn round_trip(&mut self, tag: &str) -> RoundTrip {
        let (ping, pong) = (format!("ping {tag}"), format!("pong {tag}"));
        let pid = self.pair.0.room_id().to_owned();
        let from = self.w.log.len();
        let cpu0 = self.probe.now();
        let t0 = Instant::now();
        say(&self.pair.0, &ping).await;
        let send = t0.elapsed();
        let there = self.w.since(from, "the ping", |a| a.who == 1 && a.room == pid && a.body == ping).await;
        say(&self.pair.1, &pong).await;
        let back = self.w.since(from, "the pong", |a| a.who == 0 && a.room == pid && a.body == pong).await;
        let busy = Busy { wall: t0.elapsed(), cpu: self.probe.since(cpu0) };
        let log = &self.w.log;
        RoundTrip { time: back.at - t0, send, new_key: new_session(log, &there) || new_session(log, &back), busy }
    }

    /// One send against three at once (after one warm-up message in each
    /// fan room), alternating, 24 times each.
    async fn sends_at_once(&mut self) -> Fan {
        let mut fan = Fan::default();
        for (i, r) in self.fan.clone().iter().enumerate() {
            self.fan_out(std::slice::from_ref(r), &format!("warm {i}")).await;
        }
        for i in 0..24 {
            let one = self.fan_out(&self.fan.clone()[..1], &format!("one {i}")).await;
            fan.one.push(one);
            let three = self.fan_out(&self.fan.clone(), &format!("three {i}")).await;
            fan.three.push(three);
        }
        fan
    }

    /// Alice sends `tag` in each of `rooms` at once: the time until every
    /// send call returned, and until bob's client had them all.
    async fn fan_out(&mut self, rooms: &[Room], tag: &str) -> (Duration, Duration) {
        let from = self.w.log.len();
        let t0 = Instant::now();
        futures_util::future::join_all(rooms.iter().map(|r| say(r, tag))).await;
        let sent = t0.elapsed();
        let mut last = t0;
        for r in rooms {
            let rid = r.room_id().to_owned();
            let a = self.w.since(from, "a fan message", |a| a.who == 1 && a.room == rid && a.body == tag).await;
            last = last.max(a.at);
        }
        (sent, last - t0)
    }
}

/// Whether `x` came under another Megolm session than the message before
/// it from the same sender in the same room, as the same client saw it
/// (its sender made and shared a new room key just before sending it).
fn new_session(log: &[Arrival], x: &Arrival) -> bool {
    let same = |a: &Arrival| a.who == x.who && a.room == x.room && a.sender == x.sender;
    let at = log.iter().position(|a| a.at == x.at && same(a)).expect("in the log");
    x.session.is_some()
        && log[..at].iter().rev().find(|a| same(a) && a.session.is_some()).is_some_and(|b| b.session != x.session)
}

/// The `q` quantile of ratios.
fn ratio_quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

impl Measured {
    /// Median and p90 of each time and of each ratio to the round trip.
    fn report(&self, store: &str, log: &[Arrival]) {
        assert!(!self.cards.is_empty() && self.cards.len() == self.round_trips.len());
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut rt: Vec<Duration> = self.round_trips.iter().map(|r| r.time).collect();
        let (rm, r90) = (quantile(&mut rt, 0.5), quantile(&mut rt, 0.9));
        eprintln!(
            "\ncard times over Matrix ({store} store, {}): {} cards in {} deals, each next to a plain round trip \
             (alice -> bob -> alice in an encrypted room)",
            doko_binary().display(),
            self.cards.len(),
            self.cards.iter().filter(|c| c.last).count()
        );
        eprintln!(
            "{:<28} {:>9} {:>9} {:>11} {:>11} {:>12} {:>12}",
            "", "median", "p90", "median/rt", "p90/rt", "pair med", "pair p90"
        );
        eprintln!("{:<28} {:>6.1} ms {:>6.1} ms", "plain round trip (rt)", rm, r90);
        let what: [(&str, CardTime); 4] = [
            ("(a) table line", |c| c.a),
            ("(b) own hand", |c| c.b),
            ("(c) next player's prompt", |c| c.c),
            ("slowest of (a)-(c)", Card::slowest),
        ];
        let mut slowest = (0.0, 0.0);
        for (name, f) in what {
            let mut v: Vec<Duration> = self.cards.iter().map(f).collect();
            let (m, p) = (quantile(&mut v, 0.5), quantile(&mut v, 0.9));
            // each card's time over the round trip right after it
            let mut pair: Vec<f64> =
                self.cards.iter().zip(&self.round_trips).map(|(c, r)| ms(f(c)) / ms(r.time)).collect();
            let (pm, p90) = (ratio_quantile(&mut pair, 0.5), ratio_quantile(&mut pair, 0.9));
            eprintln!(
                "{name:<28} {m:>6.1} ms {p:>6.1} ms {:>10.2}x {:>10.2}x {pm:>11.2}x {p90:>11.2}x",
                m / rm,
                p / r90
            );
            slowest = (m / rm, p / r90);
        }
        let met = slowest.0 <= 1.3 && slowest.1 <= 1.6;
        eprintln!(
            "target (slowest median <= 1.3x, p90 <= 1.6x of the round trip): {} ({:.2}x, {:.2}x)",
            if met { "met" } else { "missed" },
            slowest.0,
            slowest.1
        );
        let mut sends: Vec<Duration> = self.round_trips.iter().map(|r| r.send).collect();
        let mut card_sends: Vec<Duration> = self.cards.iter().map(|c| c.send).collect();
        eprintln!(
            "one encrypted send call (to the homeserver's answer): alice's pings median {:.1} ms, p90 {:.1} ms; \
             the cards median {:.1} ms, p90 {:.1} ms",
            quantile(&mut sends, 0.5),
            quantile(&mut sends, 0.9),
            quantile(&mut card_sends, 0.5),
            quantile(&mut card_sends, 0.9)
        );
        // one send after the other: what each later message waits for
        let gap = |f: fn(&Card) -> Duration, g: fn(&Card) -> Duration| {
            let mut v: Vec<Duration> = self.cards.iter().map(|c| f(c).saturating_sub(g(c))).collect();
            (quantile(&mut v, 0.5), quantile(&mut v, 0.9))
        };
        let (ab, ab90) = gap(|c| c.a, |c| c.b);
        let (ca, ca90) = gap(|c| c.c, |c| c.a);
        eprintln!(
            "per card, (a) after (b): median {ab:.1} ms, p90 {ab90:.1} ms; (c) after (a): median {ca:.1} ms, p90 \
             {ca90:.1} ms"
        );
        self.report_the_outliers(log);
        self.report_the_cpu();
    }

    /// How busy Synapse, the bot and the clients were in the cards'
    /// windows and in the round trips' (CPU time over wall time).
    fn report_the_cpu(&self) {
        let pct = |s: [f64; 3]| {
            format!("Synapse {:.0}%, the bot {:.0}%, the clients {:.0}%", s[0] * 1e2, s[1] * 1e2, s[2] * 1e2)
        };
        let per = |v: &[Busy]| {
            let n = v.len().max(1) as f64;
            let s: [f64; 3] = v.iter().fold([0.0; 3], |a, b| [a[0] + b.cpu[0], a[1] + b.cpu[1], a[2] + b.cpu[2]]);
            format!("Synapse {:.1} ms, the bot {:.1} ms, the clients {:.1} ms", s[0] / n, s[1] / n, s[2] / n)
        };
        let cards: Vec<Busy> = self.cards.iter().map(|c| c.busy).collect();
        let rts: Vec<Busy> = self.round_trips.iter().map(|r| r.busy).collect();
        eprintln!(
            "CPU over wall time in the cards' windows (send to (a)-(c) all in): {}",
            pct(busy_shares(cards.iter().copied()))
        );
        eprintln!("  per card: {}", per(&cards));
        eprintln!("CPU over wall time in the round trips: {}", pct(busy_shares(rts.iter().copied())));
        eprintln!("  per round trip: {}", per(&rts));
    }

    /// The deals' last cards, the cards whose messages came under a new
    /// room key, and the round trips that did.
    fn report_the_outliers(&self, log: &[Arrival]) {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        for (c, r) in self.cards.iter().zip(&self.round_trips).filter(|(c, _)| c.last || !c.new_keys.is_empty()) {
            eprintln!(
                "card {:>3}{}: (a) {:.1} ms, (b) {:.1} ms, (c) {:.1} ms (its round trip {:.1} ms); a new room key \
                 before {:?}",
                c.n,
                if c.last { " (the deal's last)" } else { "" },
                ms(c.a),
                ms(c.b),
                ms(c.c),
                ms(r.time),
                c.new_keys
            );
        }
        let own = self.cards.iter().filter(|c| c.own_turn).count();
        eprintln!("{own} cards led the next trick themselves ((b) and (c) one message)");
        for (i, r) in self.round_trips.iter().enumerate() {
            if r.new_key {
                eprintln!("round trip {}: {:.1} ms, under a new room key", i + 1, ms(r.time));
            }
        }
        let mut sessions: Vec<(&RoomId, &str)> = log
            .iter()
            .filter(|a| a.sender.as_str() == BOT && new_session(log, a))
            .filter_map(|a| Some((a.room.as_ref(), a.session.as_deref()?)))
            .collect();
        sessions.sort();
        sessions.dedup();
        eprintln!("new room keys the bot shared over the run (after its first in each room): {}", sessions.len());
    }
}

/// The "job done" lines of the bot's log (debug, `doko_matrix`): how
/// long the table took, and the answer's sends; one a command.
fn jobs(data: &Path) -> Vec<(u64, u64)> {
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
    let field = |l: &str, k: &str| -> Option<u64> {
        let rest = &l[l.find(&format!("{k}="))? + k.len() + 1..];
        rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    log.lines()
        .map(crate::synapse::plain)
        .filter(|l| l.contains("job done"))
        .filter_map(|l| Some((field(&l, "handled_ms")?, field(&l, "answered_ms")?)))
        .collect()
}

/// Waits (up to 10 s) until the bot has logged `n` jobs done.
async fn jobs_done(data: &Path, n: usize) {
    let t = Instant::now();
    while jobs(data).len() < n && t.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The bot's own figures for the cards' jobs, from its log: how long the
/// table took to handle a card, and to have the answer sent (one send
/// after the other); `commands`: what each job was, in order.
fn report_the_bots_jobs(data: &Path, commands: &[&str]) {
    let jobs = jobs(data);
    if jobs.len() != commands.len() {
        eprintln!("the bot logged {} jobs for {} commands: not matched to the cards", jobs.len(), commands.len());
        return;
    }
    let cards = jobs.iter().zip(commands).filter(|(_, c)| **c == "card").map(|(j, _)| j);
    let (mut handled, mut answered): (Vec<Duration>, Vec<Duration>) =
        cards.map(|(h, a)| (Duration::from_millis(*h), Duration::from_millis(*a))).unzip();
    eprintln!(
        "the bot, per card (its log, whole milliseconds): handled median {:.0} ms, p90 {:.0} ms; answered (every \
         send done) median {:.0} ms, p90 {:.0} ms",
        quantile(&mut handled, 0.5),
        quantile(&mut handled, 0.9),
        quantile(&mut answered, 0.5),
        quantile(&mut answered, 0.9)
    );
}
