//! The coach (issue 65, item 3): `hint` as a player asks it, at a table
//! with the `coach` rule off (refused) and on (the expert's choice with
//! one line of why, to the asker alone; the table told; the deal marked on
//! the score sheet).

use doko_bot::command::Command;
use doko_bot::{Actor, Audience, ChannelId, Kind, Lang, MemoryStore, Message, Platform, Service, UserId};
use doko_engine::{Action, Bid};

fn person(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::MATRIX, format!("@{id}:example.org")), name, admin)
}

async fn say(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<Message> {
    svc.handle(ch, who, text).await.unwrap().messages()
}

fn to<'a>(msgs: &'a [Message], who: &Actor) -> Vec<&'a Message> {
    msgs.iter().filter(|m| m.to == Audience::Private(who.user.clone())).collect()
}

fn error(msgs: &[Message], who: &Actor) -> Option<String> {
    to(msgs, who).into_iter().find(|m| m.kind == Kind::Error).map(|m| m.text.clone())
}

/// Anna (an admin) and Ben at a table with two computers, the rules as
/// `setting` says, the deal started.
async fn table(svc: &Service<MemoryStore>, name: &str, setting: &str) -> (ChannelId, Actor, Actor) {
    let ch = ChannelId::new(Platform::MATRIX, format!("!{name}:example.org"));
    let (anna, ben) = (person("anna", "Anna", true), person("ben", "Ben", false));
    say(svc, &ch, &anna, "join").await;
    say(svc, &ch, &ben, "join").await;
    say(svc, &ch, &anna, "addbot").await;
    say(svc, &ch, &anna, "addbot").await;
    if !setting.is_empty() {
        let out = say(svc, &ch, &anna, setting).await;
        assert_eq!(error(&out, &anna), None, "{out:?}");
    }
    say(svc, &ch, &anna, "start").await;
    (ch, anna, ben)
}

/// The person to act now, if a person (not a computer) must.
async fn to_act(svc: &Service<MemoryStore>, ch: &ChannelId) -> Option<UserId> {
    svc.table(ch).await.unwrap().0.person_to_act().map(|(u, _)| u)
}

/// `who` takes a legal step (healthy, or their first card).
async fn step(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor) {
    let t = svc.table(ch).await.unwrap().0;
    let legal = t.view_for(&who.user).expect("a seat in the deal").legal;
    let a =
        legal.iter().copied().find(|a| matches!(a, Action::Bid(Bid::Healthy) | Action::Play(_))).unwrap_or(legal[0]);
    svc.execute(ch, who, Command::from_action(a)).await.unwrap();
}

#[tokio::test]
async fn without_the_coach_rule_a_hint_is_refused() {
    let svc = Service::new(MemoryStore::default(), 7);
    let (ch, anna, ben) = table(&svc, "nocoach", "").await;
    // (whoever is to act asks)
    let me = if to_act(&svc, &ch).await == Some(anna.user.clone()) { &anna } else { &ben };
    let (_, before) = svc.table(&ch).await.unwrap();
    let out = say(&svc, &ch, me, "hint").await;
    let e = error(&out, me).expect("refused");
    assert!(e.contains("no coach") && e.contains("rules set coach on"), "{e}");
    assert!(!out.iter().any(|m| m.text.contains("Coach:")), "{out:?}");
    let (_, after) = svc.table(&ch).await.unwrap();
    assert_eq!(before, after, "nothing changed");
    assert_eq!(error(&say(&svc, &ch, me, "tipp").await, me), Some(e), "the German word too");
}

