//! Reading a typed line into a [`Command`] ([`parse`]): which commands its
//! first word can start, and each one's arguments read in turn.

use super::args::ArgType;
use super::commands::{COMMANDS, GROUPS};
use super::error::{ParseError, too_long};
use super::model::Command;
use super::spec::{Args, CommandSpec, Group};
use super::values::{parse_arg, parse_card};

/// The commands a word can start, the ones it names first, then the ones
/// it is a shortcut of; and whether the word is itself the first argument.
pub(super) fn candidates(word: &str) -> Vec<(&'static CommandSpec, bool)> {
    let mut out: Vec<(&'static CommandSpec, bool)> =
        COMMANDS.iter().filter(|c| c.starts_with(word)).map(|c| (c, false)).collect();
    out.extend(COMMANDS.iter().filter(|c| c.shortcuts.contains(&word)).map(|c| (c, true)));
    out
}

/// The group a word names.
fn group_of(word: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == word || g.words.contains(&word))
}

/// The members of a group.
fn members(group: &'static str) -> impl Iterator<Item = &'static CommandSpec> {
    COMMANDS.iter().filter(move |c| c.group == Some(group))
}

/// The command a help topic names (a word of it or of its group).
pub(super) fn find(word: &str) -> Vec<&'static CommandSpec> {
    if let Some(g) = group_of(word) {
        return members(g.name).collect();
    }
    let mut out: Vec<&'static CommandSpec> = candidates(word).into_iter().map(|(c, _)| c).collect();
    out.dedup_by(|a, b| a.name == b.name);
    out.truncate(1);
    out
}

/// Parses one command's arguments from words.
fn parse_with(spec: &'static CommandSpec, words: &[&str]) -> Result<Command, ParseError> {
    let command = spec.command_word();
    let mut values = Vec::new();
    let mut i = 0;
    for a in spec.args {
        if i >= words.len() {
            if a.required {
                return Err(ParseError::Missing { command, what: a.ty });
            }
            values.push(None);
            continue;
        }
        let (v, n) = parse_arg(a.ty, command, &words[i..])?;
        values.push(Some(v));
        i += n;
    }
    if let Some(extra) = words.get(i) {
        return Err(ParseError::TooMany { command, extra: extra.to_string() });
    }
    (spec.build)(Args::new(spec, values))
}

