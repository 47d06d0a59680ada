//! Game records (`doko-record/1`): reading with step-by-step validation,
//! writing, and the replay result (`doko replay`).

use serde_json::{Map, Value, json};

use crate::announce::{Announcement, Said};
use crate::card::Card;
use crate::cards::Cards;
use crate::contract::{Bid, Reservation};
use crate::error::ActionError;
use crate::game::{Action, CurrentTrick, Game, Genscher, Trick};
use crate::phase::Phase;
use crate::rules::{KEYS, KeyInfo, Preset, Rules, ValueKind};
use crate::score::Score;
use crate::seat::{Party, Seat};

/// The format name every record carries.
pub const FORMAT: &str = "doko-record/1";

/// Why a record was rejected. The message is one line naming where: the
/// action's index (from 0) or `record` for the rules, hands or bids.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A fault in the record's frame, rules, hands or bids.
    #[error("record: {0}")]
    Record(String),
    /// An action the rules refuse.
    #[error("action {index}: {source}")]
    Refused {
        /// Index in `actions`, from 0.
        index: usize,
        /// The rule broken.
        source: ActionError,
    },
    /// An action that could not be read.
    #[error("action {index}: {message}")]
    Malformed {
        /// Index in `actions`, from 0.
        index: usize,
        /// What is wrong.
        message: String,
    },
}

fn rec_err(msg: impl Into<String>) -> RecordError {
    RecordError::Record(msg.into())
}

/// A parsed record: the deal and every step, not yet validated against
/// the rules (see [`Record::replay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The rules.
    pub rules: Rules,
    /// The dealer.
    pub dealer: Seat,
    /// The hands as dealt, by seat.
    pub hands: [Cards; 4],
    /// The bids in bidding order; `None` means all healthy.
    pub bids: Option<Vec<(Seat, Bid)>>,
    /// The actions in order.
    pub actions: Vec<(Seat, Action)>,
    /// Why the deal was aborted before its end (`"admin"`, `"timeout"`,
    /// `"reset"`), if it was: it then holds the deal as far as it went,
    /// counts for nobody and replays to `"contract": "aborted"`.
    pub aborted: Option<String>,
}

/// The longest reason an aborted record may give.
const ABORT_REASON_MAX: usize = 32;

/// The text form of a record's rule value, read strictly by the key's
/// [`ValueKind`]: a value of another JSON type is refused with the key and
/// its allowed values, never read as something else.
fn value_text(key: &str, v: &Value) -> Result<String, RecordError> {
    let Some(info) = KeyInfo::named(key) else {
        // an unknown key: `Rules::set` names the keys there are
        return Ok(String::new());
    };
    let refused = || {
        rec_err(format!(
            "rules: {} is not a value of {key} (a {}); allowed: {}",
            crate::quote::cut(&v.to_string()),
            info.kind.json().replace('`', ""),
            info.allowed
        ))
    };
    // a word exactly as the spec writes it (no other case, no spaces)
    let word = |s: &str| -> Result<String, RecordError> {
        if s.is_empty() || s.chars().any(|c| c.is_whitespace() || c == ',' || c.is_ascii_uppercase()) {
            Err(refused())
        } else {
            Ok(s.to_string())
        }
    };
    Ok(match (info.kind, v) {
        (ValueKind::Bool, Value::Bool(b)) => b.to_string(),
        (ValueKind::OnOff, Value::String(s)) if s == "on" || s == "off" => s.clone(),
        (ValueKind::Number | ValueKind::OffOrNumber, Value::Number(n)) if n.is_u64() => n.to_string(),
        (ValueKind::OffOrNumber, Value::String(s)) if s == "off" => s.clone(),
        (ValueKind::Word, Value::String(s)) => word(s)?,
        (ValueKind::List, Value::Array(a)) => {
            let mut words: Vec<String> = Vec::new();
            for x in a {
                let w = match x {
                    Value::String(s) if s != "none" => word(s)?,
                    _ => return Err(refused()),
                };
                if words.contains(&w) {
                    return Err(refused());
                }
                words.push(w);
            }
            if words.is_empty() { "none".to_string() } else { words.join(" ") }
        }
        _ => return Err(refused()),
    })
}

