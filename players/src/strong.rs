//! The strong computer player: determinized Monte Carlo.
//!
//! For a card decision it samples deals of the unseen cards that fit
//! everything its seat has observed (cards played, suits not followed,
//! revealed queens of clubs and parties, the wedding declarer's queens),
//! rebuilds each as a full game by replaying the public history through the
//! engine (a world the history does not fit is refused by the engine and
//! dropped), and evaluates every playable card by playouts in the sampled
//! worlds. It stays within a time budget. Solos are decided by simulation;
//! the other reservations, the poverty exchange and poverty games follow
//! the basic player's conventions (it is the baseline the expert,
//! [`crate::search`], is measured against; the expert uses the worlds and
//! simulations here for those too).

use std::time::{Duration, Instant};

use doko_engine::{Action, Bid, Call, Card, Level, Phase, Reservation, Rng, SeatView};

use crate::player::{BasicPlayer, Player};
use crate::worlds::{
    bid_world, considered, exchange_candidates, exchange_world, finish, knowledge, plausible_solo, sample, world,
};

/// The strong player's budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StrongConfig {
    /// Sampled worlds per decision at most.
    pub worlds: usize,
    /// Playouts per candidate card and world.
    pub playouts: usize,
    /// Time per decision at most.
    pub budget: Duration,
}

impl Default for StrongConfig {
    fn default() -> StrongConfig {
        StrongConfig { worlds: 40, playouts: 2, budget: Duration::from_millis(60) }
    }
}

/// Determinized Monte Carlo over sampled consistent worlds.
pub struct StrongPlayer {
    /// Its budget.
    pub config: StrongConfig,
    rng: Rng,
}

impl StrongPlayer {
    /// A strong player with a budget and a seed.
    pub fn new(config: StrongConfig, seed: u64) -> StrongPlayer {
        StrongPlayer { config, rng: Rng::new(seed) }
    }
}

impl StrongPlayer {
    fn card(&mut self, v: &SeatView) -> Option<Action> {
        let start = Instant::now();
        let legal = v.legal_cards().distinct();
        let cands: Vec<Card> = legal.iter().collect();
        if cands.len() <= 1 {
            return cands.first().map(|c| Action::Play(*c));
        }
        if v.public.poverty.is_some() {
            return None; // poverty games by convention (the baseline)
        }
        let k = knowledge(v)?;
        let me = v.seat;
        let mut total = vec![0f64; cands.len()];
        let mut wins = vec![0u32; cands.len()];
        let mut n = 0u32;
        let mut worlds = 0;
        let mut tries = 0;
        while worlds < self.config.worlds && start.elapsed() < self.config.budget && tries < self.config.worlds * 4 {
            tries += 1;
            let Some(hands) = sample(&k, v, &mut self.rng) else { continue };
            let Some(g) = world(v, hands) else { continue };
            worlds += 1;
            for (i, c) in cands.iter().enumerate() {
                for _ in 0..self.config.playouts {
                    let mut w = g.clone();
                    if w.play(me, *c).is_err() {
                        break;
                    }
                    w.random_playout(&mut self.rng);
                    if let Some(s) = w.score() {
                        total[i] += s.scores[me.index()] as f64;
                        wins[i] += s.winner.is_some_and(|p| p == w.party(me)) as u32;
                    }
                }
            }
            n += self.config.playouts as u32;
        }
        if worlds == 0 {
            return None;
        }
        let best = (0..cands.len()).max_by(|a, b| total[*a].total_cmp(&total[*b])).expect("candidates");
        // announce when the chosen line wins nearly always
        if let Some(p) = v.own_party
            && !v.public.announcements.iter().any(|a| a.party == p)
            && n >= 16
            && wins[best] as f64 / n as f64 >= 0.85
        {
            let call = Call::of(Level::Win, p);
            if v.legal.contains(&Action::Announce(call)) {
                return Some(Action::Announce(call));
            }
        }
        Some(Action::Play(cands[best]))
    }
}

