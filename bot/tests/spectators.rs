//! Spectators and the last trick (issue 18, items 2 and 5): `watch`,
//! `unwatch`, the Kiebitz custom (`kiebitz NAME`), `lasttrick`.

use doko_bot::{Actor, Audience, ChannelId, Kind, Lang, MemoryStore, Message, Platform, Service, UserId};

fn person(id: &str, name: &str) -> Actor {
    Actor::new(UserId::new(Platform::MATRIX, format!("@{id}:example.org")), name, false)
}

async fn say(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<Message> {
    svc.handle(ch, who, text).await.unwrap().messages()
}

fn private_to<'a>(msgs: &'a [Message], who: &Actor) -> Vec<&'a Message> {
    msgs.iter().filter(|m| m.to == Audience::Private(who.user.clone())).collect()
}

fn error(msgs: &[Message], who: &Actor) -> Option<String> {
    private_to(msgs, who).into_iter().find(|m| m.kind == Kind::Error).map(|m| m.text.clone())
}

/// A table of Anna and three computers, Eva watching and Finn a stranger,
/// for the steps of the test below.
struct Watched {
    svc: Service<MemoryStore>,
    ch: ChannelId,
    anna: Actor,
    eva: Actor,
    finn: Actor,
}

impl Watched {
    async fn new() -> Self {
        let svc = Service::new(MemoryStore::default(), 5);
        let ch = ChannelId::new(Platform::MATRIX, "!kiebitz:example.org");
        let anna = person("anna", "Anna");
        for text in ["join", "addbot", "addbot", "addbot"] {
            say(&svc, &ch, &anna, text).await;
        }
        Watched { svc, ch, anna, eva: person("eva", "Eva"), finn: person("finn", "Finn") }
    }

    /// Eva watches; Anna shows her hand to her, a spectator, only.
    async fn watch_and_grant_the_kiebitz(&self) {
        let Watched { svc, ch, anna, eva, finn } = self;
        let out = say(svc, ch, eva, "watch").await;
        assert!(out.iter().any(|m| m.to == Audience::Public && m.text.contains("Eva watches the table.")), "{out:?}");
        assert!(out.iter().any(|m| m.kind == Kind::Table && m.text.contains("Watching: Eva")), "{out:?}");
        let again = say(svc, ch, eva, "zuschauen").await;
        assert_eq!(error(&again, eva).as_deref(), Some("you are watching this table already"));
        // a spectator without a Kiebitz sees no hand, nor does a stranger
        assert_eq!(error(&say(svc, ch, eva, "hand").await, eva).as_deref(), Some("you are not seated at this table"));
        assert!(error(&say(svc, ch, finn, "kiebitz eva").await, finn).is_some(), "a stranger shows no hand");
        // only a spectator can be shown a hand
        let out = say(svc, ch, anna, "kiebitz finn").await;
        assert!(error(&out, anna).unwrap().contains("nobody called finn watches"), "{out:?}");
        let out = say(svc, ch, anna, "kiebitz @eva").await;
        assert!(
            out.iter().any(|m| m.to == Audience::Public && m.text.contains("Anna lets Eva see their hand")),
            "{out:?}"
        );
        assert!(out.iter().any(|m| m.kind == Kind::Table && m.text.contains("Eva (sees Anna's hand)")), "{out:?}");
    }

    /// No deal: no last trick; the deal: Eva gets Anna's hand when it is
    /// dealt. What the start said.
    async fn start_and_show_anna_s_hand(&self) -> Vec<Message> {
        let Watched { svc, ch, anna, eva, finn } = self;
        let out = say(svc, ch, finn, "lasttrick").await;
        assert_eq!(private_to(&out, finn)[0].text, "No deal is being played.");
        let start = say(svc, ch, anna, "start").await;
        let t = svc.table(ch).await.unwrap().0;
        let anna_hand = Lang::En.cards(t.view_for(&anna.user).unwrap().sorted_hand());
        let eva_got = private_to(&start, eva);
        assert_eq!(eva_got.len(), 1, "{start:?}");
        assert_eq!(eva_got[0].kind, Kind::Hand);
        assert!(eva_got[0].text.contains(&format!("Anna's hand (you are their Kiebitz: do not tell): {anna_hand}")));
        let out = svc.handle(ch, eva, "hand").await.unwrap();
        let p = out.private_for(&eva.user).next().expect("Eva's answer");
        assert!(p.confidential && p.hand.is_none() && !p.dm, "read only, confidential, the answer itself: {p:?}");
        assert!(p.text.contains(&anna_hand));
        start
    }

