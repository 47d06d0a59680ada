//! The worlds a seat can imagine: what it knows from everything the table
//! saw (cards played, suits not followed, revealed queens and parties),
//! deals of the unseen cards that fit it, replayed through the engine, and
//! the simulations of bids and poverty exchanges in such worlds. The strong
//! player, the expert and the analysis after a deal share them.

use doko_engine::{
    Action, Bid, Card, Cards, Contract, Game, Party, Phase, Reservation, Rng, Rules, Seat, SeatView, SeenBid, SoloKind,
    normal_game_trumps,
};

use crate::player::{BasicPlayer, Player};

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
    pub(crate) pinned: [Cards; 4],
    /// trumps each seat may still hold at most (a poverty's pauper holds
    /// only the trumps it got back; `usize::MAX`: no limit)
    pub(crate) trump_max: [usize; 4],
}

/// The trumps a poverty counts (a normal game's; without the hearts tens
/// when `dullen` is off), as the engine counts them.
pub(crate) fn poverty_trumps(rules: &Rules) -> Cards {
    let t = normal_game_trumps();
    if rules.dullen { t } else { t.without_mask(Cards::both(Card::H10)) }
}

/// Multiset difference that drops what is not there.
pub(crate) fn minus(a: Cards, b: Cards) -> Cards {
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
pub(crate) fn bid_as_seen(v: &SeatView, hands: [Cards; 4], mut step: impl FnMut(&Game, Seat, Action)) -> Option<Game> {
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
pub(crate) fn shuffle(cards: &mut [Card], rng: &mut Rng) {
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
pub(crate) fn plausible_solo(hand: Cards, kind: SoloKind) -> bool {
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
pub(crate) fn shuffled_unseen(v: &SeatView, rng: &mut Rng) -> Option<Vec<Card>> {
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
pub(crate) fn finish(g: &mut Game, rng: &mut Rng, random_cards: bool) {
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
