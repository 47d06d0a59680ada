//! (b) Random mutations of valid records, and what a mutated record must
//! do: replay the same by value and by text, or fail the same way.

use doko_engine::record::replay_str;
use doko_engine::{Card, KEYS, Record, ReplayResult, Rng};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Value, json};

use crate::messages::{TestResult, check_message};

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
pub fn mutate(v: &mut Value, rng: &mut Rng) -> String {
    let mut r = rng.below(WEIGHTS.iter().sum());
    let mut kind = 0;
    while r >= WEIGHTS[kind] {
        r -= WEIGHTS[kind];
        kind += 1;
    }
    match kind {
        0 => delete_action(v, rng),
        1 => duplicate_action(v, rng),
        2 => swap_actions(v, rng),
        3 => truncate_array(v, rng),
        4 => change_card(v, rng),
        5 => change_seat(v, rng),
        6 => change_bid(v, rng),
        7 => add_unknown_field(v, rng),
        8 => change_rule(v, rng),
        9 => replace_rules(v, rng),
        10 => replace_node(v, rng),
        11 => move_card_between_hands(v, rng),
        12 => change_action(v, rng),
        13 => remove_field(v, rng),
        14 => change_format(v, rng),
        _ => swap_bids(v, rng),
    }
}

/// Delete a random action.
fn delete_action(v: &mut Value, rng: &mut Rng) -> String {
    let Some(a) = actions_mut(v) else { return "no actions".into() };
    if a.is_empty() {
        return "no actions".into();
    }
    let i = rng.below(a.len());
    a.remove(i);
    format!("delete action {i}")
}

/// Duplicate a random action somewhere.
fn duplicate_action(v: &mut Value, rng: &mut Rng) -> String {
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

/// Swap two actions.
fn swap_actions(v: &mut Value, rng: &mut Rng) -> String {
    let Some(a) = actions_mut(v) else { return "no actions".into() };
    if a.is_empty() {
        return "no actions".into();
    }
    let (i, j) = (rng.below(a.len()), rng.below(a.len()));
    a.swap(i, j);
    format!("swap actions {i} {j}")
}

/// Truncate a random array.
fn truncate_array(v: &mut Value, rng: &mut Rng) -> String {
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

/// Change a card code (a play, or a card in a hand or exchange).
fn change_card(v: &mut Value, rng: &mut Rng) -> String {
    let ps = nodes(v, |x| x.as_str().is_some_and(|s| s.parse::<Card>().is_ok()));
    if ps.is_empty() {
        return "no cards".into();
    }
    let p = pick(rng, &ps).clone();
    let code =
        if rng.below(3) == 0 { pick(rng, CARD_CODES).to_string() } else { Card::from_index(rng.below(24)).to_string() };
    *v.pointer_mut(&p).expect("node") = Value::String(code.clone());
    format!("card {p} = {code:?}")
}

/// Change a seat number or the dealer.
fn change_seat(v: &mut Value, rng: &mut Rng) -> String {
    let mut ps: Vec<String> = nodes(v, |x| x.get("seat").is_some()).into_iter().map(|p| p + "/seat").collect();
    ps.push("/dealer".into());
    let p = pick(rng, &ps).clone();
    let s = seat_value(rng);
    if let Some(x) = v.pointer_mut(&p) {
        *x = s.clone();
    }
    format!("seat {p} = {s}")
}

/// Change a bid name or its duty.
fn change_bid(v: &mut Value, rng: &mut Rng) -> String {
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

/// Add an unknown field to a random object.
fn add_unknown_field(v: &mut Value, rng: &mut Rng) -> String {
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

/// Rules: a random key (or an unknown one) with a random value.
fn change_rule(v: &mut Value, rng: &mut Rng) -> String {
    let key = if rng.below(8) == 0 { "colour".to_string() } else { KEYS[rng.below(KEYS.len())].name.to_string() };
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

/// Rules replaced as a whole.
fn replace_rules(v: &mut Value, rng: &mut Rng) -> String {
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

/// Replace any node.
fn replace_node(v: &mut Value, rng: &mut Rng) -> String {
    let ps = nodes(v, |_| true);
    let p = pick(rng, &ps).clone();
    if p.is_empty() {
        return "root kept".into();
    }
    let x = random_value(rng);
    *v.pointer_mut(&p).expect("node") = x.clone();
    format!("{p} = {x}")
}

/// Move a card from one hand to another.
fn move_card_between_hands(v: &mut Value, rng: &mut Rng) -> String {
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

/// Change what an action does.
fn change_action(v: &mut Value, rng: &mut Rng) -> String {
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

/// Remove a field of a random object.
fn remove_field(v: &mut Value, rng: &mut Rng) -> String {
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

/// Change the format.
fn change_format(v: &mut Value, rng: &mut Rng) -> String {
    let f = [json!("doko-record/2"), json!(1), Value::Null, json!("DOKO-RECORD/1")][rng.below(4)].clone();
    v.as_object_mut().expect("record object").insert("format".into(), f.clone());
    format!("format = {f}")
}

/// Swap two bids.
fn swap_bids(v: &mut Value, rng: &mut Rng) -> String {
    let Some(b) = v.get_mut("bids").and_then(Value::as_array_mut) else { return "no bids".into() };
    if b.len() < 2 {
        return "few bids".into();
    }
    let (i, j) = (rng.below(b.len()), rng.below(b.len()));
    b.swap(i, j);
    format!("swap bids {i} {j}")
}

pub fn check_mutated(v: &Value, what: &[String]) -> TestResult {
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