/// Parses a command. Case-insensitive; a leading `/` or `!` is ignored;
/// a bare card (`CQ`, `kreuz dame`) means `play`.
///
/// A word that starts several commands tries them in turn: the commands
/// it names, then those it is a shortcut of, and the first that reads the
/// rest wins. So `poverty` alone is the bid, `poverty accept` the exchange
/// step.
///
/// ```
/// use doko_bot::command::{parse, Command, PovertyStep};
/// use doko_engine::{Bid, Call, Card, Reservation};
/// assert_eq!(parse("play CQ").unwrap(), Command::Play(Card::CQ));
/// assert_eq!(parse("kreuz dame").unwrap(), Command::Play(Card::CQ));
/// assert_eq!(parse("keine 90").unwrap(), Command::Announce(Call::No90));
/// assert_eq!(parse("poverty").unwrap(), Command::Bid(Bid::Reserve(Reservation::Poverty)));
/// assert_eq!(parse("poverty accept").unwrap(), Command::Poverty(PovertyStep::Accept));
/// assert!(parse("spiel xyz").is_err());
/// ```
pub fn parse(text: &str) -> Result<Command, ParseError> {
    if too_long(text) {
        return Err(ParseError::TooLong);
    }
    let text = text.trim().trim_start_matches(['/', '!']);
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let Some(first) = words.first().copied() else { return Err(ParseError::Empty) };
    let rest = &words[1..];
    if let Some(g) = group_of(first) {
        let (spec, args) = match rest.first() {
            None => (members(g.name).find(|c| c.name == g.default), rest),
            Some(w) => (members(g.name).find(|c| c.name == *w || c.words.contains(w)), &rest[1..]),
        };
        return match spec {
            Some(spec) => parse_with(spec, args),
            None => Err(ParseError::Bad {
                command: g.name,
                arg: rest.first().map(|w| w.to_string()).unwrap_or_default(),
                expected: ArgType::Subcommand,
            }),
        };
    }
    let mut first_error = None;
    for (spec, is_arg) in candidates(first) {
        match parse_with(spec, if is_arg { &words[..] } else { rest }) {
            Ok(cmd) => return Ok(cmd),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    // a bare card plays it
    if let Some((c, n)) = parse_card(&words)
        && n == words.len()
    {
        return Ok(Command::Play(c));
    }
    Err(ParseError::Unknown(first.to_string()))
}

#[cfg(test)]
mod tests {
    use doko_engine::{Bid, Call, Card, Reservation, SoloKind, WeddingRule};
    use doko_players::BotLevel;

    use crate::command::*;
    use crate::lang::Lang;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn cards_in_every_form() {
        for (text, c) in [
            ("play CQ", "CQ"),
            ("play h10", "H10"),
            ("play hT", "H10"),
            ("play ♣Q", "CQ"),
            ("play ♥10", "H10"),
            ("spiele kreuz dame", "CQ"),
            ("herz zehn", "H10"),
            ("karo ass", "DA"),
            ("pik bube", "SJ"),
            ("queen of clubs", "CQ"),
            ("/play D9", "D9"),
            ("♦A", "DA"),
        ] {
            assert_eq!(parse(text), Ok(Command::Play(card(c))), "{text}");
        }
    }

    #[test]
    fn bids_in_english_and_german() {
        let solo = |kind| Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false }));
        for (text, cmd) in [
            ("bid healthy", Command::Bid(Bid::Healthy)),
            ("gesund", Command::Bid(Bid::Healthy)),
            ("vorbehalt hochzeit", Command::Bid(Bid::Reserve(Reservation::Wedding(None)))),
            ("hochzeit trumpf", Command::Bid(Bid::Reserve(Reservation::Wedding(Some(WeddingRule::FirstTrump))))),
            ("bid wedding-first-fail", Command::Bid(Bid::Reserve(Reservation::Wedding(Some(WeddingRule::FirstFail))))),
            ("armut", Command::Bid(Bid::Reserve(Reservation::Poverty))),
            ("solo damen", solo(SoloKind::Queens)),
            ("solo buben", solo(SoloKind::Jacks)),
            ("solo fleischlos", solo(SoloKind::Aces)),
            ("bid solo kreuz", solo(SoloKind::Clubs)),
            ("solo pik", solo(SoloKind::Spades)),
            ("solo herz", solo(SoloKind::Hearts)),
            ("solo karo", solo(SoloKind::Diamonds)),
            ("bid solo-queens", solo(SoloKind::Queens)),
        ] {
            assert_eq!(parse(text), Ok(cmd), "{text}");
        }
        assert!(matches!(parse("solo"), Err(ParseError::Missing { .. })));
        assert!(matches!(parse("solo bananen"), Err(ParseError::Bad { .. })));
        assert!(matches!(parse("bid healthy now"), Err(ParseError::TooMany { .. })));
    }

    #[test]
    fn announcements() {
        for (text, c) in [
            ("re", Call::Re),
            ("kontra", Call::Kontra),
            ("announce contra", Call::Kontra),
            ("keine 90", Call::No90),
            ("no90", Call::No90),
            ("ansage keine 60", Call::No60),
            ("no 30", Call::No30),
            ("schwarz", Call::Schwarz),
        ] {
            assert_eq!(parse(text), Ok(Command::Announce(c)), "{text}");
        }
        assert!(matches!(parse("keine 100"), Err(ParseError::Bad { .. })));
    }

    #[test]
    fn other_commands_and_errors() {
        assert_eq!(parse("join"), Ok(Command::Join));
        assert_eq!(parse("Mitspielen"), Ok(Command::Join));
        assert_eq!(parse("addbot"), Ok(Command::AddBot(BotLevel::Basic)));
        assert_eq!(parse("bot random"), Ok(Command::AddBot(BotLevel::Random)));
        assert_eq!(parse("record 3"), Ok(Command::Record(Some(3))));
        assert_eq!(parse("analyse 2"), Ok(Command::Analysis(Some(2))));
        assert_eq!(parse("analysis"), Ok(Command::Analysis(None)));
        assert!(matches!(parse("record x"), Err(ParseError::Bad { .. })));
        assert_eq!(
            parse("rules set dulle second-wins"),
            Ok(Command::Rules(RulesCmd::Set { key: "dulle".into(), value: "second-wins".into() }))
        );
        assert_eq!(parse("regeln"), Ok(Command::Rules(RulesCmd::Show)));
        assert_eq!(parse("rules preset casual"), Ok(Command::Rules(RulesCmd::Preset("casual".into()))));
        assert_eq!(parse("sprache de"), Ok(Command::Lang(Lang::De)));
        assert_eq!(
            parse("gib C9 S9 H9"),
            Ok(Command::Poverty(PovertyStep::Give(vec![card("C9"), card("S9"), card("H9")])))
        );
        assert_eq!(parse("annehmen"), Ok(Command::Poverty(PovertyStep::Accept)));
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(parse("dance"), Err(ParseError::Unknown("dance".into())));
        assert!(parse("play").unwrap_err().message(Lang::De).contains("es fehlt eine Karte"));
        assert!(help(Lang::En, None).contains("addbot [basic|strong|expert|uct|random]"));
        assert!(help(Lang::De, Some("spiele")).starts_with("play CARD"));
    }

    #[test]
    fn poverty_alone_is_the_bid_and_with_a_step_the_exchange() {
        let poverty = Command::Bid(Bid::Reserve(Reservation::Poverty));
        for text in ["poverty", "armut", "bid poverty", "vorbehalt armut"] {
            assert_eq!(parse(text), Ok(poverty.clone()), "{text}");
        }
        assert_eq!(parse("poverty accept"), Ok(Command::Poverty(PovertyStep::Accept)));
        assert_eq!(parse("armut annehmen"), Ok(Command::Poverty(PovertyStep::Accept)));
        assert_eq!(parse("poverty decline"), Ok(Command::Poverty(PovertyStep::Decline)));
        assert_eq!(parse("ablehnen"), Ok(Command::Poverty(PovertyStep::Decline)));
        assert_eq!(
            parse("poverty give C9 S9 H9"),
            Ok(Command::Poverty(PovertyStep::Give(vec![card("C9"), card("S9"), card("H9")])))
        );
        assert_eq!(parse("armut zurück DA"), Ok(Command::Poverty(PovertyStep::Return(vec![card("DA")]))));
        assert_eq!(parse("poverty give"), Err(ParseError::Missing { command: "poverty", what: ArgType::Cards }));
        assert!(matches!(parse("poverty dance"), Err(ParseError::Bad { command: "poverty", .. })));
        assert!(matches!(parse("poverty accept C9"), Err(ParseError::TooMany { .. })));
    }

    #[test]
    fn computer_levels_are_read_in_one_place() {
        for l in BotLevel::ALL {
            assert_eq!(BotLevel::from_name(l.name()), Some(l));
            assert_eq!(doko_players::arena::Kind::from_name(l.name()), Some(l));
        }
        assert_eq!(parse("bot stark"), Ok(Command::AddBot(BotLevel::Strong)));
        assert_eq!(BotLevel::from_name("grandmaster"), None);
    }
}
