//! The fake Discord's own tests: a minimal client written here (a
//! WebSocket and plain HTTP requests) drives the gateway and the REST
//! routes, and every payload the fake sends is parsed with serenity's
//! models; then serenity 0.12's own client connects, gets READY, registers
//! commands and answers interactions, through a RECONNECT and an invalid
//! session: the fake speaks what serenity speaks.

use std::sync::Arc;
use std::time::Duration;

use doko_system_tests::fake_discord::{Config, FakeDiscord, Opt, Place};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(10);

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A minimal gateway client.
struct Raw {
    ws: Ws,
}

impl Raw {
    /// Connects as serenity does: the URL from `GET /gateway`, `?v=10`.
    async fn connect(fake: &FakeDiscord) -> Raw {
        let (status, gw) = call(fake, "GET", "/gateway", None).await;
        assert_eq!(status, 200);
        let url = format!("{}?v=10&encoding=json", gw["url"].as_str().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        Raw { ws }
    }

    async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string())).await.unwrap();
    }

    /// The next payload, which must parse as serenity's `GatewayEvent`.
    async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a gateway payload").unwrap().unwrap();
            if let Message::Text(t) = msg {
                if let Err(e) = serde_json::from_str::<serenity::model::event::GatewayEvent>(&t) {
                    panic!("serenity cannot parse {t}: {e}");
                }
                return serde_json::from_str(&t).unwrap();
            }
            if let Message::Close(f) = msg {
                return json!({"closed": f.map(|f| u16::from(f.code))});
            }
        }
    }

    /// HELLO, then IDENTIFY, READY and GUILD_CREATE; the session id.
    async fn identify(&mut self, fake: &FakeDiscord) -> String {
        let hello = self.recv().await;
        assert_eq!(hello["op"], 10);
        let token = format!("Bot {}", fake.config().token);
        self.send(json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {"os": "linux", "browser": "t", "device": "t"}}}))
            .await;
        let ready = self.recv().await;
        assert_eq!((ready["op"].as_u64(), ready["t"].as_str(), ready["s"].as_u64()), (Some(0), Some("READY"), Some(1)));
        let guild = self.recv().await;
        assert_eq!((guild["t"].as_str(), guild["s"].as_u64()), (Some("GUILD_CREATE"), Some(2)));
        ready["d"]["session_id"].as_str().unwrap().to_string()
    }
}

/// A REST call to `/api/v10{path}` with the bot's token.
async fn call(fake: &FakeDiscord, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let url = format!("{}/api/v10{path}", fake.api_origin());
    let client = reqwest::Client::new();
    let mut req =
        client.request(method.parse().unwrap(), url).header("authorization", format!("Bot {}", fake.config().token));
    if let Some(b) = body {
        req = req.header("content-type", "application/json").body(b.to_string());
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    (status, if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap() })
}

fn parses<T: serde::de::DeserializeOwned>(v: &Value) {
    if let Err(e) = serde_json::from_value::<T>(v.clone()) {
        panic!("serenity cannot parse {v}: {e}");
    }
}

fn user(fake: &FakeDiscord, i: usize) -> u64 {
    fake.config().users[i].id
}

fn channel(fake: &FakeDiscord) -> Place {
    Place::Channel(fake.config().channels[0])
}

#[tokio::test]
async fn hello_identify_ready_guild_create_and_heartbeat_ack() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let (status, bot) = call(&fake, "GET", "/gateway/bot", None).await;
    assert_eq!(status, 200);
    assert_eq!(bot["shards"], 1);
    assert_eq!(bot["session_start_limit"]["max_concurrency"], 1);
    parses::<serenity::model::gateway::BotGateway>(&bot);
    let mut c = Raw::connect(&fake).await;
    let hello = c.recv().await;
    assert_eq!(hello["d"]["heartbeat_interval"], 2000);
    c.send(json!({"op": 1, "d": null})).await;
    assert_eq!(c.recv().await["op"], 11);
    let token = format!("Bot {}", fake.config().token);
    c.send(json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {}, "shard": [0, 1]}})).await;
    let ready = c.recv().await;
    assert_eq!(ready["t"], "READY");
    assert_eq!(ready["d"]["v"], 10);
    assert_eq!(ready["d"]["shard"], json!([0, 1]));
    assert_eq!(ready["d"]["resume_gateway_url"].as_str(), Some(fake.gateway_url().as_str()));
    assert_eq!(ready["d"]["application"]["id"], fake.config().application_id.to_string());
    assert_eq!(ready["d"]["guilds"][0]["unavailable"], true);
    let guild = c.recv().await;
    assert_eq!(guild["t"], "GUILD_CREATE");
    assert_eq!(guild["d"]["channels"].as_array().unwrap().len(), 2);
    fake.wait_ready(WAIT).await.unwrap();
    // a heartbeat with the last sequence number
    c.send(json!({"op": 1, "d": 2})).await;
    assert_eq!(c.recv().await["op"], 11);
    assert_eq!((fake.identify_count(), fake.heartbeat_count()), (1, 2));
    assert_eq!(fake.connections()[0].query, "v=10&encoding=json");
    // the token never lands in the record
    assert!(fake.gateway_ops().iter().all(|o| !o.d.to_string().contains(&fake.config().token)));
    // a second IDENTIFY on the same connection: 4005 Already authenticated
    c.send(json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {}}})).await;
    assert_eq!(c.recv().await["closed"], 4005);
}

