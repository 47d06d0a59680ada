//! No answered move lost in a failover, where the host asks for it: on a
//! Redis Cluster with a replica of each primary, the table's primary is
//! killed (SIGKILL) right after the bot answered a move, its replica takes
//! over, and the move is looked for in the table. Replication is
//! asynchronous: to make the move's loss possible at all, the replica's
//! link is cut (`CLIENT KILL TYPE replica` on the primary) just before the
//! move, so the move is on the primary only until the replica reconnects
//! (within about a second). With `replica_wait_ms` set
//! ([`RedisStore::with_replica_wait`]) the bot answers only once a replica
//! has confirmed the move: it is kept. Without it the bot answers at once,
//! and the move may be lost; the test says which happened.

use std::time::{Duration, Instant};

use crate::cluster::{
    a_card_if_cards_are_played, nodes, people, port_index, primary_port, run, seen_from,
    wait_until_the_replica_caught_up,
};
use crate::common::act_once;
use doko_bot::{Actor, ChannelId, Command, Kind, Platform, RedisStore, Service};
use doko_system_tests::LocalCluster;

/// What became of the move made right before the crash.
#[derive(Debug, PartialEq)]
enum Fate {
    Kept,
    Lost,
}

/// The move to make once the bidding is over: who plays which card, and
/// the table's version and cards played before it.
async fn a_card(svc: &Service<RedisStore>, ch: &ChannelId, ps: &[Actor]) -> (Actor, Command, u64, usize) {
    loop {
        if let Some(card) = a_card_if_cards_are_played(svc, ch, ps).await {
            return card;
        }
        assert!(act_once(svc, ch, ps).await, "the deal goes on");
    }
}

/// Four people play into a deal on a fresh cluster; the replica's link is
/// cut, a card is played and answered, the table's primary is killed at
/// once and its replica takes over. What became of the card, and how long
/// the answer took.
async fn a_move_then_the_primary_crashes(replica_wait_ms: u64) -> (Fate, Duration) {
    let mut cluster = LocalCluster::start_with_replicas().expect("redis-server and redis-cli must be installed");
    let mut nodes = nodes(&cluster).await;
    let store = RedisStore::connect(&cluster.url(), 3600).await.unwrap().with_replica_wait(replica_wait_ms);
    let svc = Service::new(store, 61);
    let ch = ChannelId::new(Platform::DISCORD, format!("failover-{replica_wait_ms}"));
    let ps = people();
    for p in &ps {
        svc.handle(&ch, p, "join").await.unwrap();
    }
    svc.handle(&ch, &ps[0], "start").await.unwrap();
    let (actor, cmd, version, plays) = a_card(&svc, &ch, &ps).await;
    // the table's primary and its replica, in sync
    let (key, _) = RedisStore::keys(&ch);
    let slot: u16 = run(&mut nodes[0].conn, &["CLUSTER", "KEYSLOT", &key]).await;
    let primary = port_index(&cluster.ports, primary_port(&mut nodes[0].conn, slot).await);
    let seen = seen_from(&mut nodes[0].conn).await;
    let replica = seen.iter().find(|n| n.of.as_deref() == Some(nodes[primary].id.as_str())).expect("a replica").port;
    let replica = port_index(&cluster.ports, replica);
    wait_until_the_replica_caught_up(&mut nodes[primary]).await;
    // the replica's link cut: the next write is on the primary only until
    // the replica is back (its reconnection runs once a second)
    let cut: i64 = run(&mut nodes[primary].conn, &["CLIENT", "KILL", "TYPE", "replica"]).await;
    assert_eq!(cut, 1, "the replica's link");
    let t0 = Instant::now();
    let m = svc.execute(&ch, &actor, cmd).await.unwrap().messages();
    let answered = t0.elapsed();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "the move is answered: {m:?}");
    cluster.kill(primary);
    cluster.wait_for(cluster.ports[replica], "ROLE", "master").expect("the replica takes over");
    // the table as the promoted replica has it (the service's client
    // learns the new layout on its next call, retried within its budget)
    let (t, after) = loop {
        match svc.table(&ch).await {
            Ok(x) => break x,
            Err(e) => {
                assert!(t0.elapsed() < Duration::from_secs(30), "the table cannot be read after the failover: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let now = t.game().unwrap().expect("the deal").plays();
    let fate = if after == version + 1 && now == plays + 1 {
        Fate::Kept
    } else {
        assert_eq!((after, now), (version, plays), "the move is either kept whole or lost whole");
        Fate::Lost
    };
    (fate, answered)
}

/// With the setting on, the answered move outlives its primary's crash:
/// the answer waited for the replica's confirmation (the replica had to
/// reconnect first, up to about a second).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_replica_wait_an_answered_move_survives_its_primarys_crash() {
    let (fate, answered) = a_move_then_the_primary_crashes(2_000).await;
    println!("replica_wait_ms 2000: the move was {fate:?}; answered after {answered:?}");
    assert_eq!(fate, Fate::Kept, "a move answered with the replica's confirmation is kept");
}

/// Without the setting the same crash is allowed to lose the answered move
/// (replication is asynchronous); the test says what happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_replica_wait_an_answered_move_may_be_lost() {
    let (fate, answered) = a_move_then_the_primary_crashes(0).await;
    println!(
        "replica_wait_ms 0: the move was {fate:?} (allowed: the replica had not received it); answered after {answered:?}"
    );
}
