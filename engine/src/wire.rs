//! The seat protocol's text forms (`docs/seat-protocol.md`): an action as
//! one token without spaces (`play:CQ`, `bid:solo-queens`,
//! `give:CQ,DA,D10`), and one seat's whole view as a JSON object that reads
//! back to the same [`SeatView`].
//!
//! Names are the record format's (`doko-record/1`): card codes, bids,
//! announcements, declarations, contracts and the rules value.

use serde_json::{Map, Value, json};

use crate::announce::{Announcement, Call, Declaration, Said};
use crate::card::Card;
use crate::cards::Cards;
use crate::contract::{Bid, Class, Contract, Order, Reservation};
use crate::game::{Action, CurrentTrick, Genscher, Trick};
use crate::phase::{Phase, RedealReason};
use crate::record::{rules_from_json, rules_to_json};
use crate::seat::{Party, Seat};
use crate::solo::SoloKind;
use crate::view::{PublicView, SeatView, SeenBid, SeenPoverty};

/// A token or a view that does not read: what is wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WireError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, WireError> {
    Err(WireError(msg.into()))
}

/// A bid's text: its record name, `:duty` after a compulsory solo (a
/// `bid:` token's argument).
pub fn bid_text(b: Bid) -> String {
    match b {
        Bid::Reserve(Reservation::Solo { duty: true, .. }) => format!("{}:duty", b.name()),
        _ => b.name(),
    }
}

/// Reads a bid's text ([`bid_text`]).
pub fn bid_of(text: &str) -> Result<Bid, WireError> {
    let (name, duty) = match text.strip_suffix(":duty") {
        Some(n) => (n, true),
        None => (text, false),
    };
    if duty && !name.starts_with("solo-") {
        return err(format!("only a solo is compulsory, not '{}'", crate::quote::quoted(name)));
    }
    Bid::from_name(name, duty).ok_or_else(|| WireError(format!("unknown bid '{}'", crate::quote::quoted(name))))
}

/// Cards as card codes joined by commas (empty for none).
pub fn cards_text(c: Cards) -> String {
    c.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
}

/// Reads cards written by [`cards_text`].
pub fn cards_of_text(text: &str) -> Result<Cards, WireError> {
    let mut out = Cards::EMPTY;
    for code in text.split(',').filter(|s| !s.is_empty()) {
        let c: Card = code.parse().map_err(|e: crate::card::ParseCardError| WireError(e.to_string()))?;
        if !out.insert(c) {
            return err(format!("{c} occurs more than twice"));
        }
    }
    Ok(out)
}

/// Reads a seat number, 0 to 3.
pub fn seat_of_text(text: &str) -> Result<Seat, WireError> {
    text.parse::<u64>()
        .ok()
        .and_then(Seat::try_new)
        .ok_or_else(|| WireError(format!("'{}' is not a seat 0 to 3", crate::quote::quoted(text))))
}

impl Action {
    /// The action as one protocol token: `bid:healthy`, `bid:solo-queens`
    /// (`bid:solo-queens:duty` for a compulsory solo), `give:CARDS`,
    /// `poverty:accept`, `poverty:decline`, `return:CARDS`, `play:CARD`,
    /// `announce:CALL`, `say:DECLARATION`, `genscher:SEAT`; CARDS are card
    /// codes joined by commas.
    pub fn token(&self) -> String {
        match self {
            Action::Bid(b) => format!("bid:{}", bid_text(*b)),
            Action::Give(c) => format!("give:{}", cards_text(*c)),
            Action::Answer(true) => "poverty:accept".into(),
            Action::Answer(false) => "poverty:decline".into(),
            Action::Return(c) => format!("return:{}", cards_text(*c)),
            Action::Play(c) => format!("play:{c}"),
            Action::Announce(c) => format!("announce:{}", c.name()),
            Action::Say(d) => format!("say:{}", d.name()),
            Action::Genscher(p) => format!("genscher:{}", p.index()),
        }
    }

