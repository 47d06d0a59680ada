//! Fuzzing the record reader and the engine with arbitrary input.
//!
//! (a) `arbitrary_text_never_panics*`: arbitrary bytes, strings, JSON-like
//!     token soup and arbitrary JSON values go to `record::replay_str`.
//! (b) `mutated_records_fail_cleanly`: valid records of random games,
//!     mutated at random (actions deleted, duplicated, swapped; cards,
//!     seats, bids, rules changed; unknown fields; values replaced),
//!     go to `Record::from_value` + `replay`.
//! (c) `arbitrary_actions_never_panic_and_errors_change_nothing`: random
//!     sequences of arbitrary actions applied to a dealt game.
//!
//! Nothing may panic. Every error message is one line starting with
//! `record: ` or `action <n>: `, and an error leaves the game unchanged.

use doko_engine::record::replay_str;
use doko_engine::{
    Action, Bid, Call, Card, Cards, Game, KEYS, Phase, Preset, Record, RecordError, ReplayResult, Reservation, Rng,
    Rules, Seat, SoloKind, random_game,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value, json};

type TestResult = Result<(), TestCaseError>;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------
// Rules and games
// ---------------------------------------------------------------------

const HOUSE: &[&[(&str, &str)]] = &[
    &[],
    &[("dulle", "second-wins")],
    &[("wedding", "first-fail")],
    &[("wedding", "first-trump")],
    &[("mandatory_announcement", "30")],
    &[("re_kontra", "doubles")],
    &[("throw_in_nines", "5"), ("throw_in_kings", "5")],
    &[("poverty", "on"), ("poverty_max_trumps", "5")],
    &[("piglets", "on"), ("superpiglets", "on")],
    &[("solos", "none"), ("extra_points", "none"), ("compulsory_solos", "0")],
];

/// A rule set from a number: preset, nines, one house-rule variation.
fn rules_of(i: usize) -> Rules {
    let preset = if i & 1 == 0 { Preset::Ddv } else { Preset::Casual };
    let mut r = Rules::preset(preset);
    r.nines = i & 2 == 0;
    for (k, v) in HOUSE[(i >> 2) % HOUSE.len()] {
        r.set(k, v).expect("valid house rule");
    }
    r
}

/// A random finished or void game: the library's random game, or one with
/// more reservations and announcements.
fn game_of(rules: &Rules, rng: &mut Rng) -> Game {
    if rng.below(2) == 0 {
        return random_game(rules, rng);
    }
    let mut g = Game::deal(*rules, Seat::ALL[rng.below(4)], rng.next_u64());
    while let Some(s) = g.to_act() {
        let (seat, a) = legal_step(&g, s, rng);
        g.act(seat, a).expect("legal");
    }
    g
}

/// A random legal step of the seat on turn (or an announcement by anyone).
fn legal_step(g: &Game, s: Seat, rng: &mut Rng) -> (Seat, Action) {
    if g.phase() == Phase::Playing && rng.below(6) == 0 {
        let t = Seat::ALL[rng.below(4)];
        let calls = g.legal_calls(t);
        if !calls.is_empty() {
            return (t, Action::Announce(calls[rng.below(calls.len())]));
        }
    }
    if g.phase() == Phase::Bidding && rng.below(3) != 0 {
        return (s, Action::Bid(Bid::Healthy));
    }
    let acts = g.legal_actions(s);
    assert!(!acts.is_empty(), "seat {s} on turn without a legal action");
    // cards rather than calls when on turn in play
    let cards: Vec<Action> = acts.iter().copied().filter(|a| matches!(a, Action::Play(_))).collect();
    if !cards.is_empty() && rng.below(8) != 0 {
        return (s, cards[rng.below(cards.len())]);
    }
    (s, acts[rng.below(acts.len())])
}

// ---------------------------------------------------------------------
// Error messages
// ---------------------------------------------------------------------

/// An error message is one line, `record: ...` or `action <n>: ...` with
/// `n` an index into the actions (when their number is known).
fn check_message(e: &RecordError, n_actions: Option<usize>) -> TestResult {
    let msg = e.to_string();
    prop_assert!(!msg.contains('\n') && !msg.contains('\r'), "message is not one line: {:?}", msg);
    match e {
        RecordError::Record(_) => {
            let rest = msg.strip_prefix("record: ");
            prop_assert!(rest.is_some_and(|r| !r.trim().is_empty()), "bad record message: {:?}", msg);
        }
        RecordError::Refused { index, .. } | RecordError::Malformed { index, .. } => {
            let prefix = format!("action {index}: ");
            prop_assert!(msg.starts_with(&prefix), "bad action message: {:?}", msg);
            prop_assert!(!msg[prefix.len()..].trim().is_empty(), "empty action message: {:?}", msg);
            if let Some(n) = n_actions {
                prop_assert!(*index < n, "action index {} of {} actions: {:?}", index, n, msg);
            }
        }
    }
    // and the same by text only
    let ok = if let Some(rest) = msg.strip_prefix("record: ") {
        !rest.is_empty()
    } else if let Some(rest) = msg.strip_prefix("action ") {
        rest.split_once(": ").is_some_and(|(n, tail)| {
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
                && (n == "0" || !n.starts_with('0'))
                && !tail.is_empty()
        })
    } else {
        false
    };
    prop_assert!(ok, "message does not start with 'record: ' or 'action <n>: ': {:?}", msg);
    Ok(())
}