#[tokio::test]
async fn a_wrong_token_is_refused() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let mut c = Raw::connect(&fake).await;
    c.recv().await;
    c.send(json!({"op": 2, "d": {"token": "Bot nope", "intents": 1, "properties": {}}})).await;
    assert_eq!(c.recv().await["closed"], 4004);
    let resp = reqwest::Client::new().get(format!("{}/api/v10/users/@me", fake.api_origin())).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    assert_eq!(body, json!({"message": "401: Unauthorized", "code": 0}));
}

#[tokio::test]
async fn an_interaction_is_dispatched_and_its_callbacks_recorded() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let mut c = Raw::connect(&fake).await;
    c.identify(&fake).await;
    let (alice, bob) = (user(&fake, 0), user(&fake, 1));
    let i = fake.slash(alice, channel(&fake), "doko", vec![Opt::sub("join", vec![Opt::int("seat", 2)])]);
    let h = fake.send_interaction(i).await.unwrap();
    let ev = c.recv().await;
    assert_eq!((ev["t"].as_str(), ev["s"].as_u64()), (Some("INTERACTION_CREATE"), Some(3)));
    assert_eq!(ev["d"]["id"], h.id.to_string());
    assert_eq!(ev["d"]["data"]["options"][0]["options"][0]["value"], 2);
    assert_eq!(ev["d"]["member"]["user"]["id"], alice.to_string());
    parses::<serenity::model::application::Interaction>(&ev["d"]);
    // an ephemeral message with a button
    let path = format!("/interactions/{}/{}/callback", h.id, h.token);
    let row = json!([{"type": 1, "components": [{"type": 2, "style": 1, "label": "♥A", "custom_id": "play:1"}]}]);
    let body = json!({"type": 4, "data": {"content": "your hand", "flags": 64, "components": row}});
    let (status, _) = call(&fake, "POST", &path, Some(body.clone())).await;
    assert_eq!(status, 204);
    let cb = fake.wait_callback(&h, WAIT).await.unwrap();
    assert!(cb.in_time() && cb.ephemeral());
    assert_eq!((cb.kind, cb.content.as_deref()), (4, Some("your hand")));
    // one response only: 40060
    let (status, e) = call(&fake, "POST", &path, Some(body)).await;
    assert_eq!((status, e["code"].as_u64()), (400, Some(40060)));
    assert_eq!(fake.callbacks_for(&h).len(), 2);
    // the response message: edited through @original, a followup
    let app = fake.config().application_id;
    let orig = format!("/webhooks/{app}/{}/messages/@original", h.token);
    let (status, m) = call(&fake, "PATCH", &orig, Some(json!({"content": "your hand, again"}))).await;
    assert_eq!(status, 200);
    parses::<serenity::model::channel::Message>(&m);
    let original = fake.original_message(&h).unwrap();
    assert!(original.ephemeral());
    assert_eq!((original.edits(), original.content.as_str()), (1, "your hand, again"));
    assert_eq!(original.custom_ids(), vec!["play:1".to_string()]);
    let (status, f) =
        call(&fake, "POST", &format!("/webhooks/{app}/{}", h.token), Some(json!({"content": "psst", "flags": 64})))
            .await;
    assert_eq!(status, 200);
    parses::<serenity::model::channel::Message>(&f);
    assert_eq!(fake.followups(&h).len(), 1);
    assert!(fake.channel_messages(fake.config().channels[0]).is_empty(), "nothing public");
    // a click on the ephemeral message, answered by updating it (type 7)
    let click = fake.click(bob, channel(&fake), original.id, "play:1");
    assert_eq!(click["message"]["flags"], 64);
    let k = fake.send_interaction(click).await.unwrap();
    let ev = c.recv().await;
    assert_eq!(ev["d"]["data"]["custom_id"], "play:1");
    parses::<serenity::model::application::Interaction>(&ev["d"]);
    let path = format!("/interactions/{}/{}/callback?with_response=true", k.id, k.token);
    let (status, r) = call(&fake, "POST", &path, Some(json!({"type": 7, "data": {"content": "played"}}))).await;
    assert_eq!(status, 200);
    assert_eq!(r["resource"]["message"]["content"], "played");
    assert_eq!(fake.message(original.id).unwrap().edits(), 2);
    // type 8 is for autocomplete only
    let a = fake.autocomplete(alice, channel(&fake), "doko", vec![Opt::sub("play", vec![Opt::focused("card", "he")])]);
    let a = fake.send_interaction(a).await.unwrap();
    c.recv().await;
    let path = format!("/interactions/{}/{}/callback", a.id, a.token);
    let (status, e) = call(&fake, "POST", &path, Some(json!({"type": 4, "data": {"content": "no"}}))).await;
    assert_eq!((status, e["code"].as_u64()), (400, Some(50035)));
    let (status, _) = call(&fake, "POST", &path, Some(json!({"type": 8, "data": {"choices": []}}))).await;
    assert_eq!(status, 204);
    // and in a DM
    let d = fake.slash(bob, Place::Dm, "doko", vec![Opt::sub("hand", vec![])]);
    assert!(d.get("member").is_none() && d["user"]["id"].as_str() == Some(bob.to_string().as_str()));
    fake.send_interaction(d).await.unwrap();
    let ev = c.recv().await;
    parses::<serenity::model::application::Interaction>(&ev["d"]);
    assert!(fake.unknown_routes().is_empty());
}

