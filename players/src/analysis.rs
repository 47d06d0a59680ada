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

use doko_engine::{Action, Bid, Call, Card, Cards, Game, Phase, Record, Rng, Seat};

use crate::simulate::{card_worlds, rows, won};
use crate::worlds::{bid_world, considered, exchange_candidates, exchange_world};

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

/// One of the person's decisions, as made or as it could have been.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Choice {
    /// A card played.
    Card(Card),
    /// A bid (staying healthy or a reservation).
    Bid(Bid),
    /// An announcement said (`true`) or not said (`false`) before a card.
    Call(Call, bool),
    /// A poverty taken (`true`) or declined (`false`).
    Answer(bool),
    /// Cards put down as the pauper.
    Give(Cards),
    /// Cards returned as the acceptor.
    Return(Cards),
}

/// A decision that did clearly worse than another the person could have
/// made.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Finding {
    /// The trick it was made in (from 1; 0 before the first: bids and
    /// poverty answers).
    pub trick: usize,
    /// What the person did.
    pub made: Choice,
    /// The best alternative in the same worlds.
    pub better: Choice,
    /// The expected cost in game points (the person's own score).
    pub cost: f64,
    /// Why the better choice, as the coach names it: a card's role in its
    /// trick, or the share of the simulated deals its side won with it.
    pub why: Option<crate::coach::Why>,
}

/// What examining a deal for one seat found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Decisions examined (those with a choice).
    pub examined: usize,
    /// The findings, in the order of play.
    pub findings: Vec<Finding>,
}

