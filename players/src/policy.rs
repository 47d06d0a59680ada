//! The card-play model the expert reads hidden hands with: how likely a
//! seat holding a given hand was to play each of its legal cards.
//!
//! A softmax over the legal cards of a linear score of each card's
//! features (whether the basic player would play it, whether it takes the
//! trick, its points, whether it stands, ...). The weights are learned
//! offline from self-play records by `players/examples/train_policy.rs`
//! (`scripts/train-policy` runs it) and shipped in `players/model/policy.txt`.
//!
//! The expert weighs each sampled world by how well the world's hands
//! explain the cards the other seats played: a world in which a seat would
//! rarely have played the card it did is unlikely.

use std::sync::OnceLock;

use doko_engine::{Card, Cards, Class, Rank, SeatView};

use crate::player::{basic_view_card, known_partner, winning};

/// The features of a card, by name, in the order of the weights.
pub const FEATURES: [&str; F] = [
    "basic",
    "trump",
    "points",
    "lead_trump",
    "lead_ace",
    "lead_points",
    "wins",
    "wins_last",
    "wins_trick_points",
    "smear_partner",
    "points_to_other",
    "trump_power",
    "highest",
    "lowest",
    "club_queen",
    "hearts_ten",
    "diamonds_ace",
    "picture_trump",
    "held_twice",
    "class_length",
    "singleton",
    "stands",
    "lead_stands",
    "ruff",
    "over_partner",
];

/// How many features a card has.
pub const F: usize = 25;

/// One card's features.
pub type Features = [f32; F];

/// A seat's legal cards (each once) and their features.
pub fn candidates(v: &SeatView) -> (Vec<Card>, Vec<Features>) {
    let legal = v.legal_cards().distinct();
    let cards: Vec<Card> = legal.iter().collect();
    if cards.is_empty() {
        return (cards, Vec::new());
    }
    let order = &v.order;
    let trick = &v.public.trick;
    let played = trick.played();
    let basic = basic_view_card(v);
    // the cards not yet played and not in the hand: what could still beat a card
    let mut out = Cards::pack(v.public.rules.nines);
    for c in v.hand.iter().chain(played.iter().copied()).chain(v.public.tricks.iter().flat_map(|t| t.cards)) {
        out.remove(c);
    }
    let stands = |c: Card| {
        let class = order.class(c);
        !out.with_mask(order.mask(class)).iter().any(|o| order.power(o) > order.power(c))
    };
    let win = winning(order, trick);
    let led = win.map(|(led, _, _)| led);
    let trick_points: u32 = played.iter().map(|c| u32::from(c.points())).sum();
    let key = |c: Card| match led {
        Some(l) => order.trick_key(c, l),
        None => u16::from(order.power(c)) + if order.is_trump(c) { 256 } else { 0 },
    };
    let (hi, lo) = (cards.iter().map(|c| key(*c)).max().unwrap_or(0), cards.iter().map(|c| key(*c)).min().unwrap_or(0));
    let b = |x: bool| f32::from(u8::from(x));
    let feats = cards
        .iter()
        .map(|&c| {
            let trump = order.is_trump(c);
            let points = f32::from(c.points()) / 11.0;
            let lead = played.is_empty();
            let wins = win.is_some_and(|(l, _, best)| order.trick_key(c, l) > best);
            let partner_wins = win.is_some_and(|(_, w, _)| known_partner(v, w));
            let length = v.hand.with_mask(order.mask(order.class(c))).len();
            let st = stands(c);
            [
                b(c == basic),
                b(trump),
                points,
                b(lead && trump),
                b(lead && !trump && c.rank() == Rank::Ace),
                if lead { points } else { 0.0 },
                b(wins),
                b(wins && played.len() == 3),
                if wins { trick_points as f32 / 30.0 } else { 0.0 },
                if partner_wins { points } else { 0.0 },
                if !lead && !partner_wins && !wins { points } else { 0.0 },
                if trump { f32::from(order.power(c)) / 255.0 } else { 0.0 },
                b(cards.len() > 1 && key(c) == hi),
                b(cards.len() > 1 && key(c) == lo),
                b(c == Card::CQ),
                b(trump && c == Card::H10),
                b(trump && c == Card::DA),
                b(trump && matches!(c.rank(), Rank::Queen | Rank::Jack)),
                b(v.hand.count(c) == 2),
                length as f32 / 12.0,
                b(!trump && length == 1),
                b(st),
                b(lead && st),
                b(led.is_some_and(|l| l != Class::Trump) && trump),
                b(partner_wins && wins),
            ]
        })
        .collect();
    (cards, feats)
}

/// A trained model: one weight per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// The weights, in the order of [`FEATURES`].
    pub weights: Features,
}

/// Why a model file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// A line is not `name weight`.
    #[error("line {0}: not `name weight`")]
    Line(usize),
    /// A feature the model needs has no weight, or one it does not know has.
    #[error("feature {0}: missing or unknown")]
    Feature(String),
}

