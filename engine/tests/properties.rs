//! Property tests of the rules engine over random games.
//!
//! Every property runs over random deals under both presets (`ddv`,
//! `casual`), with and without nines, and with several house-rule
//! variations (see [`variants`]). Games are driven by seeds: a proptest
//! case is a `(variant, seed)` pair, and the failing pair printed by
//! proptest reproduces the failure exactly (`play(&variants()[i].1, seed)`).
//!
//! 1. `finished_deals_conserve_cards_and_points`: the deal is one pack in
//!    hands of 12 (10) cards; a finished deal has 12 (10) tricks holding
//!    the whole pack and 240 card points.
//! 2. `scores_are_zero_sum_and_match_the_breakdown`: scores sum to zero, a
//!    1-vs-3 game scores the lone player -3x each opponent, `game_value` is
//!    the signed sum of the breakdown.
//! 3. `legal_actions_are_exactly_the_accepted_ones`: at every step, for
//!    every seat, each listed action is accepted and every other action of
//!    a large sample is refused without changing the game.
//! 4. `records_round_trip`: writing a game as a record (JSON or compact)
//!    and replaying it gives the same game and result.
//! 5. `views_never_leak`, `public_view_depends_only_on_public_facts`,
//!    `silent_solo_stays_hidden_until_both_queens_are_played`.
//!
//! `generators_reach_every_kind_of_deal` checks that the random drivers
//! actually produce the cases the properties are about.

// A test's root file looks for its modules beside it, not in properties/:
// each part is named by its path.
#[path = "properties/cards_and_scores.rs"]
mod cards_and_scores;
#[path = "properties/driver.rs"]
mod driver;
#[path = "properties/forms.rs"]
mod forms;
#[path = "properties/legal.rs"]
mod legal;
#[path = "properties/random_games.rs"]
mod random_games;
#[path = "properties/views.rs"]
mod views;

use doko_engine::{Action, Bid, Card, Contract, Game, Phase, RedealReason, Rng, Seat, SeenBid, random_game};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use cards_and_scores::{check_cards_and_points, check_score};
use driver::{Bids, choose, drive, n_variants, play, played, variants};
use forms::{check_record_round_trip, check_wire};
use legal::check_legal_is_accepted;
use random_games::random_game_by_the_public_calls;
use views::{check_views, same_public_facts, with_other_hidden_cards};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------
// 1. cards and card points, 2. scores
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn finished_deals_conserve_cards_and_points(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        // the library's random games and the driver's (which checks every state)
        let g = random_game(&rules, &mut Rng::new(seed));
        check_cards_and_points(&g)?;
        let g = drive(&rules, seed, Bids::Any, check_cards_and_points)?;
        prop_assert!(g.is_over());
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn scores_are_zero_sum_and_match_the_breakdown(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        check_score(&random_game(&rules, &mut Rng::new(seed)))?;
        check_score(&play(&rules, seed))?;
        check_score(&drive(&rules, seed ^ 0x5555, Bids::Healthy, |_| Ok(()))?)?;
    }
}

// ---------------------------------------------------------------------
// 3. legal == accepted
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn legal_actions_are_exactly_the_accepted_ones(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        let mut rng = Rng::new(seed.rotate_left(17));
        drive(&rules, seed, Bids::Any, |g| check_legal_is_accepted(g, &mut rng))?;
    }
}

// ---------------------------------------------------------------------
// 4. records
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn records_round_trip(v in 0..n_variants(), seed in any::<u64>(), cut in 0usize..80) {
        let rules = variants()[v].1;
        check_record_round_trip(&random_game(&rules, &mut Rng::new(seed)))?;
        let mut n = 0;
        let g = drive(&rules, seed, Bids::Any, |g| {
            // one unfinished prefix too
            if n == cut { check_record_round_trip(g)?; }
            n += 1;
            Ok(())
        })?;
        check_record_round_trip(&g)?;
    }
}