/// Reads a `rules` value: a preset name or `{"preset": .., key: value}`.
pub fn rules_from_json(v: Option<&Value>) -> Result<Rules, RecordError> {
    match v {
        None | Some(Value::Null) => Ok(Rules::preset(Preset::Ddv)),
        Some(Value::String(s)) => Preset::from_name(s).map(Rules::preset).map_err(|e| rec_err(format!("rules: {e}"))),
        Some(Value::Object(m)) => {
            let preset = match m.get("preset") {
                None => Preset::Ddv,
                Some(Value::String(s)) => Preset::from_name(s).map_err(|e| rec_err(format!("rules: {e}")))?,
                Some(_) => return Err(rec_err("rules: preset must be a name")),
            };
            let mut r = Rules::preset(preset);
            for (k, v) in m {
                if k == "preset" {
                    continue;
                }
                let text = value_text(k, v)?;
                r.set(k, &text).map_err(|e| rec_err(format!("rules: {e}")))?;
            }
            Ok(r)
        }
        Some(_) => Err(rec_err("rules must be a preset name or an object")),
    }
}

/// Writes a rule set as a record's `rules` value.
pub fn rules_to_json(r: &Rules) -> Value {
    let over = r.overrides();
    if over.is_empty() {
        return Value::String(r.preset.name().into());
    }
    let mut m = Map::new();
    m.insert("preset".into(), Value::String(r.preset.name().into()));
    for (k, v) in over {
        let kind = KeyInfo::named(k).map(|i| i.kind);
        let jv = match kind {
            Some(ValueKind::List) => {
                Value::Array(v.split_whitespace().filter(|w| *w != "none").map(|w| Value::String(w.into())).collect())
            }
            Some(ValueKind::Bool) => Value::Bool(v == "true"),
            Some(ValueKind::Number | ValueKind::OffOrNumber) if v != "off" => {
                Value::Number(v.parse::<u64>().expect("a number key reads back as a number").into())
            }
            _ => Value::String(v),
        };
        m.insert(k.into(), jv);
    }
    Value::Object(m)
}

fn seat_of(v: Option<&Value>) -> Result<Seat, String> {
    match v {
        Some(Value::Number(n)) => n.as_u64().and_then(Seat::try_new).ok_or_else(|| format!("seat {n} is not 0 to 3")),
        Some(other) => Err(format!("seat must be a number 0 to 3, not {}", crate::quote::cut(&other.to_string()))),
        None => Err("missing seat".into()),
    }
}

fn cards_of(v: &Value) -> Result<Cards, String> {
    let Value::Array(a) = v else { return Err("cards must be a list of card codes".into()) };
    let mut out = Cards::EMPTY;
    for x in a {
        let Value::String(s) = x else {
            return Err(format!("{} is not a card code", crate::quote::cut(&x.to_string())));
        };
        let c: Card = s.parse().map_err(|e: crate::card::ParseCardError| e.to_string())?;
        if !out.insert(c) {
            return Err(format!("{c} occurs more than twice"));
        }
    }
    Ok(out)
}

fn check_fields(m: &Map<String, Value>, allowed: &[&str]) -> Result<(), String> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(format!("unknown field '{}' (allowed: {})", crate::quote::quoted(k), allowed.join(", ")));
        }
    }
    Ok(())
}

fn action_of(v: &Value) -> Result<(Seat, Action), String> {
    let Value::Object(m) = v else { return Err("an action must be an object".into()) };
    check_fields(m, &["seat", "play", "announce", "say", "genscher", "give", "poverty", "return", "bid"])?;
    let seat = seat_of(m.get("seat"))?;
    let kinds: Vec<&str> = ["play", "announce", "say", "genscher", "give", "poverty", "return", "bid"]
        .into_iter()
        .filter(|k| m.contains_key(*k))
        .collect();
    if kinds.len() != 1 {
        return Err("an action needs exactly one of play, announce, say, genscher, give, poverty, return, bid".into());
    }
    let val = &m[kinds[0]];
    let text = || match val {
        Value::String(s) => Ok(s.as_str()),
        _ => Err(format!("{} must be a string", kinds[0])),
    };
    let action = match kinds[0] {
        "play" => Action::Play(text()?.parse().map_err(|e: crate::card::ParseCardError| e.to_string())?),
        "announce" => Action::Announce(text()?.parse().map_err(|e: crate::announce::ParseCallError| e.to_string())?),
        "say" => {
            let name = text()?;
            Action::Say(crate::announce::Declaration::from_name(name).ok_or_else(|| {
                format!(
                    "unknown declaration '{}'; allowed: half-chicken, piglets, superpiglets",
                    crate::quote::quoted(name)
                )
            })?)
        }
        "genscher" => Action::Genscher(seat_of(Some(val)).map_err(|e| format!("genscher: {e}"))?),
        "give" => Action::Give(cards_of(val)?),
        "return" => Action::Return(cards_of(val)?),
        "bid" => {
            let name = text()?;
            Action::Bid(
                Bid::from_name(name, false).ok_or_else(|| format!("unknown bid '{}'", crate::quote::quoted(name)))?,
            )
        }
        _ => match text()? {
            "accept" => Action::Answer(true),
            "decline" => Action::Answer(false),
            other => return Err(format!("poverty must be accept or decline, not '{}'", crate::quote::quoted(other))),
        },
    };
    Ok((seat, action))
}

