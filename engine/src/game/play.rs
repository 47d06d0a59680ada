//! Playing the cards: which may be played, the tricks and who wins them,
//! the clarification of a wedding's or a Schwarze Sau's parties, and what
//! may be said or played alongside (piglets, half a chicken, a Genscher).

use super::{CurrentTrick, Game, Genscher, Trick};
use crate::announce::{Call, Declaration, Level, Said};
use crate::card::Card;
use crate::cards::Cards;
use crate::contract::{Contract, Order};
use crate::error::{ActionError, Attempt};
use crate::phase::Phase;
use crate::rules::{Dulle, PigletsWhen, WeddingRule};
use crate::seat::{Party, Seat};

impl Game {
    /// The cards a seat may play now (one copy each); empty when it is not
    /// that seat's turn to play or it owes an announcement first.
    #[inline]
    pub fn legal_cards(&self, seat: Seat) -> Cards {
        if self.phase != Phase::Playing || seat != self.to_act || self.mandatory == Some(seat) {
            return Cards::EMPTY;
        }
        self.playable(seat).distinct()
    }

    #[inline]
    pub(super) fn playable(&self, seat: Seat) -> Cards {
        let hand = self.hands[seat.index()];
        if self.trick.len == 0 {
            return hand;
        }
        let led = self.order.class(self.trick.cards[0]);
        let follow = hand.with_mask(self.order.mask(led));
        if follow.is_empty() { hand } else { follow }
    }

