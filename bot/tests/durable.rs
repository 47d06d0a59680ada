//! The durable outbox: what a change owes is stored with it, dropped once
//! delivered, and sent by the next process when the one that made it died
//! before delivering (each message with the same key at every re-send).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use doko_bot::{
    Actor, App, ChannelId, Input, Kind, MemoryStore, Notice, Outbox, Platform, Private, Service, TableMessage,
    Transport, TransportError, UserId, deliver,
};

/// What reached the platform, in order: (what, text, key).
#[derive(Default)]
struct Recording {
    sent: Mutex<Vec<(String, String, Option<String>)>>,
}

#[async_trait]
impl Transport for Recording {
    async fn post_table(&self, _: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        self.sent.lock().unwrap().push(("post".into(), msg.text(), msg.key.clone()));
        Ok("table-1".into())
    }
    async fn edit_table(&self, _: &ChannelId, _: &str, msg: &TableMessage) -> Result<(), TransportError> {
        self.sent.lock().unwrap().push(("edit".into(), msg.text(), msg.key.clone()));
        Ok(())
    }
    async fn notice(&self, _: &ChannelId, n: &Notice) -> Result<(), TransportError> {
        let who = n.mention.as_ref().map(|u| u.id.clone()).unwrap_or_default();
        self.sent.lock().unwrap().push((format!("notice {who}"), n.text.clone(), n.key.clone()));
        Ok(())
    }
    async fn private(&self, _: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        for m in msgs {
            self.sent.lock().unwrap().push((format!("private {} {:?}", to.id, m.kind), m.text.clone(), m.key.clone()));
        }
        Ok(())
    }
}

fn people() -> Vec<Actor> {
    (1..=4).map(|i| Actor::new(UserId::new(Platform::TERMINAL, format!("p{i}")), format!("P{i}"), i == 1)).collect()
}

fn service(store: &MemoryStore) -> Arc<Service<MemoryStore>> {
    Arc::new(Service::new(store.clone(), 7).with_durable_outbox())
}

/// The person to act and a move they may make, from an outbox's table
/// message and their hand in it.
fn next_move(out: &Outbox) -> (UserId, doko_bot::Command) {
    let to = out.table.as_ref().and_then(|t| t.to_act.clone()).expect("somebody is to act");
    let hand =
        out.private.iter().rev().find_map(|p| (p.to == to).then_some(p.hand.as_ref()).flatten()).expect("their hand");
    let cmd = hand
        .cards
        .iter()
        .find(|c| c.playable)
        .map(|c| c.command.clone())
        .or_else(|| hand.choices.first().map(|c| c.command.clone()))
        .expect("a move");
    (to, cmd)
}

async fn seated_and_dealt(app: &dyn App, ch: &ChannelId, t: &Recording) -> Outbox {
    let ps = people();
    for (i, p) in ps.iter().enumerate() {
        let out = app.handle(ch, p, Input::Text("join".into()), Some(&format!("j{i}"))).await;
        deliver(app, t, &out).await;
    }
    let out = app.handle(ch, &ps[0], Input::Text("start".into()), Some("start")).await;
    deliver(app, t, &out).await;
    out
}

async fn owes(svc: &Service<MemoryStore>, ch: &ChannelId) -> usize {
    svc.table(ch).await.unwrap().0.owed().entries().count()
}

#[tokio::test]
async fn what_a_change_owes_is_stored_with_it_and_dropped_once_delivered() {
    let store = MemoryStore::default();
    let svc = service(&store);
    let ch = ChannelId::new(Platform::TERMINAL, "durable-1");
    let t = Recording::default();
    let out = seated_and_dealt(&*svc, &ch, &t).await;
    assert!(!out.owed.is_empty(), "the start owes its messages");
    assert_eq!(owes(&svc, &ch).await, 0, "everything delivered was marked delivered");
    // every message of an owed outbox carries a key
    assert!(out.table.as_ref().unwrap().key.is_some());
    assert!(out.private.iter().all(|p| p.key.is_some()));
    // a change whose outbox is never delivered stays owed
    let (to, cmd) = next_move(&out);
    let who = people().into_iter().find(|p| p.user == to).unwrap();
    let moved = App::handle(&*svc, &ch, &who, Input::Command(cmd), Some("m1")).await;
    assert_eq!(moved.owed.len(), 1);
    assert_eq!(owes(&svc, &ch).await, 1);
    // the table message made inside the change has the revision it was
    // committed with
    let stored = svc.table(&ch).await.unwrap().0.revision();
    assert_eq!(moved.table.as_ref().unwrap().revision, stored);
    // the process that made it is still delivering it: its own turn clock
    // does not send it a second time within the grace time
    let tick = App::tick(&*svc, &ch).await;
    assert!(tick.is_empty(), "a live process's fresh entry is not sent by its clock: {tick:?}");
    deliver(&*svc, &t, &moved).await;
    assert_eq!(owes(&svc, &ch).await, 0);
}

