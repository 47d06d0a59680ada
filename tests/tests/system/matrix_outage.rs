//! The store away under a Matrix command (issue 63): the room hears within
//! 1.5 s that the bot waits, and the command is applied once when the
//! store is back.

use std::time::{Duration, Instant};

use doko_bot::{ChannelId, Platform, RedisStore, Store};
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use tokio::sync::mpsc;

use crate::outage::DurableRedis;
use crate::synapse::{Arrival, Bot, Synapse, WAIT, say, timed_client};

/// The seats of the room's table as stored.
async fn seats(url: &str, room: &str) -> usize {
    let store = RedisStore::connect(url, 3600).await.unwrap();
    let ch = ChannelId::new(Platform::MATRIX, room);
    let stored = store.load(&ch).await.unwrap().expect("the room's table");
    let v: serde_json::Value = serde_json::from_str(&stored.json).unwrap();
    v["seats"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_while_the_store_is_away_is_answered_at_once_and_applied_once() {
    let syn = Synapse::start_with_users("bot alice");
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let mut redis = DurableRedis::start(&syn.dir.join("redis"));
    let _bot = Bot::start_on(&syn.url, &data, None, Some(&redis.url()));
    let (tx, mut rx) = mpsc::unbounded_channel::<Arrival>();
    let alice = timed_client(&syn.url, "alice", 0, tx).await;
    let mut req = CreateRoom::new();
    req.invite = vec!["@bot:localhost".try_into().unwrap()];
    req.initial_state = vec![
        InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults()).to_raw_any(),
    ];
    let room = alice.create_room(req).await.unwrap();
    let rid = room.room_id().to_string();
    let mut wait_for = async |what: &str, pred: &dyn Fn(&str) -> bool| loop {
        let a = tokio::time::timeout(WAIT, rx.recv()).await.unwrap_or_else(|_| panic!("waited for {what}")).unwrap();
        if a.sender.as_str() == "@bot:localhost" && pred(&a.body) {
            return (a.at, a.body);
        }
    };
    // the bot in the room and answering: alice sits down
    for tries in 0.. {
        assert!(tries < 24, "the bot never answered");
        say(&room, "!doko join").await;
        let joined = wait_for("the join", &|b| b.contains("alice joins the table"));
        if tokio::time::timeout(Duration::from_secs(5), joined).await.is_ok() {
            break;
        }
    }
    assert_eq!(seats(&redis.url(), &rid).await, 1);

    // the store goes away; alice adds a computer
    redis.kill();
    let sent = Instant::now();
    say(&room, "!doko addbot").await;
    let (at, body) = wait_for("the first word", &|b| b.contains("Waiting for it")).await;
    let first_word = at - sent;
    assert!(body.contains("The table is unavailable right now"), "{body}");
    assert!(first_word < Duration::from_millis(1_500), "the first word came after {first_word:?}");
    // the store is back after a while: the computer joins, once
    tokio::time::sleep(Duration::from_secs(4)).await;
    redis.restart();
    let (at, _) = wait_for("the computer", &|b| b.contains("(computer) joins the table")).await;
    println!(
        "matrix: the store away for 4 s under a command: the first word after {} ms, the command applied {} ms \
         after it was sent",
        first_word.as_millis(),
        (at - sent).as_millis()
    );
    assert_eq!(seats(&redis.url(), &rid).await, 2, "alice and one computer: applied once");
}