#[tokio::test]
async fn a_late_first_response_is_an_unknown_interaction() {
    assert_eq!(Config::default().interaction_deadline, Duration::from_secs(3));
    let config = Config { interaction_deadline: Duration::from_millis(300), ..Config::default() };
    let fake = FakeDiscord::start(config).await.unwrap();
    let mut c = Raw::connect(&fake).await;
    c.identify(&fake).await;
    let h = fake.send_interaction(fake.slash(user(&fake, 0), channel(&fake), "doko", vec![])).await.unwrap();
    c.recv().await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let path = format!("/interactions/{}/{}/callback", h.id, h.token);
    let (status, e) = call(&fake, "POST", &path, Some(json!({"type": 5}))).await;
    assert_eq!((status, &e), (404, &json!({"message": "Unknown interaction", "code": 10062})));
    let cb = fake.wait_callback(&h, WAIT).await.unwrap();
    assert!(!cb.in_time());
    assert_eq!(cb.error_code, Some(10062));
    // no response, so no webhook for followups either
    let app = fake.config().application_id;
    let (status, e) = call(&fake, "POST", &format!("/webhooks/{app}/{}", h.token), Some(json!({"content": "x"}))).await;
    assert_eq!((status, e["code"].as_u64()), (404, Some(10015)));
}

#[tokio::test]
async fn closed_direct_messages_answer_50007() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let (open, closed) = (user(&fake, 0), user(&fake, 1));
    let config = Config { closed_dms: vec![closed], ..Config::default() };
    drop(fake);
    let fake = FakeDiscord::start(config).await.unwrap();
    for (u, expect) in [(open, 200), (closed, 403)] {
        let (status, dm) =
            call(&fake, "POST", "/users/@me/channels", Some(json!({"recipient_id": u.to_string()}))).await;
        assert_eq!(status, 200);
        parses::<serenity::model::channel::PrivateChannel>(&dm);
        let id = dm["id"].as_str().unwrap().to_string();
        assert_eq!(fake.dm_channel(u).map(|c| c.to_string()), Some(id.clone()));
        let (status, ch) = call(&fake, "GET", &format!("/channels/{id}"), None).await;
        assert_eq!(status, 200);
        parses::<serenity::model::channel::Channel>(&ch);
        let (status, m) =
            call(&fake, "POST", &format!("/channels/{id}/messages"), Some(json!({"content": "your hand"}))).await;
        assert_eq!(status, expect);
        if expect == 403 {
            assert_eq!(m, json!({"message": "Cannot send messages to this user", "code": 50007}));
        } else {
            parses::<serenity::model::channel::Message>(&m);
        }
    }
    assert_eq!((fake.dms(open).len(), fake.refused_dms(open).len()), (1, 0));
    assert_eq!((fake.dms(closed).len(), fake.refused_dms(closed).len()), (0, 1));
    // an unknown recipient, an empty message, an unknown channel
    let (status, e) = call(&fake, "POST", "/users/@me/channels", Some(json!({"recipient_id": "1"}))).await;
    assert_eq!((status, e["code"].as_u64()), (400, Some(50033)));
    let ch = fake.config().channels[0];
    let (status, e) = call(&fake, "POST", &format!("/channels/{ch}/messages"), Some(json!({"content": ""}))).await;
    assert_eq!((status, e["code"].as_u64()), (400, Some(50006)));
    let (status, e) = call(&fake, "POST", "/channels/42/messages", Some(json!({"content": "x"}))).await;
    assert_eq!((status, e["code"].as_u64()), (404, Some(10003)));
    // a table message, edited in place
    let (_, m) = call(&fake, "POST", &format!("/channels/{ch}/messages"), Some(json!({"content": "table"}))).await;
    let id = m["id"].as_str().unwrap();
    let (status, _) =
        call(&fake, "PATCH", &format!("/channels/{ch}/messages/{id}"), Some(json!({"content": "table 2"}))).await;
    assert_eq!(status, 200);
    let msgs = fake.channel_messages(ch);
    assert_eq!((msgs.len(), msgs[0].edits(), msgs[0].content.as_str()), (1, 1, "table 2"));
    let long = "x".repeat(2001);
    let (status, e) =
        call(&fake, "PATCH", &format!("/channels/{ch}/messages/{id}"), Some(json!({"content": long}))).await;
    assert_eq!((status, e["code"].as_u64()), (400, Some(50035)));
}

