//! `black_sow`: a poverty nobody takes is played, and the taker of the
//! second queen of spades chooses a solo.

use doko_engine::{
    Action, ActionError, Bid, Call, Cards, Contract, Game, Party, Reason, Record, Reservation, Rng, Rules, Seat,
    SoloKind,
};

use crate::{H, bid_all, cards, play_out, rules, solo};

/// A deal for the Schwarze Sau, dealer 3: seat 0 (forehand) holds three
/// trumps and may declare poverty; seats 1 and 2 hold a queen of spades
/// each.
fn sow_hands() -> [Cards; 4] {
    [
        cards("D9 D9 DK CA CA C10 C10 CK CK SA SA HA"),
        cards("CQ CQ SQ HQ HQ DQ CJ SJ HJ H10 C9 C9"),
        cards("SQ DQ CJ SJ HJ DJ DJ DA DA D10 S10 S10"),
        cards("H10 D10 DK S9 S9 SK SK HA HK HK H9 H9"),
    ]
}

/// The sow deal up to its start: seat 0 declares poverty and puts its
/// three trumps down, the other three decline.
fn sow_declined(sets: &[(&str, &str)]) -> Game {
    let mut g = Game::new(rules(sets), Seat::new(3), sow_hands()).unwrap();
    bid_all(&mut g, [Bid::Reserve(Reservation::Poverty), H, H, H]);
    g.act(Seat::new(0), Action::Give(cards("D9 D9 DK"))).unwrap();
    for s in 1..4 {
        g.act(Seat::new(s), Action::Answer(false)).unwrap();
    }
    g
}

fn play_cards(g: &mut Game, plays: &[(usize, &str)]) {
    for (s, c) in plays {
        g.act(Seat::new(*s), Action::Play(c.parse().unwrap())).unwrap_or_else(|e| panic!("{s} {c}: {e}"));
    }
}

