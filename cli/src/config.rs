//! The configuration: one TOML file under the environment.
//!
//! Every setting has a key in the file (`[discord] token = ...`) and a
//! `DOKO_` variable; the variable wins over the file (secrets and
//! containers), a command-line flag over both. The file is found as
//! `--config FILE`, else `$DOKO_CONFIG`, else the first that exists of
//! `./doko.toml`, `$XDG_CONFIG_HOME/doko/doko.toml` (`~/.config/...`) and
//! `/etc/doko/doko.toml`; without one, the environment alone. The layers are
//! read with figment; `doko config check FILE` names a wrong key or value
//! with its line and what is allowed, and never prints a secret.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Format, Serialized, Toml};
use figment::value::Value;

/// One setting: its key in the file, its variable, whether it is a secret
/// (never printed), and what it takes.
pub struct Setting {
    /// `section.name` in the file.
    pub key: &'static str,
    /// The environment variable that overrides it.
    pub env: &'static str,
    /// A secret: its value is never printed.
    pub secret: bool,
    /// What it takes (the allowed values, for `config check`).
    pub allowed: &'static str,
}

const fn s(key: &'static str, env: &'static str, allowed: &'static str) -> Setting {
    Setting { key, env, secret: false, allowed }
}

const fn secret(key: &'static str, env: &'static str, allowed: &'static str) -> Setting {
    Setting { key, env, secret: true, allowed }
}

/// Every setting of the file, in the order of `config/doko.example.toml`.
pub const SETTINGS: &[Setting] = &[
    s("store.data", "DOKO_DATA", "a directory for the embedded store (default ~/.local/share/doko)"),
    s(
        "store.redis",
        "DOKO_REDIS_URL",
        "a Redis URL: redis://host:port/, rediss://host:port/ or redis+cluster://host:port,host:port",
    ),
    s(
        "store.replica_wait_ms",
        "DOKO_REDIS_REPLICA_WAIT_MS",
        "milliseconds to wait for one Redis replica to confirm each move, 0 to 2000 (0: no wait, the default)",
    ),
    s("store.records_kept", "DOKO_RECORDS_KEPT", "the records kept per table: a whole number, 0 for all"),
    s("tables.preset", "DOKO_PRESET", "the house rules a new table starts with: ddv, casual, sharp or freedoko"),
    s(
        "tables.rules",
        "DOKO_RULES",
        "house-rule keys over the preset for new tables: KEY=VALUE pairs separated by commas (keys and values as in docs/rules.md)",
    ),
    s("tables.language", "DOKO_LANGUAGE", "a new table's language: en or de"),
    s("computers.budget_ms", "DOKO_BOT_BUDGET_MS", "the strong player's time per decision: 1 to 10000 ms"),
    s("limits.rate_user", "DOKO_RATE_USER", "commands per person: BURST/MILLISECONDS such as 8/10000, or 0 for none"),
    s(
        "limits.rate_channel",
        "DOKO_RATE_CHANNEL",
        "commands per channel: BURST/MILLISECONDS such as 30/10000, or 0 for none",
    ),
    s("log.level", "DOKO_LOG", "tracing directives such as info or warn,doko_bot=debug (default: errors only)"),
    s("log.format", "DOKO_LOG_FORMAT", "text or json"),
    s("terminal.name", "DOKO_NAME", "your name at the terminal table (1 to 32 characters)"),
    s(
        "metrics.listen",
        "DOKO_METRICS_LISTEN",
        "an address such as 127.0.0.1:9187 for /metrics, /healthz and /readyz (default: none)",
    ),
    s(
        "web.url",
        "DOKO_WEB_URL",
        "the public http(s) address of the tables' web pages, served on metrics.listen behind your reverse proxy (default: none, no pages)",
    ),
    s(
        "web.rate",
        "DOKO_WEB_RATE",
        "web page requests per client: BURST/MILLISECONDS such as 60/1000 (the default), or 0 for none",
    ),
    secret("discord.token", "DOKO_DISCORD_TOKEN", "the bot token (better in the environment or token_file)"),
    s("discord.token_file", "DOKO_DISCORD_TOKEN_FILE", "a file holding the bot token"),
    s("discord.guild", "DOKO_DISCORD_GUILD", "a guild id (a number) for registering the commands at once"),
    s("discord.mention", "DOKO_DISCORD_MENTION", "true or false: mention the player to act"),
    s("discord.api_url", "DOKO_DISCORD_API_URL", "an http(s) origin of the Discord API (tests)"),
    s("discord.interactions", "DOKO_DISCORD_INTERACTIONS", "an address such as 0.0.0.0:8080 for HTTP interactions"),
    s("discord.public_key", "DOKO_DISCORD_PUBLIC_KEY", "the application's public key (hex), with interactions"),
    s("discord.shards", "DOKO_DISCORD_SHARDS", "a shard range such as 0-3/8 or 2/8"),
    s("matrix.homeserver", "DOKO_MATRIX_HOMESERVER", "the homeserver's http(s) URL"),
    s("matrix.user", "DOKO_MATRIX_USER", "the bot's user (@name:server, or name with a password)"),
    secret("matrix.password", "DOKO_MATRIX_PASSWORD", "the bot's password (better in the environment)"),
    s("matrix.password_file", "DOKO_MATRIX_PASSWORD_FILE", "a file holding the password"),
    secret("matrix.token", "DOKO_MATRIX_TOKEN", "an access token (with device_id)"),
    s("matrix.token_file", "DOKO_MATRIX_TOKEN_FILE", "a file holding the access token"),
    s("matrix.device_id", "DOKO_MATRIX_DEVICE_ID", "the device of the access token"),
    s("matrix.data", "DOKO_MATRIX_DATA", "the Matrix SDK's directory (default <store.data>/matrix)"),
    secret("matrix.store_passphrase", "DOKO_MATRIX_STORE_PASSPHRASE", "a passphrase for the SDK's store"),
    s("matrix.prefix", "DOKO_MATRIX_PREFIX", "the command prefix in group rooms (default !doko)"),
    s("matrix.allow", "DOKO_MATRIX_ALLOW", "whose invitations are accepted: servers, @users, !rooms, or *"),
    s("matrix.admin_level", "DOKO_MATRIX_ADMIN_LEVEL", "the power level of table admins (a whole number)"),
    s("matrix.mention", "DOKO_MATRIX_MENTION", "true or false: mention the player to act"),
];

