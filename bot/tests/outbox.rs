//! A fourth transport, written here: it records what [`deliver`] asks of
//! it, and four people play a whole deal only from what reached them
//! (their hands as [`HandModel`]s, clicking the first playable card or the
//! first choice), the way a platform with buttons would. Nothing here
//! touches a table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use doko_bot::{
    Actor, App, ChannelId, HandModel, Input, Kind, MemoryStore, Notice, Platform, Private, Route, Service,
    TableMessage, Transport, TransportError, UserId, deliver,
};

#[derive(Debug, Clone, PartialEq)]
enum Sent {
    Post(String),
    Edit(String, String),
    Notice(String, Option<UserId>),
    Private(UserId, Vec<(Kind, String)>),
}

#[derive(Default)]
struct Recording {
    sent: Mutex<Vec<Sent>>,
    next_id: Mutex<u32>,
    /// The latest hand each person received.
    hands: Mutex<HashMap<UserId, HandModel>>,
    /// People whose private messages cannot be delivered.
    closed: Vec<UserId>,
    mention: bool,
    /// How long a post or edit of the table message takes.
    slow: std::time::Duration,
    /// How long a person's private messages take.
    slow_private: std::time::Duration,
    /// Where private messages go.
    routes: Routes,
}

/// Where a [`Recording`] says private messages go.
#[derive(Default, Clone, Copy, Debug)]
enum Routes {
    /// With the channel's, in order (one output, as the terminal has).
    #[default]
    Channel,
    /// Each person's own place (direct rooms).
    Own,
    /// The actor's answer first, everyone else's own place (Discord's
    /// interaction answer).
    ActorFirst(&'static str),
}

#[async_trait]
impl Transport for Recording {
    async fn post_table(&self, _: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        tokio::time::sleep(self.slow).await;
        let n = {
            let mut n = self.next_id.lock().unwrap();
            *n += 1;
            *n
        };
        self.sent.lock().unwrap().push(Sent::Post(msg.text()));
        Ok(format!("msg-{n}"))
    }

    async fn edit_table(&self, _: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        tokio::time::sleep(self.slow).await;
        self.sent.lock().unwrap().push(Sent::Edit(id.to_string(), msg.text()));
        Ok(())
    }

    async fn notice(&self, _: &ChannelId, notice: &Notice) -> Result<(), TransportError> {
        self.sent.lock().unwrap().push(Sent::Notice(notice.text.clone(), notice.mention.clone()));
        Ok(())
    }

    async fn private(&self, _: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        tokio::time::sleep(self.slow_private).await;
        if self.closed.contains(to) && msgs.iter().any(|m| m.kind == Kind::Hand) {
            return Err(TransportError::Unreachable(to.clone()));
        }
        for m in msgs {
            if let Some(h) = &m.hand {
                self.hands.lock().unwrap().insert(to.clone(), h.clone());
            }
        }
        self.sent
            .lock()
            .unwrap()
            .push(Sent::Private(to.clone(), msgs.iter().map(|m| (m.kind, m.text.clone())).collect()));
        Ok(())
    }

    fn mentions(&self) -> bool {
        self.mention
    }

