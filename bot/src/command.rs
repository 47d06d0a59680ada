//! The command set, one for every platform: parsed from text by a pure
//! function into a typed [`Command`] or a typed [`ParseError`]. English and
//! German words are accepted; the help text comes from the same table.

use std::fmt;

use doko_engine::{Bid, Call, Card, Rank, Reservation, SoloKind, Suit};
use serde::{Deserialize, Serialize};

use crate::lang::Lang;

/// The strength of a computer player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// Rule-following conventions (the default).
    #[default]
    Basic,
    /// Random legal actions (for tests and beginners' tables).
    Random,
    /// Determinized Monte Carlo within a time budget.
    Strong,
}

impl BotLevel {
    /// The level's name.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Basic => "basic",
            BotLevel::Random => "random",
            BotLevel::Strong => "strong",
        }
    }
}

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
    /// A poverty step.
    Poverty(PovertyStep),
    /// Show the table.
    Table,
    /// Show the score sheet.
    Score,
    /// Fetch a finished deal's record (the latest, or number N from 1).
    Record(Option<u32>),
    /// Show per-player statistics of this channel.
    Stats,
    /// House rules.
    Rules(RulesCmd),
    /// Set the channel's language (admins).
    Lang(Lang),
    /// What happens when a player's time (`turn_timeout`) runs out (admins).
    Policy(TimeoutPolicy),
    /// Also send one's hand as a direct message (where the platform has them).
    Dm(bool),
    /// Help, on one command or all.
    Help(Option<String>),
}

/// Why text is not a command. Rendered in the channel's language by
/// [`ParseError::message`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing was typed.
    #[error("empty command; try help")]
    Empty,
    /// The first word is no command.
    #[error("unknown command '{0}'; try help")]
    Unknown(String),
    /// A required argument is missing.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// An argument is not understood.
    #[error("{command}: '{arg}' is not {expected}")]
    Bad {
        /// The command.
        command: &'static str,
        /// The argument.
        arg: String,
        /// What was expected.
        expected: &'static str,
    },
    /// More arguments than the command takes.
    #[error("{command}: too many arguments ('{extra}')")]
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
        match lang {
            Lang::En => self.to_string(),
            Lang::De => match self {
                ParseError::Empty => "leerer Befehl; siehe hilfe".into(),
                ParseError::Unknown(w) => format!("unbekannter Befehl '{w}'; siehe hilfe"),
                ParseError::Missing { command, what } => format!("{command}: es fehlt {}", de_what(what)),
                ParseError::Bad { command, arg, expected } => {
                    format!("{command}: '{arg}' ist nicht {}", de_what(expected))
                }
                ParseError::TooMany { command, extra } => format!("{command}: zu viele Angaben ('{extra}')"),
            },
        }
    }
}

fn de_what(w: &str) -> &str {
    match w {
        "a card" => "eine Karte",
        "a card (e.g. CQ, H10, ♣Q, kreuz dame)" => "eine Karte (z. B. CQ, H10, ♣Q, kreuz dame)",
        "an announcement (re, kontra, no90, no60, no30, schwarz)" => {
            "eine Ansage (re, kontra, keine 90, keine 60, keine 30, schwarz)"
        }
        "a reservation (healthy, wedding, poverty, solo KIND)" => "ein Vorbehalt (gesund, hochzeit, armut, solo ART)",
        "a solo kind (diamonds hearts spades clubs queens jacks aces kings)" => {
            "eine Soloart (karo herz pik kreuz damen buben fleischlos könige)"
        }
        "a language (en, de)" => "eine Sprache (en, de)",
        "a number" => "eine Zahl",
        "a key and a value" => "Schlüssel und Wert",
        "a preset name" => "ein Regelsatz",
        "a computer level (basic, strong, random)" => "eine Stufe (basic, strong, random)",
        "give, accept, decline or return" => "gib, annehmen, ablehnen oder zurück",
        "standin or abort" => "standin oder abort",
        "on or off" => "on oder off",
        "show, set, preset or reset" => "zeigen, set, preset oder reset",
        "cards" => "Karten",
        other => other,
    }
}

