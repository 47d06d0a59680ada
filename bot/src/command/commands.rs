//! The command set, declared once: every command's words, arguments,
//! admin mark and slash placement, the command it builds and how that
//! command is written back, with the kind the authority table knows it by.
//! English and German words are accepted.

use doko_engine::{Bid, Card, Reservation};
use doko_players::BotLevel;

use super::args::{ArgType as T, arg, opt};
use super::error::ParseError;
use super::model::{Command, Period, PovertyStep, RulesCmd, ServerCmd, StepKind};
use super::spec::{Args, CommandSpec, Group, Tree, declare_commands};

declare_commands! {
    groups: [
        Group { name: "rules", words: &["regeln"], default: "show", public_default: true },
        Group { name: "server", words: &["community"], default: "show", public_default: false },
        Group { name: "web", words: &["seite"], default: "show", public_default: false },
    ];
    display(f);

    "join" => Join = "join" {
        words: ["beitreten", "mitspielen", "setzen"],
        build: |_| Ok(Command::Join),
        show: [Command::Join => f.write_str("join")],
    }
    "leave" => Leave = "leave" {
        words: ["verlassen", "aufstehen"],
        build: |_| Ok(Command::Leave),
        show: [Command::Leave => f.write_str("leave")],
    }
    "start" => Start = "start" {
        words: ["starten", "los", "geben"],
        build: |_| Ok(Command::Start),
        show: [Command::Start => f.write_str("start")],
    }
    "addbot" => AddBot = "addbot" {
        words: ["bot", "computer"],
        args: [opt("level", T::Level)],
        build: |mut a| Ok(Command::AddBot(a.optional(0).unwrap_or(BotLevel::Basic))),
        show: [Command::AddBot(l) => write!(f, "addbot {l}")],
    }
    "away" => Away = "away" {
        words: ["weg"],
        build: |_| Ok(Command::Away),
        show: [Command::Away => f.write_str("away")],
    }
    "back" => Back = "back" {
        words: ["wiederda", "übernehmen", "uebernehmen"],
        build: |_| Ok(Command::Back),
        show: [Command::Back => f.write_str("back")],
    }
    "hand" => Hand = "hand" {
        words: ["blatt", "karten"],
        build: |_| Ok(Command::Hand),
        show: [Command::Hand => f.write_str("hand")],
    }
    "hint" => Hint = "hint" {
        words: ["tipp"],
        build: |_| Ok(Command::Hint),
        show: [Command::Hint => f.write_str("hint")],
    }
    "bid" => Bid = "bid" (moves) {
        words: ["vorbehalt", "melden"],
        // `poverty` and `armut` alone are the bid; with a step they are
        // the exchange (see `poverty`)
        shortcuts: [
            "healthy", "gesund", "wedding", "hochzeit", "poverty", "armut", "solo", "throw-in", "schmeissen",
            "schmeißen",
        ],
        args: [arg("what", T::Bid)],
        build: |mut a| Ok(Command::Bid(a.required(0)?)),
        show: [
            Command::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => write!(f, "bid solo {}", kind.key()),
            Command::Bid(b) => write!(f, "bid {}", b.name()),
        ],
    }
    "play" => Play = "play" (moves) {
        words: ["spiele", "spielen", "lege", "p"],
        args: [arg("card", T::Card)],
        build: |mut a| Ok(Command::Play(a.required(0)?)),
        show: [Command::Play(c) => write!(f, "play {c}")],
    }
    "announce" => Announce = "announce" (moves) {
        words: ["ansage", "ansagen"],
        shortcuts: ["re", "kontra", "contra", "keine", "no", "no90", "no60", "no30", "schwarz"],
        args: [arg("what", T::Call)],
        build: |mut a| Ok(Command::Announce(a.required(0)?)),
        show: [Command::Announce(c) => write!(f, "announce {c}")],
    }
    "say" => Announce {
        words: ["sage", "sagen"],
        shortcuts: ["piglets", "schweinchen", "superpiglets", "superschweinchen", "hyperschweinchen"],
        args: [arg("what", T::Declaration)],
        build: |mut a| Ok(Command::Say(a.required(0)?)),
        show: [Command::Say(d) => write!(f, "say {d}")],
    }
    "genscher" => Play {
        args: [arg("partner", T::Player)],
        build: |mut a| Ok(Command::Genscher(a.required(0)?)),
        show: [Command::Genscher(p) => write!(f, "genscher {p}")],
    }
    "poverty" => Poverty = "poverty" (moves) {
        words: ["armut", "armut-tausch"],
        shortcuts: ["give", "gib", "accept", "annehmen", "decline", "ablehnen", "return", "zurück", "zurueck"],
        args: [arg("step", T::Step), opt("cards", T::Cards)],
        build: poverty,
        show: [
            Command::Poverty(PovertyStep::Give(c)) => write!(f, "give {}", cards(c)),
            Command::Poverty(PovertyStep::Accept) => f.write_str("accept"),
            Command::Poverty(PovertyStep::Decline) => f.write_str("decline"),
            Command::Poverty(PovertyStep::Return(c)) => write!(f, "return {}", cards(c)),
        ],
    }
    "table" => Table = "table" {
        words: ["tisch"],
        build: |_| Ok(Command::Table),
        show: [Command::Table => f.write_str("table")],
    }
    "watch" => Watch = "watch" {
        words: ["zuschauen", "kiebitzen"],
        build: |_| Ok(Command::Watch),
        show: [Command::Watch => f.write_str("watch")],
    }
    "unwatch" => Unwatch = "unwatch" {
        words: ["wegschauen"],
        build: |_| Ok(Command::Unwatch),
        show: [Command::Unwatch => f.write_str("unwatch")],
    }
    "kiebitz" => Kiebitz = "kiebitz" {
        args: [opt("spectator", T::Player)],
        build: |mut a| Ok(Command::Kiebitz(a.optional(0))),
        show: [
            Command::Kiebitz(None) => f.write_str("kiebitz"),
            Command::Kiebitz(Some(who)) => write!(f, "kiebitz {who}"),
        ],
    }
    "lasttrick" => LastTrick = "lasttrick" {
        words: ["letzterstich", "stich"],
        build: |_| Ok(Command::LastTrick),
        show: [Command::LastTrick => f.write_str("lasttrick")],
    }
    "score" => Score = "score" {
        words: ["punkte", "stand"],
        build: |_| Ok(Command::Score),
        show: [Command::Score => f.write_str("score")],
    }
    "record" => Record = "record" {
        words: ["protokoll"],
        args: [opt("number", T::Number)],
        build: |mut a| Ok(Command::Record(a.optional(0))),
        show: [
            Command::Record(None) => f.write_str("record"),
            Command::Record(Some(n)) => write!(f, "record {n}"),
        ],
    }
    "stats" => Stats = "stats" {
        words: ["statistik"],
        tree: Lists,
        build: |_| Ok(Command::Stats),
        show: [Command::Stats => f.write_str("stats")],
    }
    "list" => List = "list" {
        words: ["liste", "listen"],
        args: [opt("number", T::Number)],
        tree: Lists,
        build: |mut a| Ok(Command::List(a.optional(0))),
        show: [
            Command::List(None) => f.write_str("list"),
            Command::List(Some(n)) => write!(f, "list {n}"),
        ],
    }
    "leaderboard" => Leaderboard = "leaderboard" {
        words: ["rangliste", "bestenliste", "top"],
        args: [opt("period", T::Period)],
        tree: Lists,
        build: |mut a| Ok(Command::Leaderboard(a.optional(0).unwrap_or(Period::All))),
        show: [Command::Leaderboard(p) => write!(f, "leaderboard {}", p.name())],
    }
    "me" => Me = "me" {
        words: ["ich", "meine"],
        tree: Lists,
        build: |_| Ok(Command::Me),
        show: [Command::Me => f.write_str("me")],
    }
    "analysis" => Analysis = "analysis" {
        words: ["analyse"],
        args: [opt("number", T::Number)],
        tree: Lists,
        build: |mut a| Ok(Command::Analysis(a.optional(0))),
        show: [
            Command::Analysis(None) => f.write_str("analysis"),
            Command::Analysis(Some(n)) => write!(f, "analysis {n}"),
        ],
    }
    "show" in "rules" => RulesShow = "rules" {
        words: ["zeigen"],
        build: |_| Ok(Command::Rules(RulesCmd::Show)),
        show: [Command::Rules(RulesCmd::Show) => f.write_str("rules")],
    }
    "set" in "rules" => RulesChange = "rules set/preset/reset" {
        words: ["setzen"],
        args: [arg("key", T::RuleKey), arg("value", T::RuleValue)],
        admin: true,
        build: |mut a| Ok(Command::Rules(RulesCmd::Set { key: a.required(0)?, value: a.required(1)? })),
        show: [Command::Rules(RulesCmd::Set { key, value }) => write!(f, "rules set {key} {value}")],
    }
    "preset" in "rules" => RulesChange {
        words: ["vorlage"],
        args: [arg("name", T::Preset)],
        admin: true,
        build: |mut a| Ok(Command::Rules(RulesCmd::Preset(a.required(0)?))),
        show: [Command::Rules(RulesCmd::Preset(p)) => write!(f, "rules preset {p}")],
    }
    "reset" in "rules" => RulesChange {
        words: ["zurücksetzen"],
        admin: true,
        build: |_| Ok(Command::Rules(RulesCmd::Reset)),
        show: [Command::Rules(RulesCmd::Reset) => f.write_str("rules reset")],
    }
    // the rule set in force, as `rules show` (and written as that)
    "show" in "server" => RulesShow {
        slash: "server-show",
        words: ["zeigen"],
        build: |_| Ok(Command::Rules(RulesCmd::Show)),
        show: [],
    }
    // the server's defaults: also only for the admins of the server the
    // channel belongs to (the table checks it)
    "set" in "server" => Server = "server set/preset/lang/policy/reset" {
        slash: "server-set",
        words: ["setzen"],
        args: [arg("key", T::RuleKey), arg("value", T::RuleValue)],
        admin: true,
        build: |mut a| Ok(Command::Server(ServerCmd::Set { key: a.required(0)?, value: a.required(1)? })),
        show: [Command::Server(ServerCmd::Set { key, value }) => write!(f, "server set {key} {value}")],
    }
    "preset" in "server" => Server {
        slash: "server-preset",
        words: ["vorlage"],
        args: [arg("name", T::Preset)],
        admin: true,
        build: |mut a| Ok(Command::Server(ServerCmd::Preset(a.required(0)?))),
        show: [Command::Server(ServerCmd::Preset(p)) => write!(f, "server preset {p}")],
    }
    "lang" in "server" => Server {
        slash: "server-lang",
        words: ["sprache"],
        args: [arg("language", T::Lang)],
        admin: true,
        build: |mut a| Ok(Command::Server(ServerCmd::Lang(a.required(0)?))),
        show: [Command::Server(ServerCmd::Lang(l)) => write!(f, "server lang {}", l.code())],
    }
    "policy" in "server" => Server {
        slash: "server-policy",
        words: ["zeitlimit"],
        args: [arg("policy", T::Policy)],
        admin: true,
        build: |mut a| Ok(Command::Server(ServerCmd::Policy(a.required(0)?))),
        show: [Command::Server(ServerCmd::Policy(p)) => write!(f, "server policy {}", p.name())],
    }
    "reset" in "server" => Server {
        slash: "server-reset",
        words: ["zurücksetzen"],
        admin: true,
        build: |_| Ok(Command::Server(ServerCmd::Reset)),
        show: [Command::Server(ServerCmd::Reset) => f.write_str("server reset")],
    }
    "lang" => Lang = "lang" {
        words: ["sprache", "language"],
        args: [arg("language", T::Lang)],
        admin: true,
        build: |mut a| Ok(Command::Lang(a.required(0)?)),
        show: [Command::Lang(l) => write!(f, "lang {}", l.code())],
    }
    "dm" => Dm = "dm" {
        words: ["direkt"],
        args: [arg("on", T::OnOff)],
        build: |mut a| Ok(Command::Dm(a.required(0)?)),
        show: [Command::Dm(on) => f.write_str(if *on { "dm on" } else { "dm off" })],
    }
    "cards" => Cards = "cards" {
        words: ["kartenstil"],
        args: [arg("style", T::Style)],
        admin: true,
        build: |mut a| Ok(Command::Cards(a.required(0)?)),
        show: [Command::Cards(c) => write!(f, "cards {}", c.name())],
    }
    "policy" => Policy = "policy" {
        words: ["zeitlimit"],
        args: [arg("policy", T::Policy)],
        admin: true,
        build: |mut a| Ok(Command::Policy(a.required(0)?)),
        show: [Command::Policy(p) => write!(f, "policy {}", p.name())],
    }
    "removebot" => RemoveBot = "removebot" {
        words: ["botweg", "bot-entfernen"],
        args: [opt("name", T::Player)],
        build: |mut a| Ok(Command::RemoveBot(a.optional(0))),
        show: [
            Command::RemoveBot(None) => f.write_str("removebot"),
            Command::RemoveBot(Some(n)) => write!(f, "removebot {n}"),
        ],
    }
    "kick" => Kick = "kick" {
        words: ["rauswerfen", "entfernen"],
        args: [arg("player", T::Player)],
        admin: true,
        build: |mut a| Ok(Command::Kick(a.required(0)?)),
        show: [Command::Kick(who) => write!(f, "kick {who}")],
    }
    "abort" => Abort = "abort" {
        words: ["abbrechen"],
        admin: true,
        build: |_| Ok(Command::Abort),
        show: [Command::Abort => f.write_str("abort")],
    }
    // `/doko-rules reset` is the house rules' reset
    "reset" => Reset = "reset" {
        slash: "end-session",
        words: ["neustart", "beenden"],
        admin: true,
        build: |_| Ok(Command::Reset),
        show: [Command::Reset => f.write_str("reset")],
    }
    "link" => Link = "link/unlink" {
        words: ["verknüpfen", "verbinden"],
        args: [opt("code", T::Code)],
        admin: true,
        build: |mut a| Ok(Command::Link(a.optional(0))),
        show: [
            Command::Link(None) => f.write_str("link"),
            Command::Link(Some(c)) => write!(f, "link {c}"),
        ],
    }
    "unlink" => Link {
        words: ["trennen"],
        admin: true,
        build: |_| Ok(Command::Unlink),
        show: [Command::Unlink => f.write_str("unlink")],
    }
    // the table's web pages: their address for everyone, a new one (the
    // old addresses dead) for the admins
    "show" in "web" => Web = "web" {
        slash: "web",
        words: ["zeigen"],
        tree: Lists,
        build: |_| Ok(Command::Web { renew: false }),
        show: [Command::Web { renew: false } => f.write_str("web")],
    }
    "renew" in "web" => WebRenew = "web renew" {
        slash: "web-renew",
        words: ["erneuern"],
        admin: true,
        build: |_| Ok(Command::Web { renew: true }),
        show: [Command::Web { renew: true } => f.write_str("web renew")],
    }
    "pause" => Pause = "pause" {
        words: ["anhalten"],
        admin: true,
        build: |_| Ok(Command::Pause),
        show: [Command::Pause => f.write_str("pause")],
    }
    "resume" => Resume = "resume" {
        words: ["weiter", "fortsetzen"],
        admin: true,
        build: |_| Ok(Command::Resume),
        show: [Command::Resume => f.write_str("resume")],
    }
    "help" => Help = "help" {
        words: ["hilfe", "?"],
        args: [opt("command", T::Topic)],
        build: |mut a| Ok(Command::Help(a.optional(0))),
        show: [
            Command::Help(None) => f.write_str("help"),
            Command::Help(Some(t)) => write!(f, "help {t}"),
        ],
    }
}

