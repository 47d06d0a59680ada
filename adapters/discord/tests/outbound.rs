//! Outbound seam: serenity's HTTP client pointed at a local recording
//! server (`HttpBuilder::proxy`, rate limiter disabled) while the adapter
//! handles a scripted deal: four people join by slash command, start, and
//! play the whole deal by clicking hand buttons. Asserted: one callback
//! per interaction, hands only ever in ephemeral responses (flag 64) with
//! card buttons, clicks answered by updating the clicked message, one table
//! message per channel edited in place, and no hand in anything public.

use std::sync::{Arc, Mutex};

use doko_bot::{MemoryStore, Service};
use doko_discord::handler::Adapter;
use doko_discord::{decode, play_choices};
use serde_json::{Value, json};
use serenity::all::HttpBuilder;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Hands each interaction to the next of several adapters.
struct Alternating<'a> {
    adapters: &'a [Adapter],
    turn: &'a std::sync::atomic::AtomicUsize,
}

impl Alternating<'_> {
    async fn handle(&self, i: &serenity::all::Interaction) -> Result<(), doko_discord::handler::AdapterError> {
        let n = self.turn.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.adapters[n % self.adapters.len()].handle(i).await
    }
}

#[derive(Clone, Debug)]
struct Req {
    method: String,
    path: String,
    body: Value,
}

fn message_json(id: u64) -> String {
    json!({
        "id": id.to_string(), "channel_id": "910000000000000000",
        "author": {"id": "1100000000000000000", "username": "doko", "discriminator": "0", "avatar": null, "bot": true},
        "content": "", "timestamp": "2026-11-21T10:00:00.000000+00:00", "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
        "pinned": false, "type": 0, "flags": 0, "components": []
    })
    .to_string()
}

/// A tiny HTTP/1.1 server that records every request and answers like
/// Discord: 204 for interaction callbacks, a message for message posts and
/// edits.
async fn recording_server() -> (String, Arc<Mutex<Vec<Req>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let l2 = log.clone();
    tokio::spawn(async move {
        let mut next_id = 1_400_000_000_000_000_000u64;
        loop {
            let (sock, _) = listener.accept().await.unwrap();
            let log = l2.clone();
            next_id += 1000;
            let mut id = next_id;
            tokio::spawn(async move {
                let (r, mut w) = sock.into_split();
                let mut r = BufReader::new(r);
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let mut parts = line.split_whitespace();
                    let method = parts.next().unwrap_or("").to_string();
                    let path = parts.next().unwrap_or("").to_string();
                    let mut len = 0usize;
                    loop {
                        let mut h = String::new();
                        r.read_line(&mut h).await.unwrap();
                        if h == "\r\n" || h.is_empty() {
                            break;
                        }
                        if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                            len = v.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut body = vec![0u8; len];
                    r.read_exact(&mut body).await.unwrap();
                    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    log.lock().unwrap().push(Req { method: method.clone(), path: path.clone(), body });
                    let resp = if path.ends_with("/users/@me/channels") {
                        let b = json!({"id": "930000000000000000", "type": 1, "last_message_id": null,
                            "recipients": [{"id": "800000000000000002", "username": "p2", "discriminator": "0", "avatar": null}]})
                        .to_string();
                        format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{b}",
                            b.len()
                        )
                    } else if path.contains("/interactions/") {
                        "HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n".to_string()
                    } else if path.contains("/messages") {
                        id += 1;
                        let b = message_json(id);
                        format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{b}",
                            b.len()
                        )
                    } else {
                        "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
                            .to_string()
                    };
                    w.write_all(resp.as_bytes()).await.unwrap();
                }
            });
        }
    });
    (url, log)
}

