//! Why a line is not a command ([`ParseError`]), and the bounds on what is
//! read and echoed back: a long line is refused unread, and an answer
//! repeats at most a short piece of what was typed.

use super::args::ArgType;
use crate::lang::Lang;
use crate::tr;

/// The longest command line read, in characters: a longer one is refused
/// with a short answer that does not repeat it (no command comes near it;
/// Discord's own limit for a message is 2,000 characters too).
pub const MAX_COMMAND_CHARS: usize = 2_000;

/// Whether a line is longer than [`MAX_COMMAND_CHARS`] (looking at no more
/// of it than that).
pub fn too_long(text: &str) -> bool {
    text.len() > MAX_COMMAND_CHARS && text.chars().nth(MAX_COMMAND_CHARS).is_some()
}

/// What a person typed, as far as an answer repeats it: at most
/// [`ECHO_CHARS`] characters, then `…`.
pub fn short(s: &str) -> String {
    if s.len() <= ECHO_CHARS || s.chars().nth(ECHO_CHARS).is_none() {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(ECHO_CHARS).collect::<String>())
    }
}

/// How much of what a person typed an answer repeats at most.
pub const ECHO_CHARS: usize = 40;

/// Why text (or a platform's options) is not a command. Rendered in the
/// channel's language by [`ParseError::message`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message(Lang::En))]
pub enum ParseError {
    /// Nothing was typed.
    Empty,
    /// Longer than [`MAX_COMMAND_CHARS`]: refused without reading it (and
    /// without echoing it).
    TooLong,
    /// The first word is no command.
    Unknown(String),
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: ArgType,
    },
    /// An argument is not understood.
    Bad {
        /// The command.
        command: &'static str,
        /// The argument.
        arg: String,
        /// What was expected.
        expected: ArgType,
    },
    /// More arguments than the command takes.
    TooMany {
        /// The command.
        command: &'static str,
        /// The first extra word.
        extra: String,
    },
}

impl ParseError {
    /// The message in a language.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            ParseError::Empty => tr!(lang, "parse-empty"),
            ParseError::TooLong => tr!(lang, "parse-too-long", max = MAX_COMMAND_CHARS),
            // what was typed is echoed cut short: never a long echo
            ParseError::Unknown(w) => tr!(lang, "parse-unknown", word = short(w)),
            ParseError::Missing { command, what } => {
                tr!(lang, "parse-missing", command = *command, what = what.expected(lang))
            }
            ParseError::Bad { command, arg, expected } => {
                tr!(lang, "parse-bad", command = *command, arg = short(arg), expected = expected.expected(lang))
            }
            ParseError::TooMany { command, extra } => {
                tr!(lang, "parse-too-many", command = *command, extra = short(extra))
            }
        }
    }
}
