//! The command set, one for every platform, declared once (the `commands`
//! module, with the `declare_commands!` macro of `spec`): each command's
//! words, its typed arguments, whether it is for admins, where platforms
//! with slash commands offer it, its kind for the authority table and its
//! canonical text. From that one declaration come the text parser
//! ([`parse`]), the help text ([`help`]), the slash-command trees
//! ([`slash_tree`]), the reading of their typed options ([`from_options`]),
//! [`CommandKind`] and `Display for Command`. Each argument type
//! ([`ArgType`]) has one parser, used for typed text and for slash options
//! alike.

mod args;
mod commands;
mod error;
mod help;
mod link_code;
mod model;
mod parse;
mod slash;
mod spec;
mod values;

pub use args::{ArgSpec, ArgType, ArgValue, FromArg, OptionKind, OptionValue};
pub use commands::{COMMANDS, CommandKind, GROUPS};
pub use error::{ECHO_CHARS, MAX_COMMAND_CHARS, ParseError, short, too_long};
pub use help::{HelpStyle, help, help_styled, reference_markdown};
pub use link_code::{CODE_LEN, is_code, new_code};
pub use model::{CardStyle, Command, Period, PovertyStep, RulesCmd, ServerCmd, StepKind, TimeoutPolicy};
pub use parse::parse;
pub use slash::{SlashEntry, from_options, slash_home, slash_tree};
pub use spec::{Args, CommandSpec, Group, Tree};
pub use values::{parse_arg, parse_card};