#[tokio::test]
async fn resume_after_a_drop_replays_the_missed_events() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let mut c = Raw::connect(&fake).await;
    let session = c.identify(&fake).await;
    assert!(fake.drop_connection());
    fake.wait_for("the drop", WAIT, |f| (!f.ready()).then_some(())).await.unwrap();
    // missed while away
    let h = fake.send_interaction(fake.slash(user(&fake, 2), channel(&fake), "doko", vec![])).await.unwrap();
    let token = format!("Bot {}", fake.config().token);
    let mut c = Raw::connect(&fake).await;
    assert_eq!(c.recv().await["op"], 10);
    c.send(json!({"op": 6, "d": {"token": token, "session_id": session, "seq": 2}})).await;
    let replayed = c.recv().await;
    assert_eq!((replayed["t"].as_str(), replayed["s"].as_u64()), (Some("INTERACTION_CREATE"), Some(3)));
    assert_eq!(replayed["d"]["id"], h.id.to_string());
    let resumed = c.recv().await;
    assert_eq!((resumed["t"].as_str(), resumed["s"].as_u64()), (Some("RESUMED"), Some(4)));
    fake.wait_ready(WAIT).await.unwrap();
    assert_eq!((fake.identify_count(), fake.resume_count()), (1, 1));
    // a RESUME of a session that is gone: op 9, not resumable
    assert!(fake.invalid_session(false));
    assert_eq!(c.recv().await, json!({"op": 9, "d": false}));
    let mut c = Raw::connect(&fake).await;
    c.recv().await;
    c.send(json!({"op": 6, "d": {"token": token, "session_id": session, "seq": 4}})).await;
    assert_eq!(c.recv().await["d"], false);
    // a new session after IDENTIFY
    c.send(json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {}}})).await;
    assert_eq!(c.recv().await["t"], "READY");
    assert_ne!(fake.session_id(), Some(session));
}

/// IDENTIFY with `shard: [k, n]`: READY's guilds and the GUILD_CREATEs.
async fn identify_shard(c: &mut Raw, fake: &FakeDiscord, shard: [u64; 2]) -> (Value, Vec<Value>) {
    assert_eq!(c.recv().await["op"], 10);
    let token = format!("Bot {}", fake.config().token);
    c.send(json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {}, "shard": shard}})).await;
    let ready = c.recv().await;
    assert_eq!(ready["t"], "READY");
    parses::<serenity::model::event::ReadyEvent>(&ready["d"]);
    let mut guilds = Vec::new();
    for _ in 0..ready["d"]["guilds"].as_array().unwrap().len() {
        let g = c.recv().await;
        assert_eq!(g["t"], "GUILD_CREATE");
        parses::<serenity::model::guild::Guild>(&g["d"]);
        guilds.push(g["d"].clone());
    }
    (ready, guilds)
}

