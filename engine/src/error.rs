//! Why an action was refused.

use crate::announce::{Call, Declaration};
use crate::card::Card;
use crate::contract::Class;
use crate::phase::Phase;
use crate::seat::{Party, Seat};
use crate::solo::SoloKind;

/// An action the rules do not allow. The message names the seat and the
/// rule; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The deal is finished or void.
    #[error("the deal is over")]
    DealOver,
    /// The action belongs to another phase.
    #[error("seat {seat} cannot {what} now: {}", .now.describe())]
    WrongPhase {
        /// Who tried.
        seat: Seat,
        /// What they tried.
        what: Attempt,
        /// What is going on instead.
        now: Phase,
    },
    /// Another seat is to act.
    #[error("seat {seat} is not on turn (seat {turn} is)")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Who is on turn.
        turn: Seat,
    },
    /// The card is not in the hand.
    #[error("seat {seat} does not hold {card}")]
    NotInHand {
        /// Who tried.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The led suit must be followed.
    #[error("seat {seat} must follow {class} (holds {holds})")]
    MustFollow {
        /// Who tried.
        seat: Seat,
        /// The led suit.
        class: Class,
        /// A card of it in the hand.
        holds: Card,
    },
    /// A mandatory announcement is owed before playing on.
    #[error("seat {seat} must announce first: {points} points in the first trick make an announcement compulsory")]
    MustAnnounce {
        /// Who owes it.
        seat: Seat,
        /// Points in the trick.
        points: u32,
    },
    /// A wedding needs both queens of clubs.
    #[error("seat {seat} cannot declare a wedding without both queens of clubs")]
    WeddingNeedsQueens {
        /// Who tried.
        seat: Seat,
    },
    /// A house rule is off.
    #[error("seat {seat}: {what} is not allowed under these rules")]
    RuleOff {
        /// Who tried.
        seat: Seat,
        /// What is off.
        what: SwitchedOff,
    },
    /// Too many trumps for poverty.
    #[error("seat {seat} holds {trumps} trumps; poverty allows at most {max}")]
    TooManyTrumps {
        /// Who tried.
        seat: Seat,
        /// Trumps held.
        trumps: usize,
        /// The limit.
        max: u8,
    },
    /// Not enough nines or kings (or too many trumps or points) to throw in.
    #[error("seat {seat} cannot throw in with {nines} nines, {kings} kings, {trumps} trumps and {points} points")]
    CannotThrowIn {
        /// Who tried.
        seat: Seat,
        /// Nines held.
        nines: usize,
        /// Kings held.
        kings: usize,
        /// Trumps (of a normal game) held.
        trumps: usize,
        /// Card points held.
        points: usize,
    },
    /// A solo kind not enabled.
    #[error("seat {seat}: solo-{} is not allowed under these rules", .kind.key())]
    SoloNotAllowed {
        /// Who tried.
        seat: Seat,
        /// The kind.
        kind: SoloKind,
    },
    /// Wrong number of cards in a poverty exchange.
    #[error("seat {seat} must pass exactly {expected} cards, not {got}")]
    ExchangeCount {
        /// Who tried.
        seat: Seat,
        /// How many are needed.
        expected: usize,
        /// How many were given.
        got: usize,
    },
    /// The pauper must put down all trumps.
    #[error("seat {seat} must put down all trumps (keeps {keeps})")]
    MustGiveTrumps {
        /// The pauper.
        seat: Seat,
        /// A trump kept.
        keeps: Card,
    },
    /// Under `poverty_return_trumps` off: a trump given back while other
    /// cards could have been.
    #[error("seat {seat} must give back other cards than trumps ({trump})")]
    MustReturnOtherCards {
        /// The acceptor.
        seat: Seat,
        /// A trump given back.
        trump: Card,
    },
    /// Piglets force an announcement (`piglets_announce`) before playing on.
    #[error("seat {seat} must announce first: piglets make an announcement compulsory")]
    MustAnnouncePiglets {
        /// Who owes it.
        seat: Seat,
    },
    /// The house rules do not have this declaration.
    #[error("{what} is not in this table's rules")]
    SayNotInRules {
        /// The declaration.
        what: Declaration,
    },
    /// The seat's hand does not allow the declaration now (or piglets
    /// must be said before superpiglets).
    #[error("seat {seat} cannot say {what} now")]
    CannotSay {
        /// Who tried.
        seat: Seat,
        /// The declaration.
        what: Declaration,
    },
    /// A Genscher the rules or the situation do not allow.
    #[error(
        "seat {seat} cannot play a Genscher now: it takes the rule, a normal game (or a clarified wedding), both kings of diamonds with one playable now, and another player as partner"
    )]
    CannotGenscher {
        /// Who tried.
        seat: Seat,
    },
    /// Said already in this deal.
    #[error("{what} has been said already")]
    AlreadySaid {
        /// The declaration.
        what: Declaration,
    },
    /// Schwarze Sau: no announcement before the solo is chosen.
    #[error("seat {seat} cannot announce in a Schwarze Sau before its solo is chosen")]
    BeforeSowSolo {
        /// Who tried.
        seat: Seat,
    },
    /// Schwarze Sau: the taker of the second queen of spades must choose
    /// one of the allowed solos (not healthy, not another reservation).
    #[error("seat {seat} took the second queen of spades and must choose a solo the rules allow")]
    MustChooseSolo {
        /// The taker.
        seat: Seat,
    },
    /// No announcement before a wedding is clarified.
    #[error("seat {seat} cannot announce before the wedding is clarified")]
    BeforeClarification {
        /// Who tried.
        seat: Seat,
    },
    /// Re by a Kontra player or Kontra by a Re player.
    #[error("seat {seat} is {party}: it cannot announce {call}; an announcement is always for one's own party")]
    WrongParty {
        /// Who tried.
        seat: Seat,
        /// Their party.
        party: Party,
        /// What they said.
        call: Call,
    },
    /// The party has already announced that much.
    #[error("seat {seat}: {party} has already announced {call} or more")]
    AlreadyAnnounced {
        /// Who tried.
        seat: Seat,
        /// Their party.
        party: Party,
        /// What they said.
        call: Call,
    },
    /// Too few cards left for the call (or an implied lower one).
    #[error("seat {seat} holds {cards} cards: {call} needs at least {needed}")]
    TooLate {
        /// Who tried.
        seat: Seat,
        /// The level that is too late.
        call: Call,
        /// Cards held.
        cards: usize,
        /// Cards needed.
        needed: usize,
    },
    /// After a late reply the party may not announce further.
    #[error("seat {seat}: {party}'s {call} is not allowed after a late reply")]
    AfterLateReply {
        /// Who tried.
        seat: Seat,
        /// Their party.
        party: Party,
        /// The refused level.
        call: Call,
    },
}