/// Replays text; an error must be a proper message; a result must render.
fn replay_text(text: &str) -> TestResult {
    let n_actions =
        serde_json::from_str::<Value>(text).ok().and_then(|v| v.get("actions").and_then(Value::as_array).map(Vec::len));
    match replay_str(text) {
        Ok(r) => {
            let _ = r.to_json();
            let _ = r.to_text();
            prop_assert!(r.game.is_over());
        }
        Err(e) => check_message(&e, n_actions)?,
    }
    Ok(())
}

// ---------------------------------------------------------------------
// (a) arbitrary text
// ---------------------------------------------------------------------

/// Words a record is made of, and some that are almost right.
const WORDS: &[&str] = &[
    "doko-record/1",
    "doko-record/2",
    "DOKO-RECORD/1",
    "ddv",
    "casual",
    "Casual",
    "tournament",
    "CQ",
    "cq",
    "H10",
    "HT",
    "DA",
    "C9",
    "D9",
    "SK",
    "X7",
    "C",
    "CQQ",
    "",
    " ",
    "healthy",
    "wedding",
    "poverty",
    "throw-in",
    "solo-queens",
    "solo-kings",
    "solo-",
    "solo",
    "accept",
    "decline",
    "re",
    "kontra",
    "no90",
    "no60",
    "no30",
    "schwarz",
    "seat",
    "play",
    "announce",
    "give",
    "return",
    "bid",
    "duty",
    "format",
    "rules",
    "dealer",
    "hands",
    "bids",
    "actions",
    "preset",
    "nines",
    "dulle",
    "second-wins",
    "solos",
    "on",
    "off",
    "true",
    "5",
    "-1",
    "none",
    "\u{0}",
    "é",
    "\u{1F0A1}",
    "\u{202E}",
];

/// Field names (including wrong ones) for generated objects.
const FIELDS: &[&str] = &[
    "format",
    "rules",
    "dealer",
    "hands",
    "bids",
    "actions",
    "seat",
    "play",
    "announce",
    "give",
    "poverty",
    "return",
    "bid",
    "duty",
    "preset",
    "nines",
    "dulle",
    "solos",
    "poverty_max_trumps",
    "throw_in_nines",
    "extra_points",
    "turn_timeout",
    "unknown",
    "",
    "Seat",
];

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..100).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        prop::sample::select(vec![0.5f64, -0.0, 1.0, 3.0, 1e300, -1e-300, f64::MAX]).prop_map(|f| json!(f)),
        prop::sample::select(WORDS).prop_map(|s| Value::String(s.to_string())),
        "\\PC{0,6}".prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 48, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(FIELDS), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

