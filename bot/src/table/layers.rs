//! Settings in layers: the host's defaults for new tables, a server's
//! defaults (a Discord server, a Matrix space) and the channel's own
//! choices, each layer only what it sets. A channel's rules, language and
//! timeout policy are the layers put together, the higher winning:
//! channel over server over the host.

use std::collections::BTreeMap;

use doko_engine::{Preset, Rules};
use serde::{Deserialize, Serialize};

use crate::command::TimeoutPolicy;
use crate::lang::Lang;

/// What one layer sets: a preset (which replaces every rule below it),
/// single house-rule keys over it, a language and a timeout policy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layer {
    /// A preset by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// House-rule keys with their values, as the engine writes them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<String, String>,
    /// The language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Lang>,
    /// What happens when a player's time runs out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<TimeoutPolicy>,
}

impl Layer {
    /// Whether it sets nothing.
    pub fn is_empty(&self) -> bool {
        *self == Layer::default()
    }

    /// The layer that sets exactly these rules (their preset and what
    /// differs from it) and this language.
    pub fn of(rules: &Rules, lang: Option<Lang>) -> Layer {
        Layer {
            preset: (rules.preset != Preset::Ddv).then(|| rules.preset.name().to_string()),
            rules: rules.overrides().into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            lang,
            policy: None,
        }
    }

    /// Sets one key on top of `below` (the rules in force without this
    /// key): checked by the engine, kept as the engine writes it.
    pub fn set_rule(&mut self, below: &Rules, key: &str, value: &str) -> Result<(), doko_engine::RuleError> {
        let mut r = *below;
        r.set(key, value)?;
        let key = key.trim().to_ascii_lowercase().replace('-', "_");
        let value = r.get(&key)?;
        self.rules.insert(key, value);
        Ok(())
    }

    /// Switches to a preset: its keys set before are dropped.
    pub fn set_preset(&mut self, name: &str) -> Result<(), doko_engine::RuleError> {
        let p = Preset::from_name(name)?;
        self.preset = Some(p.name().to_string());
        self.rules.clear();
        Ok(())
    }

    /// Drops the layer's rules (its language and policy stay).
    pub fn clear_rules(&mut self) {
        self.preset = None;
        self.rules.clear();
    }
}

/// A server's defaults as a channel holds them: which server, its layer,
/// and the version of the server's settings they came from (a copy
/// older than the one it holds is never taken).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerLayer {
    /// The server's stored key (`discord:GUILD`).
    pub id: String,
    /// What it sets.
    pub layer: Layer,
    /// The settings' version.
    pub version: u64,
}

/// Where a value in force comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Nobody set it: the built-in default (or the host's, for new tables).
    Default,
    /// The server's admins set it for every channel.
    Server,
    /// The channel's admins set it here.
    Channel,
}

impl Source {
    /// The source's key in messages.
    pub const fn key(self) -> &'static str {
        match self {
            Source::Default => "default",
            Source::Server => "server",
            Source::Channel => "channel",
        }
    }
}

