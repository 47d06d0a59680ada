//! The compact form of a record: the same content as `doko-record/1`
//! (rules, dealer, hands, bids, actions, abort reason) in about a tenth of
//! the bytes, for what a bot keeps per table (the live deal and the
//! finished deals' records). It starts with a version byte; a reader
//! refuses a version it does not know. Reading it checks only its form:
//! the rules are checked by [`Record::to_game`] as for a JSON record.
//!
//! Layout of version 1 (all numbers one byte unless said):
//!
//! | field | bytes |
//! |---|---|
//! | version (1) | 1 |
//! | flags: 1 rules overridden, 2 bids given, 4 aborted | 1 |
//! | preset (index in [`Preset::ALL`]) | 1 |
//! | overrides (if flag 1): count, then each key's index in [`KEYS`], its value's length and text | 1 + n |
//! | dealer | 1 |
//! | hands: each seat's [`Cards`] bits, 48 bits little-endian | 4 x 6 |
//! | bids (if flag 2): count, then seat and bid code each | 1 + 2n |
//! | actions: count (2, little-endian), then each action | 2 + ... |
//! | abort reason (if flag 4): length, then its ASCII text | 1 + n |
//!
//! An action is one byte for a card played (`0x80 | seat << 5 | card
//! index`) and otherwise a byte `kind << 2 | seat` followed by its value:
//! announce (the call's index in [`Call::ALL`]), say (the declaration's
//! index), Genscher (the partner's seat), give and return (6 bytes of card
//! bits), poverty accepted or declined (none), bid (a bid code).
//!
//! A key's index is its place in [`KEYS`]: keys are only ever appended
//! there (a test pins the order).
//!
//! The text form ([`Record::to_compact`]) is the bytes in URL-safe base64
//! without padding; it never starts with `{`, so a stored record's form
//! is told by its first character ([`Record::from_stored`]).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::announce::{Call, Declaration};
use crate::card::Card;
use crate::cards::Cards;
use crate::contract::{Bid, Reservation};
use crate::game::{Action, Game};
use crate::record::{Record, RecordError};
use crate::rules::{KEYS, Preset, Rules, WeddingRule};
use crate::seat::Seat;
use crate::solo::SoloKind;

/// The version byte this build writes (and the newest it reads).
pub const COMPACT_VERSION: u8 = 1;

const RULES: u8 = 1;
const BIDS: u8 = 2;
const ABORTED: u8 = 4;

const A_ANNOUNCE: u8 = 0;
const A_SAY: u8 = 1;
const A_GENSCHER: u8 = 2;
const A_GIVE: u8 = 3;
const A_RETURN: u8 = 4;
const A_DECLINE: u8 = 5;
const A_ACCEPT: u8 = 6;
const A_BID: u8 = 7;

/// Bits a hand's cards use (24 cards, two bits each).
const CARD_BITS: u64 = (1 << 48) - 1;

fn bid_code(b: Bid) -> u8 {
    match b {
        Bid::Healthy => 0,
        Bid::Reserve(Reservation::Wedding(None)) => 1,
        Bid::Reserve(Reservation::Wedding(Some(k))) => {
            2 + WeddingRule::ALL.iter().position(|x| *x == k).expect("every wedding rule is listed") as u8
        }
        Bid::Reserve(Reservation::Poverty) => 8,
        Bid::Reserve(Reservation::ThrowIn) => 9,
        Bid::Reserve(Reservation::Solo { kind, duty }) => (if duty { 32 } else { 16 }) + kind as u8,
    }
}

fn bid_of(code: u8) -> Option<Bid> {
    let solo = |kind: u8, duty: bool| {
        SoloKind::ALL.get(usize::from(kind)).map(|k| Bid::Reserve(Reservation::Solo { kind: *k, duty }))
    };
    match code {
        0 => Some(Bid::Healthy),
        1 => Some(Bid::Reserve(Reservation::Wedding(None))),
        2..=7 => WeddingRule::ALL.get(usize::from(code - 2)).map(|k| Bid::Reserve(Reservation::Wedding(Some(*k)))),
        8 => Some(Bid::Reserve(Reservation::Poverty)),
        9 => Some(Bid::Reserve(Reservation::ThrowIn)),
        16..=31 => solo(code - 16, false),
        32..=47 => solo(code - 32, true),
        _ => None,
    }
}

fn put_cards(out: &mut Vec<u8>, c: Cards) {
    out.extend_from_slice(&c.bits().to_le_bytes()[..6]);
}

