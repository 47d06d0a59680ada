//! Why something was refused: a rule the engine enforced, a command the
//! table refused, a command that could not be read.

use doko_engine::{Phase, SessionError};

use super::table::phase_key;
use crate::command::{ParseError, short};
use crate::lang::Lang;
use crate::table::{CommandError, Table};
use crate::tr;

/// A rule the engine enforced, told with names and card symbols.
pub fn rule_error(t: &Table, e: &doko_engine::ActionError) -> String {
    let phase = t.current_game().map(|g| g.phase());
    rule_text(t.lang(), &|s| t.name_of(s).into_owned(), phase, e)
}

/// A rule the engine enforced, with seats named by `n` and the deal in
/// `phase`.
pub(super) fn rule_text(
    l: Lang,
    n: &dyn Fn(doko_engine::Seat) -> String,
    phase: Option<Phase>,
    e: &doko_engine::ActionError,
) -> String {
    use doko_engine::ActionError as A;
    match e {
        A::DealOver => tr!(l, "rule-deal-over"),
        A::WrongPhase { .. } => {
            tr!(l, "rule-wrong-phase", phase = phase.map_or("over", phase_key))
        }
        A::NotYourTurn { turn, .. } => tr!(l, "rule-not-your-turn", name = n(*turn)),
        A::NotInHand { card, .. } => tr!(l, "rule-not-in-hand", card = l.card(*card)),
        A::MustFollow { class, holds, .. } => {
            let class = match class {
                doko_engine::Class::Trump => "trump",
                doko_engine::Class::Clubs => "clubs",
                doko_engine::Class::Spades => "spades",
                doko_engine::Class::Hearts => "hearts",
                doko_engine::Class::Diamonds => "diamonds",
            };
            tr!(l, "rule-must-follow", class = class, card = l.card(*holds))
        }
        A::MustAnnounce { points, .. } => tr!(l, "rule-must-announce", points = points),
        A::WeddingNeedsQueens { .. } => tr!(l, "rule-wedding-needs-queens"),
        A::RuleOff { what, .. } => {
            use doko_engine::SwitchedOff as Off;
            let what = match what {
                Off::Poverty => "poverty",
                Off::ThrowIn => "throw-in",
                Off::CompulsorySolo => "duty-solo",
                Off::WeddingTrick => "other",
            };
            tr!(l, "rule-off", what = what)
        }
        A::TooManyTrumps { trumps, max, .. } => tr!(l, "rule-too-many-trumps", trumps = trumps, max = max),
        A::CannotThrowIn { nines, kings, trumps, points, .. } => {
            tr!(l, "rule-cannot-throw-in", nines = nines, kings = kings, trumps = trumps, points = points)
        }
        A::SoloNotAllowed { kind, .. } => {
            tr!(l, "rule-solo-not-allowed", solo = l.solo(*kind).into_owned())
        }
        A::ExchangeCount { expected, got, .. } => tr!(l, "rule-exchange-count", expected = expected, got = got),
        A::MustGiveTrumps { keeps, .. } => tr!(l, "rule-must-give-trumps", card = l.card(*keeps)),
        A::MustReturnOtherCards { trump, .. } => tr!(l, "rule-must-return-other-cards", card = l.card(*trump)),
        A::BeforeClarification { .. } => tr!(l, "rule-before-clarification"),
        A::BeforeSowSolo { .. } => tr!(l, "rule-before-sow-solo"),
        A::MustChooseSolo { .. } => tr!(l, "rule-must-choose-solo"),
        A::WrongParty { party, call, .. } => {
            tr!(l, "rule-wrong-party", party = l.party(*party), call = l.call(*call))
        }
        A::AlreadyAnnounced { party, call, .. } => {
            tr!(l, "rule-already-announced", party = l.party(*party), call = l.call(*call))
        }
        A::TooLate { call, cards, needed, .. } => {
            tr!(l, "rule-too-late", call = l.call(*call), cards = cards, needed = needed)
        }
        A::AfterLateReply { call, .. } => tr!(l, "rule-after-late-reply", call = l.call(*call)),
        A::MustAnnouncePiglets { .. } => tr!(l, "rule-must-announce-piglets"),
        A::CannotGenscher { .. } => tr!(l, "rule-cannot-genscher"),
        A::SayNotInRules { what } => tr!(l, "rule-say-not-in-rules", what = what.name()),
        A::CannotSay { what, .. } => tr!(l, "rule-cannot-say", what = what.name()),
        A::AlreadySaid { what } => tr!(l, "rule-already-said", what = what.name()),
    }
}