/// `black_sow`: a poverty nobody takes is played; everyone for themselves
/// until the second queen of spades falls; its trick's taker (here not
/// the one who played it) chooses a solo, played from the next trick on
/// and scored with every trick so far. Without the key the same deal is
/// dealt again; an accepted poverty plays the same with or without it.
#[test]
fn black_sow_plays_a_declined_poverty() {
    use doko_engine::{Phase, RedealReason};
    let (s0, s1, s2, s3) = (Seat::new(0), Seat::new(1), Seat::new(2), Seat::new(3));
    // without the key: dealt again
    let off = sow_declined(&[("poverty", "on")]);
    assert_eq!(off.phase(), Phase::Redeal(RedealReason::PovertyDeclined));

    let sets = [("poverty", "on"), ("black_sow", "on")];
    let mut g = sow_declined(&sets);
    assert_eq!(g.phase(), Phase::Playing);
    assert_eq!(g.contract(), Contract::BlackSow(None));
    assert_eq!(g.declarer(), None);
    assert_eq!(g.hand(s0), sow_hands()[0], "the pauper takes the cards back");
    assert_eq!(g.to_act(), Some(s0));
    // nobody announces before the solo is chosen; the view shows no party
    assert_eq!(g.act(s1, Action::Announce(Call::Re)), Err(ActionError::BeforeSowSolo { seat: s1 }));
    assert_eq!(g.act(s1, Action::Announce(Call::Kontra)), Err(ActionError::BeforeSowSolo { seat: s1 }));
    // trick 1: the first queen of spades; seat 2 takes it, nothing else happens
    play_cards(&mut g, &[(0, "CA"), (1, "C9"), (2, "SQ"), (3, "H9")]);
    assert_eq!((g.phase(), g.contract(), g.to_act()), (Phase::Playing, Contract::BlackSow(None), Some(s2)));
    assert!(g.public_view().parties.iter().all(Option::is_none), "{:?}", g.public_view().parties);
    // trick 2: seat 1 plays the second queen of spades, seat 3's dulle takes it
    play_cards(&mut g, &[(2, "DJ"), (3, "H10"), (0, "D9"), (1, "SQ")]);
    assert_eq!(g.tricks()[1].winner, s3);
    assert_eq!((g.phase(), g.to_act(), g.declarer()), (Phase::SowChoice, Some(s3), Some(s3)));
    // the taker must choose one of the allowed solos, nothing else
    let solos: Vec<Bid> = Rules::default().solos.iter().map(|k| solo(k, false)).collect();
    assert_eq!(g.legal_bids(s3), solos);
    assert_eq!(g.legal_actions(s3), solos.iter().map(|b| Action::Bid(*b)).collect::<Vec<_>>());
    assert!(g.legal_actions(s0).is_empty());
    assert_eq!(g.act(s3, Action::Bid(H)), Err(ActionError::MustChooseSolo { seat: s3 }));
    assert_eq!(
        g.act(s3, Action::Bid(Bid::Reserve(Reservation::Wedding(None)))),
        Err(ActionError::MustChooseSolo { seat: s3 })
    );
    assert_eq!(g.act(s3, Action::Bid(solo(SoloKind::Spades, true))), Err(ActionError::MustChooseSolo { seat: s3 }));
    assert_eq!(
        g.act(s3, Action::Bid(solo(SoloKind::Kings, false))),
        Err(ActionError::SoloNotAllowed { seat: s3, kind: SoloKind::Kings })
    );
    assert_eq!(
        g.act(s0, Action::Bid(solo(SoloKind::Spades, false))),
        Err(ActionError::NotYourTurn { seat: s0, turn: s3 })
    );
    assert!(matches!(g.act(s3, Action::Play("SK".parse().unwrap())), Err(ActionError::WrongPhase { .. })));
    g.act(s3, Action::Bid(solo(SoloKind::Spades, false))).unwrap();
    assert_eq!(
        (g.phase(), g.contract(), g.to_act()),
        (Phase::Playing, Contract::BlackSow(Some(SoloKind::Spades)), Some(s3))
    );
    assert_eq!(g.members(Party::Re), vec![s3]);
    // the spades solo's order from now on: the spades king is a trump
    assert!(g.order().is_trump("SK".parse().unwrap()) && !g.order().is_trump("DK".parse().unwrap()));
    assert!(g.public_view().parties.iter().all(Option::is_some));
    play_out(&mut g);
    let score = g.score().unwrap();
    assert!(g.is_solo());
    let taken = |p: Party| -> u32 { g.tricks().iter().filter(|t| g.party(t.winner) == p).map(|t| t.points()).sum() };
    // trick 1 (seat 2's) counts for the three, trick 2 for the soloist
    assert_eq!(score.card_points, [taken(Party::Re), taken(Party::Kontra)]);
    assert!(score.card_points[1] >= g.tricks()[0].points());
    assert_eq!(score.scores.iter().sum::<i32>(), 0);
    assert_eq!(score.scores[3], -3 * score.scores[0]);
    assert_eq!(score.scores[0], score.scores[1]);
    assert!(
        score.breakdown.items().iter().all(|i| !matches!(i.reason, Reason::Fox | Reason::Charlie | Reason::Doppelkopf))
    );
    // the record carries the choice after the trick and replays the same
    let text = Record::from_game(&g).to_json();
    assert!(
        text.contains(
            r#"{"seat":1,"play":"SQ"},
    {"seat":3,"bid":"solo-spades"},"#
        ),
        "{text}"
    );
    let again = Record::from_json(&text).unwrap().replay().unwrap();
    assert_eq!(again, g);
    // solo_double doubles the Schwarze Sau's solo
    let mut doubled = Record::from_json(&text).unwrap();
    doubled.rules.solo_double = true;
    let d = doubled.replay().unwrap().score().unwrap();
    assert_eq!(d.scores, score.scores.map(|x| 2 * x));

    // an accepted poverty plays the same with or without the key
    let take = |sets: &[(&str, &str)]| {
        let mut g = Game::new(rules(sets), Seat::new(3), sow_hands()).unwrap();
        bid_all(&mut g, [Bid::Reserve(Reservation::Poverty), H, H, H]);
        g.act(s0, Action::Give(cards("D9 D9 DK"))).unwrap();
        g.act(s1, Action::Answer(true)).unwrap();
        g.act(s1, Action::Return(cards("C9 C9 HQ"))).unwrap();
        play_out(&mut g);
        (g.contract(), g.score().unwrap())
    };
    assert_eq!(take(&[("poverty", "on")]), take(&sets));
    assert_eq!(take(&sets).0, Contract::Poverty);
}

