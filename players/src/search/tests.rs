//! The search players' unit tests.

use super::*;
use doko_engine::{Card, Rules, SoloKind};

use crate::playout::{PLAYOUT_NOISE, playout};
use crate::strong::StrongConfig;

/// Plays deals with search players in every seat: every choice is
/// legal and the deal ends.
fn deals(make: impl Fn(u64) -> SearchPlayer, rules: Rules, n: u64) {
    for seed in 0..n {
        let mut g = Game::deal(rules, Seat::new((seed % 4) as usize), seed);
        let mut players: Vec<SearchPlayer> = (0..4).map(|i| make(seed * 4 + i)).collect();
        let mut steps = 0;
        while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
            steps += 1;
            assert!(steps < 500);
            let view = g.view(s);
            let a = players[s.index()].decide(&view);
            g.act(s, a).unwrap_or_else(|e| panic!("deal {seed}: {a:?} refused: {e}"));
        }
        assert!(g.is_over());
    }
}

#[test]
fn the_reward_is_sievers_and_helmerts_scaled() {
    // 500 x game points + the team's card points, over 500
    let mut g = Game::deal(Rules::default(), Seat::new(1), 9);
    g.random_playout(&mut Rng::new(1));
    while let Some(s) = g.to_act().filter(|_| !g.is_over()) {
        let a = BasicPlayer.decide(&g.view(s));
        g.act(s, a).expect("legal");
        g.random_playout(&mut Rng::new(2));
    }
    let sc = g.score().expect("scored");
    for s in Seat::ALL {
        let want = 500.0 * f64::from(sc.scores[s.index()]) + f64::from(sc.card_points[g.party(s).index()]);
        assert!((reward(&g, s) * 500.0 - want).abs() < 1e-9);
    }
}

/// In a poverty game every seat searches: the pauper and the acceptor,
/// and the two who did not see the exchange.
#[test]
fn every_seat_searches_in_a_poverty_game() {
    let rules = Rules::preset(doko_engine::Preset::Casual);
    for seed in 0..2000 {
        let mut g = Game::deal(rules, Seat::new(0), seed);
        while !g.is_over() && g.phase() != Phase::Playing {
            let s = g.to_act().expect("someone acts");
            g.act(s, BasicPlayer.decide(&g.view(s))).expect("legal");
        }
        if g.is_over() || g.poverty().is_none_or(|p| p.acceptor.is_none()) {
            continue;
        }
        let mut expert = SearchPlayer::expert(Duration::from_millis(50), seed);
        let mut searched = [0; 4];
        while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
            let v = g.view(s);
            let a = if searched_turn(&v) && v.legal_cards().len() > 1 {
                searched[s.index()] += 1;
                expert.play(&v).unwrap_or_else(|| panic!("deal {seed}: {s:?} found no world"))
            } else {
                BasicPlayer.decide(&v)
            };
            g.act(s, a).expect("legal");
        }
        assert!(g.is_over());
        assert!(searched.iter().all(|n| *n > 0), "deal {seed}: searched turns by seat {searched:?}");
        return;
    }
    panic!("no poverty game in 2,000 deals");
}

/// Deals where a poverty is declared, played by experts from the first
/// bid (reservations, answers and the exchange simulated): every
/// choice is legal and the deal ends.
#[test]
fn experts_play_poverty_deals_from_the_first_bid() {
    let rules = Rules::preset(doko_engine::Preset::Casual);
    let poverty = |seed: u64| {
        let mut g = Game::deal(rules, Seat::new(0), seed);
        while g.phase() == Phase::Bidding {
            let s = g.to_act().expect("someone bids");
            g.act(s, BasicPlayer.decide(&g.view(s))).expect("legal");
        }
        g.poverty().is_some()
    };
    let seeds: Vec<u64> = (0..3000).filter(|s| poverty(*s)).take(2).collect();
    assert_eq!(seeds.len(), 2);
    for seed in seeds {
        let mut g = Game::deal(rules, Seat::new(0), seed);
        let mut players: Vec<SearchPlayer> =
            (0..4).map(|i| SearchPlayer::expert(Duration::from_millis(20), seed * 4 + i)).collect();
        let mut steps = 0;
        while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
            steps += 1;
            assert!(steps < 500);
            let a = players[s.index()].decide(&g.view(s));
            g.act(s, a).unwrap_or_else(|e| panic!("deal {seed}: {a:?} refused: {e}"));
        }
        assert!(g.is_over() || matches!(g.phase(), Phase::Redeal(_)));
    }
}

