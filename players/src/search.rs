//! Search players: trees of UCT over sampled worlds.
//!
//! A decision samples deals of the unseen cards that fit what the seat has
//! observed (as the strong player does, [`crate::strong`]), grows one UCT
//! tree per world over every seat's cards and announcements, and combines
//! the trees' verdicts on the seat's own choices (an ensemble).
//!
//! - [`SearchPlayer::uct`], the kind `uct`: a clean-room ensemble UCT after
//!   Sievers and Helmert ("A Doppelkopf Player Based on UCT", KI 2015):
//!   10 worlds x 1,000 iterations, random playouts, reward 500 x game points
//!   + the team's card points, the most visited choice over all trees.
//! - [`SearchPlayer::expert`], the kind `expert`: worlds weighted by how
//!   well they explain what each other seat bid (by the basic player's
//!   bids; a declared solo's by whether the hand could suit it) and
//!   played (by the card-play model, [`crate::policy`]), flat playouts
//!   by the basic player's card play with a little noise (a seat smears a
//!   partner's trick that stands in the world), all its choices' playouts of a round on the same random
//!   numbers, an exact solver for the last tricks, the weighted mean of
//!   the playouts' values; its reservations
//!   (staying healthy, a wedding or its silent solo, a poverty, throwing
//!   in, a solo), its answer to a poverty and the cards it puts down or
//!   returns decided by simulation.
//!
//! Both stay within a time budget per decision. In a poverty game every
//! seat searches: the pauper and the acceptor rebuild
//! the exchange they saw, the two others one that fits their worlds (the
//! pauper holds no trump but those it got back).

use std::time::{Duration, Instant};

use doko_engine::{Action, Bid, Cards, Game, Phase, Reservation, Rng, Seat, SeatView, SeenBid};

use crate::player::{BasicPlayer, Player};
use crate::playout::{PLAYOUT_NOISE, playout};
use crate::policy::Policy;
use crate::strong::{StrongConfig, StrongPlayer, searched_turn};
use crate::worlds::{knowledge, plausible_solo, replay_world, sample};

/// How a search player searches.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Worlds (one tree each) per decision.
    pub worlds: usize,
    /// Iterations per tree at most.
    pub iterations: usize,
    /// Time per decision at most.
    pub budget: Duration,
    /// UCB1's exploration constant, in game points (the reward is game
    /// points plus the team's card points / 500).
    pub exploration: f64,
    /// Playouts by the basic player's card play (else random cards).
    pub heuristic: bool,
    /// In such playouts one card in this many is random (0: none).
    pub noise: u32,
    /// Worlds weighted by the likelihood of the plays seen under the basic
    /// player's card play: each card another seat played that the basic
    /// player would not have played multiplies a world's weight by this
    /// (1: worlds unweighted).
    pub mismatch: f64,
    /// Likewise for the bids: each other seat whose dealt hand would have
    /// had the basic player bid another kind than the table saw multiplies
    /// a world's weight by this (1: bids not weighed).
    pub bid_mismatch: f64,
    /// Hands of at most this many cards are solved exactly in each world
    /// (0: never).
    pub solver_cards: usize,
    /// No tree: each of the seat's choices gets an equal share of the
    /// iterations as playouts in each world (flat Monte Carlo).
    pub flat: bool,
    /// The seat's own announcements are searched (else left to the basic
    /// player's conventions).
    pub announce: bool,
    /// For a free solo the table saw declared: a world whose declarer's
    /// hand could not suit it ([`plausible_solo`]) multiplies its weight
    /// by this (1: the solo weighed as the other bids are).
    pub solo_mismatch: f64,
    /// An announcement is made only when its value beats the best card's
    /// by this much (game points; 0: when it is the best choice).
    pub announce_margin: f64,
    /// Flat playouts: the choices of one round in a world share their
    /// random numbers (common random numbers: the choices' differences,
    /// not the playouts' luck, decide).
    pub paired: bool,
    /// In such playouts a seat whose partner's card takes the trick
    /// whatever the opponents still to play hold (in the world) gives it
    /// points.
    pub smear: bool,
    /// Worlds weighted by the card-play model ([`Policy`]): each card
    /// another seat played multiplies a world's weight by the model's
    /// probability that the seat, holding the world's hand, played it,
    /// raised to this power (0: the model unused; the card mismatch
    /// weight applies then).
    pub policy: f64,
}

