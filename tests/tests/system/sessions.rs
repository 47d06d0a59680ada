//! Whole sessions driven through the service exactly as an adapter would:
//! people send commands, computer players fill in, against the in-memory,
//! embedded and Redis stores. Also: admin-only rules, the five-seat table,
//! restart mid-deal, and that no hand ever appears in a public message.

use crate::common;

use common::{RedisServer, act_once};
use doko_bot::command::{Command, RulesCmd};
use doko_bot::render::Audience;
use doko_bot::{
    Actor, AnyStore, ChannelId, EmbeddedStore, Kind, MemoryStore, Platform, RedisStore, Service, Store, UserId,
};
use doko_engine::{Card, Record};
use doko_players::BotLevel;

/// A card's roles as the coach and the analysis name them (English).
const ROLES: [&str; 8] = [
    "lead trumps, to draw the others' trumps",
    "lead the ace while the suit still goes round",
    "lead a plain suit",
    "save the fox: your side takes this trick",
    "give points: your side takes this trick",
    "follow suit",
    "trump it: you cannot follow suit",
    "throw it off: you cannot follow suit",
];

fn people(n: usize, platform: Platform) -> Vec<Actor> {
    ["Anna", "Ben", "Cleo", "Dirk", "Emil"]
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, name)| Actor::new(UserId::new(platform, format!("u{i}")), *name, i == 0))
        .collect()
}

async fn say<S: Store>(svc: &Service<S>, ch: &ChannelId, a: &Actor, text: &str) -> Vec<doko_bot::Message> {
    svc.handle(ch, a, text).await.unwrap().messages()
}

/// Plays a whole session of `deals` deals with the given people (and
/// computer players to fill up to `seats`), checks the sheet, records and
/// statistics, and returns the number of deals on the sheet.
async fn play_session<S: Store>(svc: &Service<S>, ch: &ChannelId, humans: usize, seats: usize, deals: u32) -> usize {
    let ps = people(humans, ch.platform);
    for p in &ps {
        let m = say(svc, ch, p, "join").await;
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    }
    for _ in humans..seats {
        say(svc, ch, &ps[0], "addbot").await;
    }
    let m = say(svc, ch, &ps[0], &format!("rules set games_per_session {deals}")).await;
    assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    say(svc, ch, &ps[0], "start").await;
    for _ in 0..5000 {
        if !act_once(svc, ch, &ps).await {
            break;
        }
    }
    let (t, _) = svc.table(ch).await.unwrap();
    let s = t.session().expect("a session");
    assert!(s.is_over(), "the session ended");
    assert!(s.sheet().len() as u32 >= deals, "{} deals", s.sheet().len());
    // every owed compulsory solo was played (vorführen at the end)
    assert!(s.duty_left().iter().all(|d| *d == 0), "{:?}", s.duty_left());
    // zero sum per deal and in total; DDV check: all totals even or all odd
    for row in s.sheet() {
        assert_eq!(row.scores.iter().sum::<i64>(), 0, "deal {}", row.deal);
    }
    assert_eq!(s.totals().iter().sum::<i64>(), 0);
    if seats == 4 {
        let totals = s.totals().as_slice();
        assert!(totals.iter().all(|v| v.rem_euclid(2) == totals[0].rem_euclid(2)), "{totals:?}");
    }
    // every deal's record replays to the scores on the sheet
    for row in s.sheet() {
        let text = svc.store().record(ch, row.record).await.unwrap().expect("record stored");
        let result = doko_engine::record::replay_stored(&text).unwrap();
        let g = &result.game;
        let score = result.score.expect("scored");
        let factor = if row.bock { 2 } else { 1 };
        let mut sheet_scores: Vec<i64> = row.scores.iter().copied().filter(|v| *v != 0).collect();
        let mut rec_scores: Vec<i64> = score.scores.iter().map(|v| *v as i64 * factor).filter(|v| *v != 0).collect();
        sheet_scores.sort();
        rec_scores.sort();
        assert_eq!(sheet_scores, rec_scores, "deal {}", row.deal);
        assert_eq!(g.contract().name(), row.contract);
    }
    // the record command hands out a replayable record
    let m = say(svc, ch, &ps[0], "record 1").await;
    let rec = m.iter().find(|m| m.kind == Kind::Record).expect("a record message");
    assert_eq!(rec.to, Audience::Private(ps[0].user.clone()));
    Record::from_json(&rec.text).unwrap().replay().unwrap();
    // statistics: every player played every deal they were dealt in
    let total: u32 = t.stats().values().map(|s| s.deals).sum();
    assert_eq!(total as usize, 4 * s.sheet().len());
    let m = say(svc, ch, &ps[0], "stats").await;
    assert!(m.iter().any(|m| m.kind == Kind::Stats && m.text.contains("Anna")));
    s.sheet().len()
}

