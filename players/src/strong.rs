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

use doko_engine::{
    Action, Bid, Call, Card, Cards, Contract, Game, Level, Party, Phase, Reservation, Rng, Rules, Seat, SeatView,
    SeenBid, SoloKind, normal_game_trumps,
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
    /// trumps each seat may still hold at most (a poverty's pauper holds
    /// only the trumps it got back; `usize::MAX`: no limit)
    trump_max: [usize; 4],
}

/// The trumps a poverty counts (a normal game's; without the hearts tens
/// when `dullen` is off), as the engine counts them.
fn poverty_trumps(rules: &Rules) -> Cards {
    let t = normal_game_trumps();
    if rules.dullen { t } else { t.without_mask(Cards::both(Card::H10)) }
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
    // the pauper gave away every trump and holds only what came back: as
    // many trumps as cards were exchanged, none where the acceptor may not
    // return trumps (it always holds other cards then)
    let mut trump_max = [usize::MAX; 4];
    if let Some(p) = pv.poverty
        && p.acceptor.is_some()
        && v.seat != p.pauper
    {
        let back = match v.poverty_cards {
            Some((_, returned)) => returned.with_mask(poverty_trumps(&pv.rules)).len(),
            None if pv.rules.poverty_return_trumps => p.given,
            None => 0,
        };
        let played = played_by[p.pauper.index()].with_mask(poverty_trumps(&pv.rules)).len();
        trump_max[p.pauper.index()] = back.checked_sub(played)?;
    }
    Some(Knowledge { unseen: unseen_set.iter().collect(), need, void, cq_min, cq_max, pinned, trump_max })
}

pub(crate) fn sample(k: &Knowledge, v: &SeatView, rng: &mut Rng) -> Option<[Cards; 4]> {
    let order = &v.order;
    'attempt: for _ in 0..30 {
        let mut hands = k.pinned;
        hands[v.seat.index()] = v.hand;
        let mut left = k.need;
        let mut cards = k.unseen.clone();
        shuffle(&mut cards, rng);
        // queens of clubs first, to meet the minimums (and then the trumps
        // where a seat may hold only a few)
        let capped = k.trump_max.iter().any(|m| *m < usize::MAX);
        cards.sort_by_key(|c| (*c != Card::CQ, capped && !order.is_trump(*c)));
        let mut cq = k.pinned.map(|h| h.count(Card::CQ));
        let mut trumps = k.pinned.map(|h| h.iter().filter(|c| order.is_trump(*c)).count());
        for c in cards {
            let trump = order.is_trump(c);
            let mut choices: Vec<usize> = (0..4)
                .filter(|s| left[*s] > 0 && !k.void[*s][order.class(c) as usize])
                .filter(|s| c != Card::CQ || cq[*s] < k.cq_max[*s])
                .filter(|s| !trump || trumps[*s] < k.trump_max[*s])
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
            if trump {
                trumps[s] += 1;
            }
        }
        if (0..4).any(|s| cq[s] < k.cq_min[s]) {
            continue;
        }
        return Some(hands);
    }
    None
}

/// The deal `hands` (as dealt) after its bids as the seat saw them: its
/// own, the reservation that decided the contract, healthy for the rest.
fn bid_as_seen(v: &SeatView, hands: [Cards; 4], mut step: impl FnMut(&Game, Seat, Action)) -> Option<Game> {
    let pv = &v.public;
    let mut g = Game::new(pv.rules, pv.dealer, hands).ok()?;
    for s in pv.dealer.next().clockwise() {
        let b = match (s == v.seat, pv.bids[s.index()]) {
            (true, _) => v.own_bid.unwrap_or(Bid::Healthy),
            (_, Some(SeenBid::Decided(r))) => Bid::Reserve(r),
            _ => Bid::Healthy,
        };
        step(&g, s, Action::Bid(b));
        g.act(s, Action::Bid(b)).ok()?;
    }
    Some(g)
}

/// Shuffles `cards` in place (Fisher-Yates).
fn shuffle(cards: &mut [Card], rng: &mut Rng) {
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.below(i + 1));
    }
}

