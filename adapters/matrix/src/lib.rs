//! The Matrix adapter: a room is a table.
//!
//! - In a group room the bot answers messages that start with the prefix
//!   (`!doko join`, `!doko play ♣Q`, ...). Replies are `m.notice` messages
//!   with an HTML body and a plain-text body. The table message (what
//!   happened and the table) is edited in place with `m.replace`; when an
//!   edit is not possible a new table message is sent and remembered.
//! - Private hands go to one direct room per player (marked direct, created
//!   encrypted, reused across deals and tables); each message there names
//!   its table. In a direct room commands need no prefix; someone who sits
//!   at two tables prefixes the command with the table's number (`2: play
//!   ♣Q`) and is told so when it is ambiguous.
//! - Admins are members whose power level is at least the level needed to
//!   change room state (the room's `state_default`, 50 by default, or the
//!   configured level); in room version 12 creators have unlimited power.
//! - Restart safety: the sync position, the crypto store and the device live
//!   in matrix-sdk's SQLite stores. Each command is written to an inbox in
//!   the same store when it arrives and struck off once answered, so one the
//!   bot received but had not answered when it died is answered after the
//!   restart; commands sent while it was down are answered as they arrive
//!   (up to ten minutes old; on the very first start one sync runs before any
//!   handler and nothing older than the start is answered). Every command is
//!   passed on with its event id, so a duplicate delivery changes nothing.
//!
//! No game logic lives here: text in, the service's messages out.

#![recursion_limit = "256"]

use std::path::PathBuf;

use doko_bot::tr;

pub mod adapter;
mod error;
mod events;
mod ids;
mod inbox;
mod job;
mod media;
mod rooms;
mod send;
mod session;
mod state;
mod sync;
mod transport;
mod verification;
mod workers;

pub use adapter::{AdapterError, run, run_until};

/// How the bot logs in.
#[derive(Clone)]
pub enum Auth {
    /// User name and password (a new device is created once; the session
    /// is stored and reused afterwards).
    Password(String),
    /// An access token with the device it belongs to.
    Token {
        /// The access token.
        token: String,
        /// The device id the token was issued for.
        device: String,
    },
}

/// The Matrix configuration (from the environment, see
/// [`MatrixConfig::from_env`]). Secrets never appear in `Debug` output.
#[derive(Clone)]
pub struct MatrixConfig {
    /// The homeserver's URL.
    pub homeserver: String,
    /// The bot's user: a full id (`@doko:example.org`) or a local part.
    pub user: String,
    /// Password or token.
    pub auth: Auth,
    /// Where the session file and matrix-sdk's SQLite stores live.
    pub data: PathBuf,
    /// Passphrase for the SQLite stores (optional).
    pub store_passphrase: Option<String>,
    /// The command prefix in group rooms.
    pub prefix: String,
    /// Whose invitations the bot accepts: `*`, server names
    /// (`example.org`, matched against the inviter and the room id), room
    /// ids (`!abc:example.org`) or user ids (`@alice:example.org`).
    pub allow: Vec<String>,
    /// The power level that makes an admin; `None`: the room's level for
    /// changing state (`state_default`, 50 unless the room says otherwise).
    pub admin_level: Option<i64>,
    /// Mention the person to act in a short extra notice.
    pub mention: bool,
}

