//! The command set, one for every platform, defined once in [`COMMANDS`]:
//! each command's words, its typed arguments and whether it is for admins.
//! From that one table come the text parser ([`parse`]), the help text
//! ([`help`]), the slash-command trees of platforms that have them
//! ([`slash_tree`]) and the reading of their typed options
//! ([`from_options`]). Each argument type ([`ArgType`]) has one parser,
//! used for typed text and for slash options alike. English and German
//! words are accepted.

use std::fmt;

use doko_engine::{Bid, Call, Card, Declaration, Preset, Rank, Reservation, SoloKind, Suit, WeddingRule};
use doko_players::BotLevel;
use serde::{Deserialize, Serialize};

use crate::lang::Lang;
use crate::tr;

/// What happens to a player whose time runs out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TimeoutPolicy {
    /// A computer takes the seat until the player says back (the default).
    #[default]
    StandIn,
    /// The deal is aborted (not scored); the same dealer deals again on start.
    Abort,
}

impl TimeoutPolicy {
    /// The policy's name.
    pub const fn name(self) -> &'static str {
        match self {
            TimeoutPolicy::StandIn => "standin",
            TimeoutPolicy::Abort => "abort",
        }
    }
}

/// How a table shows cards: as text only, or as pictures with the text
/// beside them (for screen readers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CardStyle {
    /// Card symbols in text (`♣Q ♠10`): the default.
    #[default]
    Text,
    /// Pictures of the cards, with the text.
    Images,
}

impl CardStyle {
    /// The style's name.
    pub const fn name(self) -> &'static str {
        match self {
            CardStyle::Text => "text",
            CardStyle::Images => "images",
        }
    }
}

/// Which games a leaderboard counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Period {
    /// Every game kept (the default).
    #[default]
    All,
    /// The games of the current calendar month (UTC).
    Month,
}

impl Period {
    /// The period's name.
    pub const fn name(self) -> &'static str {
        match self {
            Period::All => "all",
            Period::Month => "month",
        }
    }
}

/// A `server` subcommand: the defaults of every channel of a Discord
/// server or Matrix space (its admins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerCmd {
    /// Set one house-rule key for the server.
    Set {
        /// The key.
        key: String,
        /// The value as typed.
        value: String,
    },
    /// A preset for the server.
    Preset(String),
    /// The server's language.
    Lang(Lang),
    /// The server's timeout policy.
    Policy(TimeoutPolicy),
    /// Drop every server default.
    Reset,
}

/// What a poverty step says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PovertyStep {
    /// The pauper puts these cards down.
    Give(Vec<Card>),
    /// Take the poverty.
    Accept,
    /// Pass.
    Decline,
    /// The acceptor returns these cards.
    Return(Vec<Card>),
}

/// The kind of a poverty step, before its cards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Put cards down.
    Give,
    /// Take the poverty.
    Accept,
    /// Pass.
    Decline,
    /// Return cards.
    Return,
}

impl StepKind {
    /// Every step.
    pub const ALL: [StepKind; 4] = [StepKind::Give, StepKind::Accept, StepKind::Decline, StepKind::Return];

    /// The step's name.
    pub const fn name(self) -> &'static str {
        match self {
            StepKind::Give => "give",
            StepKind::Accept => "accept",
            StepKind::Decline => "decline",
            StepKind::Return => "return",
        }
    }

    fn from_word(w: &str) -> Option<StepKind> {
        Some(match w {
            "give" | "gib" | "geben" | "ablegen" => StepKind::Give,
            "accept" | "annehmen" | "nehmen" => StepKind::Accept,
            "decline" | "ablehnen" | "pass" | "passe" => StepKind::Decline,
            "return" | "zurück" | "zurueck" | "zurückgeben" => StepKind::Return,
            _ => return None,
        })
    }
}

/// A `rules` subcommand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesCmd {
    /// Show the rule set in force.
    Show,
    /// Set one key (admins).
    Set {
        /// The key.
        key: String,
        /// The value as typed.
        value: String,
    },
    /// Switch to a preset (admins).
    Preset(String),
    /// Back to the DDV preset (admins).
    Reset,
}

/// A command a user (or an adapter on their behalf) gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Take a seat.
    Join,
    /// Leave the table.
    Leave,
    /// Deal (the table must be full).
    Start,
    /// Seat a computer player.
    AddBot(BotLevel),
    /// Hand one's seat to a computer player for now.
    Away,
    /// Take one's seat back from the computer player.
    Back,
    /// Show one's hand (privately).
    Hand,
    /// Answer the reservation query.
    Bid(Bid),
    /// Play a card.
    Play(Card),
    /// Announce for one's own party.
    Announce(Call),
    /// Say what the house rules let one say (half a chicken, piglets).
    Say(Declaration),
    /// Genscher (house rule): play the first king of diamonds and name a
    /// new partner (a mention or the name shown at the table).
    Genscher(String),
    /// A poverty step.
    Poverty(PovertyStep),
    /// Show the table.
    Table,
    /// Watch the table without a seat.
    Watch,
    /// Stop watching.
    Unwatch,
    /// Let a spectator see one's hand (the Kiebitz custom; a mention or
    /// the name they watch under), or, without a name, end it.
    Kiebitz(Option<String>),
    /// Show the last trick of the deal being played (who played what).
    LastTrick,
    /// Show the score sheet.
    Score,
    /// Fetch a finished deal's record (the latest, or number N from 1).
    Record(Option<u32>),
    /// Show per-player statistics of this channel.
    Stats,
    /// Show the current list (session) with its number and sheet, or list
    /// N of this channel's kept lists.
    List(Option<u32>),
    /// The ranking of the server's players across its channels.
    Leaderboard(Period),
    /// One's own figures in the server and one's latest lists.
    Me,
    /// Which cards one played in a finished deal (the latest one played,
    /// or record N) cost points, as a strong player sees it from one's own
    /// view at the time; privately.
    Analysis(Option<u32>),
    /// Set defaults for every channel of the server (server admins).
    Server(ServerCmd),
    /// House rules.
    Rules(RulesCmd),
    /// Set the channel's language (admins).
    Lang(Lang),
    /// What happens when a player's time (`turn_timeout`) runs out (admins).
    Policy(TimeoutPolicy),
    /// How the table shows cards: text, or pictures with the text (admins).
    Cards(CardStyle),
    /// Share this table with a channel on another platform (admins):
    /// without a code, a one-time code for the other channel's admins;
    /// with one, this channel shares the table the code was made at.
    Link(Option<String>),
    /// Stop sharing the table with the linked channel (admins).
    Unlink,
    /// Also send one's hand as a direct message (where the platform has them).
    Dm(bool),
    /// Help, on one command or all.
    Help(Option<String>),
    /// Remove a computer player (by name; the last one seated if none).
    RemoveBot(Option<String>),
    /// Remove a person from the table (admins): a computer plays their seat
    /// to the end of the deal being played, then the seat is freed. The
    /// person as typed: a mention or the name shown at the table.
    Kick(String),
    /// Void the deal being played, recorded as aborted (admins); the
    /// session goes on with `start`.
    Abort,
    /// End the session (admins); its score sheet is kept.
    Reset,
    /// Stop the turn clock (admins).
    Pause,
    /// Start the turn clock again (admins).
    Resume,
}