/// The sections of the file.
fn sections() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for st in SETTINGS {
        let sec = st.key.split_once('.').expect("section.name").0;
        if !v.contains(&sec) {
            v.push(sec);
        }
    }
    v
}

/// The settings as read: each variable's value, from the file or the
/// environment. Secrets are never printed (`Debug` names the keys only).
#[derive(Clone, Default)]
pub struct Settings {
    values: BTreeMap<&'static str, String>,
    /// The file read, if any.
    pub file: Option<PathBuf>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let keys: Vec<&str> = self.values.keys().copied().collect();
        f.debug_struct("Settings").field("file", &self.file).field("set", &keys).finish()
    }
}

impl Settings {
    /// The value of a setting, by its variable (`DOKO_DATA`); an empty
    /// value counts as unset.
    pub fn get(&self, env: &str) -> Option<String> {
        self.values.get(env).filter(|v| !v.is_empty()).cloned()
    }

    /// The file to read: `--config`, `$DOKO_CONFIG`, else the first of the
    /// default places that exists.
    pub fn find(flag: Option<&Path>) -> Option<PathBuf> {
        if let Some(p) = flag {
            return Some(p.to_path_buf());
        }
        if let Some(p) = std::env::var_os("DOKO_CONFIG").filter(|p| !p.is_empty()) {
            return Some(PathBuf::from(p));
        }
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let xdg = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from).or_else(|| home.map(|h| h.join(".config")));
        let mut places = vec![PathBuf::from("doko.toml")];
        places.extend(xdg.map(|x| x.join("doko/doko.toml")));
        places.push(PathBuf::from("/etc/doko/doko.toml"));
        places.into_iter().find(|p| p.is_file())
    }

    /// Reads the file (checked as `doko config check` does) under the
    /// environment: each setting's variable, where set, wins.
    pub fn load(file: Option<PathBuf>) -> anyhow::Result<Settings> {
        let env = |v: &str| std::env::var(v).ok();
        Settings::layered(file, &env)
    }

    /// As [`Settings::load`], reading the environment through `env`.
    pub fn layered(file: Option<PathBuf>, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Settings> {
        let mut fig = Figment::new();
        if let Some(path) = &file {
            let problems = check(path);
            if !problems.is_empty() {
                anyhow::bail!("{}", problems.join("\n"));
            }
            fig = fig.merge(Toml::file(path));
        }
        // the environment as written (a password of digits stays text)
        for st in SETTINGS {
            if let Some(v) = env(st.env) {
                fig = fig.merge(Serialized::default(st.key, v));
            }
        }
        let mut values = BTreeMap::new();
        for st in SETTINGS {
            if let Ok(v) = fig.find_value(st.key) {
                values.insert(st.env, text(&v).ok_or_else(|| anyhow::anyhow!("{}: {}", st.key, st.allowed))?);
            }
        }
        Ok(Settings { values, file })
    }
}

