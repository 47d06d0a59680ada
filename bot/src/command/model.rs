//! What a command is once read: the [`Command`] a user (or an adapter on
//! their behalf) gives, and the small value types its arguments carry. The
//! lowest part of the command set: reading, writing and offering commands
//! all build on it.

use doko_engine::{Bid, Call, Card, Declaration, Reservation};
use doko_players::BotLevel;
use serde::{Deserialize, Serialize};

use crate::lang::Lang;

/// What happens to a player whose time runs out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TimeoutPolicy {
    /// A computer takes the seat until the player says back (the default).
    #[default]
    StandIn,
    /// The deal is aborted (not scored); the same dealer deals again on start.
    Abort,
}

impl TimeoutPolicy {
    /// The policy's name.
    pub const fn name(self) -> &'static str {
        match self {
            TimeoutPolicy::StandIn => "standin",
            TimeoutPolicy::Abort => "abort",
        }
    }
}

/// How a table shows cards: as text only, or as pictures with the text
/// beside them (for screen readers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CardStyle {
    /// Card symbols in text (`♣Q ♠10`): the default.
    #[default]
    Text,
    /// Pictures of the cards, with the text.
    Images,
}

impl CardStyle {
    /// The style's name.
    pub const fn name(self) -> &'static str {
        match self {
            CardStyle::Text => "text",
            CardStyle::Images => "images",
        }
    }
}

/// Which games a leaderboard counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Period {
    /// Every game kept (the default).
    #[default]
    All,
    /// The games of the current calendar month (UTC).
    Month,
}

impl Period {
    /// The period's name.
    pub const fn name(self) -> &'static str {
        match self {
            Period::All => "all",
            Period::Month => "month",
        }
    }
}

/// A `server` subcommand: the defaults of every channel of a Discord
/// server or Matrix space (its admins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerCmd {
    /// Set one house-rule key for the server.
    Set {
        /// The key.
        key: String,
        /// The value as typed.
        value: String,
    },
    /// A preset for the server.
    Preset(String),
    /// The server's language.
    Lang(Lang),
    /// The server's timeout policy.
    Policy(TimeoutPolicy),
    /// Drop every server default.
    Reset,
}

/// What a poverty step says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PovertyStep {
    /// The pauper puts these cards down.
    Give(Vec<Card>),
    /// Take the poverty.
    Accept,
    /// Pass.
    Decline,
    /// The acceptor returns these cards.
    Return(Vec<Card>),
}

/// The kind of a poverty step, before its cards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Put cards down.
    Give,
    /// Take the poverty.
    Accept,
    /// Pass.
    Decline,
    /// Return cards.
    Return,
}

impl StepKind {
    /// Every step.
    pub const ALL: [StepKind; 4] = [StepKind::Give, StepKind::Accept, StepKind::Decline, StepKind::Return];

    /// The step's name.
    pub const fn name(self) -> &'static str {
        match self {
            StepKind::Give => "give",
            StepKind::Accept => "accept",
            StepKind::Decline => "decline",
            StepKind::Return => "return",
        }
    }
}

/// A `rules` subcommand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesCmd {
    /// Show the rule set in force.
    Show,
    /// Set one key (admins).
    Set {
        /// The key.
        key: String,
        /// The value as typed.
        value: String,
    },
    /// Switch to a preset (admins).
    Preset(String),
    /// Back to the DDV preset (admins).
    Reset,
}

