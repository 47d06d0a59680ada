//! The coach (the `coach` house rule, a player's `hint`): the expert's
//! choice for a seat, with one line of why. A card is explained by its
//! role in the trick (leading trumps, following, trumping in, saving the
//! fox, ...); any other decision (a bid, an announcement, a poverty step)
//! by the chance that the seat's side wins with it, by simulation: deals
//! of the unseen cards that fit the seat's view, played out by the basic
//! player's conventions.
//!
//! Everything here sees one seat's view only, as the expert does: a hint
//! never tells more than the seat could know.

use doko_engine::{Action, Card, Phase, Rank, Rng, SeatView};

use crate::level::{BotLevel, decide};
use crate::simulate::{card_worlds, rows, won};
use crate::strong::StrongConfig;
use crate::worlds::{bid_world, exchange_world};

/// Deals simulated for a decision's chance.
pub const CHANCE_WORLDS: usize = 32;

/// What a card does in its trick.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Leads a trump: draws the others' trumps.
    PullTrumps,
    /// Leads a plain suit's ace: takes the trick while the suit goes round.
    LeadAce,
    /// Leads another plain card.
    LeadSuit,
    /// Plays the diamonds ace (the fox) into a trick its side takes.
    SaveFox,
    /// Gives ten points or more to a trick its side takes.
    Smear,
    /// Follows the suit (or the trump) led.
    Follow,
    /// Trumps a plain suit it cannot follow.
    Ruff,
    /// Throws off another plain suit.
    Discard,
}

/// Why the coach chose what it chose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// A card, by its role in the trick.
    Card(Role),
    /// Another decision: in how many of the simulated deals the seat's
    /// side won with it (percent), and how many deals were simulated.
    Chance {
        /// Wins in percent.
        percent: u8,
        /// Deals simulated.
        deals: usize,
    },
}

/// The coach's advice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Advice {
    /// What the expert would do.
    pub action: Action,
    /// Why.
    pub why: Why,
}

/// The expert's choice for the seat of `v` (within `strong`'s budget),
/// with its reason.
pub fn advise(v: &SeatView, rng: &mut Rng, strong: StrongConfig) -> Advice {
    let action = decide(BotLevel::Expert, v, rng, strong);
    let why = match action {
        Action::Play(card) => Why::Card(role(v, card)),
        a => chance(v, a, rng),
    };
    Advice { action, why }
}

/// The role of `card` played now by the seat of `v`.
pub fn role(v: &SeatView, card: Card) -> Role {
    let order = &v.order;
    let trick = &v.public.trick;
    let played = trick.played();
    let Some(first) = played.first() else {
        return if order.is_trump(card) {
            Role::PullTrumps
        } else if card.rank() == Rank::Ace {
            Role::LeadAce
        } else {
            Role::LeadSuit
        };
    };
    let led = order.class(*first);
    // the card winning so far (of equal keys the first played)
    let (at, best) = played.iter().enumerate().fold((0, *first), |(i, b), (j, c)| {
        if order.trick_key(*c, led) > order.trick_key(b, led) { (j, *c) } else { (i, b) }
    });
    let takes = order.trick_key(card, led) > order.trick_key(best, led);
    let winner = trick.leader.plus(at);
    let ours = !takes
        && match (v.own_party, v.public.parties[winner.index()]) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
    if card == Card::DA && order.is_trump(card) && (ours || takes) {
        Role::SaveFox
    } else if ours && card.points() >= 10 {
        Role::Smear
    } else if order.class(card) == led {
        Role::Follow
    } else if order.is_trump(card) {
        Role::Ruff
    } else {
        Role::Discard
    }
}