/// Writes the fields before the actions; returns where the count of
/// actions goes (written by [`put_tail`]).
fn put_head(
    out: &mut Vec<u8>,
    rules: &Rules,
    dealer: Seat,
    hands: &[Cards; 4],
    bids: Option<&[(Seat, Bid)]>,
    aborted: bool,
) -> usize {
    let over = rules.overrides();
    let mut flags = 0;
    if !over.is_empty() {
        flags |= RULES;
    }
    if bids.is_some() {
        flags |= BIDS;
    }
    if aborted {
        flags |= ABORTED;
    }
    out.push(COMPACT_VERSION);
    out.push(flags);
    let preset = Preset::ALL.iter().position(|p| *p == rules.preset).expect("every preset is listed");
    out.push(preset as u8);
    if !over.is_empty() {
        out.push(over.len() as u8);
        for (k, v) in &over {
            out.push(KEYS.iter().position(|i| i.name == *k).expect("an override is a key") as u8);
            out.push(v.len() as u8);
            out.extend_from_slice(v.as_bytes());
        }
    }
    out.push(dealer.index() as u8);
    for h in hands {
        put_cards(out, *h);
    }
    if let Some(bids) = bids {
        out.push(bids.len() as u8);
        for (s, b) in bids {
            out.push(s.index() as u8);
            out.push(bid_code(*b));
        }
    }
    out.extend_from_slice(&[0, 0]);
    out.len() - 2
}

/// Writes one action.
fn put_action(out: &mut Vec<u8>, s: Seat, a: Action) {
    let seat = s.index() as u8;
    let head = |kind: u8| kind << 2 | seat;
    match a {
        Action::Play(c) => out.push(0x80 | seat << 5 | c.index() as u8),
        Action::Announce(c) => {
            out.push(head(A_ANNOUNCE));
            out.push(Call::ALL.iter().position(|x| *x == c).expect("every call is listed") as u8);
        }
        Action::Say(d) => {
            out.push(head(A_SAY));
            out.push(Declaration::ALL.iter().position(|x| *x == d).expect("every declaration is listed") as u8);
        }
        Action::Genscher(p) => {
            out.push(head(A_GENSCHER));
            out.push(p.index() as u8);
        }
        Action::Give(c) => {
            out.push(head(A_GIVE));
            put_cards(out, c);
        }
        Action::Return(c) => {
            out.push(head(A_RETURN));
            put_cards(out, c);
        }
        Action::Answer(yes) => out.push(head(if yes { A_ACCEPT } else { A_DECLINE })),
        Action::Bid(b) => {
            out.push(head(A_BID));
            out.push(bid_code(b));
        }
    }
}

/// Writes the count of actions at `count_at` and the abort reason.
fn put_tail(out: &mut Vec<u8>, count_at: usize, actions: usize, aborted: Option<&str>) {
    out[count_at..count_at + 2].copy_from_slice(&(actions as u16).to_le_bytes());
    if let Some(r) = aborted {
        out.push(r.len() as u8);
        out.extend_from_slice(r.as_bytes());
    }
}

