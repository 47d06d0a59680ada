//! Who may do what at a table: the one authority table, [`AUTHORITY`],
//! every kind of command against every kind of actor. The table's
//! commands ask [`check`] before anything else; the table of
//! `docs/commands.md` is [`markdown`] (a test keeps the two equal).
//!
//! A person can be several kinds at once (a seated admin, the player to
//! act who writes from a direct message): a command is allowed when their
//! seat's kind or, for an admin, the admin column allows it, and a command
//! sent from a direct message must also be allowed from there. What the
//! table says here is authority only; the state of the table (a deal
//! running, a full table, an illegal card) is checked after it.

pub use crate::command::CommandKind;

impl CommandKind {
    /// Every kind, in the order of [`AUTHORITY`].
    pub fn all() -> impl Iterator<Item = CommandKind> {
        AUTHORITY.iter().map(|(k, _)| *k)
    }
}

/// The kind of someone who gives a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActorKind {
    /// In the channel, without a seat at its table (and no admin).
    Stranger,
    /// Seated at the table, not the one to act now.
    Seated,
    /// Seated, and the one who must act now.
    ToAct,
    /// An admin of the channel (as the platform says), seated or not.
    Admin,
    /// Writes from a direct message (the bot routes it to the table where
    /// they sit): only what concerns their own seat and what everyone may
    /// read; what changes the table for everyone is done in the channel,
    /// where everyone sees who did it.
    Direct,
    /// A computer player: it never gives commands; it only makes its
    /// seat's moves, on its turn.
    Computer,
}

impl ActorKind {
    /// Every kind, in the order of [`AUTHORITY`]'s columns.
    pub const ALL: [ActorKind; 6] = [
        ActorKind::Stranger,
        ActorKind::Seated,
        ActorKind::ToAct,
        ActorKind::Admin,
        ActorKind::Direct,
        ActorKind::Computer,
    ];

    /// The column's heading.
    pub const fn name(self) -> &'static str {
        match self {
            ActorKind::Stranger => "stranger in the channel",
            ActorKind::Seated => "seated player",
            ActorKind::ToAct => "player to act",
            ActorKind::Admin => "admin",
            ActorKind::Direct => "direct-message sender",
            ActorKind::Computer => "computer",
        }
    }
}

/// Why the authority table refuses a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Only for people seated at the table.
    NotSeated,
    /// Only for people not seated yet.
    AlreadySeated,
    /// Only for people seated at the table and the channel's admins.
    SeatedOrAdmin,
    /// Only for the channel's admins.
    AdminOnly,
    /// Only on one's own turn (the rules engine checks it and names whose
    /// turn it is).
    NotYourTurn,
    /// Not from a direct message: in the table's channel.
    InChannel,
    /// Computer players only make their own seat's moves.
    ComputersOnlyPlay,
}

impl Refusal {
    /// A short English note for the table of `docs/commands.md`.
    pub const fn note(self) -> &'static str {
        match self {
            Refusal::NotSeated => "not seated",
            Refusal::AlreadySeated => "already seated",
            Refusal::SeatedOrAdmin => "players and admins only",
            Refusal::AdminOnly => "admins only",
            Refusal::NotYourTurn => "not your turn",
            Refusal::InChannel => "in the channel only",
            Refusal::ComputersOnlyPlay => "-",
        }
    }
}

/// One cell of the authority table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Allowed (the table's state may still refuse it).
    Allowed,
    /// Refused, and why.
    Refused(Refusal),
}

const Y: Access = Access::Allowed;
const NS: Access = Access::Refused(Refusal::NotSeated);
const AS: Access = Access::Refused(Refusal::AlreadySeated);
const SA: Access = Access::Refused(Refusal::SeatedOrAdmin);
const AO: Access = Access::Refused(Refusal::AdminOnly);
const NT: Access = Access::Refused(Refusal::NotYourTurn);
const CH: Access = Access::Refused(Refusal::InChannel);
const CP: Access = Access::Refused(Refusal::ComputersOnlyPlay);