#[tokio::test]
async fn after_a_crash_the_next_process_sends_what_was_owed_then_the_prompt() {
    let store = MemoryStore::default();
    let ch = ChannelId::new(Platform::TERMINAL, "durable-2");
    let t = Recording::default();
    let (events, to_act_after) = {
        let svc = service(&store);
        let out = seated_and_dealt(&*svc, &ch, &t).await;
        let (to, cmd) = next_move(&out);
        let who = people().into_iter().find(|p| p.user == to).unwrap();
        // committed, then the process dies before delivering
        let moved = App::handle(&*svc, &ch, &who, Input::Command(cmd), Some("m1")).await;
        let events = moved.table.as_ref().and_then(|m| m.events.clone()).expect("what happened");
        (events, moved.table.as_ref().and_then(|m| m.to_act.clone()).expect("somebody acts next"))
    };
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let before = t.sent.lock().unwrap().len();
    // a new process on the same store: its first turn clock delivers
    let svc = service(&store);
    let out = App::tick(&*svc, &ch).await;
    assert_eq!(out.owed.len(), 1, "the owed entry is sent: {out:?}");
    let again = App::tick(&*svc, &ch).await;
    let keys = |o: &Outbox| -> Vec<Option<String>> {
        let mut k: Vec<_> = o.notices.iter().map(|n| n.key.clone()).collect();
        k.push(o.table.as_ref().and_then(|t| t.key.clone()));
        k.extend(o.private.iter().map(|p| p.key.clone()));
        k
    };
    assert_eq!(keys(&out), keys(&again), "a re-send carries the same keys");
    assert!(keys(&out).iter().all(Option::is_some));
    deliver(&*svc, &t, &out).await;
    let sent: Vec<_> = t.sent.lock().unwrap()[before..].to_vec();
    // what happened, exactly once, then the prompt and the hand of the
    // person to act
    let table_at = sent.iter().position(|s| s.0 == "edit" && s.1.contains(events.trim())).expect("the move shown");
    assert_eq!(sent.iter().filter(|s| s.1.contains(events.trim())).count(), 1, "{sent:#?}");
    let prompt = sent.iter().position(|s| s.0 == format!("notice {}", to_act_after.id)).expect("the prompt");
    let hand = sent.iter().position(|s| s.0 == format!("private {} {:?}", to_act_after.id, Kind::Hand)).expect("hand");
    assert!(table_at < prompt && prompt < hand, "{sent:#?}");
    // delivered: nothing owed, nothing sent again
    assert_eq!(owes(&svc, &ch).await, 0);
    assert!(App::tick(&*svc, &ch).await.is_empty());
}

#[tokio::test]
async fn the_outbox_is_bounded_and_off_unless_asked_for() {
    let store = MemoryStore::default();
    let svc = service(&store);
    let ch = ChannelId::new(Platform::TERMINAL, "durable-3");
    let p = &people()[0];
    // changes never delivered: at most OWED_KEPT stay
    for i in 0..(doko_bot::table::OWED_KEPT + 6) {
        let cmd = if i % 2 == 0 { "join" } else { "leave" };
        let out = App::handle(&*svc, &ch, p, Input::Text(cmd.into()), Some(&format!("x{i}"))).await;
        assert!(!out.owed.is_empty());
    }
    assert_eq!(owes(&svc, &ch).await, doko_bot::table::OWED_KEPT);
    // a service without a durable outbox stores nothing owed
    let plain = Service::new(MemoryStore::default(), 7);
    let out = plain.handle(&ch, p, "join").await.unwrap();
    assert!(out.owed.is_empty() && out.table.as_ref().is_some_and(|t| t.key.is_none()));
    assert_eq!(plain.table(&ch).await.unwrap().0.owed().entries().count(), 0);
}