/// Schwarze Sau without allowed solos (or in the last trick): the taker of
/// the second queen of spades plays on alone in the normal order, scored
/// as a solo; nobody is asked to choose.
#[test]
fn black_sow_without_solos_plays_on_alone() {
    use doko_engine::Phase;
    let mut g = sow_declined(&[("poverty", "on"), ("black_sow", "on"), ("solos", "none")]);
    play_cards(&mut g, &[(0, "CA"), (1, "C9"), (2, "SQ"), (3, "H9"), (2, "DJ"), (3, "H10"), (0, "D9"), (1, "SQ")]);
    assert_eq!((g.phase(), g.contract(), g.declarer()), (Phase::Playing, Contract::BlackSow(None), Some(Seat::new(3))));
    assert!(g.is_clarified());
    // announcements are open to the soloist now (the deadlines moved by the tricks played)
    assert!(g.legal_calls(Seat::new(3)).contains(&Call::Re));
    play_out(&mut g);
    let score = g.score().unwrap();
    assert_eq!(g.members(Party::Re), vec![Seat::new(3)]);
    assert_eq!(score.scores[3], -3 * score.scores[0]);
    let text = Record::from_game(&g).to_json();
    assert!(!text.contains("solo-"), "{text}");
    assert_eq!(Record::from_json(&text).unwrap().replay().unwrap(), g);
}

/// Random deals with the key: every poverty nobody takes becomes a
/// Schwarze Sau whose soloist is the taker of the second queen of spades;
/// random legal play to the end; each is scored as a solo and replays
/// from its record.
#[test]
fn black_sow_in_random_deals() {
    use doko_engine::Card;
    let r = rules(&[("poverty", "on"), ("black_sow", "on"), ("poverty_max_trumps", "5")]);
    let mut rng = Rng::new(7);
    let (mut sows, mut chosen) = (0, 0);
    for seed in 0..2_000u64 {
        let mut g = Game::deal(r, Seat::new((seed % 4) as usize), seed);
        let poverty = Bid::Reserve(Reservation::Poverty);
        while let Some(s) = g.to_act().filter(|_| g.phase() == doko_engine::Phase::Bidding) {
            let b = if g.legal_bids(s).contains(&poverty) { poverty } else { H };
            g.act(s, Action::Bid(b)).unwrap();
        }
        if g.contract() != Contract::Poverty {
            continue;
        }
        while let Some(s) = g.to_act() {
            let a = match g.legal_actions(s).as_slice() {
                [.., Action::Answer(false)] => Action::Answer(false),
                acts => acts[rng.below(acts.len())],
            };
            g.act(s, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        }
        let Contract::BlackSow(kind) = g.contract() else { panic!("{:?}", g.contract()) };
        sows += 1;
        chosen += usize::from(kind.is_some());
        let mut fallen = 0;
        let second = g.tricks().iter().position(|t| {
            fallen += t.cards.iter().filter(|c| **c == Card::SQ).count();
            fallen == 2
        });
        let taker = g.tricks()[second.expect("both queens of spades fall")].winner;
        assert_eq!(g.declarer(), Some(taker));
        assert_eq!(g.members(Party::Re), vec![taker]);
        assert!(g.is_solo());
        let score = g.score().unwrap();
        assert_eq!(score.scores.iter().sum::<i32>(), 0);
        assert_eq!(score.card_points[0] + score.card_points[1], 240);
        let text = Record::from_game(&g).to_json();
        assert_eq!(Record::from_json(&text).unwrap().replay().unwrap(), g, "{text}");
    }
    assert!(sows >= 20 && chosen >= 10, "{sows} sows, {chosen} with a chosen solo");
}