impl Command {
    /// Whether the command is a move in the deal (a card, a bid, an
    /// announcement or declaration, a Genscher, a poverty step: its
    /// [`CommandKind`](crate::authority::CommandKind) is a move): what a
    /// stale click must not do, and what changes the table only by going
    /// through.
    pub fn is_move(&self) -> bool {
        crate::authority::CommandKind::of(self).is_move()
    }
}

/// The type of a command's argument. Each has one parser, for typed words
/// and for a platform's typed option alike.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArgType {
    /// One card (`CQ`, `♣Q`, `kreuz dame`).
    Card,
    /// One or more cards.
    Cards,
    /// An announcement (`re`, `keine 90`).
    Call,
    /// A reservation answer (`healthy`, `solo queens`).
    Bid,
    /// A declaration (`piglets`, `halbes hähnchen`).
    Declaration,
    /// A computer player's level.
    Level,
    /// A language.
    Lang,
    /// On or off.
    OnOff,
    /// A timeout policy.
    Policy,
    /// How cards are shown.
    Style,
    /// Which games a leaderboard counts.
    Period,
    /// A number from 1.
    Number,
    /// A house-rule key.
    RuleKey,
    /// A house-rule value (the rest of the line).
    RuleValue,
    /// A preset's name.
    Preset,
    /// A poverty step (give, accept, decline, return).
    Step,
    /// A command to explain.
    Topic,
    /// A subcommand of a group (`rules show|set|preset|reset`).
    Subcommand,
    /// A person or computer at the table: a mention or the name shown
    /// (the rest of the line).
    Player,
    /// A link code (`link CODE`).
    Code,
}

/// How a platform with typed options offers an argument.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// Text, maybe with choices.
    Text,
    /// A whole number.
    Integer,
    /// A switch.
    Bool,
}

/// A value of a platform's typed option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// Text.
    Text(String),
    /// A whole number.
    Integer(i64),
    /// A switch.
    Bool(bool),
}

impl ArgType {
    /// The catalog's key of the type (in `expected` messages).
    pub const fn key(self) -> &'static str {
        match self {
            ArgType::Card => "card",
            ArgType::Cards => "cards",
            ArgType::Call => "call",
            ArgType::Bid => "bid",
            ArgType::Declaration => "declaration",
            ArgType::Level => "level",
            ArgType::Lang => "lang",
            ArgType::OnOff => "on-off",
            ArgType::Policy => "policy",
            ArgType::Style => "style",
            ArgType::Period => "period",
            ArgType::Number => "number",
            ArgType::RuleKey => "rule-key",
            ArgType::RuleValue => "rule-value",
            ArgType::Preset => "preset",
            ArgType::Step => "step",
            ArgType::Topic => "topic",
            ArgType::Subcommand => "subcommand",
            ArgType::Player => "player",
            ArgType::Code => "code",
        }
    }

    /// How it is written in usage lines (`CARD`, `en|de`).
    pub const fn usage(self) -> &'static str {
        match self {
            ArgType::Card => "CARD",
            ArgType::Cards => "CARDS",
            ArgType::Call => "re|kontra|no90|no60|no30|schwarz",
            ArgType::Bid => "healthy|wedding|poverty|throw-in|solo KIND",
            ArgType::Declaration => "half-chicken|piglets|superpiglets",
            ArgType::Level => "basic|strong|expert|uct|random",
            ArgType::Lang => "en|de",
            ArgType::OnOff => "on|off",
            ArgType::Policy => "standin|abort",
            ArgType::Style => "text|images",
            ArgType::Period => "all|month",
            ArgType::Number => "N",
            ArgType::RuleKey => "KEY",
            ArgType::RuleValue => "VALUE",
            ArgType::Preset => "ddv|casual|sharp|freedoko",
            ArgType::Step => "give|accept|decline|return",
            ArgType::Topic => "COMMAND",
            ArgType::Subcommand => "SUBCOMMAND",
            ArgType::Player => "PLAYER",
            ArgType::Code => "CODE",
        }
    }

    /// What is expected, in a language (`a card (e.g. CQ, H10, ♣Q, kreuz
    /// dame)`); also a platform's description of the option.
    pub fn expected(self, lang: Lang) -> String {
        tr!(lang, "expected", type = self.key())
    }

    /// How a platform with typed options offers it.
    pub const fn option_kind(self) -> OptionKind {
        match self {
            ArgType::Number => OptionKind::Integer,
            ArgType::OnOff => OptionKind::Bool,
            _ => OptionKind::Text,
        }
    }

    /// Whether a platform should complete it as it is typed (a card from
    /// the hand).
    pub const fn autocomplete(self) -> bool {
        matches!(self, ArgType::Card)
    }

    /// The fixed choices of the type as (value, label) pairs with labels in
    /// a language; empty for free text.
    pub fn choices(self, lang: Lang) -> Vec<(String, String)> {
        let v = |s: &str| s.to_string();
        match self {
            ArgType::Bid => {
                let mut out = vec![(v("healthy"), tr!(lang, "bid-word", bid = "healthy"))];
                for r in [Reservation::Wedding(None), Reservation::Poverty, Reservation::ThrowIn] {
                    out.push((Bid::Reserve(r).name(), lang.reservation(r).into_owned()));
                }
                for k in WeddingRule::ALL {
                    let r = Reservation::Wedding(Some(k));
                    out.push((Bid::Reserve(r).name(), lang.reservation(r).into_owned()));
                }
                for k in SoloKind::ALL {
                    out.push((format!("solo-{}", k.key()), lang.solo(k).into_owned()));
                }
                out
            }
            ArgType::Call => Call::ALL.iter().map(|c| (v(c.name()), lang.call(*c).into_owned())).collect(),
            ArgType::Declaration => {
                Declaration::ALL.iter().map(|d| (v(d.name()), tr!(lang, "declaration", what = d.name()))).collect()
            }
            ArgType::Level => {
                BotLevel::ALL.iter().map(|l| (v(l.name()), tr!(lang, "level", level = l.name()))).collect()
            }
            ArgType::Lang => Lang::ALL.iter().map(|l| (v(l.code()), tr!(lang, "language", lang = l.code()))).collect(),
            ArgType::Policy => [TimeoutPolicy::StandIn, TimeoutPolicy::Abort]
                .iter()
                .map(|p| (v(p.name()), tr!(lang, "policy", policy = p.name())))
                .collect(),
            ArgType::Style => [CardStyle::Text, CardStyle::Images]
                .iter()
                .map(|c| (v(c.name()), tr!(lang, "card-style", style = c.name())))
                .collect(),
            ArgType::Period => [Period::All, Period::Month]
                .iter()
                .map(|p| (v(p.name()), tr!(lang, "period", period = p.name())))
                .collect(),
            ArgType::Preset => Preset::ALL.iter().map(|p| (v(p.name()), v(p.name()))).collect(),
            ArgType::Step => StepKind::ALL.iter().map(|s| (v(s.name()), tr!(lang, "step", step = s.name()))).collect(),
            _ => Vec::new(),
        }
    }
}