/// Anna's hint on her turn: one confidential message to her, naming the
/// expert's choice and why; the table told; nobody else told the advice.
/// The advice's choice.
async fn anna_asks(svc: &Service<MemoryStore>, ch: &ChannelId, anna: &Actor, ben: &Actor) -> String {
    let legal = svc.table(ch).await.unwrap().0.view_for(&anna.user).unwrap().legal;
    // the choices other than cards, as her hand names them
    let hand = say(svc, ch, anna, "hand").await;
    let can: Vec<String> = to(&hand, anna)
        .iter()
        .flat_map(|m| m.text.lines())
        .filter_map(|l| l.strip_prefix("You can: "))
        .flat_map(|l| l.split(", ").map(str::to_string))
        .collect();
    let out = svc.handle(ch, anna, "hint").await.unwrap();
    let mine: Vec<_> = out.private_for(&anna.user).filter(|p| p.text.starts_with("Coach: ")).collect();
    assert_eq!(mine.len(), 1, "{out:?}");
    assert!(mine[0].confidential, "the advice is confidential: {:?}", mine[0]);
    let text = mine[0].text.clone();
    let msgs = out.messages();
    for m in &msgs {
        if m.to != Audience::Private(anna.user.clone()) {
            assert!(!m.text.contains("Coach:"), "the advice went elsewhere: {m:?}");
        }
    }
    assert!(to(&msgs, ben).iter().all(|m| !m.text.contains("Coach")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.to == Audience::Public && m.text.contains("Anna asked the coach for a hint.")));
    // the reason names the choice: a card Anna may play, or a bid with its
    // chance
    let lang = Lang::En;
    let card = legal.iter().find_map(|a| match a {
        Action::Play(c) if text.starts_with(&format!("Coach: play {}: ", lang.card(*c))) => Some(lang.card(*c)),
        _ => None,
    });
    match card {
        Some(c) => {
            let whys =
                ["lead trumps", "lead the ace", "lead a plain suit", "save the fox", "give points", "follow suit"];
            let more = ["trump it", "throw it off"];
            assert!(whys.iter().chain(&more).any(|w| text.contains(w)), "why {c}: {text}");
            c
        }
        None => {
            // a bid (or another choice) her hand offers, with its chance
            let choice = text.strip_prefix("Coach: ").and_then(|t| t.split_once(": your side won with it in "));
            let (choice, rest) = choice.unwrap_or_else(|| panic!("a choice and its chance: {text}"));
            assert!(can.iter().any(|c| c == choice), "{choice} is not among {can:?}");
            assert!(rest.contains("% of ") && rest.ends_with(" simulated deals."), "{text}");
            text
        }
    }
}

#[tokio::test]
async fn with_the_coach_rule_a_hint_goes_to_the_asker_alone_and_marks_the_deal() {
    let svc = Service::new(MemoryStore::default(), 11);
    let (ch, anna, ben) = table(&svc, "coach", "rules set coach on").await;
    let mut asked = Vec::new();
    let mut refused_out_of_turn = false;
    for _ in 0..200 {
        let Some(u) = to_act(&svc, &ch).await else { break };
        let annas = u == anna.user;
        let (me, other) = if annas { (&anna, &ben) } else { (&ben, &anna) };
        if annas && asked.len() < 3 {
            // not Ben's turn: refused, and nothing said to anyone
            let out = say(&svc, &ch, other, "hint").await;
            assert!(error(&out, other).is_some_and(|e| e.contains("turn")), "{out:?}");
            refused_out_of_turn = true;
            asked.push(anna_asks(&svc, &ch, &anna, &ben).await);
        }
        step(&svc, &ch, me).await;
        let t = svc.table(&ch).await.unwrap().0;
        if t.session().is_some_and(|s| !s.sheet().is_empty()) {
            break;
        }
    }
    assert!(refused_out_of_turn && !asked.is_empty(), "Anna was never to act");
    // the deal is marked on the sheet (and so in the list), in either
    // language
    let t = svc.table(&ch).await.unwrap().0;
    let s = t.session().expect("the list");
    assert_eq!(s.sheet().len(), 1, "one deal scored");
    assert!(s.hinted(1) && !s.hinting(), "deal 1 marked, the next not yet");
    let score = say(&svc, &ch, &ben, "score").await;
    let sheet = score.iter().find(|m| m.kind == Kind::Score).expect("the sheet");
    let row = sheet.text.lines().find(|l| l.trim_start().starts_with("1 ")).expect("deal 1's row");
    assert!(row.ends_with("(hint)"), "{}", sheet.text);
    say(&svc, &ch, &anna, "lang de").await;
    let score = say(&svc, &ch, &ben, "score").await;
    let sheet = score.iter().find(|m| m.kind == Kind::Score).expect("the sheet");
    assert!(sheet.text.lines().any(|l| l.trim_start().starts_with("1 ") && l.ends_with("(Tipp)")), "{}", sheet.text);
}

/// `rules` explains every key in its own words, the coach's too (a key
/// without its own line would show another's), in both languages.
#[tokio::test]
async fn every_rule_has_its_own_line_in_rules() {
    let svc = Service::new(MemoryStore::default(), 3);
    let ch = ChannelId::new(Platform::MATRIX, "!rules:example.org");
    let anna = person("anna", "Anna", true);
    for lang in ["en", "de"] {
        say(&svc, &ch, &anna, &format!("lang {lang}")).await;
        let out = say(&svc, &ch, &anna, "rules").await;
        let abouts: Vec<&str> = out
            .iter()
            .filter(|m| m.kind == Kind::Rules)
            .flat_map(|m| m.text.lines())
            .filter(|l| l.contains(" = "))
            .filter_map(|l| l.split_once(" - ").map(|(_, about)| about))
            .collect();
        assert_eq!(abouts.len(), doko_engine::KEYS.len(), "{lang}: {abouts:?}");
        let mut distinct = abouts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), abouts.len(), "{lang}: a line shown for two keys: {abouts:?}");
        assert!(out.iter().any(|m| m.text.contains("coach = off")), "{lang}: {out:?}");
    }
}
