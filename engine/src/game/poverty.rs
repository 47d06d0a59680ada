//! Poverty: the pauper's cards put down, offered, taken and returned; and
//! the Schwarze Sau a declined poverty turns into under `black_sow`.

use super::{Game, NORMAL_TRUMPS};
use crate::card::Card;
use crate::cards::Cards;
use crate::contract::{Bid, Contract, Order, Reservation};
use crate::error::{ActionError, Attempt};
use crate::phase::{Phase, RedealReason};
use crate::seat::Seat;

impl Game {
    /// How many cards the pauper puts down: three, or all trumps when a
    /// house rule allows more than three.
    pub fn poverty_count(&self) -> usize {
        let p = self.poverty.map_or(self.to_act, |p| p.pauper);
        self.dealt[p.index()].with_mask(self.poverty_trumps()).len().max(3)
    }

    pub(super) fn give(&mut self, seat: Seat, cards: Cards) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::PovertyGive, Attempt::PutDownPoverty)?;
        self.expect_turn(seat)?;
        let hand = self.hands[seat.index()];
        let k = self.poverty_count();
        if cards.len() != k {
            return Err(ActionError::ExchangeCount { seat, expected: k, got: cards.len() });
        }
        let rest = hand.checked_sub(cards).ok_or_else(|| not_held(seat, hand, cards))?;
        if let Some(t) = rest.with_mask(self.poverty_trumps()).iter().next() {
            return Err(ActionError::MustGiveTrumps { seat, keeps: t });
        }
        self.hands[seat.index()] = rest;
        let pov = self.poverty.as_mut().expect("poverty phase");
        pov.given = cards;
        self.phase = Phase::PovertyOffer;
        self.to_act = seat.next();
        Ok(())
    }

    pub(super) fn answer(&mut self, seat: Seat, accept: bool) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::PovertyOffer, Attempt::AnswerPoverty)?;
        self.expect_turn(seat)?;
        let pov = self.poverty.as_mut().expect("poverty phase");
        if accept {
            pov.acceptor = Some(seat);
            let given = pov.given;
            let h = &mut self.hands[seat.index()];
            *h = h.checked_add(given).expect("at most two copies in one pack");
            self.phase = Phase::PovertyReturn;
        } else {
            pov.declined += 1;
            if seat.next() == pov.pauper && self.rules.black_sow {
                self.start_black_sow();
            } else if seat.next() == pov.pauper {
                self.phase = Phase::Redeal(RedealReason::PovertyDeclined);
            } else {
                self.to_act = seat.next();
            }
        }
        Ok(())
    }

    /// Schwarze Sau: a poverty nobody took is played. The pauper takes the
    /// cards put down back; everyone plays for themselves in the normal
    /// order until the second queen of spades falls.
    fn start_black_sow(&mut self) {
        let pov = self.poverty.expect("poverty phase");
        let h = &mut self.hands[pov.pauper.index()];
        *h = h.checked_add(pov.given).expect("the pauper's own cards");
        self.contract = Contract::BlackSow(None);
        self.declarer = None;
        self.re = 0;
        self.clarified = false;
        self.start_play(self.forehand());
    }

    /// Schwarze Sau: the taker of the second queen of spades names the
    /// solo (a free one the rules allow); it is played from the next
    /// trick on, which the taker leads.
    pub(super) fn choose_sow(&mut self, seat: Seat, bid: Bid) -> Result<(), ActionError> {
        self.expect_turn(seat)?;
        let Bid::Reserve(Reservation::Solo { kind, duty: false }) = bid else {
            return Err(ActionError::MustChooseSolo { seat });
        };
        if !self.rules.solos.contains(kind) {
            return Err(ActionError::SoloNotAllowed { seat, kind });
        }
        self.contract = Contract::BlackSow(Some(kind));
        self.clarified = true;
        self.shift = self.n_tricks - 1;
        self.sow_at = self.plays;
        self.order = Order::for_deal(self.contract, &self.rules, &self.hands);
        self.phase = Phase::Playing;
        Ok(())
    }

    pub(super) fn give_back(&mut self, seat: Seat, cards: Cards) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::PovertyReturn, Attempt::ReturnPoverty)?;
        self.expect_turn(seat)?;
        let k = self.poverty_count();
        if cards.len() != k {
            return Err(ActionError::ExchangeCount { seat, expected: k, got: cards.len() });
        }
        let hand = self.hands[seat.index()];
        let rest = hand.checked_sub(cards).ok_or_else(|| not_held(seat, hand, cards))?;
        if let Some(t) = self.returned_trump_too_many(hand, cards) {
            return Err(ActionError::MustReturnOtherCards { seat, trump: t });
        }
        self.hands[seat.index()] = rest;
        let pov = self.poverty.as_mut().expect("poverty phase");
        pov.returned = cards;
        let pauper = pov.pauper;
        let ph = &mut self.hands[pauper.index()];
        *ph = ph.checked_add(cards).expect("at most two copies in one pack");
        self.re = (1 << pauper.index()) | (1 << seat.index());
        self.start_play(self.forehand());
        Ok(())
    }

    /// The trumps of a normal game under the rules (what poverty and
    /// throwing in count): without the hearts tens when `dullen` is off.
    pub(super) fn poverty_trumps(&self) -> Cards {
        if self.rules.dullen { NORMAL_TRUMPS } else { NORMAL_TRUMPS.without_mask(Cards::both(Card::H10)) }
    }

    /// Under `poverty_return_trumps` off: a trump given back while other
    /// cards could have been (only as many trumps as the hand lacks other
    /// cards may go back).
    pub(super) fn returned_trump_too_many(&self, hand: Cards, cards: Cards) -> Option<Card> {
        if self.rules.poverty_return_trumps {
            return None;
        }
        let others = hand.without_mask(self.poverty_trumps()).len();
        let allowed = cards.len().saturating_sub(others);
        let trumps = cards.with_mask(self.poverty_trumps());
        if trumps.len() > allowed { trumps.iter().next() } else { None }
    }
}

fn not_held(seat: Seat, hand: Cards, cards: Cards) -> ActionError {
    let mut h = hand;
    for c in cards.iter() {
        if !h.remove(c) {
            return ActionError::NotInHand { seat, card: c };
        }
    }
    unreachable!("called only when some card is missing")
}
