//! Properties 1 and 2: a deal's cards and card points, and its score.

use doko_engine::{Bid, Cards, Game, Party, Phase, RedealReason, Reservation, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::driver::{TestResult, add, played};

pub fn check_cards_and_points(g: &Game) -> TestResult {
    let rules = g.rules();
    let n = rules.hand_size();
    let pack = Cards::pack(rules.nines);
    let mut all = Cards::EMPTY;
    for s in Seat::ALL {
        prop_assert_eq!(g.dealt()[s.index()].len(), n, "dealt hand of seat {}", s);
        all = all.checked_add(g.dealt()[s.index()]).ok_or_else(|| TestCaseError::fail("a card dealt three times"))?;
    }
    prop_assert_eq!(all, pack, "the deal is not one pack");
    // at any time: hands + played cards (+ poverty cards on the table) are the pack
    let mut now = Cards::EMPTY;
    for s in Seat::ALL {
        now = add(now, g.hand(s));
    }
    for (_, c) in played(g) {
        let mut one = Cards::EMPTY;
        one.insert(c);
        now = add(now, one);
    }
    if matches!(g.phase(), Phase::PovertyOffer | Phase::Redeal(RedealReason::PovertyDeclined)) {
        // put down by the pauper, not taken by anyone
        now = add(now, g.poverty().expect("poverty").given);
    }
    prop_assert_eq!(now, pack, "cards appeared or vanished");
    match g.phase() {
        Phase::Finished => {
            prop_assert_eq!(g.tricks().len(), n);
            prop_assert!(Seat::ALL.iter().all(|s| g.hand(*s).is_empty()));
            let sum: u32 = g.tricks().iter().map(|t| t.points()).sum();
            prop_assert_eq!(sum, 240);
            for t in g.tricks() {
                prop_assert_eq!(t.points(), t.cards.iter().map(|c| c.points() as u32).sum::<u32>());
            }
            let sc = g.score().expect("a finished deal has a score");
            prop_assert_eq!(sc.card_points[0] + sc.card_points[1], 240);
            prop_assert_eq!((sc.tricks_won[0] + sc.tricks_won[1]) as usize, n);
            for p in [Party::Re, Party::Kontra] {
                let pts: u32 = g.tricks().iter().filter(|t| g.party(t.winner) == p).map(|t| t.points()).sum();
                prop_assert_eq!(sc.card_points[p.index()], pts, "card points of {}", p);
            }
        }
        Phase::Redeal(why) => {
            prop_assert!(g.score().is_none());
            prop_assert!(g.tricks().is_empty());
            // the declarer is the seat that threw in or declared the
            // poverty (as the record says, record-format.md)
            let wanted = match why {
                RedealReason::ThrowIn => Bid::Reserve(Reservation::ThrowIn),
                RedealReason::PovertyDeclined => Bid::Reserve(Reservation::Poverty),
            };
            let declarer = g.declarer().map(|d| g.bids()[d.index()]);
            prop_assert_eq!(declarer, Some(Some(wanted)), "the redeal's declarer: {:?}", g.bids());
        }
        _ => prop_assert!(g.score().is_none()),
    }
    Ok(())
}

pub fn check_score(g: &Game) -> TestResult {
    let Some(sc) = g.score() else { return Ok(()) };
    prop_assert_eq!(sc.scores.iter().sum::<i32>(), 0, "scores {:?}", sc.scores);
    let re = g.members(Party::Re);
    let kontra = g.members(Party::Kontra);
    prop_assert_eq!(re.len() + kontra.len(), 4);
    prop_assert!(!re.is_empty() && !kontra.is_empty(), "a party without members");
    if re.len() == 1 || kontra.len() == 1 {
        let (lone, others) = if re.len() == 1 { (re[0], &kontra) } else { (kontra[0], &re) };
        for o in others.iter() {
            prop_assert_eq!(sc.scores[lone.index()], -3 * sc.scores[o.index()], "1-vs-3: {:?}", sc.scores);
        }
    } else {
        prop_assert_eq!(re.len(), 2);
        prop_assert_eq!(sc.scores[re[0].index()], sc.scores[re[1].index()]);
        prop_assert_eq!(sc.scores[kontra[0].index()], sc.scores[kontra[1].index()]);
    }
    let persp = sc.winner.unwrap_or(Party::Re);
    let signed: i32 =
        sc.breakdown.items().iter().map(|it| if it.party == persp { it.points } else { -it.points }).sum();
    prop_assert_eq!(sc.game_value, signed, "game value vs breakdown {:?}", sc.breakdown.items());
    for it in sc.breakdown.items() {
        prop_assert!(it.points > 0, "item without points: {:?}", it);
    }
    for s in Seat::ALL {
        let p = g.party(s);
        let sign = if p == persp { 1 } else { -1 };
        let factor = if g.members(p).len() == 1 { 3 } else { 1 };
        prop_assert_eq!(sc.scores[s.index()], sign * factor * sc.game_value, "seat {}", s);
    }
    if let Some(w) = sc.winner {
        prop_assert!(sc.breakdown.items().iter().any(|it| it.party == w), "a winner without an item");
    }
    if g.levels() == [None, None] {
        // without announcements there is always a winner: Re with 121
        let w = if sc.card_points[0] > 120 { Party::Re } else { Party::Kontra };
        prop_assert_eq!(sc.winner, Some(w), "card points {:?}", sc.card_points);
    }
    if g.is_solo() {
        prop_assert!(
            sc.breakdown.items().iter().all(|it| !it.reason.is_extra()),
            "extra points in a 1-vs-3 game: {:?}",
            sc.breakdown.items()
        );
    }
    Ok(())
}
