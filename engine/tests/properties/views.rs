//! Property 5: what the views show, and that hidden cards do not change them.

use doko_engine::{
    Action, Bid, Card, Cards, Contract, Declaration, Game, Phase, PublicView, Record, Rng, Seat, SeenBid,
};
use proptest::prelude::*;

use crate::driver::{TestResult, add, played};

/// What the views show, each against the game: the public view holds the
/// played cards and no card of a hand, and only what the table has seen;
/// each seat's view adds its own hand and what only it knows.
pub fn check_views(g: &Game) -> TestResult {
    let public = g.public_view();
    let pl = played(g);
    check_public_cards(g, &public, pl.len())?;
    check_public_contract(g, &public, &pl)?;
    check_public_bids_and_parties(g, &public, &pl)?;
    check_seat_views(g, &public, &pl)
}

/// The public view's plain facts, and its cards: exactly the played ones.
fn check_public_cards(g: &Game, public: &PublicView, n_played: usize) -> TestResult {
    prop_assert_eq!(public.phase, g.phase());
    prop_assert_eq!(public.to_act, g.to_act());
    prop_assert_eq!(public.dealer, g.dealer());
    prop_assert_eq!(&public.rules, g.rules());
    prop_assert_eq!(public.tricks.as_slice(), g.tricks());
    prop_assert_eq!(&public.trick, g.current_trick());
    prop_assert_eq!(public.announcements.as_slice(), g.announcements());
    prop_assert_eq!(public.mandatory, g.mandatory_announcement());
    for s in Seat::ALL {
        prop_assert_eq!(public.hand_sizes[s.index()], g.hand(s).len());
    }
    // the public cards are exactly the played ones, and no card of a hand:
    // (played cards) + (all hands) is at most the pack
    let mut shown = Cards::EMPTY;
    for t in &public.tricks {
        for c in t.cards {
            prop_assert!(shown.insert(c));
        }
    }
    for c in public.trick.played() {
        prop_assert!(shown.insert(*c));
    }
    prop_assert_eq!(shown.len(), n_played);
    let mut hands = Cards::EMPTY;
    for s in Seat::ALL {
        hands = add(hands, g.hand(s));
    }
    prop_assert!(
        shown.checked_add(hands).is_some_and(|all| Cards::pack(g.rules().nines).includes(all)),
        "the public view shows a card that is still in a hand"
    );
    Ok(())
}

/// The contract and declarer as publicly known: a silent solo hidden until
/// its soloist has played both queens of clubs.
fn check_public_contract(g: &Game, public: &PublicView, pl: &[(Seat, Card)]) -> TestResult {
    let bidding = g.phase() == Phase::Bidding;
    let silent = g.contract() == Contract::SilentSolo;
    let revealed = g.declarer().is_some_and(|d| pl.iter().filter(|(s, c)| *s == d && *c == Card::CQ).count() == 2);
    if bidding {
        prop_assert_eq!(public.contract, None);
        prop_assert_eq!(public.declarer, None);
    } else if silent && !revealed {
        prop_assert_eq!(public.contract, Some(Contract::Normal), "silent solo shown before both queens are played");
        prop_assert_eq!(public.declarer, None, "silent soloist shown");
    } else {
        prop_assert_eq!(public.contract, Some(g.contract()));
        prop_assert_eq!(public.declarer, g.declarer());
    }
    Ok(())
}

/// The bids, parties, poverty and card order as the table sees them.
fn check_public_bids_and_parties(g: &Game, public: &PublicView, pl: &[(Seat, Card)]) -> TestResult {
    let bidding = g.phase() == Phase::Bidding;
    // bids: only a reservation that decided the game is named
    for s in Seat::ALL {
        match (public.bids[s.index()], g.bids()[s.index()]) {
            (None, None)
            | (Some(SeenBid::Healthy), Some(Bid::Healthy))
            | (Some(SeenBid::Reserved), Some(Bid::Reserve(_))) => {}
            (Some(SeenBid::Decided(r)), Some(Bid::Reserve(r2))) => {
                prop_assert_eq!(r, r2);
                // in a Schwarze Sau the poverty decided, whoever became the soloist
                let decided = if matches!(g.contract(), Contract::BlackSow(_)) {
                    g.poverty().map(|p| p.pauper)
                } else {
                    g.declarer()
                };
                prop_assert!(!bidding && decided == Some(s), "an undecided reservation named");
            }
            (seen, bid) => prop_assert!(false, "seat {} bid {:?} shown as {:?}", s, bid, seen),
        }
    }
    // parties: never wrong; in what looks like a normal game only known
    // from a played queen of clubs or an announcement
    for s in Seat::ALL {
        if let Some(p) = public.parties[s.index()] {
            prop_assert_eq!(p, g.party(s), "seat {} shown in the wrong party", s);
            if public.contract == Some(Contract::Normal) || public.contract.is_none() {
                let known =
                    pl.iter().any(|(t, c)| *t == s && *c == Card::CQ) || g.announcements().iter().any(|a| a.seat == s);
                prop_assert!(known, "seat {}'s party shown without a queen of clubs or announcement", s);
            }
        }
    }
    // poverty: counts only
    match (public.poverty, g.poverty()) {
        (None, None) => {}
        (Some(sp), Some(p)) => {
            prop_assert_eq!(sp.pauper, p.pauper);
            prop_assert_eq!(sp.given, p.given.len());
            prop_assert_eq!(sp.returned, p.returned.len());
            prop_assert_eq!(sp.acceptor, p.acceptor);
            prop_assert_eq!(sp.declined, p.declined);
        }
        (a, b) => prop_assert!(false, "poverty {:?} shown as {:?}", b, a),
    }
    // piglets only once a piglet has been played, or said (`piglets_when
    // play`: they count from the holder's saying so, which all hear)
    for c in [Card::DA, "D9".parse().unwrap(), "DK".parse().unwrap()] {
        if public.order.power(c) != g.order().power(c) && matches!(g.phase(), Phase::Playing | Phase::Finished) {
            prop_assert!(public.order.power(c) < g.order().power(c), "public order invents a rank for {}", c);
        }
        if public.order.power(c) > 200 {
            let said = if c == Card::DA { Declaration::Piglets } else { Declaration::Superpiglets };
            prop_assert!(
                pl.iter().any(|(_, x)| *x == c) || g.said().iter().any(|d| d.what == said),
                "piglet {} shown before it was played or said",
                c
            );
        }
    }
    Ok(())
}