    /// Reads a token written by [`Action::token`] (card codes and names
    /// in any case).
    pub fn from_token(token: &str) -> Result<Action, WireError> {
        let Some((verb, arg)) = token.split_once(':') else {
            return err(format!("'{}' is not an action (verb:argument)", crate::quote::quoted(token)));
        };
        Ok(match verb {
            "bid" => Action::Bid(bid_of(arg)?),
            "give" => Action::Give(cards_of_text(arg)?),
            "return" => Action::Return(cards_of_text(arg)?),
            "poverty" => match arg {
                "accept" => Action::Answer(true),
                "decline" => Action::Answer(false),
                _ => return err(format!("poverty:{} is neither accept nor decline", crate::quote::quoted(arg))),
            },
            "play" => Action::Play(arg.parse().map_err(|e: crate::card::ParseCardError| WireError(e.to_string()))?),
            "announce" => {
                Action::Announce(arg.parse().map_err(|e: crate::announce::ParseCallError| WireError(e.to_string()))?)
            }
            "say" => Action::Say(
                Declaration::from_name(arg)
                    .ok_or_else(|| WireError(format!("unknown declaration '{}'", crate::quote::quoted(arg))))?,
            ),
            "genscher" => Action::Genscher(seat_of_text(arg)?),
            _ => return err(format!("unknown action '{}'", crate::quote::quoted(verb))),
        })
    }
}

/// The phase's protocol name: `bidding`, `poverty-give`, `poverty-offer`,
/// `poverty-return`, `playing`, `sow-choice`, `finished`,
/// `redeal:throw-in`, `redeal:poverty-declined`.
pub fn phase_token(p: Phase) -> String {
    match p {
        Phase::Bidding => "bidding".into(),
        Phase::PovertyGive => "poverty-give".into(),
        Phase::PovertyOffer => "poverty-offer".into(),
        Phase::PovertyReturn => "poverty-return".into(),
        Phase::Playing => "playing".into(),
        Phase::SowChoice => "sow-choice".into(),
        Phase::Finished => "finished".into(),
        Phase::Redeal(r) => format!("redeal:{}", r.name()),
    }
}

fn phase_of(text: &str) -> Result<Phase, WireError> {
    let all = [
        Phase::Bidding,
        Phase::PovertyGive,
        Phase::PovertyOffer,
        Phase::PovertyReturn,
        Phase::Playing,
        Phase::SowChoice,
        Phase::Finished,
        Phase::Redeal(RedealReason::ThrowIn),
        Phase::Redeal(RedealReason::PovertyDeclined),
    ];
    all.into_iter()
        .find(|p| phase_token(*p) == text)
        .ok_or_else(|| WireError(format!("unknown phase '{}'", crate::quote::quoted(text))))
}

/// Reads a contract's record name ([`Contract::name`]).
pub fn contract_of(text: &str) -> Result<Contract, WireError> {
    let mut all =
        vec![Contract::Normal, Contract::Wedding, Contract::SilentSolo, Contract::Poverty, Contract::BlackSow(None)];
    for k in SoloKind::ALL {
        all.push(Contract::Solo(k));
        all.push(Contract::BlackSow(Some(k)));
    }
    all.into_iter()
        .find(|c| c.name() == text)
        .ok_or_else(|| WireError(format!("unknown contract '{}'", crate::quote::quoted(text))))
}

/// Reads `re` or `kontra`.
pub fn party_of(text: &str) -> Result<Party, WireError> {
    match text {
        "re" => Ok(Party::Re),
        "kontra" => Ok(Party::Kontra),
        _ => err(format!("'{}' is neither re nor kontra", crate::quote::quoted(text))),
    }
}

const CLASSES: [Class; 5] = [Class::Trump, Class::Clubs, Class::Spades, Class::Hearts, Class::Diamonds];

fn order_json(o: &Order) -> Value {
    let (class, power) = o.table();
    let mut cards = Map::new();
    for i in 0..24 {
        cards.insert(Card::from_index(i).to_string(), json!([class[i].name(), power[i]]));
    }
    json!({"dulle": o.has_dulle(), "cards": cards})
}

fn cards_json(c: Cards) -> Value {
    Value::Array(c.iter().map(|c| Value::String(c.to_string())).collect())
}

fn seat_json(s: Option<Seat>) -> Value {
    s.map_or(Value::Null, |s| s.index().into())
}