/// A file value as the text its variable would hold (lists joined with
/// commas); `None` for a table.
fn text(v: &Value) -> Option<String> {
    Some(match v {
        Value::String(_, s) => s.clone(),
        Value::Char(_, c) => c.to_string(),
        Value::Bool(_, b) => b.to_string(),
        Value::Num(_, n) => match (n.to_i128(), n.to_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => f.to_string(),
            (None, None) => return None,
        },
        Value::Array(_, items) => items.iter().map(text).collect::<Option<Vec<_>>>()?.join(","),
        Value::Dict(..) | Value::Empty(..) => return None,
    })
}

/// The line (from 1) where `key` (`section.name`) is set in the file, or
/// where its section starts, or 1.
fn line_of(source: &str, key: &str) -> usize {
    let (sec, name) = key.split_once('.').unwrap_or(("", key));
    let mut current = String::new();
    let mut section_line = None;
    for (i, line) in source.lines().enumerate() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('[').and_then(|h| h.split(']').next()) {
            current = h.trim().to_string();
            if current == sec {
                section_line = Some(i + 1);
            }
            continue;
        }
        let lhs = t.split('=').next().unwrap_or("").trim().trim_matches('"');
        if t.contains('=') && ((current == sec && lhs == name) || (current.is_empty() && lhs == key)) {
            return i + 1;
        }
    }
    section_line.unwrap_or(1)
}

