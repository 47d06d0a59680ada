//! Issue 18, item 6, through the service as the adapters drive it: a
//! Matrix room and a Discord channel linked by their admins (`link` with a
//! one-time code) share one table; each channel gets its own part of every
//! change (the table message with its own message id, the notices, the
//! private messages of the people of its platform only); `unlink` gives the
//! channel its own table back.

use doko_bot::command::Command;
use doko_bot::{Actor, App, ChannelId, CommandError, Kind, MemoryStore, Outbox, Platform, PostOffice, Service, UserId};
use doko_engine::{Action, Bid};
use doko_players::player::{BasicPlayer, Player};

fn room() -> ChannelId {
    ChannelId::new(Platform::MATRIX, "!table:hs.test")
}

fn channel() -> ChannelId {
    ChannelId::new(Platform::DISCORD, "500")
}

fn on_matrix(name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::MATRIX, format!("@{name}:hs.test")), name, admin).in_no_server()
}

fn on_discord(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, id), name, admin)
}

/// Every part of an outbox: the one for the channel asked, then the
/// relayed ones.
fn parts(out: &Outbox) -> Vec<&Outbox> {
    std::iter::once(out).chain(out.relay.iter()).collect()
}

/// Nothing of one platform's people reaches another platform's channel:
/// private messages, the person to act, mentions.
fn each_to_its_own(out: &Outbox) {
    for p in parts(out) {
        let plat = p.channel.platform;
        for m in &p.private {
            assert_eq!(m.to.platform, plat, "a private message for {} in {}: {p:?}", m.to, p.channel);
            if let Some(h) = &m.hand {
                assert_eq!(h.channel, p.channel, "a hand acts where it is shown");
            }
        }
        if let Some(t) = &p.table {
            assert!(t.to_act.as_ref().is_none_or(|u| u.platform == plat), "{p:?}");
        }
        for n in &p.notices {
            assert!(n.mention.as_ref().is_none_or(|u| u.platform == plat), "{p:?}");
        }
        if let Some(a) = &p.actor {
            assert_eq!(a.platform, plat);
        }
    }
}