impl SeatView {
    /// The view as the seat protocol's JSON object (`docs/seat-protocol.md`,
    /// "The view"); [`SeatView::from_json`] reads it back to an equal view.
    pub fn to_json(&self) -> Value {
        let p = &self.public;
        let bids: Vec<Value> = p
            .bids
            .iter()
            .map(|b| match b {
                None => Value::Null,
                Some(SeenBid::Healthy) => "healthy".into(),
                Some(SeenBid::Reserved) => "reserved".into(),
                Some(SeenBid::Decided(r)) => bid_text(Bid::Reserve(*r)).into(),
            })
            .collect();
        let tricks: Vec<Value> = p
            .tricks
            .iter()
            .map(|t| {
                json!({"leader": t.leader.index(), "cards": t.cards.map(|c| c.to_string()),
                       "winner": t.winner.index(), "points": t.points})
            })
            .collect();
        let anns: Vec<Value> = p
            .announcements
            .iter()
            .map(|a| {
                json!({"seat": a.seat.index(), "party": a.party.name(), "call": Call::of(a.level, a.party).name(),
                       "cards_in_hand": a.cards_in_hand, "after_plays": a.after_plays})
            })
            .collect();
        let said: Vec<Value> = p
            .said
            .iter()
            .map(|s| {
                json!({"seat": s.seat.index(), "what": s.what.name(), "after_plays": s.after_plays,
                       "after_anns": s.after_anns})
            })
            .collect();
        let public = json!({
            "rules": rules_to_json(&p.rules),
            "dealer": p.dealer.index(),
            "phase": phase_token(p.phase),
            "to_act": seat_json(p.to_act),
            "bids": bids,
            "contract": p.contract.map_or(Value::Null, |c| c.name().into()),
            "declarer": seat_json(p.declarer),
            "poverty": p.poverty.map_or(Value::Null, |pv| json!({
                "pauper": pv.pauper.index(), "given": pv.given, "declined": pv.declined,
                "acceptor": seat_json(pv.acceptor), "returned": pv.returned})),
            "tricks": tricks,
            "trick": {"leader": p.trick.leader.index(), "cards": p.trick.played().iter().map(|c| c.to_string()).collect::<Vec<_>>()},
            "announcements": anns,
            "said": said,
            "genscher": p.genscher.map_or(Value::Null, |g| json!({
                "seat": g.seat.index(), "partner": g.partner.index(), "at_play": g.at_play})),
            "parties": p.parties.map(|x| x.map_or(Value::Null, |x| x.name().into())),
            "hand_sizes": p.hand_sizes,
            "mandatory": seat_json(p.mandatory),
            "clarified": p.clarified,
            "order": order_json(&p.order),
        });
        json!({
            "seat": self.seat.index(),
            "hand": cards_json(self.hand),
            "own_bid": self.own_bid.map_or(Value::Null, |b| bid_text(b).into()),
            "own_party": self.own_party.map_or(Value::Null, |x| x.name().into()),
            "poverty_cards": self.poverty_cards.map_or(Value::Null, |(g, r)| json!({
                "given": cards_json(g), "returned": cards_json(r)})),
            "order": order_json(&self.order),
            "legal": self.legal.iter().map(|a| a.token()).collect::<Vec<_>>(),
            "public": public,
        })
    }

    /// Reads a view written by [`SeatView::to_json`]. Checks the form of
    /// every field, not whether the view could come from a deal.
    pub fn from_json(v: &Value) -> Result<SeatView, WireError> {
        let o = Obj::of(v, "the view")?;
        let public = public_view_of(&Obj::of(o.get("public")?, "public")?)?;
        let poverty_cards = match o.get("poverty_cards")? {
            Value::Null => None,
            x => {
                let x = Obj::of(x, "poverty_cards")?;
                Some((x.cards("given")?, x.cards("returned")?))
            }
        };
        let mut legal = Vec::new();
        for t in o.list("legal")? {
            let Value::String(t) = t else { return err("legal: tokens") };
            legal.push(Action::from_token(t)?);
        }
        Ok(SeatView {
            seat: o.seat("seat")?,
            hand: o.cards("hand")?,
            own_bid: match o.get("own_bid")? {
                Value::Null => None,
                Value::String(s) => Some(bid_of(s)?),
                _ => return err("own_bid: a bid or null"),
            },
            own_party: match o.get("own_party")? {
                Value::Null => None,
                Value::String(s) => Some(party_of(s)?),
                _ => return err("own_party: re, kontra or null"),
            },
            poverty_cards,
            order: order_of(o.get("order")?)?,
            public,
            legal,
        })
    }
}

