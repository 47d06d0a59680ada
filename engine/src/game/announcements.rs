//! Announcements: until when each level may be announced, by whom, and
//! the replies allowed late.

use super::Game;
use crate::announce::{Announcement, Call, Level};
use crate::contract::Contract;
use crate::error::{ActionError, Attempt};
use crate::phase::Phase;
use crate::rules::ReDeadline;
use crate::seat::Seat;

impl Game {
    /// The fewest cards a seat must hold to announce a level by itself
    /// (not as a reply).
    pub fn deadline(&self, level: Level) -> usize {
        // house rule: Re/Kontra only before one's first card
        let first_card = level == Level::Win && self.rules.re_deadline == ReDeadline::BeforeFirstCard;
        (self.rules.hand_size() - 1 + usize::from(first_card)).saturating_sub(level as usize + self.shift as usize)
    }

    /// Whether a seat may make a call now; `Ok(late)` where `late` tells
    /// that the Re/Kontra it includes is only allowed as a reply.
    pub fn check_announce(&self, seat: Seat, call: Call) -> Result<bool, ActionError> {
        match self.phase {
            Phase::Playing => {}
            Phase::Finished | Phase::Redeal(_) => return Err(ActionError::DealOver),
            now => return Err(ActionError::WrongPhase { seat, what: Attempt::Announce, now }),
        }
        if !self.clarified {
            return Err(if self.contract == Contract::Wedding {
                ActionError::BeforeClarification { seat }
            } else {
                ActionError::BeforeSowSolo { seat }
            });
        }
        if self.rules.announce_on_turn && self.to_act != seat {
            return Err(ActionError::NotYourTurn { seat, turn: self.to_act });
        }
        let party = self.party(seat);
        if let Some(named) = call.party()
            && named != party
        {
            return Err(ActionError::WrongParty { seat, party, call });
        }
        let target = call.level();
        let current = self.level[party.index()];
        if current.is_some_and(|l| l >= target) {
            return Err(ActionError::AlreadyAnnounced { seat, party, call });
        }
        let cards = self.hands[seat.index()].len();
        let start = current.map_or(0, |l| l as usize + 1);
        let mut late = self.late[party.index()];
        for li in start..=target as usize {
            let l = Level::from_index(li);
            let needed = self.deadline(l);
            if l == Level::Win {
                // a compulsory announcement is always in time
                if cards >= needed || self.mandatory == Some(seat) {
                    continue;
                }
                let reply = self.level[party.other().index()].map(|ol| self.deadline(ol).saturating_sub(1));
                match reply {
                    Some(r) if cards >= r => late = true,
                    _ => {
                        return Err(ActionError::TooLate {
                            seat,
                            call: Call::of(l, party),
                            cards,
                            needed: reply.map_or(needed, |r| r.min(needed)),
                        });
                    }
                }
            } else if late {
                return Err(ActionError::AfterLateReply { seat, party, call: Call::of(l, party) });
            } else if cards < needed {
                return Err(ActionError::TooLate { seat, call: Call::of(l, party), cards, needed });
            }
        }
        Ok(late)
    }

    /// Whether a seat may make a call now, as
    /// [`check_announce`](Self::check_announce) decides (`Some(late)` for
    /// its `Ok(late)`), without its order of refusals: each condition is
    /// found and all are and-ed, with no branch between them. Random
    /// games' calls are legal or not at random, and each early refusal of
    /// `check_announce` is a branch the CPU cannot foresee.
    ///
    /// Of the levels from the party's next one up to the call's, Re or
    /// Kontra (where among them) must be in time, or a reply in time for
    /// it (which makes the call late); every higher level must not follow
    /// a late reply and must be in time, and the lowest of them has the
    /// latest deadline of all (a deadline is one card earlier per level).
    #[inline(always)]
    pub(crate) fn announce_allowed(&self, seat: Seat, call: Call) -> Option<bool> {
        let party = self.party(seat);
        let (pi, oi) = (party.index(), party.other().index());
        let target = call.level() as usize;
        let start = self.level[pi].map_or(0, |l| l as usize + 1);
        let cards = self.hands[seat.index()].len();
        let with_win = start == 0;
        let in_time = (cards >= self.deadline(Level::Win)) | (self.mandatory == Some(seat));
        let other = self.level[oi];
        let reply = other.is_some() & (cards >= self.deadline(other.unwrap_or(Level::Win)).saturating_sub(1));
        let late = self.late[pi] | (with_win & !in_time);
        let lowest = start.max(1);
        let higher_ok = (target < lowest) | (!late & (cards >= self.deadline(Level::from_index(lowest.min(4)))));
        let ok = (self.phase == Phase::Playing)
            & self.clarified
            & (!self.rules.announce_on_turn | (self.to_act == seat))
            & call.party().is_none_or(|named| named == party)
            & (start <= target)
            & (!with_win | in_time | reply)
            & higher_ok;
        ok.then_some(late)
    }

    /// Announces for the seat's own party.
    pub fn announce(&mut self, seat: Seat, call: Call) -> Result<(), ActionError> {
        let late = self.check_announce(seat, call)?;
        self.announce_checked(seat, call, late);
        Ok(())
    }

    /// [`announce`](Self::announce) of a call found legal (`late` as
    /// [`check_announce`](Self::check_announce) gives it).
    #[inline(always)]
    pub(super) fn announce_checked(&mut self, seat: Seat, call: Call, late: bool) {
        let party = self.party(seat);
        self.level[party.index()] = Some(call.level());
        self.late[party.index()] = late;
        let a = Announcement {
            seat,
            party,
            level: call.level(),
            cards_in_hand: self.hands[seat.index()].len() as u8,
            after_plays: self.plays,
        };
        self.anns[self.n_anns as usize] = a;
        self.n_anns += 1;
        if self.mandatory.is_some_and(|m| self.party(m) == party) {
            self.mandatory = None;
            self.piglets_owed = false;
        }
    }

    /// The calls a seat may make now, lowest first.
    pub fn legal_calls(&self, seat: Seat) -> Vec<Call> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        let p = self.party(seat);
        Level::ALL.into_iter().map(|l| Call::of(l, p)).filter(|c| self.check_announce(seat, *c).is_ok()).collect()
    }
}