impl StrongPlayer {
    /// Solo or not: the expected score of each plausible solo against
    /// staying healthy, over sampled deals played out by basic players.
    pub(crate) fn bid(&mut self, v: &SeatView) -> Option<Action> {
        let solos = v.legal.iter().any(|a| {
            matches!(a, Action::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false })) if plausible_solo(v.hand, *kind))
        });
        if !solos {
            return None;
        }
        self.simulate(v, |a| {
            matches!(a, Action::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false })) if plausible_solo(v.hand, *kind))
        })
    }

    /// The expert's reservations: every bid it may make (staying healthy,
    /// a wedding or its silent solo, a poverty, throwing in, a solo that
    /// could suit the hand) and its answer to a poverty, each played out by
    /// basic players in sampled deals.
    pub(crate) fn reserve(&mut self, v: &SeatView) -> Option<Action> {
        self.simulate(v, |a| considered(v, a))
    }

    /// The basic conventions' bid or poverty answer against the legal
    /// alternatives `consider` names: the mean score of each over sampled
    /// deals played out by basic players; another than the conventions'
    /// only when clearly better (by a point a deal for a solo, half a point
    /// otherwise).
    fn simulate(&mut self, v: &SeatView, consider: impl Fn(&Action) -> bool) -> Option<Action> {
        let start = Instant::now();
        let phase = v.public.phase;
        let exchange = matches!(phase, Phase::PovertyGive | Phase::PovertyReturn);
        if !matches!(phase, Phase::Bidding | Phase::PovertyOffer) && !exchange || v.public.to_act != Some(v.seat) {
            return None;
        }
        let mut cands = vec![BasicPlayer.decide(v)];
        let alternatives = if exchange { exchange_candidates(v) } else { v.legal.clone() };
        for a in &alternatives {
            if consider(a) && !cands.contains(a) {
                cands.push(*a);
            }
        }
        if cands.len() < 2 {
            return None;
        }
        let mut total = vec![0f64; cands.len()];
        let mut n = 0;
        let mut tries = 0;
        'worlds: while n < self.config.worlds && tries < self.config.worlds * 4 && start.elapsed() < self.config.budget
        {
            tries += 1;
            let world =
                if phase == Phase::Bidding { bid_world(v, &mut self.rng) } else { exchange_world(v, &mut self.rng) };
            let Some(base) = world else { continue };
            let mut scores = vec![0f64; cands.len()];
            for (i, c) in cands.iter().enumerate() {
                let mut g = base.clone();
                if g.act(v.seat, *c).is_err() {
                    continue 'worlds;
                }
                finish(&mut g, &mut self.rng, exchange);
                scores[i] = g.seat_score(v.seat).unwrap_or(0) as f64;
            }
            for (t, s) in total.iter_mut().zip(scores) {
                *t += s;
            }
            n += 1;
        }
        if n < 8 {
            return None;
        }
        let best = (0..cands.len()).max_by(|a, b| total[*a].total_cmp(&total[*b])).expect("candidates");
        let margin = match cands[best] {
            Action::Bid(Bid::Reserve(Reservation::Solo { .. })) => 1.0,
            _ => 0.5,
        };
        (best != 0 && (total[best] - total[0]) / n as f64 >= margin).then_some(cands[best])
    }
}

/// A turn in play a searching player decides by search: its card (or
/// announcement), not an owed announcement or a declaration, which the
/// basic conventions make.
pub(crate) fn searched_turn(v: &SeatView) -> bool {
    v.public.phase == Phase::Playing
        && v.public.to_act == Some(v.seat)
        && v.public.mandatory != Some(v.seat)
        && !v.legal.iter().any(|a| matches!(a, Action::Say(_)))
}