/// The view's `public` object, read back.
fn public_view_of(p: &Obj) -> Result<PublicView, WireError> {
    let seen = seen_bids_of(p)?;
    let poverty = match p.get("poverty")? {
        Value::Null => None,
        x => {
            let x = Obj::of(x, "poverty")?;
            Some(SeenPoverty {
                pauper: x.seat("pauper")?,
                given: x.num("given", 12)? as usize,
                declined: x.num("declined", 3)? as u8,
                acceptor: x.opt_seat("acceptor")?,
                returned: x.num("returned", 12)? as usize,
            })
        }
    };
    let tricks = tricks_of(p)?;
    let trick = current_trick_of(p)?;
    let announcements = announcements_of(p)?;
    let said = said_of(p)?;
    let genscher = match p.get("genscher")? {
        Value::Null => None,
        x => {
            let x = Obj::of(x, "genscher")?;
            Some(Genscher { seat: x.seat("seat")?, partner: x.seat("partner")?, at_play: x.num("at_play", 48)? as u8 })
        }
    };
    let parties_v = p.four("parties")?;
    let mut parties = [None; 4];
    for (i, x) in parties_v.iter().enumerate() {
        parties[i] = match x {
            Value::Null => None,
            Value::String(s) => Some(party_of(s)?),
            _ => return err("parties: re, kontra or null"),
        };
    }
    let sizes = p.four("hand_sizes")?;
    let mut hand_sizes = [0usize; 4];
    for (i, x) in sizes.iter().enumerate() {
        hand_sizes[i] =
            x.as_u64().filter(|n| *n <= 24).ok_or_else(|| WireError("hand_sizes: numbers".into()))? as usize;
    }
    Ok(PublicView {
        rules: rules_from_json(Some(p.get("rules")?)).map_err(|e| WireError(e.to_string()))?,
        dealer: p.seat("dealer")?,
        phase: phase_of(p.str("phase")?)?,
        to_act: p.opt_seat("to_act")?,
        bids: seen,
        contract: match p.get("contract")? {
            Value::Null => None,
            Value::String(s) => Some(contract_of(s)?),
            _ => return err("contract: a name or null"),
        },
        declarer: p.opt_seat("declarer")?,
        poverty,
        tricks,
        trick,
        announcements,
        said,
        genscher,
        parties,
        hand_sizes,
        mandatory: p.opt_seat("mandatory")?,
        clarified: p.bool("clarified")?,
        order: order_of(p.get("order")?)?,
    })
}

/// The public view's `bids`: one per seat, a bid as the table sees it.
fn seen_bids_of(p: &Obj) -> Result<[Option<SeenBid>; 4], WireError> {
    let bids = p.four("bids")?;
    let mut seen = [None; 4];
    for (i, b) in bids.iter().enumerate() {
        seen[i] = match b {
            Value::Null => None,
            Value::String(s) if s == "healthy" => Some(SeenBid::Healthy),
            Value::String(s) if s == "reserved" => Some(SeenBid::Reserved),
            Value::String(s) => match bid_of(s)? {
                Bid::Reserve(r) => Some(SeenBid::Decided(r)),
                Bid::Healthy => return err("bids: healthy is not a reservation"),
            },
            _ => return err("bids: a bid is a name or null"),
        };
    }
    Ok(seen)
}

/// The public view's completed `tricks`.
fn tricks_of(p: &Obj) -> Result<Vec<Trick>, WireError> {
    let mut tricks = Vec::new();
    for t in p.list("tricks")? {
        let t = Obj::of(t, "a trick")?;
        let cards = t.card_list("cards")?;
        let cards: [Card; 4] = cards.try_into().map_err(|_| WireError("a trick has four cards".into()))?;
        tricks.push(Trick {
            leader: t.seat("leader")?,
            cards,
            winner: t.seat("winner")?,
            points: t.num("points", 120)? as u8,
        });
    }
    if tricks.len() > 12 {
        return err("tricks: at most 12");
    }
    Ok(tricks)
}

/// The public view's `trick` being played.
fn current_trick_of(p: &Obj) -> Result<CurrentTrick, WireError> {
    let tr = Obj::of(p.get("trick")?, "trick")?;
    let played = tr.card_list("cards")?;
    if played.len() > 3 {
        return err("trick: at most three cards before it is complete");
    }
    let mut trick = CurrentTrick { leader: tr.seat("leader")?, cards: [Card::CQ; 4], len: played.len() as u8 };
    trick.cards[..played.len()].copy_from_slice(&played);
    Ok(trick)
}

/// The public view's `announcements`.
fn announcements_of(p: &Obj) -> Result<Vec<Announcement>, WireError> {
    let mut announcements = Vec::new();
    for a in p.list("announcements")? {
        let a = Obj::of(a, "an announcement")?;
        let call: Call =
            a.str("call")?.parse().map_err(|e: crate::announce::ParseCallError| WireError(e.to_string()))?;
        announcements.push(Announcement {
            seat: a.seat("seat")?,
            party: party_of(a.str("party")?)?,
            level: call.level(),
            cards_in_hand: a.num("cards_in_hand", 12)? as u8,
            after_plays: a.num("after_plays", 48)? as u8,
        });
    }
    Ok(announcements)
}