/// One argument of a command.
#[derive(Copy, Clone, Debug)]
pub struct ArgSpec {
    /// Its name (a platform's option name).
    pub name: &'static str,
    /// Its type.
    pub ty: ArgType,
    /// Whether it must be given.
    pub required: bool,
}

const fn arg(name: &'static str, ty: ArgType) -> ArgSpec {
    ArgSpec { name, ty, required: true }
}

const fn opt(name: &'static str, ty: ArgType) -> ArgSpec {
    ArgSpec { name, ty, required: false }
}

/// A parsed argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// A card.
    Card(Card),
    /// Cards.
    Cards(Vec<Card>),
    /// An announcement.
    Call(Call),
    /// A reservation answer.
    Bid(Bid),
    /// A declaration.
    Declaration(Declaration),
    /// A computer level.
    Level(BotLevel),
    /// A language.
    Lang(Lang),
    /// On or off.
    OnOff(bool),
    /// A timeout policy.
    Policy(TimeoutPolicy),
    /// A card style.
    Style(CardStyle),
    /// A leaderboard's period.
    Period(Period),
    /// A number.
    Number(u32),
    /// A poverty step.
    Step(StepKind),
    /// Text (a rule key or value, a preset, a topic).
    Text(String),
}

/// The arguments of one command as parsed, in the order of its
/// [`ArgSpec`]s (`None` for an optional one not given).
pub struct Args {
    command: &'static str,
    values: Vec<Option<ArgValue>>,
}

impl Args {
    fn take(&mut self, i: usize) -> Option<ArgValue> {
        self.values.get_mut(i).and_then(Option::take)
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
}

/// The groups.
pub const GROUPS: &[Group] = &[
    Group { name: "rules", words: &["regeln"], default: "show" },
    Group { name: "server", words: &["community"], default: "show" },
];

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

    fn starts_with(&self, word: &str) -> bool {
        self.group.is_none() && (self.name == word || self.words.contains(&word))
    }
}

use ArgType as T;

