//! The rule variants the properties run under, and the random driver that
//! plays their deals step by step.

use doko_engine::{Action, Bid, Card, Cards, Game, Phase, Preset, Reservation, Rng, Rules, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

// ---------------------------------------------------------------------
// Rule variants
// ---------------------------------------------------------------------

pub type TestResult = Result<(), TestCaseError>;

/// The house-rule variations, applied on top of each preset.
const HOUSE: &[(&str, &[(&str, &str)])] = &[
    ("", &[]),
    ("dulle=second-wins", &[("dulle", "second-wins")]),
    ("wedding=first-fail", &[("wedding", "first-fail")]),
    ("wedding=first-trump", &[("wedding", "first-trump")]),
    ("mandatory_announcement=30", &[("mandatory_announcement", "30")]),
    (
        "mandatory_announcement=30,mandatory_further=on",
        &[("mandatory_announcement", "30"), ("mandatory_further", "on")],
    ),
    ("re_kontra=doubles", &[("re_kontra", "doubles")]),
    ("throw_in_nines=5", &[("throw_in_nines", "5")]),
    ("poverty=on,poverty_max_trumps=5", &[("poverty", "on"), ("poverty_max_trumps", "5")]),
    (
        "poverty=on,poverty_fox_counts=off,poverty_return_trumps=off",
        &[("poverty", "on"), ("poverty_fox_counts", "off"), ("poverty_return_trumps", "off")],
    ),
    ("piglets+superpiglets", &[("piglets", "on"), ("superpiglets", "on")]),
    ("piglets+piglets_first_only", &[("piglets", "on"), ("piglets_first_only", "on")]),
    ("announce_on_turn=on", &[("announce_on_turn", "on")]),
    ("dullen=off,poverty=on", &[("dullen", "off"), ("poverty", "on")]),
    ("re_deadline=before-first-card", &[("re_deadline", "before-first-card")]),
    ("throw_in_low_trumps=3,throw_in_low_points=50", &[("throw_in_low_trumps", "3"), ("throw_in_low_points", "50")]),
    ("solo_priority=last,solo_double=on", &[("solo_priority", "last"), ("solo_double", "on")]),
    (
        "piglets_when=play,piglets_announce,half_chicken",
        &[
            ("piglets", "on"),
            ("superpiglets", "on"),
            ("piglets_when", "play"),
            ("piglets_announce", "on"),
            ("half_chicken", "on"),
        ],
    ),
    ("genscher=on", &[("genscher", "on")]),
    ("black_sow=on,poverty_max_trumps=5", &[("poverty", "on"), ("black_sow", "on"), ("poverty_max_trumps", "5")]),
    ("wedding_choose=on,wedding=first-trump", &[("wedding_choose", "on"), ("wedding", "first-trump")]),
    (
        "piglets_announce,mandatory_announcement=30",
        &[("piglets", "on"), ("piglets_announce", "on"), ("mandatory_announcement", "30")],
    ),
    (
        "everything",
        &[
            ("dulle", "second-wins-except-last"),
            ("wedding", "first-trump"),
            ("mandatory_announcement", "30"),
            ("mandatory_further", "on"),
            ("re_kontra", "doubles"),
            ("throw_in_nines", "5"),
            ("throw_in_kings", "5"),
            ("poverty", "on"),
            ("poverty_max_trumps", "5"),
            ("piglets", "on"),
            ("superpiglets", "on"),
            ("solos", "diamonds hearts spades clubs queens jacks aces kings"),
            (
                "extra_points",
                "against-the-elders doppelkopf fox charlie fox-last-trick charlie-caught fox-first-trick dulle-caught heart-trick",
            ),
            ("compulsory_solos", "2"),
            ("soloist_leads", "true"),
            ("solo_double", "on"),
            ("solo_priority", "last"),
            ("announce_on_turn", "on"),
            ("re_deadline", "before-first-card"),
            ("bock", "on"),
            ("bock_triggers", "tie lost-re lost-kontra heart-trick lost-solo"),
            ("bock_stacking", "stack"),
            ("piglets_announce", "on"),
            ("half_chicken", "on"),
            ("genscher", "on"),
            ("wedding_choose", "on"),
            ("black_sow", "on"),
        ],
    ),
];

/// Every rule set the properties run under: 2 presets x nines on/off x
/// the house-rule variations.
pub fn variants() -> Vec<(String, Rules)> {
    let mut out = Vec::new();
    for preset in Preset::ALL {
        for nines in [true, false] {
            for (name, sets) in HOUSE {
                let mut r = Rules::preset(preset);
                r.nines = nines;
                for (k, v) in *sets {
                    r.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
                }
                let label = format!("{}{}{}{}", preset.name(), if nines { "" } else { ",no-nines" }, ",", name);
                out.push((label, r));
            }
        }
    }
    out
}

pub fn n_variants() -> usize {
    Preset::ALL.len() * 2 * HOUSE.len()
}

// ---------------------------------------------------------------------
// Random driver
// ---------------------------------------------------------------------

/// Which bids the driver makes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bids {
    /// Healthy mostly, else a random allowed reservation.
    Any,
    /// Always healthy: normal games and silent solos.
    Healthy,
    /// Healthy or a solo: bids allowed whatever the hand.
    HandFree,
}