    fn route(&self, to: &UserId, _: &[&Private]) -> Route {
        match self.routes {
            Routes::Channel => Route::Channel,
            Routes::Own => Route::Own,
            Routes::ActorFirst(actor) if to.id == actor => Route::First,
            Routes::ActorFirst(_) => Route::Own,
        }
    }
}

fn people() -> Vec<Actor> {
    (1..=4).map(|i| Actor::new(UserId::new(Platform::TERMINAL, format!("p{i}")), format!("P{i}"), i == 1)).collect()
}

async fn say(app: &dyn App, t: &Recording, ch: &ChannelId, who: &Actor, input: Input, n: &mut u32) -> bool {
    *n += 1;
    let out = app.handle(ch, who, input, Some(&format!("d{n}"))).await;
    let refused = out.private.iter().any(|p| p.kind == Kind::Error);
    deliver(app, t, &out).await;
    !refused
}

#[tokio::test]
async fn a_whole_deal_through_deliver_and_a_recording_transport() {
    let svc = Arc::new(Service::new(MemoryStore::default(), 23));
    let app: &dyn App = &*svc;
    let ch = ChannelId::new(Platform::TERMINAL, "outbox");
    // (private messages in direct rooms of their own, sent beside the
    // channel's: the order within the channel is kept all the same)
    let t = Recording {
        mention: true,
        closed: vec![UserId::new(Platform::TERMINAL, "p4")],
        routes: Routes::Own,
        ..Default::default()
    };
    let ps = people();
    let mut n = 0;
    for p in &ps {
        assert!(say(app, &t, &ch, p, Input::Text("join".into()), &mut n).await);
    }
    assert!(say(app, &t, &ch, &ps[0], Input::Text("start".into()), &mut n).await);
    // play from the hands that arrived: the person whose hand offers
    // something clicks its first playable card or first choice
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 500, "the deal did not end");
        if t.sent.lock().unwrap().iter().any(|s| matches!(s, Sent::Notice(x, _) if x.contains("Result of deal 1"))) {
            break;
        }
        let hands = t.hands.lock().unwrap().clone();
        let mut acted = false;
        for p in &ps[..3] {
            let Some(h) = hands.get(&p.user) else { continue };
            let options: Vec<_> = h
                .cards
                .iter()
                .filter(|c| c.playable)
                .map(|c| c.command.clone())
                .chain(
                    h.choices
                        .iter()
                        .filter(|c| !matches!(c.command, doko_bot::Command::Announce(_)))
                        .map(|c| c.command.clone()),
                )
                .collect();
            for cmd in options {
                if say(app, &t, &ch, p, Input::Command(cmd), &mut n).await {
                    acted = true;
                    break;
                }
            }
            if acted {
                break;
            }
        }
        if !acted {
            // the fourth person gets no private messages (closed): they ask
            let out = app.hand(&ch, &ps[3].user).await;
            let Some(h) = out else { panic!("nobody can act") };
            let cmd = h
                .cards
                .iter()
                .find(|c| c.playable)
                .map(|c| c.command.clone())
                .or_else(|| h.choices.first().map(|c| c.command.clone()))
                .expect("the fourth person must act");
            assert!(say(app, &t, &ch, &ps[3], Input::Command(cmd), &mut n).await);
        }
    }
    let sent = t.sent.lock().unwrap().clone();
    // one table message before the deal, one for the deal, edited in
    // place, the result as its own message, then a new one for the next
    // deal
    let posts: Vec<&String> = sent.iter().filter_map(|s| if let Sent::Post(x) = s { Some(x) } else { None }).collect();
    assert_eq!(posts.len(), 3, "a table message for the seats and one for each deal: {posts:?}");
    assert!(posts[2].contains("Deal 2"), "{}", posts[2]);
    let result = sent.iter().position(|s| matches!(s, Sent::Notice(x, _) if x.contains("Result of deal 1")));
    let next = sent.iter().position(|s| matches!(s, Sent::Post(x) if x.contains("Deal 2")));
    assert!(result.is_some() && result < next, "the result, then the next deal's table message");
    let edits = sent.iter().filter(|s| matches!(s, Sent::Edit(id, _) if id == "msg-2")).count();
    assert!(edits > 48, "{edits} edits of the deal's table message");
    // hands only privately, and only to their owner (the recording keyed
    // them by recipient); nothing public shows a hand
    for s in &sent {
        match s {
            Sent::Post(x) | Sent::Edit(_, x) | Sent::Notice(x, _) => assert!(!x.contains("Your hand"), "{x}"),
            Sent::Private(..) => {}
        }
    }
    // the closed person is told once per deal (deal 1, and deal 2 which
    // the last card dealt), in public, without secrets
    let told = sent.iter().filter(|s| matches!(s, Sent::Notice(x, Some(u)) if u.id == "p4" && x.contains("private")));
    assert_eq!(told.count(), 2, "once per deal");
    // the person to act is mentioned
    assert!(sent.iter().any(|s| matches!(s, Sent::Notice(x, Some(_)) if x == "your turn")));
    // a repeated delivery changes nothing and says so
    let out = app.handle(&ch, &ps[0], Input::Text("table".into()), Some("d1")).await;
    assert!(out.duplicate && out.is_empty());
}

