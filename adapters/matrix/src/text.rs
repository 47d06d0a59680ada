//! The text of messages: a command read from a message's body, a direct
//! room's command routed to a table, and the bodies (plain and HTML) the
//! bot sends.

use doko_bot::tr;

/// The command in a group room's message: the text after the prefix
/// (`!doko play ♣Q` → `play ♣Q`; the prefix alone asks for the table), or
/// `None` when the message is not for the bot.
pub fn command_text<'a>(prefix: &str, body: &'a str) -> Option<&'a str> {
    let body = body.trim();
    let rest = body.strip_prefix(prefix)?;
    if rest.is_empty() {
        return Some("table");
    }
    // `!dokoplay` is not for us
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    Some(rest.trim())
}

/// Where a command written in a direct room goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// To the table at this index of the list, with this command text.
    At(usize, String),
    /// The person sits at no table.
    NoTable,
    /// The person sits at several tables and did not say which.
    Ask,
}

/// Routes a direct-room command among the tables the person sits at
/// (`n` of them). With several, the command starts with the table's number
/// (`2: play ♣Q` or `2 play ♣Q`).
pub fn route(n: usize, text: &str) -> Route {
    let text = text.trim();
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !digits.is_empty() {
        let rest = &text[digits.len()..];
        if let Ok(k) = digits.parse::<usize>()
            && (1..=n).contains(&k)
            && (rest.starts_with(':') || rest.starts_with(char::is_whitespace))
        {
            let rest = rest.strip_prefix(':').unwrap_or(rest).trim();
            if !rest.is_empty() {
                return Route::At(k - 1, rest.to_string());
            }
        }
    }
    match n {
        0 => Route::NoTable,
        1 => Route::At(0, text.to_string()),
        _ => Route::Ask,
    }
}

/// Escapes text for an HTML message body.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The HTML body for a message's text: escaped, line breaks kept; with a
/// heading (the table's name in direct rooms) in bold; a record as code.
pub fn html(heading: Option<&str>, text: &str, code: bool) -> String {
    let body = if code {
        format!("<pre><code>{}</code></pre>", escape(text.trim_end()))
    } else {
        escape(text.trim_end()).replace('\n', "<br>")
    };
    match heading {
        Some(h) => format!("<b>{}</b><br>{body}", escape(h)),
        None => body,
    }
}

/// The plain-text body with an optional heading.
pub fn plain(heading: Option<&str>, text: &str) -> String {
    match heading {
        Some(h) => format!("{h}\n{}", text.trim_end()),
        None => text.trim_end().to_string(),
    }
}

/// The question asked of someone at several tables.
pub fn ask_which(lang: doko_bot::Lang, names: &[String]) -> String {
    let list: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("{}: {n}", i + 1)).collect();
    format!("{}\n{}\n{}", tr!(lang, "several-tables"), list.join("\n"), tr!(lang, "several-tables-hint"))
}

/// The answer to someone at no table writing in a direct room (in both
/// languages: no table, so no language is known).
pub fn no_table(prefix: &str) -> String {
    both(|l| tr!(l, "no-table", prefix = prefix))
}

/// A text in English and German, for when no table's language is known.
pub fn both(text: impl Fn(doko_bot::Lang) -> String) -> String {
    format!("{} / {}", text(doko_bot::Lang::En), text(doko_bot::Lang::De))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(command_text("!doko", "!doko join"), Some("join"));
        assert_eq!(command_text("!doko", "  !doko   play ♣Q "), Some("play ♣Q"));
        assert_eq!(command_text("!doko", "!doko"), Some("table"));
        assert_eq!(command_text("!doko", "!dokojoin"), None);
        assert_eq!(command_text("!doko", "hello !doko join"), None);
        assert_eq!(command_text("!dk", "!dk score"), Some("score"));
    }

    #[test]
    fn routes() {
        assert_eq!(route(0, "play CQ"), Route::NoTable);
        assert_eq!(route(1, "play CQ"), Route::At(0, "play CQ".into()));
        assert_eq!(route(2, "play CQ"), Route::Ask);
        assert_eq!(route(2, "2: play CQ"), Route::At(1, "play CQ".into()));
        assert_eq!(route(2, "1 healthy"), Route::At(0, "healthy".into()));
        assert_eq!(route(2, "3: play CQ"), Route::Ask);
        assert_eq!(route(1, "1: hand"), Route::At(0, "hand".into()));
        assert_eq!(route(2, "2:"), Route::Ask);
    }

    #[test]
    fn html_bodies() {
        assert_eq!(html(None, "a < b\nc & d\n", false), "a &lt; b<br>c &amp; d");
        assert_eq!(html(Some("Room <1>"), "x", false), "<b>Room &lt;1&gt;</b><br>x");
        assert_eq!(html(None, "{\"a\": 1}", true), "<pre><code>{&quot;a&quot;: 1}</code></pre>");
        assert_eq!(plain(Some("Room"), "x\n"), "Room\nx");
    }
}