/// Every command.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "join",
        slash: None,
        group: None,
        words: &["beitreten", "mitspielen", "setzen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Join),
    },
    CommandSpec {
        name: "leave",
        slash: None,
        group: None,
        words: &["verlassen", "aufstehen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Leave),
    },
    CommandSpec {
        name: "start",
        slash: None,
        group: None,
        words: &["starten", "los", "geben"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Start),
    },
    CommandSpec {
        name: "addbot",
        slash: None,
        group: None,
        words: &["bot", "computer"],
        shortcuts: &[],
        args: &[opt("level", T::Level)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Level(l)) => Ok(Command::AddBot(l)),
            _ => Ok(Command::AddBot(BotLevel::Basic)),
        },
    },
    CommandSpec {
        name: "away",
        slash: None,
        group: None,
        words: &["weg"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Away),
    },
    CommandSpec {
        name: "back",
        slash: None,
        group: None,
        words: &["wiederda", "übernehmen", "uebernehmen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Back),
    },
    CommandSpec {
        name: "hand",
        slash: None,
        group: None,
        words: &["blatt", "karten"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Hand),
    },
    CommandSpec {
        name: "bid",
        slash: None,
        group: None,
        words: &["vorbehalt", "melden"],
        // `poverty` and `armut` alone are the bid; with a step they are
        // the exchange (see `poverty`)
        shortcuts: &[
            "healthy",
            "gesund",
            "wedding",
            "hochzeit",
            "poverty",
            "armut",
            "solo",
            "throw-in",
            "schmeissen",
            "schmeißen",
        ],
        args: &[arg("what", T::Bid)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Bid(b)) => Ok(Command::Bid(b)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Bid }),
        },
    },
    CommandSpec {
        name: "play",
        slash: None,
        group: None,
        words: &["spiele", "spielen", "lege", "p"],
        shortcuts: &[],
        args: &[arg("card", T::Card)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Card(c)) => Ok(Command::Play(c)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Card }),
        },
    },
    CommandSpec {
        name: "announce",
        slash: None,
        group: None,
        words: &["ansage", "ansagen"],
        shortcuts: &["re", "kontra", "contra", "keine", "no", "no90", "no60", "no30", "schwarz"],
        args: &[arg("what", T::Call)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Call(c)) => Ok(Command::Announce(c)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Call }),
        },
    },
    CommandSpec {
        name: "say",
        slash: None,
        group: None,
        words: &["sage", "sagen"],
        shortcuts: &["piglets", "schweinchen", "superpiglets", "superschweinchen", "hyperschweinchen"],
        args: &[arg("what", T::Declaration)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Declaration(d)) => Ok(Command::Say(d)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Declaration }),
        },
    },
    CommandSpec {
        name: "genscher",
        slash: None,
        group: None,
        words: &[],
        shortcuts: &[],
        args: &[arg("partner", T::Player)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(p)) => Ok(Command::Genscher(p)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Player }),
        },
    },
    CommandSpec {
        name: "poverty",
        slash: None,
        group: None,
        words: &["armut", "armut-tausch"],
        shortcuts: &["give", "gib", "accept", "annehmen", "decline", "ablehnen", "return", "zurück", "zurueck"],
        args: &[arg("step", T::Step), opt("cards", T::Cards)],
        admin: false,
        build: |mut a| {
            let command = a.command;
            let cards = match a.take(1) {
                Some(ArgValue::Cards(c)) => Some(c),
                _ => None,
            };
            let step = match a.take(0) {
                Some(ArgValue::Step(s)) => s,
                _ => return Err(ParseError::Missing { command, what: T::Step }),
            };
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
        },
    },
    CommandSpec {
        name: "table",
        slash: None,
        group: None,
        words: &["tisch"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Table),
    },
    CommandSpec {
        name: "watch",
        slash: None,
        group: None,
        words: &["zuschauen", "kiebitzen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Watch),
    },
    CommandSpec {
        name: "unwatch",
        slash: None,
        group: None,
        words: &["wegschauen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Unwatch),
    },
    CommandSpec {
        name: "kiebitz",
        slash: None,
        group: None,
        words: &[],
        shortcuts: &[],
        args: &[opt("spectator", T::Player)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(n)) => Ok(Command::Kiebitz(Some(n))),
            _ => Ok(Command::Kiebitz(None)),
        },
    },
    CommandSpec {
        name: "lasttrick",
        slash: None,
        group: None,
        words: &["letzterstich", "stich"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::LastTrick),
    },
    CommandSpec {
        name: "score",
        slash: None,
        group: None,
        words: &["punkte", "stand"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Score),
    },
    CommandSpec {
        name: "record",
        slash: None,
        group: None,
        words: &["protokoll"],
        shortcuts: &[],
        args: &[opt("number", T::Number)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Number(n)) => Ok(Command::Record(Some(n))),
            _ => Ok(Command::Record(None)),
        },
    },
    CommandSpec {
        name: "stats",
        slash: None,
        group: None,
        words: &["statistik"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Stats),
    },
    CommandSpec {
        name: "list",
        slash: None,
        group: None,
        words: &["liste", "listen"],
        shortcuts: &[],
        args: &[opt("number", T::Number)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Number(n)) => Ok(Command::List(Some(n))),
            _ => Ok(Command::List(None)),
        },
    },
    CommandSpec {
        name: "leaderboard",
        slash: None,
        group: None,
        words: &["rangliste", "bestenliste", "top"],
        shortcuts: &[],
        args: &[opt("period", T::Period)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Period(p)) => Ok(Command::Leaderboard(p)),
            _ => Ok(Command::Leaderboard(Period::All)),
        },
    },
    CommandSpec {
        name: "me",
        slash: None,
        group: None,
        words: &["ich", "meine"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Me),
    },
    CommandSpec {
        name: "analysis",
        slash: None,
        group: None,
        words: &["analyse"],
        shortcuts: &[],
        args: &[opt("number", T::Number)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Number(n)) => Ok(Command::Analysis(Some(n))),
            _ => Ok(Command::Analysis(None)),
        },
    },
    CommandSpec {
        name: "show",
        slash: None,
        group: Some("rules"),
        words: &["zeigen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Rules(RulesCmd::Show)),
    },
    CommandSpec {
        name: "set",
        slash: None,
        group: Some("rules"),
        words: &["setzen"],
        shortcuts: &[],
        args: &[arg("key", T::RuleKey), arg("value", T::RuleValue)],
        admin: true,
        build: |mut a| match (a.take(0), a.take(1)) {
            (Some(ArgValue::Text(key)), Some(ArgValue::Text(value))) => {
                Ok(Command::Rules(RulesCmd::Set { key, value }))
            }
            _ => Err(ParseError::Missing { command: a.command, what: T::RuleValue }),
        },
    },
    CommandSpec {
        name: "preset",
        slash: None,
        group: Some("rules"),
        words: &["vorlage"],
        shortcuts: &[],
        args: &[arg("name", T::Preset)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(p)) => Ok(Command::Rules(RulesCmd::Preset(p))),
            _ => Err(ParseError::Missing { command: a.command, what: T::Preset }),
        },
    },
    CommandSpec {
        name: "reset",
        slash: None,
        group: Some("rules"),
        words: &["zurücksetzen"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Rules(RulesCmd::Reset)),
    },
    CommandSpec {
        name: "show",
        slash: Some("server-show"),
        group: Some("server"),
        words: &["zeigen"],
        shortcuts: &[],
        args: &[],
        admin: false,
        build: |_| Ok(Command::Rules(RulesCmd::Show)),
    },
    CommandSpec {
        name: "set",
        slash: Some("server-set"),
        group: Some("server"),
        words: &["setzen"],
        shortcuts: &[],
        args: &[arg("key", T::RuleKey), arg("value", T::RuleValue)],
        admin: true,
        build: |mut a| match (a.take(0), a.take(1)) {
            (Some(ArgValue::Text(key)), Some(ArgValue::Text(value))) => {
                Ok(Command::Server(ServerCmd::Set { key, value }))
            }
            _ => Err(ParseError::Missing { command: a.command, what: T::RuleValue }),
        },
    },
    CommandSpec {
        name: "preset",
        slash: Some("server-preset"),
        group: Some("server"),
        words: &["vorlage"],
        shortcuts: &[],
        args: &[arg("name", T::Preset)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(p)) => Ok(Command::Server(ServerCmd::Preset(p))),
            _ => Err(ParseError::Missing { command: a.command, what: T::Preset }),
        },
    },
    CommandSpec {
        name: "lang",
        slash: Some("server-lang"),
        group: Some("server"),
        words: &["sprache"],
        shortcuts: &[],
        args: &[arg("language", T::Lang)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Lang(l)) => Ok(Command::Server(ServerCmd::Lang(l))),
            _ => Err(ParseError::Missing { command: a.command, what: T::Lang }),
        },
    },
    CommandSpec {
        name: "policy",
        slash: Some("server-policy"),
        group: Some("server"),
        words: &["zeitlimit"],
        shortcuts: &[],
        args: &[arg("policy", T::Policy)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Policy(p)) => Ok(Command::Server(ServerCmd::Policy(p))),
            _ => Err(ParseError::Missing { command: a.command, what: T::Policy }),
        },
    },
    CommandSpec {
        name: "reset",
        slash: Some("server-reset"),
        group: Some("server"),
        words: &["zurücksetzen"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Server(ServerCmd::Reset)),
    },
    CommandSpec {
        name: "lang",
        slash: None,
        group: None,
        words: &["sprache", "language"],
        shortcuts: &[],
        args: &[arg("language", T::Lang)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Lang(l)) => Ok(Command::Lang(l)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Lang }),
        },
    },
    CommandSpec {
        name: "dm",
        slash: None,
        group: None,
        words: &["direkt"],
        shortcuts: &[],
        args: &[arg("on", T::OnOff)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::OnOff(on)) => Ok(Command::Dm(on)),
            _ => Err(ParseError::Missing { command: a.command, what: T::OnOff }),
        },
    },
    CommandSpec {
        name: "cards",
        slash: None,
        group: None,
        words: &["kartenstil"],
        shortcuts: &[],
        args: &[arg("style", T::Style)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Style(c)) => Ok(Command::Cards(c)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Style }),
        },
    },
    CommandSpec {
        name: "policy",
        slash: None,
        group: None,
        words: &["zeitlimit"],
        shortcuts: &[],
        args: &[arg("policy", T::Policy)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Policy(p)) => Ok(Command::Policy(p)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Policy }),
        },
    },
    CommandSpec {
        name: "removebot",
        slash: None,
        group: None,
        words: &["botweg", "bot-entfernen"],
        shortcuts: &[],
        args: &[opt("name", T::Player)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(n)) => Ok(Command::RemoveBot(Some(n))),
            _ => Ok(Command::RemoveBot(None)),
        },
    },
    CommandSpec {
        name: "kick",
        slash: None,
        group: None,
        words: &["rauswerfen", "entfernen"],
        shortcuts: &[],
        args: &[arg("player", T::Player)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(n)) => Ok(Command::Kick(n)),
            _ => Err(ParseError::Missing { command: a.command, what: T::Player }),
        },
    },
    CommandSpec {
        name: "abort",
        slash: None,
        group: None,
        words: &["abbrechen"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Abort),
    },
    CommandSpec {
        name: "reset",
        // `/doko-rules reset` is the house rules' reset
        slash: Some("end-session"),
        group: None,
        words: &["neustart", "beenden"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Reset),
    },
    CommandSpec {
        name: "link",
        slash: None,
        group: None,
        words: &["verknüpfen", "verbinden"],
        shortcuts: &[],
        args: &[opt("code", T::Code)],
        admin: true,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(c)) => Ok(Command::Link(Some(c))),
            _ => Ok(Command::Link(None)),
        },
    },
    CommandSpec {
        name: "unlink",
        slash: None,
        group: None,
        words: &["trennen"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Unlink),
    },
    CommandSpec {
        name: "pause",
        slash: None,
        group: None,
        words: &["anhalten"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Pause),
    },
    CommandSpec {
        name: "resume",
        slash: None,
        group: None,
        words: &["weiter", "fortsetzen"],
        shortcuts: &[],
        args: &[],
        admin: true,
        build: |_| Ok(Command::Resume),
    },
    CommandSpec {
        name: "help",
        slash: None,
        group: None,
        words: &["hilfe", "?"],
        shortcuts: &[],
        args: &[opt("command", T::Topic)],
        admin: false,
        build: |mut a| match a.take(0) {
            Some(ArgValue::Text(t)) => Ok(Command::Help(Some(t))),
            _ => Ok(Command::Help(None)),
        },
    },
];

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