/// Rebuilds a full game from the view's public history and sampled hands
/// (current hands; the cards played are given back to their players). In a
/// poverty game the pauper and the acceptor replay the exchange they saw;
/// the two others replay one that fits the hands (see [`exchange_for`]).
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
        let a = p.acceptor?;
        let (pi, ai) = (p.pauper.index(), a.index());
        let (given, returned) = match v.poverty_cards {
            Some(seen) => seen,
            None => exchange_for(&pv.rules, p.given, dealt[pi], dealt[ai])?,
        };
        dealt[pi] = dealt[pi].checked_sub(returned)?.checked_add(given)?;
        dealt[ai] = dealt[ai].checked_add(returned)?.checked_sub(given)?;
        exchange.push((p.pauper, Action::Give(given)));
        exchange.extend((1..=usize::from(p.declined)).map(|i| (p.pauper.plus(i), Action::Answer(false))));
        exchange.push((a, Action::Answer(true)));
        exchange.push((a, Action::Return(returned)));
    }
    let mut g = bid_as_seen(v, dealt, &mut step)?;
    for (s, a) in exchange {
        g.act(s, a).ok()?;
    }
    for (s, a) in actions {
        step(&g, s, a);
        g.act(s, a).ok()?;
    }
    (g.phase() == Phase::Playing && g.hand(v.seat) == v.hand).then_some(g)
}

