//! The command trees of platforms with slash commands ([`slash_tree`]),
//! generated from the declarations, and the reading of a subcommand's typed
//! options into a [`Command`] ([`from_options`]).

use super::args::{ArgType, ArgValue, OptionValue};
use super::commands::{COMMANDS, GROUPS};
use super::error::ParseError;
use super::model::Command;
use super::spec::{Args, CommandSpec, Tree};
use super::values::parse_arg;

/// A subcommand of a platform's command tree: its name and the command it
/// gives.
pub type SlashEntry = (&'static str, &'static CommandSpec);

/// A platform's command tree, generated from [`COMMANDS`] (see [`Tree`]).
pub fn slash_tree(tree: Tree) -> Vec<SlashEntry> {
    let mut out: Vec<SlashEntry> = Vec::new();
    for c in COMMANDS {
        if c.tree == tree {
            out.push((c.slash_name(), c));
        } else if tree == Tree::Public
            && let Some(g) = c.group.and_then(|g| GROUPS.iter().find(|x| x.name == g))
            && g.public_default
            && g.default == c.name
        {
            out.push((g.name, c));
        }
    }
    out
}

/// The tree a command is offered in, and its name there (the public tree
/// first: `rules show` is `/doko rules` and `/doko-rules show`).
pub fn slash_home(c: &CommandSpec) -> Option<(Tree, &'static str)> {
    // (by name: a constant's entries need not have one address)
    let same = |s: &CommandSpec| s.name == c.name && s.group == c.group && s.slash == c.slash;
    Tree::ALL.into_iter().find_map(|t| slash_tree(t).into_iter().find(|(_, s)| same(s)).map(|(n, _)| (t, n)))
}

/// The command of a subcommand of a platform's tree and its typed options
/// (by name): each option goes straight into its type's parser.
pub fn from_options(spec: &'static CommandSpec, options: &[(&str, OptionValue)]) -> Result<Command, ParseError> {
    let command = spec.command_word();
    let mut values = Vec::new();
    for a in spec.args {
        let given = options.iter().find(|(n, _)| *n == a.name).map(|(_, v)| v);
        let value = match given {
            None if a.required => return Err(ParseError::Missing { command, what: a.ty }),
            None => None,
            Some(OptionValue::Bool(b)) if a.ty == ArgType::OnOff => Some(ArgValue::OnOff(*b)),
            Some(OptionValue::Integer(n)) if a.ty == ArgType::Number => {
                Some(ArgValue::Number(u32::try_from(*n).ok().filter(|n| *n > 0).ok_or_else(|| ParseError::Bad {
                    command,
                    arg: n.to_string(),
                    expected: a.ty,
                })?))
            }
            Some(OptionValue::Text(text)) => {
                let lower = text.to_lowercase();
                let words: Vec<&str> =
                    lower.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
                if words.is_empty() {
                    if a.required {
                        return Err(ParseError::Missing { command, what: a.ty });
                    }
                    None
                } else {
                    let (v, n) = parse_arg(a.ty, command, &words)?;
                    if let Some(extra) = words.get(n) {
                        return Err(ParseError::TooMany { command, extra: extra.to_string() });
                    }
                    Some(v)
                }
            }
            Some(other) => {
                let arg = match other {
                    OptionValue::Integer(n) => n.to_string(),
                    OptionValue::Bool(b) => b.to_string(),
                    OptionValue::Text(t) => t.clone(),
                };
                return Err(ParseError::Bad { command, arg, expected: a.ty });
            }
        };
        values.push(value);
    }
    (spec.build)(Args::new(spec, values))
}

#[cfg(test)]
mod tests {
    use doko_engine::{Bid, Call, Card, Reservation, SoloKind};
    use doko_players::BotLevel;

    use super::super::parse::candidates;
    use crate::command::*;
    use crate::lang::Lang;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn one_definition_drives_words_and_slash_trees() {
        // every word starts the command it belongs to (or its group)
        for c in COMMANDS {
            for w in std::iter::once(&c.name).chain(c.words) {
                let ok = c.group.is_some() || candidates(w).iter().any(|(x, _)| x.name == c.name);
                assert!(ok, "{w} starts {}", c.name);
            }
        }
        let public: Vec<&str> = slash_tree(Tree::Public).iter().map(|(n, _)| *n).collect();
        let lists: Vec<&str> = slash_tree(Tree::Lists).iter().map(|(n, _)| *n).collect();
        let admin: Vec<&str> = slash_tree(Tree::Admin).iter().map(|(n, _)| *n).collect();
        assert_eq!(lists, ["stats", "list", "leaderboard", "me", "analysis", "web"]);
        assert!(public.contains(&"rules") && !public.contains(&"set") && !public.contains(&"lang"), "{public:?}");
        assert_eq!(
            admin,
            [
                "show",
                "set",
                "preset",
                "reset",
                "server-show",
                "server-set",
                "server-preset",
                "server-lang",
                "server-policy",
                "server-reset",
                "lang",
                "cards",
                "policy",
                "kick",
                "abort",
                "end-session",
                "link",
                "unlink",
                "web-renew",
                "pause",
                "resume"
            ]
        );
        // Discord takes at most 25 subcommands per command
        assert!(public.len() <= 25 && admin.len() <= 25, "{} public, {} admin", public.len(), admin.len());
        // every command is offered in one tree at least
        for c in COMMANDS {
            assert!(slash_home(c).is_some(), "{} is in no tree", c.name);
        }
        assert!(public.contains(&"removebot") && !public.contains(&"kick"), "{public:?}");
        // no two subcommands of a tree share a name
        for tree in [&public, &lists, &admin] {
            for (i, n) in tree.iter().enumerate() {
                assert!(!tree[i + 1..].contains(n), "{n} twice");
            }
        }
        assert!(slash_tree(Tree::Admin).iter().all(|(n, c)| c.admin || *n == "show" || *n == "server-show"));
        // help lines fit a platform's 100-character descriptions
        for c in COMMANDS {
            for lang in Lang::ALL {
                let d = c.describe(lang);
                assert!(d.chars().count() <= 100, "{lang:?} {}: {} chars", c.name, d.chars().count());
            }
        }
    }