/// Who may do what: every command kind against every actor kind, in the
/// order of [`ActorKind::ALL`].
#[rustfmt::skip]
pub const AUTHORITY: &[(CommandKind, [Access; 6])] = {
    use CommandKind as K;
    &[
        //                  stranger seated to-act admin direct computer
        (K::Join,           [Y,       AS,    AS,    Y,    CH,    CP]),
        (K::Leave,          [NS,      Y,     Y,     NS,   CH,    CP]),
        (K::Start,          [SA,      Y,     Y,     Y,    CH,    CP]),
        (K::AddBot,         [SA,      Y,     Y,     Y,    CH,    CP]),
        (K::RemoveBot,      [SA,      Y,     Y,     Y,    CH,    CP]),
        (K::Away,           [NS,      Y,     Y,     NS,   Y,     CP]),
        (K::Back,           [NS,      Y,     Y,     NS,   Y,     CP]),
        (K::Hand,           [NS,      Y,     Y,     NS,   Y,     CP]),
        (K::Hint,           [NS,      NT,    Y,     NS,   Y,     CP]),
        (K::Dm,             [NS,      Y,     Y,     NS,   Y,     CP]),
        (K::Bid,            [NS,      NT,    Y,     NS,   Y,     Y]),
        (K::Play,           [NS,      NT,    Y,     NS,   Y,     Y]),
        (K::Announce,       [NS,      Y,     Y,     NS,   Y,     Y]),
        (K::Poverty,        [NS,      NT,    Y,     NS,   Y,     Y]),
        (K::Table,          [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Watch,          [Y,       AS,    AS,    Y,    CH,    CP]),
        (K::Unwatch,        [Y,       AS,    AS,    Y,    CH,    CP]),
        (K::Kiebitz,        [NS,      Y,     Y,     NS,   Y,     CP]),
        (K::LastTrick,      [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Score,          [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Record,         [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Stats,          [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::List,           [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Leaderboard,    [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Me,             [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Analysis,       [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::RulesShow,      [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::RulesChange,    [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Lang,           [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Policy,         [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Cards,          [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Server,         [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Link,           [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Web,            [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::WebRenew,       [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Help,           [Y,       Y,     Y,     Y,    Y,     CP]),
        (K::Kick,           [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Abort,          [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Reset,          [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Pause,          [AO,      AO,    AO,    Y,    CH,    CP]),
        (K::Resume,         [AO,      AO,    AO,    Y,    CH,    CP]),
    ]
};

/// The cell of the authority table for a command kind and an actor kind.
pub fn access(cmd: CommandKind, actor: ActorKind) -> Access {
    let (_, row) = AUTHORITY.iter().find(|(k, _)| *k == cmd).expect("every command kind has a row");
    let col = ActorKind::ALL.iter().position(|a| *a == actor).expect("every actor kind has a column");
    row[col]
}

/// Whether a person may give a command: `seat` is their kind at the table
/// ([`ActorKind::Stranger`], [`ActorKind::Seated`] or
/// [`ActorKind::ToAct`]); `admin` and `direct` add the admin and
/// direct-message columns. [`Refusal::NotYourTurn`] passes here: the
/// rules engine refuses the move itself, naming whose turn it is.
pub fn check(cmd: CommandKind, seat: ActorKind, admin: bool, direct: bool) -> Result<(), Refusal> {
    if direct && let Access::Refused(r) = access(cmd, ActorKind::Direct) {
        return Err(r);
    }
    match access(cmd, seat) {
        Access::Allowed => Ok(()),
        _ if admin && access(cmd, ActorKind::Admin) == Access::Allowed => Ok(()),
        Access::Refused(Refusal::NotYourTurn) => Ok(()),
        Access::Refused(r) => Err(r),
    }
}

/// The authority table as Markdown (the copy in `docs/commands.md`).
pub fn markdown() -> String {
    let mut out = String::from("| command |");
    for a in ActorKind::ALL {
        out.push_str(&format!(" {} |", a.name()));
    }
    out.push_str("\n|---|");
    for _ in ActorKind::ALL {
        out.push_str("---|");
    }
    out.push('\n');
    for (k, row) in AUTHORITY {
        out.push_str(&format!("| `{}` |", k.name()));
        for a in row {
            match a {
                Access::Allowed => out.push_str(" yes |"),
                Access::Refused(r) => out.push_str(&format!(" {} |", r.note())),
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_row_and_computers_only_play() {
        let kinds: Vec<CommandKind> = CommandKind::all().collect();
        for (i, k) in kinds.iter().enumerate() {
            assert!(!kinds[i + 1..].contains(k), "{k:?} twice");
            let computer = access(*k, ActorKind::Computer);
            assert_eq!(computer == Access::Allowed, k.is_move(), "{k:?}");
        }
        assert_eq!(kinds.len(), 41);
    }

    #[test]
    fn start_addbot_and_removebot_are_for_players_and_admins() {
        for k in [CommandKind::Start, CommandKind::AddBot, CommandKind::RemoveBot] {
            assert_eq!(check(k, ActorKind::Stranger, false, false), Err(Refusal::SeatedOrAdmin));
            assert_eq!(check(k, ActorKind::Stranger, true, false), Ok(()));
            assert_eq!(check(k, ActorKind::Seated, false, false), Ok(()));
            assert_eq!(check(k, ActorKind::Seated, true, true), Err(Refusal::InChannel));
        }
        assert_eq!(check(CommandKind::Kick, ActorKind::Seated, false, false), Err(Refusal::AdminOnly));
        assert_eq!(check(CommandKind::Kick, ActorKind::Seated, true, false), Ok(()));
        assert_eq!(check(CommandKind::Play, ActorKind::Stranger, true, false), Err(Refusal::NotSeated));
        assert_eq!(check(CommandKind::Play, ActorKind::ToAct, false, true), Ok(()));
    }
}
