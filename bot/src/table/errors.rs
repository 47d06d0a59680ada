//! Why a command was refused.

use doko_engine::{ActionError, RuleError, SessionError};

/// Why a command was refused: data, rendered for people by `render`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Not seated at this table.
    #[error("you are not seated at this table")]
    NotSeated,
    /// Already seated.
    #[error("you are already seated")]
    AlreadySeated,
    /// All seats taken.
    #[error("the table is full")]
    TableFull,
    /// Fewer than four seated.
    #[error("{0} of 4 seats taken; join or addbot first")]
    NotEnoughPlayers(usize),
    /// A deal is running.
    #[error("a deal is running")]
    DealRunning,
    /// No deal is running.
    #[error("no deal is running; start one")]
    NoDeal,
    /// The player sits out this deal (five at the table).
    #[error("you sit out this deal (you deal)")]
    SittingOut,
    /// Only admins.
    #[error("only the channel's admins may do that")]
    NotAdmin,
    /// Only people seated at the table and admins.
    #[error("only players seated at this table and the channel's admins may do that")]
    NotAtTable,
    /// Not from a direct message.
    #[error("do that in the table's channel")]
    InChannel,
    /// A session is in progress with other players.
    #[error("a session is in progress; its players keep their seats until it ends")]
    SessionOpen,
    /// No session is in progress.
    #[error("no session is in progress")]
    NoSession,
    /// Nobody at the table by that name or mention.
    #[error("nobody at this table is called {0}")]
    NoSuchPlayer(String),
    /// No computer player (by that name) at the table.
    #[error("no such computer player at this table")]
    NoComputer,
    /// A computer plays this seat.
    #[error("a computer plays your seat; say back to take it over")]
    ComputerPlays,
    /// Not away.
    #[error("you are not away")]
    NotAway,
    /// The engine refused a game action.
    #[error("{0}")]
    Rule(ActionError),
    /// A house-rule error.
    #[error("{0}")]
    Rules(#[from] RuleError),
    /// The session refused (a forced solo, the session is over, ...).
    #[error("{0}")]
    Session(SessionError),
    /// `watch` by someone who watches already.
    #[error("you are watching already")]
    AlreadyWatching,
    /// `unwatch` by someone who does not watch.
    #[error("you are not watching")]
    NotWatching,
    /// The table has as many spectators as it keeps.
    #[error("too many spectators")]
    TooManySpectators,
    /// No spectator of that name or mention.
    #[error("no spectator {0}")]
    NoSuchSpectator(String),
    /// More than one spectator has that name: a mention is needed.
    #[error("more than one spectator is called {0}")]
    AmbiguousSpectator(String),
    /// The spectator sees another player's hand already.
    #[error("{0} sees another player's hand")]
    KiebitzTaken(String),
    /// `kiebitz` without a name, and nobody sees one's hand.
    #[error("nobody sees your hand")]
    NoKiebitz,
    /// No such record.
    #[error("no record number {0}")]
    NoRecord(u32),
    /// No deal of the person's among those `analysis` can examine (the
    /// record asked for, or 0: any).
    #[error("no deal of yours to analyse (number {0})")]
    NoAnalysis(u32),
    /// `hint` at a deal whose rules have no coach (`coach off`).
    #[error("no coach at this table")]
    NoCoach,
    /// No such list kept at this table (0: none yet).
    #[error("no list number {0}")]
    NoList(u32),
    /// A server's command in a channel of no server (or a direct message).
    #[error("this channel belongs to no server or space")]
    NoServer,
    /// Only the server's admins.
    #[error("only the server's admins may do that")]
    NotServerAdmin,
    /// No such link code waiting (wrong, used or expired).
    #[error("no such link code")]
    NoLinkCode,
    /// A link to a channel of the table's own platform, or of a platform
    /// already linked.
    #[error("one channel per platform")]
    LinkSamePlatform,
    /// This channel shares another channel's table (or another shares
    /// this one's): unlink first.
    #[error("linked elsewhere")]
    LinkedElsewhere,
    /// `unlink` at a table that shares nothing.
    #[error("not linked")]
    NotLinked,
    /// The stored deal could not be rebuilt or played on (a bug or a
    /// damaged store).
    #[error("the stored deal is damaged: {0}")]
    Damaged(String),
}

impl From<ActionError> for CommandError {
    fn from(e: ActionError) -> CommandError {
        CommandError::Rule(e)
    }
}

impl From<SessionError> for CommandError {
    fn from(e: SessionError) -> CommandError {
        match e {
            SessionError::Action(a) => CommandError::Rule(a),
            SessionError::DealRunning => CommandError::DealRunning,
            SessionError::NoDeal => CommandError::NoDeal,
            e => CommandError::Session(e),
        }
    }
}
