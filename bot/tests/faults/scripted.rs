//! Scripted faults: one fault at a chosen call, and what the person and the
//! table see of it; the store's health as the service tracks it.

use std::collections::VecDeque;
use std::time::Duration;

use doko_bot::service::STORE_TIMEOUT;
use doko_bot::{Actor, App, ChannelId, Command, Input, Outbox, Platform, Service, Table, UserId};
use doko_engine::{Action, Bid};

use crate::common::{Answer, actions, classify, people, to_act, truth, unavailable};
use crate::store::{Fault, Faulty, LONG, Plan, get};

/// Four people seated, the deal dealt, on a store without faults yet.
pub(crate) async fn dealt(store: &Faulty, seed: u64) -> (Service<Faulty>, ChannelId, Vec<Actor>) {
    let plan = std::mem::replace(
        &mut *store.plan.lock().unwrap(),
        Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::None },
    );
    let svc = Service::new(store.clone(), seed);
    let ch = ChannelId::new(Platform::TERMINAL, "faults");
    let ps = people();
    for (i, p) in ps.iter().enumerate() {
        let out = App::handle(&svc, &ch, p, Input::Command(Command::Join), Some(&format!("join-{i}"))).await;
        assert_eq!(classify(&out), Answer::Applied);
    }
    let out = App::handle(&svc, &ch, &ps[0], Input::Command(Command::Start), Some("start")).await;
    assert_eq!(classify(&out), Answer::Applied);
    store.set(plan);
    (svc, ch, ps)
}

/// The person to act takes their first legal action with delivery `id`.
async fn first_legal(svc: &Service<Faulty>, store: &Faulty, ch: &ChannelId, ps: &[Actor], id: &str) -> Outbox {
    let t = truth(store, ch).await.unwrap();
    let (who, view) = to_act(&t, ps).expect("someone acts");
    let cmd = Command::from_action(view.legal[0]);
    App::handle(svc, ch, &ps[who], Input::Command(cmd), Some(id)).await
}

/// A commit that was made but reported an error (or answered too late) is
/// answered as the applied command, not as an error, and made once.
#[tokio::test(start_paused = true)]
async fn a_commit_made_but_not_confirmed_is_answered_as_applied() {
    for fault in [Fault::Unclear, Fault::Late] {
        let store = Faulty::script(&[fault], Fault::None);
        let (svc, ch, ps) = dealt(&store, 3).await;
        let before = actions(&truth(&store, &ch).await.unwrap());
        let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
        assert_eq!(get(&store.counts.made), 1, "{fault:?}: the commit was made");
        assert_eq!(classify(&out), Answer::Applied, "{fault:?}: {out:?}");
        assert!(out.table.is_some(), "{fault:?}: the table message of the applied move");
        assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1, "{fault:?}: made once");
        // and the platform's re-delivery changes nothing
        let t = truth(&store, &ch).await.unwrap();
        let who = ps.iter().position(|p| t.seat_of(&p.user).is_some()).unwrap();
        let again = App::handle(&svc, &ch, &ps[who], Input::Command(Command::Table), Some("move-1")).await;
        assert_eq!(classify(&again), Answer::Duplicate(None));
        assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
    }
}

/// A commit that failed before it was made (or took too long and was never
/// made) is tried again: the move is made once, and answered.
#[tokio::test(start_paused = true)]
async fn a_commit_not_made_is_tried_again() {
    // (two failures; one timeout, half the budget)
    for faults in [&[Fault::Fail, Fault::Fail][..], &[Fault::Delay(LONG)]] {
        let fault = faults[0];
        let store = Faulty::script(faults, Fault::None);
        let (svc, ch, ps) = dealt(&store, 4).await;
        let before = actions(&truth(&store, &ch).await.unwrap());
        let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
        assert_eq!(classify(&out), Answer::Applied, "{fault:?}: {out:?}");
        assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1, "{fault:?}: made once");
    }
}

/// A store that never makes a commit: after the budget the person gets the
/// short "table unavailable" and nothing changed; the platform's re-delivery
/// with the same id, once the store is back, is made once.
#[tokio::test(start_paused = true)]
async fn a_store_that_keeps_failing_changes_nothing_and_says_so() {
    let store = Faulty::script(&[], Fault::Fail);
    let (svc, ch, ps) = dealt(&store, 5).await;
    store.set(Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::Fail });
    let t0 = tokio::time::Instant::now();
    let before = actions(&truth(&store, &ch).await.unwrap());
    let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
    assert!(unavailable(&out), "{out:?}");
    assert_eq!(out.private.len(), 1);
    assert!(t0.elapsed() <= doko_bot::service::STORE_BUDGET + STORE_TIMEOUT, "{:?}", t0.elapsed());
    assert!(get(&store.counts.fail) > 1, "tried again before giving up");
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before, "nothing changed");
    store.set(Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::None });
    let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
    assert_eq!(classify(&out), Answer::Applied);
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
}

/// A store that makes every commit but never confirms one: the first is
/// made, found by reading the table again, and answered as applied; no
/// second try doubles it.
#[tokio::test(start_paused = true)]
async fn a_store_that_never_confirms_makes_the_move_once() {
    let store = Faulty::script(&[], Fault::None);
    let (svc, ch, ps) = dealt(&store, 6).await;
    store.set(Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::Unclear });
    let before = actions(&truth(&store, &ch).await.unwrap());
    let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
    assert_eq!(classify(&out), Answer::Applied, "{out:?}");
    assert_eq!(get(&store.counts.unclear), 1, "one commit, settled by reading the table again");
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
}