fn payload(name: &str) -> Value {
    let p = format!("{}/tests/payloads/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

struct Script {
    next: u64,
}

impl Script {
    fn id(&mut self) -> String {
        self.next += 1;
        self.next.to_string()
    }

    fn slash(&mut self, user: usize, sub: &str) -> serenity::all::Interaction {
        let mut p = payload("slash-play");
        p["id"] = json!(self.id());
        p["member"]["user"]["id"] = json!(format!("80000000000000000{user}"));
        p["member"]["user"]["username"] = json!(format!("p{user}"));
        p["member"]["nick"] = json!(format!("Player {user}"));
        p["data"]["options"] = json!([{"name": sub, "type": 1, "options": []}]);
        decode(&p.to_string()).unwrap()
    }

    fn dm_on(&mut self, user: usize) -> serenity::all::Interaction {
        let mut p = payload("slash-play");
        p["id"] = json!(self.id());
        p["member"]["user"]["id"] = json!(format!("80000000000000000{user}"));
        p["data"]["options"] =
            json!([{"name": "dm", "type": 1, "options": [{"name": "on", "type": 5, "value": true}]}]);
        decode(&p.to_string()).unwrap()
    }

    fn rules_set(&mut self, user: usize, key: &str, value: &str) -> serenity::all::Interaction {
        let mut p = payload("slash-rules-admin");
        p["id"] = json!(self.id());
        p["member"]["user"]["id"] = json!(format!("80000000000000000{user}"));
        p["data"]["options"] = json!([{"name": "set", "type": 1, "options": [
            {"name": "key", "type": 3, "value": key}, {"name": "value", "type": 3, "value": value}]}]);
        decode(&p.to_string()).unwrap()
    }

    fn click(&mut self, user: usize, custom_id: &str) -> serenity::all::Interaction {
        let mut p = payload("button-play");
        p["id"] = json!(self.id());
        p["token"] = json!(format!("token-{}", self.next));
        p["member"]["user"]["id"] = json!(format!("80000000000000000{user}"));
        p["member"]["nick"] = json!(format!("Player {user}"));
        p["data"]["custom_id"] = json!(custom_id);
        decode(&p.to_string()).unwrap()
    }
}

#[tokio::test]
async fn a_scripted_deal_through_the_adapter() {
    scripted(MemoryStore::default(), None).await;
}

#[tokio::test]
async fn a_scripted_deal_through_the_adapter_on_redis() {
    let r = doko_system_tests::LocalRedis::start().expect("redis-server (scripts/test installs it)");
    let store = doko_bot::RedisStore::connect(&r.url(), 3600).await.unwrap();
    // a whole session: two deals, then the compulsory solos still owed
    scripted(store, Some(2)).await;
}

/// One deal, or with `session` a whole session of that many deals.
async fn scripted<S: doko_bot::Store + Clone>(store: S, session: Option<u32>) {
    let (url, log) = recording_server().await;
    let http = Arc::new(HttpBuilder::new("Bot test-token").proxy(url).ratelimiter_disabled(true).build());
    let service = Arc::new(Service::new(store.clone(), 17));
    // two processes on one store take turns with the interactions
    let adapters = [
        Adapter::new(service.clone(), http.clone(), true),
        Adapter::new(Arc::new(Service::new(store, 170)), http, true),
    ];
    let turn = std::sync::atomic::AtomicUsize::new(0);
    let adapter = Alternating { adapters: &adapters, turn: &turn };
    let ch = doko_bot::ChannelId::new(doko_bot::Platform::DISCORD, "910000000000000000");
    let mut s = Script { next: 1_500_000_000_000_000_000 };
    let slash = join_and_start(&adapter, &mut s, session).await;
    let clicks = click_the_deals_through(&service, &adapter, &mut s, &ch, session).await;
    check_the_session_ended(&service, &ch, session).await;

    let reqs = log.lock().unwrap().clone();
    check_one_ephemeral_callback_each(&reqs, slash + clicks, slash);
    let posts = channel_posts(&reqs, "910000000000000000");
    check_the_table_message_and_no_hand_in_public(&reqs, &posts);
    check_player_2_s_direct_messages(&reqs);
    // the person to act was mentioned
    assert!(posts.iter().any(|r| r.body["content"].as_str().unwrap_or("").starts_with("<@80000000000000000")));
}

/// Four join by slash command (the rules set for a session), player 2 asks
/// for the hand by direct message too, player 1 starts; the slash commands
/// sent.
async fn join_and_start(adapter: &Alternating<'_>, s: &mut Script, session: Option<u32>) -> usize {
    let mut slash = 0;
    for u in 1..=4 {
        adapter.handle(&s.slash(u, "join")).await.unwrap();
        slash += 1;
    }
    if let Some(n) = session {
        adapter.handle(&s.rules_set(1, "games_per_session", &n.to_string())).await.unwrap();
        slash += 1;
    }
    // player 2 also wants the hand by direct message
    adapter.handle(&s.dm_on(2)).await.unwrap();
    slash += 1;
    adapter.handle(&s.slash(1, "start")).await.unwrap();
    slash += 1;
    slash
}

/// Every person clicks the first legal action in their own hand buttons
/// until the deal (or the session) is over; the clicks sent.
async fn click_the_deals_through<S: doko_bot::Store>(
    service: &Service<S>,
    adapter: &Alternating<'_>,
    s: &mut Script,
    ch: &doko_bot::ChannelId,
    session: Option<u32>,
) -> usize {
    let mut clicks = 0;
    for _ in 0..3000 {
        let (t, _) = service.table(ch).await.unwrap();
        let sess = t.session().unwrap();
        if (session.is_none() && sess.deals() >= 1) || sess.is_over() {
            break;
        }
        let Some((key, _)) = t.person_to_act() else { break };
        let user: usize = key.id.chars().last().unwrap().to_digit(10).unwrap() as usize;
        let uid = doko_bot::UserId::new(doko_bot::Platform::DISCORD, format!("80000000000000000{user}"));
        let view = t.view_for(&uid).unwrap();
        let hand = doko_bot::App::hand(service, ch, &uid).await.unwrap();
        // autocomplete agrees with the view
        let choices = play_choices(Some(&hand), "");
        assert_eq!(choices.len(), view.legal_cards().distinct().len());
        // the first legal button; when the table refuses it (a forced solo
        // must be a solo), the next one, as a person would
        // (a refused click is stored too, remembered with its answer: the
        // moves made tell whether it played)
        let moves = service.table(ch).await.unwrap().0.moves();
        let buttons =
            hand.cards.iter().filter(|c| c.playable).map(|c| &c.command).chain(hand.choices.iter().map(|c| &c.command));
        for command in buttons {
            let id = doko_discord::button_id(command, &hand);
            adapter.handle(&s.click(user, &id)).await.unwrap();
            clicks += 1;
            if service.table(ch).await.unwrap().0.moves() != moves {
                break;
            }
        }
    }
    clicks
}

/// The deal was played to the end, or the session with its compulsory
/// solos.
async fn check_the_session_ended<S: doko_bot::Store>(
    service: &Service<S>,
    ch: &doko_bot::ChannelId,
    session: Option<u32>,
) {
    let (t, _) = service.table(ch).await.unwrap();
    let sess = t.session().unwrap();
    match session {
        None => assert_eq!(sess.deals(), 1, "the deal was played to the end"),
        Some(n) => {
            assert!(sess.is_over(), "the session ended");
            assert!(sess.deals() >= n, "{} deals", sess.deals());
            assert!(sess.duty_left().iter().all(|d| *d == 0), "the compulsory solos were played");
            assert_eq!(sess.totals().iter().sum::<i64>(), 0);
        }
    }
}

/// One ephemeral response per interaction: clicks update the clicked
/// message, slash commands answer; hands come with card buttons.
fn check_one_ephemeral_callback_each(reqs: &[Req], interactions: usize, slash: usize) {
    let callbacks: Vec<&Req> = reqs.iter().filter(|r| r.path.contains("/interactions/")).collect();
    assert_eq!(callbacks.len(), interactions, "one response per interaction");
    assert!(callbacks.iter().all(|r| r.method == "POST" && r.path.starts_with("/api/v10/interactions/")));
    for r in &callbacks {
        // every response is ephemeral
        assert_eq!(r.body["data"]["flags"], 64, "{:?}", r.body);
    }
    // clicks update the clicked message (type 7); slash commands answer (type 4)
    assert_eq!(callbacks.iter().filter(|r| r.body["type"] == 4).count(), slash);
    assert_eq!(callbacks.iter().filter(|r| r.body["type"] == 7).count(), interactions - slash);
    // hands come with card buttons
    let with_cards =
        callbacks.iter().filter(|r| r.body["data"]["components"].to_string().contains("doko:play ")).count();
    assert!(with_cards > 40, "{with_cards} hands with card buttons");
}

/// The messages posted to a channel.
fn channel_posts<'a>(reqs: &'a [Req], channel: &str) -> Vec<&'a Req> {
    let path = format!("/channels/{channel}/messages");
    reqs.iter().filter(|r| r.method == "POST" && r.path.ends_with(&path)).collect()
}