#[tokio::test]
async fn four_people_play_a_session_in_memory() {
    let svc = Service::new(MemoryStore::default(), 1);
    let ch = ChannelId::new(Platform::DISCORD, "c1");
    play_session(&svc, &ch, 4, 4, 6).await;
}

#[tokio::test]
async fn five_at_the_table_the_dealer_sits_out() {
    let svc = Service::new(MemoryStore::default(), 2);
    let ch = ChannelId::new(Platform::MATRIX, "!room");
    let n = play_session(&svc, &ch, 5, 5, 5).await;
    let (t, _) = svc.table(&ch).await.unwrap();
    let s = t.session().unwrap();
    // in every deal exactly one of the five scored nothing: the dealer
    for row in s.sheet() {
        assert!(row.scores.iter().filter(|v| **v == 0).count() >= 1, "{row:?}");
    }
    assert!(n >= 5);
}

#[tokio::test]
async fn two_people_and_two_computers_on_the_embedded_store() {
    let dir = std::env::temp_dir().join(format!("doko-emb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = EmbeddedStore::open(&dir.join("doko.redb")).unwrap();
    let svc = Service::new(AnyStore::Embedded(store), 3);
    let ch = ChannelId::new(Platform::TERMINAL, "local");
    play_session(&svc, &ch, 2, 4, 4).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn four_people_play_a_session_on_redis() {
    let redis = RedisServer::start();
    let store = RedisStore::connect(&redis.url(), 3600).await.unwrap();
    let svc = Service::new(store, 4);
    let ch = ChannelId::new(Platform::DISCORD, "guild-chan");
    play_session(&svc, &ch, 4, 4, 4).await;
}

#[tokio::test]
async fn a_restart_mid_deal_resumes_where_it_stood() {
    let dir = std::env::temp_dir().join(format!("doko-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("doko.redb");
    let ch = ChannelId::new(Platform::TERMINAL, "local");
    let ps = people(4, Platform::TERMINAL);
    let before = {
        let svc = Service::new(EmbeddedStore::open(&path).unwrap(), 5);
        for p in &ps {
            say(&svc, &ch, p, "join").await;
        }
        say(&svc, &ch, &ps[0], "start").await;
        for _ in 0..9 {
            assert!(act_once(&svc, &ch, &ps).await);
        }
        svc.table(&ch).await.unwrap()
    }; // the service and its store are gone: the process "died"
    let svc = Service::new(EmbeddedStore::open(&path).unwrap(), 6);
    let after = svc.table(&ch).await.unwrap();
    assert_eq!(before, after, "the table is exactly as it was");
    let g = after.0.game().unwrap().expect("the deal is still running");
    assert!(g.plays() > 0 || g.phase() != doko_engine::Phase::Bidding);
    // and it plays on to the end of the deal
    let deals = after.0.session().unwrap().deals();
    for _ in 0..200 {
        let (t, _) = svc.table(&ch).await.unwrap();
        if t.session().unwrap().deals() > deals {
            break;
        }
        assert!(act_once(&svc, &ch, &ps).await);
    }
    let (t, _) = svc.table(&ch).await.unwrap();
    assert_eq!(t.session().unwrap().deals(), deals + 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn only_admins_change_rules_and_language() {
    let svc = Service::new(MemoryStore::default(), 7);
    let ch = ChannelId::new(Platform::DISCORD, "c2");
    let ps = people(2, Platform::DISCORD); // ps[0] is admin, ps[1] is not
    let m = say(&svc, &ch, &ps[1], "rules set dulle second-wins").await;
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].kind, Kind::Error);
    assert_eq!(m[0].to, Audience::Private(ps[1].user.clone()));
    assert!(m[0].text.contains("admins"), "{}", m[0].text);
    let m = say(&svc, &ch, &ps[1], "lang de").await;
    assert_eq!(m[0].kind, Kind::Error);
    let (t, v) = svc.table(&ch).await.unwrap();
    assert_eq!(*t.rules(), doko_engine::Rules::default());
    assert_eq!(v, 0, "nothing was stored");
    // the admin may; a bad value lists the allowed ones
    let m = say(&svc, &ch, &ps[0], "rules set dulle third").await;
    assert!(m[0].text.contains("first-wins, second-wins, second-wins-except-last"), "{}", m[0].text);
    say(&svc, &ch, &ps[0], "rules set dulle second-wins").await;
    say(&svc, &ch, &ps[0], "sprache de").await;
    let (t, _) = svc.table(&ch).await.unwrap();
    assert_eq!(t.rules().dulle, doko_engine::Dulle::SecondWins);
    let m = say(&svc, &ch, &ps[1], "regeln").await;
    assert!(m[0].text.contains("* dulle = second-wins"), "{}", m[0].text);
    // and the messages are German now
    let m = say(&svc, &ch, &ps[1], "spiele kreuz dame").await;
    assert!(m[0].text.contains("du sitzt nicht"), "{}", m[0].text);
}

#[tokio::test]
async fn rule_changes_apply_from_the_next_deal() {
    let svc = Service::new(MemoryStore::default(), 8);
    let ch = ChannelId::new(Platform::DISCORD, "c3");
    let ps = people(4, Platform::DISCORD);
    for p in &ps {
        say(&svc, &ch, p, "join").await;
    }
    say(&svc, &ch, &ps[0], "start").await;
    svc.execute(&ch, &ps[0], Command::Rules(RulesCmd::Set { key: "nines".into(), value: "false".into() }))
        .await
        .unwrap()
        .messages();
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.game().unwrap().unwrap().rules().nines, "the running deal keeps its rules");
    assert!(!t.rules().nines);
    let deals = t.session().unwrap().deals();
    loop {
        let (t, _) = svc.table(&ch).await.unwrap();
        if t.session().unwrap().deals() > deals {
            let g = t.game().unwrap().unwrap();
            assert!(!g.rules().nines, "the next deal is dealt without nines");
            assert_eq!(g.hand(doko_engine::Seat::new(0)).len(), 10);
            break;
        }
        act_once(&svc, &ch, &ps).await;
    }
}

/// Cards a text shows with suit symbols.
fn cards_in(text: &str) -> Vec<Card> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let suit = match c {
            '♣' => 'C',
            '♠' => 'S',
            '♥' => 'H',
            '♦' => 'D',
            _ => continue,
        };
        let rest: String = chars[i + 1..].iter().take(2).collect();
        let rank = if rest.starts_with("10") { "10".to_string() } else { rest.chars().take(1).collect() };
        let rank = match rank.as_str() {
            "D" => "Q".to_string(),
            "B" => "J".to_string(),
            r => r.to_string(),
        };
        if let Ok(card) = format!("{suit}{rank}").parse() {
            out.push(card);
        }
    }
    out
}

#[tokio::test]
async fn no_hand_ever_appears_in_a_public_message() {
    // Four people play many random deals; every public message may only
    // show cards already played in the deal, and never a hand.
    let svc = Service::new(MemoryStore::default(), 9);
    let ch = ChannelId::new(Platform::DISCORD, "leak");
    let ps = people(4, Platform::DISCORD);
    for p in &ps {
        say(&svc, &ch, p, "join").await;
    }
    say(&svc, &ch, &ps[0], "rules preset casual").await;
    say(&svc, &ch, &ps[0], "rules set games_per_session 0").await;
    let mut public = 0;
    let mut rng = doko_engine::Rng::new(99);
    let mut first = true;
    for step in 0..4000 {
        let (t, _) = svc.table(&ch).await.unwrap();
        let played: Vec<Card> = match t.game().unwrap() {
            Some(g) => {
                g.tricks().iter().flat_map(|t| t.cards).chain(g.current_trick().played().iter().copied()).collect()
            }
            None => Vec::new(),
        };
        let msgs = if first {
            first = false;
            say(&svc, &ch, &ps[0], "start").await
        } else {
            let g = t.game().unwrap().expect("open-ended session");
            let seat = g.mandatory_announcement().or(g.to_act()).unwrap();
            let ts = t.table_seat(seat).unwrap();
            let actor = ps.iter().find(|a| t.seat_of(&a.user) == Some(ts)).unwrap();
            // mostly legal actions, sometimes a random card or a query
            let view = g.view(seat);
            let a = view.legal[rng.below(view.legal.len())];
            let cmd = match rng.below(10) {
                0 => Command::Table,
                1 => Command::Play(Card::from_index(rng.below(24))),
                _ => common::command_for(a),
            };
            svc.execute(&ch, actor, cmd).await.unwrap().messages()
        };
        let (t2, _) = svc.table(&ch).await.unwrap();
        let played_now: Vec<Card> = match t2.game().unwrap() {
            Some(g) => {
                g.tricks().iter().flat_map(|t| t.cards).chain(g.current_trick().played().iter().copied()).collect()
            }
            None => Vec::new(),
        };
        for m in msgs.iter().filter(|m| m.to == Audience::Public) {
            public += 1;
            assert!(!m.text.contains("Your hand") && !m.text.contains("Dein Blatt"), "step {step}: {}", m.text);
            for c in cards_in(&m.text) {
                assert!(
                    played.contains(&c) || played_now.contains(&c) || m.kind == Kind::Events,
                    "step {step}: {c} shown publicly before it was played:\n{}",
                    m.text
                );
            }
            if m.kind == Kind::Table {
                // the table shows only cards of this deal that are on the table
                for c in cards_in(&m.text) {
                    assert!(played_now.contains(&c), "step {step}: {c} in the table message:\n{}", m.text);
                }
            }
        }
        for m in msgs.iter().filter(|m| m.kind == Kind::Hand) {
            assert!(matches!(m.to, Audience::Private(_)), "a hand is always private");
        }
    }
    assert!(public > 1000);
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.session().unwrap().deals() >= 10, "many deals were played");
}

#[tokio::test]
async fn commands_are_checked_for_seat_and_turn() {
    let svc = Service::new(MemoryStore::default(), 10);
    let ch = ChannelId::new(Platform::DISCORD, "c4");
    let ps = people(4, Platform::DISCORD);
    let stranger = Actor::new(UserId::new(Platform::DISCORD, "zz"), "Zed", false);
    // a Matrix user with the same id is someone else
    let other_platform = Actor::new(UserId::new(Platform::MATRIX, "u1"), "Ben on Matrix", false);
    for p in &ps {
        say(&svc, &ch, p, "join").await;
    }
    let m = say(&svc, &ch, &stranger, "join").await;
    assert!(m.iter().all(|m| m.kind != Kind::Error), "a fifth may join before the deal");
    say(&svc, &ch, &stranger, "leave").await;
    say(&svc, &ch, &ps[0], "start").await;
    let (t, v) = svc.table(&ch).await.unwrap();
    for (who, text) in [(&stranger, "gesund"), (&other_platform, "gesund"), (&stranger, "join")] {
        let m = say(&svc, &ch, who, text).await;
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].kind, Kind::Error);
        assert_eq!(m[0].to, Audience::Private(who.user.clone()));
    }
    // a seated player not on turn
    let g = t.game().unwrap().unwrap();
    let to_act = t.table_seat(g.to_act().unwrap()).unwrap();
    let not_on_turn = ps.iter().find(|a| t.seat_of(&a.user) != Some(to_act)).unwrap();
    let m = say(&svc, &ch, not_on_turn, "gesund").await;
    assert_eq!(m[0].kind, Kind::Error);
    let turn_name = t.seats()[to_act].name();
    assert_eq!(m[0].text, format!("it is not your turn; it is {turn_name}'s"));
    // the same refusal in a German channel
    say(&svc, &ch, &ps[0], "sprache de").await;
    let m = say(&svc, &ch, not_on_turn, "gesund").await;
    assert_eq!(m[0].text, format!("du bist nicht dran, sondern {turn_name}"));
    say(&svc, &ch, &ps[0], "lang en").await;
    let m = say(&svc, &ch, not_on_turn, "tanz").await;
    assert!(m[0].text.contains("unknown command"), "{}", m[0].text);
    let (_, v2) = svc.table(&ch).await.unwrap();
    assert_eq!(v + 2, v2, "refused commands change nothing (two language changes do)");
    let _ = BotLevel::Basic;
}

