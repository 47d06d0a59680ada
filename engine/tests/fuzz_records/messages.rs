//! What an error message must look like, and replaying text that must
//! either fail with one or give a result that renders.

use doko_engine::RecordError;
use doko_engine::record::replay_str;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

pub type TestResult = Result<(), TestCaseError>;

/// An error message is one line, `record: ...` or `action <n>: ...` with
/// `n` an index into the actions (when their number is known).
pub fn check_message(e: &RecordError, n_actions: Option<usize>) -> TestResult {
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
pub fn replay_text(text: &str) -> TestResult {
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
