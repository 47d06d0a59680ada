//! The rules in their text form: setting and reading one option as admins
//! type it, what differs from the preset, `rules show` and the key table.

use std::fmt;

use super::keys::{KEYS, KeyInfo, RuleError};
use super::options::{
    BockSet, BockStacking, BockTrigger, Dulle, Extra, ExtraSet, PigletsWhen, Preset, ReDeadline, ReKontra, Rules,
    SoloPriority, SoloSet, WeddingRule,
};
use crate::quote::quoted;
use crate::solo::SoloKind;

/// A yes-or-no value: `true`, `on`, `yes`, `1` or `false`, `off`, `no`, `0`.
fn boolean(v: &str) -> Option<bool> {
    match v {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A whole number from `lo` to `hi`.
fn number(v: &str, lo: u32, hi: u32) -> Option<u32> {
    let n: u32 = v.parse().ok()?;
    (lo..=hi).contains(&n).then_some(n)
}

/// `off` (or `false`), or a whole number from `lo` to `hi`.
fn off_or_number(v: &str, lo: u32, hi: u32) -> Option<Option<u8>> {
    if v == "off" || v == "false" { Some(None) } else { Some(Some(number(v, lo, hi)? as u8)) }
}

/// The one of `all` whose `key` is `v`.
fn word<T: Copy>(v: &str, all: &[T], key: fn(T) -> &'static str) -> Option<T> {
    all.iter().copied().find(|x| key(*x) == v)
}

fn onoff(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

/// The words of a list value (separated by spaces or commas), each one of
/// `all` by its `key`, none repeated; `none` adds nothing. `None`: a word
/// that is not one of them, or one repeated.
fn word_list<T: Copy + PartialEq>(v: &str, all: &[T], key: fn(T) -> &'static str) -> Option<Vec<T>> {
    let mut out: Vec<T> = Vec::new();
    for w in v.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty() && *w != "none") {
        let x = all.iter().copied().find(|x| key(*x) == w)?;
        if out.contains(&x) {
            return None;
        }
        out.push(x);
    }
    Some(out)
}

/// The text form of a list value: its words, or `none`.
fn list_text(words: impl Iterator<Item = &'static str>) -> String {
    let v: Vec<&str> = words.collect();
    if v.is_empty() { "none".to_string() } else { v.join(" ") }
}

fn opt_num(v: Option<u8>) -> String {
    v.map_or_else(|| "off".to_string(), |n| n.to_string())
}

impl Rules {
    /// Sets one option from its text form, as admins type it
    /// (`rules set dulle second-wins`).
    ///
    /// ```
    /// use doko_engine::Rules;
    /// let mut r = Rules::default();
    /// r.set("dulle", "second-wins").unwrap();
    /// let e = r.set("dulle", "third").unwrap_err();
    /// assert!(e.to_string().contains("first-wins, second-wins, second-wins-except-last"));
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let key_l = key.trim().to_ascii_lowercase().replace('-', "_");
        let info = KeyInfo::named(&key_l).ok_or_else(|| RuleError::UnknownKey { key: quoted(key) })?;
        let v = value.trim().to_ascii_lowercase();
        self.set_value(info.name, &v).ok_or_else(|| RuleError::BadValue {
            key: info.name,
            value: quoted(value),
            allowed: info.allowed,
        })
    }

    /// Sets the option `key` (as [`KEYS`] names it) to `v` (trimmed, in
    /// lower case); `None`, with nothing changed, when `v` is not one of
    /// its values.
    fn set_value(&mut self, key: &str, v: &str) -> Option<()> {
        match key {
            "nines" => self.nines = boolean(v)?,
            "dulle" => self.dulle = word(v, &Dulle::ALL, Dulle::key)?,
            "solos" => {
                let mut s = SoloSet::default();
                for k in word_list(v, &SoloKind::ALL, SoloKind::key)? {
                    s.insert(k);
                }
                self.solos = s;
            }
            "soloist_leads" => self.soloist_leads = boolean(v)?,
            "dullen" => self.dullen = boolean(v)?,
            "wedding" => self.wedding = word(v, &WeddingRule::ALL, WeddingRule::key)?,
            "wedding_choose" => self.wedding_choose = boolean(v)?,
            "poverty" => self.poverty = boolean(v)?,
            "poverty_max_trumps" => self.poverty_max_trumps = number(v, 0, 5)? as u8,
            "poverty_fox_counts" => self.poverty_fox_counts = boolean(v)?,
            "poverty_return_trumps" => self.poverty_return_trumps = boolean(v)?,
            "piglets" => self.piglets = boolean(v)?,
            "superpiglets" => self.superpiglets = boolean(v)?,
            "piglets_first_only" => self.piglets_first_only = boolean(v)?,
            "piglets_when" => self.piglets_when = word(v, &PigletsWhen::ALL, PigletsWhen::key)?,
            "piglets_announce" => self.piglets_announce = boolean(v)?,
            "half_chicken" => self.half_chicken = boolean(v)?,
            "genscher" => self.genscher = boolean(v)?,
            "black_sow" => self.black_sow = boolean(v)?,
            "throw_in_nines" => self.throw_in_nines = off_or_number(v, 5, 8)?,
            "throw_in_kings" => self.throw_in_kings = off_or_number(v, 5, 8)?,
            "throw_in_low_trumps" => self.throw_in_low_trumps = off_or_number(v, 0, 3)?,
            "throw_in_low_points" => self.throw_in_low_points = off_or_number(v, 10, 60)?,
            "re_kontra" => self.re_kontra = word(v, &ReKontra::ALL, ReKontra::key)?,
            "extra_points" => {
                let mut s = ExtraSet::default();
                for e in word_list(v, &Extra::ALL, Extra::key)? {
                    s.insert(e);
                }
                if s.contains(Extra::CharlieCaught) && s.contains(Extra::LizzieMiller) {
                    return None;
                }
                self.extra_points = s;
            }
            "mandatory_announcement" => self.mandatory_announcement = off_or_number(v, 30, 40)?,
            "mandatory_further" => self.mandatory_further = boolean(v)?,
            "compulsory_solos" => self.compulsory_solos = number(v, 0, 2)? as u8,
            "games_per_session" => self.games_per_session = number(v, 0, 100)? as u8,
            "bock" => self.bock = boolean(v)?,
            "turn_timeout" => self.turn_timeout = number(v, 0, 86_400)?,
            "solo_double" => self.solo_double = boolean(v)?,
            "solo_priority" => self.solo_priority = word(v, &SoloPriority::ALL, SoloPriority::key)?,
            "announce_on_turn" => self.announce_on_turn = boolean(v)?,
            "re_deadline" => self.re_deadline = word(v, &ReDeadline::ALL, ReDeadline::key)?,
            "bock_triggers" => {
                let mut s = BockSet::default();
                for t in word_list(v, &BockTrigger::ALL, BockTrigger::key)? {
                    s.insert(t);
                }
                self.bock_triggers = s;
            }
            "bock_stacking" => self.bock_stacking = word(v, &BockStacking::ALL, BockStacking::key)?,
            "coach" => self.coach = boolean(v)?,
            _ => unreachable!("every key in KEYS is handled"),
        }
        Some(())
    }

    /// The text form of one option's value.
    pub fn get(&self, key: &str) -> Result<String, RuleError> {
        let key_l = key.trim().to_ascii_lowercase().replace('-', "_");
        Ok(match key_l.as_str() {
            "nines" => self.nines.to_string(),
            "dulle" => self.dulle.key().to_string(),
            "solos" => list_text(self.solos.iter().map(|k| k.key())),
            "soloist_leads" => self.soloist_leads.to_string(),
            "dullen" => onoff(self.dullen),
            "wedding" => self.wedding.key().to_string(),
            "wedding_choose" => onoff(self.wedding_choose),
            "poverty" => onoff(self.poverty),
            "poverty_max_trumps" => self.poverty_max_trumps.to_string(),
            "poverty_fox_counts" => onoff(self.poverty_fox_counts),
            "poverty_return_trumps" => onoff(self.poverty_return_trumps),
            "piglets" => onoff(self.piglets),
            "superpiglets" => onoff(self.superpiglets),
            "piglets_first_only" => onoff(self.piglets_first_only),
            "piglets_when" => self.piglets_when.key().to_string(),
            "piglets_announce" => onoff(self.piglets_announce),
            "half_chicken" => onoff(self.half_chicken),
            "genscher" => onoff(self.genscher),
            "black_sow" => onoff(self.black_sow),
            "throw_in_nines" => opt_num(self.throw_in_nines),
            "throw_in_kings" => opt_num(self.throw_in_kings),
            "throw_in_low_trumps" => opt_num(self.throw_in_low_trumps),
            "throw_in_low_points" => opt_num(self.throw_in_low_points),
            "re_kontra" => self.re_kontra.key().to_string(),
            "extra_points" => list_text(self.extra_points.iter().map(|e| e.key())),
            "mandatory_announcement" => opt_num(self.mandatory_announcement),
            "mandatory_further" => onoff(self.mandatory_further),
            "compulsory_solos" => self.compulsory_solos.to_string(),
            "games_per_session" => self.games_per_session.to_string(),
            "bock" => onoff(self.bock),
            "turn_timeout" => self.turn_timeout.to_string(),
            "solo_double" => onoff(self.solo_double),
            "solo_priority" => self.solo_priority.key().to_string(),
            "announce_on_turn" => onoff(self.announce_on_turn),
            "re_deadline" => self.re_deadline.key().to_string(),
            "bock_triggers" => list_text(self.bock_triggers.iter().map(|t| t.key())),
            "bock_stacking" => self.bock_stacking.key().to_string(),
            "coach" => onoff(self.coach),
            _ => return Err(RuleError::UnknownKey { key: quoted(key) }),
        })
    }

    /// Every option with its value and whether it differs from the preset.
    pub fn entries(&self) -> Vec<RuleEntry> {
        let base = Rules::preset(self.preset);
        KEYS.iter()
            .map(|k| {
                let value = self.get(k.name).expect("known key");
                let differs = value != base.get(k.name).expect("known key");
                RuleEntry { key: k.name, value, differs }
            })
            .collect()
    }

    /// The options that differ from the preset, as `(key, value)`.
    pub fn overrides(&self) -> Vec<(&'static str, String)> {
        // (the common case, without writing out every key's value)
        if *self == Rules::preset(self.preset) {
            return Vec::new();
        }
        self.entries().into_iter().filter(|e| e.differs).map(|e| (e.key, e.value)).collect()
    }
}

/// The table of every key as `docs/rules.md` has it (markdown): the
/// key, its value in each preset, the allowed values, how a record writes
/// it, and its meaning.
pub fn key_table() -> String {
    let presets = Preset::ALL.map(Rules::preset);
    let mut out = String::from("| key |");
    for p in Preset::ALL {
        out.push_str(&format!(" `{}` |", p.name()));
    }
    out.push_str(" allowed values | in a record | meaning |\n|---|");
    out.push_str(&"---|".repeat(Preset::ALL.len() + 3));
    out.push('\n');
    for k in KEYS {
        out.push_str(&format!("| `{}` |", k.name));
        for r in &presets {
            out.push_str(&format!(" {} |", r.get(k.name).expect("a key")));
        }
        out.push_str(&format!(" {} | {} | {} |\n", k.allowed, k.kind.json(), k.meaning));
    }
    out
}

/// One line of `rules show`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEntry {
    /// The key.
    pub key: &'static str,
    /// Its value.
    pub value: String,
    /// Whether it differs from the preset.
    pub differs: bool,
}

