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

// A test's root file looks for its modules beside it, not in fuzz_records/:
// each part is named by its path.
#[path = "fuzz_records/actions.rs"]
mod actions;
#[path = "fuzz_records/games.rs"]
mod games;
#[path = "fuzz_records/messages.rs"]
mod messages;
#[path = "fuzz_records/mutations.rs"]
mod mutations;
#[path = "fuzz_records/records.rs"]
mod records;
#[path = "fuzz_records/text.rs"]
mod text;

use doko_engine::{Action, Bid, Cards, Game, Preset, Record, Rng, Rules, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Value, json};

use actions::{arbitrary_action, touch_everything};
use games::{game_of, legal_step, rules_of};
use messages::{check_message, replay_text};
use mutations::{check_mutated, mutate};
use records::random_record;
use text::{TOKENS, json_value, record_like};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------
// (a) arbitrary text
// ---------------------------------------------------------------------

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