impl Record {
    /// The record's compact bytes (version [`COMPACT_VERSION`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(40 + 2 * self.actions.len());
        let count_at =
            put_head(&mut out, &self.rules, self.dealer, &self.hands, self.bids.as_deref(), self.aborted.is_some());
        for (s, a) in &self.actions {
            put_action(&mut out, *s, *a);
        }
        put_tail(&mut out, count_at, self.actions.len(), self.aborted.as_deref());
        out
    }

    /// The compact text of a game's record, as
    /// `Record::from_game(g).to_compact()` writes it, without the record
    /// and its lists in between (a bot writes its live deal so at every
    /// commit).
    pub fn compact_of_game(g: &Game) -> String {
        let mut bids = [(Seat::new(0), Bid::Healthy); 4];
        let mut n = 0;
        for b in crate::record::bids_of(g) {
            bids[n] = b;
            n += 1;
        }
        let mut out = Vec::with_capacity(48 + 2 * 4 * (g.tricks().len() + 1));
        let count_at = put_head(&mut out, g.rules(), g.dealer(), g.dealt(), Some(&bids[..n]), false);
        let mut actions = 0;
        crate::record::each_action(g, |s, a| {
            put_action(&mut out, s, a);
            actions += 1;
        });
        put_tail(&mut out, count_at, actions, None);
        URL_SAFE_NO_PAD.encode(out)
    }

    /// Reads compact bytes. Checks the version and every field's form (as
    /// [`Record::from_json`] does for JSON); the rules are checked when the
    /// record is played ([`Record::to_game`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
        let mut r = Reader { bytes, at: 0 };
        let version = r.byte("version")?;
        if version != COMPACT_VERSION {
            return Err(bad(format!(
                "version {version}; this doko reads version {COMPACT_VERSION}{}",
                if version > COMPACT_VERSION { " (written by a newer doko)" } else { "" }
            )));
        }
        let flags = r.byte("flags")?;
        if flags & !(RULES | BIDS | ABORTED) != 0 {
            return Err(bad(format!("unknown flags {flags:#x}")));
        }
        let preset = r.byte("preset")?;
        let preset = *Preset::ALL.get(usize::from(preset)).ok_or_else(|| bad(format!("preset {preset}")))?;
        let mut rules = Rules::preset(preset);
        if flags & RULES != 0 {
            for _ in 0..r.byte("rules")? {
                let k = r.byte("rules")?;
                let key = KEYS.get(usize::from(k)).ok_or_else(|| bad(format!("rules: key {k}")))?;
                let n = r.byte("rules")?;
                let v = std::str::from_utf8(r.take(usize::from(n), "rules")?).map_err(|_| bad("rules: not UTF-8"))?;
                rules.set(key.name, v).map_err(|e| RecordError::Record(format!("rules: {e}")))?;
            }
        }
        let dealer = r.seat("dealer")?;
        let mut hands = [Cards::EMPTY; 4];
        for h in &mut hands {
            *h = r.cards("hands")?;
        }
        let bids = if flags & BIDS != 0 {
            let n = r.byte("bids")?;
            if n > 4 {
                return Err(bad(format!("{n} bids")));
            }
            let mut out = Vec::with_capacity(usize::from(n));
            for _ in 0..n {
                let seat = r.seat("bids")?;
                let code = r.byte("bids")?;
                out.push((seat, bid_of(code).ok_or_else(|| bad(format!("bids: bid code {code}")))?));
            }
            Some(out)
        } else {
            None
        };
        let n = r.u16("actions")?;
        let mut actions = Vec::with_capacity(usize::from(n));
        for i in 0..usize::from(n) {
            let b = r.byte("actions")?;
            let action_err = |what: String| RecordError::Malformed { index: i, message: what };
            if b & 0x80 != 0 {
                let card = usize::from(b & 0x1f);
                if card >= 24 {
                    return Err(action_err(format!("card index {card}")));
                }
                actions.push((Seat::new(usize::from(b >> 5 & 3)), Action::Play(Card::from_index(card))));
                continue;
            }
            let seat = Seat::new(usize::from(b & 3));
            let action = match b >> 2 {
                A_ANNOUNCE => {
                    let c = r.byte("actions")?;
                    Action::Announce(*Call::ALL.get(usize::from(c)).ok_or_else(|| action_err(format!("call {c}")))?)
                }
                A_SAY => {
                    let d = r.byte("actions")?;
                    Action::Say(
                        *Declaration::ALL.get(usize::from(d)).ok_or_else(|| action_err(format!("declaration {d}")))?,
                    )
                }
                A_GENSCHER => Action::Genscher(r.seat("actions")?),
                A_GIVE => Action::Give(r.cards("actions")?),
                A_RETURN => Action::Return(r.cards("actions")?),
                A_DECLINE => Action::Answer(false),
                A_ACCEPT => Action::Answer(true),
                A_BID => {
                    let code = r.byte("actions")?;
                    Action::Bid(bid_of(code).ok_or_else(|| action_err(format!("bid code {code}")))?)
                }
                k => return Err(action_err(format!("action kind {k}"))),
            };
            actions.push((seat, action));
        }
        let aborted = if flags & ABORTED != 0 {
            let n = r.byte("aborted")?;
            let text = r.take(usize::from(n), "aborted")?;
            if text.is_empty() || text.len() > 32 || !text.iter().all(|c| c.is_ascii_lowercase() || *c == b'-') {
                return Err(bad("aborted must be a reason: lowercase letters and '-', at most 32"));
            }
            Some(String::from_utf8(text.to_vec()).expect("ASCII"))
        } else {
            None
        };
        if r.at != bytes.len() {
            return Err(bad(format!("{} bytes after the end", bytes.len() - r.at)));
        }
        Ok(Record { rules, dealer, hands, bids, actions, aborted })
    }

    /// The record's compact text: its bytes in URL-safe base64.
    pub fn to_compact(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.to_bytes())
    }

    /// Reads a compact text ([`Record::to_compact`]).
    pub fn from_compact(text: &str) -> Result<Record, RecordError> {
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|e| bad(format!("not base64: {e}")))?;
        Record::from_bytes(&bytes)
    }

    /// Reads a stored record in either form: `doko-record/1` JSON (it
    /// starts with `{`) or the compact text.
    pub fn from_stored(text: &str) -> Result<Record, RecordError> {
        if text.trim_start().starts_with('{') { Record::from_json(text) } else { Record::from_compact(text) }
    }
}

fn bad(what: impl std::fmt::Display) -> RecordError {
    RecordError::Record(format!("compact record: {what}"))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], RecordError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.bytes.len())
            .ok_or_else(|| bad(format!("{what}: cut short")))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn byte(&mut self, what: &str) -> Result<u8, RecordError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, RecordError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn seat(&mut self, what: &str) -> Result<Seat, RecordError> {
        let s = self.byte(what)?;
        Seat::try_new(u64::from(s)).ok_or_else(|| bad(format!("{what}: seat {s} is not 0 to 3")))
    }

    fn cards(&mut self, what: &str) -> Result<Cards, RecordError> {
        let b = self.take(6, what)?;
        let mut raw = [0u8; 8];
        raw[..6].copy_from_slice(b);
        let bits = u64::from_le_bytes(raw) & CARD_BITS;
        let c = Cards::from_bits(bits);
        if c.bits() != bits {
            return Err(bad(format!("{what}: not a set of cards")));
        }
        Ok(c)
    }
}
