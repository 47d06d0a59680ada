//! The turn timer on a paused clock: a reminder at half the
//! `turn_timeout`, then the table's policy (a computer stands in until the
//! player is back, or the deal is aborted).

use std::time::Duration;

use doko_bot::{Actor, ChannelId, Kind, MemoryStore, Platform, Service, UserId};

fn people() -> Vec<Actor> {
    (0..4).map(|i| Actor::new(UserId::new(Platform::Discord, format!("t{i}")), format!("T{i}"), i == 0)).collect()
}

async fn table_with_timeout(policy: &str) -> (Service<MemoryStore>, ChannelId, Vec<Actor>) {
    let svc = Service::new(MemoryStore::default(), 21);
    let ch = ChannelId::new(Platform::Discord, format!("timer-{policy}"));
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
    assert!(ev.text.contains("your time is running out"), "{}", ev.text);
    assert_eq!(ev.mention, vec![slow.user.clone()]);
    assert!(svc.tick(&ch).await.unwrap().messages().is_empty(), "one reminder only");
    // time is up: a computer bids for the slow player, the game goes on
    tokio::time::advance(Duration::from_secs(30)).await;
    let m = svc.tick(&ch).await.unwrap().messages();
    let ev = m.iter().find(|m| m.kind == Kind::Events).expect("time is up");
    assert!(ev.text.contains("time is up; a computer plays the seat"), "{}", ev.text);
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
    let ch = ChannelId::new(Platform::Discord, "timer-none");
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
