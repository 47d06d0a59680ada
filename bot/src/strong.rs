//! The strong computer player: determinized Monte Carlo.
//!
//! For a card decision it samples deals of the unseen cards that fit
//! everything its seat has observed (cards played, suits not followed,
//! revealed queens of clubs and parties, the wedding declarer's queens),
//! rebuilds each as a full game by replaying the public history through the
//! engine (a world the history does not fit is refused by the engine and
//! dropped), and evaluates every playable card by playouts in the sampled
//! worlds. It stays within a time budget. Reservations and the poverty
//! exchange use the basic player's conventions.

use std::time::{Duration, Instant};

use doko_engine::{
    Action, Bid, Call, Card, Cards, Contract, Game, Level, Party, Phase, Record, Rng, Seat, SeatView, SeenBid,
};

use crate::player::{BasicPlayer, Player};

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

/// What the view tells about the cards others hold.
pub(crate) struct Knowledge {
    unseen: Vec<Card>,
    need: [usize; 4],
    void: [[bool; 5]; 4],
    /// queens of clubs each seat must still hold at least / at most
    cq_min: [usize; 4],
    cq_max: [usize; 4],
    /// Cards known to be in a seat's hand (a poverty's exchanged cards,
    /// seen by the pauper and the acceptor).
    pinned: [Cards; 4],
}

/// Multiset difference that drops what is not there.
fn minus(a: Cards, b: Cards) -> Cards {
    let mut r = a;
    for c in b.iter() {
        r.remove(c);
    }
    r
}

pub(crate) fn knowledge(v: &SeatView) -> Option<Knowledge> {
    let pv = &v.public;
    let order = &v.order;
    let mut unseen_set = Cards::pack(pv.rules.nines).checked_sub(v.hand)?;
    let mut played_by = [Cards::EMPTY; 4];
    let mut void = [[false; 5]; 4];
    let mut note_trick = |leader: Seat, cards: &[Card]| {
        if let Some(first) = cards.first() {
            let led = order.class(*first);
            for (i, c) in cards.iter().enumerate() {
                let s = leader.plus(i);
                played_by[s.index()].insert(*c);
                if order.class(*c) != led {
                    void[s.index()][led as usize] = true;
                }
            }
        }
    };
    for t in &pv.tricks {
        note_trick(t.leader, &t.cards);
    }
    note_trick(pv.trick.leader, pv.trick.played());
    for p in played_by {
        unseen_set = unseen_set.checked_sub(p)?;
    }
    let mut need = pv.hand_sizes;
    need[v.seat.index()] = 0;
    let mut cq_min = [0usize; 4];
    let mut cq_max = [2usize; 4];
    let cq_played = |s: Seat| played_by[s.index()].count(Card::CQ);
    match pv.contract {
        Some(Contract::Normal) => {
            for s in Seat::ALL {
                match pv.parties[s.index()] {
                    // a revealed Re player holds a queen of clubs unless one was played
                    Some(Party::Re) if cq_played(s) == 0 => cq_min[s.index()] = 1,
                    Some(Party::Kontra) => cq_max[s.index()] = 0,
                    _ => {}
                }
            }
        }
        Some(Contract::Wedding) => {
            if let Some(d) = pv.declarer {
                cq_min[d.index()] = 2 - cq_played(d);
            }
        }
        _ => {}
    }
    for s in Seat::ALL {
        if s == v.seat {
            cq_min[s.index()] = 0;
            cq_max[s.index()] = 0;
        }
        cq_max[s.index()] = cq_max[s.index()].saturating_sub(cq_played(s));
    }
    // a poverty's exchange: the pauper holds what was returned, the
    // acceptor what was given and not returned (unless played since)
    let mut pinned = [Cards::EMPTY; 4];
    if let (Some(p), Some((given, returned))) = (pv.poverty, v.poverty_cards)
        && let Some(a) = p.acceptor
    {
        let (pi, ai) = (p.pauper.index(), a.index());
        if v.seat != p.pauper {
            pinned[pi] = minus(returned, played_by[pi]);
        }
        if v.seat != a {
            pinned[ai] = minus(minus(given, returned), played_by[ai]);
        }
    }
    for s in 0..4 {
        unseen_set = unseen_set.checked_sub(pinned[s])?;
        need[s] = need[s].checked_sub(pinned[s].len())?;
    }
    Some(Knowledge { unseen: unseen_set.iter().collect(), need, void, cq_min, cq_max, pinned })
}