/// Public: one table message posted per deal, then edited in place; the
/// result just before the next deal's; no hand in anything public.
fn check_the_table_message_and_no_hand_in_public(reqs: &[Req], posts: &[&Req]) {
    let edits: Vec<&Req> = reqs.iter().filter(|r| r.method == "PATCH" && r.path.contains("/messages/")).collect();
    let table_posts: Vec<&str> =
        posts.iter().map(|r| r.body["content"].as_str().unwrap_or("")).filter(|c| c.contains("Rules:")).collect();
    // one for the seats, one for the deal, one for the next deal, though
    // two processes served the table; the result is a message of its own
    // just before the next deal's
    assert!(table_posts.len() >= 3, "a table message per deal: {table_posts:?}");
    for (i, post) in table_posts.iter().enumerate().skip(1) {
        assert!(post.contains(&format!("Deal {i}:")), "a new table message for deal {i} only: {post}");
    }
    let contents: Vec<&str> = posts.iter().map(|r| r.body["content"].as_str().unwrap_or("")).collect();
    let result = contents.iter().position(|c| c.starts_with("Result of deal 1"));
    let next = contents.iter().position(|c| c.contains("Deal 2:") && c.contains("Rules:"));
    assert!(result.is_some() && result < next, "the result, then deal 2's table message: {contents:?}");
    assert!(edits.len() > 40, "{} edits of the table message", edits.len());
    for r in posts.iter().chain(edits.iter()) {
        let body = r.body.to_string();
        assert!(!body.contains("Your hand"), "a hand in a public message: {body}");
        assert!(!body.contains("doko:play "), "card buttons in a public message: {body}");
        assert!(r.body.get("flags").is_none_or(|f| f.as_u64().unwrap_or(0) & 64 == 0));
    }
}