/// In how many of up to [`CHANCE_WORLDS`] simulated deals the seat's side
/// wins after taking `action` now (the whole deal played out by the basic
/// conventions), as the analysis measures a decision.
fn chance(v: &SeatView, action: Action, rng: &mut Rng) -> Why {
    let line = [vec![action]];
    let n = (CHANCE_WORLDS, 1);
    let rows = match v.public.phase {
        Phase::Bidding => rows(v.seat, &line, n, rng, true, |rng| bid_world(v, rng)),
        Phase::PovertyOffer | Phase::PovertyGive | Phase::PovertyReturn => {
            rows(v.seat, &line, n, rng, true, |rng| exchange_world(v, rng))
        }
        _ => card_worlds(v).map_or_else(Vec::new, |worlds| rows(v.seat, &line, n, rng, true, worlds)),
    };
    let (percent, deals) = won(&rows, 0);
    Why::Chance { percent, deals }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doko_engine::{Game, Rules, Seat, Suit, deal};

    /// The game after `plays` first legal cards (all healthy).
    fn game_after(seed: u64, plays: usize) -> Game {
        let rules = Rules::default();
        let mut g = Game::new(rules, Seat::new(3), deal(seed, rules.nines)).unwrap();
        while g.phase() == Phase::Bidding {
            let s = g.to_act().unwrap();
            g.act(s, Action::Bid(doko_engine::Bid::Healthy)).unwrap();
        }
        for _ in 0..plays {
            let s = g.to_act().unwrap();
            let a = *g.view(s).legal.iter().find(|a| matches!(a, Action::Play(_))).unwrap();
            g.act(s, a).unwrap();
        }
        g
    }

    #[test]
    fn a_lead_is_named_by_what_it_leads() {
        let g = game_after(7, 0);
        let v = g.view(g.to_act().unwrap());
        for c in v.hand.iter() {
            let r = role(&v, c);
            if v.order.is_trump(c) {
                assert_eq!(r, Role::PullTrumps, "{c}");
            } else if c.rank() == Rank::Ace {
                assert_eq!(r, Role::LeadAce, "{c}");
            } else {
                assert_eq!(r, Role::LeadSuit, "{c}");
            }
        }
    }

    #[test]
    fn a_follower_follows_trumps_or_throws_off() {
        for seed in 0..40 {
            let g = game_after(seed, 1);
            let v = g.view(g.to_act().unwrap());
            let led = v.order.class(v.public.trick.played()[0]);
            for a in &v.legal {
                let Action::Play(c) = *a else { continue };
                let r = role(&v, c);
                match r {
                    Role::Follow => assert_eq!(v.order.class(c), led),
                    Role::Ruff => assert!(v.order.is_trump(c) && v.order.class(c) != led),
                    Role::Discard => assert!(!v.order.is_trump(c) && v.order.class(c) != led),
                    Role::SaveFox => assert_eq!(c, Card::new(Suit::Diamonds, Rank::Ace)),
                    Role::Smear => assert!(c.points() >= 10),
                    other => panic!("{other:?} for a card that does not lead"),
                }
            }
        }
    }

    #[test]
    fn advice_is_legal_and_a_bid_has_its_chance() {
        let rules = Rules::default();
        let g = Game::new(rules, Seat::new(3), deal(3, rules.nines)).unwrap();
        let v = g.view(g.to_act().unwrap());
        let strong = StrongConfig { budget: std::time::Duration::from_millis(20), ..StrongConfig::default() };
        let a = advise(&v, &mut Rng::new(1), strong);
        assert!(v.legal.contains(&a.action));
        match a.why {
            Why::Chance { percent, deals } => assert!(deals > 0 && percent <= 100, "{percent} of {deals}"),
            w => panic!("a bid explained as {w:?}"),
        }
        let g = game_after(3, 2);
        let v = g.view(g.to_act().unwrap());
        let a = advise(&v, &mut Rng::new(1), strong);
        assert!(v.legal.contains(&a.action));
        let Action::Play(c) = a.action else { panic!("a card: {a:?}") };
        assert_eq!(a.why, Why::Card(role(&v, c)));
    }
}
