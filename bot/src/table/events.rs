//! What happened at the table, as data for rendering.

use doko_engine::{
    Action, Bid, Call, Card, Contract, Declaration, Item, Party, RedealReason, Reservation, Seat, SoloKind,
};

/// A poverty step as the table sees it (the cards stay private).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PovertyMove {
    /// The pauper put the cards down.
    Gave,
    /// A player took the poverty.
    Accepted,
    /// A player declined it.
    Declined,
    /// The acceptor returned cards.
    Returned,
}

/// Something that happened, for rendering.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Took a seat.
    Joined(String),
    /// Left.
    Left(String),
    /// The table shows cards this way from now on.
    CardStyle(crate::command::CardStyle),
    /// Started watching.
    Watching(String),
    /// Stopped watching.
    Unwatched(String),
    /// A player lets a spectator see their hand.
    KiebitzStarted {
        /// The player.
        player: String,
        /// The spectator.
        spectator: String,
    },
    /// A player's spectator sees their hand no more.
    KiebitzEnded {
        /// The player.
        player: String,
        /// The spectator.
        spectator: String,
    },
    /// A computer sat down.
    ComputerJoined(String),
    /// A computer took over a seat.
    Away(String),
    /// A player asked the coach (`hint`).
    HintTaken(String),
    /// The coach's advice, for the player who asked only (never shown in
    /// the channel).
    Advice {
        /// Who asked.
        to: crate::ids::UserId,
        /// What the expert would do, and why.
        advice: doko_players::coach::Advice,
    },
    /// A person took their seat back.
    Back(String),
    /// A deal was dealt.
    Dealt {
        /// Deal number from 1.
        number: u32,
        /// The dealer's name.
        dealer: String,
        /// Bock rounds covering it: 0 none, 1 counts double, 2 four times
        /// (Doppelbock), ...
        bock: u8,
        /// A forced solo by this player.
        forced: Option<String>,
    },
    /// A player played a Genscher: the first king of diamonds, naming a
    /// new partner.
    Genscher {
        /// Who.
        name: String,
        /// The partner named.
        partner: String,
    },
    /// A player said a declaration (half a chicken, piglets).
    Said {
        /// Who.
        name: String,
        /// What.
        what: Declaration,
    },
    /// Schwarze Sau: nobody took the poverty, so everyone plays for
    /// themselves until the second queen of spades falls.
    SowStarted,
    /// Schwarze Sau: a player took the second queen of spades and chooses
    /// a solo.
    SowTaken(String),
    /// Schwarze Sau: the solo chosen, played from the next trick on.
    SowSolo {
        /// The soloist.
        name: String,
        /// The solo.
        kind: SoloKind,
    },
    /// A seat answered the reservation query (only healthy or not is public).
    Bid {
        /// Who.
        name: String,
        /// Said "Vorbehalt".
        reserved: bool,
    },
    /// A card was played.
    Played {
        /// Who.
        name: String,
        /// The card.
        card: Card,
    },
    /// A trick was completed.
    TrickWon {
        /// Who took it.
        name: String,
        /// Its points.
        points: u32,
    },
    /// An announcement.
    Announced {
        /// Who.
        name: String,
        /// What.
        call: Call,
    },
    /// A poverty step (public part).
    Poverty {
        /// Who.
        name: String,
        /// What.
        step: PovertyMove,
    },
    /// The deal ended with a score.
    Scored(Box<Summary>),
    /// The deal was void.
    Redeal(RedealReason),
    /// The session ended.
    SessionOver,
    /// Rules changed.
    RulesChanged,
    /// A server admin changed the server's defaults.
    ServerChanged {
        /// Who.
        name: String,
        /// The change as typed (`server set bock on`).
        change: String,
        /// How many of the server's channels took it.
        channels: usize,
    },
    /// The table is no longer shared with these channels (`unlink`); the
    /// people seated from their platforms left with them.
    Unlinked(Vec<crate::ids::ChannelId>),
    /// A person's time is running out.
    Reminder {
        /// Who.
        name: String,
        /// Seconds left.
        left_s: u32,
        /// The turn timeout, in seconds.
        timeout_s: u32,
    },
    /// A person's time ran out; a computer plays their turns in this deal
    /// until they give any command.
    TimedOut {
        /// Who.
        name: String,
        /// The turn timeout, in seconds.
        timeout_s: u32,
    },
    /// A person's time ran out; the deal is aborted (the table's policy).
    Aborted {
        /// Who.
        name: String,
        /// The turn timeout, in seconds.
        timeout_s: u32,
        /// The number of the aborted deal's record.
        record: u32,
    },
    /// An admin aborted the deal.
    AbortedBy {
        /// The admin.
        name: String,
        /// The number of the aborted deal's record.
        record: u32,
    },
    /// An admin removed a person from the table.
    Kicked {
        /// Who was removed.
        name: String,
        /// The admin.
        by: String,
        /// Freed at once (else a computer plays the seat to the deal's end).
        now: bool,
    },
    /// A computer player was removed.
    BotRemoved {
        /// Its name.
        name: String,
        /// Freed at once (else it plays to the deal's end).
        now: bool,
    },
    /// A seat was freed at the end of the deal (kicked or removed).
    Freed(String),
    /// An admin ended the session (its sheet is kept).
    SessionReset(String),
    /// An admin stopped the turn clock.
    ClockPaused(String),
    /// An admin started the turn clock again.
    ClockResumed(String),
    /// Language changed.
    LangChanged,
    /// A deal ended and nobody plays in person (all away, or computers
    /// only): the next deal waits for a person to say `start`.
    Waiting,
}

