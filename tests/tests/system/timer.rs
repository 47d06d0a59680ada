//! The turn timer on a paused clock: a reminder at half the
//! `turn_timeout`, then the table's policy (a computer stands in until the
//! player is back, or the deal is aborted). The clock restarts on every
//! move, also when the same person acts again; the timeout in force is the
//! table's current setting; admins can pause it.

use crate::common;

use std::time::Duration;

use common::act_once;
use doko_bot::{Actor, ChannelId, Kind, MemoryStore, Platform, Service, UserId};

fn people() -> Vec<Actor> {
    (0..4).map(|i| Actor::new(UserId::new(Platform::DISCORD, format!("t{i}")), format!("T{i}"), i == 0)).collect()
}

async fn table_with_timeout(policy: &str) -> (Service<MemoryStore>, ChannelId, Vec<Actor>) {
    let svc = Service::new(MemoryStore::default(), 21);
    let ch = ChannelId::new(Platform::DISCORD, format!("timer-{policy}"));
    let ps = people();
    for p in &ps {
        svc.handle(&ch, p, "join").await.unwrap().messages();
    }
    let m = svc.handle(&ch, &ps[0], "rules set turn_timeout 60").await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    let m = svc.handle(&ch, &ps[0], &format!("policy {policy}")).await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    svc.handle(&ch, &ps[0], "start").await.unwrap().messages();
    (svc, ch, ps)
}

#[tokio::test(start_paused = true)]
async fn reminder_then_a_computer_stands_in_until_the_player_is_back() {
    let (svc, ch, ps) = table_with_timeout("standin").await;
    let (t, _) = svc.table(&ch).await.unwrap();
    let (user, ts) = t.person_to_act().expect("a person is to bid");
    let slow = ps.iter().find(|a| a.user == user).unwrap();
    // nothing before half time
    tokio::time::advance(Duration::from_secs(29)).await;
    assert!(svc.tick(&ch).await.unwrap().messages().is_empty());
    // the reminder, once, mentioning the player
    tokio::time::advance(Duration::from_secs(2)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    let ev = m.iter().find(|m| m.kind == Kind::Events).expect("a reminder");
    assert!(ev.text.contains("your time is running out - 29 seconds left of 60"), "{}", ev.text);
    assert_eq!(ev.mention, vec![slow.user.clone()]);
    assert!(svc.tick(&ch).await.unwrap().messages().is_empty(), "one reminder only");
    // time is up: a computer bids for the slow player, the game goes on
    tokio::time::advance(Duration::from_secs(30)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    let ev = m.iter().find(|m| m.kind == Kind::Events).expect("time is up");
    assert!(ev.text.contains("no move in 60 seconds; a computer plays your turns"), "{}", ev.text);
    assert!(ev.text.contains("Send any command"), "how to come back: {}", ev.text);
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.seats()[ts].stand_in().is_some());
    let g = t.game().unwrap().unwrap();
    let slow_seat = t.game_seat(ts).unwrap();
    assert!(g.bids()[slow_seat.index()].is_some(), "the computer bid for the seat");
    // the player comes back and plays on themselves
    let m = svc.handle(&ch, slow, "back").await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.seats()[ts].stand_in().is_none());
}

#[tokio::test(start_paused = true)]
async fn time_up_aborts_the_deal_under_the_abort_policy() {
    let (svc, ch, ps) = table_with_timeout("abort").await;
    tokio::time::advance(Duration::from_secs(61)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    assert!(m.iter().any(|m| m.text.contains("the deal is aborted")), "{m:?}");
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.game().unwrap().is_none());
    assert_eq!(t.session().unwrap().deals(), 0, "an aborted deal is not scored");
    let m = svc.handle(&ch, &ps[0], "start").await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.game().unwrap().is_some(), "start deals again");
}

#[tokio::test(start_paused = true)]
async fn a_timeout_of_zero_never_fires_and_the_policy_is_admin_only() {
    let svc = Service::new(MemoryStore::default(), 22);
    let ch = ChannelId::new(Platform::DISCORD, "timer-none");
    let ps = people();
    for p in &ps {
        svc.handle(&ch, p, "join").await.unwrap().messages();
    }
    let m = svc.handle(&ch, &ps[1], "policy abort").await.unwrap().messages();
    assert_eq!(m[0].kind, Kind::Error);
    svc.handle(&ch, &ps[0], "start").await.unwrap().messages();
    tokio::time::advance(Duration::from_secs(24 * 3600)).await;
    assert!(svc.tick(&ch).await.unwrap().messages().is_empty());
}