#[tokio::test]
async fn sharding_routes_each_guilds_events_to_its_shards_session() {
    let fake = FakeDiscord::start(Config::sharded()).await.unwrap();
    let guilds = fake.config().guilds();
    assert_eq!(guilds.len(), 2);
    let (g0, g1) = (&guilds[0], &guilds[1]);
    assert_eq!((Config::shard_of(g0.id, 2), Config::shard_of(g1.id, 2)), (0, 1));
    // the second guild's channel falls on the other shard than its guild
    assert_eq!(Config::shard_of(g1.channels[0], 2), 0);
    let (status, bot) = call(&fake, "GET", "/gateway/bot", None).await;
    assert_eq!((status, bot["shards"].as_u64()), (200, Some(2)));

    // a shard id not below the count: 4010
    let mut bad = Raw::connect(&fake).await;
    assert_eq!(bad.recv().await["op"], 10);
    let token = format!("Bot {}", fake.config().token);
    bad.send(json!({"op": 2, "d": {"token": token, "intents": 1, "properties": {}, "shard": [2, 2]}})).await;
    assert_eq!(bad.recv().await, json!({"closed": 4010}));

    // two sessions at once, each with the guilds of its shard
    let mut s0 = Raw::connect(&fake).await;
    let (ready0, created0) = identify_shard(&mut s0, &fake, [0, 2]).await;
    assert!(!fake.shard_ready(1));
    let mut s1 = Raw::connect(&fake).await;
    let (ready1, created1) = identify_shard(&mut s1, &fake, [1, 2]).await;
    fake.wait_shards_ready(&[0, 1], WAIT).await.unwrap();
    assert!(fake.ready());
    assert_eq!(ready0["d"]["shard"], json!([0, 2]));
    assert_eq!(ready0["d"]["guilds"], json!([{"id": g0.id.to_string(), "unavailable": true}]));
    assert_eq!(ready1["d"]["guilds"], json!([{"id": g1.id.to_string(), "unavailable": true}]));
    assert_eq!(created0[0]["id"], g0.id.to_string());
    assert_eq!(created1[0]["id"], g1.id.to_string());
    assert_eq!(created1[0]["name"], "Skat club");
    let ids: Vec<&Value> = created1[0]["channels"].as_array().unwrap().iter().map(|c| &c["id"]).collect();
    assert_eq!(ids, g1.channels.iter().map(|c| json!(c.to_string())).collect::<Vec<_>>().iter().collect::<Vec<_>>());
    let sessions = fake.sessions();
    assert_eq!(sessions.iter().map(|s| (s.shard, s.num_shards)).collect::<Vec<_>>(), vec![(0, 2), (1, 2)]);
    assert_ne!(sessions[0].session_id, sessions[1].session_id);
    assert_ne!(sessions[0].connection, sessions[1].connection);

    // each guild's interaction goes to its shard's session; DMs to shard 0
    let h1 = fake.send_interaction(fake.slash(user(&fake, 1), Place::Channel(g1.channels[0]), "doko", vec![])).await;
    let h1 = h1.unwrap();
    let e = s1.recv().await;
    assert_eq!((e["t"].as_str(), e["s"].as_u64()), (Some("INTERACTION_CREATE"), Some(3)));
    assert_eq!(
        (e["d"]["id"].clone(), e["d"]["guild_id"].clone()),
        (json!(h1.id.to_string()), json!(g1.id.to_string()))
    );
    assert_eq!(e["d"]["channel"]["name"], "doko");
    assert_eq!(fake.interaction_shard(&h1), Some(1));
    let h0 = fake.send_interaction(fake.slash(user(&fake, 1), Place::Channel(g0.channels[1]), "doko", vec![])).await;
    let h0 = h0.unwrap();
    let e = s0.recv().await;
    assert_eq!((e["d"]["id"].clone(), e["s"].as_u64()), (json!(h0.id.to_string()), Some(3)));
    assert_eq!(fake.interaction_shard(&h0), Some(0));
    let dm = fake.send_interaction(fake.slash(user(&fake, 2), Place::Dm, "doko", vec![])).await.unwrap();
    assert_eq!(s0.recv().await["d"]["id"], dm.id.to_string());
    assert_eq!(fake.interaction_shard(&dm), Some(0));
    // shard 1 got nothing else: its next payload is the heartbeat's ACK
    s1.send(json!({"op": 1, "d": 3})).await;
    assert_eq!(s1.recv().await["op"], 11);
    // the REST side knows the second guild's channels
    let (status, ch) = call(&fake, "GET", &format!("/channels/{}", g1.channels[1]), None).await;
    assert_eq!((status, ch["guild_id"].clone(), ch["name"].clone()), (200, json!(g1.id.to_string()), json!("doko-2")));
    let (status, _) =
        call(&fake, "POST", &format!("/channels/{}/messages", g1.channels[0]), Some(json!({"content": "hi"}))).await;
    assert_eq!(status, 200);

    // one shard's session ends (its process died): events for it wait for
    // a RESUME, the other shard goes on
    drop(s1);
    fake.wait_for("shard 1 gone", WAIT, |f| (!f.shard_ready(1)).then_some(())).await.unwrap();
    assert!(fake.shard_ready(0) && !fake.ready());
    let waiting = fake.send_interaction(fake.slash(user(&fake, 0), Place::Channel(g1.channels[0]), "doko", vec![]));
    let waiting = waiting.await.unwrap();
    assert_eq!(fake.interaction_shard(&waiting), Some(1));
    // a new IDENTIFY for shard 1 replaces its session (the waiting event
    // is lost, as on Discord); shard 0's session is untouched
    let before = fake.sessions();
    let mut s1 = Raw::connect(&fake).await;
    let (ready1, _) = identify_shard(&mut s1, &fake, [1, 2]).await;
    assert_ne!(ready1["d"]["session_id"].as_str(), Some(before[1].session_id.as_str()));
    assert_eq!(fake.sessions()[0], before[0]);
    assert_eq!((fake.identify_count_for(0), fake.identify_count_for(1)), (1, 2));
    fake.wait_ready(WAIT).await.unwrap();
    let h = fake.send_interaction(fake.slash(user(&fake, 3), Place::Channel(g1.channels[0]), "doko", vec![])).await;
    assert_eq!(s1.recv().await["d"]["id"], h.unwrap().id.to_string());
}