#[tokio::test]
async fn one_person_with_a_strong_a_basic_and_a_random_computer() {
    let svc = Service::new(MemoryStore::default(), 31);
    let ch = ChannelId::new(Platform::DISCORD, "levels");
    let ps = people(1, Platform::DISCORD);
    say(&svc, &ch, &ps[0], "join").await;
    for level in ["addbot strong", "addbot", "addbot random"] {
        let m = say(&svc, &ch, &ps[0], level).await;
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    }
    say(&svc, &ch, &ps[0], "rules set games_per_session 3").await;
    say(&svc, &ch, &ps[0], "rules set compulsory_solos 0").await;
    say(&svc, &ch, &ps[0], "start").await;
    for _ in 0..500 {
        if !act_once(&svc, &ch, &ps).await {
            break;
        }
    }
    let (t, _) = svc.table(&ch).await.unwrap();
    let s = t.session().unwrap();
    assert!(s.is_over());
    assert_eq!(s.sheet().len(), 3);
    assert_eq!(s.totals().iter().sum::<i64>(), 0);
}

#[tokio::test]
async fn five_at_the_table_a_forced_solo_never_falls_on_the_dealer_who_sits_out() {
    use doko_bot::table::{Ctx, Table};
    use doko_engine::Player;
    let ps = people(5, Platform::DISCORD);
    let mut t = Table::default();
    let mut seed = || 5u64;
    let mut ctx = Ctx { seed: &mut seed, new_records: Vec::new(), discard: false, now_ms: 0, via: None };
    for p in &ps {
        t.apply(p, &Command::Join, &mut ctx).unwrap();
    }
    let games = Command::Rules(RulesCmd::Set { key: "games_per_session".into(), value: "1".into() });
    t.apply(&ps[0], &games, &mut ctx).unwrap();
    t.apply(&ps[0], &Command::Start, &mut ctx).unwrap();
    // pretend the session's deals are done and only the dealer owes a solo
    // (edited in the stored form: a session changes only by its checked steps)
    let mut stored = serde_json::to_value(&t).unwrap();
    let s = &mut stored["session"];
    s["deal"] = serde_json::Value::Null;
    s["deals"] = 1.into();
    let dealer = Player::new(s["dealer"].as_u64().unwrap() as usize);
    let mut duty_left = vec![0; 5];
    duty_left[dealer.index()] = 1;
    s["duty_left"] = duty_left.into();
    let mut t: Table = serde_json::from_value(stored).unwrap();
    t.apply(&ps[0], &Command::Start, &mut ctx).unwrap();
    let s = t.session().unwrap();
    let deal = s.deal().expect("a forced deal");
    assert_eq!(deal.forced(), Some(dealer));
    assert!(deal.seats().contains(&dealer), "the forced player plays: {:?}", deal.seats());
    assert_ne!(s.dealer(), dealer, "someone else deals and sits out");
}