/// The layers, lowest first, with their sources.
fn stack<'a>(base: &'a Layer, server: Option<&'a Layer>, own: &'a Layer) -> [(Source, Option<&'a Layer>); 3] {
    [(Source::Default, Some(base)), (Source::Server, server), (Source::Channel, Some(own))]
}

/// The rules the layers make: the highest preset, then every key set at
/// or above it, lowest first. A key the engine refuses in that
/// company keeps the value below it.
pub fn rules(base: &Layer, server: Option<&Layer>, own: &Layer) -> Rules {
    let mut r = Rules::default();
    for (_, layer) in stack(base, server, own) {
        let Some(layer) = layer else { continue };
        if let Some(p) = layer.preset.as_deref().and_then(|p| Preset::from_name(p).ok()) {
            r = Rules::preset(p);
        }
        for (k, v) in &layer.rules {
            let mut next = r;
            if next.set(k, v).is_ok() {
                r = next;
            }
        }
    }
    r
}

/// The language the layers make (English when none sets one).
pub fn lang(base: &Layer, server: Option<&Layer>, own: &Layer) -> Lang {
    stack(base, server, own).iter().rev().find_map(|(_, l)| l.and_then(|l| l.lang)).unwrap_or_default()
}

/// The timeout policy the layers make.
pub fn policy(base: &Layer, server: Option<&Layer>, own: &Layer) -> TimeoutPolicy {
    stack(base, server, own).iter().rev().find_map(|(_, l)| l.and_then(|l| l.policy)).unwrap_or_default()
}

/// Where a house-rule key's value comes from: the highest layer that
/// sets it, or sets a preset (which speaks for every key).
pub fn rule_source(server: Option<&Layer>, own: &Layer, key: &str) -> Source {
    highest(server, own, |l| l.rules.contains_key(key) || l.preset.is_some())
}

/// Which layer set a house-rule key by itself (not through a preset):
/// what `rules show` marks beside the key (a key that follows a preset
/// comes from where the preset does).
pub fn rule_setter(server: Option<&Layer>, own: &Layer, key: &str) -> Option<Source> {
    if own.rules.contains_key(key) {
        Some(Source::Channel)
    } else if own.preset.is_some() {
        None
    } else if server.is_some_and(|l| l.rules.contains_key(key)) {
        Some(Source::Server)
    } else {
        None
    }
}

/// The highest of the server's and the channel's layers that `sets`.
fn highest(server: Option<&Layer>, own: &Layer, sets: impl Fn(&Layer) -> bool) -> Source {
    if sets(own) {
        Source::Channel
    } else if server.is_some_and(&sets) {
        Source::Server
    } else {
        Source::Default
    }
}

/// Where the preset comes from.
pub fn preset_source(server: Option<&Layer>, own: &Layer) -> Source {
    highest(server, own, |l| l.preset.is_some())
}

/// Where the language comes from.
pub fn lang_source(server: Option<&Layer>, own: &Layer) -> Source {
    highest(server, own, |l| l.lang.is_some())
}

/// Where the timeout policy comes from.
pub fn policy_source(server: Option<&Layer>, own: &Layer) -> Source {
    highest(server, own, |l| l.policy.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_channel_wins_over_the_server_which_wins_over_the_default() {
        let base = Layer::default();
        let mut server = Layer::default();
        server.set_rule(&Rules::default(), "bock", "on").unwrap();
        server.set_rule(&Rules::default(), "nines", "false").unwrap();
        server.lang = Some(Lang::De);
        let mut own = Layer::default();
        own.set_rule(&rules(&base, Some(&server), &own), "nines", "true").unwrap();
        let r = rules(&base, Some(&server), &own);
        assert_eq!(r.get("bock").unwrap(), "on");
        assert_eq!(r.get("nines").unwrap(), "true");
        assert_eq!(rule_source(Some(&server), &own, "bock"), Source::Server);
        assert_eq!(rule_source(Some(&server), &own, "nines"), Source::Channel);
        assert_eq!(rule_source(Some(&server), &own, "dulle"), Source::Default);
        assert_eq!(lang(&base, Some(&server), &own), Lang::De);
        assert_eq!(lang_source(Some(&server), &own), Source::Server);
        own.lang = Some(Lang::En);
        assert_eq!(lang(&base, Some(&server), &own), Lang::En);
        // a channel's preset speaks for every key, the server's keys too
        own.set_preset("casual").unwrap();
        assert_eq!(rules(&base, Some(&server), &own), Rules::preset(Preset::from_name("casual").unwrap()));
        assert_eq!(rule_source(Some(&server), &own, "bock"), Source::Channel);
        own.clear_rules();
        assert_eq!(rules(&base, None, &own), Rules::default());
    }

    #[test]
    fn a_layer_of_rules_makes_those_rules() {
        for p in Preset::ALL {
            let mut r = Rules::preset(p);
            r.set("bock", "on").unwrap();
            let l = Layer::of(&r, None);
            assert_eq!(rules(&l, None, &Layer::default()), r);
        }
    }
}
