//! Random games as the public, checked calls play them: the specification
//! of the engine's own loop.

use doko_engine::{Action, Bid, Call, Digits, Game, Phase, Rng, Rules, Seat};

/// [`random_game`] as it was written on the public, checked calls
/// (`legal_cards` then `play`, `legal_bids`, `legal_calls`, `act`): the
/// specification its own loop over the engine's state must follow, draw
/// for draw.
///
/// A trick led with no announcement owed takes its choices from the
/// digits of one draw (for each card: a call one time in 32 and which,
/// then the card); a card of a trick where an announcement is owed, from
/// a draw of its own; an owed announcement, from a draw of its own.
pub fn random_game_by_the_public_calls(rules: &Rules, rng: &mut Rng) -> Game {
    let hands = doko_engine::deal_random(rng, rules.nines);
    let dealer = Seat::ALL[rng.below(4)];
    let mut g = Game::new(*rules, dealer, hands).expect("one pack");
    // the draw of the trick being played, where it has one, and its
    // first digit (below 2^20): whether each card's seat calls before it
    // (its card's digit in base 32 is zero, the first card's highest)
    let mut trick_draw: Option<(Digits, usize)> = None;
    while let Some(s) = g.to_act() {
        match g.phase() {
            Phase::Playing => {
                if g.legal_cards(s).is_empty() {
                    let calls = g.legal_calls(s);
                    let c = calls[rng.below(calls.len())];
                    g.act(s, Action::Announce(c)).expect("listed as legal");
                    continue;
                }
                let i = g.current_trick().len;
                if i == 0 {
                    trick_draw = g.mandatory_announcement().is_none().then(|| {
                        let mut d = rng.digits();
                        let calls = d.below(1 << 20);
                        (d, calls)
                    });
                }
                let mut own = None;
                let (d, calls) = match trick_draw.as_mut() {
                    Some((d, calls)) => (d, (*calls >> (15 - 5 * i)) & 31),
                    None => {
                        let d = own.insert(rng.digits());
                        let call = d.below(32);
                        (d, call)
                    }
                };
                if calls == 0 {
                    let _ = g.act(s, Action::Announce(Call::ALL[d.below(6)]));
                }
                let legal = g.legal_cards(s);
                let card = legal.iter().nth(d.below(legal.len())).expect("in range");
                g.play(s, card).expect("listed as legal");
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