/// Lets the person to act act once; Anna plays a random legal card
/// whenever she has a card to play (the others choose as the basic player
/// does). Returns false when no person is to act.
async fn act_anna_random<S: Store>(svc: &Service<S>, ch: &ChannelId, ps: &[Actor], rng: &mut doko_engine::Rng) -> bool {
    let (t, _) = svc.table(ch).await.unwrap();
    let Ok(Some(g)) = t.game() else { return false };
    let Some(seat) = g.mandatory_announcement().or(g.to_act()) else { return false };
    let legal = g.legal_cards(seat);
    let anna = t.table_seat(seat).is_some_and(|ts| t.seat_of(&ps[0].user) == Some(ts));
    if anna && !legal.is_empty() {
        let c = legal.nth(rng.below(legal.len())).unwrap();
        let m = svc.execute(ch, &ps[0], Command::Play(c)).await.unwrap().messages();
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
        return true;
    }
    act_once(svc, ch, ps).await
}

#[tokio::test]
async fn analysis_tells_a_player_privately_which_cards_cost_points() {
    let svc = Service::new(MemoryStore::default(), 41);
    let ch = ChannelId::new(Platform::DISCORD, "analysis");
    let ps = people(3, Platform::DISCORD);
    let (anna, ben, cleo) = (&ps[0], &ps[1], &ps[2]);
    let seated = &ps[..2];
    for p in seated {
        assert!(say(&svc, &ch, p, "join").await.iter().all(|m| m.kind != Kind::Error));
    }
    // the two searching kinds take seats like any computer
    for level in ["addbot expert", "addbot uct"] {
        let m = say(&svc, &ch, anna, level).await;
        assert!(m.iter().all(|m| m.kind != Kind::Error), "{m:?}");
    }
    say(&svc, &ch, anna, "rules set games_per_session 2").await;
    say(&svc, &ch, anna, "rules set compulsory_solos 0").await;
    let none = doko_bot::render::error(doko_bot::Lang::En, &doko_bot::CommandError::NoAnalysis(0));
    // before any deal there is nothing to analyse
    let m = say(&svc, &ch, anna, "analysis").await;
    assert!(m.len() == 1 && m[0].kind == Kind::Error && m[0].text == none, "{m:?}");
    say(&svc, &ch, anna, "start").await;
    let mut rng = doko_engine::Rng::new(5);
    for _ in 0..2000 {
        if !act_anna_random(&svc, &ch, seated, &mut rng).await {
            break;
        }
    }
    let (t, _) = svc.table(&ch).await.unwrap();
    assert!(t.session().unwrap().is_over());
    let records = t.records();
    assert!(records >= 2, "{records} records");
    // Anna asks about her last deal, then about each deal by number
    let mut findings = 0;
    for (text, n) in
        [("analysis".to_string(), records)].into_iter().chain((1..=records).map(|n| (format!("analyse {n}"), n)))
    {
        let m = say(&svc, &ch, anna, &text).await;
        assert_eq!(m.len(), 1, "{m:?}");
        let a = &m[0];
        assert_eq!((a.kind, &a.to), (Kind::Record, &Audience::Private(anna.user.clone())), "{a:?}");
        assert!(a.text.starts_with(&format!("Analysis of deal {n}")), "{}", a.text);
        // the same question, the same answer
        assert_eq!(say(&svc, &ch, anna, &text).await[0].text, a.text);
        // it names only cards Anna held in that deal: no other hand shows
        let (_, seat) = t.analysable(&anna.user, Some(n)).unwrap();
        let stored = svc.store().record(&ch, n).await.unwrap().unwrap();
        let rec = Record::from_stored(&stored).unwrap();
        let hers = rec.hands[seat.index()];
        for c in cards_in(&a.text) {
            assert!(hers.contains(c), "{c} is not Anna's in deal {n}: {}", a.text);
        }
        findings += a.text.matches(" instead of ").count();
        // a card, an announcement, the bid or a poverty answer
        for line in a.text.lines().skip(1) {
            let what = ["trick ", "reservation: ", "poverty: "].iter().any(|w| line.starts_with(w));
            assert!(what && line.contains(" cost about "), "{line}");
            // why the better choice, as the coach says it: a card's role,
            // another decision's chance in the simulated deals
            let why = line.rsplit_once(" points (").map(|(_, w)| w.trim_end_matches(')'));
            let why = why.unwrap_or_else(|| panic!("no reason: {line}"));
            if line.starts_with("trick ") && line.contains(" instead of ") {
                assert!(ROLES.contains(&why), "{line}");
            } else {
                assert!(why.starts_with("your side won with it in ") && why.ends_with(" simulated deals"), "{line}");
            }
        }
    }
    // random cards over two deals: at least one clearly cost points
    assert!(findings >= 1, "no finding for random play");
    // Ben's analysis is his own
    let m = say(&svc, &ch, ben, "analysis 1").await;
    assert!(m.len() == 1 && m[0].to == Audience::Private(ben.user.clone()), "{m:?}");
    assert!(m[0].text.starts_with("Analysis of deal 1"), "{}", m[0].text);
    // someone who did not play, and a deal that is not there
    let m = say(&svc, &ch, cleo, "analysis").await;
    assert!(m.len() == 1 && m[0].kind == Kind::Error && m[0].text == none, "{m:?}");
    assert_eq!(m[0].to, Audience::Private(cleo.user.clone()));
    let m = say(&svc, &ch, anna, "analysis 9").await;
    assert!(m.len() == 1 && m[0].kind == Kind::Error && m[0].text.contains("you did not play deal 9"), "{m:?}");
    let m = say(&svc, &ch, anna, "analysis nine").await;
    assert!(m.len() == 1 && m[0].kind == Kind::Error, "{m:?}");
}
