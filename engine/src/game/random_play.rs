//! Random play for simulations: legal cards and calls drawn at random,
//! without the public steps' checks repeated at every card.

use super::Game;
use crate::announce::Call;
use crate::card::Card;
use crate::cards::Cards;
use crate::phase::Phase;
use crate::rng::{Digits, Rng};
use crate::seat::Seat;

impl Game {
    /// Plays random legal cards (and the owed announcements) to the end
    /// of the deal. For simulations.
    pub fn random_playout(&mut self, rng: &mut Rng) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: this CPU has BMI2, checked just above
            return unsafe { self.random_playout_bmi2(rng) };
        }
        self.playout_with(rng, |legal, n| legal.nth(n));
    }

    /// [`crate::random_game`]'s play: random legal cards until the phase
    /// changes; before each card, one time in 32, a random call kept when
    /// legal, and an owed announcement as a random legal call. One loop
    /// over the state the engine keeps, without the public calls' checks
    /// of phase and turn at every card (they hold here by construction);
    /// the same games as `legal_cards` and `play_legal` would play.
    ///
    /// A trick that starts with no announcement owed is played in one go
    /// (its cards in registers, the follow mask found once): nothing in
    /// it can owe one, since only a trick's end and the deal's start do.
    /// Its choices are the digits of one draw ([`Digits`]):
    /// first, below 2^20, whether each card's seat calls (its digit in
    /// base 32 is zero, the first card's highest), then for each card
    /// which call (where it calls) and which card: at most
    /// 32^4 · 6^4 · 12^4 < 2^45 choices, a relative bias under 2^-19.
    /// Any other card, and an owed announcement, takes a draw of its own.
    #[inline(always)]
    pub(crate) fn random_cards(&mut self, rng: &mut Rng, nth_bit: &impl Fn(Cards, usize) -> u64) {
        while self.phase == Phase::Playing {
            let s = self.to_act;
            if self.mandatory == Some(s) {
                let calls = self.legal_calls(s);
                let c = calls[rng.below(calls.len())];
                self.announce(s, c).expect("listed as legal");
                continue;
            }
            let mut d = rng.digits();
            if self.trick.len == 0 && self.mandatory.is_none() {
                self.random_trick(&mut d, nth_bit);
                continue;
            }
            // a trick begun before, or one where another seat owes an
            // announcement: one card, from a draw of its own
            if d.below(32) == 0 {
                self.random_call(s, self.plays, d.below(6));
            }
            let legal = self.playable(s).distinct();
            let card = Card::from_bit(nth_bit(legal, d.below(legal.len())));
            self.apply_play(s, card);
        }
    }

    /// [`random_cards`](Self::random_cards)'s trick from its lead, from
    /// the digits of its draw.
    #[inline(always)]
    fn random_trick(&mut self, d: &mut Digits, nth_bit: &impl Fn(Cards, usize) -> u64) {
        // whether each seat calls before its card (one time in 32): four
        // digits in base 32 of one, the first card's highest. Most tricks
        // have no zero digit, and their cards are not asked
        let calls = d.below(1 << 20) as u32;
        if calls.wrapping_sub(0x8421) & !calls & 0x8_4210 == 0 {
            self.random_trick_cards::<false>(d, calls, nth_bit);
        } else {
            self.random_trick_cards::<true>(d, calls, nth_bit);
        }
    }

    /// [`random_trick`](Self::random_trick)'s four cards; `CALLS`: whether
    /// some digit of `calls` is zero (a seat calls before its card).
    #[inline(always)]
    fn random_trick_cards<const CALLS: bool>(
        &mut self,
        d: &mut Digits,
        calls: u32,
        nth_bit: &impl Fn(Cards, usize) -> u64,
    ) {
        let leader = self.to_act;
        let plays = self.plays;
        let mut cards = [Card::CQ; 4];
        let mut follow = Cards::EMPTY;
        for (i, slot) in cards.iter_mut().enumerate() {
            let s = leader.plus(i);
            if CALLS && (calls >> (15 - 5 * i)) & 31 == 0 {
                self.random_call(s, plays + i as u8, d.below(6));
            }
            let hand = self.hands[s.index()];
            let suited = hand.with_mask(follow);
            let legal = if suited.is_empty() { hand } else { suited }.distinct();
            let bit = nth_bit(legal, d.below(legal.len()));
            let card = Card::from_bit(bit);
            self.hands[s.index()].remove_bit(bit);
            if i == 0 {
                follow = self.order.mask(self.order.class(card));
            }
            *slot = card;
        }
        self.plays = plays + 4;
        self.end_trick(cards);
    }

    /// A random play's random call (one card in 32; `which` of
    /// [`Call::ALL`]), kept where legal. The seat is made the one to act
    /// and the cards played counted, as they are when it calls before its
    /// card (where calls are allowed only on one's turn).
    #[cold]
    #[inline(never)]
    fn random_call(&mut self, s: Seat, plays: u8, which: usize) {
        self.to_act = s;
        self.plays = plays;
        let call = Call::ALL[which];
        let allowed = self.announce_allowed(s, call);
        debug_assert_eq!(allowed, self.check_announce(s, call).ok(), "{call:?} of {s:?}");
        if let Some(late) = allowed {
            self.announce_checked(s, call, late);
        }
    }

    /// [`random_playout`](Self::random_playout) compiled for CPUs with
    /// BMI2 (its random card by [`Cards::nth_bmi2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn random_playout_bmi2(&mut self, rng: &mut Rng) {
        self.playout_with(rng, |legal, n| legal.nth_bmi2(n));
    }

    /// The body of [`random_playout`](Self::random_playout), with the way
    /// to pick the `n`-th legal card.
    #[inline(always)]
    fn playout_with(&mut self, rng: &mut Rng, nth: impl Fn(Cards, usize) -> Option<Card>) {
        while matches!(self.phase, Phase::Playing | Phase::SowChoice) {
            let s = self.to_act;
            if self.phase == Phase::SowChoice {
                let solos = self.legal_bids(s);
                self.choose_sow(s, solos[rng.below(solos.len())]).expect("listed as legal");
                continue;
            }
            if self.mandatory == Some(s) {
                match self.legal_calls(s).first() {
                    Some(c) => self.announce(s, *c).expect("listed as legal"),
                    None => {
                        self.mandatory = None;
                        self.piglets_owed = false;
                    }
                }
                continue;
            }
            let legal = self.playable(s).distinct();
            let card = nth(legal, rng.below(legal.len())).expect("a hand in play is never empty");
            // taken from the playable cards: no second check
            self.play_legal(s, card);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Bid;
    use crate::game::Action;
    use crate::rules::Rules;

    /// Where the CPU has BMI2, `random_playout` plays the same cards as
    /// the portable loop from the same states.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn random_playout_is_the_same_with_bmi2() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        for seed in 0..2000u64 {
            let rules = Rules { nines: seed % 2 == 0, ..Rules::default() };
            let mut g = Game::deal(rules, Seat::ALL[(seed % 4) as usize], seed);
            for s in g.forehand().clockwise() {
                g.act(s, Action::Bid(Bid::Healthy)).unwrap();
            }
            let (mut portable, mut fast) = (g.clone(), g);
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            portable.playout_with(&mut a, |legal, n| legal.nth(n));
            // SAFETY: BMI2 is there, checked above
            unsafe { fast.random_playout_bmi2(&mut b) };
            assert_eq!(portable, fast, "seed {seed}");
            assert_eq!(portable.phase(), Phase::Finished);
        }
    }
}