impl Player for StrongPlayer {
    fn decide(&mut self, v: &SeatView) -> Action {
        if v.public.phase == Phase::Bidding
            && v.public.to_act == Some(v.seat)
            && let Some(a) = self.bid(v)
        {
            return a;
        }
        if searched_turn(v)
            && let Some(a) = self.card(v)
        {
            return a;
        }
        BasicPlayer.decide(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds::poverty_trumps;
    use doko_engine::{Cards, Game, Preset, Rank, Rules, Seat, Suit};

    /// A poverty game played by basic players to its fifth trick.
    fn poverty_game() -> Game {
        let rules = Rules::preset(Preset::Casual);
        for seed in 0..2000 {
            let mut g = Game::deal(rules, Seat::new(0), seed);
            let at_fifth =
                |g: &Game| g.phase() == Phase::Playing && g.tricks().len() == 4 && g.current_trick().len == 1;
            while !(g.is_over() || at_fifth(&g)) {
                let s = g.mandatory_announcement().or(g.to_act()).expect("someone acts");
                let a = BasicPlayer.decide(&g.view(s));
                g.act(s, a).expect("legal");
            }
            if !g.is_over() && g.poverty().is_some_and(|p| p.acceptor.is_some()) {
                return g;
            }
        }
        panic!("no poverty game in 2,000 deals");
    }

    #[test]
    fn every_seat_rebuilds_a_poverty_game() {
        let g = poverty_game();
        let p = *g.poverty().expect("poverty");
        let real = Seat::ALL.map(|s| g.hand(s));
        let mut rng = Rng::new(3);
        for seat in [p.pauper, p.acceptor.expect("taken")] {
            let v = g.view(seat);
            // the real deal is a world, and it is rebuilt exactly
            let w = world(&v, real).expect("the real hands fit");
            assert_eq!(Seat::ALL.map(|s| w.hand(s)), real);
            assert_eq!(w.tricks(), g.tricks());
            // sampled worlds keep the exchanged cards where they are
            let k = knowledge(&v).expect("knowledge");
            for _ in 0..50 {
                let hands = sample(&k, &v, &mut rng).expect("a sample");
                for s in Seat::ALL {
                    assert!(hands[s.index()].includes(k.pinned[s.index()]));
                    assert_eq!(hands[s.index()].len(), real[s.index()].len());
                }
                if let Some(w) = world(&v, hands) {
                    assert_eq!(w.hand(seat), g.hand(seat));
                }
            }
        }
        // the other two did not see the exchange: they replay one that
        // fits, and in their worlds the pauper holds no trump but those
        // that came back
        let trumps = poverty_trumps(g.rules());
        let back = p.returned.with_mask(trumps).len();
        for seat in Seat::ALL.into_iter().filter(|s| *s != p.pauper && Some(*s) != p.acceptor) {
            let v = g.view(seat);
            let w = world(&v, real).expect("the real hands fit");
            assert_eq!(Seat::ALL.map(|s| w.hand(s)), real);
            assert_eq!(w.tricks(), g.tricks());
            let k = knowledge(&v).expect("knowledge");
            let cap = k.trump_max[p.pauper.index()];
            let played = w
                .tricks()
                .iter()
                .flat_map(|t| (0..4).filter(|i| t.leader.plus(*i) == p.pauper).map(|i| t.cards[i]))
                .filter(|c| trumps.contains(*c))
                .count();
            assert!(cap + played >= back && cap + played <= 3, "cap {cap}, {played} played, {back} came back");
            let mut rebuilt = 0;
            for _ in 0..50 {
                let hands = sample(&k, &v, &mut rng).expect("a sample");
                assert!(hands[p.pauper.index()].with_mask(trumps).len() <= cap);
                if let Some(w) = world(&v, hands) {
                    assert_eq!(w.hand(seat), g.hand(seat));
                    assert_eq!(w.tricks(), g.tricks());
                    rebuilt += 1;
                }
            }
            assert!(rebuilt >= 40, "{rebuilt} of 50 worlds rebuilt");
        }
    }

    /// Basic players bid until a poverty reaches `phase`.
    fn poverty_at(phase: Phase) -> Game {
        let rules = Rules::preset(Preset::Casual);
        for seed in 0..2000 {
            let mut g = Game::deal(rules, Seat::new(1), seed);
            while !g.is_over() && g.phase() != phase && g.phase() != Phase::Playing {
                let s = g.to_act().expect("someone acts");
                let a = BasicPlayer.decide(&g.view(s));
                g.act(s, a).expect("legal");
            }
            if g.phase() == phase {
                return g;
            }
        }
        panic!("no poverty at {phase:?} in 2,000 deals");
    }

    #[test]
    fn every_poverty_step_is_simulated_in_worlds_that_fit_it() {
        for phase in [Phase::PovertyGive, Phase::PovertyOffer, Phase::PovertyReturn] {
            let g = poverty_at(phase);
            let seat = g.to_act().expect("asked");
            let v = g.view(seat);
            let p = *g.poverty().expect("poverty");
            let trumps = poverty_trumps(g.rules());
            let mut rng = Rng::new(5);
            let mut rebuilt = 0;
            for _ in 0..50 {
                let Some(w) = exchange_world(&v, &mut rng) else { continue };
                rebuilt += 1;
                assert_eq!((w.phase(), w.to_act()), (phase, Some(seat)));
                assert_eq!(w.hand(seat), v.hand);
                let wp = w.poverty().expect("poverty");
                assert_eq!((wp.pauper, wp.declined, wp.given.len()), (p.pauper, p.declined, p.given.len()));
                if phase != Phase::PovertyGive {
                    assert!(w.hand(p.pauper).with_mask(trumps).is_empty(), "the pauper kept no trump");
                }
                if phase == Phase::PovertyReturn {
                    assert_eq!(wp.given, p.given, "the acceptor saw the cards put down");
                }
                assert_eq!(Seat::ALL.map(|s| w.hand(s).len()), Seat::ALL.map(|s| g.hand(s).len()));
            }
            assert!(rebuilt >= 40, "{phase:?}: {rebuilt} of 50 worlds");
            // the expert's choice is legal, and simulated (worlds, not the
            // clock, bound it here)
            let mut strong =
                StrongPlayer::new(StrongConfig { budget: Duration::from_secs(30), ..StrongConfig::default() }, 1);
            if let Some(a) = strong.reserve(&v) {
                assert!(v.legal.contains(&a), "{phase:?}: {a:?}");
            }
            if phase != Phase::PovertyOffer {
                let c = exchange_candidates(&v);
                assert!(c.len() >= 2 && c.len() <= 11 && c.iter().all(|a| v.legal.contains(a)), "{c:?}");
            }
        }
    }

    /// A hand of eight queens and four aces: the conventions announce the
    /// wedding; playing it alone (silently or as a queens solo) is worth
    /// far more, and the simulation finds that.
    #[test]
    fn the_expert_keeps_a_monster_wedding_to_itself() {
        let rules = Rules::default();
        let mut mine = Cards::EMPTY;
        for suit in [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds] {
            mine = mine.checked_add(Cards::both(Card::new(suit, Rank::Queen))).expect("two of each");
        }
        for suit in [Suit::Clubs, Suit::Spades] {
            mine = mine.checked_add(Cards::both(Card::new(suit, Rank::Ace))).expect("two of each");
        }
        let mut rest = Cards::pack(rules.nines).checked_sub(mine).expect("in the pack").iter();
        let hands = Seat::ALL.map(|s| if s.index() == 0 { mine } else { rest.by_ref().take(12).collect() });
        // seat 0 bids first
        let g = Game::new(rules, Seat::new(3), hands).expect("a deal");
        let v = g.view(Seat::new(0));
        let wedding = Action::Bid(Bid::Reserve(Reservation::Wedding(None)));
        assert_eq!(BasicPlayer.decide(&v), wedding);
        let mut strong =
            StrongPlayer::new(StrongConfig { budget: Duration::from_secs(30), ..StrongConfig::default() }, 2);
        let a = strong.reserve(&v).expect("another bid than the wedding");
        assert!(v.legal.contains(&a) && a != wedding, "{a:?}");
        // the strong player (the baseline) only ever weighs solos
        let mut baseline =
            StrongPlayer::new(StrongConfig { budget: Duration::from_secs(30), ..StrongConfig::default() }, 2);
        assert!(!matches!(baseline.bid(&v), Some(Action::Bid(Bid::Healthy))));
    }
}