pub(crate) fn sample(k: &Knowledge, v: &SeatView, rng: &mut Rng) -> Option<[Cards; 4]> {
    let order = &v.order;
    'attempt: for _ in 0..30 {
        let mut hands = k.pinned;
        hands[v.seat.index()] = v.hand;
        let mut left = k.need;
        let mut cards = k.unseen.clone();
        for i in (1..cards.len()).rev() {
            cards.swap(i, rng.below(i + 1));
        }
        // queens of clubs first, to meet the minimums
        cards.sort_by_key(|c| *c != Card::CQ);
        let mut cq = k.pinned.map(|h| h.count(Card::CQ));
        for c in cards {
            let mut choices: Vec<usize> = (0..4)
                .filter(|s| left[*s] > 0 && !k.void[*s][order.class(c) as usize])
                .filter(|s| c != Card::CQ || cq[*s] < k.cq_max[*s])
                .collect();
            if c == Card::CQ {
                let short: Vec<usize> = choices.iter().copied().filter(|s| cq[*s] < k.cq_min[*s]).collect();
                if !short.is_empty() {
                    choices = short;
                }
            }
            if choices.is_empty() {
                continue 'attempt;
            }
            let s = choices[rng.below(choices.len())];
            hands[s].insert(c);
            left[s] -= 1;
            if c == Card::CQ {
                cq[s] += 1;
            }
        }
        if (0..4).any(|s| cq[s] < k.cq_min[s]) {
            continue;
        }
        return Some(hands);
    }
    None
}

/// Rebuilds a full game from the view's public history and sampled hands
/// (current hands; the cards played are given back to their players). In a
/// poverty game only the pauper and the acceptor can: they saw the
/// exchange.
pub(crate) fn world(v: &SeatView, hands: [Cards; 4]) -> Option<Game> {
    replay_world(v, hands, |_, _, _| {})
}

