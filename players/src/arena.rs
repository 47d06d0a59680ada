//! The arena: duplicate matches between two kinds of computer player.
//! Each deal is played twice with the same cards, the two kinds swapping
//! seats, so card luck cancels; reported are the points per deal of kind A
//! with a 95% confidence interval, and decision times. A side may be an
//! outside program seated through the seat protocol ([`crate::seat`]).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use doko_engine::{Action, Game, Rng, Rules, Seat};

use crate::level::BotLevel;
use crate::player::{BasicPlayer, Player, RandomPlayer};
use crate::search::SearchPlayer;
use crate::seat::{Program, ProgramPlayer, SeatError};
use crate::strong::{StrongConfig, StrongPlayer};

/// A kind of computer player: the bot's [`BotLevel`], read by
/// [`BotLevel::from_name`] like everywhere else.
pub type Kind = BotLevel;

/// One side of a match: a kind of doko's own, or a program seated through
/// the seat protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// A kind of doko's own players.
    Kind(Kind),
    /// `cmd:PROGRAM`: a command line run with `sh -c`, one process per
    /// seat the side holds.
    Program(String),
}

impl Side {
    /// Reads `random`, `basic`, `strong` (or their German names) or
    /// `cmd:PROGRAM`.
    pub fn from_name(s: &str) -> Option<Side> {
        match s.strip_prefix("cmd:") {
            Some(cmd) if !cmd.trim().is_empty() => Some(Side::Program(cmd.to_string())),
            Some(_) => None,
            None => Kind::from_name(s).map(Side::Kind),
        }
    }
}

/// A doko player of a kind for one deal, made from the deal's seed for the
/// seat: the same player `doko seat` makes from a `deal` line's seed.
pub fn kind_player(kind: Kind, seed: u64, strong: StrongConfig) -> Box<dyn Player> {
    match kind {
        BotLevel::Random => Box::new(RandomPlayer(Rng::new(seed))),
        BotLevel::Basic => Box::new(BasicPlayer),
        BotLevel::Strong => Box::new(StrongPlayer::new(strong, seed)),
        BotLevel::Expert => Box::new(SearchPlayer::expert(strong.budget, seed)),
        BotLevel::Uct => Box::new(SearchPlayer::uct(strong.budget, seed)),
    }
}

/// The outcome of an arena run.
#[derive(Clone, Debug, Default)]
pub struct ArenaResult {
    /// Points of kind A per deal (the two plays of a deal averaged).
    pub per_deal: Vec<f64>,
    /// Decision times of kind A and of kind B.
    pub times: [Vec<Duration>; 2],
    /// Actions a player chose that the engine refused, and decisions a
    /// program failed to make (must stay 0).
    pub illegal: usize,
    /// Programs that failed during the run, with why.
    pub failures: Vec<String>,
}

impl ArenaResult {
    /// Mean points per deal of A and the half-width of the 95% interval.
    pub fn mean_ci(&self) -> (f64, f64) {
        let n = self.per_deal.len() as f64;
        if n < 2.0 {
            return (self.per_deal.first().copied().unwrap_or(0.0), f64::INFINITY);
        }
        let mean = self.per_deal.iter().sum::<f64>() / n;
        let var = self.per_deal.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, 1.96 * (var / n).sqrt())
    }

    /// Median and 99th percentile of a kind's decision times.
    pub fn time_stats(&self, side: usize) -> (Duration, Duration) {
        let mut t = self.times[side].clone();
        t.sort();
        let at =
            |p: f64| t.get(((t.len() as f64 * p) as usize).min(t.len().saturating_sub(1))).copied().unwrap_or_default();
        (at(0.5), at(0.99))
    }
}