// ---------------------------------------------------------------------
// 5. views
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn views_never_leak(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        drive(&rules, seed, Bids::Any, check_views)?;
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// Two deals that differ only in cards nobody has seen look the same
    /// to the table, and to a seat whose own hand is the same.
    #[test]
    fn public_view_depends_only_on_public_facts(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        let mut rng = Rng::new(!seed);
        let bids = if seed % 3 == 0 { Bids::HandFree } else { Bids::Healthy };
        drive(&rules, seed, bids, |g| {
            if g.is_over() || rng.below(3) != 0 {
                return Ok(());
            }
            let fixed = Seat::ALL[rng.below(4)];
            for _ in 0..4 {
                let Some(h) = with_other_hidden_cards(g, fixed, &mut rng) else { continue };
                if !same_public_facts(g, &h) {
                    continue;
                }
                prop_assert_eq!(h.hand(fixed), g.hand(fixed));
                prop_assert!(
                    h.public_view() == g.public_view(),
                    "public views differ for hidden hands\n{:?}\n{:?}\nvs\n{:?}",
                    Seat::ALL.map(|s| g.hand(s)), g.public_view(), h.public_view()
                );
                let (gv, hv) = (g.view(fixed), h.view(fixed));
                prop_assert!(
                    hv == gv,
                    "{}: seat {}'s view differs for other seats' hidden hands (order {}, legal {}, party {})\n{:?}\n{:?}\nvs\n{:?}",
                    variants()[v].0, fixed, gv.order == hv.order, gv.legal == hv.legal, gv.own_party == hv.own_party,
                    Seat::ALL.map(|s| g.hand(s)), gv, hv
                );
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn silent_solo_stays_hidden_until_both_queens_are_played(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        // the first seed from here that deals both queens of clubs to one seat
        let seed = (0..1000)
            .map(|i| seed.wrapping_add(i))
            .find(|s| doko_engine::deal(*s, rules.nines).iter().any(|h| h.count(Card::CQ) == 2))
            .expect("a deal with both queens of clubs in one hand");
        let hands = doko_engine::deal(seed, rules.nines);
        let soloist = Seat::ALL.into_iter().find(|s| hands[s.index()].count(Card::CQ) == 2).unwrap();
        let mut g = Game::deal(rules, Seat::ALL[(seed % 4) as usize], seed);
        for s in g.forehand().clockwise() {
            g.act(s, Action::Bid(Bid::Healthy)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        prop_assert_eq!(g.contract(), Contract::SilentSolo);
        prop_assert_eq!(g.declarer(), Some(soloist));
        let mut rng = Rng::new(seed);
        let mut queens = 0;
        loop {
            let public = g.public_view();
            if queens < 2 {
                prop_assert_eq!(public.contract, Some(Contract::Normal), "after {} queens", queens);
                prop_assert_eq!(public.declarer, None);
                prop_assert!(public.bids.iter().all(|b| *b == Some(SeenBid::Healthy)));
                for s in Seat::ALL {
                    if s != soloist {
                        // the view of another seat does not tell either
                        prop_assert_eq!(g.view(s).public.contract, Some(Contract::Normal));
                    }
                }
            } else {
                prop_assert_eq!(public.contract, Some(Contract::SilentSolo));
                prop_assert_eq!(public.declarer, Some(soloist));
            }
            let Some((s, a)) = choose(&g, &mut rng, Bids::Healthy) else { break };
            g.act(s, a).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if s == soloist && a == Action::Play(Card::CQ) {
                queens += 1;
            }
        }
        prop_assert_eq!(queens, 2);
        check_score(&g)?;
    }
}

// ---------------------------------------------------------------------
// Coverage of the generators
// ---------------------------------------------------------------------

/// The random drivers reach every kind of deal the properties are about
/// (so that none of them holds vacuously).
#[test]
fn generators_reach_every_kind_of_deal() {
    let vs = variants();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut hit = |k: &str| *seen.entry(k.to_string()).or_default() += 1;
    let mut comparable = 0;
    for i in 0..1200u64 {
        let (_, rules) = &vs[i as usize % vs.len()];
        let g = drive(rules, i, Bids::Any, |g| {
            if g.mandatory_announcement().is_some() {
                hit("mandatory-announcement");
            }
            Ok(())
        })
        .unwrap();
        match g.phase() {
            Phase::Redeal(RedealReason::ThrowIn) => hit("redeal-throw-in"),
            Phase::Redeal(RedealReason::PovertyDeclined) => hit("redeal-poverty-declined"),
            Phase::Finished => {
                let c = g.contract();
                hit(&match c {
                    Contract::Solo(_) => "solo".to_string(),
                    other => other.name(),
                });
                if c == Contract::Wedding {
                    hit(if g.is_solo() { "wedding-alone" } else { "wedding-partner" });
                }
                let sc = g.score().unwrap();
                if sc.winner.is_none() {
                    hit("no-winner");
                }
                if !g.announcements().is_empty() {
                    hit("announcements");
                }
                if g.order().power(Card::DA) > 200 {
                    hit("piglets");
                }
            }
            other => panic!("driver stopped in {other:?}"),
        }
        let mut rng = Rng::new(i);
        let mut n = 0;
        drive(rules, i, Bids::HandFree, |g| {
            n += 1;
            if n > 8
                && !g.is_over()
                && let Some(h) = with_other_hidden_cards(g, Seat::ALL[0], &mut rng)
                && same_public_facts(g, &h)
                && h != *g
            {
                comparable += 1;
            }
            Ok(())
        })
        .unwrap();
    }
    let want = [
        "normal",
        "silent-solo",
        "wedding",
        "wedding-alone",
        "wedding-partner",
        "poverty",
        "solo",
        "redeal-throw-in",
        "redeal-poverty-declined",
        "no-winner",
        "announcements",
        "mandatory-announcement",
        "piglets",
    ];
    for k in want {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "the driver never produced {k}: {seen:?}");
    }
    assert!(comparable > 100, "too few comparable hidden-card variants: {comparable}");
}

// ---------------------------------------------------------------------
// The validated-once play path
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(600))]

    /// `play_legal` (no checks, for simulations) and `play` (checked) agree
    /// for every legal card at every step of random deals under every
    /// variant: the same game afterwards.
    #[test]
    fn play_legal_agrees_with_the_checked_play(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        drive(&rules, seed, Bids::Any, |g| {
            if g.phase() != Phase::Playing {
                return Ok(());
            }
            let Some(s) = g.to_act() else { return Ok(()) };
            for c in g.legal_cards(s).iter() {
                let mut checked = g.clone();
                checked.play(s, c).map_err(|e| TestCaseError::fail(format!("{c} listed, refused: {e}")))?;
                let mut fast = g.clone();
                fast.play_legal(s, c);
                prop_assert_eq!(&checked, &fast, "{} by {}", c, s);
            }
            Ok(())
        })?;
    }
}

/// A case proptest found (CI, 2026-11-26): with `piglets_when play` the
/// piglets rank highest once their holder says so, before one is played;
/// every view may show it then (it was said at the table).
#[test]
fn piglets_said_in_play_are_public() {
    let (name, rules) = variants()[132].clone();
    assert_eq!(name, "sharp,no-nines,piglets_when=play,piglets_announce,half_chicken");
    let mut said_first = false;
    drive(&rules, 4401509604798234037, Bids::Any, |g| {
        if g.public_view().order.power(Card::DA) > 200 && !played(g).iter().any(|(_, c)| *c == Card::DA) {
            said_first = true;
        }
        check_views(g)
    })
    .unwrap();
    assert!(said_first, "the case still has the piglets said before a fox is played");
}

// ---------------------------------------------------------------------
// The seat protocol's forms
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn views_and_actions_survive_the_seat_protocol(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        drive(&rules, seed, Bids::Any, check_wire)?;
    }
}

// ---------------------------------------------------------------------
// Random games through the engine's own loop
// ---------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1500))]

    /// `random_game` (the speed benchmark's loop: the playing state read
    /// once per card, the random card by BMI2 where the CPU has it) plays
    /// exactly the game the public, checked calls play with the same
    /// draws, under every variant, and its score is `Game::score`'s.
    #[test]
    fn random_game_agrees_with_the_checked_calls(v in 0..n_variants(), seed in any::<u64>()) {
        let rules = variants()[v].1;
        let fast = random_game(&rules, &mut Rng::new(seed));
        let checked = random_game_by_the_public_calls(&rules, &mut Rng::new(seed));
        prop_assert_eq!(&fast, &checked);
        let mut rng = Rng::new(seed);
        let expected = checked.score().map_or(0, |s| s.scores[0]);
        prop_assert_eq!(doko_engine::playout(&rules, &mut rng), expected);
    }
}