/// A service as the binary runs it: the durable outbox, each delivered
/// entry's mark riding on the table's next commit.
fn deferring(store: &MemoryStore, seed: u64) -> Arc<Service<MemoryStore>> {
    let svc = Arc::new(Service::new(store.clone(), seed).with_durable_outbox());
    svc.defer_marks();
    svc
}

/// Plays `moves` moves at a dealt table, each delivered as a front end
/// delivers it; returns the last move's outbox.
async fn play_delivered(
    svc: &Arc<Service<MemoryStore>>,
    ch: &ChannelId,
    t: &Recording,
    mut out: Outbox,
    moves: usize,
) -> Outbox {
    for i in 0..moves {
        let (to, cmd) = next_move(&out);
        let who = people().into_iter().find(|p| p.user == to).unwrap();
        out = App::handle(&**svc, ch, &who, Input::Command(cmd), Some(&format!("move-{i}"))).await;
        assert_eq!(out.owed.len(), 1, "{out:?}");
        deliver(&**svc, t, &out).await;
    }
    out
}

#[tokio::test]
async fn a_delivered_entrys_mark_rides_on_the_tables_next_commit() {
    let ch = ChannelId::new(Platform::TERMINAL, "durable-marks");
    let version = |svc: &Arc<Service<MemoryStore>>| {
        let (svc, ch) = (svc.clone(), ch.clone());
        async move { svc.table(&ch).await.unwrap().1 }
    };
    // marked at once: every move is two commits (the move, its mark)
    let store = MemoryStore::default();
    let svc = service(&store);
    let t = Recording::default();
    let out = seated_and_dealt(&*svc, &ch, &t).await;
    let before = version(&svc).await;
    play_delivered(&svc, &ch, &t, out, 8).await;
    assert_eq!(version(&svc).await - before, 16);
    assert_eq!(owes(&svc, &ch).await, 0);

    // deferred: one commit a move, each carrying the mark of the move before
    let store = MemoryStore::default();
    let svc = deferring(&store, 7);
    let t = Recording::default();
    let out = seated_and_dealt(&*svc, &ch, &t).await;
    let before = version(&svc).await;
    let last = play_delivered(&svc, &ch, &t, out, 8).await;
    assert_eq!(version(&svc).await - before, 8, "one commit a move");
    // the last move's mark still waits; the store owes only that entry
    let owed: Vec<u64> = svc.table(&ch).await.unwrap().0.owed().entries().map(|e| e.seq).collect();
    assert_eq!(owed, last.owed, "only the last move's entry is owed in the store");
    // its own turn clock does not send it again meanwhile
    assert!(App::tick(&*svc, &ch).await.is_empty());
    // a stop commits what waits, in one commit
    assert_eq!(svc.flush_marks(std::time::Duration::ZERO).await, 1);
    assert_eq!(owes(&svc, &ch).await, 0);
    assert_eq!(version(&svc).await - before, 9);
    assert_eq!(svc.flush_marks(std::time::Duration::ZERO).await, 0, "nothing waits any more");
    // what reached the platform is what was played, each once
    let sent = t.sent.lock().unwrap();
    let keys: Vec<&String> = sent.iter().filter_map(|s| s.2.as_ref()).collect();
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(keys.len(), unique.len(), "no message sent twice: {sent:#?}");
}

#[tokio::test(start_paused = true)]
async fn a_mark_no_commit_carries_is_committed_on_its_own_after_the_delay() {
    let store = MemoryStore::default();
    let svc = deferring(&store, 7);
    let ch = ChannelId::new(Platform::TERMINAL, "durable-marks-late");
    let t = Recording::default();
    let out = seated_and_dealt(&*svc, &ch, &t).await;
    play_delivered(&svc, &ch, &t, out, 1).await;
    assert_eq!(owes(&svc, &ch).await, 1, "the mark waits");
    tokio::time::sleep(doko_bot::service::MARK_DELAY / 2).await;
    assert_eq!(owes(&svc, &ch).await, 1, "still within the delay");
    tokio::time::sleep(doko_bot::service::MARK_DELAY).await;
    assert_eq!(owes(&svc, &ch).await, 0, "committed on its own once it waited the delay");
}

