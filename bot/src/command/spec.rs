//! How a command is declared: [`CommandSpec`] (its words, arguments,
//! admin mark and slash placement), the [`Group`]s whose word comes first,
//! the parsed [`Args`] a declaration builds its command from, and the
//! [`declare_commands!`] macro that turns one list of declarations into
//! the command table, the authority's command kinds and the commands'
//! canonical text.

use super::args::{ArgSpec, ArgType, ArgValue, FromArg};
use super::error::ParseError;
use super::model::Command;
use crate::lang::Lang;
use crate::tr;

/// The arguments of one command as parsed, in the order of its
/// [`ArgSpec`]s (`None` for an optional one not given).
pub struct Args {
    command: &'static str,
    specs: &'static [ArgSpec],
    values: Vec<Option<ArgValue>>,
}

impl Args {
    /// The arguments `values` read for `spec`.
    pub(super) fn new(spec: &'static CommandSpec, values: Vec<Option<ArgValue>>) -> Args {
        Args { command: spec.command_word(), specs: spec.args, values }
    }

    /// The word errors are reported under (see [`CommandSpec::command_word`]).
    pub fn command(&self) -> &'static str {
        self.command
    }

    /// Argument `i`, if given (and of the type asked for).
    pub fn optional<T: FromArg>(&mut self, i: usize) -> Option<T> {
        self.values.get_mut(i).and_then(Option::take).and_then(T::from_arg)
    }

    /// Argument `i`, which must be given.
    pub fn required<T: FromArg>(&mut self, i: usize) -> Result<T, ParseError> {
        let what = self.specs.get(i).map_or(ArgType::Subcommand, |a| a.ty);
        let command = self.command;
        self.optional(i).ok_or(ParseError::Missing { command, what })
    }
}

/// A group of commands typed after one word (`rules set ...`); on a
/// platform with subcommands the group's default is offered under the
/// group's name.
#[derive(Copy, Clone, Debug)]
pub struct Group {
    /// The English word.
    pub name: &'static str,
    /// Further words (German).
    pub words: &'static [&'static str],
    /// The member used when no further word is given.
    pub default: &'static str,
    /// Whether a platform's public tree also offers the default under the
    /// group's name (`/doko rules`).
    pub public_default: bool,
}

/// A platform's command trees (Discord allows 25 subcommands in one).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// Playing and the table, for everyone: every command not for admins
    /// and not a list's, the rules group as its default (`rules`).
    Public,
    /// Lists, rankings and statistics, for everyone.
    Lists,
    /// The admins' commands, every group's members under their own names.
    Admin,
}

impl Tree {
    /// Every tree.
    pub const ALL: [Tree; 3] = [Tree::Public, Tree::Lists, Tree::Admin];

    /// The tree a command is offered in: the one chosen, else the admins'
    /// for a group's member or an admin's command, else the public one.
    pub const fn of(chosen: Option<Tree>, group: Option<&str>, admin: bool) -> Tree {
        match chosen {
            Some(t) => t,
            None if admin || group.is_some() => Tree::Admin,
            None => Tree::Public,
        }
    }
}

/// One command: the single source of its parsing, help and registration.
#[derive(Copy, Clone, Debug)]
pub struct CommandSpec {
    /// The English word (also its platform subcommand name unless
    /// [`slash`](CommandSpec::slash) says otherwise, and its help text's
    /// key: `help-<name>`, or `help-<group>-<name>`).
    pub name: &'static str,
    /// Its platform subcommand name when that differs from the word (two
    /// commands of one tree must not share a name: `reset` and `rules
    /// reset` are both for admins).
    pub slash: Option<&'static str>,
    /// The group whose word comes first, if any.
    pub group: Option<&'static str>,
    /// Further words that start it (German and short forms).
    pub words: &'static [&'static str],
    /// Words that start it and are at once its first argument (`gesund`
    /// is `bid gesund`, `re` is `announce re`).
    pub shortcuts: &'static [&'static str],
    /// Its arguments, in order.
    pub args: &'static [ArgSpec],
    /// Only the channel's admins may use it (platforms put it apart).
    pub admin: bool,
    /// Builds the command from its parsed arguments.
    pub build: fn(Args) -> Result<Command, ParseError>,
    /// The platform command tree it is offered in (see [`Tree`]).
    pub tree: Tree,
}

impl CommandSpec {
    /// The catalog key of its help line.
    pub fn help_id(&self) -> String {
        match self.group {
            Some(g) => format!("help-{g}-{}", self.name),
            None => format!("help-{}", self.name),
        }
    }

    /// Its help line in a language (at most 100 characters, so platforms
    /// can use it as a description).
    pub fn describe(&self, lang: Lang) -> String {
        let mut s = lang.msg(&self.help_id(), &[]);
        if self.admin {
            s.push(' ');
            s.push_str(&tr!(lang, "help-admin-mark"));
        }
        s
    }

    /// How it is typed: `play CARD`, `addbot [basic|strong|expert|uct|random]`.
    pub fn usage(&self) -> String {
        let mut s = match self.group {
            Some(g) => format!("{g} {}", self.name),
            None => self.name.to_string(),
        };
        for a in self.args {
            if a.required {
                s = format!("{s} {}", a.ty.usage());
            } else {
                s = format!("{s} [{}]", a.ty.usage());
            }
        }
        s
    }