    /// Plays a card.
    pub fn play(&mut self, seat: Seat, card: Card) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::Playing, Attempt::Play)?;
        self.expect_turn(seat)?;
        if self.mandatory == Some(seat) {
            if self.piglets_owed {
                return Err(ActionError::MustAnnouncePiglets { seat });
            }
            return Err(ActionError::MustAnnounce { seat, points: self.tricks[self.n_tricks as usize - 1].points() });
        }
        let hand = self.hands[seat.index()];
        if !hand.contains(card) {
            return Err(ActionError::NotInHand { seat, card });
        }
        if self.trick.len > 0 {
            let led = self.order.class(self.trick.cards[0]);
            if self.order.class(card) != led {
                let follow = hand.with_mask(self.order.mask(led));
                if !follow.is_empty() {
                    let holds = self.order.sorted(follow)[0];
                    return Err(ActionError::MustFollow { seat, class: led, holds });
                }
            }
        }
        self.apply_play(seat, card);
        Ok(())
    }

    /// Plays a card taken from [`legal_cards`](Self::legal_cards) of the
    /// seat to act, without checking it again: the validated-once path for
    /// simulations (random playouts, search), where the card comes from
    /// the list the checks made. Debug builds still check it. Agrees with
    /// [`play`](Self::play) for every legal card (a property test).
    ///
    /// A card not in that list leaves the game in a state no legal play
    /// reaches: use [`play`](Self::play) for anything typed or received.
    #[inline]
    pub fn play_legal(&mut self, seat: Seat, card: Card) {
        debug_assert!(
            self.phase == Phase::Playing && self.to_act == seat && self.legal_cards(seat).contains(card),
            "play_legal with a card legal_cards did not list"
        );
        self.apply_play(seat, card);
    }

    /// A checked card goes on the trick (and completes it).
    #[inline]
    pub(super) fn apply_play(&mut self, seat: Seat, card: Card) {
        self.hands[seat.index()].remove(card);
        self.plays += 1;
        let len = self.trick.len as usize;
        if len == 3 {
            // the fourth card goes to the trick in a register: read back
            // from the byte just stored, the trick's four bytes would wait
            // for the store to reach the cache
            let t = &self.trick.cards;
            self.finish_trick([t[0], t[1], t[2], card]);
        } else {
            self.trick.cards[len & 3] = card;
            self.trick.len += 1;
            self.to_act = seat.next();
        }
    }

    #[inline(never)]
    fn finish_trick(&mut self, cards: [Card; 4]) {
        self.end_trick(cards);
    }

    /// The body of [`finish_trick`](Self::finish_trick), inlined where
    /// random play ends its tricks.
    #[inline(always)]
    pub(super) fn end_trick(&mut self, cards: [Card; 4]) {
        let t = self.n_tricks as usize;
        let last = t + 1 == self.rules.hand_size();
        let dulle = self.rules.dulle;
        let best = self.order.trick_winner_by(&cards, || match dulle {
            Dulle::FirstWins => false,
            Dulle::SecondWins => true,
            Dulle::SecondWinsExceptLast => !last,
        });
        // house rule: only the first fox played is a piglet
        if self.rules.piglets_first_only && cards.contains(&Card::DA) {
            self.order.demote_piglets(self.contract);
        }
        let leader = self.trick.leader;
        let winner = leader.plus(best);
        let points = cards[0].points() + cards[1].points() + cards[2].points() + cards[3].points();
        let trick = Trick { leader, cards, winner, points };
        self.tricks[t] = trick;
        self.n_tricks += 1;
        self.trick = CurrentTrick { leader: winner, cards: [Card::CQ; 4], len: 0 };
        self.to_act = winner;

        // a Schwarze Sau before its second queen of spades and a wedding
        // before its clarification; neither in most tricks
        if !self.clarified {
            self.clarify(t, cards, winner, last);
        }

        if let Some(th) = self.rules.mandatory_announcement
            && t == if matches!(self.contract, Contract::Wedding) { self.shift as usize + 1 } else { 0 }
            && self.clarified
            && self.mandatory.is_none()
            && trick.points() >= th as u32
            && !last
        {
            let party = self.party(winner);
            match self.level[party.index()] {
                None => self.mandatory = Some(winner),
                // house rule: one level further, where still allowed
                Some(l) if self.rules.mandatory_further && l < Level::Schwarz => {
                    let next = Call::of(Level::from_index(l as usize + 1), party);
                    if self.check_announce(winner, next).is_ok() {
                        self.mandatory = Some(winner);
                    }
                }
                Some(_) => {}
            }
        }

        if last {
            self.phase = Phase::Finished;
            self.mandatory = None;
            self.piglets_owed = false;
        }
    }

    /// The clarification steps of a trick while the parties are not yet
    /// known: a Schwarze Sau's second queen of spades, a wedding's partner.
    #[inline(never)]
    fn clarify(&mut self, t: usize, cards: [Card; 4], winner: Seat, last: bool) {
        if matches!(self.contract, Contract::BlackSow(None)) && cards.contains(&Card::SQ) {
            // the trick with the second queen of spades: its taker is the
            // soloist and chooses the solo (in the last trick, or without
            // allowed solos, plays on alone in the normal order)
            let fallen: usize = self.tricks().iter().map(|t| t.cards.iter().filter(|c| **c == Card::SQ).count()).sum();
            if fallen == 2 {
                self.declarer = Some(winner);
                self.re = 1 << winner.index();
                if last || self.rules.solos.is_empty() {
                    self.clarified = true;
                    self.shift = t as u8;
                } else {
                    self.phase = Phase::SowChoice;
                }
            }
        }

        if !self.clarified && matches!(self.contract, Contract::Wedding) {
            let declarer = self.declarer.expect("wedding has a declarer");
            let led_trump = self.order.is_trump(cards[0]);
            let qualifies = match self.wedding_rule {
                WeddingRule::FirstForeign => true,
                WeddingRule::FirstFail => !led_trump,
                WeddingRule::FirstTrump => led_trump,
            };
            if qualifies && winner != declarer {
                self.re |= 1 << winner.index();
                self.clarified = true;
                self.shift = t as u8;
            } else if t == 2 {
                self.clarified = true;
                self.shift = 2;
            }
        }
    }

    /// Whether a seat may play a Genscher naming `partner` now.
    pub fn check_genscher(&self, seat: Seat, partner: Seat) -> Result<(), ActionError> {
        self.expect_phase(seat, Phase::Playing, Attempt::Genscher)?;
        self.expect_turn(seat)?;
        // a silent solo looks like a normal game: the Genscher is allowed
        // there too (and changes nothing)
        let game = matches!(self.contract, Contract::Normal | Contract::SilentSolo)
            || (self.contract == Contract::Wedding && self.clarified);
        if !self.rules.genscher
            || !game
            || self.genscher.is_some()
            || partner == seat
            || self.hands[seat.index()].count(Card::DK) != 2
            || !self.legal_cards(seat).contains(Card::DK)
        {
            return Err(ActionError::CannotGenscher { seat });
        }
        Ok(())
    }

    /// Plays a Genscher: the parties are formed anew (the holder and the
    /// partner in the holder's party, keeping its name; in a silent solo
    /// nothing changes), then the king of diamonds is played.
    pub(super) fn play_genscher(&mut self, seat: Seat, partner: Seat) -> Result<(), ActionError> {
        self.check_genscher(seat, partner)?;
        let pair = (1u8 << seat.index()) | (1u8 << partner.index());
        if self.contract != Contract::SilentSolo {
            self.re = if self.party(seat) == Party::Re { pair } else { 0b1111 & !pair };
        }
        self.genscher = Some(Genscher { seat, partner, at_play: self.plays });
        self.play(seat, Card::DK)
    }

    /// Whether a seat may say a declaration now.
    pub fn check_say(&self, seat: Seat, what: Declaration) -> Result<(), ActionError> {
        match self.phase {
            Phase::Playing => {}
            Phase::Finished | Phase::Redeal(_) => return Err(ActionError::DealOver),
            now => return Err(ActionError::WrongPhase { seat, what: Attempt::Say, now }),
        }
        let r = &self.rules;
        let in_rules = match what {
            Declaration::HalfChicken => r.half_chicken,
            Declaration::Piglets => r.piglets && r.piglets_when == PigletsWhen::Play,
            Declaration::Superpiglets => r.piglets && r.superpiglets && r.piglets_when == PigletsWhen::Play,
        };
        if !in_rules {
            return Err(ActionError::SayNotInRules { what });
        }
        if self.said().iter().any(|s| s.what == what) {
            return Err(ActionError::AlreadySaid { what });
        }
        let hand = self.hands[seat.index()];
        let can = match what {
            Declaration::HalfChicken => hand.count(Card::D10) == 2,
            Declaration::Piglets => self.order.piglets_possible(r) && hand.count(Card::DA) == 2,
            Declaration::Superpiglets => {
                self.said().iter().any(|s| s.what == Declaration::Piglets)
                    && self.order.power(Card::DA) > 200
                    && hand.count(Order::superpiglet(r)) == 2
            }
        };
        if can { Ok(()) } else { Err(ActionError::CannotSay { seat, what }) }
    }

    /// Says a declaration: piglets and superpiglets count from now on.
    pub fn say(&mut self, seat: Seat, what: Declaration) -> Result<(), ActionError> {
        self.check_say(seat, what)?;
        self.said[self.n_said as usize] = Said { seat, what, after_plays: self.plays, after_anns: self.n_anns };
        self.n_said += 1;
        match what {
            Declaration::HalfChicken => {}
            Declaration::Piglets => {
                self.order.promote_piglets();
                self.owe_for_piglets(seat);
            }
            Declaration::Superpiglets => self.order.promote_superpiglets(&self.rules),
        }
        Ok(())
    }
}
