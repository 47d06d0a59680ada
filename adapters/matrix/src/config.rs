//! The Matrix configuration, from the environment, and whose invitations
//! the bot accepts.

use std::path::PathBuf;

use crate::dialect;

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
        let prefix = env("DOKO_MATRIX_PREFIX")
            .filter(|v| !v.trim().is_empty())
            .unwrap_or_else(|| dialect::DEFAULT_PREFIX.into());
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
}