#[test]
fn uct_and_expert_play_legal_deals() {
    let budget = Duration::from_millis(5);
    deals(|s| SearchPlayer::uct(budget, s), Rules::default(), 3);
    deals(|s| SearchPlayer::expert(budget, s), Rules::default(), 3);
}

/// Every line searched without pruning: the plain minimax value.
fn minimax(g: &Game, me: Seat) -> f64 {
    if g.is_over() {
        return reward(g, me);
    }
    let s = g.to_act().expect("in play");
    let values = g.legal_cards(s).iter().map(|c| {
        let mut w = g.clone();
        w.play(s, c).expect("legal");
        minimax(&w, me)
    });
    if g.party(s) == g.party(me) {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

#[test]
fn the_solver_agrees_with_plain_minimax() {
    // deals played by basic players to three cards a hand (announcing
    // as they like): alpha-beta's value is the minimax value
    for seed in 0..12u64 {
        let mut g = Game::deal(Rules::default(), Seat::new((seed % 4) as usize), seed);
        while g.phase() != Phase::Playing
            || g.mandatory_announcement().is_some()
            || g.hand(g.to_act().expect("to act")).len() > 3
            || g.current_trick().len as u64 != seed % 4
        {
            if g.is_over() {
                break;
            }
            let s = g.mandatory_announcement().or(g.to_act()).expect("in play");
            let a = BasicPlayer.decide(&g.view(s));
            g.act(s, a).expect("legal");
        }
        if g.is_over() {
            continue;
        }
        let me = g.to_act().expect("to act");
        for other in [me, me.next()] {
            let v = solve(&g, other, f64::NEG_INFINITY, f64::INFINITY);
            assert_eq!(v, minimax(&g, other), "deal {seed}, seat {other}");
        }
    }
}

#[test]
fn the_likeliest_worlds_explain_the_plays() {
    // a world where another seat's plays are the basic player's own
    // weighs 1; the real deal, played by basic players, is such a world
    let mut g = Game::deal(Rules::default(), Seat::new(0), 11);
    for _ in 0..60 {
        if g.phase() == Phase::Playing && g.tricks().len() == 5 && g.current_trick().len == 0 {
            break;
        }
        let s = g.mandatory_announcement().or(g.to_act()).expect("in play");
        let a = BasicPlayer.decide(&g.view(s));
        g.act(s, a).expect("legal");
    }
    let me = g.to_act().expect("to act");
    let v = g.view(me);
    let hands = Seat::ALL.map(|s| g.hand(s));
    let (_, w) = world_and_weight(
        &v,
        hands,
        &SearchConfig { mismatch: 0.5, bid_mismatch: 0.5, policy: 0.0, ..SearchConfig::expert(Duration::ZERO) },
    )
    .expect("the real deal fits");
    assert_eq!(w, 1.0);
}

#[test]
fn worlds_weigh_the_cards_played_by_the_card_play_model() {
    // the real deal played by strong players: its weight is the product,
    // over the cards the other seats chose among two or more, of the
    // model's probability of each to the power asked
    let mut g = Game::deal(Rules::default(), Seat::new(0), 12);
    let mut players: Vec<StrongPlayer> = (0..4).map(|i| StrongPlayer::new(StrongConfig::default(), i)).collect();
    let mut seen = Vec::new();
    while !(g.phase() == Phase::Playing && g.tricks().len() == 6 && g.current_trick().len == 2) {
        let s = g.mandatory_announcement().or(g.to_act()).expect("in play");
        let v = g.view(s);
        let a = players[s.index()].decide(&v);
        if let Action::Play(c) = a
            && v.legal_cards().distinct().len() > 1
        {
            seen.push((s, v, c));
        }
        g.act(s, a).expect("legal");
    }
    let me = g.to_act().expect("to act");
    let v = g.view(me);
    let hands = Seat::ALL.map(|s| g.hand(s));
    for power in [0.5, 1.0] {
        let expected: f64 = seen
            .iter()
            .filter(|(s, _, _)| *s != me)
            .map(|(_, v, c)| (power * Policy::shipped().log_prob(v, *c).expect("legal")).exp())
            .product();
        let cfg = SearchConfig {
            policy: power,
            bid_mismatch: 1.0,
            solo_mismatch: 1.0,
            ..SearchConfig::expert(Duration::ZERO)
        };
        let (_, w) = world_and_weight(&v, hands, &cfg).expect("the real deal fits");
        assert!(expected < 0.5, "many cards chosen: {expected}");
        assert!((w - expected).abs() <= 1e-9 * expected, "power {power}: {w} against {expected}");
    }
}

#[test]
fn a_bid_fits_the_kind_the_table_saw() {
    let solo = |kind| Action::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false }));
    let wedding = Action::Bid(Bid::Reserve(Reservation::Wedding(None)));
    let poverty = Action::Bid(Bid::Reserve(Reservation::Poverty));
    let healthy = Action::Bid(Bid::Healthy);
    let decided = |r| Some(SeenBid::Decided(r));
    let jacks = Reservation::Solo { kind: SoloKind::Jacks, duty: false };
    assert!(bid_fits(healthy, Some(SeenBid::Healthy)));
    assert!(!bid_fits(healthy, Some(SeenBid::Reserved)));
    assert!(!bid_fits(poverty, Some(SeenBid::Healthy)));
    assert!(bid_fits(poverty, Some(SeenBid::Reserved)));
    assert!(bid_fits(solo(SoloKind::Jacks), Some(SeenBid::Reserved)));
    assert!(bid_fits(solo(SoloKind::Jacks), decided(jacks)));
    assert!(bid_fits(solo(SoloKind::Jacks), decided(Reservation::Solo { kind: SoloKind::Jacks, duty: true })));
    assert!(!bid_fits(solo(SoloKind::Queens), decided(jacks)));
    assert!(!bid_fits(healthy, decided(jacks)));
    assert!(!bid_fits(wedding, decided(jacks)));
    assert!(!bid_fits(poverty, decided(Reservation::Wedding(None))));
    assert!(bid_fits(poverty, decided(Reservation::Poverty)));
    assert!(!bid_fits(healthy, None));
}