/// The deals on the sheet.
async fn scored(svc: &Service<MemoryStore>, ch: &ChannelId) -> usize {
    svc.table(ch).await.unwrap().0.session().map_or(0, |s| s.sheet().len())
}

/// Whether a computer stands in for anyone.
async fn anyone_stood_in(svc: &Service<MemoryStore>, ch: &ChannelId) -> bool {
    svc.table(ch).await.unwrap().0.seats().iter().any(|s| s.user().is_some() && s.stand_in().is_some())
}

/// People who take 40 s for every move under a 60 s timeout, through a
/// whole deal: never timed out.
async fn forty_seconds_a_move(humans: usize, seed: u64) {
    let svc = Service::new(MemoryStore::default(), seed);
    let ch = ChannelId::new(Platform::DISCORD, format!("forty-{humans}"));
    let ps: Vec<Actor> = people().into_iter().take(humans).collect();
    for p in &ps {
        svc.handle(&ch, p, "join").await.unwrap();
    }
    for _ in humans..4 {
        svc.handle(&ch, &ps[0], "addbot").await.unwrap();
    }
    for cmd in ["rules set turn_timeout 60", "start"] {
        let m = svc.handle(&ch, &ps[0], cmd).await.unwrap().messages();
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{cmd}: {m:?}");
    }
    let mut moves = 0;
    while scored(&svc, &ch).await == 0 {
        for _ in 0..2 {
            tokio::time::advance(Duration::from_secs(20)).await;
            let m = svc.tick(&ch).await.unwrap().messages();
            assert!(m.iter().all(|m| !m.text.contains("no move in")), "timed out after {moves} moves: {m:?}");
        }
        assert!(!anyone_stood_in(&svc, &ch).await, "a stand-in after {moves} moves");
        assert!(act_once(&svc, &ch, &ps).await, "a person is to act");
        moves += 1;
    }
    assert!(moves >= 12, "{moves} moves by people in the deal");
}

#[tokio::test(start_paused = true)]
async fn a_lone_person_with_three_computers_answering_every_40s_is_never_timed_out() {
    forty_seconds_a_move(1, 40).await;
}

#[tokio::test(start_paused = true)]
async fn four_people_answering_every_40s_are_never_timed_out_also_a_trick_winner_leading() {
    forty_seconds_a_move(4, 41).await;
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_player_gets_the_seat_back_with_any_command() {
    let (svc, ch, ps) = table_with_timeout("standin").await;
    // twice: the command that brings them back is a query, then a refused move
    for text in ["table", "gesund"] {
        let (t, _) = svc.table(&ch).await.unwrap();
        let (user, ts) = t.person_to_act().unwrap();
        let slow = ps.iter().find(|a| a.user == user).unwrap().clone();
        tokio::time::advance(Duration::from_secs(61)).await;
        svc.tick(&ch).await.unwrap();
        let (t, _) = svc.table(&ch).await.unwrap();
        assert!(t.seats()[ts].timed_out(), "{} timed out", slow.name);
        assert!(t.person_to_act().is_none_or(|(u, _)| u != slow.user), "the stand-in took the turn");
        let m = svc.handle(&ch, &slow, text).await.unwrap().messages();
        assert!(m.iter().any(|m| m.text.contains(&format!("{} is back", slow.name))), "{text}: {m:?}");
        if text == "gesund" {
            assert!(m.iter().any(|m| m.kind == Kind::Error), "not their turn: {m:?}");
        }
        let (t, _) = svc.table(&ch).await.unwrap();
        assert!(t.seats()[ts].stand_in().is_none(), "{text}: the seat is theirs again");
    }
}

#[tokio::test(start_paused = true)]
async fn a_stand_in_plays_until_the_person_is_back_with_one_notice_per_absence() {
    let (svc, ch, ps) = table_with_timeout("standin").await;
    let (t, _) = svc.table(&ch).await.unwrap();
    let (user, ts) = t.person_to_act().unwrap();
    let absent = ps.iter().find(|a| a.user == user).unwrap().clone();
    let others: Vec<Actor> = ps.iter().filter(|a| a.user != user).cloned().collect();
    tokio::time::advance(Duration::from_secs(61)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    assert!(m.iter().any(|m| m.text.contains("no move in 60 seconds")), "{m:?}");
    // the others play on, into the next deal; the stand-in plays the
    // absent player's turns all along
    while scored(&svc, &ch).await < 1 {
        assert!(act_once(&svc, &ch, &others).await, "someone else is to act");
    }
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.seats()[ts].stand_in().is_some(), "still away in the next deal");
    assert!(t.game().unwrap().is_some(), "the next deal was dealt: people are here");
    // back with any command
    let m = svc.handle(&ch, &absent, "table").await.unwrap().messages();
    assert!(m.iter().any(|m| m.text.contains(&format!("{} is back", absent.name))), "{m:?}");
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.seats()[ts].stand_in().is_none(), "the seat is theirs again");
}