/// Examines every decision `seat` made with a choice in the deal `record`
/// (replayed through the engine; a record it refuses is examined up to
/// there): its bid, its answer to a poverty and the cards it put down or
/// returned in one, each card (and whether to say the announcement it
/// could have said before it) and each announcement it said. Owed
/// announcements are not examined (there was no choice).
pub fn analyse(record: &Record, seat: Seat, cfg: &AnalysisConfig, seed: u64) -> Analysis {
    let mut rng = Rng::new(seed);
    let mut out = Analysis::default();
    let Ok(mut g) = Game::new(record.rules, record.dealer, record.hands) else { return out };
    // the bids (all healthy where the record has none), then the play
    let bids: Vec<(Seat, Action)> = match &record.bids {
        Some(b) => b.iter().map(|(s, b)| (*s, Action::Bid(*b))).collect(),
        None => g.forehand().clockwise().into_iter().map(|s| (s, Action::Bid(Bid::Healthy))).collect(),
    };
    let mut found: Vec<Finding> = Vec::new();
    for (s, a) in bids.iter().chain(&record.actions) {
        if *s == seat {
            let before = found.len();
            let examined = match (g.phase(), a) {
                (Phase::Bidding, Action::Bid(b)) => examine_bid(&g, seat, *b, cfg, &mut rng, &mut found),
                (Phase::PovertyOffer, Action::Answer(x)) => examine_answer(&g, seat, *x, cfg, &mut rng, &mut found),
                (Phase::PovertyGive, Action::Give(_)) | (Phase::PovertyReturn, Action::Return(_)) => {
                    examine_exchange(&g, seat, *a, cfg, &mut rng, &mut found)
                }
                (Phase::Playing, Action::Play(c)) if g.mandatory_announcement() != Some(seat) => {
                    examine_card(&g, seat, *c, cfg, &mut rng, &mut found)
                }
                (Phase::Playing, Action::Announce(c)) if g.mandatory_announcement() != Some(seat) => {
                    examine_call(&g, seat, *c, cfg, &mut rng, &mut found)
                }
                _ => false,
            };
            debug_assert!(examined || found.len() == before);
            out.examined += usize::from(examined);
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

/// The cost of line `chosen` against line `alt` in the same worlds, when
/// clearly worse: at least `min_cost` and more than twice the paired
/// difference's standard error.
fn cost(rows: &[Vec<f64>], chosen: usize, alt: usize, cfg: &AnalysisConfig) -> Option<f64> {
    let n = rows.len();
    if n < 8 {
        return None;
    }
    let diffs: Vec<f64> = rows.iter().map(|r| r[alt] - r[chosen]).collect();
    let cost = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - cost).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    (cost >= cfg.min_cost && cost > 2.0 * se).then_some(cost)
}

/// A decision's reason as the coach gives it: the share of the worlds won.
fn chance((percent, deals): (u8, usize)) -> crate::coach::Why {
    crate::coach::Why::Chance { percent, deals }
}

/// The line with the best mean.
fn best(rows: &[Vec<f64>]) -> Option<usize> {
    let width = rows.first()?.len();
    let mean = |i: usize| rows.iter().map(|r| r[i]).sum::<f64>();
    (0..width).max_by(|a, b| mean(*a).total_cmp(&mean(*b)))
}

/// A card: against every other card the seat could play, and (when it
/// could say one and did not) against saying the lowest announcement first.
fn examine_card(
    g: &Game,
    seat: Seat,
    played: Card,
    cfg: &AnalysisConfig,
    rng: &mut Rng,
    out: &mut Vec<Finding>,
) -> bool {
    let v = g.view(seat);
    let cards: Vec<Card> = v.legal_cards().iter().collect();
    let call = g.legal_calls(seat).first().copied();
    if cards.len() < 2 && call.is_none() {
        return false;
    }
    let mut lines: Vec<Vec<Action>> = cards.iter().map(|c| vec![Action::Play(*c)]).collect();
    lines.extend(call.map(|c| vec![Action::Announce(c), Action::Play(played)]));
    let Some(worlds) = card_worlds(&v) else { return false };
    let rows = rows(seat, &lines, (cfg.worlds, cfg.playouts), rng, false, worlds);
    let Some(chosen) = cards.iter().position(|c| *c == played) else { return false };
    let trick = g.tricks().len() + 1;
    let best_card = best(&rows.iter().map(|r| r[..cards.len()].to_vec()).collect::<Vec<_>>());
    if let Some(b) = best_card.filter(|b| *b != chosen)
        && let Some(cost) = cost(&rows, chosen, b, cfg)
    {
        let why = Some(crate::coach::Why::Card(crate::coach::role(&v, cards[b])));
        out.push(Finding { trick, made: Choice::Card(played), better: Choice::Card(cards[b]), cost, why });
    }
    if let Some(c) = call
        && let Some(cost) = cost(&rows, chosen, cards.len(), cfg)
    {
        let why = Some(chance(won(&rows, cards.len())));
        out.push(Finding { trick, made: Choice::Call(c, false), better: Choice::Call(c, true), cost, why });
    }
    true
}

/// An announcement said: against not saying it.
fn examine_call(g: &Game, seat: Seat, call: Call, cfg: &AnalysisConfig, rng: &mut Rng, out: &mut Vec<Finding>) -> bool {
    let v = g.view(seat);
    let lines = vec![vec![Action::Announce(call)], Vec::new()];
    let Some(worlds) = card_worlds(&v) else { return false };
    let rows = rows(seat, &lines, (cfg.worlds, cfg.playouts), rng, false, worlds);
    if let Some(cost) = cost(&rows, 0, 1, cfg) {
        let trick = g.tricks().len() + 1;
        let why = Some(chance(won(&rows, 1)));
        out.push(Finding { trick, made: Choice::Call(call, true), better: Choice::Call(call, false), cost, why });
    }
    true
}

/// A bid: against the bids the expert weighs (staying healthy, a wedding
/// or its silent solo, a poverty, throwing in, a solo that could suit the
/// hand), in deals sampled around the hand and played out by basic players.
fn examine_bid(g: &Game, seat: Seat, made: Bid, cfg: &AnalysisConfig, rng: &mut Rng, out: &mut Vec<Finding>) -> bool {
    let v = g.view(seat);
    let mut bids = vec![made];
    for a in &v.legal {
        if let Action::Bid(b) = a
            && considered(&v, a)
            && !bids.contains(b)
        {
            bids.push(*b);
        }
    }
    if bids.len() < 2 {
        return false;
    }
    let lines: Vec<Vec<Action>> = bids.iter().map(|b| vec![Action::Bid(*b)]).collect();
    let rows = rows(seat, &lines, (cfg.worlds, cfg.playouts), rng, true, |rng| bid_world(&v, rng));
    if let Some(b) = best(&rows).filter(|b| *b != 0)
        && let Some(cost) = cost(&rows, 0, b, cfg)
    {
        let why = Some(chance(won(&rows, b)));
        out.push(Finding { trick: 0, made: Choice::Bid(made), better: Choice::Bid(bids[b]), cost, why });
    }
    true
}

/// Cards put down or returned in a poverty: against the sets the expert
/// weighs ([`exchange_candidates`]), in deals sampled around what the seat
/// saw, played out by basic players.
fn examine_exchange(
    g: &Game,
    seat: Seat,
    made: Action,
    cfg: &AnalysisConfig,
    rng: &mut Rng,
    out: &mut Vec<Finding>,
) -> bool {
    let v = g.view(seat);
    let mut lines = vec![vec![made]];
    lines.extend(exchange_candidates(&v).into_iter().filter(|a| *a != made).map(|a| vec![a]));
    if lines.len() < 2 {
        return false;
    }
    let rows = rows(seat, &lines, (cfg.worlds, cfg.playouts), rng, true, |rng| exchange_world(&v, rng));
    let choice = |a: Action| match a {
        Action::Give(c) => Some(Choice::Give(c)),
        Action::Return(c) => Some(Choice::Return(c)),
        _ => None,
    };
    if let Some(b) = best(&rows).filter(|b| *b != 0)
        && let Some(cost) = cost(&rows, 0, b, cfg)
        && let (Some(made), Some(better)) = (choice(made), choice(lines[b][0]))
    {
        out.push(Finding { trick: 0, made, better, cost, why: Some(chance(won(&rows, b))) });
    }
    true
}

/// A poverty taken or declined: against the other answer.
fn examine_answer(
    g: &Game,
    seat: Seat,
    made: bool,
    cfg: &AnalysisConfig,
    rng: &mut Rng,
    out: &mut Vec<Finding>,
) -> bool {
    let v = g.view(seat);
    let lines = vec![vec![Action::Answer(made)], vec![Action::Answer(!made)]];
    let rows = rows(seat, &lines, (cfg.worlds, cfg.playouts), rng, true, |rng| exchange_world(&v, rng));
    if let Some(cost) = cost(&rows, 0, 1, cfg) {
        let why = Some(chance(won(&rows, 1)));
        out.push(Finding { trick: 0, made: Choice::Answer(made), better: Choice::Answer(!made), cost, why });
    }
    true
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

    /// A seat that bids a jacks solo on any hand and says every call up
    /// to "no 60" at its first card: the analysis names the bid and the
    /// calls.
    #[test]
    fn reckless_bids_and_calls_are_named() {
        let me = Seat::new(1);
        let solo = Bid::Reserve(doko_engine::Reservation::Solo { kind: doko_engine::SoloKind::Jacks, duty: false });
        let cfg = AnalysisConfig { worlds: 24, playouts: 1, max_findings: 12, ..AnalysisConfig::default() };
        let (mut bids, mut calls) = (0, 0);
        for seed in 0..4 {
            let mut g = Game::deal(Rules::default(), Seat::new(0), seed);
            while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
                let v = g.view(s);
                let a = if s == me && g.phase() == Phase::Bidding {
                    Action::Bid(solo)
                } else if s == me && g.phase() == Phase::Playing && g.tricks().is_empty() {
                    match g.legal_calls(me).first() {
                        Some(c) if !matches!(c, Call::No30 | Call::Schwarz) => Action::Announce(*c),
                        _ => BasicPlayer.decide(&v),
                    }
                } else {
                    BasicPlayer.decide(&v)
                };
                g.act(s, a).expect("legal");
            }
            let rec = Record::from_game(&g);
            let a = analyse(&rec, me, &cfg, seed);
            for f in &a.findings {
                match (f.made, f.better) {
                    (Choice::Bid(made), Choice::Bid(_)) => {
                        assert_eq!(made, solo);
                        bids += 1;
                    }
                    (Choice::Call(_, true), Choice::Call(_, false)) => calls += 1,
                    _ => {}
                }
            }
        }
        // (seen: 4 bids, 12 calls)
        assert!(bids >= 3 && calls >= 2, "{bids} bids and {calls} calls named in 4 deals");
    }

    /// A pauper that puts down its most valuable cards and an acceptor
    /// that returns its best trumps: the analysis names the exchange.
    #[test]
    fn a_careless_poverty_exchange_is_named() {
        let rules = Rules::preset(doko_engine::Preset::Casual);
        let cfg = AnalysisConfig { worlds: 24, playouts: 1, max_findings: 12, ..AnalysisConfig::default() };
        let trumps = doko_engine::normal_game_trumps();
        let (mut deals, mut named) = (0, 0);
        for seed in 0..3000 {
            let mut g = Game::deal(rules, Seat::new(0), seed);
            while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
                let v = g.view(s);
                let a = if matches!(g.phase(), Phase::PovertyGive | Phase::PovertyReturn) {
                    *v.legal
                        .iter()
                        .max_by_key(|a| match a {
                            Action::Give(c) | Action::Return(c) => (c.with_mask(trumps).len(), c.points()),
                            _ => (0, 0),
                        })
                        .expect("a choice")
                } else {
                    BasicPlayer.decide(&v)
                };
                g.act(s, a).expect("legal");
            }
            let Some(p) = g.poverty().copied().filter(|p| p.acceptor.is_some()) else { continue };
            deals += 1;
            let rec = Record::from_game(&g);
            for (seat, made) in
                [(p.pauper, Choice::Give(p.given)), (p.acceptor.expect("taken"), Choice::Return(p.returned))]
            {
                let a = analyse(&rec, seat, &cfg, seed);
                for f in a.findings.iter().filter(|f| matches!(f.made, Choice::Give(_) | Choice::Return(_))) {
                    assert_eq!((f.made, f.trick), (made, 0));
                    assert!(f.better != made && f.cost >= cfg.min_cost);
                    named += 1;
                }
            }
            if deals == 3 {
                break;
            }
        }
        assert_eq!(deals, 3);
        // (seen: 2 of 6; the alternatives weighed are good ones, so a
        // careless exchange is not always clearly worse in 24 worlds)
        assert!(named >= 1, "{named} of {} exchanges named", 2 * deals);
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
            let bid = rec.bids.as_ref().and_then(|b| b.iter().find(|(s, _)| *s == Seat::new(1))).map(|(_, b)| *b);
            for f in &a.findings {
                assert!(f.cost >= cfg.min_cost);
                match (f.made, f.better) {
                    (Choice::Card(played), Choice::Card(better)) => {
                        assert!(played != better && (1..=12).contains(&f.trick));
                        assert_eq!(mine[f.trick - 1], played);
                        assert!(rec.hands[1].contains(better));
                    }
                    (Choice::Call(c, said), Choice::Call(c2, better)) => {
                        assert!(c == c2 && said != better && (1..=12).contains(&f.trick));
                        assert_eq!(said, rec.actions.contains(&(Seat::new(1), Action::Announce(c))));
                    }
                    (Choice::Bid(made), Choice::Bid(better)) => {
                        assert!(f.trick == 0 && made != better);
                        assert_eq!(Some(made), bid);
                    }
                    other => panic!("{other:?}"),
                }
            }
            // the same seed, the same answer
            assert_eq!(analyse(&rec, Seat::new(1), &cfg, seed), a);
            findings += a.findings.len();
        }
        // random cards: some clearly cost points
        assert!(findings > 0);
    }
}