/// A free solo is declared on a hand that could suit it: in the
/// worlds a defender samples at its first card, a world whose
/// declarer could not have meant the solo weighs at most 0.05 and
/// every other more (the two other bids weigh 0.5 each at most).
/// Before, both weighed the same (the basic player's bid decided).
#[test]
fn worlds_weigh_a_declared_solo_by_the_declarers_hand() {
    let jacks = Reservation::Solo { kind: SoloKind::Jacks, duty: false };
    let cfg = SearchConfig::expert(Duration::ZERO);
    let mut seen = (0, 0);
    for seed in 0..20u64 {
        let mut g = Game::deal(Rules::default(), Seat::new(0), seed);
        let declarer = g.to_act().expect("a seat bids");
        while g.phase() == Phase::Bidding {
            let s = g.to_act().expect("a seat bids");
            let bid = if s == declarer { Bid::Reserve(jacks) } else { Bid::Healthy };
            g.act(s, Action::Bid(bid)).expect("legal");
        }
        let me = declarer.next();
        let v = g.view(me);
        let k = knowledge(&v).expect("knowledge");
        let mut rng = Rng::new(seed);
        for _ in 0..200 {
            let Some(hands) = sample(&k, &v, &mut rng) else { continue };
            let (w, weight) = world_and_weight(&v, hands, &cfg).expect("a world");
            if plausible_solo(w.dealt()[declarer.index()], SoloKind::Jacks) {
                assert!(weight > 0.05, "deal {seed}: a plausible declarer weighs {weight}");
                seen.0 += 1;
            } else {
                assert!(weight <= 0.05, "deal {seed}: an implausible declarer weighs {weight}");
                seen.1 += 1;
            }
        }
    }
    assert!(seen.0 >= 5 && seen.1 >= 500, "{seen:?}");
}