impl Record {
    /// Parses a record from JSON text. Checks the format and every field's
    /// form; rule checks happen in [`Record::replay`].
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let v: Value = serde_json::from_str(text).map_err(|e| rec_err(format!("malformed JSON: {e}")))?;
        Record::from_value(&v)
    }

    /// Parses a record from a JSON value.
    pub fn from_value(v: &Value) -> Result<Record, RecordError> {
        let Value::Object(m) = v else { return Err(rec_err("a record must be a JSON object")) };
        check_fields(m, &["format", "rules", "dealer", "hands", "bids", "actions", "aborted"]).map_err(rec_err)?;
        match m.get("format") {
            Some(Value::String(f)) if f == FORMAT => {}
            Some(other) => {
                return Err(rec_err(format!(
                    "format must be \"{FORMAT}\", not {}",
                    crate::quote::cut(&other.to_string())
                )));
            }
            None => return Err(rec_err(format!("missing format \"{FORMAT}\""))),
        }
        let rules = rules_from_json(m.get("rules"))?;
        let dealer = seat_of(m.get("dealer")).map_err(|e| rec_err(format!("dealer: {e}")))?;
        let Some(Value::Array(hs)) = m.get("hands") else {
            return Err(rec_err("hands must be a list of four hands"));
        };
        if hs.len() != 4 {
            return Err(rec_err(format!("hands: {} hands given, 4 expected", hs.len())));
        }
        let mut hands = [Cards::EMPTY; 4];
        for (i, h) in hs.iter().enumerate() {
            hands[i] = cards_of(h).map_err(|e| rec_err(format!("hands: seat {i}: {e}")))?;
        }
        let bids = match m.get("bids") {
            None | Some(Value::Null) => None,
            Some(Value::Array(bs)) => {
                let mut out = Vec::new();
                for (i, b) in bs.iter().enumerate() {
                    let Value::Object(bm) = b else { return Err(rec_err(format!("bids: bid {i} must be an object"))) };
                    check_fields(bm, &["seat", "bid", "duty"]).map_err(|e| rec_err(format!("bids: bid {i}: {e}")))?;
                    let seat = seat_of(bm.get("seat")).map_err(|e| rec_err(format!("bids: bid {i}: {e}")))?;
                    let duty = match bm.get("duty") {
                        None | Some(Value::Bool(false)) => false,
                        Some(Value::Bool(true)) => true,
                        Some(_) => return Err(rec_err(format!("bids: bid {i}: duty must be true or false"))),
                    };
                    let Some(Value::String(name)) = bm.get("bid") else {
                        return Err(rec_err(format!("bids: bid {i}: missing bid")));
                    };
                    let bid = Bid::from_name(name, duty).ok_or_else(|| {
                        rec_err(format!(
                            "bids: bid {i}: unknown bid '{}'{} (healthy, wedding, poverty, throw-in, solo-<kind>)",
                            crate::quote::quoted(name),
                            if duty { " with duty (only solos can be compulsory)" } else { "" }
                        ))
                    })?;
                    out.push((seat, bid));
                }
                Some(out)
            }
            Some(_) => return Err(rec_err("bids must be a list")),
        };
        let actions = match m.get("actions") {
            None => Vec::new(),
            Some(Value::Array(a)) => {
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    out.push(action_of(x).map_err(|message| RecordError::Malformed { index: i, message })?);
                }
                out
            }
            Some(_) => return Err(rec_err("actions must be a list")),
        };
        let aborted = match m.get("aborted") {
            None | Some(Value::Null) => None,
            Some(Value::String(r))
                if !r.is_empty()
                    && r.len() <= ABORT_REASON_MAX
                    && r.chars().all(|c| c.is_ascii_lowercase() || c == '-') =>
            {
                Some(r.clone())
            }
            Some(_) => return Err(rec_err("aborted must be a reason: lowercase letters and '-', at most 32")),
        };
        Ok(Record { rules, dealer, hands, bids, actions, aborted })
    }

    /// Plays the record through the engine, validating every step, and
    /// returns the game at its end (finished, or void for a redeal; for an
    /// aborted deal, where it was aborted).
    pub fn replay(&self) -> Result<Game, RecordError> {
        let g = self.to_game()?;
        match g.phase() {
            _ if self.aborted.is_some() => Ok(g),
            Phase::Finished | Phase::Redeal(_) => Ok(g),
            _ => Err(rec_err(format!(
                "the deal is unfinished: {} of {} cards played{}",
                g.plays(),
                4 * g.rules().hand_size(),
                g.to_act().map(|s| format!(", seat {s} to act next")).unwrap_or_default()
            ))),
        }
    }

    /// Plays the record through the engine, validating every step, and
    /// returns the game where the record ends, finished or not (a deal in
    /// progress is stored as its partial record). A record with fewer bids
    /// than seats stops in the reservation query.
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let mut g = Game::new(self.rules, self.dealer, self.hands).map_err(|e| rec_err(format!("hands: {e}")))?;
        let default_bids: Vec<(Seat, Bid)>;
        let bids = match &self.bids {
            Some(b) => b,
            None => {
                default_bids = g.forehand().clockwise().into_iter().map(|s| (s, Bid::Healthy)).collect();
                &default_bids
            }
        };
        for (i, (seat, bid)) in bids.iter().enumerate() {
            if g.phase() != Phase::Bidding {
                return Err(rec_err(format!("bids: bid {i}: the reservations are over")));
            }
            let expected = g.forehand().plus(i);
            if *seat != expected {
                return Err(rec_err(format!(
                    "bids: bid {i} is by seat {seat}, but seat {expected} bids now (bids go in order from forehand)"
                )));
            }
            g.act(*seat, Action::Bid(*bid)).map_err(|e| rec_err(format!("bids: {e}")))?;
        }
        if g.phase() == Phase::Bidding && !self.actions.is_empty() {
            return Err(rec_err(format!("bids: {} bids given; every seat bids once", bids.len())));
        }
        for (i, (seat, action)) in self.actions.iter().enumerate() {
            g.act(*seat, *action).map_err(|source| RecordError::Refused { index: i, source })?;
        }
        Ok(g)
    }

    /// The record of a game (finished or not): its deal and every step.
    pub fn from_game(g: &Game) -> Record {
        let bids: Vec<(Seat, Bid)> = bids_of(g).collect();
        let mut actions = Vec::with_capacity(4 * g.tricks().len() + 8);
        each_action(g, |s, a| actions.push((s, a)));
        Record { rules: *g.rules(), dealer: g.dealer(), hands: *g.dealt(), bids: Some(bids), actions, aborted: None }
    }

    /// The record of a deal aborted before its end, for `reason`.
    pub fn aborted(g: &Game, reason: &str) -> Record {
        Record { aborted: Some(reason.to_string()), ..Record::from_game(g) }
    }

    /// The record as a JSON value in canonical form.
    pub fn to_value(&self) -> Value {
        let cards = |c: Cards| Value::Array(c.iter().map(|c| Value::String(c.to_string())).collect());
        let hands: Vec<Value> = self.hands.iter().map(|h| cards(*h)).collect();
        let mut out = Map::new();
        out.insert("format".into(), FORMAT.into());
        out.insert("rules".into(), rules_to_json(&self.rules));
        out.insert("dealer".into(), self.dealer.index().into());
        out.insert("hands".into(), Value::Array(hands));
        if let Some(bids) = &self.bids {
            let bv: Vec<Value> = bids
                .iter()
                .map(|(s, b)| {
                    let mut m = Map::new();
                    m.insert("seat".into(), s.index().into());
                    m.insert("bid".into(), b.name().into());
                    if let Bid::Reserve(Reservation::Solo { duty: true, .. }) = b {
                        m.insert("duty".into(), true.into());
                    }
                    Value::Object(m)
                })
                .collect();
            out.insert("bids".into(), Value::Array(bv));
        }
        let av: Vec<Value> = self
            .actions
            .iter()
            .map(|(s, a)| {
                let seat = s.index();
                match a {
                    Action::Play(c) => json!({"seat": seat, "play": c.to_string()}),
                    Action::Announce(c) => json!({"seat": seat, "announce": c.name()}),
                    Action::Give(c) => json!({"seat": seat, "give": cards(*c)}),
                    Action::Return(c) => json!({"seat": seat, "return": cards(*c)}),
                    Action::Answer(true) => json!({"seat": seat, "poverty": "accept"}),
                    Action::Answer(false) => json!({"seat": seat, "poverty": "decline"}),
                    Action::Bid(b) => json!({"seat": seat, "bid": b.name()}),
                    Action::Say(d) => json!({"seat": seat, "say": d.name()}),
                    Action::Genscher(p) => json!({"seat": seat, "genscher": p.index()}),
                }
            })
            .collect();
        out.insert("actions".into(), Value::Array(av));
        if let Some(r) = &self.aborted {
            out.insert("aborted".into(), r.as_str().into());
        }
        Value::Object(out)
    }

    /// The record as JSON text: one line per hand, bid and action.
    pub fn to_json(&self) -> String {
        let v = self.to_value();
        let Value::Object(m) = v else { unreachable!("a record is an object") };
        let mut out = String::from("{\n");
        let n = m.len();
        for (i, (k, v)) in m.iter().enumerate() {
            let key = serde_json::to_string(k).expect("a string serialises");
            match v {
                Value::Array(items) if !items.is_empty() => {
                    out.push_str(&format!("  {key}: [\n"));
                    for (j, it) in items.iter().enumerate() {
                        let line = serde_json::to_string(it).expect("a JSON value serialises");
                        let sep = if j + 1 < items.len() { "," } else { "" };
                        out.push_str(&format!("    {line}{sep}\n"));
                    }
                    out.push_str("  ]");
                }
                _ => out.push_str(&format!("  {key}: {}", serde_json::to_string(v).expect("a JSON value serialises"))),
            }
            out.push_str(if i + 1 < n { ",\n" } else { "\n" });
        }
        out.push_str("}\n");
        out
    }
}