/// The commands a word can start, the ones it names first, then the ones
/// it is a shortcut of; and whether the word is itself the first argument.
fn candidates(word: &str) -> Vec<(&'static CommandSpec, bool)> {
    let mut out: Vec<(&'static CommandSpec, bool)> =
        COMMANDS.iter().filter(|c| c.starts_with(word)).map(|c| (c, false)).collect();
    out.extend(COMMANDS.iter().filter(|c| c.shortcuts.contains(&word)).map(|c| (c, true)));
    out
}

fn group_of(word: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == word || g.words.contains(&word))
}

/// The members of a group.
fn members(group: &'static str) -> impl Iterator<Item = &'static CommandSpec> {
    COMMANDS.iter().filter(move |c| c.group == Some(group))
}

/// The command a help topic names (a word of it or of its group).
fn find(word: &str) -> Vec<&'static CommandSpec> {
    if let Some(g) = group_of(word) {
        return members(g.name).collect();
    }
    let mut out: Vec<&'static CommandSpec> = candidates(word).into_iter().map(|(c, _)| c).collect();
    out.dedup_by(|a, b| a.name == b.name);
    out.truncate(1);
    out
}

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
    }
    let mut out = format!("{}\n", tr!(lang, "help-heading"));
    for c in COMMANDS {
        out.push_str(&line(c));
        out.push('\n');
    }
    out
}