/// Checks a configuration file: every key known, every value of the form
/// its setting takes, the front ends' settings complete. Returns one line
/// per problem (`FILE:LINE: ...`), empty when the file is good. No secret
/// is ever part of a line.
pub fn check(path: &Path) -> Vec<String> {
    let shown = path.display();
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return vec![format!("{shown}: cannot be read: {e}")],
    };
    let table: toml::Table = match source.parse() {
        Ok(t) => t,
        Err(e) => {
            let line = e.span().map_or(1, |sp| source[..sp.start.min(source.len())].lines().count().max(1));
            return vec![format!("{shown}:{line}: not TOML: {}", e.message())];
        }
    };
    let at = |key: &str| format!("{shown}:{}", line_of(&source, key));
    let mut problems = Vec::new();
    let mut vars: BTreeMap<&'static str, String> = BTreeMap::new();
    let secs = sections();
    for (sec, body) in &table {
        let Some(body) = body.as_table() else {
            problems.push(format!(
                "{}: {sec} is not a section; sections: {}",
                at(sec),
                secs.iter().map(|s| format!("[{s}]")).collect::<Vec<_>>().join(", ")
            ));
            continue;
        };
        if !secs.contains(&sec.as_str()) {
            problems.push(format!(
                "{}: unknown section [{sec}]; sections: {}",
                at(&format!("{sec}.")),
                secs.iter().map(|s| format!("[{s}]")).collect::<Vec<_>>().join(", ")
            ));
            continue;
        }
        for (name, value) in body {
            let key = format!("{sec}.{name}");
            let Some(st) = SETTINGS.iter().find(|st| st.key == key) else {
                let names: Vec<&str> =
                    SETTINGS.iter().filter_map(|st| st.key.strip_prefix(&format!("{sec}."))).collect();
                problems.push(format!("{}: unknown key {key}; [{sec}] takes: {}", at(&key), names.join(", ")));
                continue;
            };
            let as_text = match value {
                toml::Value::String(s) => Some(s.clone()),
                toml::Value::Integer(i) => Some(i.to_string()),
                toml::Value::Boolean(b) => Some(b.to_string()),
                toml::Value::Array(a) if st.key == "matrix.allow" => {
                    a.iter().map(|x| x.as_str().map(str::to_string)).collect::<Option<Vec<_>>>().map(|v| v.join(","))
                }
                _ => None,
            };
            match as_text {
                Some(t) => match valid(st, &t) {
                    Ok(()) => {
                        vars.insert(st.env, t);
                    }
                    Err(why) => problems.push(format!("{}: {key}: {why}; allowed: {}", at(&key), st.allowed)),
                },
                None => problems.push(format!("{}: {key}: not a value it takes; allowed: {}", at(&key), st.allowed)),
            }
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    // the front ends' settings together, as they will be read (errors name
    // variables: say the key too)
    let env = |k: &str| vars.get(k).filter(|v| !v.is_empty()).cloned();
    let mut whole: Vec<String> = Vec::new();
    if let Err(e) = doko_discord::run::DiscordConfig::from_vars(&env) {
        whole.push(e.to_string());
    }
    if let Err(e) = doko_matrix::MatrixConfig::from_vars(&env, PathBuf::from("matrix")) {
        whole.push(e.to_string());
    }
    for msg in whole {
        let named = SETTINGS.iter().find(|st| msg.contains(st.env));
        let line = named.map_or_else(|| format!("{shown}"), |st| at(st.key));
        let mut msg = msg;
        for st in SETTINGS {
            msg = msg.replace(st.env, &format!("{} ({})", st.key, st.env));
        }
        problems.push(format!("{line}: {msg}"));
    }
    problems
}

/// Whether a value has the form its setting takes (alone; the front ends'
/// settings are checked together afterwards). The reason never repeats a
/// secret.
fn valid(st: &Setting, v: &str) -> Result<(), String> {
    let number = |lo: u64, hi: u64| match v.trim().parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(()),
        _ => Err(format!("{v:?} is not a whole number from {lo} to {hi}")),
    };
    let boolean = || match v {
        "true" | "false" | "1" | "0" => Ok(()),
        _ => Err(format!("{v:?} is not true or false")),
    };
    match st.key {
        "store.redis" => {
            if v.is_empty() || ["redis://", "rediss://", "redis+cluster://"].iter().any(|p| v.starts_with(p)) {
                Ok(())
            } else {
                Err("not a Redis URL".into())
            }
        }
        "tables.preset" => doko_engine::Preset::from_name(v).map(|_| ()).map_err(|e| e.to_string()),
        "tables.rules" => new_table_rules("ddv", v).map(|_| ()),
        "tables.language" => match v {
            "en" | "de" => Ok(()),
            _ => Err(format!("{v:?} is not en or de")),
        },
        "store.records_kept" => number(0, u64::from(u32::MAX)),
        "store.replica_wait_ms" => number(0, doko_bot::REPLICA_WAIT_MAX_MS),
        "computers.budget_ms" => number(1, 10_000),
        "web.url" => {
            let ok = (v.starts_with("http://") || v.starts_with("https://"))
                && !v.contains(['?', '#', ' '])
                && v.split("://").nth(1).is_some_and(|h| !h.is_empty());
            if ok { Ok(()) } else { Err(format!("{v:?} is not an http(s) address without a query")) }
        }
        "limits.rate_user" | "limits.rate_channel" | "web.rate" => {
            doko_bot::Rate::parse(v).map(|_| ()).map_err(|e| format!("{v:?}: {e}"))
        }
        "log.level" => tracing_subscriber::EnvFilter::builder()
            .parse(v)
            .map(|_| ())
            .map_err(|e| format!("{v:?} is not a list of tracing directives: {e}")),
        "log.format" => match v {
            "text" | "json" => Ok(()),
            _ => Err(format!("{v:?} is not text or json")),
        },
        "terminal.name" => match v.trim().chars().count() {
            1..=32 => Ok(()),
            _ => Err("empty or longer than 32 characters".into()),
        },
        "discord.guild" => number(1, u64::MAX),
        "discord.mention" | "matrix.mention" => boolean(),
        "discord.shards" => {
            doko_discord::run::Shards::parse(v).map(|_| ()).ok_or_else(|| format!("{v:?} is not a shard range"))
        }
        "metrics.listen" => {
            v.parse::<std::net::SocketAddr>().map(|_| ()).map_err(|_| format!("{v:?} is not an address"))
        }
        "discord.interactions" => {
            v.parse::<std::net::SocketAddr>().map(|_| ()).map_err(|_| format!("{v:?} is not an address"))
        }
        "matrix.admin_level" => v.trim().parse::<i64>().map(|_| ()).map_err(|_| format!("{v:?} is not a whole number")),
        _ if st.secret => {
            if v.trim().is_empty() {
                Err("empty".into())
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// A new table's rules: the preset, then each `KEY=VALUE` of `pairs`
/// (comma-separated) over it.
pub fn new_table_rules(preset: &str, pairs: &str) -> Result<doko_engine::Rules, String> {
    let mut r = doko_engine::Rules::preset(doko_engine::Preset::from_name(preset).map_err(|e| e.to_string())?);
    for pair in pairs.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').ok_or_else(|| format!("{pair:?} is not KEY=VALUE"))?;
        r.set(k.trim(), v.trim()).map_err(|e| e.to_string())?;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_one_section_and_name_with_its_own_variable() {
        let mut envs: Vec<&str> = SETTINGS.iter().map(|s| s.env).collect();
        envs.sort_unstable();
        envs.dedup();
        assert_eq!(envs.len(), SETTINGS.len(), "one variable per setting");
        for st in SETTINGS {
            let (sec, name) = st.key.split_once('.').unwrap();
            assert!(!sec.is_empty() && !name.is_empty() && !name.contains('.'), "{}", st.key);
            assert!(st.env.starts_with("DOKO_"), "{}", st.env);
        }
    }

    #[test]
    fn lines_are_found_under_their_section() {
        let src = "# c\n[store]\ndata = \"x\"\n\n[discord]\ntoken = \"t\"\n data = 1\n";
        assert_eq!(line_of(src, "store.data"), 3);
        assert_eq!(line_of(src, "discord.token"), 6);
        assert_eq!(line_of(src, "discord.data"), 7);
        assert_eq!(line_of(src, "discord.guild"), 5, "the section when the key is not there");
        assert_eq!(line_of(src, "matrix.user"), 1);
    }
}