/// An object with the right format and random other fields: gets past the
/// first checks of the reader.
fn record_like() -> impl Strategy<Value = Value> {
    (
        prop::option::of(json_value()),
        prop::option::of(json_value()),
        prop::option::of(json_value()),
        prop::option::of(json_value()),
        prop::option::of(json_value()),
    )
        .prop_map(|(rules, dealer, hands, bids, actions)| {
            let mut m = Map::new();
            m.insert("format".into(), "doko-record/1".into());
            for (k, v) in [("rules", rules), ("dealer", dealer), ("hands", hands), ("bids", bids), ("actions", actions)]
            {
                if let Some(v) = v {
                    m.insert(k.into(), v);
                }
            }
            Value::Object(m)
        })
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"format\"",
    "\"doko-record/1\"",
    "\"rules\"",
    "\"ddv\"",
    "\"dealer\"",
    "0",
    "3",
    "-1",
    "1e999",
    "\"hands\"",
    "\"CQ\"",
    "\"actions\"",
    "\"seat\"",
    "\"play\"",
    "null",
    "true",
    "\"",
    "\\",
    "\"\\u",
    "\"\\ud800\"",
    " ",
    "\n",
];

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        replay_text(&String::from_utf8_lossy(&bytes))?;
        if let Ok(s) = std::str::from_utf8(&bytes) {
            replay_text(s)?;
        }
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        replay_text(&s)?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..60)) {
        replay_text(&tokens.concat())?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn arbitrary_json_never_panics(v in json_value()) {
        replay_text(&v.to_string())?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn record_like_json_never_panics(v in record_like()) {
        replay_text(&v.to_string())?;
        let n = v.get("actions").and_then(Value::as_array).map(Vec::len);
        match Record::from_value(&v) {
            Ok(r) => {
                if let Err(e) = r.replay() { check_message(&e, n)? }
            }
            Err(e) => check_message(&e, n)?,
        }
    }
}

#[test]
fn pathological_text_never_panics() {
    let deep_array = "[".repeat(100_000);
    let deep_object = "{\"a\":".repeat(50_000);
    let deep_actions = format!(
        "{{\"format\":\"doko-record/1\",\"hands\":[[],[],[],[]],\"actions\":{}1{}}}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let long_string = format!("{{\"format\":\"doko-record/1\",\"rules\":\"{}\"}}", "x".repeat(1_000_000));
    let many_actions = format!(
        "{{\"format\":\"doko-record/1\",\"dealer\":0,\"hands\":[[],[],[],[]],\"actions\":[{}]}}",
        vec!["{\"seat\":1,\"play\":\"CQ\"}"; 100_000].join(",")
    );
    for text in [
        "",
        "null",
        "[]",
        "{}",
        "\"doko-record/1\"",
        "{\"format\":\"doko-record/1\"}",
        "{\"format\":\"doko-record/1\",\"hands\":[[],[],[],[]]}",
        "{\"format\":\"doko-record/1\",\"dealer\":18446744073709551616}",
        "{\"format\":\"doko-record/1\",\"dealer\":-0}",
        "{\"format\":\"doko-record/1\",\"format\":\"doko-record/1\"}",
        "\u{feff}{\"format\":\"doko-record/1\"}",
        &deep_array,
        &deep_object,
        &deep_actions,
        &long_string,
        &many_actions,
    ] {
        let r = std::panic::catch_unwind(|| replay_text(text));
        match r {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("{e}\ninput starts {:?}", &text[..text.len().min(80)]),
            Err(_) => panic!("panicked on input starting {:?}", &text[..text.len().min(80)]),
        }
    }
}

// ---------------------------------------------------------------------
// (b) mutated records
// ---------------------------------------------------------------------

const CARD_CODES: &[&str] =
    &["CQ", "H10", "DA", "C9", "D9", "DK", "SA", "HJ", "cq", "hT", "X7", "C1", "", "CQQ", "♣Q", "10", "Q", "D10 "];
const BID_NAMES: &[&str] = &[
    "healthy",
    "wedding",
    "poverty",
    "throw-in",
    "solo-diamonds",
    "solo-hearts",
    "solo-spades",
    "solo-clubs",
    "solo-queens",
    "solo-jacks",
    "solo-aces",
    "solo-kings",
    "solo-",
    "solo-trumps",
    "Healthy",
    "HEALTHY",
    "vorbehalt",
    "",
];
const CALL_NAMES: &[&str] = &["re", "kontra", "no90", "no60", "no30", "schwarz", "RE", "no120", "keine 90", ""];
const RULE_VALUES: &[&str] = &[
    "true",
    "false",
    "on",
    "off",
    "yes",
    "0",
    "1",
    "2",
    "3",
    "5",
    "6",
    "8",
    "9",
    "30",
    "40",
    "41",
    "100",
    "101",
    "86400",
    "86401",
    "first-wins",
    "second-wins",
    "second-wins-except-last",
    "first-foreign",
    "first-fail",
    "first-trump",
    "plus-two",
    "doubles",
    "none",
    "diamonds hearts",
    "kings",
    "fox charlie",
    "fox karlchen",
    "",
    "ddv",
];

fn pick<'a, T>(rng: &mut Rng, v: &'a [T]) -> &'a T {
    &v[rng.below(v.len())]
}

/// A random JSON value of any kind (for replacing things).
fn random_value(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(-1),
        3 => json!(4),
        4 => json!(99),
        5 => json!(rng.next_u64()),
        6 => json!(1.5),
        7 => json!("x"),
        8 => Value::String(pick(rng, CARD_CODES).to_string()),
        9 => json!({}),
        10 => json!([]),
        _ => json!({"seat": 0, "play": "CQ", "extra": [1, 2]}),
    }
}

fn seat_value(rng: &mut Rng) -> Value {
    match rng.below(14) {
        0 => json!(-1),
        1 => json!(4),
        2 => json!(99),
        3 => json!("x"),
        4 => json!("1"),
        5 => Value::Null,
        6 => json!(2.0),
        7 => json!(u64::MAX),
        _ => json!(rng.below(4)),
    }
}