    /// The last trick, card by card, to whoever asks (also a stranger),
    /// privately only.
    async fn check_the_last_trick(&self, t: &doko_bot::Table) {
        let Watched { svc, ch, finn, .. } = self;
        let pv = t.game().unwrap().unwrap().public_view();
        let out = say(svc, ch, finn, "lasttrick").await;
        let answer = private_to(&out, finn);
        assert_eq!(answer.len(), 1, "{out:?}");
        let tr = pv.tricks[0];
        let plays: Vec<String> =
            (0..4).map(|i| format!("{} {}", t.name_of(tr.leader.plus(i)), Lang::En.cards([tr.cards[i]]))).collect();
        let want = format!("Last trick (1.): {} -> {} ({} points)", plays.join(", "), t.name_of(tr.winner), tr.points);
        assert_eq!(answer[0].text, want);
        assert!(out.iter().all(|m| m.to != Audience::Public), "answered privately only: {out:?}");
    }

    /// Anna plays the deal out, the last trick checked after the first;
    /// everything said meanwhile added to `seen`.
    async fn play_the_deal(&self, seen: &mut Vec<Message>) {
        let Watched { svc, ch, anna, finn, .. } = self;
        let mut lasttrick_checked = false;
        for _ in 0..200 {
            let t = svc.table(ch).await.unwrap().0;
            if t.records() == 1 {
                break;
            }
            let g = t.game().unwrap().unwrap();
            let pv = g.public_view();
            if !lasttrick_checked && pv.tricks.len() == 1 {
                self.check_the_last_trick(&t).await;
                lasttrick_checked = true;
            }
            if pv.tricks.is_empty() && !lasttrick_checked {
                let out = say(svc, ch, finn, "letzterstich").await;
                assert_eq!(private_to(&out, finn)[0].text, "No trick has been taken yet in this deal.");
            }
            let view = t.view_for(&anna.user).expect("Anna sits");
            let text = doko_bot::Command::from_action(view.legal[0]).to_string();
            seen.extend(say(svc, ch, anna, &text).await);
        }
        assert!(lasttrick_checked);
    }

    /// Every private message went to Anna or (Anna's hand) to Eva; the next
    /// deal is dealt at once, with no trick yet.
    async fn check_nobody_else_saw_a_hand(&self, seen: &[Message]) {
        let Watched { svc, ch, anna, eva, finn } = self;
        let rec = svc.table(ch).await.unwrap().0;
        assert_eq!(rec.records(), 1);
        for m in seen {
            match &m.to {
                Audience::Public => {}
                Audience::Private(u) if *u == anna.user => {}
                Audience::Private(u) if *u == eva.user => {
                    assert_eq!(m.kind, Kind::Hand, "{m:?}");
                    assert!(m.text.starts_with("Anna's hand"), "{m:?}");
                }
                Audience::Private(u) => panic!("a private message to {u}: {m:?}"),
            }
        }
        let out = say(svc, ch, finn, "lasttrick").await;
        assert_eq!(private_to(&out, finn)[0].text, "No trick has been taken yet in this deal.");
    }