impl SearchConfig {
    /// Sievers and Helmert's configuration, within a time budget.
    pub fn uct(budget: Duration) -> SearchConfig {
        SearchConfig {
            worlds: 10,
            iterations: 1000,
            budget,
            exploration: 2.0,
            heuristic: false,
            noise: 0,
            mismatch: 1.0,
            bid_mismatch: 1.0,
            solver_cards: 0,
            flat: false,
            announce: true,
            solo_mismatch: 1.0,
            announce_margin: 0.0,
            paired: false,
            smear: false,
            policy: 0.0,
        }
    }

    /// The expert's configuration, within a time budget: 16 worlds per
    /// millisecond of it (40 to 8,000), in each about 6 playouts per
    /// choice by the basic player's card play, one card in five random,
    /// a partner's trick that stands smeared (flat: at equal budgets trees
    /// measured weaker), worlds weighted, the last three tricks solved,
    /// its announcements searched.
    ///
    /// The choices' playouts of a round in a world share their random
    /// numbers. Measured against strong over 1,600 paired deals at 12 ms:
    /// +0.132 a deal; the smear on top: +0.137.
    ///
    /// The cards the other seats played weigh a world by the card-play
    /// model's probability of each, to the power 0.5 (the model was
    /// trained on the strong player's cards, and the table's players are
    /// not it): +0.189 a deal against strong over 1,600 paired deals at
    /// 12 ms (0.3: +0.142; 1: -0.070). The model replaces the mismatch
    /// weight of a card (which stays for the tuning of configurations
    /// without it).
    ///
    /// A bid seen weighs more than a card (0.5 against 0.8 for each that
    /// the basic player would not have made): it is one decision on the
    /// whole hand. A free solo is declared on a hand that could suit it:
    /// a world where the declarer's could not weighs 0.05. An announcement
    /// tells the table the party and raises the stakes: it is made when
    /// worth half a game point more than the best card.
    pub fn expert(budget: Duration) -> SearchConfig {
        SearchConfig {
            worlds: (budget.as_millis() as usize * 16).clamp(40, 8000),
            iterations: 24,
            budget,
            exploration: 2.0,
            heuristic: true,
            noise: PLAYOUT_NOISE,
            mismatch: 0.8,
            bid_mismatch: 0.5,
            solver_cards: 3,
            flat: true,
            announce: true,
            solo_mismatch: 0.05,
            announce_margin: 0.5,
            paired: true,
            smear: true,
            policy: 0.5,
        }
    }
}

/// A player that searches (the kinds `uct` and `expert`).
pub struct SearchPlayer {
    /// How it searches.
    pub config: SearchConfig,
    rng: Rng,
    /// Reservations and poverty answers by simulation (the expert), within
    /// the same budget.
    bids: Option<StrongPlayer>,
}

impl SearchPlayer {
    /// The kind `uct`.
    pub fn uct(budget: Duration, seed: u64) -> SearchPlayer {
        SearchPlayer { config: SearchConfig::uct(budget), rng: Rng::new(seed), bids: None }
    }

    /// The kind `expert`.
    pub fn expert(budget: Duration, seed: u64) -> SearchPlayer {
        let strong = StrongConfig { budget, ..StrongConfig::default() };
        SearchPlayer {
            config: SearchConfig::expert(budget),
            rng: Rng::new(seed),
            bids: Some(StrongPlayer::new(strong, seed ^ 0x5eed)),
        }
    }

    /// The kind `expert` with another search configuration (for tuning).
    pub fn expert_with(config: SearchConfig, seed: u64) -> SearchPlayer {
        let strong = StrongConfig { budget: config.budget, ..StrongConfig::default() };
        SearchPlayer { config, rng: Rng::new(seed), bids: Some(StrongPlayer::new(strong, seed ^ 0x5eed)) }
    }