/// Player 2's hands also went to a direct message, with buttons that name
/// the table's channel.
fn check_player_2_s_direct_messages(reqs: &[Req]) {
    assert!(reqs.iter().any(|r| r.method == "POST" && r.path.ends_with("/users/@me/channels")));
    let dms = channel_posts(reqs, "930000000000000000");
    assert!(!dms.is_empty(), "hands by direct message");
    for r in &dms {
        let body = r.body.to_string();
        assert!(body.contains("Your hand"), "{body}");
        assert!(body.contains("@910000000000000000"), "buttons name the table: {body}");
    }
}

/// A store that answers slowly (a slow Redis, a busy machine).
#[derive(Clone, Default)]
struct SlowStore(MemoryStore);

impl doko_bot::Store for SlowStore {
    async fn load(&self, ch: &doko_bot::ChannelId) -> Result<Option<doko_bot::Stored>, doko_bot::StoreError> {
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        self.0.load(ch).await
    }
    async fn commit_kept(
        &self,
        ch: &doko_bot::ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: doko_bot::Keep,
    ) -> Result<doko_bot::Commit, doko_bot::StoreError> {
        self.0.commit_kept(ch, expected, json, records, keep).await
    }
    async fn record(&self, ch: &doko_bot::ChannelId, n: u32) -> Result<Option<String>, doko_bot::StoreError> {
        self.0.record(ch, n).await
    }
    async fn channels(&self) -> Result<Vec<doko_bot::ChannelId>, doko_bot::StoreError> {
        self.0.channels().await
    }

    async fn quarantine(&self, q: &doko_bot::Quarantined) -> Result<bool, doko_bot::StoreError> {
        self.0.quarantine(q).await
    }

    async fn quarantined(&self) -> Result<Vec<doko_bot::Quarantined>, doko_bot::StoreError> {
        self.0.quarantined().await
    }

    async fn format_version(&self) -> Result<Option<u32>, doko_bot::StoreError> {
        self.0.format_version().await
    }

    async fn set_format_version(&self, v: u32) -> Result<(), doko_bot::StoreError> {
        self.0.set_format_version(v).await
    }
}