/// The command reference of the README, generated from [`COMMANDS`] (so
/// it cannot drift): each command as typed, its German and short words, and
/// its help line in English. A test keeps the README's copy equal to it.
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

/// A subcommand of a platform's command tree: its name and the command it
/// gives.
pub type SlashEntry = (&'static str, &'static CommandSpec);

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
}

/// The commands of the lists' tree ([`Tree::Lists`]).
const LIST_COMMANDS: &[&str] = &["stats", "list", "leaderboard", "me", "analysis"];

/// A platform's command tree, generated from [`COMMANDS`] (see [`Tree`]).
pub fn slash_tree(tree: Tree) -> Vec<SlashEntry> {
    let mut out: Vec<SlashEntry> = Vec::new();
    for c in COMMANDS {
        let listed = LIST_COMMANDS.contains(&c.name);
        match (c.group, tree) {
            (None, Tree::Admin) if c.admin => out.push((c.slash_name(), c)),
            (None, Tree::Public) if !c.admin && !listed => out.push((c.slash_name(), c)),
            (None, Tree::Lists) if !c.admin && listed => out.push((c.slash_name(), c)),
            (Some("rules"), Tree::Public) if GROUPS.iter().any(|x| x.name == "rules" && x.default == c.name) => {
                out.push(("rules", c))
            }
            (Some(_), Tree::Admin) => out.push((c.slash_name(), c)),
            _ => {}
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
    (spec.build)(Args { command, values })
}

/// Reads one argument of a type from the start of `words`: the value and
/// how many words it took. The one parser of each type.
pub fn parse_arg(ty: ArgType, command: &'static str, words: &[&str]) -> Result<(ArgValue, usize), ParseError> {
    let Some(first) = words.first().copied() else { return Err(ParseError::Missing { command, what: ty }) };
    let bad = || ParseError::Bad { command, arg: first.to_string(), expected: ty };
    Ok(match ty {
        ArgType::Card => parse_card(words).map(|(c, n)| (ArgValue::Card(c), n)).ok_or_else(bad)?,
        ArgType::Cards => (ArgValue::Cards(parse_cards(command, words)?), words.len()),
        ArgType::Call => (ArgValue::Call(parse_call(command, words)?), words.len()),
        ArgType::Declaration => (ArgValue::Declaration(parse_declaration(command, words)?), words.len()),
        ArgType::Bid => parse_bid(command, words).map(|(b, n)| (ArgValue::Bid(b), n))?,
        ArgType::Level => (ArgValue::Level(BotLevel::from_name(first).ok_or_else(bad)?), 1),
        ArgType::Lang => (ArgValue::Lang(Lang::from_code(first).ok_or_else(bad)?), 1),
        ArgType::OnOff => match first {
            "on" | "an" | "ja" | "yes" | "true" => (ArgValue::OnOff(true), 1),
            "off" | "aus" | "nein" | "no" | "false" => (ArgValue::OnOff(false), 1),
            _ => return Err(bad()),
        },
        ArgType::Policy => match first {
            "standin" | "stand-in" | "computer" | "vertreten" => (ArgValue::Policy(TimeoutPolicy::StandIn), 1),
            "abort" | "abbrechen" => (ArgValue::Policy(TimeoutPolicy::Abort), 1),
            _ => return Err(bad()),
        },
        ArgType::Style => match first {
            "text" | "words" | "worte" => (ArgValue::Style(CardStyle::Text), 1),
            "images" | "pictures" | "bilder" | "bild" => (ArgValue::Style(CardStyle::Images), 1),
            _ => return Err(bad()),
        },
        ArgType::Period => match first {
            "all" | "alle" | "immer" | "ever" => (ArgValue::Period(Period::All), 1),
            "month" | "monat" => (ArgValue::Period(Period::Month), 1),
            _ => return Err(bad()),
        },
        ArgType::Number => (ArgValue::Number(first.parse().map_err(|_| bad())?), 1),
        ArgType::Step => (ArgValue::Step(StepKind::from_word(first).ok_or_else(bad)?), 1),
        ArgType::RuleKey | ArgType::Preset | ArgType::Topic | ArgType::Subcommand => {
            (ArgValue::Text(first.to_string()), 1)
        }
        ArgType::RuleValue | ArgType::Player => (ArgValue::Text(words.join(" ")), words.len()),
        ArgType::Code if crate::table::is_code(first) => (ArgValue::Text(first.to_string()), 1),
        ArgType::Code => return Err(bad()),
    })
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
    (spec.build)(Args { command, values })
}

/// Reads a card word (`kreuz`, `♣`, `c`).
fn suit_word(w: &str) -> Option<Suit> {
    Some(match w {
        "kreuz" | "clubs" | "club" | "♣" | "c" | "eichel" => Suit::Clubs,
        "pik" | "spades" | "spade" | "♠" | "s" | "grün" | "gruen" => Suit::Spades,
        "herz" | "hearts" | "heart" | "♥" | "h" | "rot" => Suit::Hearts,
        "karo" | "diamonds" | "diamond" | "♦" | "d" | "schellen" => Suit::Diamonds,
        _ => return None,
    })
}

fn rank_word(w: &str) -> Option<Rank> {
    Some(match w {
        "ass" | "as" | "ace" | "a" | "daus" => Rank::Ace,
        "zehn" | "ten" | "10" | "t" => Rank::Ten,
        "könig" | "koenig" | "king" | "k" => Rank::King,
        "dame" | "queen" | "q" | "ober" | "o" | "d" => Rank::Queen,
        "bube" | "jack" | "j" | "b" | "unter" | "u" => Rank::Jack,
        "neun" | "nine" | "9" => Rank::Nine,
        _ => return None,
    })
}

/// Reads one card from the start of `words`; returns it and the words used.
/// Accepts codes (`CQ`, `h10`), symbols (`♣Q`, `♥10`), German and English
/// words (`kreuz dame`, `herz zehn`, `queen of clubs`).
pub fn parse_card(words: &[&str]) -> Option<(Card, usize)> {
    let first = words.first()?.to_lowercase();
    if let Ok(c) = first.parse::<Card>() {
        return Some((c, 1));
    }
    // symbol glued to the rank: ♣Q, ♥10
    let mut chars = first.chars();
    if let Some(sym) = chars.next()
        && let Some(s) = suit_word(&sym.to_string())
        && "♣♠♥♦".contains(sym)
    {
        let rest = chars.as_str();
        if let Some(r) = rank_word(rest) {
            return Some((Card::new(s, r), 1));
        }
    }
    // two words: suit rank (kreuz dame) or rank suit
    if let Some(second) = words.get(1).map(|w| w.to_lowercase()) {
        if let (Some(s), Some(r)) = (suit_word(&first), rank_word(&second)) {
            return Some((Card::new(s, r), 2));
        }
        if let (Some(r), Some(s)) = (rank_word(&first), suit_word(&second)) {
            return Some((Card::new(s, r), 2));
        }
        // queen of clubs
        if let (Some(r), Some(third)) = (rank_word(&first), words.get(2).map(|w| w.to_lowercase()))
            && second == "of"
            && let Some(s) = suit_word(&third)
        {
            return Some((Card::new(s, r), 3));
        }
    }
    None
}

fn parse_cards(command: &'static str, words: &[&str]) -> Result<Vec<Card>, ParseError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (c, n) = parse_card(&words[i..]).ok_or_else(|| ParseError::Bad {
            command,
            arg: words[i].to_string(),
            expected: ArgType::Card,
        })?;
        out.push(c);
        i += n;
    }
    if out.is_empty() {
        return Err(ParseError::Missing { command, what: ArgType::Cards });
    }
    Ok(out)
}

