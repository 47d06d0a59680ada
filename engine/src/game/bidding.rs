//! The reservation query: which bids a hand allows, and the contract the
//! bids decide, which starts the play.

use super::{CurrentTrick, Game, Poverty};
use crate::card::{Card, Rank};
use crate::cards::Cards;
use crate::contract::{Bid, Contract, Order, Reservation};
use crate::error::{ActionError, Attempt, SwitchedOff};
use crate::phase::{Phase, RedealReason};
use crate::rules::{SoloPriority, WeddingRule};
use crate::seat::Seat;

impl Game {
    /// Whether a bid is allowed for a seat's hand under the rules (not
    /// whose turn it is).
    #[inline]
    pub fn check_bid(&self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        let hand = self.hands[seat.index()];
        let Bid::Reserve(r) = bid else { return Ok(()) };
        match r {
            Reservation::Wedding(choice) => {
                if choice.is_some() && !self.rules.wedding_choose {
                    return Err(ActionError::RuleOff { seat, what: SwitchedOff::WeddingTrick });
                }
                if hand.count(Card::CQ) != 2 {
                    return Err(ActionError::WeddingNeedsQueens { seat });
                }
            }
            Reservation::Poverty => {
                if !self.rules.poverty {
                    return Err(ActionError::RuleOff { seat, what: SwitchedOff::Poverty });
                }
                let mut t = hand.with_mask(self.poverty_trumps()).len();
                if !self.rules.poverty_fox_counts {
                    t -= hand.count(Card::DA);
                }
                if t > self.rules.poverty_max_trumps as usize {
                    return Err(ActionError::TooManyTrumps { seat, trumps: t, max: self.rules.poverty_max_trumps });
                }
            }
            Reservation::ThrowIn => {
                let nines = self.rules.throw_in_nines.filter(|_| self.rules.nines);
                let kings = self.rules.throw_in_kings;
                let low_trumps = self.rules.throw_in_low_trumps;
                let low_points = self.rules.throw_in_low_points;
                if nines.is_none() && kings.is_none() && low_trumps.is_none() && low_points.is_none() {
                    return Err(ActionError::RuleOff { seat, what: SwitchedOff::ThrowIn });
                }
                let n9 = hand.with_mask(Cards::rank(Rank::Nine)).len();
                let nk = hand.with_mask(Cards::rank(Rank::King)).len();
                let trumps = hand.with_mask(self.poverty_trumps()).len();
                let points = hand.points() as usize;
                let ok = nines.is_some_and(|n| n9 >= n as usize)
                    || kings.is_some_and(|n| nk >= n as usize)
                    || low_trumps.is_some_and(|n| trumps <= n as usize)
                    || low_points.is_some_and(|n| points < n as usize);
                if !ok {
                    return Err(ActionError::CannotThrowIn { seat, nines: n9, kings: nk, trumps, points });
                }
            }
            Reservation::Solo { kind, duty } => {
                if !self.rules.solos.contains(kind) {
                    return Err(ActionError::SoloNotAllowed { seat, kind });
                }
                if duty && self.rules.compulsory_solos == 0 {
                    return Err(ActionError::RuleOff { seat, what: SwitchedOff::CompulsorySolo });
                }
            }
        }
        Ok(())
    }