/// One command's words and help, the single source of parsing and help.
#[derive(Copy, Clone, Debug)]
pub struct CommandInfo {
    /// The English name (also accepted).
    pub name: &'static str,
    /// Further words that start this command (German and short forms).
    pub aliases: &'static [&'static str],
    /// Arguments, for help.
    pub args: &'static str,
    /// One line of help in English.
    pub help_en: &'static str,
    /// One line of help in German.
    pub help_de: &'static str,
}

/// Every command.
pub const COMMANDS: &[CommandInfo] = &[
    CommandInfo {
        name: "join",
        aliases: &["beitreten", "mitspielen", "setzen"],
        args: "",
        help_en: "take a seat at this channel's table",
        help_de: "am Tisch dieses Kanals Platz nehmen",
    },
    CommandInfo {
        name: "leave",
        aliases: &["verlassen", "aufstehen"],
        args: "",
        help_en: "leave the table (not during a deal: use away)",
        help_de: "den Tisch verlassen (nicht während eines Spiels: weg)",
    },
    CommandInfo {
        name: "start",
        aliases: &["starten", "los", "geben"],
        args: "",
        help_en: "deal when four (or five) are seated",
        help_de: "geben, sobald vier (oder fünf) sitzen",
    },
    CommandInfo {
        name: "addbot",
        aliases: &["bot", "computer"],
        args: "[basic|strong|random]",
        help_en: "seat a computer player",
        help_de: "einen Computerspieler hinsetzen",
    },
    CommandInfo {
        name: "away",
        aliases: &["weg", "pause"],
        args: "",
        help_en: "let a computer play your seat until you are back",
        help_de: "einen Computer für dich spielen lassen, bis du zurück bist",
    },
    CommandInfo {
        name: "back",
        aliases: &["wiederda", "übernehmen", "uebernehmen"],
        args: "",
        help_en: "take your seat back from the computer",
        help_de: "deinen Platz vom Computer zurücknehmen",
    },
    CommandInfo {
        name: "hand",
        aliases: &["blatt", "karten"],
        args: "",
        help_en: "show your hand (privately)",
        help_de: "dein Blatt zeigen (privat)",
    },
    CommandInfo {
        name: "bid",
        aliases: &[
            "vorbehalt",
            "melden",
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
        args: "healthy|wedding|poverty|throw-in|solo KIND",
        help_en: "answer the reservation query (solo kinds: diamonds hearts spades clubs queens jacks aces kings)",
        help_de: "Vorbehalt ansagen: gesund, hochzeit, armut, schmeißen, solo karo/herz/pik/kreuz/damen/buben/fleischlos/könige",
    },
    CommandInfo {
        name: "play",
        aliases: &["spiele", "spielen", "lege", "p"],
        args: "CARD",
        help_en: "play a card: CQ, H10, ♣Q, ♥10, kreuz dame, herz zehn (or just the card)",
        help_de: "eine Karte spielen: CQ, H10, ♣Q, ♥10, kreuz dame, herz zehn (oder nur die Karte)",
    },
    CommandInfo {
        name: "announce",
        aliases: &["ansage", "ansagen", "re", "kontra", "contra", "keine", "no", "no90", "no60", "no30", "schwarz"],
        args: "re|kontra|no90|no60|no30|schwarz",
        help_en: "announce for your party (keine 90 and so on also work)",
        help_de: "für deine Partei ansagen: re, kontra, keine 90, keine 60, keine 30, schwarz",
    },
    CommandInfo {
        name: "poverty",
        aliases: &[
            "armut-tausch",
            "give",
            "gib",
            "accept",
            "annehmen",
            "decline",
            "ablehnen",
            "return",
            "zurück",
            "zurueck",
        ],
        args: "give CARDS|accept|decline|return CARDS",
        help_en: "the poverty exchange",
        help_de: "der Armut-Tausch: gib KARTEN, annehmen, ablehnen, zurück KARTEN",
    },
    CommandInfo {
        name: "table",
        aliases: &["tisch"],
        args: "",
        help_en: "show the table",
        help_de: "den Tisch zeigen",
    },
    CommandInfo {
        name: "score",
        aliases: &["punkte", "liste", "stand"],
        args: "",
        help_en: "show the score sheet",
        help_de: "die Spielliste zeigen",
    },
    CommandInfo {
        name: "record",
        aliases: &["protokoll"],
        args: "[N]",
        help_en: "the record (doko-record/1) of the last or the N-th finished deal",
        help_de: "das Protokoll (doko-record/1) des letzten oder N-ten Spiels",
    },
    CommandInfo {
        name: "stats",
        aliases: &["statistik"],
        args: "",
        help_en: "per-player statistics of this channel",
        help_de: "Statistik der Spieler in diesem Kanal",
    },
    CommandInfo {
        name: "rules",
        aliases: &["regeln"],
        args: "[show|set KEY VALUE|preset NAME|reset]",
        help_en: "show or (admins) change the house rules; changes apply from the next deal",
        help_de: "Hausregeln zeigen oder (Admins) ändern; gilt ab dem nächsten Spiel",
    },
    CommandInfo {
        name: "lang",
        aliases: &["sprache", "language"],
        args: "en|de",
        help_en: "the channel's language (admins)",
        help_de: "die Sprache des Kanals (Admins)",
    },
    CommandInfo {
        name: "dm",
        aliases: &["direkt"],
        args: "on|off",
        help_en: "also send your hand as a direct message (Discord; DMs must be open)",
        help_de: "dein Blatt auch als Direktnachricht (Discord; Direktnachrichten müssen offen sein)",
    },
    CommandInfo {
        name: "policy",
        aliases: &["zeitlimit"],
        args: "standin|abort",
        help_en: "when a player's time (turn_timeout) runs out: a computer stands in, or the deal is aborted (admins)",
        help_de: "wenn die Zeit (turn_timeout) abläuft: ein Computer springt ein, oder das Spiel wird abgebrochen (Admins)",
    },
    CommandInfo {
        name: "help",
        aliases: &["hilfe", "?"],
        args: "[COMMAND]",
        help_en: "this help",
        help_de: "diese Hilfe",
    },
];

fn find(word: &str) -> Option<&'static CommandInfo> {
    COMMANDS.iter().find(|c| c.name == word || c.aliases.contains(&word))
}

