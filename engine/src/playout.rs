//! Random complete games: the engine's speed benchmark and a source of
//! varied games for tests and simulations.

use crate::cards::Cards;
use crate::contract::Bid;
use crate::game::Game;
use crate::phase::Phase;
use crate::rng::{Rng, deal_random};
use crate::rules::Rules;
use crate::seat::Seat;

/// Plays one random deal to its end: a random deal ([`deal_random`]) and
/// dealer; each seat says healthy (7 in 8) or a random allowed
/// reservation; a poverty exchange with random cards and answers; random
/// legal cards; before a
/// card, one time in 32, a random call that is kept when legal. Returns
/// the game at its end (finished or void).
#[inline]
pub fn random_game(rules: &Rules, rng: &mut Rng) -> Game {
    let mut g = random_deal(rules, rng);
    play_random(&mut g, rng);
    g
}

/// [`random_game`]'s deal: a random deal and dealer.
#[inline(always)]
fn random_deal(rules: &Rules, rng: &mut Rng) -> Game {
    let hands = deal_random(rng, rules.nines);
    let dealer = Seat::new(rng.below(4));
    Game::new_unchecked(*rules, dealer, hands)
}

/// [`random_game`]'s play from the deal to the end, in place.
#[inline(always)]
fn play_random(g: &mut Game, rng: &mut Rng) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: this CPU has BMI2, checked just above
        unsafe { play_bmi2(g, rng) };
        return;
    }
    play(g, rng, |legal, n| legal.nth_bit(n));
}

/// [`random_game`]'s play compiled for CPUs with BMI2 (its random card by
/// [`Cards::nth_bit_bmi2`]); the same games, only faster.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn play_bmi2(g: &mut Game, rng: &mut Rng) {
    play(g, rng, |legal, n| legal.nth_bit_bmi2(n));
}

/// [`random_game`]'s play from the deal, with the way to pick the `n`-th
/// legal card (as its bit: [`Cards::nth_bit`]).
#[inline(always)]
fn play(g: &mut Game, rng: &mut Rng, nth_bit: impl Fn(Cards, usize) -> u64) {
    while let Some(s) = g.to_act() {
        match g.phase() {
            Phase::Playing => g.random_cards(rng, &nth_bit),
            Phase::Bidding => {
                let bid = if rng.below(8) != 0 {
                    Bid::Healthy
                } else {
                    // as `legal_bids` lists them, in a list on the stack
                    let mut bids = [Bid::Healthy; MAX_BIDS];
                    let mut n = 0;
                    g.each_legal_bid(s, |b| {
                        bids[n] = b;
                        n += 1;
                    });
                    bids[rng.below(n)]
                };
                // listed as legal: not checked again
                g.bid_legal(s, bid);
            }
            _ => {
                let acts = g.legal_actions(s);
                let a = acts[rng.below(acts.len())];
                g.act(s, a).expect("listed as legal");
            }
        }
    }
}

/// The most bids a seat can have: healthy, six reservations (the wedding
/// with its three chosen tricks, poverty, throwing in) and each solo with
/// and without duty.
const MAX_BIDS: usize = 7 + 2 * crate::solo::SoloKind::ALL.len();

/// Plays one random deal (see [`random_game`]) and scores it; returns the
/// score of seat 0 (0 for a void deal).
pub fn playout(rules: &Rules, rng: &mut Rng) -> i32 {
    // played where it is scored: a game returned is a copy of its some
    // 440 bytes, and reading it back stalls
    let mut g = random_deal(rules, rng);
    play_random(&mut g, rng);
    if g.phase() != Phase::Finished {
        return 0;
    }
    // seat 0's points as `Game::score` gives them, without the breakdown
    crate::score::seat_score(&g, Seat::ALL[0])
}

/// Plays `games` random games with [`playout`] and returns the sum of
/// their scores (a checksum that changes when any game does): the loop
/// `doko bench` times.
pub fn playouts(rules: &Rules, rng: &mut Rng, games: u64) -> i64 {
    (0..games).map(|_| i64::from(playout(rules, rng))).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    /// The random games' branch-light legality of a call
    /// (`Game::announce_allowed`) says what `check_announce` says, for
    /// every seat and call at every step of random deals, under every
    /// preset with and without nines and the house rules that move
    /// deadlines or restrict calls (calls on one's turn, Re before the
    /// first card, mandatory announcements). Calls are made often, so
    /// that late replies and levels already announced are common.
    #[test]
    fn a_calls_legality_without_branches_is_check_announces() {
        use crate::announce::Call;
        use crate::game::Action;
        use crate::rules::{Preset, ReDeadline};
        let mut compared = 0u64;
        let mut allowed = 0u64;
        let mut late = 0u64;
        for preset in Preset::ALL {
            for nines in [true, false] {
                for house in 0..4 {
                    let mut rules = Rules { nines, ..Rules::preset(preset) };
                    rules.announce_on_turn = house & 1 != 0;
                    if house & 2 != 0 {
                        rules.re_deadline = ReDeadline::BeforeFirstCard;
                        rules.mandatory_announcement = Some(30);
                    }
                    for seed in 0..60 {
                        let mut rng = Rng::new(seed);
                        let mut g = random_deal(&rules, &mut rng);
                        while let Some(s) = g.to_act() {
                            if g.phase() == Phase::Playing {
                                for seat in Seat::ALL {
                                    for call in Call::ALL {
                                        let checked = g.check_announce(seat, call).ok();
                                        assert_eq!(g.announce_allowed(seat, call), checked, "{call:?} of {seat:?}");
                                        compared += 1;
                                        allowed += u64::from(checked.is_some());
                                        late += u64::from(checked == Some(true));
                                    }
                                }
                            }
                            let acts = g.legal_actions(s);
                            let calls: Vec<Action> =
                                acts.iter().copied().filter(|a| matches!(a, Action::Announce(_))).collect();
                            let a = if !calls.is_empty() && rng.below(3) == 0 {
                                calls[rng.below(calls.len())]
                            } else {
                                acts[rng.below(acts.len())]
                            };
                            g.act(s, a).expect("listed as legal");
                        }
                    }
                }
            }
        }
        assert!(compared > 1_000_000 && allowed > 50_000 && late > 500, "{compared} {allowed} {late}");
    }

    /// Where the CPU has BMI2, its loop plays the same games as the
    /// portable one (and `Game::random_playout` the same playouts).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_bmi2_loop_plays_the_same_games() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            eprintln!("no BMI2 on this CPU: nothing to compare");
            return;
        }
        let mut compared = 0;
        for preset in Preset::ALL {
            for nines in [true, false] {
                let rules = Rules { nines, ..Rules::preset(preset) };
                for seed in 0..400 {
                    let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
                    let mut portable = Game::new_unchecked(rules, Seat::ALL[0], deal_random(&mut a, nines));
                    let mut fast = Game::new_unchecked(rules, Seat::ALL[0], deal_random(&mut b, nines));
                    play(&mut portable, &mut a, |legal, n| legal.nth_bit(n));
                    // SAFETY: BMI2 is there, checked above
                    unsafe { play_bmi2(&mut fast, &mut b) };
                    assert_eq!(portable, fast, "seed {seed}");
                    assert_eq!(a.next_u64(), b.next_u64(), "the same draws, seed {seed}");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 3200);
    }
}