/// Every card played, in order, with its player: the completed tricks,
/// then the trick being played.
pub fn plays_of(tricks: &[Trick], current: &CurrentTrick) -> Vec<(Seat, Card)> {
    let mut plays = Vec::with_capacity(4 * tricks.len() + 4);
    plays.extend(plays_in(tricks, current));
    plays
}

/// [`plays_of`] without a list, for who only looks through them.
pub(crate) fn plays_in<'a>(tricks: &'a [Trick], current: &'a CurrentTrick) -> impl Iterator<Item = (Seat, Card)> + 'a {
    tricks
        .iter()
        .flat_map(|t| (0..4).map(move |i| (t.player(i), t.cards[i])))
        .chain(current.played().iter().enumerate().map(|(i, c)| (current.leader.plus(i), *c)))
}

/// The plays, announcements and declarations of a deal as actions in the
/// order they happened: each announcement and declaration before the card
/// played after it, a declaration after the announcements made before it.
pub fn history(
    plays: &[(Seat, Card)],
    announcements: &[Announcement],
    said: &[Said],
    genscher: Option<Genscher>,
) -> Vec<(Seat, Action)> {
    let mut out = Vec::with_capacity(plays.len() + announcements.len() + said.len());
    history_each(plays.iter().copied(), announcements, said, genscher, |s, a| out.push((s, a)));
    out
}