#[tokio::test]
async fn reconnect_and_invalid_session_reach_the_client() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let mut c = Raw::connect(&fake).await;
    c.identify(&fake).await;
    assert!(fake.reconnect());
    assert_eq!(c.recv().await, json!({"op": 7, "d": null}));
    assert!(fake.invalid_session(true));
    assert_eq!(c.recv().await, json!({"op": 9, "d": true}));
    assert!(fake.session_id().is_some(), "a resumable session stays");
    assert!(fake.request_heartbeat());
    assert_eq!(c.recv().await["op"], 1);
    assert!(fake.close_connection(4000));
    assert_eq!(c.recv().await["closed"], 4000);
}

#[tokio::test]
async fn unknown_routes_are_recorded_and_answered_404() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let (status, e) = call(&fake, "GET", "/guilds/1/audit-logs", None).await;
    assert_eq!((status, &e), (404, &json!({"message": "404: Not Found", "code": 0})));
    let (status, _) = call(&fake, "DELETE", "/gateway", None).await;
    assert_eq!(status, 405);
    let unknown = fake.unknown_routes();
    assert_eq!(unknown.len(), 2);
    assert_eq!((unknown[0].method.as_str(), unknown[0].path.as_str()), ("GET", "/api/v10/guilds/1/audit-logs"));
    // known routes are not
    let (status, me) = call(&fake, "GET", "/users/@me", None).await;
    assert_eq!(status, 200);
    parses::<serenity::model::user::CurrentUser>(&me);
    assert_eq!(fake.unknown_routes().len(), 2);
}

