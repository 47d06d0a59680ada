//! Property 4 and the seat protocol: a game written as a record (JSON or
//! compact) and a view written as the protocol's JSON read back the same.

use doko_engine::record::replay_str;
use doko_engine::{Action, Game, Record, ReplayResult, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::driver::TestResult;

pub fn check_record_round_trip(g: &Game) -> TestResult {
    let rec = Record::from_game(g);
    let text = rec.to_json();
    let back =
        Record::from_json(&text).map_err(|e| TestCaseError::fail(format!("own record unreadable: {e}\n{text}")))?;
    prop_assert_eq!(&back, &rec, "record changed through JSON");
    let from_value = Record::from_value(&rec.to_value()).ok();
    prop_assert_eq!(from_value.as_ref(), Some(&rec));
    // the compact form holds the same record, and plays to the same game
    let compact = rec.to_compact();
    let back_compact = Record::from_stored(&compact)
        .map_err(|e| TestCaseError::fail(format!("own compact record unreadable: {e}")))?;
    prop_assert_eq!(&back_compact, &rec, "record changed through the compact form");
    let from_bytes = Record::from_bytes(&rec.to_bytes()).ok();
    prop_assert_eq!(from_bytes.as_ref(), Some(&rec));
    prop_assert!(compact.len() * 2 < text.len(), "compact {} bytes, JSON {}: {:?}", compact.len(), text.len(), rec);
    let rebuilt = back_compact.to_game().map_err(|e| TestCaseError::fail(format!("compact record refused: {e}")))?;
    prop_assert!(rebuilt == *g, "the compact record reached another state");
    prop_assert_eq!(&rec.hands, g.dealt());
    prop_assert_eq!(&rec.rules, g.rules());
    prop_assert_eq!(rec.dealer, g.dealer());
    match back.replay() {
        Ok(g2) => {
            prop_assert!(g.is_over(), "an unfinished deal replayed");
            let want = ReplayResult::new(g.clone());
            let got = ReplayResult::new(g2.clone());
            prop_assert_eq!(got.to_json(), want.to_json());
            prop_assert_eq!(got.to_text(), want.to_text());
            prop_assert!(g2 == *g, "replay reached another state\nrecord: {}", text);
            let via_text = replay_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(via_text.to_json(), want.to_json());
            // and the replayed game writes the same record again
            prop_assert_eq!(Record::from_game(&g2), rec);
        }
        Err(e) => {
            prop_assert!(!g.is_over(), "a finished deal did not replay: {}\n{}", e, text);
            prop_assert!(e.to_string().starts_with("record: "), "unfinished deal: {}", e);
        }
    }
    Ok(())
}

/// Every seat's view at every step reads back equal from its protocol
/// JSON (sent through text, as a program receives it), and every legal
/// action reads back from its token.
pub fn check_wire(g: &Game) -> TestResult {
    for s in Seat::ALL {
        let v = g.view(s);
        let text = v.to_json().to_string();
        let back = doko_engine::SeatView::from_json(&serde_json::from_str(&text).expect("JSON"))
            .map_err(|e| TestCaseError::fail(format!("seat {s}'s view does not read back: {e}\n{text}")))?;
        prop_assert_eq!(&back, &v, "seat {}'s view changed through JSON:\n{}", s, text);
        for a in &v.legal {
            let t = a.token();
            prop_assert!(!t.contains(char::is_whitespace), "token {} has a space", t);
            prop_assert_eq!(Action::from_token(&t).ok(), Some(*a), "token {}", t);
        }
    }
    Ok(())
}