/// A click on a hand the deal has moved past (a double click, an old
/// message) is refused with a fresh hand; the second copy of a card is not
/// played by it.
#[tokio::test]
async fn a_click_on_an_old_hand_is_refused_with_a_fresh_one() {
    let svc = Service::new(MemoryStore::default(), 29);
    let app: &dyn App = &svc;
    let ch = ChannelId::new(Platform::TERMINAL, "stale");
    let ps = people();
    let mut n = 0;
    let t = Recording::default();
    for p in &ps {
        say(app, &t, &ch, p, Input::Text("join".into()), &mut n).await;
    }
    say(app, &t, &ch, &ps[0], Input::Text("start".into()), &mut n).await;
    for p in &ps {
        say(app, &t, &ch, p, Input::Text("healthy".into()), &mut n).await;
    }
    // whoever leads: their hand, clicked twice (a double click)
    let mut leader = None;
    for p in &ps {
        if let Some(h) = app.hand(&ch, &p.user).await
            && h.cards.iter().any(|c| c.playable)
        {
            leader = Some((p.clone(), h));
        }
    }
    let (p, hand) = leader.expect("someone leads");
    let card = hand.cards.iter().find(|c| c.playable).unwrap().command.clone();
    let click = || Input::Clicked { command: card.clone(), stamp: hand.stamp.clone() };
    let first = app.handle(&ch, &p, click(), Some("click-1")).await;
    assert!(first.private.iter().all(|m| m.kind != Kind::Error), "the first click plays");
    assert!(first.table.is_some());
    let second = app.handle(&ch, &p, click(), Some("click-2")).await;
    let err = second.private.iter().find(|m| m.kind == Kind::Error).expect("the second click is refused");
    assert!(err.text.contains("out of date"), "{}", err.text);
    assert!(second.table.is_none(), "nothing happened at the table");
    let fresh = second.private.iter().find_map(|m| m.hand.as_ref()).expect("with a fresh hand");
    assert_ne!(fresh.stamp, hand.stamp);
    // text commands are not stamped: they act on the deal as it is
    assert!(app.hand(&ch, &p.user).await.is_some());
}