    /// A search player with any configuration (no solos by simulation).
    pub fn with_config(config: SearchConfig, seed: u64) -> SearchPlayer {
        SearchPlayer { config, rng: Rng::new(seed), bids: None }
    }
}

/// The seat to act in a world and what the search lets it do: its cards
/// and its lowest announcement, an owed announcement, a Schwarze Sau solo.
fn choices(g: &Game) -> Option<(Seat, Vec<Action>)> {
    if g.is_over() {
        return None;
    }
    let s = g.mandatory_announcement().or(g.to_act())?;
    let mut v = Vec::new();
    match g.phase() {
        Phase::Playing if g.mandatory_announcement() == Some(s) => {
            v.extend(g.legal_calls(s).first().map(|c| Action::Announce(*c)));
        }
        Phase::Playing => {
            v.extend(g.legal_cards(s).iter().map(Action::Play));
            v.extend(g.legal_calls(s).first().map(|c| Action::Announce(*c)));
        }
        Phase::SowChoice => v.extend(g.legal_bids(s).into_iter().map(Action::Bid)),
        _ => {}
    }
    (!v.is_empty()).then_some((s, v))
}

/// What a finished world is worth to a seat: game points plus its team's
/// card points / 500 (Sievers and Helmert's reward, scaled).
fn reward(g: &Game, s: Seat) -> f64 {
    g.score().map_or(0.0, |sc| sc.scores[s.index()] as f64 + f64::from(sc.card_points[g.party(s).index()]) / 500.0)
}

/// One node of a tree: the seat to act and its choices' statistics.
struct Node {
    seat: Seat,
    actions: Vec<Action>,
    child: Vec<u32>,
    visits: Vec<u32>,
    value: Vec<f64>,
    total: u32,
    tried: usize,
}

const NONE: u32 = u32::MAX;

impl Node {
    fn new(seat: Seat, actions: Vec<Action>) -> Node {
        let n = actions.len();
        Node { seat, actions, child: vec![NONE; n], visits: vec![0; n], value: vec![0.0; n], total: 0, tried: 0 }
    }
}

/// One UCT tree over a world.
struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn new(root: &Game) -> Option<Tree> {
        let (seat, actions) = choices(root)?;
        Some(Tree { nodes: vec![Node::new(seat, actions)] })
    }

    /// One iteration: down the tree by UCB1, one node added, a playout,
    /// the rewards back up the path.
    fn iterate(&mut self, root: &Game, c: f64, heuristic: bool, noise: u32, rng: &mut Rng) {
        let mut g = root.clone();
        let mut path: Vec<(usize, usize)> = Vec::with_capacity(48);
        let mut at = 0usize;
        loop {
            let node = &mut self.nodes[at];
            let e = if node.tried < node.actions.len() {
                // an untried choice, in random order
                let pick = node.tried + rng.below(node.actions.len() - node.tried);
                node.actions.swap(node.tried, pick);
                node.tried += 1;
                node.tried - 1
            } else {
                let ln = f64::from(node.total.max(1)).ln();
                (0..node.actions.len())
                    .max_by(|a, b| {
                        let ucb = |i: usize| {
                            let n = f64::from(node.visits[i]);
                            node.value[i] / n + c * (ln / n).sqrt()
                        };
                        ucb(*a).total_cmp(&ucb(*b))
                    })
                    .expect("a node has choices")
            };
            let (seat, action, child) = (node.seat, node.actions[e], node.child[e]);
            if g.act(seat, action).is_err() {
                // cannot happen for listed choices; treated as a dead end
                return;
            }
            path.push((at, e));
            if child != NONE {
                at = child as usize;
                continue;
            }
            if let Some((s, actions)) = choices(&g) {
                let idx = self.nodes.len() as u32;
                self.nodes.push(Node::new(s, actions));
                self.nodes[at].child[e] = idx;
            }
            break;
        }
        playout(&mut g, heuristic, noise, false, rng);
        let mut rewards = [0.0; 4];
        for s in Seat::ALL {
            rewards[s.index()] = reward(&g, s);
        }
        for (n, e) in path {
            let node = &mut self.nodes[n];
            node.visits[e] += 1;
            node.value[e] += rewards[node.seat.index()];
            node.total += 1;
        }
    }
}