/// The public view's `said` declarations.
fn said_of(p: &Obj) -> Result<Vec<Said>, WireError> {
    let mut said = Vec::new();
    for s in p.list("said")? {
        let s = Obj::of(s, "a declaration")?;
        let what = s.str("what")?;
        said.push(Said {
            seat: s.seat("seat")?,
            what: Declaration::from_name(what)
                .ok_or_else(|| WireError(format!("unknown declaration '{}'", crate::quote::quoted(what))))?,
            after_plays: s.num("after_plays", 48)? as u8,
            after_anns: s.num("after_anns", 255)? as u8,
        });
    }
    Ok(said)
}

fn order_of(v: &Value) -> Result<Order, WireError> {
    let o = Obj::of(v, "order")?;
    let cards = Obj::of(o.get("cards")?, "order cards")?;
    let mut class = [Class::Trump; 24];
    let mut power = [0u8; 24];
    for i in 0..24 {
        let code = Card::from_index(i).to_string();
        let Value::Array(pair) = cards.get(&code)? else { return err(format!("order: {code} needs [class, power]")) };
        let (Some(Value::String(cl)), Some(pw)) = (pair.first(), pair.get(1)) else {
            return err(format!("order: {code} needs [class, power]"));
        };
        class[i] = CLASSES
            .into_iter()
            .find(|c| c.name() == cl)
            .ok_or_else(|| WireError(format!("order: unknown class '{}'", crate::quote::quoted(cl))))?;
        power[i] = pw
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| WireError(format!("order: {code}'s power is 0 to 255")))?;
    }
    Ok(Order::from_table(class, power, o.bool("dulle")?))
}

/// A JSON object being read, with its name for messages.
struct Obj<'a>(&'a Map<String, Value>, &'static str);

impl<'a> Obj<'a> {
    fn of(v: &'a Value, what: &'static str) -> Result<Obj<'a>, WireError> {
        match v {
            Value::Object(m) => Ok(Obj(m, what)),
            _ => err(format!("{what} must be an object")),
        }
    }
    fn get(&self, k: &str) -> Result<&'a Value, WireError> {
        self.0.get(k).ok_or_else(|| WireError(format!("{}: missing {k}", self.1)))
    }
    fn list(&self, k: &str) -> Result<&'a Vec<Value>, WireError> {
        match self.get(k)? {
            Value::Array(a) => Ok(a),
            _ => err(format!("{}: {k} must be a list", self.1)),
        }
    }
    /// A list of one entry per seat.
    fn four(&self, k: &str) -> Result<&'a Vec<Value>, WireError> {
        let l = self.list(k)?;
        if l.len() != 4 {
            return err(format!("{}: {k} needs four entries, one per seat", self.1));
        }
        Ok(l)
    }
    fn str(&self, k: &str) -> Result<&'a str, WireError> {
        match self.get(k)? {
            Value::String(s) => Ok(s),
            _ => err(format!("{}: {k} must be a text", self.1)),
        }
    }
    fn bool(&self, k: &str) -> Result<bool, WireError> {
        self.get(k)?.as_bool().ok_or_else(|| WireError(format!("{}: {k} must be true or false", self.1)))
    }
    fn num(&self, k: &str, max: u64) -> Result<u64, WireError> {
        self.get(k)?
            .as_u64()
            .filter(|n| *n <= max)
            .ok_or_else(|| WireError(format!("{}: {k} must be a number 0 to {max}", self.1)))
    }
    fn seat(&self, k: &str) -> Result<Seat, WireError> {
        Ok(Seat::new(self.num(k, 3)? as usize))
    }
    fn opt_seat(&self, k: &str) -> Result<Option<Seat>, WireError> {
        match self.get(k)? {
            Value::Null => Ok(None),
            _ => self.seat(k).map(Some),
        }
    }
    fn card_list(&self, k: &str) -> Result<Vec<Card>, WireError> {
        self.list(k)?
            .iter()
            .map(|c| match c {
                Value::String(s) => s.parse().map_err(|e: crate::card::ParseCardError| WireError(e.to_string())),
                _ => err(format!("{}: {k} holds card codes", self.1)),
            })
            .collect()
    }
    fn cards(&self, k: &str) -> Result<Cards, WireError> {
        let mut out = Cards::EMPTY;
        for c in self.card_list(k)? {
            if !out.insert(c) {
                return err(format!("{}: {k} holds {c} more than twice", self.1));
            }
        }
        Ok(out)
    }
}