#[tokio::test]
async fn a_rate_limit_is_answered_429_as_documented() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let ch = fake.config().channels[0];
    fake.rate_limit("POST", "/messages", 1, Duration::from_millis(1500));
    let url = format!("{}/api/v10/channels/{ch}/messages", fake.api_origin());
    let resp = reqwest::Client::new()
        .post(&url)
        .header("authorization", format!("Bot {}", fake.config().token))
        .header("content-type", "application/json")
        .body(json!({"content": "table"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 429);
    assert_eq!(resp.headers()["retry-after"], "2");
    assert_eq!(resp.headers()["x-ratelimit-scope"], "user");
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    assert_eq!(body, json!({"message": "You are being rate limited.", "retry_after": 1.5, "global": false}));
    assert!(fake.channel_messages(ch).is_empty(), "not executed");
    let (status, _) = call(&fake, "POST", &format!("/channels/{ch}/messages"), Some(json!({"content": "table"}))).await;
    assert_eq!(status, 200);
}

mod with_serenity {
    //! serenity 0.12's own client against the fake.

    use super::*;
    use serenity::all::{
        ButtonStyle, ChannelId, ClientBuilder, Context, CreateActionRow, CreateAttachment, CreateButton, CreateCommand,
        CreateCommandOption, CreateInteractionResponse, CreateInteractionResponseMessage, CreateMessage,
        EditInteractionResponse, EditMessage, EventHandler, GatewayIntents, GuildId, HttpBuilder, Interaction, Ready,
        UserId,
    };

    struct Bot {
        guild: u64,
        channel: u64,
        dm_to: u64,
        errors: Arc<std::sync::Mutex<Vec<String>>>,
    }

    impl Bot {
        fn fail(&self, e: impl std::fmt::Display) {
            self.errors.lock().unwrap().push(e.to_string());
        }
    }

    #[serenity::async_trait]
    impl EventHandler for Bot {
        async fn ready(&self, ctx: Context, _ready: Ready) {
            let cmd = CreateCommand::new("doko").description("Doppelkopf").add_option(CreateCommandOption::new(
                serenity::all::CommandOptionType::SubCommand,
                "join",
                "take a seat",
            ));
            if let Err(e) = GuildId::new(self.guild).set_commands(&ctx.http, vec![cmd]).await {
                self.fail(e);
            }
        }

        async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
            match interaction {
                // deferred, then the response edited (as the adapter does
                // when the service is slow)
                Interaction::Command(ci) if ci.data.name == "slow" => {
                    let defer =
                        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
                    if let Err(e) = ci.create_response(&ctx.http, defer).await {
                        self.fail(e);
                    }
                    let edit = EditInteractionResponse::new().content("done");
                    if let Err(e) = ci.edit_response(&ctx.http, edit).await {
                        self.fail(e);
                    }
                }
                Interaction::Component(ci) if ci.data.custom_id == "slow" => {
                    if let Err(e) = ci.create_response(&ctx.http, CreateInteractionResponse::Acknowledge).await {
                        self.fail(e);
                    }
                    let edit = EditInteractionResponse::new().content("done later");
                    if let Err(e) = ci.edit_response(&ctx.http, edit).await {
                        self.fail(e);
                    }
                }
                Interaction::Command(ci) => {
                    let row = CreateActionRow::Buttons(vec![
                        CreateButton::new("play:1").label("♥A").style(ButtonStyle::Primary),
                    ]);
                    let msg = CreateInteractionResponseMessage::new()
                        .ephemeral(true)
                        .content(format!("hand for {}", ci.user.name))
                        .components(vec![row])
                        .add_file(CreateAttachment::bytes(b"{}".to_vec(), "record-1.json"));
                    if let Err(e) = ci.create_response(&ctx.http, CreateInteractionResponse::Message(msg)).await {
                        self.fail(e);
                    }
                    // the table message, posted and edited
                    let ch = ChannelId::new(self.channel);
                    match ch.send_message(&ctx.http, CreateMessage::new().content("table")).await {
                        Ok(mut m) => {
                            if let Err(e) = m.edit(&ctx.http, EditMessage::new().content("table, edited")).await {
                                self.fail(e);
                            }
                        }
                        Err(e) => self.fail(e),
                    }
                    // a direct message
                    match UserId::new(self.dm_to).create_dm_channel(&ctx.http).await {
                        Ok(dm) => {
                            if let Err(e) = dm.id.send_message(&ctx.http, CreateMessage::new().content("psst")).await {
                                self.fail(e);
                            }
                        }
                        Err(e) => self.fail(e),
                    }
                }
                Interaction::Component(ci) => {
                    let msg = CreateInteractionResponseMessage::new().content(format!("played {}", ci.data.custom_id));
                    if let Err(e) = ci.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(msg)).await {
                        self.fail(e);
                    }
                }
                _ => {}
            }
        }
    }

    #[tokio::test]
    async fn serenity_connects_registers_and_answers_through_reconnects() {
        let config = Config { heartbeat_interval: Duration::from_millis(500), ..Config::default() };
        let fake = FakeDiscord::start(config).await.unwrap();
        let http = HttpBuilder::new(&fake.config().token).proxy(fake.api_origin()).ratelimiter_disabled(true).build();
        let errors = Arc::new(std::sync::Mutex::new(Vec::new()));
        let bot = Bot {
            guild: fake.config().guild_id,
            channel: fake.config().channels[0],
            dm_to: user(&fake, 1),
            errors: errors.clone(),
        };
        let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS).event_handler(bot).await.unwrap();
        let run = tokio::spawn(async move { client.start_autosharded().await });
        connected_registered_and_beating(&fake).await;
        let alice = user(&fake, 0);
        let hand = a_command_and_a_click_on_its_hand(&fake, alice).await;
        deferred_responses_edited_through_original(&fake, alice, hand).await;
        answers_through_reconnects(&fake, alice).await;

        assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
        assert!(errors.lock().unwrap().is_empty(), "{:?}", errors.lock().unwrap());
        let refused: Vec<_> = fake.requests().into_iter().filter(|r| r.status >= 400).collect();
        assert!(refused.is_empty(), "{refused:?}");
        run.abort();
    }

    /// serenity is connected (one shard, API v10), has registered its
    /// command, and its heartbeats are acknowledged: no zombie reconnect.
    async fn connected_registered_and_beating(fake: &FakeDiscord) {
        fake.wait_ready(Duration::from_secs(20)).await.unwrap();
        let commands = fake
            .wait_for("guild commands", WAIT, |f| {
                let c = f.guild_commands(f.config().guild_id);
                (!c.is_empty()).then_some(c)
            })
            .await
            .unwrap();
        assert_eq!(commands[0]["name"], "doko");
        let identify = fake.gateway_ops().into_iter().find(|o| o.op == 2).unwrap();
        assert_eq!(identify.d["shard"], json!([0, 1]));
        assert_eq!(fake.connections()[0].query, "v=10");
        // heartbeats acknowledged: no zombie reconnect
        fake.wait_for("heartbeats", WAIT, |f| (f.heartbeat_count() >= 3).then_some(())).await.unwrap();
        assert_eq!(fake.connections().len(), 1);
    }

    /// A command: an ephemeral hand with a button and a file, the table
    /// edited, a DM; a click on the hand updates it. The hand's message id.
    async fn a_command_and_a_click_on_its_hand(fake: &FakeDiscord, alice: u64) -> u64 {
        let h = fake
            .send_interaction(fake.slash(alice, channel(fake), "doko", vec![Opt::sub("join", vec![])]))
            .await
            .unwrap();
        let cb = fake.wait_callback(&h, WAIT).await.unwrap();
        assert!(cb.in_time(), "{cb:?}");
        assert!(cb.ephemeral());
        assert_eq!(cb.content.as_deref(), Some("hand for alice"));
        assert_eq!(cb.attachments[0].filename, "record-1.json");
        let ch = fake.config().channels[0];
        let table = fake
            .wait_for("the table edited", WAIT, |f| f.channel_messages(ch).into_iter().find(|m| m.edits() == 1))
            .await
            .unwrap();
        assert_eq!(table.content, "table, edited");
        fake.wait_for("a DM", WAIT, |f| (!f.dms(user(f, 1)).is_empty()).then_some(())).await.unwrap();

        // a click on the hand
        let hand = fake.original_message(&h).unwrap();
        let k = fake.send_interaction(fake.click(alice, channel(fake), hand.id, "play:1")).await.unwrap();
        let cb = fake.wait_callback(&k, WAIT).await.unwrap();
        assert_eq!((cb.kind, cb.status), (7, 204));
        assert_eq!(fake.message(hand.id).unwrap().content, "played play:1");
        hand.id
    }

    /// Deferred responses (to a command, to a click on `hand`), then
    /// edited through @original.
    async fn deferred_responses_edited_through_original(fake: &FakeDiscord, alice: u64, hand: u64) {
        let h = fake.send_interaction(fake.slash(alice, channel(fake), "slow", vec![])).await.unwrap();
        assert_eq!(fake.wait_callback(&h, WAIT).await.unwrap().kind, 5);
        let m = fake
            .wait_for("the deferred response edited", WAIT, |f| f.original_message(&h).filter(|m| m.edits() == 1))
            .await
            .unwrap();
        assert!(m.ephemeral() && m.flags & doko_system_tests::fake_discord::LOADING == 0);
        assert_eq!(m.content, "done");
        let k = fake.send_interaction(fake.click(alice, channel(fake), hand, "slow")).await.unwrap();
        assert_eq!(fake.wait_callback(&k, WAIT).await.unwrap().kind, 6);
        fake.wait_for("the clicked message edited", WAIT, |f| {
            f.message(hand).filter(|m| m.content == "done later").map(|_| ())
        })
        .await
        .unwrap();
    }

    /// op 7 (resumed), op 9 not resumable (identified again), a dropped
    /// connection (resumed): serenity goes on answering after each.
    async fn answers_through_reconnects(fake: &FakeDiscord, alice: u64) {
        // op 7: serenity resumes and goes on answering
        fake.reconnect();
        fake.wait_for("a RESUME", Duration::from_secs(20), |f| (f.resume_count() == 1 && f.ready()).then_some(()))
            .await
            .unwrap();
        let h = fake.send_interaction(fake.slash(alice, channel(fake), "doko", vec![])).await.unwrap();
        assert!(fake.wait_callback(&h, WAIT).await.unwrap().in_time());

        // op 9, not resumable: serenity identifies again
        fake.invalid_session(false);
        fake.wait_for("a second IDENTIFY", Duration::from_secs(30), |f| {
            (f.identify_count() == 2 && f.ready()).then_some(())
        })
        .await
        .unwrap();
        let h = fake.send_interaction(fake.slash(alice, Place::Dm, "doko", vec![])).await.unwrap();
        assert!(fake.wait_callback(&h, WAIT).await.unwrap().in_time());

        // a dropped connection: resumed
        fake.drop_connection();
        fake.wait_for("a second RESUME", Duration::from_secs(20), |f| {
            (f.resume_count() == 2 && f.ready()).then_some(())
        })
        .await
        .unwrap();
        let h = fake.send_interaction(fake.slash(alice, channel(fake), "doko", vec![])).await.unwrap();
        assert!(fake.wait_callback(&h, WAIT).await.unwrap().in_time());
    }
}
