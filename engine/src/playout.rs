//! Random complete games: the engine's speed benchmark and a source of
//! varied games for tests and simulations.

use crate::announce::Call;
use crate::contract::Bid;
use crate::game::{Action, Game, Phase};
use crate::rng::{Rng, deal_with};
use crate::rules::Rules;
use crate::seat::Seat;

/// Plays one random deal to its end: a random dealer and deal; each seat
/// says healthy (7 in 8) or a random allowed reservation; a poverty
/// exchange with random cards and answers; random legal cards; before a
/// card, one time in 32, a random call that is kept when legal. Returns
/// the game at its end (finished or void).
pub fn random_game(rules: &Rules, rng: &mut Rng) -> Game {
    let hands = deal_with(rng, rules.nines);
    let dealer = Seat::new(rng.below(4));
    let mut g = Game::new_unchecked(*rules, dealer, hands);
    while let Some(s) = g.to_act() {
        match g.phase() {
            Phase::Playing => {
                let r = rng.next_u64();
                if r & 31 == 0 {
                    let c = Call::ALL[(r >> 5) as usize % 6];
                    let _ = g.announce(s, c);
                }
                // a mandatory announcement may be owed
                let legal = g.legal_cards(s);
                if legal.is_empty() {
                    let calls = g.legal_calls(s);
                    let c = calls[rng.below(calls.len())];
                    g.act(s, Action::Announce(c)).expect("listed as legal");
                    continue;
                }
                let pick = (((r >> 32) * legal.len() as u64) >> 32) as usize;
                let card = legal.nth(pick).expect("in range");
                g.play_legal(s, card);
            }
            Phase::Bidding => {
                let bid = if rng.below(8) != 0 {
                    Bid::Healthy
                } else {
                    let bids = g.legal_bids(s);
                    bids[rng.below(bids.len())]
                };
                g.act(s, Action::Bid(bid)).expect("listed as legal");
            }
            _ => {
                let acts = g.legal_actions(s);
                let a = acts[rng.below(acts.len())];
                g.act(s, a).expect("listed as legal");
            }
        }
    }
    g
}

/// Plays one random deal (see [`random_game`]) and scores it; returns the
/// score of seat 0 (0 for a void deal).
pub fn playout(rules: &Rules, rng: &mut Rng) -> i32 {
    let g = random_game(rules, rng);
    g.score().map_or(0, |s| s.scores[0])
}