/// An exchange the seats outside a poverty cannot tell from the real one:
/// given the pauper's and the acceptor's cards after it (`pauper`,
/// `acceptor`, the cards since played included), the `k` cards put down
/// and the `k` returned such that the pauper gave every trump it held and
/// kept only what came back. Which of the acceptor's cards were the
/// pauper's does not change the game from the return on, so the first
/// ones are taken (`k` trumps when more than three were put down: the
/// pauper held that many); `None` when the pauper holds more trumps than
/// came back.
pub(crate) fn exchange_for(rules: &Rules, k: usize, pauper: Cards, acceptor: Cards) -> Option<(Cards, Cards)> {
    let trumps = poverty_trumps(rules);
    let held = pauper.with_mask(trumps);
    let returned: Cards = held.iter().chain(pauper.without_mask(trumps).iter()).take(k).collect();
    let from = if k > 3 { acceptor.with_mask(trumps) } else { acceptor };
    let given: Cards = from.iter().take(k).collect();
    (held.len() <= k && returned.len() == k && given.len() == k).then_some((given, returned))
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
pub(crate) fn basic_playout(g: &mut Game) {
    for _ in 0..1000 {
        let Some(s) = g.mandatory_announcement().or(g.to_act()) else { return };
        let view = g.view(s);
        let a = BasicPlayer.decide(&view);
        if g.act(s, a).is_err() {
            let _ = g.act(s, view.legal[0]);
        }
    }
}

/// Whether a solo could suit the hand: only those are simulated.
fn plausible_solo(hand: Cards, kind: SoloKind) -> bool {
    let order = doko_engine::Order::new(kind.trumps());
    let trumps = hand.iter().filter(|c| order.is_trump(*c)).count();
    let aces = hand.iter().filter(|c| c.rank() == doko_engine::Rank::Ace && !order.is_trump(*c)).count();
    match kind.trumps() {
        doko_engine::Trumps::Suit(_) => trumps >= 9,
        doko_engine::Trumps::Rank(_) => trumps >= 4 && trumps + aces >= 7,
        doko_engine::Trumps::None => aces >= 5,
    }
}

/// The bids and poverty steps the expert weighs: every one but a
/// compulsory solo and a solo the hand could not suit (of the cards to put
/// down or return, [`exchange_candidates`] picks a few).
pub(crate) fn considered(v: &SeatView, a: &Action) -> bool {
    match a {
        Action::Bid(Bid::Reserve(Reservation::Solo { duty: true, .. })) => false,
        Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => plausible_solo(v.hand, *kind),
        Action::Bid(_) | Action::Answer(_) | Action::Give(_) | Action::Return(_) => true,
        _ => false,
    }
}

/// The unseen cards in a random order.
fn shuffled_unseen(v: &SeatView, rng: &mut Rng) -> Option<Vec<Card>> {
    let mut cards: Vec<Card> = Cards::pack(v.public.rules.nines).checked_sub(v.hand)?.iter().collect();
    shuffle(&mut cards, rng);
    Some(cards)
}

/// A sampled deal at the seat's bid: the unseen cards dealt at random,
/// the seats before it bidding by the basic conventions (healthy where
/// those would not fit).
pub(crate) fn bid_world(v: &SeatView, rng: &mut Rng) -> Option<Game> {
    let pv = &v.public;
    let mut it = shuffled_unseen(v, rng)?.into_iter();
    let hands = Seat::ALL.map(|s| if s == v.seat { v.hand } else { it.by_ref().take(v.hand.len()).collect() });
    let mut g = Game::new(pv.rules, pv.dealer, hands).ok()?;
    while g.phase() == Phase::Bidding {
        let s = g.to_act()?;
        if s == v.seat {
            return Some(g);
        }
        let a = BasicPlayer.decide(&g.view(s));
        if g.act(s, a).is_err() {
            g.act(s, Action::Bid(Bid::Healthy)).ok()?;
        }
    }
    None
}

/// A sampled deal at the seat's step in a poverty: putting the cards
/// down (the pauper), answering the offer, or returning cards (the
/// acceptor). The pauper's cards left hold no trump (it put them all
/// down); what the seat has not seen is dealt at random; the bids, the
/// cards put down and the refusals are replayed as seen.
pub(crate) fn exchange_world(v: &SeatView, rng: &mut Rng) -> Option<Game> {
    let pv = &v.public;
    let p = pv.poverty?;
    let trumps = poverty_trumps(&pv.rules);
    let mut cards = shuffled_unseen(v, rng)?;
    let mut hands = [Cards::EMPTY; 4];
    // the cards put down, when they were
    let mut given = None;
    if pv.phase == Phase::PovertyGive {
        if v.seat != p.pauper {
            return None;
        }
    } else {
        // the pauper's cards left first: fail cards only
        cards.sort_by_key(|c| trumps.contains(*c));
        let kept: Cards = cards.drain(..pv.hand_sizes[p.pauper.index()]).collect();
        if !kept.with_mask(trumps).is_empty() {
            return None;
        }
        shuffle(&mut cards, rng);
        let put = match (pv.phase, v.poverty_cards) {
            (Phase::PovertyOffer, _) => cards.drain(..p.given).collect(),
            (Phase::PovertyReturn, Some((put, _))) if p.acceptor == Some(v.seat) => put,
            _ => return None,
        };
        hands[p.pauper.index()] = kept.checked_add(put)?;
        given = Some(put);
    }
    let mut it = cards.into_iter();
    for s in Seat::ALL {
        if s == v.seat {
            // the acceptor holds the cards put down since it took them
            hands[s.index()] = match (pv.phase, given) {
                (Phase::PovertyReturn, Some(put)) => v.hand.checked_sub(put)?,
                _ => v.hand,
            };
        } else if s != p.pauper || given.is_none() {
            hands[s.index()] = it.by_ref().take(pv.hand_sizes[s.index()]).collect();
        }
    }
    let mut g = bid_as_seen(v, hands, |_, _, _| {})?;
    if let Some(put) = given {
        g.act(p.pauper, Action::Give(put)).ok()?;
        for i in 1..=usize::from(p.declined) {
            g.act(p.pauper.plus(i), Action::Answer(false)).ok()?;
        }
        if pv.phase == Phase::PovertyReturn {
            g.act(v.seat, Action::Answer(true)).ok()?;
        }
    }
    (g.phase() == pv.phase && g.to_act() == Some(v.seat)).then_some(g)
}

/// The cards to put down or return worth simulating (every legal set is
/// too many): the eight the conventions rank first (fewest trumps, fewest
/// points), and for each suit the first-ranked that leaves the hand
/// without that suit.
pub(crate) fn exchange_candidates(v: &SeatView) -> Vec<Action> {
    let trumps = poverty_trumps(&v.public.rules);
    let cards = |a: &Action| match a {
        Action::Give(c) | Action::Return(c) => Some(*c),
        _ => None,
    };
    let mut ranked: Vec<(Action, Cards)> = v.legal.iter().filter_map(|a| cards(a).map(|c| (*a, c))).collect();
    ranked.sort_by_key(|(_, c)| (c.with_mask(trumps).len(), c.points()));
    let mut out: Vec<Action> = ranked.iter().take(8).map(|(a, _)| *a).collect();
    for suit in [doko_engine::Suit::Clubs, doko_engine::Suit::Spades, doko_engine::Suit::Hearts] {
        let fail = Cards::suit(suit).without_mask(trumps);
        let voids = ranked.iter().find(|(_, c)| {
            v.hand
                .checked_sub(*c)
                .is_some_and(|left| left.with_mask(fail).is_empty() && !v.hand.with_mask(fail).is_empty())
        });
        if let Some((a, _)) = voids
            && !out.contains(a)
        {
            out.push(*a);
        }
    }
    out
}

/// The rest of a deal after a bid or a poverty step: the reservations and
/// the exchange by the basic conventions, the cards by `cards` (random
/// for the exchange's candidates, which are many; the basic conventions
/// for bids and answers).
fn finish(g: &mut Game, rng: &mut Rng, random_cards: bool) {
    if !random_cards {
        basic_playout(g);
        return;
    }
    for _ in 0..100 {
        if g.phase() == Phase::Playing || g.is_over() {
            break;
        }
        let Some(s) = g.to_act() else { break };
        let view = g.view(s);
        if g.act(s, BasicPlayer.decide(&view)).is_err() {
            let _ = g.act(s, view.legal[0]);
        }
    }
    g.random_playout(rng);
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
    use doko_engine::{Preset, Rank, Suit};

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