#[tokio::test]
async fn after_a_crash_with_marks_waiting_their_entries_are_sent_again_with_the_same_keys() {
    let store = MemoryStore::default();
    let ch = ChannelId::new(Platform::TERMINAL, "durable-marks-crash");
    let t = Recording::default();
    let last = {
        let svc = deferring(&store, 7);
        let out = seated_and_dealt(&*svc, &ch, &t).await;
        // delivered; the process dies before the mark is committed
        play_delivered(&svc, &ch, &t, out, 3).await
    };
    let first_keys: Vec<String> = t.sent.lock().unwrap().iter().filter_map(|s| s.2.clone()).collect();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let svc = deferring(&store, 8);
    let again = App::tick(&*svc, &ch).await;
    assert_eq!(again.owed, last.owed, "only the entry whose mark was lost is sent again: {again:?}");
    // the table message and notices of the entry go out with the keys they
    // had (the platforms drop the second copy); the hands and the prompt
    // are made afresh for where the table stands
    let table_key = again.table.as_ref().and_then(|m| m.key.clone()).expect("a key");
    assert!(first_keys.contains(&table_key), "{table_key} among {first_keys:?}");
    for n in again.notices.iter().filter(|n| n.kind != Kind::Events || n.mention.is_none()) {
        let k = n.key.as_ref().expect("a key");
        assert!(first_keys.contains(k), "{k} among {first_keys:?}");
    }
    deliver(&*svc, &t, &again).await;
    svc.flush_marks(std::time::Duration::ZERO).await;
    assert_eq!(owes(&svc, &ch).await, 0);
}

#[tokio::test]
async fn a_waiting_mark_never_drops_the_entry_of_a_table_made_anew() {
    use doko_bot::Store;
    let store = MemoryStore::default();
    let ch = ChannelId::new(Platform::TERMINAL, "durable-marks-anew");
    let t = Recording::default();
    let svc = deferring(&store, 7);
    let out = seated_and_dealt(&*svc, &ch, &t).await;
    let last = play_delivered(&svc, &ch, &t, out, 2).await;
    let seq = *last.owed.last().unwrap();
    // the channel's table made anew elsewhere (as a damaged table's reset
    // does): its entries are numbered from 0 again, up to and past `seq`
    let other = MemoryStore::default();
    let svc2 = Service::new(other.clone(), 99).with_durable_outbox();
    let p = &people()[0];
    for i in 0..=seq {
        let cmd = if i % 2 == 0 { "join" } else { "leave" };
        App::handle(&svc2, &ch, p, Input::Text(cmd.into()), Some(&format!("anew-{i}"))).await;
    }
    let fresh = other.load(&ch).await.unwrap().unwrap();
    let owed_fresh: Vec<u64> = svc2.table(&ch).await.unwrap().0.owed().entries().map(|e| e.seq).collect();
    assert!(owed_fresh.contains(&seq), "{owed_fresh:?}");
    let now = store.load(&ch).await.unwrap().unwrap().version;
    store.commit(&ch, now, &fresh.json, &[]).await.unwrap();
    // the waiting mark (of the table before) is committed: it changes nothing
    svc.flush_marks(std::time::Duration::ZERO).await;
    let left: Vec<u64> = svc.table(&ch).await.unwrap().0.owed().entries().map(|e| e.seq).collect();
    assert_eq!(left, owed_fresh, "the new table's entries are all still owed");
}

/// As [`deferring`], with nothing committing what waits but the table's
/// next commit (the task that commits it after a delay is stopped): what a
/// table in play sees.
fn carried_only(store: &MemoryStore, seed: u64) -> Arc<Service<MemoryStore>> {
    let svc = Arc::new(Service::new(store.clone(), seed).with_durable_outbox());
    svc.defer_marks().abort();
    svc
}