/// A refused delivery is remembered with its refusal in the stored table:
/// arriving again later, at another process, after it has become legal, it
/// gets the same refusal and is not applied; the same command with a new
/// delivery id is.
#[tokio::test(start_paused = true)]
async fn a_refused_delivery_stays_refused_when_it_becomes_legal() {
    let store = Faulty::script(&[], Fault::None);
    let (svc, ch, ps) = dealt(&store, 7).await;
    let other = Service::new(store.clone(), 8);
    let t = truth(&store, &ch).await.unwrap();
    let (first, view) = to_act(&t, &ps).unwrap();
    assert!(matches!(view.legal[0], Action::Bid(_)), "bidding");
    // the next bidder bids out of turn
    let next = (0..4).map(|i| (first + i) % 4).find(|&i| {
        let g = t.game().unwrap().unwrap();
        t.game_seat(t.seat_of(&ps[i].user).unwrap()) == Some(g.to_act().unwrap().plus(1))
    });
    let next = next.unwrap();
    let healthy = Input::Command(Command::Bid(Bid::Healthy));
    let out = App::handle(&svc, &ch, &ps[next], healthy.clone(), Some("early")).await;
    let Answer::Refused(refusal) = classify(&out) else { panic!("refused: {out:?}") };
    let t = truth(&store, &ch).await.unwrap();
    assert_eq!(t.refusal_of("early"), Some(refusal.as_str()));
    // the first bidder bids: now the same bid is legal for the next one
    let out = App::handle(&svc, &ch, &ps[first], healthy.clone(), Some("first")).await;
    assert_eq!(classify(&out), Answer::Applied);
    let t = truth(&store, &ch).await.unwrap();
    assert_eq!(to_act(&t, &ps).unwrap().0, next);
    let before = actions(&t);
    // the platform delivers the early bid again, to the other process
    let again = App::handle(&other, &ch, &ps[next], healthy.clone(), Some("early")).await;
    assert_eq!(classify(&again), Answer::Duplicate(Some(refusal)), "the same refusal");
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before, "not applied");
    // the same bid, newly given, is
    let out = App::handle(&other, &ch, &ps[next], healthy, Some("second")).await;
    assert_eq!(classify(&out), Answer::Applied);
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
}

/// The memory of deliveries is bounded: the newest 256 ids, the newest 32
/// refusals (each among the ids).
#[test]
fn the_memory_of_deliveries_is_bounded() {
    let mut t = Table::default();
    for i in 0..1_000 {
        if i % 3 == 0 {
            t.remember_refusal(&format!("r{i}"), "no");
        } else {
            assert!(t.remember_delivery(&format!("d{i}")));
        }
    }
    assert_eq!(t.deliveries().len(), doko_bot::table::DELIVERIES_KEPT);
    assert_eq!(t.refused().len(), doko_bot::table::REFUSALS_KEPT);
    assert!(t.refused().iter().all(|r| t.knows_delivery(&r.id)));
    assert_eq!(t.refusal_of("r999"), Some("no"));
    assert!(!t.knows_delivery("d1") && t.refusal_of("r0").is_none(), "the oldest forgotten");
    assert!(!t.remember_delivery("r999"), "a refused id is handled");
    // a refusal is forgotten with its delivery, also while fewer than the
    // refusals kept are remembered
    let mut t = Table::default();
    t.remember_refusal("old", "no");
    for i in 0..doko_bot::table::DELIVERIES_KEPT {
        assert_eq!(t.refusal_of("old"), Some("no"), "{i}");
        assert!(t.remember_delivery(&format!("d{i}")));
    }
    assert!(t.refusal_of("old").is_none() && t.refused().is_empty() && !t.knows_delivery("old"));
}

/// The service knows whether its store answers: a failed or timed-out call
/// marks it down (once, with the error), the next answered one up again;
/// the background check asks when nobody plays.
#[tokio::test(start_paused = true)]
async fn the_store_health_follows_the_store() {
    let store = Faulty::script(&[], Fault::None);
    let svc = Service::new(store.clone(), 1);
    let h = svc.check_store().await;
    assert!(h.up && h.failures == 0 && h.last_error.is_none(), "{h:?}");
    let loads =
        |f: &[Fault]| Plan::Script { loads: f.iter().copied().collect(), commits: VecDeque::new(), then: Fault::None };
    store.set(loads(&[Fault::Fail, Fault::Delay(LONG)]));
    let down = svc.check_store().await;
    assert!(!down.up && down.failures == 1, "{down:?}");
    assert!(down.last_error.as_deref().is_some_and(|e| e.contains("injected fault")), "{down:?}");
    tokio::time::advance(Duration::from_secs(5)).await;
    let still = svc.check_store().await;
    assert!(!still.up && still.failures == 2, "{still:?}");
    assert_eq!(still.since_ms, down.since_ms, "down since the first failure");
    assert_eq!(still.last_error.as_deref(), Some("the store did not answer in time"));
    tokio::time::advance(Duration::from_secs(5)).await;
    let up = svc.check_store().await;
    assert!(up.up && up.failures == 2 && up.since_ms > still.since_ms, "{up:?}");
    // a command's calls count too
    store.set(loads(&[Fault::Fail]));
    let ch = ChannelId::new(Platform::TERMINAL, "health");
    let ann = Actor::new(UserId::new(Platform::TERMINAL, "ann"), "Ann", false);
    let out = App::handle(&svc, &ch, &ann, Input::Command(Command::Join), Some("j")).await;
    assert!(!out.unavailable, "the load is tried again: {out:?}");
    let h = svc.store_health();
    assert!(h.up && h.failures == 3, "{h:?}");
}