/// A poverty step from its step and cards: giving and returning take
/// cards, accepting and declining none.
fn poverty(mut a: Args) -> Result<Command, ParseError> {
    let command = a.command();
    let cards: Option<Vec<Card>> = a.optional(1);
    let step: StepKind = a.required(0)?;
    match (step, cards) {
        (StepKind::Give, Some(c)) => Ok(Command::Poverty(PovertyStep::Give(c))),
        (StepKind::Return, Some(c)) => Ok(Command::Poverty(PovertyStep::Return(c))),
        (StepKind::Give | StepKind::Return, None) => Err(ParseError::Missing { command, what: T::Cards }),
        (StepKind::Accept, None) => Ok(Command::Poverty(PovertyStep::Accept)),
        (StepKind::Decline, None) => Ok(Command::Poverty(PovertyStep::Decline)),
        (StepKind::Accept | StepKind::Decline, Some(c)) => {
            Err(ParseError::TooMany { command, extra: c.first().map(|c| c.to_string()).unwrap_or_default() })
        }
    }
}

/// Cards as written in a command (`C9 H10`).
fn cards(c: &[Card]) -> String {
    c.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use doko_engine::{Bid, Call, Card, Declaration, Reservation, SoloKind, WeddingRule};
    use doko_players::BotLevel;

    use crate::command::*;
    use crate::lang::Lang;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn canonical_text_reads_back() {
        let solo = |kind| Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false }));
        let mut all = vec![
            Command::Join,
            Command::Leave,
            Command::Start,
            Command::AddBot(BotLevel::Strong),
            Command::Away,
            Command::Back,
            Command::Hand,
            Command::Bid(Bid::Healthy),
            Command::Bid(Bid::Reserve(Reservation::Wedding(None))),
            Command::Bid(Bid::Reserve(Reservation::Wedding(Some(WeddingRule::FirstTrump)))),
            Command::Bid(Bid::Reserve(Reservation::Poverty)),
            Command::Bid(Bid::Reserve(Reservation::ThrowIn)),
            Command::Say(Declaration::HalfChicken),
            Command::Say(Declaration::Piglets),
            Command::Say(Declaration::Superpiglets),
            Command::Genscher("ben".into()),
            Command::Poverty(PovertyStep::Give(vec![card("C9"), card("H10")])),
            Command::Poverty(PovertyStep::Accept),
            Command::Poverty(PovertyStep::Decline),
            Command::Poverty(PovertyStep::Return(vec![card("DA")])),
            Command::Table,
            Command::LastTrick,
            Command::Watch,
            Command::Unwatch,
            Command::Kiebitz(None),
            Command::Kiebitz(Some("eva".into())),
            Command::Score,
            Command::Record(None),
            Command::Record(Some(7)),
            Command::Analysis(None),
            Command::Analysis(Some(4)),
            Command::Stats,
            Command::List(None),
            Command::List(Some(3)),
            Command::Leaderboard(Period::All),
            Command::Leaderboard(Period::Month),
            Command::Me,
            Command::Server(ServerCmd::Set { key: "bock".into(), value: "on".into() }),
            Command::Server(ServerCmd::Preset("sharp".into())),
            Command::Server(ServerCmd::Lang(Lang::De)),
            Command::Server(ServerCmd::Policy(TimeoutPolicy::Abort)),
            Command::Server(ServerCmd::Reset),
            Command::Rules(RulesCmd::Show),
            Command::Rules(RulesCmd::Set { key: "dulle".into(), value: "second-wins".into() }),
            Command::Rules(RulesCmd::Preset("casual".into())),
            Command::Rules(RulesCmd::Reset),
            Command::Lang(Lang::De),
            Command::Policy(TimeoutPolicy::Abort),
            Command::Policy(TimeoutPolicy::StandIn),
            Command::Cards(CardStyle::Images),
            Command::Cards(CardStyle::Text),
            Command::Dm(true),
            Command::Dm(false),
            Command::Help(None),
            Command::Help(Some("play".into())),
            Command::RemoveBot(None),
            Command::RemoveBot(Some("bot 2".into())),
            Command::Kick("<@123456>".into()),
            Command::Kick("@anna:example.org".into()),
            Command::Kick("anna maria".into()),
            Command::Abort,
            Command::Reset,
            Command::Link(None),
            Command::Link(Some("k7m2p9xq".into())),
            Command::Web { renew: false },
            Command::Web { renew: true },
            Command::Unlink,
            Command::Pause,
            Command::Resume,
        ];
        all.extend(SoloKind::ALL.into_iter().map(solo));
        all.extend(Call::ALL.into_iter().map(Command::Announce));
        all.extend(["CQ", "H10", "D9", "SA"].map(|c| Command::Play(card(c))));
        for c in all {
            assert_eq!(parse(&c.to_string()), Ok(c.clone()), "{c}");
        }
    }
}