/// The result of a scored deal, for the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Deal number in the session.
    pub number: u32,
    /// Record number in the channel.
    pub record: u32,
    /// The contract.
    pub contract: Contract,
    /// The declarer's name.
    pub declarer: Option<String>,
    /// Re's names.
    pub re: Vec<String>,
    /// Kontra's names.
    pub kontra: Vec<String>,
    /// Card points `[re, kontra]`.
    pub card_points: [u32; 2],
    /// The winner, if any.
    pub winner: Option<Party>,
    /// The game value.
    pub value: i32,
    /// Every item of the value.
    pub items: Vec<Item>,
    /// Points of this deal per session player (name, points).
    pub scores: Vec<(String, i64)>,
    /// Bock rounds that covered it (0 none, 1 double, 2 four times, ...).
    pub bock: u8,
    /// The deal revealed, now that it is over: each player's hand as dealt
    /// (in the deal's card order).
    pub hands: Vec<(String, Vec<Card>)>,
    /// Every trick in order: who led, the cards, who took it, its points.
    pub tricks: Vec<RevealedTrick>,
}

/// A trick of a finished deal, as the table sees it afterwards.
#[derive(Clone, Debug, PartialEq)]
pub struct RevealedTrick {
    /// Who led.
    pub leader: String,
    /// The cards in play order.
    pub cards: Vec<Card>,
    /// Who took it.
    pub winner: String,
    /// Its card points.
    pub points: u32,
}

/// The public event of a game action (`seat_name` names a game seat;
/// `mid_deal`: cards had been played, so a bid is a Schwarze Sau's solo).
pub(super) fn event_for(name: String, action: Action, mid_deal: bool, seat_name: impl FnOnce(Seat) -> String) -> Event {
    match action {
        Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) if mid_deal => Event::SowSolo { name, kind },
        Action::Genscher(p) => Event::Genscher { name, partner: seat_name(p) },
        Action::Bid(b) => Event::Bid { name, reserved: b != Bid::Healthy },
        Action::Play(card) => Event::Played { name, card },
        Action::Announce(call) => Event::Announced { name, call },
        Action::Say(what) => Event::Said { name, what },
        Action::Give(_) => Event::Poverty { name, step: PovertyMove::Gave },
        Action::Answer(true) => Event::Poverty { name, step: PovertyMove::Accepted },
        Action::Answer(false) => Event::Poverty { name, step: PovertyMove::Declined },
        Action::Return(_) => Event::Poverty { name, step: PovertyMove::Returned },
    }
}