/// Every JSON pointer into a value.
fn pointers(v: &Value, here: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{here}/{i}"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                pointers(x, format!("{here}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        _ => {}
    }
    out.push(here);
}

/// The pointers of nodes matching a predicate.
fn nodes(v: &Value, pred: impl Fn(&Value) -> bool) -> Vec<String> {
    let mut all = Vec::new();
    pointers(v, String::new(), &mut all);
    all.into_iter().filter(|p| v.pointer(p).is_some_and(&pred)).collect()
}

fn actions_mut(v: &mut Value) -> Option<&mut Vec<Value>> {
    v.get_mut("actions").and_then(Value::as_array_mut)
}

/// How often each mutation of [`mutate`] is chosen: mostly the ones that
/// keep the record readable, so that the engine sees the result.
const WEIGHTS: [usize; 16] = [8, 6, 8, 2, 6, 4, 4, 1, 3, 1, 2, 2, 3, 1, 1, 2];

/// One random mutation; returns what it did.
fn mutate(v: &mut Value, rng: &mut Rng) -> String {
    let mut r = rng.below(WEIGHTS.iter().sum());
    let mut kind = 0;
    while r >= WEIGHTS[kind] {
        r -= WEIGHTS[kind];
        kind += 1;
    }
    match kind {
        0 => {
            let Some(a) = actions_mut(v) else { return "no actions".into() };
            if a.is_empty() {
                return "no actions".into();
            }
            let i = rng.below(a.len());
            a.remove(i);
            format!("delete action {i}")
        }
        1 => {
            let Some(a) = actions_mut(v) else { return "no actions".into() };
            if a.is_empty() {
                return "no actions".into();
            }
            let i = rng.below(a.len());
            let j = rng.below(a.len() + 1);
            let x = a[i].clone();
            a.insert(j, x);
            format!("duplicate action {i} at {j}")
        }
        2 => {
            let Some(a) = actions_mut(v) else { return "no actions".into() };
            if a.is_empty() {
                return "no actions".into();
            }
            let (i, j) = (rng.below(a.len()), rng.below(a.len()));
            a.swap(i, j);
            format!("swap actions {i} {j}")
        }
        3 => {
            // truncate a random array
            let ps = nodes(v, Value::is_array);
            if ps.is_empty() {
                return "no arrays".into();
            }
            let p = pick(rng, &ps).clone();
            let a = v.pointer_mut(&p).and_then(Value::as_array_mut).expect("array");
            let n = rng.below(a.len() + 1);
            a.truncate(n);
            format!("truncate {p} to {n}")
        }
        4 => {
            // change a card code (a play, or a card in a hand or exchange)
            let ps = nodes(v, |x| x.as_str().is_some_and(|s| s.parse::<Card>().is_ok()));
            if ps.is_empty() {
                return "no cards".into();
            }
            let p = pick(rng, &ps).clone();
            let code = if rng.below(3) == 0 {
                pick(rng, CARD_CODES).to_string()
            } else {
                Card::from_index(rng.below(24)).to_string()
            };
            *v.pointer_mut(&p).expect("node") = Value::String(code.clone());
            format!("card {p} = {code:?}")
        }
        5 => {
            // change a seat number or the dealer
            let mut ps: Vec<String> = nodes(v, |x| x.get("seat").is_some()).into_iter().map(|p| p + "/seat").collect();
            ps.push("/dealer".into());
            let p = pick(rng, &ps).clone();
            let s = seat_value(rng);
            if let Some(x) = v.pointer_mut(&p) {
                *x = s.clone();
            }
            format!("seat {p} = {s}")
        }
        6 => {
            // change a bid name or its duty
            let ps = nodes(v, |x| x.get("bid").is_some());
            if ps.is_empty() {
                return "no bids".into();
            }
            let p = pick(rng, &ps).clone();
            let x = v.pointer_mut(&p).and_then(Value::as_object_mut).expect("object");
            if rng.below(3) == 0 {
                let d = [json!(true), json!(false), json!("yes"), Value::Null][rng.below(4)].clone();
                x.insert("duty".into(), d.clone());
                format!("{p} duty = {d}")
            } else {
                let b = pick(rng, BID_NAMES).to_string();
                x.insert("bid".into(), Value::String(b.clone()));
                format!("{p} bid = {b:?}")
            }
        }
        7 => {
            // add an unknown field to a random object
            let ps = nodes(v, Value::is_object);
            if ps.is_empty() {
                return "no objects".into();
            }
            let p = pick(rng, &ps).clone();
            let name = ["extra", "comment", "Seat", "", "plays"][rng.below(5)];
            let val = random_value(rng);
            v.pointer_mut(&p).and_then(Value::as_object_mut).expect("object").insert(name.into(), val);
            format!("{p} + unknown field {name:?}")
        }
        8 => {
            // rules: a random key (or an unknown one) with a random value
            let key =
                if rng.below(8) == 0 { "colour".to_string() } else { KEYS[rng.below(KEYS.len())].name.to_string() };
            let val = match rng.below(6) {
                0 => Value::Null,
                1 => json!(rng.below(120)),
                2 => json!(rng.below(2) == 0),
                3 => json!([pick(rng, RULE_VALUES).to_string(), "kings"]),
                4 => json!({"x": 1}),
                _ => Value::String(pick(rng, RULE_VALUES).to_string()),
            };
            let m = v.as_object_mut().expect("record object");
            match m.get_mut("rules") {
                Some(Value::Object(r)) => {
                    r.insert(key.clone(), val.clone());
                }
                _ => {
                    let preset = ["ddv", "casual", "nope"][rng.below(3)];
                    m.insert("rules".into(), json!({"preset": preset, key.clone(): val.clone()}));
                }
            }
            format!("rules {key} = {val}")
        }
        9 => {
            // rules replaced as a whole
            let r = match rng.below(5) {
                0 => json!("casual"),
                1 => json!("DDV"),
                2 => json!("tournament"),
                3 => json!(7),
                _ => json!({"preset": random_value(rng)}),
            };
            v.as_object_mut().expect("record object").insert("rules".into(), r.clone());
            format!("rules = {r}")
        }
        10 => {
            // replace any node
            let ps = nodes(v, |_| true);
            let p = pick(rng, &ps).clone();
            if p.is_empty() {
                return "root kept".into();
            }
            let x = random_value(rng);
            *v.pointer_mut(&p).expect("node") = x.clone();
            format!("{p} = {x}")
        }
        11 => {
            // move a card from one hand to another
            let (a, b) = (rng.below(4), rng.below(4));
            let Some(hands) = v.get_mut("hands").and_then(Value::as_array_mut) else { return "no hands".into() };
            if hands.len() != 4 {
                return "no hands".into();
            }
            let Some(ha) = hands[a].as_array_mut() else { return "odd hand".into() };
            if ha.is_empty() {
                return "empty hand".into();
            }
            let c = ha.remove(rng.below(ha.len()));
            if let Some(hb) = hands[b].as_array_mut() {
                hb.push(c);
            }
            format!("card from hand {a} to {b}")
        }
        12 => {
            // change what an action does
            let ps = nodes(v, |x| x.get("seat").is_some() && x.get("bid").is_none());
            if ps.is_empty() {
                return "no actions".into();
            }
            let p = pick(rng, &ps).clone();
            let x = v.pointer_mut(&p).and_then(Value::as_object_mut).expect("object");
            let seat = x.get("seat").cloned().unwrap_or(json!(0));
            x.clear();
            x.insert("seat".into(), seat);
            let (k, val) = match rng.below(6) {
                0 => ("announce", Value::String(pick(rng, CALL_NAMES).to_string())),
                1 => ("poverty", json!(["accept", "decline", "maybe", ""][rng.below(4)])),
                2 => ("give", json!(["CQ", "DA", "D10"])),
                3 => ("return", json!(["SA", "SA", "SA"])),
                4 => ("play", json!(["CQ"])),
                _ => ("bid", json!("healthy")),
            };
            x.insert(k.into(), val.clone());
            if rng.below(6) == 0 {
                x.insert("play".into(), json!("CQ"));
            }
            format!("{p} = {k}: {val}")
        }
        13 => {
            // remove a field of a random object
            let ps = nodes(v, |x| x.as_object().is_some_and(|m| !m.is_empty()));
            if ps.is_empty() {
                return "no fields".into();
            }
            let p = pick(rng, &ps).clone();
            let m = v.pointer_mut(&p).and_then(Value::as_object_mut).expect("object");
            let k = m.keys().nth(rng.below(m.len())).expect("in range").clone();
            m.remove(&k);
            format!("{p} - field {k:?}")
        }
        14 => {
            let f = [json!("doko-record/2"), json!(1), Value::Null, json!("DOKO-RECORD/1")][rng.below(4)].clone();
            v.as_object_mut().expect("record object").insert("format".into(), f.clone());
            format!("format = {f}")
        }
        _ => {
            // shuffle a hand's cards into another seat's list, or a bid's order
            let Some(b) = v.get_mut("bids").and_then(Value::as_array_mut) else { return "no bids".into() };
            if b.len() < 2 {
                return "few bids".into();
            }
            let (i, j) = (rng.below(b.len()), rng.below(b.len()));
            b.swap(i, j);
            format!("swap bids {i} {j}")
        }
    }
}