fn solo_kind(w: &str) -> Option<SoloKind> {
    Some(match w {
        "diamonds" | "karo" | "trumpf" | "trump" => SoloKind::Diamonds,
        "hearts" | "herz" => SoloKind::Hearts,
        "spades" | "pik" => SoloKind::Spades,
        "clubs" | "kreuz" => SoloKind::Clubs,
        "queens" | "damen" | "damensolo" => SoloKind::Queens,
        "jacks" | "buben" | "bubensolo" => SoloKind::Jacks,
        "aces" | "fleischlos" | "asse" | "knochenmann" | "ace" => SoloKind::Aces,
        "kings" | "könige" | "koenige" => SoloKind::Kings,
        _ => return None,
    })
}

/// The kind of a chosen wedding's clarification trick (`first-trump`,
/// `trumpf`, `fehl`, `fremd`).
fn wedding_kind(w: &str) -> Option<WeddingRule> {
    Some(match w {
        "first-foreign" | "foreign" | "fremd" | "erster-fremder" => WeddingRule::FirstForeign,
        "first-fail" | "fail" | "fehl" | "erster-fehl" => WeddingRule::FirstFail,
        "first-trump" | "trump" | "trumpf" | "erster-trumpf" => WeddingRule::FirstTrump,
        _ => return None,
    })
}

/// A reservation answer and the words it took (`solo queens` takes two).
fn parse_bid(command: &'static str, words: &[&str]) -> Result<(Bid, usize), ParseError> {
    let bad = |w: &str, expected| ParseError::Bad { command, arg: w.to_string(), expected };
    let Some(first) = words.first() else { return Err(ParseError::Missing { command, what: ArgType::Bid }) };
    Ok(match *first {
        "healthy" | "gesund" | "fine" | "ok" => (Bid::Healthy, 1),
        "wedding" | "hochzeit" | "marriage" => match words.get(1).and_then(|w| wedding_kind(w)) {
            Some(k) => (Bid::Reserve(Reservation::Wedding(Some(k))), 2),
            None => (Bid::Reserve(Reservation::Wedding(None)), 1),
        },
        w if w.starts_with("wedding-") || w.starts_with("hochzeit-") => {
            let kind = w.split_once('-').and_then(|(_, k)| wedding_kind(k)).ok_or_else(|| bad(w, ArgType::Bid))?;
            (Bid::Reserve(Reservation::Wedding(Some(kind))), 1)
        }
        "poverty" | "armut" => (Bid::Reserve(Reservation::Poverty), 1),
        "throw-in" | "throwin" | "schmeissen" | "schmeißen" | "werfen" => (Bid::Reserve(Reservation::ThrowIn), 1),
        "solo" => {
            let Some(k) = words.get(1) else {
                return Err(ParseError::Missing { command, what: ArgType::Bid });
            };
            let kind = solo_kind(k).ok_or_else(|| bad(k, ArgType::Bid))?;
            (Bid::Reserve(Reservation::Solo { kind, duty: false }), 2)
        }
        w => match w.strip_prefix("solo-").and_then(solo_kind).or_else(|| solo_kind(w)) {
            Some(kind) => (Bid::Reserve(Reservation::Solo { kind, duty: false }), 1),
            None => return Err(bad(w, ArgType::Bid)),
        },
    })
}

/// A declaration: all the words (`halbes hähnchen`).
fn parse_declaration(command: &'static str, words: &[&str]) -> Result<Declaration, ParseError> {
    let joined = words.join(" ");
    Ok(match joined.as_str() {
        "half-chicken" | "half chicken" | "halbes hähnchen" | "halbes-hähnchen" | "halbes haehnchen" | "hähnchen" => {
            Declaration::HalfChicken
        }
        "piglets" | "schweinchen" | "schweine" => Declaration::Piglets,
        "superpiglets" | "superschweinchen" | "hyperpiglets" | "hyperschweinchen" => Declaration::Superpiglets,
        "" => return Err(ParseError::Missing { command, what: ArgType::Declaration }),
        _ => return Err(ParseError::Bad { command, arg: joined, expected: ArgType::Declaration }),
    })
}