/// Chooses a random legal step. Bids are healthy most of the time (so that
/// normal games and silent solos are common), otherwise a random
/// reservation; in play, now and then a random seat makes a random legal
/// call; poverty steps are uniform over the legal actions. `None` when the
/// deal is over.
pub fn choose(g: &Game, rng: &mut Rng, bids: Bids) -> Option<(Seat, Action)> {
    let s = g.to_act()?;
    let pick = |rng: &mut Rng, v: &[Action]| -> Action {
        assert!(!v.is_empty(), "seat {s} is on turn but has no legal action: {g:?}");
        v[rng.below(v.len())]
    };
    Some(match g.phase() {
        Phase::Bidding => {
            let allowed = g.legal_bids(s);
            assert!(allowed.contains(&Bid::Healthy), "healthy is always allowed");
            let r = rng.below(100);
            let bid = if bids == Bids::Healthy || r < 65 {
                Bid::Healthy
            } else if bids == Bids::HandFree {
                let solos: Vec<Bid> =
                    allowed.iter().copied().filter(|b| matches!(b, Bid::Reserve(Reservation::Solo { .. }))).collect();
                if solos.is_empty() { Bid::Healthy } else { solos[rng.below(solos.len())] }
            } else if r < 88 {
                // prefer the reservations that depend on the hand
                let special: Vec<Bid> = allowed
                    .iter()
                    .copied()
                    .filter(|b| matches!(b, Bid::Reserve(r) if !matches!(r, Reservation::Solo { .. })))
                    .collect();
                if special.is_empty() { Bid::Healthy } else { special[rng.below(special.len())] }
            } else {
                allowed[rng.below(allowed.len())]
            };
            (s, Action::Bid(bid))
        }
        Phase::Playing => {
            if rng.below(10) == 0 {
                let t = Seat::ALL[rng.below(4)];
                let calls = g.legal_calls(t);
                if !calls.is_empty() {
                    // mostly the lowest call, sometimes a jump
                    let c = if rng.below(3) == 0 { calls[rng.below(calls.len())] } else { calls[0] };
                    return Some((t, Action::Announce(c)));
                }
            }
            let cards = g.legal_cards(s);
            if cards.is_empty() {
                // a mandatory announcement is owed
                (s, pick(rng, &g.legal_actions(s)))
            } else {
                (s, Action::Play(cards.nth(rng.below(cards.len())).expect("in range")))
            }
        }
        _ => (s, pick(rng, &g.legal_actions(s))),
    })
}

/// Deals from a seed and plays to the end with [`choose`], calling `each`
/// on every state (the dealt game included, the final one included).
pub fn drive(
    rules: &Rules,
    seed: u64,
    bids: Bids,
    mut each: impl FnMut(&Game) -> TestResult,
) -> Result<Game, TestCaseError> {
    let mut rng = Rng::new(seed);
    let dealer = Seat::ALL[rng.below(4)];
    let mut g = Game::deal(*rules, dealer, rng.next_u64());
    each(&g)?;
    let mut steps = 0;
    while let Some((s, a)) = choose(&g, &mut rng, bids) {
        g.act(s, a).map_err(|e| TestCaseError::fail(format!("chosen legal action {a:?} by {s} refused: {e}")))?;
        each(&g)?;
        steps += 1;
        prop_assert!(steps < 200, "the deal does not end");
    }
    Ok(g)
}

/// The game the driver reaches from a seed.
pub fn play(rules: &Rules, seed: u64) -> Game {
    drive(rules, seed, Bids::Any, |_| Ok(())).expect("driver")
}

/// Every card played so far, with its player, in order.
pub fn played(g: &Game) -> Vec<(Seat, Card)> {
    let mut v = Vec::new();
    for t in g.tricks() {
        for i in 0..4 {
            v.push((t.player(i), t.cards[i]));
        }
    }
    let cur = g.current_trick();
    for (i, c) in cur.played().iter().enumerate() {
        v.push((cur.leader.plus(i), *c));
    }
    v
}

pub fn add(a: Cards, b: Cards) -> Cards {
    a.checked_add(b).expect("a card more than twice")
}