#[tokio::test]
async fn posting_a_deals_table_message_costs_no_commit_of_its_own() {
    let store = MemoryStore::default();
    let svc = carried_only(&store, 7);
    let ch = ChannelId::new(Platform::TERMINAL, "durable-posting");
    let t = Recording::default();
    let ps = people();
    let version = || async { svc.table(&ch).await.unwrap().1 };
    // the first change shows the table: its commit claims the posting
    let out = App::handle(&*svc, &ch, &ps[0], Input::Text("join".into()), Some("j0")).await;
    assert!(out.table.as_ref().is_some_and(|m| m.display.is_none() && m.claimed), "{out:?}");
    let v = version().await;
    deliver(&*svc, &t, &out).await;
    assert_eq!(version().await, v, "posting it committed nothing");
    // the next change carries the id posted, in its one commit
    for (i, p) in ps.iter().enumerate().skip(1) {
        let out = App::handle(&*svc, &ch, p, Input::Text("join".into()), Some(&format!("j{i}"))).await;
        assert!(out.table.as_ref().is_some_and(|m| !m.claimed), "claimed once");
        deliver(&*svc, &t, &out).await;
    }
    assert_eq!(version().await, v + 3, "one commit a change");
    assert_eq!(svc.table(&ch).await.unwrap().0.display().as_deref(), Some("table-1"));
    // a new deal wants a new message: claimed by the deal's commit, posted,
    // its id carried by the next move
    let out = App::handle(&*svc, &ch, &ps[0], Input::Text("start".into()), Some("start")).await;
    assert!(out.table.as_ref().is_some_and(|m| m.display.is_none() && m.claimed), "{out:?}");
    deliver(&*svc, &t, &out).await;
    let v = version().await;
    play_delivered(&svc, &ch, &t, out, 1).await;
    assert_eq!(version().await, v + 1, "the move's commit, nothing else");
    assert_eq!(svc.table(&ch).await.unwrap().0.display().as_deref(), Some("table-1"));
    let posts = t.sent.lock().unwrap().iter().filter(|s| s.0 == "post").count();
    assert_eq!(posts, 2, "one message a deal (the table before it, the deal)");
}

/// A transport that can reach nobody privately.
#[derive(Default)]
struct NoDirectMessages(Recording);

#[async_trait]
impl Transport for NoDirectMessages {
    async fn post_table(&self, ch: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        self.0.post_table(ch, msg).await
    }
    async fn edit_table(&self, ch: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        self.0.edit_table(ch, id, msg).await
    }
    async fn notice(&self, ch: &ChannelId, n: &Notice) -> Result<(), TransportError> {
        self.0.notice(ch, n).await
    }
    async fn private(&self, _: &ChannelId, to: &UserId, _: &[&Private]) -> Result<(), TransportError> {
        Err(TransportError::Unreachable(to.clone()))
    }
}

#[tokio::test]
async fn a_person_out_of_reach_is_told_once_a_deal_without_a_commit_of_its_own() {
    let store = MemoryStore::default();
    let svc = carried_only(&store, 7);
    let ch = ChannelId::new(Platform::TERMINAL, "durable-unreachable");
    let t = NoDirectMessages::default();
    let out = seated_and_dealt(&*svc, &ch, &t.0).await;
    let v = svc.table(&ch).await.unwrap().1;
    // the deal's hands delivered again where nobody can be reached
    // privately: each person told once, however often
    deliver(&*svc, &t, &out).await;
    deliver(&*svc, &t, &out).await;
    let told = |t: &NoDirectMessages| {
        let sent = t.0.sent.lock().unwrap();
        sent.iter()
            .filter(|s| s.0.starts_with("notice") && s.1.contains("private"))
            .map(|s| s.0.clone())
            .collect::<Vec<_>>()
    };
    let first = told(&t);
    let mut unique = first.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(first.len(), unique.len(), "each person told once: {first:?}");
    assert_eq!(first.len(), 4, "all four told: {first:?}");
    assert_eq!(svc.table(&ch).await.unwrap().1, v, "telling them committed nothing");
    // the next commit keeps whom the channel was told
    play_delivered(&svc, &ch, &t.0, out, 1).await;
    let table = svc.table(&ch).await.unwrap().0;
    assert!(people().iter().all(|p| table.was_unreachable(&p.user)));
}