/// [`history`], each action handed to `f` in order instead of listed.
fn history_each(
    plays: impl Iterator<Item = (Seat, Card)>,
    announcements: &[Announcement],
    said: &[Said],
    genscher: Option<Genscher>,
    mut f: impl FnMut(Seat, Action),
) {
    let (mut ai, mut si) = (0, 0);
    // the announcements and declarations due before play `pi`
    let mut spoken = |pi: usize, f: &mut dyn FnMut(Seat, Action)| loop {
        let say_due = said.get(si).is_some_and(|s| s.after_plays as usize <= pi && s.after_anns as usize <= ai);
        if say_due {
            f(said[si].seat, Action::Say(said[si].what));
            si += 1;
        } else if announcements.get(ai).is_some_and(|a| a.after_plays as usize <= pi) {
            f(announcements[ai].seat, Action::Announce(announcements[ai].call()));
            ai += 1;
        } else {
            break;
        }
    };
    for (pi, (s, c)) in plays.enumerate() {
        spoken(pi, &mut f);
        match genscher {
            // a Genscher plays its king of diamonds
            Some(gs) if gs.at_play as usize == pi => f(s, Action::Genscher(gs.partner)),
            _ => f(s, Action::Play(c)),
        }
    }
    spoken(usize::MAX, &mut f);
}

