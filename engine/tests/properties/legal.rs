//! Property 3: the legal actions are exactly the accepted ones.

use doko_engine::{Action, Bid, Call, Card, Cards, Game, Reservation, Rng, Seat, SoloKind};
use proptest::prelude::*;

use crate::driver::{TestResult, add};

fn all_bids() -> Vec<Bid> {
    let mut v = vec![
        Bid::Healthy,
        Bid::Reserve(Reservation::Wedding(None)),
        Bid::Reserve(Reservation::Poverty),
        Bid::Reserve(Reservation::ThrowIn),
    ];
    for kind in SoloKind::ALL {
        for duty in [false, true] {
            v.push(Bid::Reserve(Reservation::Solo { kind, duty }));
        }
    }
    v
}

/// `k` random cards of `from` (fewer when it holds fewer).
fn random_subset(rng: &mut Rng, from: Cards, k: usize) -> Cards {
    let mut pool: Vec<Card> = from.iter().collect();
    let mut out = Cards::EMPTY;
    for _ in 0..k.min(pool.len()) {
        let i = rng.below(pool.len());
        out.insert(pool.swap_remove(i));
    }
    out
}

/// A large sample of actions for a seat: every card, call, bid and
/// answer, and random card sets for the poverty exchange.
fn candidates(g: &Game, s: Seat, rng: &mut Rng) -> Vec<Action> {
    let mut v: Vec<Action> = Card::all().map(Action::Play).collect();
    v.extend(Call::ALL.into_iter().map(Action::Announce));
    v.extend(all_bids().into_iter().map(Action::Bid));
    v.push(Action::Answer(true));
    v.push(Action::Answer(false));
    let k = g.poverty_count();
    let hand = g.hand(s);
    let mut sets = vec![Cards::EMPTY, Cards::from_bits(rng.next_u64()), hand];
    for size in [k.saturating_sub(1), k, k, k, k + 1] {
        sets.push(random_subset(rng, hand, size));
        sets.push(random_subset(rng, Cards::FULL, size));
    }
    // the trumps of the hand topped up with random cards: a likely Give
    let trumps = hand.with_mask(doko_engine::normal_game_trumps());
    let rest = hand.without_mask(doko_engine::normal_game_trumps());
    if trumps.len() <= k {
        sets.push(add(trumps, random_subset(rng, rest, k - trumps.len())));
    }
    if let Some(p) = g.poverty() {
        sets.push(p.given);
    }
    for c in sets {
        v.push(Action::Give(c));
        v.push(Action::Return(c));
    }
    v
}

pub fn check_legal_is_accepted(g: &Game, rng: &mut Rng) -> TestResult {
    for s in Seat::ALL {
        let legal = g.legal_actions(s);
        for (i, a) in legal.iter().enumerate() {
            prop_assert!(!legal[..i].contains(a), "{:?} listed twice for seat {}", a, s);
        }
        if g.is_over() {
            prop_assert!(legal.is_empty(), "actions listed after the deal: {:?}", legal);
        } else if g.to_act() == Some(s) {
            prop_assert!(!legal.is_empty(), "seat {} is on turn with nothing to do", s);
        } else {
            prop_assert!(
                legal.iter().all(|a| matches!(a, Action::Announce(_) | Action::Say(_))),
                "seat {} not on turn may {:?}",
                s,
                legal
            );
        }
        // every listed action is accepted and changes the game
        for a in &legal {
            let mut c = g.clone();
            let r = c.act(s, *a);
            prop_assert!(r.is_ok(), "listed action {:?} by seat {} refused: {:?}\n{:?}", a, s, r, g);
            prop_assert!(c != *g, "accepted {:?} by seat {} changed nothing", a, s);
        }
        // every other action of the sample is refused and changes nothing
        for a in candidates(g, s, rng) {
            let mut c = g.clone();
            let r = c.act(s, a);
            if legal.contains(&a) {
                prop_assert!(r.is_ok(), "listed action {:?} by seat {} refused: {:?}", a, s, r);
            } else {
                prop_assert!(r.is_err(), "unlisted action {:?} by seat {} accepted\n{:?}", a, s, g);
                prop_assert!(c == *g, "refused {:?} by seat {} changed the game", a, s);
            }
        }
        // the view lists the same actions
        prop_assert_eq!(&g.view(s).legal, &legal);
    }
    Ok(())
}
