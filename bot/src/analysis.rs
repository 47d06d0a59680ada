//! Analysis after a deal (`analysis [N]`): each card a person played is
//! examined again from that person's own view at the time (their hand and
//! what the table had seen, nothing else), as the strong player examines
//! its own choices: deals of the unseen cards that fit the view are
//! sampled, and every card the person could have played is played out in
//! each of them by the basic player's conventions. Where the card played
//! did clearly worse in the same worlds than the best alternative (by at
//! least [`AnalysisConfig::min_cost`] points and by more than twice the
//! paired difference's standard error), it is a finding.
//!
//! Cards in a poverty game are examined too (the seats outside the
//! exchange in worlds with an exchange that fits them, as the expert
//! samples them); bids, announcements and the exchange are not examined.

use doko_engine::{Action, Card, Game, Phase, Record, Rng, Seat};

use crate::search::playout;
use crate::strong::{knowledge, sample, world};

/// How thoroughly a deal is examined.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AnalysisConfig {
    /// Sampled worlds per decision.
    pub worlds: usize,
    /// Playouts per card and world.
    pub playouts: usize,
    /// The smallest cost (game points per deal) that is named.
    pub min_cost: f64,
    /// At most this many findings, the costliest.
    pub max_findings: usize,
}

impl Default for AnalysisConfig {
    fn default() -> AnalysisConfig {
        AnalysisConfig { worlds: 48, playouts: 2, min_cost: 0.5, max_findings: 3 }
    }
}

/// A card that did clearly worse than another the person could have played.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Finding {
    /// The trick it was played to (from 1).
    pub trick: usize,
    /// The card played.
    pub played: Card,
    /// The best card in the same worlds.
    pub better: Card,
    /// The expected cost in game points (the person's own score).
    pub cost: f64,
}

/// What examining a deal for one seat found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Card decisions examined (those with a choice).
    pub examined: usize,
    /// The findings, in the order of play.
    pub findings: Vec<Finding>,
}

/// Examines every card `seat` played in the deal `record` (replayed through
/// the engine; a record it refuses is examined up to there).
pub fn analyse(record: &Record, seat: Seat, cfg: &AnalysisConfig, seed: u64) -> Analysis {
    let mut rng = Rng::new(seed);
    let mut out = Analysis::default();
    let start = Record { actions: Vec::new(), ..record.clone() };
    let Ok(mut g) = start.to_game() else { return out };
    let mut found: Vec<Finding> = Vec::new();
    for (s, a) in &record.actions {
        if *s == seat
            && let Action::Play(played) = a
            && g.phase() == Phase::Playing
            && g.legal_cards(seat).len() > 1
        {
            out.examined += 1;
            found.extend(examine(&g, seat, *played, cfg, &mut rng));
        }
        if g.act(*s, *a).is_err() {
            break;
        }
    }
    found.sort_by(|a, b| b.cost.total_cmp(&a.cost));
    found.truncate(cfg.max_findings);
    found.sort_by_key(|f| f.trick);
    out.findings = found;
    out
}

/// One card decision: the played card against the best alternative.
fn examine(g: &Game, seat: Seat, played: Card, cfg: &AnalysisConfig, rng: &mut Rng) -> Option<Finding> {
    let v = g.view(seat);
    let cands: Vec<Card> = v.legal_cards().iter().collect();
    let k = knowledge(&v)?;
    // per world and card: the mean score of the playouts
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut tries = 0;
    while rows.len() < cfg.worlds && tries < cfg.worlds * 4 {
        tries += 1;
        let Some(hands) = sample(&k, &v, rng) else { continue };
        let Some(w) = world(&v, hands) else { continue };
        let row = cands
            .iter()
            .map(|c| {
                let mut total = 0.0;
                for _ in 0..cfg.playouts {
                    let mut p = w.clone();
                    if p.play(seat, *c).is_err() {
                        return f64::NAN; // this world's order differs: no value
                    }
                    playout(&mut p, true, rng);
                    total += p.score().map_or(0.0, |s| f64::from(s.scores[seat.index()]));
                }
                total / cfg.playouts as f64
            })
            .collect::<Vec<f64>>();
        // a world where some card could not be played does not count
        if row.iter().all(|x| x.is_finite()) {
            rows.push(row);
        }
    }
    let n = rows.len();
    if n < 8 {
        return None;
    }
    let mean = |i: usize| rows.iter().map(|r| r[i]).sum::<f64>() / n as f64;
    let best = (0..cands.len()).max_by(|a, b| mean(*a).total_cmp(&mean(*b)))?;
    let chosen = cands.iter().position(|c| *c == played)?;
    if best == chosen {
        return None;
    }
    // the same worlds for both cards: the paired difference's error
    let diffs: Vec<f64> = rows.iter().map(|r| r[best] - r[chosen]).collect();
    let cost = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - cost).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    (cost >= cfg.min_cost && cost > 2.0 * se).then_some(Finding {
        trick: g.tricks().len() + 1,
        played,
        better: cands[best],
        cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{BasicPlayer, Player, RandomPlayer};
    use doko_engine::Rules;

    /// A deal played by basic players except `seat`, which plays randomly.
    fn deal(seed: u64, seat: Seat) -> Record {
        let mut g = Game::deal(Rules::default(), Seat::new(0), seed);
        let mut random = RandomPlayer(Rng::new(seed));
        while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
            let v = g.view(s);
            let a = if s == seat && g.phase() == Phase::Playing && !g.legal_cards(s).is_empty() {
                Action::Play(g.legal_cards(s).nth(random.0.below(g.legal_cards(s).len())).expect("a card"))
            } else {
                BasicPlayer.decide(&v)
            };
            g.act(s, a).expect("legal");
        }
        Record::from_game(&g)
    }

    #[test]
    fn findings_are_the_seats_own_costly_cards_in_play_order() {
        let cfg = AnalysisConfig { worlds: 24, playouts: 1, ..AnalysisConfig::default() };
        let mut findings = 0;
        for seed in 0..6 {
            let rec = deal(seed, Seat::new(1));
            let a = analyse(&rec, Seat::new(1), &cfg, seed);
            assert!(a.examined > 0);
            assert!(a.findings.len() <= cfg.max_findings);
            assert!(a.findings.windows(2).all(|w| w[0].trick <= w[1].trick));
            // each finding is a card the seat played, against one it held
            let mine: Vec<Card> = rec
                .actions
                .iter()
                .filter_map(|(s, x)| match x {
                    Action::Play(c) if *s == Seat::new(1) => Some(*c),
                    _ => None,
                })
                .collect();
            for f in &a.findings {
                assert!(f.cost >= cfg.min_cost && f.played != f.better && (1..=12).contains(&f.trick));
                assert_eq!(mine[f.trick - 1], f.played);
                assert!(rec.hands[1].contains(f.better));
            }
            // the same seed, the same answer
            assert_eq!(analyse(&rec, Seat::new(1), &cfg, seed), a);
            findings += a.findings.len();
        }
        // random cards: some clearly cost points
        assert!(findings > 0);
    }
}
