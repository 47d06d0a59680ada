//! Someone's text repeated in an error message: cut short, and escaped
//! where it is not JSON already.

/// The most characters of someone's text an error message repeats: enough
/// to recognise a typo, never a long line from a long input.
const QUOTED_MAX_CHARS: usize = 40;

/// `text` cut to [`QUOTED_MAX_CHARS`] characters (`…` marks a cut), for an
/// error message that repeats it; control characters escaped.
pub(crate) fn quoted(text: &str) -> String {
    cut(&text.escape_debug().to_string())
}

/// `text` cut to [`QUOTED_MAX_CHARS`] characters (`…` marks a cut), as it is
/// (for JSON, which is escaped already).
pub(crate) fn cut(text: &str) -> String {
    match text.char_indices().nth(QUOTED_MAX_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
