//! The body of the `command` fuzz target (`fuzz/`, run by `cargo fuzz`),
//! here so that the workspace tests can replay the committed corpus
//! through the very same code (`bot/tests/fuzz_corpus.rs`).
//!
//! It panics only when the command parser breaks a promise: a panic inside
//! it, a command whose canonical text reads back as another command, an
//! error message that is not one short line.
//!
//! Not part of the bot's API: hidden from the documentation and free to
//! change with the fuzz target.

use crate::command::{
    Command, ECHO_CHARS, HelpStyle, OptionValue, ParseError, Tree, from_options, help, help_styled, parse, parse_card,
    slash_tree, too_long,
};
use crate::lang::Lang;

/// The longest a parse error may be: a catalog line, a few names and at
/// most two echoes of [`ECHO_CHARS`] characters.
const MAX_MESSAGE_CHARS: usize = 300 + 2 * ECHO_CHARS;

/// A parse error: one line of bounded length in every language.
fn check_error(e: &ParseError) {
    for lang in Lang::ALL {
        let msg = e.message(lang);
        assert!(!msg.trim().is_empty(), "empty parse error {e:?}");
        assert!(!msg.contains(['\n', '\r']), "parse error is not one line: {msg:?}");
        let n = msg.chars().count();
        assert!(n <= MAX_MESSAGE_CHARS, "parse error of {n} characters: {msg:?}");
    }
}

/// A command parsed: its canonical text reads back as the same command
/// (buttons carry it), unless that text is itself too long to read.
fn check_command(c: &Command) {
    let text = c.to_string();
    if !too_long(&text) {
        assert_eq!(parse(&text).as_ref(), Ok(c), "{c:?} written as {text:?} reads back otherwise");
    }
}

/// The `command` target: the bytes (as text, invalid UTF-8 replaced) are
/// a typed line for [`parse`] (with the help it asks for), and (split at newlines) the
/// typed options of a platform's slash command picked by the first byte,
/// for [`from_options`].
pub fn command(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();

    let first = data.first().copied().unwrap_or(0);
    match parse(text) {
        Ok(c) => {
            check_command(&c);
            // the help the command asks for, in a language and a style
            if let Command::Help(topic) = &c {
                let lang = Lang::ALL[usize::from(first & 1)];
                let style = if first & 2 == 0 {
                    HelpStyle::Text("!doko")
                } else {
                    HelpStyle::Slash { public: "play", lists: "lists", admin: "admin" }
                };
                assert!(!help(lang, topic.as_deref()).is_empty(), "empty help");
                assert!(!help_styled(lang, topic.as_deref(), style).is_empty(), "empty help");
            }
        }
        Err(e) => check_error(&e),
    }
    if !too_long(text) {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let Some((_, n)) = parse_card(&words) {
            assert!(n > 0 && n <= words.len(), "a card read from {n} of {} words", words.len());
        }
    }

    // a platform's slash command: the first byte picks the subcommand, the
    // lines after it are its options in order (`#12` a number, `?true` a
    // switch, anything else text)
    let Some((&pick, rest)) = data.split_first() else { return };
    let tree = slash_tree(Tree::ALL[usize::from(pick >> 6) % 3]);
    let (_, spec) = tree[usize::from(pick & 0x3f) % tree.len()];
    let rest = String::from_utf8_lossy(rest);
    let values: Vec<OptionValue> = rest
        .split('\n')
        .map(|line| {
            if let Some(n) = line.strip_prefix('#').and_then(|n| n.parse::<i64>().ok()) {
                OptionValue::Integer(n)
            } else if let Some(b) = line.strip_prefix('?').and_then(|b| b.parse::<bool>().ok()) {
                OptionValue::Bool(b)
            } else {
                OptionValue::Text(line.to_string())
            }
        })
        .collect();
    let options: Vec<(&str, OptionValue)> = spec.args.iter().map(|a| a.name).zip(values).collect();
    match from_options(spec, &options) {
        Ok(c) => check_command(&c),
        Err(e) => check_error(&e),
    }
}