    /// Its name in a platform's command tree.
    pub fn slash_name(&self) -> &'static str {
        self.slash.unwrap_or(self.name)
    }

    /// The name errors are reported under (the group's word for members).
    pub fn command_word(&self) -> &'static str {
        self.group.unwrap_or(self.name)
    }

    /// Whether `word` names it (not a group's member: their words follow
    /// the group's).
    pub(super) fn starts_with(&self, word: &str) -> bool {
        self.group.is_none() && (self.name == word || self.words.contains(&word))
    }
}

/// Declares the command set once: from it come [`GROUPS`](super::GROUPS),
/// [`COMMANDS`](super::COMMANDS) (parser, help, slash trees), the
/// authority's `CommandKind` (with `CommandKind::of`, `name` and
/// `is_move`) and `Display for Command` (the canonical text).
///
/// Each entry: the English word (with `in "group"` for a group's member),
/// then its kind (`=> Join = "join"` declares the kind and its name for the
/// authority table, `(moves)` marks a game move; `=> Play` shares a kind
/// declared before), then in this order, each but `build` and `show`
/// optional: `slash` (its name in a platform's tree when not the word),
/// `words`, `shortcuts`, `args`, `tree` (when not the one [`Tree::of`]
/// gives), `admin`, `build` (the command from its [`Args`]) and `show`
/// (for each command it builds, its pattern and how it is written; a
/// command shown by an earlier entry is not shown again).
macro_rules! declare_commands {
    // the command kinds, gathered from the entries that declare one
    (@kinds [$($kind:ident $name:literal)*] [$($move:ident)*]) => {
        /// The kind of a command, as the authority table knows it.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum CommandKind {
            $(#[doc = concat!("`", $name, "`.")] $kind,)*
        }

        impl CommandKind {
            /// How it is typed (for logs, the command reference and tests).
            pub const fn name(self) -> &'static str {
                match self {
                    $(CommandKind::$kind => $name,)*
                }
            }

            /// A game move (what computer players do on their turn).
            pub const fn is_move(self) -> bool {
                matches!(self, $(CommandKind::$move)|*)
            }
        }
    };
    (@kinds [$($done:tt)*] [$($moves:tt)*] ($kind:ident = $name:literal (moves)) $($rest:tt)*) => {
        declare_commands!(@kinds [$($done)* $kind $name] [$($moves)* $kind] $($rest)*);
    };
    (@kinds [$($done:tt)*] [$($moves:tt)*] ($kind:ident = $name:literal) $($rest:tt)*) => {
        declare_commands!(@kinds [$($done)* $kind $name] [$($moves)*] $($rest)*);
    };
    (@kinds [$($done:tt)*] [$($moves:tt)*] ($kind:ident) $($rest:tt)*) => {
        declare_commands!(@kinds [$($done)*] [$($moves)*] $($rest)*);
    };
    (@option) => { None };
    (@option $x:tt) => { Some($x) };
    (@admin) => { false };
    (@admin $x:tt) => { $x };
    (@tree) => { None };
    (@tree $x:ident) => { Some(Tree::$x) };
    (
        groups: [$($group:expr),* $(,)?];
        display($f:ident);
        $(
            $name:literal $(in $group_of:literal)? => $kind:ident $(= $kind_name:literal)? $(($moves:ident))? {
                $(slash: $slash:literal,)?
                $(words: [$($word:literal),* $(,)?],)?
                $(shortcuts: [$($shortcut:literal),* $(,)?],)?
                $(args: [$($arg:expr),* $(,)?],)?
                $(tree: $tree:ident,)?
                $(admin: $admin:literal,)?
                build: $build:expr,
                show: [$($pat:pat => $show:expr),* $(,)?] $(,)?
            }
        )*
    ) => {
        /// The groups.
        pub const GROUPS: &[Group] = &[$($group),*];

        /// Every command.
        pub const COMMANDS: &[CommandSpec] = &[$(
            CommandSpec {
                name: $name,
                slash: declare_commands!(@option $($slash)?),
                group: declare_commands!(@option $($group_of)?),
                words: &[$($($word),*)?],
                shortcuts: &[$($($shortcut),*)?],
                args: &[$($($arg),*)?],
                admin: declare_commands!(@admin $($admin)?),
                build: $build,
                tree: Tree::of(
                    declare_commands!(@tree $($tree)?),
                    declare_commands!(@option $($group_of)?),
                    declare_commands!(@admin $($admin)?),
                ),
            },
        )*];

        declare_commands!(@kinds [] [] $(($kind $(= $kind_name)? $(($moves))?))*);

        impl CommandKind {
            /// The kind of a command.
            #[allow(unused_variables)]
            pub fn of(cmd: &Command) -> CommandKind {
                match cmd {
                    $($($pat => CommandKind::$kind,)*)*
                }
            }
        }

        impl Command {
            /// Whether the command is a move in the deal (a card, a bid,
            /// an announcement or declaration, a Genscher, a poverty step:
            /// its [`CommandKind`] is a move): what a stale click must not
            /// do, and what changes the table only by going through.
            pub fn is_move(&self) -> bool {
                CommandKind::of(self).is_move()
            }
        }

        /// The canonical text of a command: what
        /// [`parse`](super::parse) reads back into the same command
        /// (buttons carry it).
        impl ::std::fmt::Display for Command {
            fn fmt(&self, $f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    $($($pat => $show,)*)*
                }
            }
        }
    };
}

pub(super) use declare_commands;