/// Plays one deal to its end with a player per seat; returns the scores
/// (zero for a void deal), and records decision times per side.
fn play(
    rules: &Rules,
    dealer: Seat,
    seed: u64,
    players: &mut [Box<dyn Player>; 4],
    side: [usize; 4],
    out: &mut ArenaResult,
) -> [i32; 4] {
    let mut g = Game::deal(*rules, dealer, seed);
    let watching: Vec<usize> = (0..4).filter(|i| players[*i].observes()).collect();
    for i in &watching {
        players[*i].observe(&g.view(Seat::new(*i)));
    }
    let mut steps = 0;
    while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
        steps += 1;
        assert!(steps < 1000, "a deal never ends");
        let view = g.view(s);
        let t0 = Instant::now();
        let a = players[s.index()].decide(&view);
        out.times[side[s.index()]].push(t0.elapsed());
        out.illegal += players[s.index()].faults();
        if g.act(s, a).is_err() {
            out.illegal += 1;
            let fallback: Action = view.legal[0];
            g.act(s, fallback).expect("a listed action is legal");
        }
        for i in &watching {
            players[*i].observe(&g.view(Seat::new(*i)));
        }
    }
    let score = g.score();
    for i in &watching {
        players[*i].end(&g.view(Seat::new(*i)), score.as_ref());
    }
    score.map_or([0; 4], |s| s.scores)
}

/// The seats side A holds in each play of a deal: 0 and 2, then 1 and 3.
pub const A_SEATS: [[bool; 4]; 2] = [[true, false, true, false], [false, true, false, true]];

/// The deals of a match from `seed`: each deal's seed and dealer.
pub fn match_deals(deals: usize, seed: u64) -> impl Iterator<Item = (u64, Seat)> {
    let mut rng = Rng::new(seed);
    (0..deals).map(move |d| (rng.next_u64(), Seat::new(d % 4)))
}

/// The seed of a seat's player in one play of a deal.
pub fn player_seed(deal_seed: u64, seat: usize, round: usize) -> u64 {
    deal_seed ^ (seat as u64 + 1) ^ ((round as u64) << 8)
}

/// Runs `deals` duplicate deals of kind `a` against kind `b` from `seed`.
pub fn run(a: Kind, b: Kind, deals: usize, seed: u64, rules: &Rules, strong: StrongConfig) -> ArenaResult {
    run_sides(&Side::Kind(a), &Side::Kind(b), deals, seed, rules, [strong; 2], Duration::from_secs(10))
        .expect("doko's own players need no program")
}

/// Runs `deals` duplicate deals of side `a` against side `b` from `seed`,
/// each doko kind within its side's budget (`strong[0]` for A);
/// a program side gets one process per seat it holds (two), started here
/// and told every deal, each answer within `timeout`. Fails only when a
/// program cannot be started or greeted; a program that fails later has
/// its decisions made by the first legal choice, counted as illegal.
pub fn run_sides(
    a: &Side,
    b: &Side,
    deals: usize,
    seed: u64,
    rules: &Rules,
    strong: [StrongConfig; 2],
    timeout: Duration,
) -> Result<ArenaResult, SeatError> {
    let start = |side: &Side| -> Result<Vec<Rc<RefCell<Program>>>, SeatError> {
        match side {
            Side::Kind(_) => Ok(Vec::new()),
            Side::Program(cmd) => {
                (0..2).map(|_| Program::start(cmd, timeout).map(|p| Rc::new(RefCell::new(p)))).collect()
            }
        }
    };
    let programs = [start(a)?, start(b)?];
    let mut out = ArenaResult::default();
    for (deal_seed, dealer) in match_deals(deals, seed) {
        let mut points = 0.0;
        for (round, a_seats) in A_SEATS.into_iter().enumerate() {
            let mut slot = [0usize; 2];
            let mut players: [Box<dyn Player>; 4] = std::array::from_fn(|i| {
                let (s, side) = if a_seats[i] { (0, a) } else { (1, b) };
                let pseed = player_seed(deal_seed, i, round);
                match side {
                    Side::Kind(k) => kind_player(*k, pseed, strong[s]),
                    Side::Program(_) => {
                        let p = programs[s][slot[s]].clone();
                        slot[s] += 1;
                        Box::new(ProgramPlayer::new(p, *rules, pseed)) as Box<dyn Player>
                    }
                }
            });
            let side = a_seats.map(|x| if x { 0 } else { 1 });
            let scores = play(rules, dealer, deal_seed, &mut players, side, &mut out);
            points += (0..4).filter(|i| a_seats[*i]).map(|i| scores[i] as f64).sum::<f64>();
        }
        out.per_deal.push(points / 2.0);
    }
    for p in programs.iter().flatten() {
        if let Some(e) = &p.borrow().failed {
            out.failures.push(format!("{}: {e}", p.borrow().name));
        }
    }
    Ok(out)
}