#[tokio::test(start_paused = true)]
async fn the_timeout_in_force_is_the_tables_current_setting() {
    let svc = Service::new(MemoryStore::default(), 23);
    let ch = ChannelId::new(Platform::DISCORD, "timer-later");
    let ps = people();
    for p in &ps {
        svc.handle(&ch, p, "join").await.unwrap();
    }
    svc.handle(&ch, &ps[0], "start").await.unwrap();
    // the deal was dealt without a timeout; someone vanishes
    tokio::time::advance(Duration::from_secs(600)).await;
    assert!(svc.tick(&ch).await.unwrap().messages().is_empty());
    let m = svc.handle(&ch, &ps[0], "rules set turn_timeout 60").await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    tokio::time::advance(Duration::from_secs(61)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    assert!(m.iter().any(|m| m.text.contains("no move in 60 seconds")), "{m:?}");
}

#[tokio::test(start_paused = true)]
async fn pause_stops_the_clock_and_resume_gives_the_whole_time_again() {
    let (svc, ch, ps) = table_with_timeout("standin").await;
    let m = svc.handle(&ch, &ps[0], "pause").await.unwrap().messages();
    assert!(m.iter().any(|m| m.text.contains("pauses the turn clock")), "{m:?}");
    assert!(m.iter().any(|m| m.kind == Kind::Table && m.text.contains("The turn clock is paused")), "{m:?}");
    tokio::time::advance(Duration::from_secs(3600)).await;
    assert!(svc.tick(&ch).await.unwrap().messages().is_empty(), "nothing while paused");
    svc.handle(&ch, &ps[0], "resume").await.unwrap();
    tokio::time::advance(Duration::from_secs(59)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    assert!(m.iter().all(|m| !m.text.contains("no move in")), "{m:?}");
    tokio::time::advance(Duration::from_secs(2)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    assert!(m.iter().any(|m| m.text.contains("no move in 60 seconds")), "{m:?}");
}

#[tokio::test(start_paused = true)]
async fn a_lone_absent_person_is_told_once_and_no_further_deal_is_dealt() {
    let svc = Service::new(MemoryStore::default(), 31);
    let ch = ChannelId::new(Platform::DISCORD, "timer-lone");
    let anna = people().remove(0);
    svc.handle(&ch, &anna, "join").await.unwrap();
    for _ in 0..3 {
        svc.handle(&ch, &anna, "addbot").await.unwrap();
    }
    for cmd in ["rules set turn_timeout 60", "start"] {
        let m = svc.handle(&ch, &anna, cmd).await.unwrap().messages();
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{cmd}: {m:?}");
    }
    // half an hour without Anna
    let mut notices = 0;
    for _ in 0..30 {
        tokio::time::advance(Duration::from_secs(61)).await;
        let m = svc.tick(&ch).await.unwrap().messages();
        notices += m.iter().filter(|m| m.text.contains("no move in 60 seconds")).count();
    }
    assert_eq!(notices, 1, "one notice per absence");
    let (t, _) = svc.table(&ch).await.unwrap();
    assert_eq!(scored(&svc, &ch).await, 1, "the stand-in played the deal out; no further deal");
    assert!(!t.deal_running(), "the table waits for a person");
    // Anna is back and deals again
    let m = svc.handle(&ch, &anna, "start").await.unwrap().messages();
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    assert!(svc.table(&ch).await.unwrap().0.deal_running());
}