/// Each seat's view: the public view, its own hand, and what only it knows.
fn check_seat_views(g: &Game, public: &PublicView, pl: &[(Seat, Card)]) -> TestResult {
    for s in Seat::ALL {
        let v = g.view(s);
        prop_assert_eq!(v.seat, s);
        prop_assert_eq!(v.hand, g.hand(s), "seat {} view holds another hand", s);
        prop_assert!(v.public == *public, "seat {}'s public part differs from the public view", s);
        prop_assert_eq!(v.own_bid, g.bids()[s.index()]);
        prop_assert_eq!(&v.legal, &g.legal_actions(s));
        if let Some(p) = v.own_party {
            prop_assert_eq!(p, g.party(s));
        }
        let sees_poverty = g.poverty().is_some_and(|p| p.pauper == s || p.acceptor == Some(s));
        prop_assert_eq!(v.poverty_cards.is_some(), sees_poverty, "seat {} poverty cards", s);
        for c in [Card::DA, "D9".parse().unwrap(), "DK".parse().unwrap()] {
            if v.order.power(c) > public.order.power(c) {
                let own = g.hand(s).count(c) + pl.iter().filter(|(t, x)| *t == s && *x == c).count();
                prop_assert_eq!(own, 2, "seat {} knows about piglet {} it never held", s, c);
            }
        }
        // no other seat's hand anywhere in this seat's view
        for t in Seat::ALL {
            if t != s && !g.hand(t).is_empty() && g.hand(t) != g.hand(s) {
                prop_assert!(v.hand != g.hand(t));
            }
        }
    }
    Ok(())
}

/// The same deal with hidden cards moved between the hands of the seats
/// other than `fixed` (swapping cards of one class, so that every play stays
/// legal), replayed with the same bids and actions. `None` when the
/// replay is refused.
pub fn with_other_hidden_cards(g: &Game, fixed: Seat, rng: &mut Rng) -> Option<Game> {
    let order = g.order();
    let mut hands = Seat::ALL.map(|s| g.hand(s));
    let others: Vec<Seat> = Seat::ALL.into_iter().filter(|s| *s != fixed).collect();
    for _ in 0..1 + rng.below(8) {
        let a = others[rng.below(3)];
        let b = others[rng.below(3)];
        if a == b || hands[a.index()].is_empty() {
            continue;
        }
        let ca = hands[a.index()].nth(rng.below(hands[a.index()].len())).expect("in range");
        // half the time any card, else one of the same class
        let pool =
            if rng.below(2) == 0 { hands[b.index()] } else { hands[b.index()].with_mask(order.mask(order.class(ca))) };
        if pool.is_empty() {
            continue;
        }
        let cb = pool.nth(rng.below(pool.len())).expect("in range");
        hands[a.index()].remove(ca);
        hands[b.index()].remove(cb);
        hands[a.index()].insert(cb);
        hands[b.index()].insert(ca);
    }
    let mut dealt = [Cards::EMPTY; 4];
    for s in Seat::ALL {
        let played_by = g.dealt()[s.index()].checked_sub(g.hand(s)).expect("no poverty here");
        dealt[s.index()] = add(hands[s.index()], played_by);
    }
    let rec = Record::from_game(g);
    let mut h = Game::new(*g.rules(), g.dealer(), dealt).expect("still one pack");
    for (s, b) in rec.bids.unwrap_or_default() {
        h.act(s, Action::Bid(b)).ok()?;
    }
    for (s, a) in rec.actions {
        h.act(s, a).ok()?;
    }
    Some(h)
}

/// Whether the table has seen the same in both games: the same tricks
/// (cards and winners), announcements, mandatory announcement, turn, and
/// the same rank of every piglet card that has been played.
pub fn same_public_facts(a: &Game, b: &Game) -> bool {
    let pl = played(a);
    a.phase() == b.phase()
        && a.to_act() == b.to_act()
        && a.tricks() == b.tricks()
        && a.current_trick() == b.current_trick()
        && a.announcements() == b.announcements()
        && a.mandatory_announcement() == b.mandatory_announcement()
        && a.bids() == b.bids()
        && [Card::DA, "D9".parse().unwrap(), "DK".parse().unwrap()]
            .iter()
            .all(|c| !pl.iter().any(|(_, x)| x == c) || a.order().power(*c) == b.order().power(*c))
}