async fn run(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Outbox {
    let out = svc.handle(ch, who, text).await.unwrap();
    each_to_its_own(&out);
    assert_eq!(&out.channel, ch, "the answer goes where the command was given");
    out
}

fn errors(out: &Outbox) -> Vec<String> {
    parts(out).iter().flat_map(|p| p.private.iter()).filter(|m| m.kind == Kind::Error).map(|m| m.text.clone()).collect()
}

async fn ok(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Outbox {
    let out = run(svc, ch, who, text).await;
    assert!(errors(&out).is_empty(), "{text} by {}: {out:?}", who.name);
    out
}

async fn refused(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str, why: CommandError) {
    let out = run(svc, ch, who, text).await;
    let lang = svc.table(ch).await.unwrap().0.lang();
    assert_eq!(errors(&out), vec![doko_bot::render::error(lang, &why)], "{text} by {}", who.name);
    assert!(out.relay.is_empty(), "a refusal is for the person only: {out:?}");
}

fn notices(out: &Outbox) -> String {
    out.notices.iter().map(|n| n.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// The code in the answer to `link`.
fn code_of(out: &Outbox) -> String {
    let p = out.private.iter().find(|p| p.text.starts_with("Link code ")).expect("the code");
    assert!(p.confidential, "a link code is never shown in the channel");
    assert!(out.notices.is_empty() && out.table.is_none() && out.relay.is_empty(), "{out:?}");
    p.text["Link code ".len()..].split_whitespace().next().unwrap().to_string()
}

/// A Matrix room and a Discord channel with two people each, for the steps
/// of the test below.
struct TwoChannels {
    svc: Service<MemoryStore>,
    room: ChannelId,
    chan: ChannelId,
    alice: Actor,
    bob: Actor,
    carol: Actor,
    dave: Actor,
}

impl TwoChannels {
    fn new() -> Self {
        TwoChannels {
            svc: Service::new(MemoryStore::default(), 5).with_durable_outbox(),
            room: room(),
            chan: channel(),
            alice: on_matrix("alice", true),
            bob: on_matrix("bob", false),
            carol: on_discord("31", "carol", true),
            dave: on_discord("32", "dave", false),
        }
    }

    /// The code is for admins, and only to the one who asked; it links the
    /// channel to the room once, from the other platform only.
    async fn link_by_code(&self) {
        let TwoChannels { svc, room, chan, alice, bob, carol, dave } = self;
        refused(svc, room, bob, "link", CommandError::NotAdmin).await;
        let code = code_of(&ok(svc, room, alice, "link").await);
        assert!(doko_bot::table::is_code(&code), "{code}");
        refused(svc, chan, carol, "link abcdefgh", CommandError::NoLinkCode).await;
        refused(svc, chan, dave, &format!("link {code}"), CommandError::NotAdmin).await;
        // a code works on the other platform only
        let room2 = ChannelId::new(Platform::MATRIX, "!other:hs.test");
        refused(svc, &room2, alice, &format!("link {code}"), CommandError::NoLinkCode).await;

        let out = ok(svc, chan, carol, &format!("link {code}")).await;
        assert!(notices(&out).contains("now shares its table with the Matrix room !table:hs.test"), "{out:?}");
        assert!(out.table.is_some(), "the channel gets the table message");
        assert_eq!(out.relay.len(), 1);
        assert_eq!(&out.relay[0].channel, room);
        assert!(notices(&out.relay[0]).contains("now shares its table with the Discord channel 500"));
        // used up: another channel cannot take it
        let chan2 = ChannelId::new(Platform::DISCORD, "501");
        refused(svc, &chan2, carol, &format!("link {code}"), CommandError::NoLinkCode).await;
        // said again in the linked channel (the code is used up): refused,
        // nothing changes
        refused(svc, chan, carol, &format!("link {code}"), CommandError::LinkedElsewhere).await;
        refused(svc, chan, carol, "link abcdefgh", CommandError::LinkedElsewhere).await;
    }

    /// Two on each platform sit down at the one table and start; each
    /// channel gets the table and its own players' hands.
    async fn seat_and_start(&self) {
        let TwoChannels { svc, room, chan, alice, bob, carol, dave } = self;
        ok(svc, room, alice, "join").await;
        ok(svc, chan, carol, "join").await;
        ok(svc, room, bob, "join").await;
        ok(svc, chan, dave, "join").await;
        let (a, _) = svc.table(room).await.unwrap();
        let (b, _) = svc.table(chan).await.unwrap();
        assert_eq!(a, b, "one table");
        assert_eq!(a.seats().len(), 4);
        assert_eq!(a.links().cloned().collect::<Vec<_>>(), vec![chan.clone()]);

        let out = ok(svc, chan, dave, "start").await;
        assert!(out.table.is_some() && out.relay[0].table.is_some(), "both channels get the table message");
        let hands = |p: &Outbox| {
            let mut v: Vec<String> =
                p.private.iter().filter(|m| m.kind == Kind::Hand).map(|m| m.to.id.clone()).collect();
            v.sort();
            v
        };
        assert_eq!(hands(&out), vec!["31", "32"], "the Discord players' hands, in the channel's part");
        assert_eq!(hands(&out.relay[0]), vec!["@alice:hs.test", "@bob:hs.test"], "the Matrix players', in the room's");
        assert_eq!(
            out.table.as_ref().unwrap().table,
            out.relay[0].table.as_ref().unwrap().table,
            "the same table shown"
        );
        refused(svc, room, alice, "unlink", CommandError::DealRunning).await;
    }

    /// Each person with the channel of their platform.
    fn people(&self) -> [(&Actor, &ChannelId); 4] {
        [(&self.alice, &self.room), (&self.bob, &self.room), (&self.carol, &self.chan), (&self.dave, &self.chan)]
    }

    /// The whole deal, each from their own platform, until both channels
    /// had the result; the last outbox.
    async fn play_the_deal(&self) -> Outbox {
        let TwoChannels { svc, room, chan, .. } = self;
        let people = self.people();
        let mut results = [false, false];
        let mut last = None;
        while results != [true, true] {
            let (t, _) = svc.table(room).await.unwrap();
            let Some((user, _)) = t.person_to_act() else { break };
            let (who, ch) = people.iter().find(|(p, _)| p.user == user).copied().unwrap();
            let view = t.view_for(&user).unwrap();
            let action = match BasicPlayer.decide(&view) {
                Action::Bid(_) => Action::Bid(Bid::Healthy),
                a => a,
            };
            let out = svc.execute(ch, who, Command::from_action(action)).await.unwrap();
            each_to_its_own(&out);
            assert!(errors(&out).is_empty(), "{out:?}");
            for p in parts(&out) {
                if p.notices.iter().any(|n| n.kind == Kind::Result) {
                    results[usize::from(&p.channel == chan)] = true;
                }
            }
            last = Some(out);
        }
        // (the result in both channels; the next deal is dealt)
        last.unwrap()
    }

    /// What a change owes is delivered once per channel: gone when both did.
    async fn owed_goes_when_both_channels_delivered(&self, out: Outbox) {
        let TwoChannels { svc, room, alice, .. } = self;
        let people = self.people();
        let (owner, _) = people.iter().find(|(_, c)| **c == out.channel).unwrap();
        assert!(owner.user.platform == out.channel.platform);
        let seq = *out.owed.first().expect("owed");
        let owes = |t: &doko_bot::Table| t.owed().entries().any(|e| e.seq == seq);
        let other = &out.relay[0];
        PostOffice::delivered(svc, &out.channel, out.owed_salt, &out.owed).await;
        assert!(owes(&svc.table(room).await.unwrap().0), "the other channel has not had it yet");
        PostOffice::delivered(svc, &other.channel, other.owed_salt, &other.owed).await;
        assert!(!owes(&svc.table(room).await.unwrap().0), "both channels had it");
        ok(svc, room, alice, "abort").await;
    }

    /// Unlink: the channel's own table again, the Discord players leave the
    /// shared one.
    async fn unlink_gives_each_its_own_table(&self) {
        let TwoChannels { svc, room, chan, alice, carol, dave, .. } = self;
        refused(svc, chan, dave, "unlink", CommandError::NotAdmin).await;
        let out = ok(svc, chan, carol, "unlink").await;
        assert!(notices(&out).contains("no longer shares its table with the Matrix room"), "{out:?}");
        assert_eq!(out.relay.len(), 1);
        let home = &out.relay[0];
        assert_eq!(&home.channel, room);
        assert!(home.table.as_ref().and_then(|t| t.events.as_ref()).is_some_and(|e| e.contains("no longer shares")));
        let (shared, _) = svc.table(room).await.unwrap();
        assert_eq!(shared.links().count(), 0);
        let names: Vec<&str> = shared.seats().iter().map(|s| s.name()).collect();
        assert_eq!(names, vec!["alice", "bob"]);
        let (own, _) = svc.table(chan).await.unwrap();
        assert!(own.linked_to().is_none() && own.seats().is_empty(), "the channel's own table");
        let out = ok(svc, chan, dave, "join").await;
        assert!(out.relay.is_empty());
        assert_eq!(svc.table(room).await.unwrap().0.seats().len(), 2, "the room's table is not the channel's");
        refused(svc, room, alice, "unlink", CommandError::NotLinked).await;
    }
}

#[tokio::test]
async fn a_room_and_a_channel_share_one_table_and_each_sees_its_own_part() {
    let two = TwoChannels::new();
    two.link_by_code().await;
    two.seat_and_start().await;
    let last = two.play_the_deal().await;
    two.owed_goes_when_both_channels_delivered(last).await;
    two.unlink_gives_each_its_own_table().await;
}

#[tokio::test]
async fn a_commit_claims_the_posting_of_the_homes_message_only() {
    let two = TwoChannels::new();
    two.link_by_code().await;
    let TwoChannels { svc, room, chan, alice, bob, carol, dave } = &two;
    for (who, at) in [(alice, room), (carol, chan), (bob, room), (dave, chan)] {
        ok(svc, at, who, "join").await;
    }
    // a new deal's first message, by a command at the home (the room)
    let out = ok(svc, room, alice, "start").await;
    let home = out.table.as_ref().expect("the room's table message");
    assert!(home.display.is_none() && home.claimed, "the commit claimed the room's message: {home:?}");
    let linked = out.relay[0].table.as_ref().expect("the channel's table message");
    assert!(!linked.claimed, "the channel's message is claimed when it is delivered: {linked:?}");
}

#[tokio::test]
async fn another_process_follows_a_link_and_its_end() {
    let store = MemoryStore::default();
    let one = Service::new(store.clone(), 1);
    let two = Service::new(store.clone(), 2);
    let (room, chan) = (room(), channel());
    let alice = on_matrix("alice", true);
    let carol = on_discord("31", "carol", true);
    let code = code_of(&ok(&one, &room, &alice, "link").await);
    ok(&two, &chan, &carol, "join").await; // (the channel's own table, seen by two)
    ok(&two, &chan, &carol, "leave").await;
    ok(&one, &chan, &carol, &format!("link {code}")).await;
    // two learns the link from the channel's table
    ok(&two, &chan, &carol, "join").await;
    assert_eq!(one.table(&room).await.unwrap().0.seats().len(), 1, "carol sits at the room's table");
    // one ends it; two still takes the channel for linked, and finds out
    ok(&one, &room, &alice, "unlink").await;
    let out = ok(&two, &chan, &carol, "join").await;
    assert!(out.relay.is_empty(), "{out:?}");
    assert_eq!(two.table(&chan).await.unwrap().0.seats().len(), 1, "the channel's own table");
    assert_eq!(one.table(&room).await.unwrap().0.seats().len(), 0, "carol left the room's table with the link");
    // a channel whose home lost it (a crash between the two steps of an
    // unlink) is its own table again with its next command
}

/// Delivers an outbox and its relayed parts as the front ends do (marks
/// what each part owes delivered in its channel).
async fn delivered_all(svc: &Service<MemoryStore>, out: &Outbox) {
    for p in parts(out) {
        if !p.owed.is_empty() {
            PostOffice::delivered(svc, &p.channel, p.owed_salt, &p.owed).await;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_turn_clocks_of_both_channels_owe_nothing_once_each_delivered() {
    let svc = Service::new(MemoryStore::default(), 9).with_durable_outbox();
    let (room, chan) = (room(), channel());
    let alice = on_matrix("alice", true);
    let carol = on_discord("31", "carol", true);
    let code = code_of(&ok(&svc, &room, &alice, "link").await);
    delivered_all(&svc, &ok(&svc, &chan, &carol, &format!("link {code}")).await).await;
    for (who, ch) in [(&alice, &room), (&carol, &chan)] {
        delivered_all(&svc, &ok(&svc, ch, who, "join").await).await;
    }
    for _ in 0..2 {
        delivered_all(&svc, &ok(&svc, &room, &alice, "addbot").await).await;
    }
    delivered_all(&svc, &ok(&svc, &room, &alice, "start").await).await;
    assert!(!svc.table(&room).await.unwrap().0.owed().any(), "everything delivered");
    // a minute on: each channel's clock has nothing to send but the turn
    // clock's own reminder
    tokio::time::advance(std::time::Duration::from_secs(40)).await;
    for ch in [&room, &chan] {
        let out = App::tick(&svc, ch).await;
        each_to_its_own(&out);
        delivered_all(&svc, &out).await;
    }
    for ch in [&room, &chan, &room, &chan] {
        tokio::time::advance(std::time::Duration::from_secs(1)).await;
        let out = svc.tick(ch).await.unwrap();
        assert!(parts(&out).iter().all(|p| p.is_empty()), "a tick with nothing new sends nothing: {out:?}");
    }
}
