//! Computer players: never an illegal action, never over the time budget
//! (over many seeded deals), and the strong player decides from its seat's
//! view only (its `decide` takes a `SeatView`, which holds no other hand).

use std::time::Duration;

use doko_engine::{Game, Rules, Seat};
use doko_players::arena::{self, Kind};
use doko_players::player::Player;
use doko_players::search::{SearchConfig, SearchPlayer};
use doko_players::strong::{StrongConfig, StrongPlayer};

#[test]
fn no_player_ever_chooses_an_illegal_action() {
    let rules = Rules::default();
    let cfg = StrongConfig { worlds: 12, playouts: 1, budget: Duration::from_millis(40) };
    for (a, b) in [(Kind::Strong, Kind::Random), (Kind::Basic, Kind::Random), (Kind::Strong, Kind::Basic)] {
        let r = arena::run(a, b, 12, 7, &rules, cfg);
        assert_eq!(r.illegal, 0, "{a:?} vs {b:?}");
        assert_eq!(r.per_deal.len(), 12);
    }
    // casual rules: poverty, piglets, soloist leads
    let casual = Rules::preset(doko_engine::Preset::Casual);
    let r = arena::run(Kind::Strong, Kind::Basic, 12, 8, &casual, cfg);
    assert_eq!(r.illegal, 0);
}

#[test]
fn the_strong_player_stays_within_its_budget() {
    // The budget is checked between sampled worlds; one world costs
    // microseconds, so the slack below only absorbs a loaded machine.
    let cfg = StrongConfig { worlds: 100_000, playouts: 4, budget: Duration::from_millis(30) };
    let r = arena::run(Kind::Strong, Kind::Basic, 6, 9, &Rules::default(), cfg);
    let worst = r.times[0].iter().max().copied().unwrap_or_default();
    assert!(worst < cfg.budget + Duration::from_millis(250), "slowest decision {worst:?}");
    assert!(r.times[0].iter().filter(|t| **t >= cfg.budget).count() > 0, "the budget was actually used");
}

#[test]
fn the_strong_player_is_reproducible_from_its_seed_and_view() {
    // The player only ever receives a `SeatView` (the type holds no other
    // hand); given the same view and seed it decides the same, legally.
    let rules = Rules::default();
    let mut g = Game::deal(rules, Seat::new(3), 5);
    for s in g.forehand().clockwise() {
        g.act(s, doko_engine::Action::Bid(doko_engine::Bid::Healthy)).unwrap();
    }
    let me = g.to_act().unwrap();
    let view = g.view(me);
    let cfg = StrongConfig { worlds: 20, playouts: 2, budget: Duration::from_secs(5) };
    let a1 = StrongPlayer::new(cfg, 1).decide(&view);
    let a2 = StrongPlayer::new(cfg, 1).decide(&view.clone());
    assert_eq!(a1, a2);
    assert!(view.legal.contains(&a1));
}

fn cards(s: &str) -> doko_engine::Cards {
    s.split_whitespace().map(|c| c.parse::<doko_engine::Card>().unwrap()).collect()
}

#[test]
fn the_strong_player_bids_a_solo_with_a_solo_hand_and_not_without() {
    use doko_engine::{Action, Bid, Reservation, SoloKind};
    // seat 0 is forehand (dealer 3) and holds all eight queens and four aces
    let hands = [
        cards("CQ CQ SQ SQ HQ HQ DQ DQ CA SA HA DA"),
        cards("CA C10 C10 CK CK C9 C9 SA S10 S10 SK SK"),
        cards("S9 S9 HA H10 H10 HK HK H9 H9 DA D10 D10"),
        cards("DK DK D9 D9 CJ CJ SJ SJ HJ HJ DJ DJ"),
    ];
    let g = Game::new(Rules::default(), Seat::new(3), hands).unwrap();
    let cfg = StrongConfig { worlds: 24, playouts: 1, budget: Duration::from_secs(5) };
    let a = StrongPlayer::new(cfg, 3).decide(&g.view(Seat::new(0)));
    assert!(
        matches!(a, Action::Bid(Bid::Reserve(Reservation::Solo { .. }))),
        "a queens solo hand is played as a solo: {a:?}"
    );
    assert_ne!(a, Action::Bid(Bid::Reserve(Reservation::Solo { kind: SoloKind::Kings, duty: false })));
    // seat 1's hand of clubs and spades without trumps stays healthy
    let mut g = g;
    g.act(Seat::new(0), Action::Bid(Bid::Healthy)).unwrap();
    let a = StrongPlayer::new(cfg, 4).decide(&g.view(Seat::new(1)));
    assert_eq!(a, Action::Bid(Bid::Healthy));
}

#[test]
fn the_searching_players_play_legally_within_their_budget_and_beat_random_play() {
    // (a debug build: the budgets are small, the margins wide)
    let budget = Duration::from_millis(20);
    let cfg = StrongConfig { budget, ..StrongConfig::default() };
    let casual = Rules::preset(doko_engine::Preset::Casual);
    for (a, rules) in [(Kind::Expert, Rules::default()), (Kind::Uct, Rules::default()), (Kind::Expert, casual)] {
        let r = arena::run(a, Kind::Random, 6, 21, &rules, cfg);
        assert_eq!(r.illegal, 0, "{a:?}");
        let worst = r.times[0].iter().max().copied().unwrap_or_default();
        assert!(worst < budget + Duration::from_millis(400), "{a:?}: slowest decision {worst:?}");
        // random cards lose: a search that counted the wrong side's
        // points, or chose the worst card, would not win here
        let (mean, _) = r.mean_ci();
        assert!(mean > 0.5, "{a:?} vs random: {mean:+.2} per deal");
    }
}

#[test]
fn the_searching_players_are_reproducible_from_their_seed_and_view() {
    let mut g = Game::deal(Rules::default(), Seat::new(3), 6);
    for s in g.forehand().clockwise() {
        g.act(s, doko_engine::Action::Bid(doko_engine::Bid::Healthy)).unwrap();
    }
    // a few cards in, so the worlds have history to fit
    for _ in 0..5 {
        let s = g.to_act().unwrap();
        let v = g.view(s);
        g.act(s, doko_engine::Action::Play(v.legal_cards().iter().next().unwrap())).unwrap();
    }
    let view = g.view(g.to_act().unwrap());
    // (budgets no decision reaches: the counts decide, not the clock)
    let budget = Duration::from_secs(60);
    let expert = SearchConfig { worlds: 60, ..SearchConfig::expert(budget) };
    for cfg in [expert, SearchConfig::uct(budget)] {
        let a1 = SearchPlayer::with_config(cfg, 3).decide(&view);
        let a2 = SearchPlayer::with_config(cfg, 3).decide(&view.clone());
        assert_eq!(a1, a2);
        assert!(view.legal.contains(&a1));
    }
}