fn check_mutated(v: &Value, what: &[String]) -> TestResult {
    let n = v.get("actions").and_then(Value::as_array).map(Vec::len);
    let by_value = Record::from_value(v).and_then(|r| r.replay());
    let by_text = replay_str(&v.to_string());
    match (&by_value, &by_text) {
        (Ok(g), Ok(r)) => {
            prop_assert!(g.is_over());
            prop_assert_eq!(ReplayResult::new(g.clone()).to_json(), r.to_json());
            let _ = r.to_text();
            // what replays is written and replayed again the same way
            let again =
                Record::from_game(g).replay().map_err(|e| TestCaseError::fail(format!("{e} after {what:?}")))?;
            prop_assert!(again == *g, "re-recorded game differs after {:?}", what);
        }
        (Err(a), Err(b)) => {
            prop_assert_eq!(a.to_string(), b.to_string(), "value and text readers disagree after {:?}", what);
            check_message(a, n).map_err(|e| TestCaseError::fail(format!("{e} after mutations {what:?}")))?;
        }
        _ => prop_assert!(
            false,
            "value and text readers disagree after {:?}: {:?} vs {:?}",
            what,
            by_value.err(),
            by_text.err()
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn mutated_records_fail_cleanly(v in 0usize..40, seed in any::<u64>(), n in 1usize..5) {
        let mut rng = Rng::new(seed);
        let g = game_of(&rules_of(v), &mut rng);
        let mut value = Record::from_game(&g).to_value();
        let mut what = Vec::new();
        for _ in 0..n {
            what.push(mutate(&mut value, &mut rng));
            if !value.is_object() {
                break;
            }
        }
        check_mutated(&value, &what)?;
    }
}

/// Control characters in the names a record echoes back (unknown fields,
/// card codes, bid names, rule keys and values) must not break the
/// one-line message. (Kept apart from the random mutations so that those
/// keep running while this one is known to fail; see
/// /work/notes/engine-bugs.md.)
#[test]
fn messages_stay_one_line_with_control_characters() {
    let mut rng = Rng::new(7);
    let g = game_of(&Rules::preset(Preset::Ddv), &mut rng);
    let base = Record::from_game(&g).to_value();
    let mut failures = Vec::new();
    const BAD: &str = "a\nb\rc";
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "unknown top-level field",
            Box::new(|v| {
                v.as_object_mut().unwrap().insert(BAD.into(), json!(1));
            }),
        ),
        (
            "unknown action field",
            Box::new(|v| {
                v["actions"][0].as_object_mut().unwrap().insert(BAD.into(), json!(1));
            }),
        ),
        ("card code in a play", Box::new(|v| v["actions"][0]["play"] = json!(BAD))),
        ("card code in a hand", Box::new(|v| v["hands"][0][0] = json!(BAD))),
        ("call name", Box::new(|v| v["actions"][0] = json!({"seat": 0, "announce": BAD}))),
        ("poverty answer", Box::new(|v| v["actions"][0] = json!({"seat": 0, "poverty": BAD}))),
        ("bid name", Box::new(|v| v["bids"][0]["bid"] = json!(BAD))),
        ("rule key", Box::new(|v| v["rules"] = json!({"preset": "ddv", BAD: 1}))),
        ("rule value", Box::new(|v| v["rules"] = json!({"preset": "ddv", "dulle": BAD}))),
        ("preset name", Box::new(|v| v["rules"] = json!(BAD))),
        ("format", Box::new(|v| v["format"] = json!(BAD))),
        ("seat", Box::new(|v| v["dealer"] = json!(BAD))),
    ];
    for (what, edit) in &edits {
        let mut v = base.clone();
        edit(&mut v);
        let e = Record::from_value(&v).and_then(|r| r.replay()).expect_err(what);
        let msg = e.to_string();
        if msg.contains(['\n', '\r']) {
            failures.push(format!("{what}: {msg:?}"));
        }
    }
    assert!(failures.is_empty(), "messages with line breaks:\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------
// (c) arbitrary actions on a game
// ---------------------------------------------------------------------

fn arbitrary_action(g: &Game, rng: &mut Rng) -> (Seat, Action) {
    let seat = Seat::ALL[rng.below(4)];
    let cards = |rng: &mut Rng| -> Cards {
        match rng.below(4) {
            0 => Cards::from_bits(rng.next_u64()),
            1 => Cards::from_bits(rng.next_u64() & rng.next_u64() & rng.next_u64()),
            _ => {
                // a few cards of the seat's hand, sometimes with a stranger
                let mut pool: Vec<Card> = g.hand(seat).iter().collect();
                let mut out = Cards::EMPTY;
                let k = g.poverty_count() + rng.below(3) - 1;
                for _ in 0..k.min(pool.len()) {
                    out.insert(pool.swap_remove(rng.below(pool.len())));
                }
                if rng.below(4) == 0 {
                    out.insert(Card::from_index(rng.below(24)));
                }
                out
            }
        }
    };
    let a = match rng.below(6) {
        0 => Action::Bid(match rng.below(5) {
            0 => Bid::Healthy,
            1 => Bid::Reserve(Reservation::Wedding(None)),
            2 => Bid::Reserve(Reservation::Poverty),
            3 => Bid::Reserve(Reservation::ThrowIn),
            _ => Bid::Reserve(Reservation::Solo { kind: SoloKind::ALL[rng.below(8)], duty: rng.below(2) == 0 }),
        }),
        1 => Action::Give(cards(rng)),
        2 => Action::Answer(rng.below(2) == 0),
        3 => Action::Return(cards(rng)),
        4 => Action::Play(Card::from_index(rng.below(24))),
        _ => Action::Announce(Call::ALL[rng.below(6)]),
    };
    (seat, a)
}

fn touch_everything(g: &Game) {
    let _ = g.score();
    let _ = g.public_view();
    for s in Seat::ALL {
        let _ = g.view(s);
        let _ = g.legal_actions(s);
        let _ = g.legal_cards(s);
    }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn arbitrary_actions_never_panic_and_errors_change_nothing(v in 0usize..40, seed in any::<u64>()) {
        let rules = rules_of(v);
        let mut rng = Rng::new(seed);
        let mut g = Game::deal(rules, Seat::ALL[rng.below(4)], rng.next_u64());
        let mut accepted = 0;
        for step in 0..400 {
            let (s, a) = if rng.below(3) == 0 {
                match g.to_act() {
                    Some(t) => legal_step(&g, t, &mut rng),
                    None => arbitrary_action(&g, &mut rng),
                }
            } else {
                arbitrary_action(&g, &mut rng)
            };
            let legal = g.legal_actions(s).contains(&a);
            let before = g.clone();
            match g.act(s, a) {
                Ok(()) => {
                    prop_assert!(legal, "step {}: unlisted {:?} by {} accepted\n{:?}", step, a, s, before);
                    accepted += 1;
                }
                Err(e) => {
                    prop_assert!(!legal, "step {}: listed {:?} by {} refused: {}", step, a, s, e);
                    prop_assert!(g == before, "step {}: refused {:?} by {} changed the game", step, a, s);
                    let msg = e.to_string();
                    prop_assert!(!msg.is_empty() && !msg.contains('\n'), "error message {:?}", msg);
                }
            }
            touch_everything(&g);
        }
        prop_assert!(accepted > 0);
        if g.is_over() {
            let again = Record::from_game(&g).replay().map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(again == g);
        }
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// Hands that are not a deal are refused, never a panic.
    #[test]
    fn arbitrary_hands_are_refused_cleanly(
        v in 0usize..40,
        bits in any::<[u64; 4]>(),
        dealer in 0usize..4,
        take in 0usize..4,
    ) {
        let rules = rules_of(v);
        let mut hands = bits.map(Cards::from_bits);
        // sometimes a real deal with one card moved
        if take > 0 {
            hands = doko_engine::deal(bits[0], rules.nines);
            let c = hands[take].iter().next().expect("cards");
            hands[take].remove(c);
            hands[0].insert(c);
        }
        let r = Game::new(rules, Seat::ALL[dealer], hands);
        prop_assert!(r.is_err(), "hands {:?} accepted", hands);
        let msg = r.unwrap_err().to_string();
        prop_assert!(!msg.contains('\n'));
    }
}

// ---------------------------------------------------------------------
// Any record survives JSON
// ---------------------------------------------------------------------

/// Valid values per rule key (by `Rules::set`), for random rule sets.
fn rule_values(key: &str) -> &'static [&'static str] {
    match key {
        "nines" | "soloist_leads" => &["true", "false"],
        "dulle" => &["first-wins", "second-wins", "second-wins-except-last"],
        "solos" => &["none", "kings", "diamonds hearts spades clubs queens jacks aces kings", "aces queens"],
        "wedding" => &["first-foreign", "first-fail", "first-trump"],
        "poverty"
        | "piglets"
        | "superpiglets"
        | "bock"
        | "solo_double"
        | "announce_on_turn"
        | "poverty_fox_counts"
        | "poverty_return_trumps"
        | "dullen"
        | "mandatory_further"
        | "piglets_first_only"
        | "piglets_announce"
        | "half_chicken"
        | "genscher"
        | "black_sow"
        | "wedding_choose" => &["on", "off"],
        "piglets_when" => &["deal", "play"],
        "bock_stacking" => &["extend", "stack"],
        "solo_priority" => &["first", "last"],
        "re_deadline" => &["before-second-card", "before-first-card"],
        "throw_in_low_trumps" => &["off", "0", "3"],
        "throw_in_low_points" => &["off", "10", "60"],
        "bock_triggers" => &["none", "tie lost-re lost-kontra", "heart-trick lost-solo"],
        "poverty_max_trumps" => &["0", "3", "5"],
        "throw_in_nines" | "throw_in_kings" => &["off", "5", "8"],
        "re_kontra" => &["plus-two", "doubles"],
        "extra_points" => &[
            "none",
            "fox",
            "charlie-caught fox-last-trick doppelkopf",
            "lizzie-miller fox-first-trick dulle-caught heart-trick",
        ],
        "mandatory_announcement" => &["off", "30", "40"],
        "compulsory_solos" => &["0", "1", "2"],
        "games_per_session" => &["0", "24", "100"],
        "turn_timeout" => &["0", "60", "86400"],
        _ => &[],
    }
}

fn random_rules(rng: &mut Rng) -> Rules {
    let mut r = Rules::preset(if rng.below(2) == 0 { Preset::Ddv } else { Preset::Casual });
    for k in KEYS {
        let vals = rule_values(k.name);
        assert!(!vals.is_empty(), "no test values for rule {}", k.name);
        if rng.below(2) == 0 {
            r.set(k.name, vals[rng.below(vals.len())]).expect("valid value");
        }
    }
    r
}

fn random_bid(rng: &mut Rng) -> Bid {
    match rng.below(5) {
        0 => Bid::Healthy,
        1 => Bid::Reserve(Reservation::Wedding(None)),
        2 => Bid::Reserve(Reservation::Poverty),
        3 => Bid::Reserve(Reservation::ThrowIn),
        _ => Bid::Reserve(Reservation::Solo { kind: SoloKind::ALL[rng.below(8)], duty: rng.below(2) == 0 }),
    }
}

/// A record with random rules, hands, bids and actions of the kinds a
/// record's `actions` hold (everything but bids). Not necessarily one that
/// replays.
fn random_record(rng: &mut Rng) -> Record {
    let seat = |rng: &mut Rng| Seat::ALL[rng.below(4)];
    let bids = (rng.below(4) != 0).then(|| (0..rng.below(6)).map(|_| (seat(rng), random_bid(rng))).collect());
    let actions = (0..rng.below(20))
        .map(|_| {
            let a = match rng.below(5) {
                0 => Action::Give(Cards::from_bits(rng.next_u64())),
                1 => Action::Answer(rng.below(2) == 0),
                2 => Action::Return(Cards::from_bits(rng.next_u64() & rng.next_u64())),
                3 => Action::Play(Card::from_index(rng.below(24))),
                _ => Action::Announce(Call::ALL[rng.below(6)]),
            };
            (seat(rng), a)
        })
        .collect();
    Record {
        rules: random_rules(rng),
        dealer: seat(rng),
        hands: std::array::from_fn(|_| Cards::from_bits(rng.next_u64())),
        bids,
        actions,
        aborted: None,
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// `Record::from_json(r.to_json()) == r` for any record, whatever its
    /// rules (every key, both presets) and steps.
    #[test]
    fn arbitrary_records_round_trip_through_json(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let rec = random_record(&mut rng);
        let text = rec.to_json();
        let back = Record::from_json(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &rec);
        prop_assert_eq!(Record::from_value(&rec.to_value()).ok(), Some(rec.clone()));
        // and replaying it either works or fails with a proper message
        match rec.replay() {
            Ok(g) => prop_assert!(g.is_over()),
            Err(e) => check_message(&e, Some(rec.actions.len()))?,
        }
    }
}

/// A record holding a bid among its actions is written as
/// `{"seat": s, "bid": name}`, which the reader must read back (or the
/// writer must not write).
/// (Known to fail; see /work/notes/engine-bugs.md.)
#[test]
fn bid_actions_round_trip_through_json() {
    let mut rec = Record::from_game(&Game::deal(Rules::default(), Seat::ALL[0], 1));
    rec.actions.push((Seat::ALL[1], Action::Bid(Bid::Healthy)));
    let text = rec.to_json();
    match Record::from_json(&text) {
        Ok(back) => assert_eq!(back, rec),
        Err(e) => panic!("the writer writes what the reader refuses: {e}"),
    }
}
