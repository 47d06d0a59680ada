//! (a) The words, fields and tokens arbitrary text is made of.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

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

pub fn json_value() -> impl Strategy<Value = Value> {
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
pub fn record_like() -> impl Strategy<Value = Value> {
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

pub const TOKENS: &[&str] = &[
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
