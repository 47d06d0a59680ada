//! The arguments commands take: each [`ArgType`] with how it is written
//! (usage, choices, a platform's option kind), one argument of a command
//! ([`ArgSpec`]) and a value once parsed ([`ArgValue`]).

use doko_engine::{Bid, Call, Card, Declaration, Preset, Reservation, SoloKind, WeddingRule};
use doko_players::BotLevel;

use super::model::{CardStyle, Period, StepKind, TimeoutPolicy};
use crate::lang::Lang;
use crate::tr;

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

/// A required argument (for the command declarations).
pub(super) const fn arg(name: &'static str, ty: ArgType) -> ArgSpec {
    ArgSpec { name, ty, required: true }
}

/// An optional argument (for the command declarations).
pub(super) const fn opt(name: &'static str, ty: ArgType) -> ArgSpec {
    ArgSpec { name, ty, required: false }
}

/// Declares [`ArgValue`], one variant a type, and [`FromArg`] for each
/// variant's type, from one list.
macro_rules! arg_values {
    ($($(#[$doc:meta])* $variant:ident($ty:ty)),* $(,)?) => {
        /// A parsed argument.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum ArgValue {
            $($(#[$doc])* $variant($ty),)*
        }

        $(impl FromArg for $ty {
            fn from_arg(v: ArgValue) -> Option<Self> {
                match v {
                    ArgValue::$variant(x) => Some(x),
                    _ => None,
                }
            }
        })*
    };
}

arg_values!(
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
);

/// A value an [`ArgValue`] can hold, taken out of it by the commands'
/// builders (`None` when the value is of another type).
pub trait FromArg: Sized {
    /// The value, if `v` holds one of this type.
    fn from_arg(v: ArgValue) -> Option<Self>;
}