/// A command a user (or an adapter on their behalf) gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Take a seat.
    Join,
    /// Leave the table.
    Leave,
    /// Deal (the table must be full).
    Start,
    /// Seat a computer player.
    AddBot(BotLevel),
    /// Hand one's seat to a computer player for now.
    Away,
    /// Take one's seat back from the computer player.
    Back,
    /// Show one's hand (privately).
    Hand,
    /// Ask the coach (at a table with the `coach` rule on, on one's own
    /// turn): what the expert would do now and why, privately.
    Hint,
    /// Answer the reservation query.
    Bid(Bid),
    /// Play a card.
    Play(Card),
    /// Announce for one's own party.
    Announce(Call),
    /// Say what the house rules let one say (half a chicken, piglets).
    Say(Declaration),
    /// Genscher (house rule): play the first king of diamonds and name a
    /// new partner (a mention or the name shown at the table).
    Genscher(String),
    /// A poverty step.
    Poverty(PovertyStep),
    /// Show the table.
    Table,
    /// Watch the table without a seat.
    Watch,
    /// Stop watching.
    Unwatch,
    /// Let a spectator see one's hand (the Kiebitz custom; a mention or
    /// the name they watch under), or, without a name, end it.
    Kiebitz(Option<String>),
    /// Show the last trick of the deal being played (who played what).
    LastTrick,
    /// Show the score sheet.
    Score,
    /// Fetch a finished deal's record (the latest, or number N from 1).
    Record(Option<u32>),
    /// Show per-player statistics of this channel.
    Stats,
    /// Show the current list (session) with its number and sheet, or list
    /// N of this channel's kept lists.
    List(Option<u32>),
    /// The ranking of the server's players across its channels.
    Leaderboard(Period),
    /// One's own figures in the server and one's latest lists.
    Me,
    /// Which cards one played in a finished deal (the latest one played,
    /// or record N) cost points, as a strong player sees it from one's own
    /// view at the time; privately.
    Analysis(Option<u32>),
    /// Set defaults for every channel of the server (server admins).
    Server(ServerCmd),
    /// House rules.
    Rules(RulesCmd),
    /// Set the channel's language (admins).
    Lang(Lang),
    /// What happens when a player's time (`turn_timeout`) runs out (admins).
    Policy(TimeoutPolicy),
    /// How the table shows cards: text, or pictures with the text (admins).
    Cards(CardStyle),
    /// Share this table with a channel on another platform (admins):
    /// without a code, a one-time code for the other channel's admins;
    /// with one, this channel shares the table the code was made at.
    Link(Option<String>),
    /// Stop sharing the table with the linked channel (admins).
    Unlink,
    /// The address of the table's web pages (where the host serves them);
    /// `renew`: a new one, every old address dead (admins).
    Web {
        /// A new address.
        renew: bool,
    },
    /// Also send one's hand as a direct message (where the platform has them).
    Dm(bool),
    /// Help, on one command or all.
    Help(Option<String>),
    /// Remove a computer player (by name; the last one seated if none).
    RemoveBot(Option<String>),
    /// Remove a person from the table (admins): a computer plays their seat
    /// to the end of the deal being played, then the seat is freed. The
    /// person as typed: a mention or the name shown at the table.
    Kick(String),
    /// Void the deal being played, recorded as aborted (admins); the
    /// session goes on with `start`.
    Abort,
    /// End the session (admins); its score sheet is kept.
    Reset,
    /// Stop the turn clock (admins).
    Pause,
    /// Start the turn clock again (admins).
    Resume,
}

impl Command {
    /// The command a person would give for an engine action (a solo's
    /// compulsory flag is the table's business, so it is dropped).
    pub fn from_action(a: doko_engine::Action) -> Command {
        use doko_engine::Action;
        match a {
            Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => {
                Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false }))
            }
            Action::Bid(b) => Command::Bid(b),
            Action::Play(c) => Command::Play(c),
            Action::Announce(c) => Command::Announce(c),
            Action::Say(d) => Command::Say(d),
            // the table names the partner by seat
            Action::Genscher(p) => Command::Genscher(format!("seat {}", p.index() + 1)),
            Action::Give(c) => Command::Poverty(PovertyStep::Give(c.iter().collect())),
            Action::Answer(true) => Command::Poverty(PovertyStep::Accept),
            Action::Answer(false) => Command::Poverty(PovertyStep::Decline),
            Action::Return(c) => Command::Poverty(PovertyStep::Return(c.iter().collect())),
        }
    }
}