    /// A spectator sees another player's hand only after the first ends it.
    async fn unwatch_and_end_the_kiebitz(&self) {
        let Watched { svc, ch, anna, eva, .. } = self;
        let out = say(svc, ch, eva, "unwatch").await;
        assert!(out.iter().any(|m| m.to == Audience::Public && m.text.contains("Eva stops watching.")), "{out:?}");
        assert_eq!(error(&say(svc, ch, eva, "unwatch").await, eva).as_deref(), Some("you are not watching this table"));
        assert!(svc.table(ch).await.unwrap().0.kiebitz_sees(&eva.user).is_none());
        say(svc, ch, eva, "watch").await;
        assert!(svc.table(ch).await.unwrap().0.kiebitz_sees(&eva.user).is_none(), "watching again shows no hand");
        say(svc, ch, anna, "kiebitz eva").await;
        let out = say(svc, ch, anna, "kiebitz").await;
        assert!(out.iter().any(|m| m.text.contains("Eva no longer sees Anna's hand.")), "{out:?}");
        assert_eq!(error(&say(svc, ch, anna, "kiebitz").await, anna).as_deref(), Some("nobody sees your hand"));
    }
}

#[tokio::test]
async fn a_spectator_sees_only_the_hand_a_player_shows_them_and_only_while_both_are_there() {
    let w = Watched::new().await;
    w.watch_and_grant_the_kiebitz().await;
    let mut seen = w.start_and_show_anna_s_hand().await;
    w.play_the_deal(&mut seen).await;
    w.check_nobody_else_saw_a_hand(&seen).await;
    w.unwatch_and_end_the_kiebitz().await;
}

#[tokio::test]
async fn the_kiebitz_ends_when_the_player_leaves_and_a_spectator_who_sits_down_stops_watching() {
    let svc = Service::new(MemoryStore::default(), 9);
    let ch = ChannelId::new(Platform::MATRIX, "!leave:example.org");
    let anna = person("anna", "Anna");
    let ben = person("ben", "Ben");
    let eva = person("eva", "Eva");
    say(&svc, &ch, &anna, "join").await;
    say(&svc, &ch, &ben, "join").await;
    say(&svc, &ch, &eva, "watch").await;
    say(&svc, &ch, &anna, "kiebitz eva").await;
    // one spectator sees one player's hand
    let out = say(&svc, &ch, &ben, "kiebitz eva").await;
    assert_eq!(error(&out, &ben).as_deref(), Some("Eva sees another player's hand already"));
    // a seated person cannot watch
    assert_eq!(error(&say(&svc, &ch, &ben, "watch").await, &ben).as_deref(), Some("you are already seated"));
    assert_eq!(svc.table(&ch).await.unwrap().0.kiebitz_sees(&eva.user), Some(&anna.user));
    say(&svc, &ch, &anna, "leave").await;
    let t = svc.table(&ch).await.unwrap().0;
    assert!(t.kiebitz_sees(&eva.user).is_none(), "Anna left: Eva sees no hand");
    assert!(!render_table(&t).contains("sees"), "{}", render_table(&t));
    say(&svc, &ch, &ben, "kiebitz eva").await;
    assert_eq!(svc.table(&ch).await.unwrap().0.kiebitz_sees(&eva.user), Some(&ben.user));
    let out = say(&svc, &ch, &eva, "join").await;
    assert!(error(&out, &eva).is_none(), "{out:?}");
    let t = svc.table(&ch).await.unwrap().0;
    assert!(t.spectators().is_empty(), "seated: no longer watching");
    assert!(t.kiebitz_sees(&eva.user).is_none());
    // names are not unique: two spectators called Finn need a mention
    let finn1 = person("finn1", "Finn");
    let finn2 = person("finn2", "Finn");
    say(&svc, &ch, &finn1, "watch").await;
    say(&svc, &ch, &finn2, "watch").await;
    let out = say(&svc, &ch, &ben, "kiebitz finn").await;
    assert!(error(&out, &ben).unwrap().contains("more than one spectator is called finn"), "{out:?}");
    say(&svc, &ch, &ben, "kiebitz @finn2:example.org").await;
    let t = svc.table(&ch).await.unwrap().0;
    assert_eq!(t.kiebitz_sees(&finn2.user), Some(&ben.user));
    assert!(t.kiebitz_sees(&finn1.user).is_none());
    // the same commands from a direct message: watching is for the channel
    let out = svc.handle(&ch, &person("finn", "Finn").from_direct(), "watch").await.unwrap().messages();
    assert!(out.iter().any(|m| m.kind == Kind::Error), "{out:?}");
}