/// Commands for one table at once, with a table message that takes a while
/// to post: one table message, never a second, and the quick changes shown
/// together in fewer edits than changes, what happened in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_commands_post_one_table_message_and_coalesce_edits() {
    let svc = Arc::new(Service::new(MemoryStore::default(), 5));
    let ch = ChannelId::new(Platform::TERMINAL, "burst");
    let t = Arc::new(Recording { slow: std::time::Duration::from_millis(30), ..Default::default() });
    let ps = people();
    let mut tasks = Vec::new();
    for (i, p) in ps.iter().cloned().enumerate() {
        let (svc, t, ch) = (svc.clone(), t.clone(), ch.clone());
        tasks.push(tokio::spawn(async move {
            let app: &dyn App = &*svc;
            let out = app.handle(&ch, &p, Input::Text("join".into()), Some(&format!("j{i}"))).await;
            deliver(app, &*t, &out).await;
        }));
    }
    for i in 0..40 {
        let (svc, t, ch, p) = (svc.clone(), t.clone(), ch.clone(), ps[i % 4].clone());
        tasks.push(tokio::spawn(async move {
            let app: &dyn App = &*svc;
            let out = app.handle(&ch, &p, Input::Text("table".into()), Some(&format!("t{i}"))).await;
            deliver(app, &*t, &out).await;
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let sent = t.sent.lock().unwrap().clone();
    let tables: Vec<&String> = sent
        .iter()
        .filter_map(|s| match s {
            Sent::Post(x) | Sent::Edit(_, x) => Some(x),
            _ => None,
        })
        .collect();
    let posts = sent.iter().filter(|s| matches!(s, Sent::Post(_))).count();
    assert_eq!(posts, 1, "{sent:?}");
    assert!(tables.len() < 44, "{} posts and edits for 44 commands", tables.len());
    let last = tables.last().unwrap();
    assert!(last.contains("(4/4)"), "the newest table is shown last: {last}");
    // every join was told, in the order they happened
    let all: String = tables.iter().map(|x| x.as_str()).collect::<Vec<_>>().join("\n");
    for p in &ps {
        assert!(all.contains(&format!("{} joins", p.name)), "{all}");
    }
}

/// Two processes (two services with their own table messages in flight) on
/// one store, commands for one table arriving at both at once: still one
/// table message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_store_post_one_table_message() {
    let store = MemoryStore::default();
    let services = [Arc::new(Service::new(store.clone(), 7)), Arc::new(Service::new(store, 8))];
    let ch = ChannelId::new(Platform::TERMINAL, "two");
    let t = Arc::new(Recording { slow: std::time::Duration::from_millis(40), ..Default::default() });
    let ps = people();
    let mut tasks = Vec::new();
    for (i, p) in ps.iter().cloned().enumerate() {
        let (svc, t, ch) = (services[i % 2].clone(), t.clone(), ch.clone());
        tasks.push(tokio::spawn(async move {
            let app: &dyn App = &*svc;
            let out = app.handle(&ch, &p, Input::Text("join".into()), Some(&format!("j{i}"))).await;
            deliver(app, &*t, &out).await;
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let sent = t.sent.lock().unwrap().clone();
    let posts = sent.iter().filter(|s| matches!(s, Sent::Post(_))).count();
    assert_eq!(posts, 1, "{sent:?}");
    // and the deal gets its own, once, whichever process deals it
    let (a, b): (&dyn App, &dyn App) = (&*services[0], &*services[1]);
    let (x, y) = tokio::join!(
        a.handle(&ch, &ps[0], Input::Text("start".into()), Some("s1")),
        b.handle(&ch, &ps[1], Input::Text("table".into()), Some("s2"))
    );
    tokio::join!(deliver(a, &*t, &x), deliver(b, &*t, &y));
    let posts = t.sent.lock().unwrap().iter().filter(|s| matches!(s, Sent::Post(_))).count();
    assert_eq!(posts, 2, "{:?}", t.sent.lock().unwrap());
}

/// The sends of one delivery that go to different places go out at the
/// same time, in order within each place: a deal's start (the table
/// message and four hands, each send taking 100 ms) takes as long as the
/// longest stream where hands go to direct rooms, the sum of all where
/// everything goes to one output; an answer due first is sent first.
#[tokio::test]
async fn sends_to_different_places_go_out_at_once_in_order_within_each() {
    let ms = std::time::Duration::from_millis;
    let mut took = Vec::new();
    for routes in [Routes::Channel, Routes::Own, Routes::ActorFirst("p1")] {
        let svc = Service::new(MemoryStore::default(), 31);
        let app: &dyn App = &svc;
        let ch = ChannelId::new(Platform::TERMINAL, "streams");
        let ps = people();
        let t = Recording { slow: ms(100), slow_private: ms(100), routes, ..Default::default() };
        for (i, p) in ps.iter().enumerate() {
            app.handle(&ch, p, Input::Text("join".into()), Some(&format!("j{i}"))).await;
        }
        let out = app.handle(&ch, &ps[0], Input::Text("start".into()), Some("s")).await;
        assert_eq!(out.recipients().len(), 4, "four hands");
        // (virtual time: the sends' sleeps, nothing else)
        tokio::time::pause();
        let t0 = tokio::time::Instant::now();
        let report = deliver(app, &t, &out).await;
        took.push(t0.elapsed());
        tokio::time::resume();
        assert_eq!((report.private, report.failed), (4, 0), "{routes:?}: {report:?}");
        let sent = t.sent.lock().unwrap().clone();
        let first_table = sent.iter().position(|s| matches!(s, Sent::Post(_) | Sent::Edit(..))).expect("a table");
        let actor = sent.iter().position(|s| matches!(s, Sent::Private(u, _) if u.id == "p1")).unwrap();
        let others = sent.iter().filter(|s| matches!(s, Sent::Private(u, _) if u.id != "p1")).count();
        assert_eq!(others, 3, "{routes:?}");
        match routes {
            // one output: the actor's answer, the table, then the others
            Routes::Channel => assert!(actor == 0 && first_table == 1, "{sent:?}"),
            // the actor's answer before anything else
            Routes::ActorFirst(_) => assert_eq!(actor, 0, "{sent:?}"),
            Routes::Own => {}
        }
    }
    let (one_output, own, first) = (took[0], took[1], took[2]);
    assert!(one_output >= ms(500), "one output: the table and four people one after the other: {one_output:?}");
    assert!(own < ms(300), "direct rooms beside the table: {own:?} (one output {one_output:?})");
    assert!(first < one_output && first >= ms(200), "the answer first, then the rest at once: {first:?}");
}

/// Two deliveries at once that owe the same person, whose private messages
/// are refused (an outbox sent again while it is still under way, or two
/// commands' outboxes): the person is tried once, and the second delivery
/// waits for that answer and withholds its messages.
#[tokio::test]
async fn a_person_out_of_reach_is_tried_once_by_deliveries_at_once() {
    let ms = std::time::Duration::from_millis;
    let svc = Service::new(MemoryStore::default(), 37);
    let app: &dyn App = &svc;
    let ch = ChannelId::new(Platform::TERMINAL, "closed");
    let ps = people();
    let t =
        Recording { slow_private: ms(50), routes: Routes::Own, closed: vec![ps[2].user.clone()], ..Default::default() };
    for (i, p) in ps.iter().enumerate() {
        app.handle(&ch, p, Input::Text("join".into()), Some(&format!("j{i}"))).await;
    }
    let out = app.handle(&ch, &ps[0], Input::Text("start".into()), Some("s")).await;
    assert!(out.recipients().contains(&&ps[2].user), "P3 is owed a hand");
    let (a, b) = futures_util::future::join(deliver(app, &t, &out), deliver(app, &t, &out)).await;
    assert_eq!(a.failed + b.failed, 1, "one try: {a:?} {b:?}");
    assert_eq!(a.withheld + b.withheld, 1, "the other withheld: {a:?} {b:?}");
    assert_eq!(a.private + b.private, 6, "everyone else got theirs twice: {a:?} {b:?}");
}