/// The bids of a deal in the order they were said (from forehand).
pub(crate) fn bids_of(g: &Game) -> impl Iterator<Item = (Seat, Bid)> + '_ {
    g.forehand().clockwise().into_iter().filter_map(|s| g.bids()[s.index()].map(|b| (s, b)))
}

/// The actions of a deal as its record lists them, in order, each handed
/// to `f`: the poverty's exchange, then the plays, announcements and
/// declarations ([`history`]), a Schwarze Sau's solo right after the card
/// that completed the trick with the second queen of spades.
pub(crate) fn each_action(g: &Game, mut f: impl FnMut(Seat, Action)) {
    if let Some(p) = g.poverty()
        && !p.given.is_empty()
    {
        f(p.pauper, Action::Give(p.given));
        for i in 0..p.declined {
            f(p.pauper.plus(1 + i as usize), Action::Answer(false));
        }
        if let Some(a) = p.acceptor {
            f(a, Action::Answer(true));
            if !p.returned.is_empty() {
                f(a, Action::Return(p.returned));
            }
        }
    }
    // a Schwarze Sau's solo: chosen right after the card that completed
    // the trick with the second queen of spades (after the first step at
    // which that many cards are played)
    let mut sow = match (g.sow_solo_at(), g.contract(), g.declarer()) {
        (Some(at), crate::contract::Contract::BlackSow(Some(kind)), Some(taker)) => {
            Some((at, (taker, Action::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false })))))
        }
        _ => None,
    };
    let mut cards = 0;
    history_each(plays_in(g.tricks(), g.current_trick()), g.announcements(), g.said(), g.genscher(), |s, a| {
        f(s, a);
        if let Some((at, (taker, bid))) = sow {
            if matches!(a, Action::Play(_) | Action::Genscher(_)) {
                cards += 1;
            }
            if cards == at {
                f(taker, bid);
                sow = None;
            }
        }
    });
    if let Some((_, (taker, bid))) = sow {
        f(taker, bid);
    }
}

/// The result of a replayed deal, as `doko replay` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayResult {
    /// The game at its end.
    pub game: Game,
    /// Its score, unless the deal was void or aborted.
    pub score: Option<Score>,
    /// Why the deal was aborted, if it was.
    pub aborted: Option<String>,
}

impl ReplayResult {
    /// Builds the result of a game that is over.
    pub fn new(game: Game) -> ReplayResult {
        let score = game.score();
        ReplayResult { game, score, aborted: None }
    }

    /// Builds the result of a deal aborted for `reason` (never scored).
    pub fn aborted(game: Game, reason: String) -> ReplayResult {
        ReplayResult { game, score: None, aborted: Some(reason) }
    }

    /// The result as JSON (`doko replay --json`).
    pub fn to_json(&self) -> Value {
        let g = &self.game;
        let seats = |p: Party| -> Vec<usize> { g.members(p).into_iter().map(Seat::index).collect() };
        if let Some(reason) = &self.aborted {
            return json!({
                "contract": "aborted",
                "aborted": reason,
                "declarer": null,
                "tricks": g.tricks().iter().map(trick_json).collect::<Vec<_>>(),
                "winner": null,
                "game_value": 0,
                "breakdown": [],
                "scores": [0, 0, 0, 0],
            });
        }
        let Some(score) = &self.score else {
            let reason = match g.phase() {
                Phase::Redeal(r) => r.name(),
                _ => "unfinished",
            };
            return json!({
                "contract": "redeal",
                "redeal": reason,
                "declarer": g.declarer().map(Seat::index),
                "tricks": [],
                "winner": null,
                "game_value": 0,
                "breakdown": [],
                "scores": [0, 0, 0, 0],
            });
        };
        let tricks: Vec<Value> = g.tricks().iter().map(trick_json).collect();
        let anns: Vec<Value> = g
            .announcements()
            .iter()
            .map(|a| {
                json!({"seat": a.seat.index(), "party": a.party.name(), "level": a.call().name(), "cards_in_hand": a.cards_in_hand})
            })
            .collect();
        let breakdown: Vec<Value> = score
            .breakdown
            .items()
            .iter()
            .map(|it| json!({"reason": it.reason.name(), "party": it.party.name(), "points": it.points}))
            .collect();
        json!({
            "contract": g.contract().name(),
            "declarer": g.declarer().map(Seat::index),
            "re": seats(Party::Re),
            "kontra": seats(Party::Kontra),
            "tricks": tricks,
            "card_points": {"re": score.card_points[0], "kontra": score.card_points[1]},
            "announcements": anns,
            "winner": score.winner.map(Party::name),
            "game_value": score.game_value,
            "breakdown": breakdown,
            "scores": score.scores,
        })
    }

