//! The one parser of each argument type ([`parse_arg`]), for typed words
//! and a platform's typed options alike: cards in every form, bids,
//! announcements, declarations and the small choices.

use doko_engine::{Bid, Call, Card, Declaration, Rank, Reservation, SoloKind, Suit, WeddingRule};
use doko_players::BotLevel;

use super::args::{ArgType, ArgValue};
use super::error::ParseError;
use super::link_code::is_code;
use super::model::{CardStyle, Period, StepKind, TimeoutPolicy};
use crate::lang::Lang;

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
        ArgType::Step => (ArgValue::Step(step_word(first).ok_or_else(bad)?), 1),
        ArgType::RuleKey | ArgType::Preset | ArgType::Topic | ArgType::Subcommand => {
            (ArgValue::Text(first.to_string()), 1)
        }
        ArgType::RuleValue | ArgType::Player => (ArgValue::Text(words.join(" ")), words.len()),
        ArgType::Code if is_code(first) => (ArgValue::Text(first.to_string()), 1),
        ArgType::Code => return Err(bad()),
    })
}

/// Reads a poverty step's word (`give`, `annehmen`).
fn step_word(w: &str) -> Option<StepKind> {
    Some(match w {
        "give" | "gib" | "geben" | "ablegen" => StepKind::Give,
        "accept" | "annehmen" | "nehmen" => StepKind::Accept,
        "decline" | "ablehnen" | "pass" | "passe" => StepKind::Decline,
        "return" | "zurück" | "zurueck" | "zurückgeben" => StepKind::Return,
        _ => return None,
    })
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