/// An announcement: all the words (`keine 90`).
fn parse_call(command: &'static str, words: &[&str]) -> Result<Call, ParseError> {
    let joined = words.join(" ");
    let call = match joined.as_str() {
        "re" => Call::Re,
        "kontra" | "contra" => Call::Kontra,
        "no90" | "no 90" | "keine 90" | "keine90" | "k90" | "no 9" | "keine 9" => Call::No90,
        "no60" | "no 60" | "keine 60" | "keine60" | "k60" | "no 6" | "keine 6" => Call::No60,
        "no30" | "no 30" | "keine 30" | "keine30" | "k30" | "no 3" | "keine 3" => Call::No30,
        "schwarz" | "black" | "no tricks" => Call::Schwarz,
        "" => return Err(ParseError::Missing { command, what: ArgType::Call }),
        _ => return Err(ParseError::Bad { command, arg: joined, expected: ArgType::Call }),
    };
    Ok(call)
}

impl Command {
    /// The command a person would give for an engine action (a solo's
    /// compulsory flag is the table's business, so it is dropped).
    pub fn from_action(a: doko_engine::Action) -> Command {
        use doko_engine::Action;
        match a {
            Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => {
                Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false }))
            }
            Action::Bid(b) => Command::Bid(b),
            Action::Play(c) => Command::Play(c),
            Action::Announce(c) => Command::Announce(c),
            Action::Say(d) => Command::Say(d),
            // the table names the partner by seat
            Action::Genscher(p) => Command::Genscher(format!("seat {}", p.index() + 1)),
            Action::Give(c) => Command::Poverty(PovertyStep::Give(c.iter().collect())),
            Action::Answer(true) => Command::Poverty(PovertyStep::Accept),
            Action::Answer(false) => Command::Poverty(PovertyStep::Decline),
            Action::Return(c) => Command::Poverty(PovertyStep::Return(c.iter().collect())),
        }
    }
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

/// The canonical text of a command: what [`parse`] reads back into the
/// same command (buttons carry it).
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cards = |c: &[Card]| c.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
        match self {
            Command::Join => f.write_str("join"),
            Command::Leave => f.write_str("leave"),
            Command::Start => f.write_str("start"),
            Command::AddBot(l) => write!(f, "addbot {l}"),
            Command::Away => f.write_str("away"),
            Command::Back => f.write_str("back"),
            Command::Hand => f.write_str("hand"),
            Command::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => write!(f, "bid solo {}", kind.key()),
            Command::Bid(b) => write!(f, "bid {}", b.name()),
            Command::Play(c) => write!(f, "play {c}"),
            Command::Announce(c) => write!(f, "announce {c}"),
            Command::Say(d) => write!(f, "say {d}"),
            Command::Genscher(p) => write!(f, "genscher {p}"),
            Command::Poverty(PovertyStep::Give(c)) => write!(f, "give {}", cards(c)),
            Command::Poverty(PovertyStep::Accept) => f.write_str("accept"),
            Command::Poverty(PovertyStep::Decline) => f.write_str("decline"),
            Command::Poverty(PovertyStep::Return(c)) => write!(f, "return {}", cards(c)),
            Command::Table => f.write_str("table"),
            Command::LastTrick => f.write_str("lasttrick"),
            Command::Watch => f.write_str("watch"),
            Command::Unwatch => f.write_str("unwatch"),
            Command::Kiebitz(None) => f.write_str("kiebitz"),
            Command::Kiebitz(Some(who)) => write!(f, "kiebitz {who}"),
            Command::Score => f.write_str("score"),
            Command::Record(None) => f.write_str("record"),
            Command::Record(Some(n)) => write!(f, "record {n}"),
            Command::Stats => f.write_str("stats"),
            Command::List(None) => f.write_str("list"),
            Command::List(Some(n)) => write!(f, "list {n}"),
            Command::Leaderboard(p) => write!(f, "leaderboard {}", p.name()),
            Command::Me => f.write_str("me"),
            Command::Analysis(None) => f.write_str("analysis"),
            Command::Analysis(Some(n)) => write!(f, "analysis {n}"),
            Command::Server(ServerCmd::Set { key, value }) => write!(f, "server set {key} {value}"),
            Command::Server(ServerCmd::Preset(p)) => write!(f, "server preset {p}"),
            Command::Server(ServerCmd::Lang(l)) => write!(f, "server lang {}", l.code()),
            Command::Server(ServerCmd::Policy(p)) => write!(f, "server policy {}", p.name()),
            Command::Server(ServerCmd::Reset) => f.write_str("server reset"),
            Command::Rules(RulesCmd::Show) => f.write_str("rules"),
            Command::Rules(RulesCmd::Set { key, value }) => write!(f, "rules set {key} {value}"),
            Command::Rules(RulesCmd::Preset(p)) => write!(f, "rules preset {p}"),
            Command::Rules(RulesCmd::Reset) => f.write_str("rules reset"),
            Command::Lang(l) => write!(f, "lang {}", l.code()),
            Command::Policy(TimeoutPolicy::StandIn) => f.write_str("policy standin"),
            Command::Policy(TimeoutPolicy::Abort) => f.write_str("policy abort"),
            Command::Cards(c) => write!(f, "cards {}", c.name()),
            Command::Dm(true) => f.write_str("dm on"),
            Command::Dm(false) => f.write_str("dm off"),
            Command::Help(None) => f.write_str("help"),
            Command::Help(Some(t)) => write!(f, "help {t}"),
            Command::RemoveBot(None) => f.write_str("removebot"),
            Command::RemoveBot(Some(n)) => write!(f, "removebot {n}"),
            Command::Kick(who) => write!(f, "kick {who}"),
            Command::Abort => f.write_str("abort"),
            Command::Reset => f.write_str("reset"),
            Command::Link(None) => f.write_str("link"),
            Command::Link(Some(c)) => write!(f, "link {c}"),
            Command::Unlink => f.write_str("unlink"),
            Command::Pause => f.write_str("pause"),
            Command::Resume => f.write_str("resume"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn help_lists_every_command_in_both_languages() {
        for lang in [Lang::En, Lang::De] {
            let h = help(lang, None);
            for c in COMMANDS {
                assert!(h.contains(c.name), "{lang:?} {}", c.name);
            }
        }
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
        assert_eq!(lists, ["stats", "list", "leaderboard", "me", "analysis"]);
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