/// The exact value of a world for `me` with every card open (both parties
/// playing their best; the value is zero-sum between them), by alpha-beta.
fn solve(g: &Game, me: Seat, mut alpha: f64, mut beta: f64) -> f64 {
    if g.is_over() {
        return reward(g, me);
    }
    let Some(s) = g.to_act().filter(|s| g.phase() == Phase::Playing && g.mandatory_announcement() != Some(*s)) else {
        // owed announcements and the like: a random end, not searched
        let mut w = g.clone();
        w.random_playout(&mut Rng::new(0));
        return reward(&w, me);
    };
    let maximize = g.party(s) == g.party(me);
    let mut best = if maximize { f64::NEG_INFINITY } else { f64::INFINITY };
    for c in g.legal_cards(s).iter() {
        let mut w = g.clone();
        w.play_legal(s, c);
        let v = solve(&w, me, alpha, beta);
        if maximize {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// How likely a world made the bids and plays seen: each other seat whose
/// dealt hand would have had the basic player bid otherwise (healthy, a
/// reservation not shown, or another reservation than the one that
/// decided the game) multiplies its weight by `bid_mismatch`; each card
/// another seat played where the basic player would have played another,
/// by `mismatch`.
fn world_and_weight(v: &SeatView, hands: [Cards; 4], cfg: &SearchConfig) -> Option<(Game, f64)> {
    let (mismatch, bid_mismatch) = (cfg.mismatch, cfg.bid_mismatch);
    let mut weight = 1.0f64;
    let g = replay_world(v, hands, |g, s, a| {
        if s == v.seat {
            return;
        }
        match a {
            Action::Bid(_) => {
                let seen = v.public.bids[s.index()];
                if let Some(SeenBid::Decided(Reservation::Solo { kind, duty: false })) = seen
                    && cfg.solo_mismatch < 1.0
                {
                    // a free solo: declared on a hand that could suit it
                    if !plausible_solo(g.hand(s), kind) {
                        weight *= cfg.solo_mismatch;
                    }
                } else if !bid_fits(BasicPlayer.decide(&g.view(s)), seen) {
                    weight *= bid_mismatch;
                }
            }
            Action::Play(c) if cfg.policy > 0.0 && g.legal_cards(s).distinct().len() > 1 => {
                if let Some(lp) = Policy::shipped().log_prob(&g.view(s), c) {
                    weight *= (cfg.policy * lp).exp();
                }
            }
            Action::Play(c) if g.legal_cards(s).len() > 1 && BasicPlayer.decide(&g.view(s)) != Action::Play(c) => {
                weight *= mismatch;
            }
            _ => {}
        }
    })?;
    Some((g, weight))
}

/// Whether a bid is the kind the table saw: healthy for healthy, any
/// reservation for one not shown, the same reservation (a solo of the
/// same kind) for the one that decided the game.
fn bid_fits(bid: Action, seen: Option<SeenBid>) -> bool {
    let Action::Bid(b) = bid else { return false };
    match (b, seen) {
        (Bid::Healthy, Some(SeenBid::Healthy)) | (Bid::Reserve(_), Some(SeenBid::Reserved)) => true,
        (Bid::Reserve(Reservation::Solo { kind, .. }), Some(SeenBid::Decided(Reservation::Solo { kind: k, .. }))) => {
            kind == k
        }
        (Bid::Reserve(r), Some(SeenBid::Decided(d))) => std::mem::discriminant(&r) == std::mem::discriminant(&d),
        _ => false,
    }
}

impl SearchPlayer {
    /// A card or an announcement in play, by search; `None` when no world
    /// could be sampled (the basic player decides then).
    fn play(&mut self, v: &SeatView) -> Option<Action> {
        let start = Instant::now();
        let cfg = self.config;
        if !cfg.announce
            && let a @ Action::Announce(_) = BasicPlayer.decide(v)
        {
            return Some(a);
        }
        let root = root_choices(v, &cfg);
        if root.len() == 1 {
            return root.first().copied();
        }
        let weighted = cfg.mismatch < 1.0 || cfg.bid_mismatch < 1.0 || cfg.solo_mismatch < 1.0 || cfg.policy > 0.0;
        let worlds = self.sample_worlds(v, start, weighted)?;
        let mut tally = Tally::new(root.len());
        let n = worlds.len();
        for (i, (g, w)) in worlds.iter().enumerate() {
            // the budget is spent: the worlds searched so far decide
            if i > 0 && start.elapsed() >= cfg.budget {
                break;
            }
            let until = cfg.budget.mul_f64((i + 1) as f64 / n as f64);
            if cfg.solver_cards > 0 && v.hand.len() <= cfg.solver_cards {
                solve_world(g, *w, v.seat, &root, &mut tally);
            } else if cfg.flat {
                self.flat_world(g, *w, v.seat, &root, &mut tally, start, until);
            } else {
                self.tree_world(g, *w, &root, &mut tally, start, until);
            }
        }
        // trees: the most visited choice unless worlds differ in weight;
        // flat playouts: the best mean
        let mut best = tally.best(weighted || cfg.flat)?;
        // an announcement only where it is worth the margin over the best card
        if cfg.announce_margin > 0.0 && matches!(root[best], Action::Announce(_)) {
            let card = (0..root.len())
                .filter(|j| matches!(root[*j], Action::Play(_)) && tally.weight[*j] > 0.0)
                .max_by(|a, b| tally.mean(*a).total_cmp(&tally.mean(*b)));
            if let Some(c) = card
                && tally.mean(best) - tally.mean(c) < cfg.announce_margin
            {
                best = c;
            }
        }
        Some(root[best])
    }

    /// The worlds the search looks at, each with its weight; `None` when
    /// none could be sampled.
    fn sample_worlds(&mut self, v: &SeatView, start: Instant, weighted: bool) -> Option<Vec<(Game, f64)>> {
        let cfg = self.config;
        let k = knowledge(v)?;
        let mut worlds: Vec<(Game, f64)> = Vec::new();
        let mut tries = 0;
        // sampling and weighting a world costs far more than its random
        // playouts: at a quarter of the budget the expert's decisions took
        // a quarter of it (16 ms of 60 at the median), so the worlds get
        // half of it
        while worlds.len() < cfg.worlds && tries < cfg.worlds * 4 && start.elapsed() < cfg.budget / 2 {
            tries += 1;
            let Some(hands) = sample(&k, v, &mut self.rng) else { continue };
            let w = if weighted {
                world_and_weight(v, hands, &cfg)
            } else {
                replay_world(v, hands, |_, _, _| {}).map(|g| (g, 1.0))
            };
            worlds.extend(w);
        }
        (!worlds.is_empty()).then_some(worlds)
    }

    /// Flat playouts from each root choice in one world, until `until`.
    #[allow(clippy::too_many_arguments)]
    fn flat_world(
        &mut self,
        g: &Game,
        w: f64,
        me: Seat,
        root: &[Action],
        tally: &mut Tally,
        start: Instant,
        until: Duration,
    ) {
        let cfg = self.config;
        let per = (cfg.iterations / root.len()).max(1);
        for k in 0..per {
            let round = self.rng.next_u64();
            for (j, a) in root.iter().enumerate() {
                if k % 4 == 0 && j == 0 && start.elapsed() >= until && k > 0 {
                    return;
                }
                let mut p = g.clone();
                if p.act(me, *a).is_err() {
                    continue;
                }
                if cfg.paired {
                    playout(&mut p, cfg.heuristic, cfg.noise, cfg.smear, &mut Rng::new(round));
                } else {
                    playout(&mut p, cfg.heuristic, cfg.noise, cfg.smear, &mut self.rng);
                }
                tally.add(j, w * reward(&p, me), w, 1);
            }
        }
    }

    /// A UCT tree grown in one world until `until`; its root's choices
    /// count for the root choices.
    fn tree_world(&mut self, g: &Game, w: f64, root: &[Action], tally: &mut Tally, start: Instant, until: Duration) {
        let cfg = self.config;
        let Some(mut tree) = Tree::new(g) else { return };
        for it in 0..cfg.iterations {
            if it % 16 == 0 && start.elapsed() >= until {
                break;
            }
            tree.iterate(g, cfg.exploration, cfg.heuristic, cfg.noise, &mut self.rng);
        }
        let r = &tree.nodes[0];
        for (e, a) in r.actions.iter().enumerate() {
            let Some(j) = root.iter().position(|x| x == a) else { continue };
            if r.visits[e] > 0 {
                tally.add(j, w * r.value[e] / f64::from(r.visits[e]), w, u64::from(r.visits[e]));
            }
        }
    }
}

/// The seat's choices a search compares: its cards (each once: the
/// legal actions name a card held twice once) and, where it searches its
/// announcements, the lowest it may make.
fn root_choices(v: &SeatView, cfg: &SearchConfig) -> Vec<Action> {
    let mut root: Vec<Action> = v.legal_cards().iter().map(Action::Play).collect();
    if cfg.announce {
        root.extend(v.legal.iter().copied().find(|a| matches!(a, Action::Announce(_))));
    }
    root
}

/// Per root choice: the weighted value found, the weight and the visits.
struct Tally {
    value: Vec<f64>,
    weight: Vec<f64>,
    visits: Vec<u64>,
}

impl Tally {
    fn new(choices: usize) -> Tally {
        Tally { value: vec![0f64; choices], weight: vec![0f64; choices], visits: vec![0u64; choices] }
    }

    /// A choice's weighted mean value.
    fn mean(&self, choice: usize) -> f64 {
        self.value[choice] / self.weight[choice]
    }

    fn add(&mut self, choice: usize, value: f64, weight: f64, visits: u64) {
        self.value[choice] += value;
        self.weight[choice] += weight;
        self.visits[choice] += visits;
    }

    /// The best mean (`by_mean`) or the most visited choice.
    fn best(&self, by_mean: bool) -> Option<usize> {
        let n = self.value.len();
        if by_mean {
            (0..n)
                .filter(|j| self.weight[*j] > 0.0)
                .max_by(|a, b| (self.value[*a] / self.weight[*a]).total_cmp(&(self.value[*b] / self.weight[*b])))
        } else {
            (0..n).max_by_key(|j| self.visits[*j])
        }
    }
}

/// Each root card solved exactly in one world (few cards left).
fn solve_world(g: &Game, w: f64, me: Seat, root: &[Action], tally: &mut Tally) {
    for (j, a) in root.iter().enumerate() {
        let Action::Play(c) = a else { continue };
        let mut after = g.clone();
        // (checked: a world's card order may differ from the view's, with
        // piglets the seat could not know of)
        if after.play(me, *c).is_err() {
            continue;
        }
        tally.add(j, w * solve(&after, me, f64::NEG_INFINITY, f64::INFINITY), w, 1);
    }
}

impl Player for SearchPlayer {
    fn decide(&mut self, v: &SeatView) -> Action {
        if matches!(v.public.phase, Phase::Bidding | Phase::PovertyGive | Phase::PovertyOffer | Phase::PovertyReturn)
            && v.public.to_act == Some(v.seat)
            && let Some(a) = self.bids.as_mut().and_then(|b| b.reserve(v))
        {
            return a;
        }
        if searched_turn(v)
            && let Some(a) = self.play(v)
        {
            return a;
        }
        BasicPlayer.decide(v)
    }
}

#[cfg(test)]
mod tests;