#[tokio::test]
async fn slow_work_is_deferred_then_answered_by_an_edit() {
    let (url, log) = recording_server().await;
    let http = Arc::new(
        HttpBuilder::new("Bot test-token")
            .proxy(url)
            .ratelimiter_disabled(true)
            .application_id(serenity::all::ApplicationId::new(1_100_000_000_000_000_000))
            .build(),
    );
    let service = Arc::new(Service::new(SlowStore::default(), 18));
    let mut adapter = Adapter::new(service.clone(), http, false);
    adapter.defer_after = std::time::Duration::from_millis(50);
    let mut s = Script { next: 1_600_000_000_000_000_000 };
    adapter.handle(&s.slash(1, "join")).await.unwrap();
    adapter.handle(&s.click(1, "doko:hand")).await.unwrap();
    let reqs = log.lock().unwrap().clone();
    let callbacks: Vec<&Req> = reqs.iter().filter(|r| r.path.contains("/interactions/")).collect();
    assert_eq!(callbacks.len(), 2);
    assert_eq!(callbacks[0].body["type"], 5, "a deferred (ephemeral) answer first");
    assert_eq!(callbacks[0].body["data"]["flags"], 64);
    assert_eq!(callbacks[1].body["type"], 6, "a deferred update for a click");
    let edits: Vec<&Req> =
        reqs.iter().filter(|r| r.method == "PATCH" && r.path.contains("/messages/@original")).collect();
    assert_eq!(edits.len(), 2, "then the original response is edited: {reqs:?}");
    assert!(edits[0].path.starts_with("/api/v10/webhooks/1100000000000000000/"));
}

#[tokio::test]
async fn the_public_my_hand_button_answers_privately_and_dm_clicks_play_at_the_table() {
    let (url, log) = recording_server().await;
    let http = Arc::new(HttpBuilder::new("Bot test-token").proxy(url).ratelimiter_disabled(true).build());
    let service = Arc::new(Service::new(MemoryStore::default(), 19));
    let adapter = Adapter::new(service.clone(), http, false);
    let ch = doko_bot::ChannelId::new(doko_bot::Platform::DISCORD, "910000000000000000");
    let mut s = Script { next: 1_700_000_000_000_000_000 };
    for u in 1..=4 {
        adapter.handle(&s.slash(u, "join")).await.unwrap();
    }
    adapter.handle(&s.slash(1, "start")).await.unwrap();
    // a click on "my hand" under the public table message (flags 0)
    let mut p = payload("button-play");
    p["id"] = json!(s.id());
    p["message"]["flags"] = json!(0);
    p["data"]["custom_id"] = json!("doko:hand");
    adapter.handle(&decode(&p.to_string()).unwrap()).await.unwrap();
    let last = log.lock().unwrap().iter().rev().find(|r| r.path.contains("/interactions/")).cloned().unwrap();
    assert_eq!(last.body["type"], 4, "a new message, not an update of the public one");
    assert_eq!(last.body["data"]["flags"], 64, "ephemeral");
    // the person to act clicks a card in their DM hand
    let (t, _) = service.table(&ch).await.unwrap();
    let (key, _) = t.person_to_act().unwrap();
    let user: usize = key.id.chars().last().unwrap().to_digit(10).unwrap() as usize;
    let uid = doko_bot::UserId::new(doko_bot::Platform::DISCORD, format!("80000000000000000{user}"));
    let action = t.view_for(&uid).unwrap().legal[0];
    let mut p = payload("button-play");
    p["id"] = json!(s.id());
    p.as_object_mut().unwrap().remove("guild_id");
    p.as_object_mut().unwrap().remove("member");
    p["user"] =
        json!({"id": format!("80000000000000000{user}"), "username": "x", "discriminator": "0", "avatar": null});
    p["channel_id"] = json!("930000000000000000");
    p["channel"] = json!({"id": "930000000000000000", "type": 1});
    p["context"] = json!(1);
    let hand = doko_bot::App::hand(&*service, &ch, &uid).await.unwrap();
    p["data"]["custom_id"] = json!(doko_discord::button_id(&doko_bot::Command::from_action(action), &hand));
    let before = log.lock().unwrap().len();
    adapter.handle(&decode(&p.to_string()).unwrap()).await.unwrap();
    let (t2, _) = service.table(&ch).await.unwrap();
    assert_ne!(t.game().unwrap(), t2.game().unwrap(), "the click acted at the table");
    let after: Vec<Req> = log.lock().unwrap()[before..].to_vec();
    assert!(
        after
            .iter()
            .any(|r| r.method == "PATCH" && r.path.starts_with("/api/v10/channels/910000000000000000/messages/")),
        "the table message in the channel was updated: {after:?}"
    );
    assert!(
        !after.iter().any(|r| r.path.starts_with("/api/v10/channels/930000000000000000/")),
        "nothing public in the DM"
    );
}
