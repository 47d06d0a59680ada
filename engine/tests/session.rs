//! Property tests of sessions over random play.
//!
//! A session is played to its end by random legal actions (healthy most of
//! the time, now and then a random reservation or solo, random cards and
//! announcements), every bid passed through [`Session::computer_bid`]. A
//! proptest case is a `(players, variant, seed)` triple that reproduces the
//! session exactly.
//!
//! 1. `every_deal_and_every_session_sums_to_zero`
//! 2. `every_owed_compulsory_solo_is_played`
//! 3. `a_ddv_list_of_four_is_24_deals_with_4_compulsory_solos`
//! 4. `five_players_deal_in_turn_and_the_dealer_sits_out`
//! 5. `bock_doubles_exactly_the_triggered_deals`
//!
//! and checked steps: refused steps leave the session unchanged.

use doko_engine::{
    Action, Bid, DealStart, Game, NextDeal, Outcome, Party, Phase, Player, Preset, Reservation, Rng, Rules, Scored,
    Seat, Session, SessionError,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

type TestResult = Result<(), TestCaseError>;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// What happened in one session.
struct Played {
    session: Session,
    rules: Rules,
    /// Every deal as dealt, with how it ended.
    deals: Vec<(DealStart, Ending)>,
}

enum Ending {
    Scored(Box<Scored>),
    Redeal,
}

fn rules(variant: usize) -> Rules {
    let mut r = Rules::preset(if variant.is_multiple_of(2) { Preset::Ddv } else { Preset::Casual });
    match variant {
        0 => {}
        1 => {
            r.set("compulsory_solos", "1").unwrap();
            r.set("poverty_max_trumps", "5").unwrap();
        }
        2 => r.set("bock", "on").unwrap(),
        3 => {
            r.set("bock", "on").unwrap();
            r.set("compulsory_solos", "2").unwrap();
            r.set("games_per_session", "12").unwrap();
        }
        4 => r.set("games_per_session", "8").unwrap(),
        _ => {
            r.set("games_per_session", "3").unwrap();
            r.set("compulsory_solos", "1").unwrap();
        }
    }
    r
}

const VARIANTS: usize = 6;

/// One random action for the seat to act, made to fit the session.
fn random_action(s: &Session, g: &Game, seat: Seat, rng: &mut Rng) -> Action {
    match g.phase() {
        Phase::Bidding => {
            // now and then a solo, more often another reservation when the hand allows one
            let (solos, others): (Vec<Bid>, Vec<Bid>) = g
                .legal_bids(seat)
                .into_iter()
                .filter(|b| *b != Bid::Healthy)
                .partition(|b| matches!(b, Bid::Reserve(Reservation::Solo { .. })));
            let bid = match rng.below(12) {
                0 if !solos.is_empty() => solos[rng.below(solos.len())],
                1..=3 if !others.is_empty() => others[rng.below(others.len())],
                _ => Bid::Healthy,
            };
            Action::Bid(s.computer_bid(seat, bid))
        }
        Phase::Playing => {
            let cards = g.legal_cards(seat);
            let calls = g.legal_calls(seat);
            if cards.is_empty() || (!calls.is_empty() && rng.below(24) == 0) {
                Action::Announce(calls[rng.below(calls.len())])
            } else {
                Action::Play(cards.nth(rng.below(cards.len())).expect("in range"))
            }
        }
        _ => {
            let acts = g.legal_actions(seat);
            acts[rng.below(acts.len())]
        }
    }
}

/// Plays a whole session of `players` under `rules` (open-ended lists stop
/// after `cap` deals).
fn play(players: usize, rules: Rules, seed: u64, cap: usize) -> Played {
    let mut rng = Rng::new(seed);
    let mut s = Session::new(players, &rules).unwrap();
    let mut deals = Vec::new();
    while deals.len() < cap {
        let start = match s.next_deal(&rules, || rng.next_u64()).unwrap() {
            NextDeal::Over => break,
            NextDeal::Dealt(d) => d,
        };
        assert_eq!(s.next_deal(&rules, || 0), Err(SessionError::DealRunning));
        while let Some(g) = s.game() {
            let Some(seat) = g.mandatory_announcement().or(g.to_act()) else { break };
            let a = random_action(&s, g, seat, &mut rng);
            s.act(seat, a).unwrap();
        }
        let ending = match s.finish(deals.len() as u32 + 1).unwrap() {
            Outcome::Scored(sc) => Ending::Scored(sc),
            Outcome::Redeal(_) => Ending::Redeal,
        };
        deals.push((start, ending));
    }
    Played { session: s, rules, deals }
}

fn scored(p: &Played) -> impl Iterator<Item = &Scored> {
    p.deals.iter().filter_map(|(_, e)| match e {
        Ending::Scored(s) => Some(&**s),
        Ending::Redeal => None,
    })
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn every_deal_and_every_session_sums_to_zero(players in 4usize..=5, variant in 0..VARIANTS, seed: u64) {
        let p = play(players, rules(variant), seed, 40);
        let s = &p.session;
        let mut totals = vec![0i64; players];
        for row in s.sheet() {
            prop_assert_eq!(row.scores.iter().sum::<i64>(), 0, "deal {}", row.deal);
            for (t, v) in totals.iter_mut().zip(&row.scores) {
                *t += v;
            }
        }
        prop_assert_eq!(s.totals().iter().sum::<i64>(), 0);
        prop_assert_eq!(totals.as_slice(), s.totals().as_slice());
        // the sheet is the scored deals, numbered from 1, scored as the games say
        prop_assert_eq!(s.sheet().len() as u32, s.deals());
        for (i, (row, sc)) in s.sheet().iter().zip(scored(&p)).enumerate() {
            prop_assert_eq!(row.deal as usize, i + 1);
            prop_assert_eq!(row, &sc.row);
            let factor = if row.bock { 2 } else { 1 };
            for seat in Seat::ALL {
                prop_assert_eq!(row.scores[sc.deal.player(seat)], i64::from(sc.score.scores[seat.index()]) * factor);
            }
            if players == 5 {
                let out: Vec<Player> = Player::all(5).filter(|q| sc.deal.seat_of(*q).is_none()).collect();
                prop_assert_eq!(out.len(), 1);
                prop_assert_eq!(row.scores[out[0]], 0, "the one sitting out scores nothing");
            }
        }
    }

    #[test]
    fn every_owed_compulsory_solo_is_played(players in 4usize..=5, variant in 0..VARIANTS, seed: u64) {
        let r = rules(variant);
        prop_assume!(r.games_per_session > 0);
        let p = play(players, r, seed, 1000);
        let s = &p.session;
        prop_assert!(s.is_over(), "a list with a length ends");
        prop_assert!(s.duty_left().iter().all(|d| *d == 0), "{:?}", s.duty_left());
        let compulsory = scored(&p).filter(|sc| sc.compulsory).count();
        prop_assert_eq!(compulsory, players * usize::from(p.rules.compulsory_solos));
        // the list: its length, or longer only when more solos are owed than it has deals
        let owed = players as u32 * u32::from(p.rules.compulsory_solos);
        prop_assert_eq!(s.deals(), u32::from(p.rules.games_per_session).max(owed));
        // a forced deal: the forced player declares a compulsory solo, the others say healthy
        for (start, ending) in &p.deals {
            let (Some(f), Ending::Scored(sc)) = (start.forced, ending) else { continue };
            let g = sc.deal.game();
            let seat = sc.deal.seat_of(f).expect("the forced player plays");
            prop_assert_eq!(g.declarer(), Some(seat));
            prop_assert!(sc.compulsory);
            for other in Seat::ALL.into_iter().filter(|x| *x != seat) {
                prop_assert_eq!(g.bids()[other.index()], Some(Bid::Healthy));
            }
        }
    }

    #[test]
    fn a_ddv_list_of_four_is_24_deals_with_4_compulsory_solos(seed: u64) {
        let p = play(4, Rules::preset(Preset::Ddv), seed, 1000);
        let s = &p.session;
        prop_assert!(s.is_over());
        prop_assert_eq!(s.sheet().len(), 24);
        prop_assert_eq!(scored(&p).filter(|sc| sc.compulsory).count(), 4);
        // the dealer passed on 20 times: after each deal that was not a compulsory solo
        let passed = scored(&p).filter(|sc| !sc.compulsory).count();
        prop_assert_eq!(passed, 20);
        prop_assert_eq!(s.dealer(), Player::new((3 + passed) % 4));
    }

    #[test]
    fn five_players_deal_in_turn_and_the_dealer_sits_out(variant in 0..VARIANTS, seed: u64) {
        let p = play(5, rules(variant), seed, 40);
        let mut dealer = Player::new(4);
        for (start, ending) in &p.deals {
            // a forced solo never falls on the dealer: the one before deals
            if start.forced == Some(dealer) {
                dealer = dealer.prev(5);
            }
            prop_assert_eq!(start.dealer, dealer);
            prop_assert_ne!(start.forced, Some(start.dealer));
            let seats: Vec<Player> = (1..=4).map(|k| dealer.plus(k, 5)).collect();
            prop_assert_eq!(start.seats.as_slice(), seats.as_slice(), "game seat i is dealer + 1 + i");
            prop_assert!(!start.seats.contains(&dealer), "the dealer sits out");
            match ending {
                Ending::Scored(sc) if !sc.compulsory => dealer = dealer.plus(1, 5),
                _ => {} // a void deal or a compulsory solo: the same dealer deals again
            }
        }
        prop_assert_eq!(p.session.dealer(), dealer);
    }

    #[test]
    fn bock_doubles_exactly_the_triggered_deals(players in 4usize..=5, seed: u64) {
        let mut r = Rules::preset(Preset::Ddv);
        r.set("bock", "on").unwrap();
        r.set("games_per_session", "0").unwrap();
        let p = play(players, r, seed, 30);
        let mut triggered = 0;
        let mut left = 0u32;
        for (start, ending) in &p.deals {
            prop_assert_eq!(start.bock, left > 0, "a deal counts double while Bock deals are left");
            let Ending::Scored(sc) = ending else { continue };
            let g = sc.deal.game();
            let tie = sc.score.card_points == [120, 120];
            let lost = [Party::Re, Party::Kontra]
                .into_iter()
                .any(|q| g.levels()[q.index()].is_some() && sc.score.winner.is_some_and(|w| w != q));
            left = left.saturating_sub(u32::from(sc.row.bock));
            if tie || lost {
                triggered += 1;
                left += players as u32;
            }
            prop_assert_eq!(sc.bock_added, if tie || lost { players as u32 } else { 0 });
        }
        let doubled = p.session.sheet().iter().filter(|r| r.bock).count() as u32;
        prop_assert_eq!(doubled + p.session.bock_left(), triggered * players as u32);
        prop_assert_eq!(p.session.bock_left(), left);
    }

    #[test]
    fn bock_stacking_extends_or_stacks_the_rounds(players in 4usize..=5, stack: bool, seed: u64) {
        let p = play(players, bock_rules(stack), seed, 30);
        // the model: per pending Bock deal, the rounds that cover it
        let mut queue: Vec<u8> = Vec::new();
        for (start, ending) in &p.deals {
            let rounds = queue.first().copied().unwrap_or(0);
            prop_assert_eq!(start.bock_rounds, rounds);
            prop_assert_eq!(start.bock, rounds > 0);
            let Ending::Scored(sc) = ending else { continue };
            prop_assert_eq!(sc.row.bock_rounds, rounds);
            prop_assert_eq!(sc.row.factor(), 1i64 << rounds);
            for (i, s) in Seat::ALL.into_iter().enumerate() {
                let player = sc.deal.player(s);
                prop_assert_eq!(sc.row.scores[player], i64::from(sc.score.scores[i]) << rounds);
            }
            if rounds > 0 {
                queue.remove(0);
            }
            for i in 0..sc.bock_added as usize {
                if stack && i < queue.len() { queue[i] += 1 } else { queue.push(1) }
            }
        }
        prop_assert_eq!(p.session.bock_rounds(), queue.as_slice());
        if !stack {
            prop_assert!(p.session.sheet().iter().all(|r| r.bock_rounds <= 1), "extend never doubles twice");
        }
        // the pending rounds survive the store
        let back: Session = serde_json::from_str(&serde_json::to_string(&p.session).unwrap()).unwrap();
        prop_assert_eq!(back.bock_rounds(), queue.as_slice());
    }

    #[test]
    fn refused_steps_change_nothing(variant in 0..VARIANTS, seed: u64) {
        check_refusals(rules(variant), seed)?;
    }
}

fn bock_rules(stack: bool) -> Rules {
    let mut r = Rules::preset(Preset::Ddv);
    r.set("bock", "on").unwrap();
    r.set("bock_triggers", "tie lost-re lost-kontra heart-trick lost-solo").unwrap();
    r.set("bock_stacking", if stack { "stack" } else { "extend" }).unwrap();
    r.set("games_per_session", "0").unwrap();
    r
}

/// A trigger during Bock deals: stacked, the deals both rounds cover count
/// four times (Doppelbock) and the list is no longer; extended, every Bock
/// deal counts double and the Bock deals add up.
#[test]
fn doppelbock_counts_four_times_where_extend_counts_twice() {
    let mut found = 0;
    for seed in 0..400u64 {
        let stacked = play(4, bock_rules(true), seed, 16);
        let extended = play(4, bock_rules(false), seed, 16);
        let Some(row) = stacked.session.sheet().iter().find(|r| r.bock_rounds >= 2) else { continue };
        assert_eq!(row.factor(), 4 << (row.bock_rounds - 2));
        assert!(row.bock, "a Doppelbock deal is a Bock deal");
        // the same deals, extended: nothing counts more than double, and
        // more Bock deals are owed or played in all
        assert!(extended.session.sheet().iter().all(|r| r.factor() <= 2));
        let bock_deals =
            |p: &Played| p.session.sheet().iter().filter(|r| r.bock).count() as u32 + p.session.bock_left();
        assert!(bock_deals(&extended) > bock_deals(&stacked), "seed {seed}");
        found += 1;
        if found == 3 {
            return;
        }
    }
    panic!("no Doppelbock in 400 random lists ({found} found)");
}

fn check_refusals(rules: Rules, seed: u64) -> TestResult {
    let mut s = Session::new(4, &rules).unwrap();
    prop_assert_eq!(s.finish(1), Err(SessionError::NoDeal));
    prop_assert_eq!(s.abort().map(|_| ()), Err(SessionError::NoDeal));
    s.next_deal(&rules, || seed).unwrap();
    let before = s.clone();
    prop_assert_eq!(s.finish(1), Err(SessionError::NotFinished));
    prop_assert_eq!(s.end(), Err(SessionError::DealRunning));
    let g = s.game().unwrap().clone();
    let seat = g.to_act().unwrap();
    let wrong = seat.next();
    prop_assert!(matches!(s.act(wrong, Action::Bid(Bid::Healthy)), Err(SessionError::Action(_))));
    prop_assert_eq!(&s, &before);
    // the session round-trips through its stored form
    let json = serde_json::to_string(&s).unwrap();
    let back: Session = serde_json::from_str(&json).unwrap();
    prop_assert_eq!(&back, &s);
    Ok(())
}

#[test]
fn a_session_has_four_or_five_players() {
    let r = Rules::default();
    assert_eq!(Session::new(3, &r), Err(SessionError::Players(3)));
    assert_eq!(Session::new(6, &r), Err(SessionError::Players(6)));
    let s = Session::new(5, &r).unwrap();
    assert_eq!(s.players(), 5);
    assert_eq!(s.dealer(), Player::new(4), "the last player deals first");
    assert_eq!(s.duty_left().iter().copied().collect::<Vec<_>>(), vec![1; 5]);
}

#[test]
fn on_a_forced_deal_the_forced_player_bids_a_solo_and_the_others_healthy() {
    // one deal in the list and four compulsory solos owed: all four are forced
    let mut r = Rules::preset(Preset::Ddv);
    r.set("games_per_session", "1").unwrap();
    let mut s = Session::new(4, &r).unwrap();
    let NextDeal::Dealt(start) = s.next_deal(&r, || 11).unwrap() else { panic!("dealt") };
    let forced = start.forced.expect("a forced deal");
    assert_eq!(forced, Player::new(0), "the first player who owes");
    let g = s.game().unwrap().clone();
    let fseat = s.deal().unwrap().seat_of(forced).unwrap();
    let solo = g.legal_bids(fseat).into_iter().find(|b| matches!(b, Bid::Reserve(Reservation::Solo { .. }))).unwrap();
    for seat in g.forehand().clockwise() {
        if seat == fseat {
            assert_eq!(s.act(seat, Action::Bid(Bid::Healthy)), Err(SessionError::MustBidSolo { player: forced }));
            let taken = s.act(seat, Action::Bid(solo)).unwrap();
            let Action::Bid(Bid::Reserve(Reservation::Solo { duty, .. })) = taken else { panic!("a solo") };
            assert!(duty, "an owed solo is the compulsory one");
        } else {
            let p = s.deal().unwrap().player(seat);
            assert_eq!(s.act(seat, Action::Bid(solo)), Err(SessionError::OnlyForcedBids { player: p, forced }));
            s.act(seat, Action::Bid(Bid::Healthy)).unwrap();
        }
    }
    while let Some(g) = s.game() {
        let Some(seat) = g.mandatory_announcement().or(g.to_act()) else { break };
        let a = g.legal_actions(seat)[0];
        s.act(seat, a).unwrap();
    }
    let Outcome::Scored(sc) = s.finish(1).unwrap() else { panic!("scored") };
    assert!(sc.compulsory);
    assert_eq!(s.dealer(), start.dealer, "after a compulsory solo the same dealer deals again");
    assert_eq!(s.duty_left()[forced], 0);
    // the next player who owes is forced next
    let NextDeal::Dealt(d) = s.next_deal(&r, || 12).unwrap() else { panic!("dealt") };
    assert_eq!(d.forced, Some(Player::new(1)));
    assert_eq!(d.number, 2);
}

#[test]
fn random_sessions_reach_every_case_the_properties_are_about() {
    let (mut forced, mut voluntary, mut redeals, mut bock, mut shifted) = (0, 0, 0, 0, 0);
    for seed in 0u64..40 {
        let mut r = Rules::preset(if seed.is_multiple_of(3) { Preset::Casual } else { Preset::Ddv });
        r.set("bock", "on").unwrap();
        r.set("compulsory_solos", "1").unwrap();
        r.set("games_per_session", "24").unwrap();
        if seed.is_multiple_of(3) {
            r.set("poverty_max_trumps", "5").unwrap();
        }
        let players = 4 + (seed % 2) as usize;
        let p = play(players, r, seed, 1000);
        for (start, ending) in &p.deals {
            match ending {
                Ending::Redeal => redeals += 1,
                Ending::Scored(sc) if sc.compulsory && start.forced.is_none() => voluntary += 1,
                Ending::Scored(_) => {}
            }
            forced += usize::from(start.forced.is_some());
            bock += usize::from(start.bock);
        }
        // a forced solo that would have fallen on the dealer sitting out
        shifted += p.deals.windows(2).filter(|w| w[1].0.forced.is_some() && w[1].0.dealer != w[0].0.dealer).count();
    }
    assert!(
        forced > 20 && voluntary > 5 && redeals > 5 && bock > 20 && shifted > 0,
        "{forced} {voluntary} {redeals} {bock} {shifted}"
    );
}