    #[test]
    fn slash_options_go_straight_into_the_typed_parsers() {
        let spec = |top: bool, name: &str| {
            let trees = if top { [Tree::Public, Tree::Lists] } else { [Tree::Admin, Tree::Admin] };
            trees.into_iter().flat_map(slash_tree).find(|(n, _)| *n == name).unwrap().1
        };
        let text = |s: &str| OptionValue::Text(s.into());
        assert_eq!(from_options(spec(true, "play"), &[("card", text("kreuz dame"))]), Ok(Command::Play(Card::CQ)));
        assert_eq!(
            from_options(spec(true, "bid"), &[("what", text("solo-queens"))]),
            Ok(Command::Bid(Bid::Reserve(Reservation::Solo { kind: SoloKind::Queens, duty: false })))
        );
        assert_eq!(from_options(spec(true, "announce"), &[("what", text("no90"))]), Ok(Command::Announce(Call::No90)));
        assert_eq!(
            from_options(spec(true, "poverty"), &[("step", text("give")), ("cards", text("C9, S9 H9"))]),
            Ok(Command::Poverty(PovertyStep::Give(vec![card("C9"), card("S9"), card("H9")])))
        );
        assert_eq!(
            from_options(spec(true, "poverty"), &[("step", text("return"))]),
            Err(ParseError::Missing { command: "poverty", what: ArgType::Cards })
        );
        assert_eq!(from_options(spec(true, "addbot"), &[]), Ok(Command::AddBot(BotLevel::Basic)));
        assert_eq!(
            from_options(spec(true, "addbot"), &[("level", text("strong"))]),
            Ok(Command::AddBot(BotLevel::Strong))
        );
        assert_eq!(
            from_options(spec(true, "record"), &[("number", OptionValue::Integer(3))]),
            Ok(Command::Record(Some(3)))
        );
        assert!(matches!(
            from_options(spec(true, "record"), &[("number", OptionValue::Integer(-1))]),
            Err(ParseError::Bad { .. })
        ));
        assert_eq!(from_options(spec(true, "dm"), &[("on", OptionValue::Bool(true))]), Ok(Command::Dm(true)));
        assert_eq!(from_options(spec(true, "rules"), &[]), Ok(Command::Rules(RulesCmd::Show)));
        assert_eq!(from_options(spec(false, "show"), &[]), Ok(Command::Rules(RulesCmd::Show)));
        assert_eq!(
            from_options(spec(false, "set"), &[("key", text("dulle")), ("value", text("second-wins"))]),
            Ok(Command::Rules(RulesCmd::Set { key: "dulle".into(), value: "second-wins".into() }))
        );
        assert_eq!(from_options(spec(false, "lang"), &[("language", text("de"))]), Ok(Command::Lang(Lang::De)));
        assert_eq!(
            from_options(spec(false, "policy"), &[("policy", text("abort"))]),
            Ok(Command::Policy(TimeoutPolicy::Abort))
        );
        assert_eq!(
            from_options(spec(true, "play"), &[]),
            Err(ParseError::Missing { command: "play", what: ArgType::Card })
        );
        // every choice a platform offers reads back through its type's parser
        assert_eq!(
            from_options(spec(true, "leaderboard"), &[("period", text("month"))]),
            Ok(Command::Leaderboard(Period::Month))
        );
        assert_eq!(
            from_options(spec(false, "server-set"), &[("key", text("bock")), ("value", text("on"))]),
            Ok(Command::Server(ServerCmd::Set { key: "bock".into(), value: "on".into() }))
        );
        for (_, c) in Tree::ALL.into_iter().flat_map(slash_tree) {
            for a in c.args {
                for (value, _) in a.ty.choices(Lang::En) {
                    let words: Vec<&str> = value.split_whitespace().collect();
                    assert!(parse_arg(a.ty, c.name, &words).is_ok(), "{} {value}", c.name);
                }
            }
        }
    }
}