/// What a seat tried in the wrong phase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Attempt {
    /// Answer in the reservation query.
    Bid,
    /// Put down the poverty cards.
    PutDownPoverty,
    /// Take or pass the poverty.
    AnswerPoverty,
    /// Return cards to the pauper.
    ReturnPoverty,
    /// Play a card.
    Play,
    /// Play a Genscher.
    Genscher,
    /// Announce.
    Announce,
    /// Say a declaration (half a chicken, piglets).
    Say,
}

impl std::fmt::Display for Attempt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Attempt::Bid => "bid",
            Attempt::PutDownPoverty => "put down poverty cards",
            Attempt::AnswerPoverty => "answer the poverty",
            Attempt::ReturnPoverty => "return poverty cards",
            Attempt::Play => "play a card",
            Attempt::Genscher => "play a Genscher",
            Attempt::Announce => "announce",
            Attempt::Say => "say that",
        })
    }
}

/// What a house rule switched off, so a seat may not do it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SwitchedOff {
    /// Choosing which trick finds the wedding's partner.
    WeddingTrick,
    /// Declaring poverty.
    Poverty,
    /// Throwing in a hand.
    ThrowIn,
    /// Playing a compulsory solo as such.
    CompulsorySolo,
}

impl std::fmt::Display for SwitchedOff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SwitchedOff::WeddingTrick => "choosing the wedding trick",
            SwitchedOff::Poverty => "poverty",
            SwitchedOff::ThrowIn => "throwing in",
            SwitchedOff::CompulsorySolo => "compulsory solos",
        })
    }
}