/// The help text: all commands, or one.
pub fn help(lang: Lang, topic: Option<&str>) -> String {
    let line = |c: &CommandInfo| {
        let h = if lang == Lang::De { c.help_de } else { c.help_en };
        if c.args.is_empty() { format!("{} - {h}", c.name) } else { format!("{} {} - {h}", c.name, c.args) }
    };
    if let Some(t) = topic
        && let Some(c) = find(&t.to_lowercase())
    {
        return line(c);
    }
    let mut out = String::from(if lang == Lang::De { "Befehle:\n" } else { "Commands:\n" });
    for c in COMMANDS {
        out.push_str(&line(c));
        out.push('\n');
    }
    out
}

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
            expected: "a card (e.g. CQ, H10, ♣Q, kreuz dame)",
        })?;
        out.push(c);
        i += n;
    }
    if out.is_empty() {
        return Err(ParseError::Missing { command, what: "cards" });
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

fn parse_bid(words: &[&str]) -> Result<Bid, ParseError> {
    const C: &str = "bid";
    let bad = |w: &str| ParseError::Bad {
        command: C,
        arg: w.to_string(),
        expected: "a reservation (healthy, wedding, poverty, solo KIND)",
    };
    let Some(first) = words.first() else {
        return Err(ParseError::Missing { command: C, what: "a reservation (healthy, wedding, poverty, solo KIND)" });
    };
    let (bid, used) = match *first {
        "healthy" | "gesund" | "fine" | "ok" => (Bid::Healthy, 1),
        "wedding" | "hochzeit" | "marriage" => (Bid::Reserve(Reservation::Wedding), 1),
        "poverty" | "armut" => (Bid::Reserve(Reservation::Poverty), 1),
        "throw-in" | "throwin" | "schmeissen" | "schmeißen" | "werfen" => (Bid::Reserve(Reservation::ThrowIn), 1),
        "solo" => {
            let Some(k) = words.get(1) else {
                return Err(ParseError::Missing {
                    command: C,
                    what: "a solo kind (diamonds hearts spades clubs queens jacks aces kings)",
                });
            };
            let kind = solo_kind(k).ok_or_else(|| ParseError::Bad {
                command: C,
                arg: k.to_string(),
                expected: "a solo kind (diamonds hearts spades clubs queens jacks aces kings)",
            })?;
            (Bid::Reserve(Reservation::Solo { kind, duty: false }), 2)
        }
        w => match w.strip_prefix("solo-").and_then(solo_kind).or_else(|| solo_kind(w)) {
            Some(kind) => (Bid::Reserve(Reservation::Solo { kind, duty: false }), 1),
            None => return Err(bad(w)),
        },
    };
    if let Some(extra) = words.get(used) {
        return Err(ParseError::TooMany { command: C, extra: extra.to_string() });
    }
    Ok(bid)
}

fn parse_call(words: &[&str]) -> Result<Call, ParseError> {
    const C: &str = "announce";
    const WHAT: &str = "an announcement (re, kontra, no90, no60, no30, schwarz)";
    let joined = words.join(" ");
    let call = match joined.as_str() {
        "re" => Call::Re,
        "kontra" | "contra" => Call::Kontra,
        "no90" | "no 90" | "keine 90" | "keine90" | "k90" | "no 9" | "keine 9" => Call::No90,
        "no60" | "no 60" | "keine 60" | "keine60" | "k60" | "no 6" | "keine 6" => Call::No60,
        "no30" | "no 30" | "keine 30" | "keine30" | "k30" | "no 3" | "keine 3" => Call::No30,
        "schwarz" | "black" | "no tricks" => Call::Schwarz,
        "" => return Err(ParseError::Missing { command: C, what: WHAT }),
        _ => return Err(ParseError::Bad { command: C, arg: joined, expected: WHAT }),
    };
    Ok(call)
}

fn no_more(command: &'static str, rest: &[&str]) -> Result<(), ParseError> {
    match rest.first() {
        Some(w) => Err(ParseError::TooMany { command, extra: w.to_string() }),
        None => Ok(()),
    }
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
/// ```
/// use doko_bot::command::{parse, Command};
/// use doko_engine::{Call, Card};
/// assert_eq!(parse("play CQ").unwrap(), Command::Play(Card::CQ));
/// assert_eq!(parse("kreuz dame").unwrap(), Command::Play(Card::CQ));
/// assert_eq!(parse("keine 90").unwrap(), Command::Announce(Call::No90));
/// assert!(parse("spiel xyz").is_err());
/// ```
pub fn parse(text: &str) -> Result<Command, ParseError> {
    let text = text.trim().trim_start_matches(['/', '!']);
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let Some(first) = words.first().copied() else { return Err(ParseError::Empty) };
    let rest = &words[1..];
    let Some(info) = find(first) else {
        // a bare card plays it
        if let Some((c, n)) = parse_card(&words)
            && n == words.len()
        {
            return Ok(Command::Play(c));
        }
        return Err(ParseError::Unknown(first.to_string()));
    };
    let cmd = match info.name {
        "join" => no_more("join", rest).map(|_| Command::Join)?,
        "leave" => no_more("leave", rest).map(|_| Command::Leave)?,
        "start" => no_more("start", rest).map(|_| Command::Start)?,
        "away" => no_more("away", rest).map(|_| Command::Away)?,
        "back" => no_more("back", rest).map(|_| Command::Back)?,
        "hand" => no_more("hand", rest).map(|_| Command::Hand)?,
        "table" => no_more("table", rest).map(|_| Command::Table)?,
        "score" => no_more("score", rest).map(|_| Command::Score)?,
        "stats" => no_more("stats", rest).map(|_| Command::Stats)?,
        "addbot" => {
            let level = match rest.first() {
                None => BotLevel::Basic,
                Some(&"basic") | Some(&"einfach") => BotLevel::Basic,
                Some(&"random") | Some(&"zufall") => BotLevel::Random,
                Some(&"strong") | Some(&"stark") => BotLevel::Strong,
                Some(w) => {
                    return Err(ParseError::Bad {
                        command: "addbot",
                        arg: w.to_string(),
                        expected: "a computer level (basic, strong, random)",
                    });
                }
            };
            no_more("addbot", rest.get(1..).unwrap_or(&[]))?;
            Command::AddBot(level)
        }
        "bid" => {
            let args = if ["bid", "vorbehalt", "melden"].contains(&first) { rest } else { &words[..] };
            Command::Bid(parse_bid(args)?)
        }
        "play" => {
            let Some((c, n)) = parse_card(rest) else {
                return Err(match rest.first() {
                    None => ParseError::Missing { command: "play", what: "a card (e.g. CQ, H10, ♣Q, kreuz dame)" },
                    Some(w) => ParseError::Bad {
                        command: "play",
                        arg: w.to_string(),
                        expected: "a card (e.g. CQ, H10, ♣Q, kreuz dame)",
                    },
                });
            };
            no_more("play", &rest[n..])?;
            Command::Play(c)
        }
        "announce" => {
            let args = if ["announce", "ansage", "ansagen"].contains(&first) { rest } else { &words[..] };
            Command::Announce(parse_call(args)?)
        }
        "poverty" => {
            let (step, args) = if ["poverty", "armut-tausch"].contains(&first) {
                (rest.first().copied(), rest.get(1..))
            } else {
                (Some(first), Some(rest))
            };
            let args = args.unwrap_or(&[]);
            match step {
                Some("give" | "gib" | "geben") => Command::Poverty(PovertyStep::Give(parse_cards("poverty", args)?)),
                Some("return" | "zurück" | "zurueck") => {
                    Command::Poverty(PovertyStep::Return(parse_cards("poverty", args)?))
                }
                Some("accept" | "annehmen" | "nehmen") => {
                    no_more("poverty", args)?;
                    Command::Poverty(PovertyStep::Accept)
                }
                Some("decline" | "ablehnen" | "pass" | "passe") => {
                    no_more("poverty", args)?;
                    Command::Poverty(PovertyStep::Decline)
                }
                Some(w) => {
                    return Err(ParseError::Bad {
                        command: "poverty",
                        arg: w.to_string(),
                        expected: "give, accept, decline or return",
                    });
                }
                None => {
                    return Err(ParseError::Missing { command: "poverty", what: "give, accept, decline or return" });
                }
            }
        }
        "record" => match rest {
            [] => Command::Record(None),
            [n] => Command::Record(Some(n.parse().map_err(|_| ParseError::Bad {
                command: "record",
                arg: n.to_string(),
                expected: "a number",
            })?)),
            [_, extra, ..] => return Err(ParseError::TooMany { command: "record", extra: extra.to_string() }),
        },
        "rules" => {
            // keys and values keep their case-insensitive form
            match rest {
                [] | ["show"] | ["zeigen"] => Command::Rules(RulesCmd::Show),
                ["set" | "setzen", key, value @ ..] if !value.is_empty() => {
                    Command::Rules(RulesCmd::Set { key: key.to_string(), value: value.join(" ") })
                }
                ["set" | "setzen", ..] => {
                    return Err(ParseError::Missing { command: "rules", what: "a key and a value" });
                }
                ["preset" | "vorlage", name] => Command::Rules(RulesCmd::Preset(name.to_string())),
                ["preset" | "vorlage"] => return Err(ParseError::Missing { command: "rules", what: "a preset name" }),
                ["reset" | "zurücksetzen"] => Command::Rules(RulesCmd::Reset),
                [w, ..] => {
                    return Err(ParseError::Bad {
                        command: "rules",
                        arg: w.to_string(),
                        expected: "show, set, preset or reset",
                    });
                }
            }
        }
        "lang" => match rest {
            [w] => Command::Lang(Lang::from_code(w).ok_or_else(|| ParseError::Bad {
                command: "lang",
                arg: w.to_string(),
                expected: "a language (en, de)",
            })?),
            [] => return Err(ParseError::Missing { command: "lang", what: "a language (en, de)" }),
            [_, extra, ..] => return Err(ParseError::TooMany { command: "lang", extra: extra.to_string() }),
        },
        "dm" => match rest {
            ["on" | "an" | "ja" | "yes"] => Command::Dm(true),
            ["off" | "aus" | "nein" | "no"] => Command::Dm(false),
            [w, ..] => return Err(ParseError::Bad { command: "dm", arg: w.to_string(), expected: "on or off" }),
            [] => return Err(ParseError::Missing { command: "dm", what: "on or off" }),
        },
        "policy" => match rest {
            ["standin" | "stand-in" | "computer" | "vertreten"] => Command::Policy(TimeoutPolicy::StandIn),
            ["abort" | "abbrechen"] => Command::Policy(TimeoutPolicy::Abort),
            [w, ..] => {
                return Err(ParseError::Bad { command: "policy", arg: w.to_string(), expected: "standin or abort" });
            }
            [] => return Err(ParseError::Missing { command: "policy", what: "standin or abort" }),
        },
        "help" => Command::Help(rest.first().map(|s| s.to_string())),
        other => unreachable!("command {other} has no parser"),
    };
    Ok(cmd)
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
            Command::Poverty(PovertyStep::Give(c)) => write!(f, "give {}", cards(c)),
            Command::Poverty(PovertyStep::Accept) => f.write_str("accept"),
            Command::Poverty(PovertyStep::Decline) => f.write_str("decline"),
            Command::Poverty(PovertyStep::Return(c)) => write!(f, "return {}", cards(c)),
            Command::Table => f.write_str("table"),
            Command::Score => f.write_str("score"),
            Command::Record(None) => f.write_str("record"),
            Command::Record(Some(n)) => write!(f, "record {n}"),
            Command::Stats => f.write_str("stats"),
            Command::Rules(RulesCmd::Show) => f.write_str("rules"),
            Command::Rules(RulesCmd::Set { key, value }) => write!(f, "rules set {key} {value}"),
            Command::Rules(RulesCmd::Preset(p)) => write!(f, "rules preset {p}"),
            Command::Rules(RulesCmd::Reset) => f.write_str("rules reset"),
            Command::Lang(l) => write!(f, "lang {}", l.code()),
            Command::Policy(TimeoutPolicy::StandIn) => f.write_str("policy standin"),
            Command::Policy(TimeoutPolicy::Abort) => f.write_str("policy abort"),
            Command::Dm(true) => f.write_str("dm on"),
            Command::Dm(false) => f.write_str("dm off"),
            Command::Help(None) => f.write_str("help"),
            Command::Help(Some(t)) => write!(f, "help {t}"),
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
            ("vorbehalt hochzeit", Command::Bid(Bid::Reserve(Reservation::Wedding))),
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
        assert!(help(Lang::En, None).contains("addbot [basic|strong|random]"));
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
            Command::Bid(Bid::Reserve(Reservation::Wedding)),
            Command::Bid(Bid::Reserve(Reservation::Poverty)),
            Command::Bid(Bid::Reserve(Reservation::ThrowIn)),
            Command::Poverty(PovertyStep::Give(vec![card("C9"), card("H10")])),
            Command::Poverty(PovertyStep::Accept),
            Command::Poverty(PovertyStep::Decline),
            Command::Poverty(PovertyStep::Return(vec![card("DA")])),
            Command::Table,
            Command::Score,
            Command::Record(None),
            Command::Record(Some(7)),
            Command::Stats,
            Command::Rules(RulesCmd::Show),
            Command::Rules(RulesCmd::Set { key: "dulle".into(), value: "second-wins".into() }),
            Command::Rules(RulesCmd::Preset("casual".into())),
            Command::Rules(RulesCmd::Reset),
            Command::Lang(Lang::De),
            Command::Policy(TimeoutPolicy::Abort),
            Command::Policy(TimeoutPolicy::StandIn),
            Command::Dm(true),
            Command::Dm(false),
            Command::Help(None),
            Command::Help(Some("play".into())),
        ];
        all.extend(SoloKind::ALL.into_iter().map(solo));
        all.extend(Call::ALL.into_iter().map(Command::Announce));
        all.extend(["CQ", "H10", "D9", "SA"].map(|c| Command::Play(card(c))));
        for c in all {
            assert_eq!(parse(&c.to_string()), Ok(c.clone()), "{c}");
        }
    }
}
