//! The help text ([`help`], [`help_styled`]) and the command reference of
//! `docs/commands.md` ([`reference_markdown`]), both generated from the
//! declarations so they cannot drift from what is parsed.

use super::commands::{COMMANDS, GROUPS};
use super::error::short;
use super::parse::find;
use super::slash::slash_home;
use super::spec::{CommandSpec, Tree};
use crate::lang::Lang;
use crate::tr;

/// How a platform's people start commands, for the usage lines of help.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HelpStyle<'a> {
    /// Typed text after a prefix (`!doko play CARD`; an empty prefix on a
    /// terminal).
    Text(&'a str),
    /// Slash commands: the public command's name, the lists' and the
    /// admins' (`/doko play CARD`, `/doko-lists me`, `/doko-rules set KEY
    /// VALUE`).
    Slash {
        /// The public command.
        public: &'a str,
        /// The lists' command.
        lists: &'a str,
        /// The admins' command.
        admin: &'a str,
    },
}

/// The help text: all commands, or one (with its usage).
pub fn help(lang: Lang, topic: Option<&str>) -> String {
    help_styled(lang, topic, HelpStyle::Text(""))
}

/// The help text in a platform's style (see [`HelpStyle`]).
pub fn help_styled(lang: Lang, topic: Option<&str>, style: HelpStyle<'_>) -> String {
    let line = |c: &'static CommandSpec| {
        let usage = match style {
            HelpStyle::Text("") => c.usage(),
            HelpStyle::Text(prefix) => format!("{prefix} {}", c.usage()),
            HelpStyle::Slash { public, lists, admin } => {
                let (top, sub) = match slash_home(c) {
                    Some((Tree::Public, n)) => (public, n),
                    Some((Tree::Lists, n)) => (lists, n),
                    Some((Tree::Admin, n)) => (admin, n),
                    None => (public, c.name),
                };
                let args: Vec<String> = c
                    .args
                    .iter()
                    .map(|a| if a.required { format!("{}:", a.name) } else { format!("[{}:]", a.name) })
                    .collect();
                format!("/{top} {sub} {}", args.join(" ")).trim_end().to_string()
            }
        };
        format!("{usage} - {}", c.describe(lang))
    };
    if let Some(t) = topic {
        let found = find(&t.to_lowercase());
        if !found.is_empty() {
            return found.into_iter().map(line).collect::<Vec<_>>().join("\n");
        }
        if t.chars().count() > super::error::ECHO_CHARS {
            // (a long topic is no command: said in a line, not the whole help)
            return tr!(lang, "help-unknown-topic", topic = short(t));
        }
    }
    let mut out = format!("{}\n", tr!(lang, "help-heading"));
    for c in COMMANDS {
        out.push_str(&line(c));
        out.push('\n');
    }
    out
}

/// The command reference of `docs/commands.md`, generated from
/// [`COMMANDS`] (so it cannot drift): each command as typed, its German and
/// short words, and its help line in English. A test keeps the page's copy
/// equal to it (`bot/tests/docs.rs`).
pub fn reference_markdown() -> String {
    let code = |w: &str| format!("`{}`", w.replace('|', "\\|"));
    let mut out = String::from("| command | German and short forms | what |\n|---|---|---|\n");
    for c in COMMANDS {
        let mut words: Vec<String> = c.words.iter().map(|w| code(&group_words(c, w))).collect();
        words.extend(c.shortcuts.iter().map(|w| code(w)));
        let usage = c.usage().replace('|', "\\|");
        out.push_str(&format!("| `{usage}` | {} | {} |\n", words.join(", "), c.describe(Lang::En)));
    }
    out
}

/// A member's word with its group's German word in front (`regeln setze`).
fn group_words(c: &CommandSpec, w: &str) -> String {
    match c.group.and_then(|g| GROUPS.iter().find(|x| x.name == g)) {
        Some(g) => format!("{} {w}", g.words.first().copied().unwrap_or(g.name)),
        None => w.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::command::*;
    use crate::lang::Lang;

    #[test]
    fn help_lists_every_command_in_both_languages() {
        for lang in [Lang::En, Lang::De] {
            let h = help(lang, None);
            for c in COMMANDS {
                assert!(h.contains(c.name), "{lang:?} {}", c.name);
            }
        }
    }
}
