//! A seat's points found without the breakdown (`Game::seat_score`, the
//! random games' and searches' score) agree with the full score's
//! (`Game::score`) in random games under random house rules.

use doko_engine::{Dulle, Extra, Preset, ReKontra, Rng, Rules, Seat, random_game};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_seats_points_are_the_full_scores(
        seed in any::<u64>(),
        preset in 0..Preset::ALL.len(),
        nines: bool,
        extras in any::<u16>(),
        doubles: bool,
        solo_double: bool,
        dulle in 0..3usize,
        mandatory in proptest::option::of(30u8..=40),
    ) {
        let mut rules = Rules { nines, ..Rules::preset(Preset::ALL[preset]) };
        for (i, e) in Extra::ALL.into_iter().enumerate() {
            if extras & (1 << i) != 0 {
                rules.extra_points.insert(e);
            }
        }
        rules.re_kontra = if doubles { ReKontra::Doubles } else { ReKontra::PlusTwo };
        rules.solo_double = solo_double;
        rules.dulle = [Dulle::FirstWins, Dulle::SecondWins, Dulle::SecondWinsExceptLast][dulle];
        rules.mandatory_announcement = mandatory;
        let g = random_game(&rules, &mut Rng::new(seed));
        let full = g.score();
        for s in Seat::ALL {
            prop_assert_eq!(g.seat_score(s), full.map(|sc| sc.scores[s.index()]), "seat {:?}", s);
        }
    }
}

/// Many games, so that the rarer items (announcements raised by random
/// calls, solos, foxes caught in the last trick) occur: the two agree in
/// every one, and enough of them score something beyond won and lost.
#[test]
fn a_seats_points_agree_in_many_games() {
    let mut rules = Rules::default();
    for e in Extra::ALL {
        rules.extra_points.insert(e);
    }
    let mut many_items = 0;
    for (i, doubles) in [false, true].into_iter().enumerate() {
        rules.re_kontra = if doubles { ReKontra::Doubles } else { ReKontra::PlusTwo };
        rules.solo_double = doubles;
        let mut rng = Rng::new(i as u64);
        for _ in 0..20_000 {
            let g = random_game(&rules, &mut rng);
            let full = g.score();
            if full.is_some_and(|sc| sc.breakdown.items().len() > 4) {
                many_items += 1;
            }
            for s in Seat::ALL {
                assert_eq!(g.seat_score(s), full.map(|sc| sc.scores[s.index()]));
            }
        }
    }
    assert!(many_items > 1_000, "{many_items}");
}