    pub(super) fn bid(&mut self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::Bidding, Attempt::Bid)?;
        self.expect_turn(seat)?;
        self.check_bid(seat, bid)?;
        self.bid_legal(seat, bid);
        Ok(())
    }

    /// A bid of the seat to act in the reservation query, taken from its
    /// legal bids, without checking it again (random games); debug builds
    /// still check it.
    pub(crate) fn bid_legal(&mut self, seat: Seat, bid: Bid) {
        debug_assert!(
            self.phase == Phase::Bidding && self.to_act == seat && self.check_bid(seat, bid).is_ok(),
            "bid_legal with a bid that is not legal"
        );
        self.bids[seat.index()] = Some(bid);
        self.n_bids += 1;
        if bid == Bid::Reserve(Reservation::ThrowIn) {
            // (the record names the seat that threw in as the declarer)
            self.declarer = Some(seat);
            self.phase = Phase::Redeal(RedealReason::ThrowIn);
            return;
        }
        self.to_act = seat.next();
        if self.n_bids == 4 {
            self.resolve_bids();
        }
    }

    fn resolve_bids(&mut self) {
        let mut best: Option<(Seat, Reservation)> = None;
        for s in self.forehand().clockwise() {
            // of solos of the same rank the first wins, or the last where
            // the house rule says so
            let last_wins = self.rules.solo_priority == SoloPriority::Last;
            if let Some(Bid::Reserve(r)) = self.bids[s.index()]
                && best.is_none_or(|(_, b)| {
                    r.precedence() > b.precedence()
                        || (last_wins && r.precedence() == b.precedence() && matches!(r, Reservation::Solo { .. }))
                })
            {
                best = Some((s, r));
            }
        }
        let forehand = self.forehand();
        match best {
            None => {
                // the seats with one queen of clubs and the one with both,
                // each seat's count read without a branch (they are dealt
                // at random)
                let (mut re, mut both) = (0u8, 0u8);
                for s in Seat::ALL {
                    let n = self.hands[s.index()].count(Card::CQ);
                    re |= u8::from(n == 1) << s.index();
                    both |= u8::from(n == 2) << s.index();
                }
                let silent = (both != 0).then(|| Seat::new(both.trailing_zeros() as usize));
                if let Some(s) = silent {
                    self.contract = Contract::SilentSolo;
                    self.declarer = Some(s);
                    self.re = 1 << s.index();
                } else {
                    self.contract = Contract::Normal;
                    self.re = re;
                }
                self.start_play(forehand);
            }
            Some((s, Reservation::Wedding(choice))) => {
                self.wedding_rule = choice.unwrap_or(self.rules.wedding);
                self.contract = Contract::Wedding;
                self.declarer = Some(s);
                self.re = 1 << s.index();
                self.clarified = false;
                self.start_play(forehand);
            }
            Some((s, Reservation::Poverty)) => {
                self.contract = Contract::Poverty;
                self.declarer = Some(s);
                self.poverty = Some(Poverty { pauper: s, ..Poverty::default() });
                self.phase = Phase::PovertyGive;
                self.to_act = s;
            }
            Some((s, Reservation::Solo { kind, duty })) => {
                self.contract = Contract::Solo(kind);
                self.declarer = Some(s);
                self.re = 1 << s.index();
                let leader = if duty || self.rules.soloist_leads { s } else { forehand };
                self.start_play(leader);
            }
            Some((_, Reservation::ThrowIn)) => unreachable!("a throw-in ends the query at once"),
        }
    }

    pub(super) fn start_play(&mut self, leader: Seat) {
        self.order = Order::for_deal(self.contract, &self.rules, &self.hands);
        self.phase = Phase::Playing;
        self.to_act = leader;
        self.trick = CurrentTrick { leader, cards: [Card::CQ; 4], len: 0 };
        // house rule: piglets counting from the deal force an announcement
        if self.order.power(Card::DA) > 200
            && let Some(holder) = Seat::ALL.into_iter().find(|s| self.hands[s.index()].count(Card::DA) == 2)
        {
            self.owe_for_piglets(holder);
        }
    }

    /// Under `piglets_announce`: the piglets' holder owes an announcement,
    /// unless its party has announced (or a wedding is not clarified yet).
    pub(super) fn owe_for_piglets(&mut self, holder: Seat) {
        if self.rules.piglets_announce
            && self.clarified
            && self.mandatory.is_none()
            && self.level[self.party(holder).index()].is_none()
        {
            self.mandatory = Some(holder);
            self.piglets_owed = true;
        }
    }

    /// The bids a seat may make now.
    pub fn legal_bids(&self, seat: Seat) -> Vec<Bid> {
        if self.phase == Phase::SowChoice && seat == self.to_act {
            return self.rules.solos.iter().map(|kind| Bid::Reserve(Reservation::Solo { kind, duty: false })).collect();
        }
        if self.phase != Phase::Bidding || seat != self.to_act {
            return Vec::new();
        }
        let mut v = Vec::with_capacity(20);
        self.each_legal_bid(seat, |b| v.push(b));
        v
    }

    /// The bids of [`legal_bids`](Self::legal_bids) in the reservation
    /// query, in its order, each given to `f` (no list is built: random
    /// games draw one of them).
    #[inline]
    pub(crate) fn each_legal_bid(&self, seat: Seat, mut f: impl FnMut(Bid)) {
        f(Bid::Healthy);
        // a wedding with a chosen trick needs what the plain one needs and
        // the house rule that lets the trick be chosen (`check_bid`)
        let wedding = self.check_bid(seat, Bid::Reserve(Reservation::Wedding(None))).is_ok();
        if wedding {
            f(Bid::Reserve(Reservation::Wedding(None)));
        }
        for r in [Reservation::Poverty, Reservation::ThrowIn] {
            if self.check_bid(seat, Bid::Reserve(r)).is_ok() {
                f(Bid::Reserve(r));
            }
        }
        if wedding && self.rules.wedding_choose {
            for k in WeddingRule::ALL {
                f(Bid::Reserve(Reservation::Wedding(Some(k))));
            }
        }
        for duty in [false, true] {
            if duty && self.rules.compulsory_solos == 0 {
                break;
            }
            for kind in self.rules.solos.iter() {
                f(Bid::Reserve(Reservation::Solo { kind, duty }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The legal bids are the reservations `check_bid` allows, in the
    /// order the query lists them (healthy, the plain wedding, poverty,
    /// throwing in, the weddings with a chosen trick, then the solos), for
    /// every preset with the wedding's trick chosen or not.
    #[test]
    fn the_legal_bids_are_those_check_bid_allows() {
        use crate::rules::Preset;
        let mut weddings = 0;
        for preset in Preset::ALL {
            for wedding_choose in [false, true] {
                let rules = Rules { wedding_choose, ..Rules::preset(preset) };
                for seed in 0..300 {
                    let g = Game::deal(rules, Seat::ALL[0], seed);
                    let s = g.to_act().expect("the query is open");
                    let chosen = WeddingRule::ALL.map(|k| Reservation::Wedding(Some(k)));
                    let mut expected = vec![Bid::Healthy];
                    for r in [Reservation::Wedding(None), Reservation::Poverty, Reservation::ThrowIn]
                        .into_iter()
                        .chain(chosen)
                    {
                        if g.check_bid(s, Bid::Reserve(r)).is_ok() {
                            expected.push(Bid::Reserve(r));
                        }
                    }
                    for duty in [false, true] {
                        for kind in rules.solos.iter() {
                            let b = Bid::Reserve(Reservation::Solo { kind, duty });
                            if g.check_bid(s, b).is_ok() {
                                expected.push(b);
                            }
                        }
                    }
                    weddings += usize::from(expected.contains(&Bid::Reserve(Reservation::Wedding(None))));
                    assert_eq!(g.legal_bids(s), expected, "{preset:?} choose {wedding_choose} seed {seed}");
                }
            }
        }
        assert!(weddings > 50, "weddings dealt: {weddings}");
    }
}
