//! The rule sets and random games the fuzz tests start from.

use doko_engine::{Action, Bid, Game, Phase, Preset, Rng, Rules, Seat, random_game};

const HOUSE: &[&[(&str, &str)]] = &[
    &[],
    &[("dulle", "second-wins")],
    &[("wedding", "first-fail")],
    &[("wedding", "first-trump")],
    &[("mandatory_announcement", "30")],
    &[("re_kontra", "doubles")],
    &[("throw_in_nines", "5"), ("throw_in_kings", "5")],
    &[("poverty", "on"), ("poverty_max_trumps", "5")],
    &[("piglets", "on"), ("superpiglets", "on")],
    &[("solos", "none"), ("extra_points", "none"), ("compulsory_solos", "0")],
];

/// A rule set from a number: preset, nines, one house-rule variation.
pub fn rules_of(i: usize) -> Rules {
    let preset = if i & 1 == 0 { Preset::Ddv } else { Preset::Casual };
    let mut r = Rules::preset(preset);
    r.nines = i & 2 == 0;
    for (k, v) in HOUSE[(i >> 2) % HOUSE.len()] {
        r.set(k, v).expect("valid house rule");
    }
    r
}

/// A random finished or void game: the library's random game, or one with
/// more reservations and announcements.
pub fn game_of(rules: &Rules, rng: &mut Rng) -> Game {
    if rng.below(2) == 0 {
        return random_game(rules, rng);
    }
    let mut g = Game::deal(*rules, Seat::ALL[rng.below(4)], rng.next_u64());
    while let Some(s) = g.to_act() {
        let (seat, a) = legal_step(&g, s, rng);
        g.act(seat, a).expect("legal");
    }
    g
}

/// A random legal step of the seat on turn (or an announcement by anyone).
pub fn legal_step(g: &Game, s: Seat, rng: &mut Rng) -> (Seat, Action) {
    if g.phase() == Phase::Playing && rng.below(6) == 0 {
        let t = Seat::ALL[rng.below(4)];
        let calls = g.legal_calls(t);
        if !calls.is_empty() {
            return (t, Action::Announce(calls[rng.below(calls.len())]));
        }
    }
    if g.phase() == Phase::Bidding && rng.below(3) != 0 {
        return (s, Action::Bid(Bid::Healthy));
    }
    let acts = g.legal_actions(s);
    assert!(!acts.is_empty(), "seat {s} on turn without a legal action");
    // cards rather than calls when on turn in play
    let cards: Vec<Action> = acts.iter().copied().filter(|a| matches!(a, Action::Play(_))).collect();
    if !cards.is_empty() && rng.below(8) != 0 {
        return (s, cards[rng.below(cards.len())]);
    }
    (s, acts[rng.below(acts.len())])
}