    /// The result as a table for people.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let g = &self.game;
        let mut s = String::new();
        if let Some(reason) = &self.aborted {
            let _ = writeln!(
                s,
                "Aborted ({reason}) after {} of {} cards; no score. Scores 0 0 0 0.",
                g.plays(),
                4 * g.rules().hand_size()
            );
            return s;
        }
        let Some(score) = &self.score else {
            let reason = match g.phase() {
                Phase::Redeal(r) => r.name(),
                _ => "unfinished",
            };
            let _ = writeln!(s, "No game: {reason}; the same dealer deals again. Scores 0 0 0 0.");
            return s;
        };
        let names = |v: Vec<Seat>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        let _ = writeln!(
            s,
            "Contract: {}{}",
            g.contract().name(),
            g.declarer().map(|d| format!(" (declarer seat {d})")).unwrap_or_default()
        );
        let _ = writeln!(
            s,
            "Re: seats {}   Kontra: seats {}",
            names(g.members(Party::Re)),
            names(g.members(Party::Kontra))
        );
        let _ = writeln!(s);
        let _ = writeln!(s, "Trick  Lead  Cards               Winner  Points");
        for (i, t) in g.tricks().iter().enumerate() {
            let cards: Vec<String> = t.cards.iter().map(|c| format!("{c:<4}")).collect();
            let _ =
                writeln!(s, "{:>5}  {:>4}  {}  {:>6}  {:>6}", i + 1, t.leader, cards.join(""), t.winner, t.points());
        }
        let _ = writeln!(s);
        for a in g.announcements() {
            let _ = writeln!(s, "Seat {} announced {} ({} cards in hand)", a.seat, a.call(), a.cards_in_hand);
        }
        let _ = writeln!(s, "Card points: Re {}, Kontra {}", score.card_points[0], score.card_points[1]);
        match score.winner {
            Some(w) => {
                let _ = writeln!(s, "Winner: {w}");
            }
            None => {
                let _ = writeln!(
                    s,
                    "Winner: none - neither party reached its target; each is credited what it achieved, netted (value for Re)"
                );
            }
        }
        let _ = writeln!(s, "Game value: {}", score.game_value);
        for it in score.breakdown.items() {
            let _ = writeln!(s, "  {:<28} {:<7} {:+}", it.reason.name(), it.party.to_string(), it.points);
        }
        let sc: Vec<String> = score.scores.iter().map(|x| format!("{x:+}")).collect();
        let _ = writeln!(s, "Scores (seats 0-3): {}", sc.join(" "));
        s
    }
}

fn trick_json(t: &Trick) -> Value {
    json!({
        "leader": t.leader.index(),
        "cards": t.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "winner": t.winner.index(),
        "points": t.points(),
    })
}

/// Replays record text and returns the result (the whole of `doko replay`
/// but the printing).
pub fn replay_str(text: &str) -> Result<ReplayResult, RecordError> {
    replay_record(Record::from_json(text)?)
}

/// Replays a record as a bot stores it: compact ([`Record::to_compact`])
/// or `doko-record/1` JSON.
pub fn replay_stored(text: &str) -> Result<ReplayResult, RecordError> {
    replay_record(Record::from_stored(text)?)
}

fn replay_record(rec: Record) -> Result<ReplayResult, RecordError> {
    let game = rec.replay()?;
    Ok(match rec.aborted {
        Some(reason) => ReplayResult::aborted(game, reason),
        None => ReplayResult::new(game),
    })
}

// Keep every key reachable from records (a compile-time reminder that the
// record's rules object takes exactly the house-rule keys).
const _: () = assert!(KEYS.len() == 38);