impl fmt::Display for Rules {
    /// `rules show`: one line per option, `*` marking what differs from
    /// the preset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "preset {}", self.preset.name())?;
        for e in self.entries() {
            writeln!(f, "{} {} = {}", if e.differs { "*" } else { " " }, e.key, e.value)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_through_get_and_set() {
        for p in Preset::ALL {
            let r = Rules::preset(p);
            for k in KEYS {
                let v = r.get(k.name).unwrap();
                let mut r2 = Rules::preset(p);
                r2.set(k.name, &v).unwrap();
                assert_eq!(r, r2, "{}", k.name);
            }
        }
    }

    #[test]
    fn bad_values_list_the_allowed_ones() {
        let mut r = Rules::default();
        let cases = [
            ("nines", "maybe"),
            ("dulle", "x"),
            ("solos", "diamonds trumps"),
            ("wedding", "first"),
            ("poverty_max_trumps", "6"),
            ("throw_in_nines", "4"),
            ("throw_in_kings", "9"),
            ("re_kontra", "triples"),
            ("extra_points", "fox karlchen"),
            ("mandatory_announcement", "29"),
            ("compulsory_solos", "3"),
            ("games_per_session", "101"),
            ("turn_timeout", "-1"),
        ];
        for (k, v) in cases {
            let e = r.set(k, v).unwrap_err();
            match &e {
                RuleError::BadValue { allowed, .. } => assert!(e.to_string().contains(allowed)),
                other => panic!("{k}: {other:?}"),
            }
        }
        assert_eq!(r, Rules::default(), "a refused value changes nothing");
        assert!(matches!(r.set("foo", "1"), Err(RuleError::UnknownKey { .. })));
        assert!(r.set("foo", "1").unwrap_err().to_string().contains("dulle"));
    }
}