fn render_table(t: &doko_bot::Table) -> String {
    doko_bot::render::table(t)
}

/// A player kicked mid-deal keeps their seat (a computer plays it) until
/// the deal ends, then the seat is freed: their spectator sees no hand any
/// more, also not when they sit down again later.
#[tokio::test]
async fn a_kicked_players_grant_ends_with_their_seat() {
    let svc = Service::new(MemoryStore::default(), 13);
    let ch = ChannelId::new(Platform::MATRIX, "!kick:example.org");
    let anna = person("anna", "Anna");
    let ben = Actor::new(UserId::new(Platform::MATRIX, "@ben:example.org"), "Ben", true);
    let eva = person("eva", "Eva");
    say(&svc, &ch, &anna, "join").await;
    say(&svc, &ch, &ben, "join").await;
    say(&svc, &ch, &ben, "addbot").await;
    say(&svc, &ch, &ben, "addbot").await;
    say(&svc, &ch, &eva, "watch").await;
    say(&svc, &ch, &anna, "kiebitz eva").await;
    say(&svc, &ch, &ben, "start").await;
    let out = say(&svc, &ch, &ben, "kick anna").await;
    assert!(error(&out, &ben).is_none(), "{out:?}");
    // Ben plays his turns; the computers play the rest, Anna's seat too
    for _ in 0..100 {
        let t = svc.table(&ch).await.unwrap().0;
        if t.records() == 1 {
            break;
        }
        let Some(view) = t.view_for(&ben.user) else { break };
        let Some(action) = view.legal.first() else { break };
        let text = doko_bot::Command::from_action(*action).to_string();
        say(&svc, &ch, &ben, &text).await;
    }
    let t = svc.table(&ch).await.unwrap().0;
    assert_eq!(t.records(), 1, "the deal is over");
    assert!(t.seat_of(&anna.user).is_none(), "Anna's seat is free");
    assert!(t.kiebitz_sees(&eva.user).is_none());
    // Anna sits down again (a new session): Eva sees nothing of hers
    say(&svc, &ch, &ben, "reset").await;
    let out = say(&svc, &ch, &anna, "join").await;
    assert!(error(&out, &anna).is_none(), "{out:?}");
    let t = svc.table(&ch).await.unwrap().0;
    assert!(t.kiebitz_sees(&eva.user).is_none(), "an old grant came back");
    // and Eva is free to be shown another hand
    let out = say(&svc, &ch, &ben, "kiebitz eva").await;
    assert!(error(&out, &ben).is_none(), "{out:?}");
}

/// Whether a person plays in the deal (what marks their answers
/// confidential) is whether they have a seat's view, without building it:
/// a player while a deal runs; never a spectator, their Kiebitz or a
/// stranger.
#[tokio::test]
async fn playing_in_the_deal_is_having_a_view() {
    let svc = Service::new(MemoryStore::default(), 5);
    let ch = ChannelId::new(Platform::MATRIX, "!plays:example.org");
    let (anna, eva, finn) = (person("anna", "Anna"), person("eva", "Eva"), person("finn", "Finn"));
    for text in ["join", "addbot", "addbot", "addbot"] {
        say(&svc, &ch, &anna, text).await;
    }
    say(&svc, &ch, &eva, "watch").await;
    say(&svc, &ch, &anna, "kiebitz @eva").await;
    let check = |t: &doko_bot::Table, playing: [bool; 3]| {
        for (who, plays) in [&anna, &eva, &finn].into_iter().zip(playing) {
            assert_eq!(t.plays_in_deal(&who.user), plays, "{}", who.name);
            assert_eq!(t.view_for(&who.user).is_some(), plays, "{}", who.name);
        }
    };
    check(&svc.table(&ch).await.unwrap().0, [false; 3]);
    say(&svc, &ch, &anna, "start").await;
    check(&svc.table(&ch).await.unwrap().0, [true, false, false]);
}