/// The expert weighs the bids seen: in worlds sampled at the first
/// card of a deal every seat said healthy in, a world in which another
/// seat holds both queens of clubs (the basic player would have said
/// wedding) or, where a poverty is allowed, at most two trumps (it
/// would have said poverty) weighs at most 0.5, and a world that
/// weighs 1 has no such seat. Before the bids were weighed every world
/// weighed 1 here (no card has been played).
#[test]
fn worlds_weigh_the_bids_seen() {
    let trumps = doko_engine::normal_game_trumps();
    let mut checked = (0, 0);
    for poverty in [false, true] {
        let rules = Rules { poverty, ..Rules::default() };
        for seed in 0..40u64 {
            let mut g = Game::deal(rules, Seat::new(0), seed);
            while g.phase() == Phase::Bidding {
                let s = g.to_act().expect("a seat bids");
                let a = BasicPlayer.decide(&g.view(s));
                g.act(s, a).expect("legal");
            }
            if g.phase() != Phase::Playing || g.is_solo() {
                continue;
            }
            let me = g.to_act().expect("to act");
            let v = g.view(me);
            if v.public.bids.iter().any(|b| *b != Some(SeenBid::Healthy)) {
                continue;
            }
            let k = knowledge(&v).expect("knowledge");
            let mut rng = Rng::new(seed);
            for _ in 0..50 {
                let Some(hands) = sample(&k, &v, &mut rng) else { continue };
                let (_, w) = world_and_weight(
                    &v,
                    hands,
                    &SearchConfig { mismatch: 1.0, bid_mismatch: 0.5, ..SearchConfig::expert(Duration::ZERO) },
                )
                .expect("a world");
                let reserved = Seat::ALL.iter().filter(|s| **s != me).any(|s| {
                    let h = hands[s.index()];
                    h.count(Card::CQ) == 2 || (poverty && h.with_mask(trumps).len() <= 2)
                });
                if reserved {
                    assert!(w <= 0.5, "deal {seed}: a seat would have reserved, weight {w}");
                    checked.0 += 1;
                } else if w == 1.0 {
                    checked.1 += 1;
                }
            }
        }
    }
    // both kinds of worlds were seen (seen: 326 and 1,790; with the bids
    // not weighed the first world with such a seat weighed 1)
    assert!(checked.0 >= 100 && checked.1 >= 500, "{checked:?}");
}

#[test]
fn playouts_are_the_basic_players_cards_with_the_noise_asked() {
    // a deal bid by basic players, then played out from its first card
    let mut g = Game::deal(Rules::default(), Seat::new(0), 17);
    while g.phase() != Phase::Playing {
        let s = g.to_act().expect("someone bids");
        let a = BasicPlayer.decide(&g.view(s));
        g.act(s, a).expect("legal");
    }
    let played = |noise: u32, seed: u64| {
        let mut w = g.clone();
        playout(&mut w, true, noise, false, &mut Rng::new(seed));
        assert!(w.is_over());
        format!("{:?}", w.tricks())
    };
    // without noise every playout is the same; with one card in five
    // random they differ
    let plain: Vec<String> = (0..12).map(|seed| played(0, seed)).collect();
    assert!(plain.iter().all(|t| *t == plain[0]));
    let noisy: std::collections::HashSet<String> = (0..12).map(|seed| played(PLAYOUT_NOISE, seed)).collect();
    assert!(noisy.len() > 6, "{} different playouts of 12", noisy.len());
}