impl std::fmt::Debug for MatrixConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatrixConfig")
            .field("homeserver", &self.homeserver)
            .field("user", &self.user)
            .field(
                "auth",
                &match self.auth {
                    Auth::Password(_) => "password (hidden)",
                    Auth::Token { .. } => "access token (hidden)",
                },
            )
            .field("data", &self.data)
            .field("store_passphrase", &self.store_passphrase.as_ref().map(|_| "(hidden)"))
            .field("prefix", &self.prefix)
            .field("allow", &self.allow)
            .field("admin_level", &self.admin_level)
            .field("mention", &self.mention)
            .finish()
    }
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A required variable is missing.
    #[error("{0} is not set")]
    Missing(&'static str),
    /// A variable has a value that cannot be used.
    #[error("{var}: {why}")]
    Invalid {
        /// The variable.
        var: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A secret file could not be read.
    #[error("reading {var} file {path}: {source}")]
    File {
        /// The variable naming the file.
        var: &'static str,
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
}

fn secret(
    env: &dyn Fn(&str) -> Option<String>,
    var: &'static str,
    file_var: &'static str,
) -> Result<Option<String>, ConfigError> {
    if let Some(v) = env(var).filter(|v| !v.is_empty()) {
        return Ok(Some(v));
    }
    if let Some(path) = env(file_var).filter(|v| !v.is_empty()) {
        let text =
            std::fs::read_to_string(&path).map_err(|source| ConfigError::File { var: file_var, path, source })?;
        return Ok(Some(text.trim().to_string()));
    }
    Ok(None)
}

impl MatrixConfig {
    /// Reads the configuration from the environment; `None` when
    /// `DOKO_MATRIX_HOMESERVER` is not set (Matrix not configured).
    ///
    /// Variables: `DOKO_MATRIX_HOMESERVER`, `DOKO_MATRIX_USER`,
    /// `DOKO_MATRIX_PASSWORD` (or `DOKO_MATRIX_PASSWORD_FILE`) or
    /// `DOKO_MATRIX_TOKEN` (or `_FILE`) with `DOKO_MATRIX_DEVICE_ID`,
    /// `DOKO_MATRIX_DATA` (default `<data>/matrix`),
    /// `DOKO_MATRIX_STORE_PASSPHRASE`, `DOKO_MATRIX_PREFIX` (`!doko`),
    /// `DOKO_MATRIX_ALLOW` (comma-separated; default: the bot's own server),
    /// `DOKO_MATRIX_ADMIN_LEVEL`, `DOKO_MATRIX_MENTION` (`1` to mention).
    pub fn from_env(default_data: PathBuf) -> Result<Option<MatrixConfig>, ConfigError> {
        Self::from_vars(&|k| std::env::var(k).ok(), default_data)
    }

    /// As [`MatrixConfig::from_env`], reading variables through `env`.
    pub fn from_vars(
        env: &dyn Fn(&str) -> Option<String>,
        default_data: PathBuf,
    ) -> Result<Option<MatrixConfig>, ConfigError> {
        let Some(homeserver) = env("DOKO_MATRIX_HOMESERVER").filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        if !(homeserver.starts_with("http://") || homeserver.starts_with("https://")) {
            return Err(ConfigError::Invalid {
                var: "DOKO_MATRIX_HOMESERVER",
                why: format!("{homeserver:?} is not an http(s) URL"),
            });
        }
        let user = env("DOKO_MATRIX_USER").filter(|v| !v.is_empty()).ok_or(ConfigError::Missing("DOKO_MATRIX_USER"))?;
        let auth = if let Some(pw) = secret(env, "DOKO_MATRIX_PASSWORD", "DOKO_MATRIX_PASSWORD_FILE")? {
            Auth::Password(pw)
        } else if let Some(token) = secret(env, "DOKO_MATRIX_TOKEN", "DOKO_MATRIX_TOKEN_FILE")? {
            let device = env("DOKO_MATRIX_DEVICE_ID")
                .filter(|v| !v.is_empty())
                .ok_or(ConfigError::Missing("DOKO_MATRIX_DEVICE_ID (needed with DOKO_MATRIX_TOKEN)"))?;
            if !user.starts_with('@') {
                return Err(ConfigError::Invalid {
                    var: "DOKO_MATRIX_USER",
                    why: "with an access token give the full user id (@name:server)".into(),
                });
            }
            Auth::Token { token, device }
        } else {
            return Err(ConfigError::Missing("DOKO_MATRIX_PASSWORD or DOKO_MATRIX_TOKEN"));
        };
        let prefix = env("DOKO_MATRIX_PREFIX").filter(|v| !v.trim().is_empty()).unwrap_or_else(|| "!doko".into());
        let allow: Vec<String> = env("DOKO_MATRIX_ALLOW")
            .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default();
        let admin_level = match env("DOKO_MATRIX_ADMIN_LEVEL").filter(|v| !v.is_empty()) {
            None => None,
            Some(v) => Some(v.parse::<i64>().map_err(|_| ConfigError::Invalid {
                var: "DOKO_MATRIX_ADMIN_LEVEL",
                why: format!("{v:?} is not a whole number"),
            })?),
        };
        Ok(Some(MatrixConfig {
            homeserver,
            user,
            auth,
            data: env("DOKO_MATRIX_DATA").filter(|v| !v.is_empty()).map(PathBuf::from).unwrap_or(default_data),
            store_passphrase: env("DOKO_MATRIX_STORE_PASSPHRASE").filter(|v| !v.is_empty()),
            prefix: prefix.trim().to_string(),
            allow,
            admin_level,
            mention: env("DOKO_MATRIX_MENTION").is_some_and(|v| v == "1" || v == "true"),
        }))
    }
}

/// The server part of a Matrix id (`@a:example.org` → `example.org`).
pub fn server_of(id: &str) -> Option<&str> {
    id.split_once(':').map(|(_, s)| s).filter(|s| !s.is_empty())
}

/// Whether an invitation from `inviter` into `room` is accepted. An empty
/// allow-list means the bot's own server.
pub fn invite_allowed(allow: &[String], own_user: &str, room: &str, inviter: &str) -> bool {
    let own = server_of(own_user).map(|s| vec![s.to_string()]).unwrap_or_default();
    let allow = if allow.is_empty() { &own[..] } else { allow };
    allow.iter().any(|a| {
        a == "*"
            || a == room
            || a == inviter
            || (!a.starts_with(['!', '@', '#']) && (server_of(inviter) == Some(a.as_str())))
            || (!a.starts_with(['!', '@', '#']) && (server_of(room) == Some(a.as_str())))
    })
}

/// How Matrix writes what the bot says: a room as a matrix.to link
/// (clients show it as a link to the room) and the commands as words
/// after the group rooms' prefix.
#[derive(Clone, Debug)]
pub struct MatrixDialect {
    prefix: &'static str,
}

impl doko_bot::dialect::Dialect for MatrixDialect {
    fn channel_link(&self, id: &str) -> String {
        format!("https://matrix.to/#/{id}")
    }

    fn help_style(&self) -> doko_bot::command::HelpStyle<'static> {
        doko_bot::command::HelpStyle::Text(self.prefix)
    }
}

/// Matrix's dialect with this command prefix, for the binary to give the
/// service (made once per process: it lives as long as the process).
pub fn dialect(prefix: &str) -> &'static MatrixDialect {
    let prefix: &'static str = Box::leak(prefix.to_string().into_boxed_str());
    Box::leak(Box::new(MatrixDialect { prefix }))
}

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

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: std::collections::HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn config_from_vars() {
        let none = MatrixConfig::from_vars(&vars(&[]), "/d".into()).unwrap();
        assert!(none.is_none());
        let c = MatrixConfig::from_vars(
            &vars(&[
                ("DOKO_MATRIX_HOMESERVER", "http://127.0.0.1:8008"),
                ("DOKO_MATRIX_USER", "bot"),
                ("DOKO_MATRIX_PASSWORD", "sekrit-pw"),
                ("DOKO_MATRIX_ALLOW", "example.org, !r:example.org"),
                ("DOKO_MATRIX_ADMIN_LEVEL", "75"),
            ]),
            "/d".into(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.prefix, "!doko");
        assert_eq!(c.allow, vec!["example.org".to_string(), "!r:example.org".to_string()]);
        assert_eq!(c.admin_level, Some(75));
        assert_eq!(c.data, PathBuf::from("/d"));
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("sekrit-pw"), "{dbg}");
        let e = MatrixConfig::from_vars(
            &vars(&[("DOKO_MATRIX_HOMESERVER", "http://h"), ("DOKO_MATRIX_USER", "bot")]),
            "/d".into(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "DOKO_MATRIX_PASSWORD or DOKO_MATRIX_TOKEN is not set");
        let e = MatrixConfig::from_vars(
            &vars(&[("DOKO_MATRIX_HOMESERVER", "h:8008"), ("DOKO_MATRIX_USER", "bot")]),
            "/d".into(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not an http(s) URL"));
        let e = MatrixConfig::from_vars(
            &vars(&[
                ("DOKO_MATRIX_HOMESERVER", "http://h"),
                ("DOKO_MATRIX_USER", "@bot:h"),
                ("DOKO_MATRIX_TOKEN", "tok"),
            ]),
            "/d".into(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("DOKO_MATRIX_DEVICE_ID"));
    }

    #[test]
    fn invitations() {
        let own = "@doko:example.org";
        assert!(invite_allowed(&[], own, "!r:example.org", "@a:example.org"));
        assert!(!invite_allowed(&[], own, "!r:evil.net", "@a:evil.net"));
        // room version 12 ids carry no server: the inviter decides
        assert!(invite_allowed(&[], own, "!abcdef", "@a:example.org"));
        let allow = vec!["other.net".to_string(), "@friend:far.away".to_string(), "!x:y".to_string()];
        assert!(invite_allowed(&allow, own, "!abc", "@a:other.net"));
        assert!(invite_allowed(&allow, own, "!abc", "@friend:far.away"));
        assert!(invite_allowed(&allow, own, "!x:y", "@stranger:z"));
        assert!(!invite_allowed(&allow, own, "!abc", "@a:example.org"));
        assert!(invite_allowed(&["*".into()], own, "!abc", "@a:anything"));
    }

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
