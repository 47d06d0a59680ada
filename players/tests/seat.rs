//! The seat protocol's events: at every step of random deals under many
//! house rules, what the event lines told each seat agrees with the seat's
//! view (the check `doko seat --strict` makes), and a program that keeps
//! state from the events alone knows its hand, the plays and calls in
//! order, the tricks, bids, contract and parties.

use doko_engine::{Action, Bid, Game, Phase, Rng, Rules, Seat, SeatView};
use doko_players::seat::{Tracker, end_line, events};
use proptest::prelude::*;

/// House rules that reach every kind of event: poverty (and its
/// exchange), weddings, solos, piglets said in play, Genscher, Schwarze
/// Sau, compulsory announcements.
const VARIANTS: &[&[(&str, &str)]] = &[
    &[],
    &[("poverty", "on"), ("poverty_max_trumps", "5")],
    &[
        ("piglets", "on"),
        ("superpiglets", "on"),
        ("piglets_when", "play"),
        ("piglets_announce", "on"),
        ("half_chicken", "on"),
    ],
    &[("genscher", "on")],
    &[("poverty", "on"), ("black_sow", "on"), ("poverty_max_trumps", "5")],
    &[("mandatory_announcement", "30"), ("wedding", "first-trump")],
    &[("throw_in_nines", "5"), ("nines", "off")],
];

fn rules(v: usize) -> Rules {
    let mut r = Rules::default();
    for (k, val) in VARIANTS[v] {
        r.set(k, val).expect("a house rule");
    }
    r
}

/// A random legal step: reservations one time in three, calls now and
/// then, anything legal otherwise.
fn step(g: &Game, rng: &mut Rng) -> Option<(Seat, Action)> {
    if let Some(m) = g.mandatory_announcement() {
        let v = g.legal_actions(m);
        return Some((m, v[rng.below(v.len())]));
    }
    let s = g.to_act()?;
    let legal = g.legal_actions(s);
    if legal.is_empty() {
        return None;
    }
    if g.phase() == Phase::Bidding && rng.below(3) != 0 {
        return Some((s, Action::Bid(Bid::Healthy)));
    }
    let cards: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Play(_))).collect();
    if !cards.is_empty() && rng.below(8) != 0 {
        return Some((s, cards[rng.below(cards.len())]));
    }
    Some((s, legal[rng.below(legal.len())]))
}

fn feed(t: &mut Tracker, lines: &[String]) -> Result<(), TestCaseError> {
    for l in lines {
        prop_assert!(!l.contains('\n'), "an event is one line: {l:?}");
        t.apply(l).map_err(|e| TestCaseError::fail(format!("event {l:?} does not read: {e}")))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn events_tell_each_seat_what_its_view_shows(v in 0..VARIANTS.len(), seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let dealer = Seat::new(rng.below(4));
        let mut g = Game::deal(rules(v), dealer, rng.next_u64());
        let mut trackers: Vec<Tracker> = Seat::ALL.iter().map(|s| Tracker::new(*s)).collect();
        let mut last: Vec<Option<SeatView>> = vec![None; 4];
        let mut steps = 0;
        loop {
            for s in Seat::ALL {
                let view = g.view(s);
                let lines = events(last[s.index()].as_ref(), &view);
                feed(&mut trackers[s.index()], &lines)?;
                if let Err(e) = trackers[s.index()].check(&view) {
                    prop_assert!(false, "seat {s} after step {steps}: {e}\nevents: {lines:?}");
                }
                // nothing new: no event
                prop_assert!(events(Some(&view), &view).is_empty(), "events without a change: {:?}", events(Some(&view), &view));
                last[s.index()] = Some(view);
            }
            let Some((s, a)) = step(&g, &mut rng) else { break };
            g.act(s, a).expect("a legal action");
            steps += 1;
            prop_assert!(steps < 300);
        }
        let score = g.score();
        let end = end_line(g.phase(), score.as_ref());
        match &score {
            Some(sc) => prop_assert_eq!(end, format!("end {} {} {} {}", sc.scores[0], sc.scores[1], sc.scores[2], sc.scores[3])),
            None => prop_assert!(end.starts_with("end redeal ") || end == "end aborted"),
        }
    }
}

#[test]
fn a_seat_is_told_only_its_own_hand() {
    let mut g = Game::deal(Rules::default(), Seat::new(0), 5);
    for s in g.forehand().clockwise() {
        g.act(s, Action::Bid(Bid::Healthy)).unwrap();
    }
    for s in Seat::ALL {
        let lines = events(None, &g.view(s));
        let hands: Vec<&String> = lines.iter().filter(|l| l.starts_with("hand ")).collect();
        assert_eq!(hands.len(), 1, "{lines:?}");
        let own: Vec<String> = g.hand(s).iter().map(|c| c.to_string()).collect();
        assert_eq!(hands[0], &format!("hand {}", own.join(",")));
        for o in Seat::ALL.into_iter().filter(|o| *o != s) {
            // no line names another seat's unplayed cards
            let other: Vec<String> = g.hand(o).iter().map(|c| c.to_string()).collect();
            assert_ne!(hands[0], &format!("hand {}", other.join(",")));
        }
    }
}