/// The shipped model (`players/model/policy.txt`).
const SHIPPED: &str = include_str!("../model/policy.txt");

impl Policy {
    /// The shipped model.
    pub fn shipped() -> &'static Policy {
        static P: OnceLock<Policy> = OnceLock::new();
        P.get_or_init(|| Policy::parse(SHIPPED).expect("the shipped model parses (a test checks it)"))
    }

    /// A model from its file: `name weight` lines, `#` comments.
    pub fn parse(text: &str) -> Result<Policy, PolicyError> {
        let mut weights = [f32::NAN; F];
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, w) = line.split_once(char::is_whitespace).ok_or(PolicyError::Line(i + 1))?;
            let w: f32 = w.trim().parse().map_err(|_| PolicyError::Line(i + 1))?;
            let j = FEATURES.iter().position(|f| *f == name).ok_or_else(|| PolicyError::Feature(name.into()))?;
            weights[j] = w;
        }
        if let Some(j) = weights.iter().position(|w| w.is_nan()) {
            return Err(PolicyError::Feature(FEATURES[j].into()));
        }
        Ok(Policy { weights })
    }

    /// The model as its file's text.
    pub fn to_text(&self) -> String {
        FEATURES.iter().zip(self.weights).map(|(n, w)| format!("{n} {w:.5}\n")).collect()
    }

    /// Each candidate's probability (a softmax of the scores).
    pub fn probabilities(&self, feats: &[Features]) -> Vec<f64> {
        let scores: Vec<f64> = feats.iter().map(|f| self.score(f)).collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
        let sum: f64 = exp.iter().sum();
        exp.into_iter().map(|e| e / sum).collect()
    }

    fn score(&self, f: &Features) -> f64 {
        self.weights.iter().zip(f).map(|(w, x)| f64::from(*w) * f64::from(*x)).sum()
    }

    /// The natural log of the probability that the seat of `v` plays
    /// `card`; `None` when it is not one of its legal cards.
    pub fn log_prob(&self, v: &SeatView, card: Card) -> Option<f64> {
        let (cards, feats) = candidates(v);
        let i = cards.iter().position(|c| *c == card)?;
        Some(self.probabilities(&feats)[i].ln())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{BasicPlayer, Player};
    use doko_engine::{Action, Game, Phase, Rules, Seat};

    #[test]
    fn the_shipped_model_parses_and_names_every_feature_once() {
        let p = Policy::parse(SHIPPED).expect("parses");
        assert_eq!(Policy::parse(&p.to_text()).expect("round trip"), p);
        let mut names = FEATURES.to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), F);
        assert!(Policy::parse("basic 1\n").is_err(), "a model without every weight is refused");
        assert!(Policy::parse("nonsense 1\n").is_err());
    }

    #[test]
    fn the_shipped_model_predicts_the_strong_players_cards_better_than_a_guess() {
        use crate::strong::{StrongConfig, StrongPlayer};
        let model = Policy::shipped();
        let (mut model_ll, mut uniform_ll, mut n) = (0.0, 0.0, 0);
        for seed in 100..106 {
            let mut players: Vec<StrongPlayer> = (0..4)
                .map(|i| StrongPlayer::new(StrongConfig { worlds: 12, ..StrongConfig::default() }, seed + i))
                .collect();
            let mut g = Game::deal(Rules::default(), Seat::new(0), seed);
            while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
                let v = g.view(s);
                let a = players[s.index()].decide(&v);
                if g.phase() == Phase::Playing
                    && let Action::Play(c) = a
                    && v.legal_cards().distinct().len() > 1
                {
                    model_ll += model.log_prob(&v, c).expect("a legal card");
                    uniform_ll -= (v.legal_cards().distinct().len() as f64).ln();
                    n += 1;
                }
                g.act(s, a).expect("legal");
            }
        }
        assert!(n > 100, "six deals have many choices of card ({n})");
        let gain = (model_ll - uniform_ll) / f64::from(n);
        assert!(gain > 0.05, "the model's log likelihood per card beats a uniform guess by {gain:.3}");
    }

    #[test]
    fn a_model_that_trusts_the_basic_player_prefers_its_card() {
        let mut w = [0.0; F];
        w[0] = 3.0;
        let model = Policy { weights: w };
        let mut g = Game::deal(Rules::default(), Seat::new(0), 7);
        let mut checked = 0;
        while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
            let v = g.view(s);
            let a = BasicPlayer.decide(&v);
            if g.phase() == Phase::Playing
                && let Action::Play(c) = a
                && v.legal_cards().distinct().len() > 1
            {
                let (cards, feats) = candidates(&v);
                let p = model.probabilities(&feats);
                let best = (0..cards.len()).max_by(|x, y| p[*x].total_cmp(&p[*y])).expect("cards");
                assert_eq!(cards[best], c);
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                assert!(model.log_prob(&v, c).expect("legal") > (1.0 / cards.len() as f64).ln());
                checked += 1;
            }
            g.act(s, a).expect("legal");
        }
        assert!(checked > 10, "a deal has many choices of card ({checked})");
    }
}