/// [`world`], showing each step of the public history to `step` before it
/// is taken (the game as it was, who acted, what they did).
pub(crate) fn replay_world(v: &SeatView, hands: [Cards; 4], mut step: impl FnMut(&Game, Seat, Action)) -> Option<Game> {
    let pv = &v.public;
    let mut dealt = hands;
    let actions = pv.history();
    for (s, a) in &actions {
        if let Action::Play(c) = a {
            dealt[s.index()].insert(*c);
        }
    }
    // a poverty: its exchange undone and replayed, where this seat saw it
    // (the others do not know the hands before it)
    let mut exchange = Vec::new();
    if let Some(p) = pv.poverty {
        let (Some(a), Some((given, returned))) = (p.acceptor, v.poverty_cards) else { return None };
        let (pi, ai) = (p.pauper.index(), a.index());
        dealt[pi] = dealt[pi].checked_sub(returned)?.checked_add(given)?;
        dealt[ai] = dealt[ai].checked_add(returned)?.checked_sub(given)?;
        exchange.push((p.pauper, Action::Give(given)));
        exchange.extend((1..=usize::from(p.declined)).map(|i| (p.pauper.plus(i), Action::Answer(false))));
        exchange.push((a, Action::Answer(true)));
        exchange.push((a, Action::Return(returned)));
    }
    let forehand = pv.dealer.next();
    let bids: Vec<(Seat, Bid)> = forehand
        .clockwise()
        .into_iter()
        .map(|s| {
            let b = match (s == v.seat, pv.bids[s.index()]) {
                (true, _) => v.own_bid.unwrap_or(Bid::Healthy),
                (_, Some(SeenBid::Decided(r))) => Bid::Reserve(r),
                _ => Bid::Healthy,
            };
            (s, b)
        })
        .collect();
    let rec = Record {
        rules: pv.rules,
        dealer: pv.dealer,
        hands: dealt,
        bids: Some(bids),
        actions: Vec::new(),
        aborted: None,
    };
    let mut g = rec.to_game().ok()?;
    for (s, a) in exchange {
        g.act(s, a).ok()?;
    }
    for (s, a) in actions {
        step(&g, s, a);
        g.act(s, a).ok()?;
    }
    (g.phase() == Phase::Playing && g.hand(v.seat) == v.hand).then_some(g)
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

/// Plays a game to its end with basic players in every seat.
fn basic_playout(g: &mut Game) {
    for _ in 0..1000 {
        let Some(s) = g.mandatory_announcement().or(g.to_act()) else { return };
        let view = g.view(s);
        let a = BasicPlayer.decide(&view);
        if g.act(s, a).is_err() {
            let _ = g.act(s, view.legal[0]);
        }
    }
}

impl StrongPlayer {
    /// Solo or not: the expected score of each plausible solo against
    /// staying healthy, over sampled deals played out by basic players.
    pub(crate) fn bid(&mut self, v: &SeatView) -> Option<Action> {
        let start = Instant::now();
        let hand = v.hand;
        let solos: Vec<Bid> = v
            .legal
            .iter()
            .filter_map(|a| match a {
                Action::Bid(b @ Bid::Reserve(doko_engine::Reservation::Solo { kind, duty: false })) => {
                    let order = doko_engine::Order::new(kind.trumps());
                    let trumps = hand.iter().filter(|c| order.is_trump(*c)).count();
                    let aces =
                        hand.iter().filter(|c| c.rank() == doko_engine::Rank::Ace && !order.is_trump(*c)).count();
                    // only hands a solo could suit are simulated
                    let plausible = match kind.trumps() {
                        doko_engine::Trumps::Suit(_) => trumps >= 9,
                        doko_engine::Trumps::Rank(_) => trumps >= 4 && trumps + aces >= 7,
                        doko_engine::Trumps::None => aces >= 5,
                    };
                    plausible.then_some(*b)
                }
                _ => None,
            })
            .collect();
        if solos.is_empty() {
            return None;
        }
        let mut cands = vec![BasicPlayer.decide(v)];
        cands.extend(solos.into_iter().map(Action::Bid));
        let pv = &v.public;
        let unseen: Vec<Card> = Cards::pack(pv.rules.nines).checked_sub(hand)?.iter().collect();
        let mut total = vec![0f64; cands.len()];
        let mut n = 0;
        while n < self.config.worlds && start.elapsed() < self.config.budget {
            let mut cards = unseen.clone();
            for i in (1..cards.len()).rev() {
                cards.swap(i, self.rng.below(i + 1));
            }
            let mut hands = [Cards::EMPTY; 4];
            let mut it = cards.into_iter();
            for s in Seat::ALL {
                hands[s.index()] = if s == v.seat { hand } else { it.by_ref().take(hand.len()).collect() };
            }
            let Ok(base) = Game::new(pv.rules, pv.dealer, hands) else { return None };
            for (i, c) in cands.iter().enumerate() {
                let mut g = base.clone();
                // the seats before this one bid as they did (healthy unless a reservation showed)
                for _ in 0..1000 {
                    let Some(s) = g.to_act() else { break };
                    if g.phase() != Phase::Bidding {
                        break;
                    }
                    let a = if s == v.seat { *c } else { BasicPlayer.decide(&g.view(s)) };
                    if g.act(s, a).is_err() {
                        let _ = g.act(s, Action::Bid(Bid::Healthy));
                    }
                }
                basic_playout(&mut g);
                total[i] += g.score().map_or(0, |s| s.scores[v.seat.index()]) as f64;
            }
            n += 1;
        }
        if n < 8 {
            return None;
        }
        let best = (0..cands.len()).max_by(|a, b| total[*a].total_cmp(&total[*b])).expect("candidates");
        // a solo only when clearly better than staying in the normal game
        (best != 0 && (total[best] - total[0]) / n as f64 >= 1.0).then_some(cands[best])
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
    use doko_engine::{Preset, Rules};

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
    fn the_pauper_and_the_acceptor_rebuild_their_poverty_games() {
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
        // the other two did not see the exchange: no world for them
        for s in Seat::ALL.into_iter().filter(|s| *s != p.pauper && Some(*s) != p.acceptor) {
            assert!(world(&g.view(s), real).is_none());
        }
    }
}