/// A house-rule error (an unknown key or value), in the language.
pub fn rules_error(l: Lang, e: &doko_engine::RuleError) -> String {
    use doko_engine::RuleError as R;
    match e {
        // (a long key is no rule: the refusal stays short, without the list)
        R::UnknownKey { key } if key.chars().count() > crate::command::ECHO_CHARS => {
            tr!(l, "rules-unknown-long-key", key = short(key))
        }
        R::UnknownKey { key } => {
            let keys: Vec<&str> = doko_engine::KEYS.iter().map(|k| k.name).collect();
            tr!(l, "rules-unknown-key", key = short(key), keys = keys.join(", "))
        }
        R::BadValue { key, value, allowed } => {
            tr!(l, "rules-bad-value", key = *key, value = short(value), allowed = *allowed)
        }
        R::UnknownPreset(name) => {
            let presets: Vec<&str> = doko_engine::Preset::ALL.iter().map(|p| p.name()).collect();
            tr!(l, "rules-unknown-preset", name = short(name), presets = presets.join(", "))
        }
    }
}

/// A refused command.
pub fn error(l: Lang, e: &CommandError) -> String {
    match e {
        CommandError::NotSeated => tr!(l, "error-not-seated"),
        CommandError::AlreadySeated => tr!(l, "error-already-seated"),
        CommandError::TableFull => tr!(l, "error-table-full"),
        CommandError::NotEnoughPlayers(n) => tr!(l, "error-not-enough-players", n = n),
        CommandError::DealRunning => tr!(l, "error-deal-running"),
        CommandError::NoDeal => tr!(l, "error-no-deal"),
        CommandError::SittingOut => tr!(l, "error-sitting-out"),
        CommandError::NotAdmin => tr!(l, "error-not-admin"),
        CommandError::NotAtTable => tr!(l, "error-not-at-table"),
        CommandError::InChannel => tr!(l, "error-in-channel"),
        CommandError::SessionOpen => tr!(l, "error-session-open"),
        CommandError::NoSession => tr!(l, "error-no-session"),
        // (what was typed, cut short: never a long echo)
        CommandError::NoSuchPlayer(who) => tr!(l, "error-no-such-player", name = short(who)),
        CommandError::NoComputer => tr!(l, "error-no-computer"),
        CommandError::ComputerPlays => tr!(l, "error-computer-plays"),
        CommandError::NotAway => tr!(l, "error-not-away"),
        CommandError::Rule(r) => rule_text(l, &|s| format!("{s}"), None, r),
        CommandError::Rules(r) => rules_error(l, r),
        CommandError::Session(SessionError::MustBidSolo { .. }) => tr!(l, "error-forced", why = "you-must-bid-solo"),
        CommandError::Session(SessionError::OnlyForcedBids { .. }) => {
            tr!(l, "error-forced", why = "only-forced-bids")
        }
        CommandError::Session(SessionError::Over) => tr!(l, "error-session-over"),
        CommandError::Session(e) => tr!(l, "error-damaged", why = e.to_string()),
        CommandError::NoRecord(n) => tr!(l, "error-no-record", n = n),
        CommandError::NoAnalysis(n) => tr!(l, "error-no-analysis", n = n, kept = crate::table::PLAYED_KEPT),
        CommandError::NoCoach => tr!(l, "error-no-coach"),
        CommandError::NoList(n) => tr!(l, "error-no-list", n = n),
        CommandError::NoServer => tr!(l, "error-no-server"),
        CommandError::NotServerAdmin => tr!(l, "error-not-server-admin"),
        CommandError::AlreadyWatching => tr!(l, "error-already-watching"),
        CommandError::NotWatching => tr!(l, "error-not-watching"),
        CommandError::TooManySpectators => tr!(l, "error-too-many-spectators", n = crate::table::MAX_SPECTATORS),
        CommandError::NoSuchSpectator(who) => tr!(l, "error-no-such-spectator", name = short(who)),
        CommandError::AmbiguousSpectator(who) => tr!(l, "error-ambiguous-spectator", name = short(who)),
        CommandError::KiebitzTaken(who) => tr!(l, "error-kiebitz-taken", name = who.as_str()),
        CommandError::NoKiebitz => tr!(l, "error-no-kiebitz"),
        CommandError::NoLinkCode => tr!(l, "error-no-link-code"),
        CommandError::LinkSamePlatform => tr!(l, "error-link-same-platform"),
        CommandError::LinkedElsewhere => tr!(l, "error-linked-elsewhere"),
        CommandError::NotLinked => tr!(l, "error-not-linked"),
        CommandError::Damaged(why) => tr!(l, "error-damaged", why = why),
    }
}

/// A parse error.
pub fn parse_error(l: Lang, e: &ParseError) -> String {
    e.message(l)
}
