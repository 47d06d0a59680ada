//! The table's house rules and language in layers (the host's defaults,
//! the server's, the table's own), and a server command's change.

use doko_engine::Rules;

use super::Table;
use super::errors::CommandError;
use super::layers::{self, Layer, ServerLayer, Source};
use super::stats::Stats;
use crate::command::{ServerCmd, TimeoutPolicy};
use crate::lang::Lang;

impl Table {
    /// A new table with these house rules and language (a host's defaults
    /// for new tables; admins change them at the table).
    pub fn new_with(rules: Rules, lang: Lang) -> Table {
        let mut t = Table { base: Layer::of(&rules, Some(lang)), ..Table::default() };
        t.apply_layers();
        t
    }

    /// A table stored before its settings were kept in layers takes its
    /// rules (what differs from the DDV rules), language and policy as the
    /// channel's own: nothing it had changes, and a server's defaults
    /// reach what it left at the built-in defaults.
    pub fn upgrade(&mut self) {
        // (format 3 reads formats 1 and 2 as they are; what it writes is
        // format 3)
        self.format = crate::store::STORE_FORMAT;
        if self.layered {
            return;
        }
        self.own = Layer::of(&self.rules, (self.lang != Lang::En).then_some(self.lang));
        self.own.policy = (self.policy != TimeoutPolicy::default()).then_some(self.policy);
        self.base = Layer::default();
        self.layered = true;
        self.apply_layers();
    }

    /// Puts the layers together into the rules, language and policy in
    /// force.
    pub(super) fn apply_layers(&mut self) {
        let server = self.server.as_ref().map(|s| &s.layer);
        self.rules = layers::rules(&self.base, server, &self.own);
        self.lang = layers::lang(&self.base, server, &self.own);
        self.policy = layers::policy(&self.base, server, &self.own);
    }

    /// The server's defaults this table holds, if it belongs to a server.
    pub fn server(&self) -> Option<&ServerLayer> {
        self.server.as_ref()
    }

    /// What the channel's admins set here.
    pub fn own(&self) -> &Layer {
        &self.own
    }

    /// Takes a server's defaults (a newer version of them, or another
    /// server's when the channel moved): true when the table changed.
    pub fn set_server(&mut self, layer: ServerLayer) -> bool {
        if let Some(s) = &self.server
            && s.id == layer.id
            && s.version >= layer.version
        {
            return false;
        }
        self.server = Some(layer);
        self.apply_layers();
        true
    }

    /// Leaves the server the table belonged to (the platform says the
    /// channel belongs to none now): true when it did belong to one.
    pub fn leave_server(&mut self) -> bool {
        if self.server.take().is_none() {
            return false;
        }
        self.apply_layers();
        true
    }

    /// Where a house-rule key's value in force comes from.
    pub fn rule_source(&self, key: &str) -> Source {
        layers::rule_source(self.server.as_ref().map(|s| &s.layer), &self.own, key)
    }

    /// Which layer set a house-rule key by itself, if one did (not
    /// through a preset).
    pub fn rule_setter(&self, key: &str) -> Option<Source> {
        layers::rule_setter(self.server.as_ref().map(|s| &s.layer), &self.own, key)
    }

    /// Where the preset in force comes from.
    pub fn preset_source(&self) -> Source {
        layers::preset_source(self.server.as_ref().map(|s| &s.layer), &self.own)
    }

    /// Where the language comes from.
    pub fn lang_source(&self) -> Source {
        layers::lang_source(self.server.as_ref().map(|s| &s.layer), &self.own)
    }

    /// Where the timeout policy comes from.
    pub fn policy_source(&self) -> Source {
        layers::policy_source(self.server.as_ref().map(|s| &s.layer), &self.own)
    }

    /// Statistics of a calendar month (`2026-11`).
    pub fn month_stats(&self, month: &str) -> Option<&Stats> {
        self.monthly.get(month)
    }

    /// The lists (sessions) started here so far.
    pub fn lists(&self) -> u32 {
        self.lists
    }
}

/// Makes a server command's change on a server's layer.
pub fn server_change(layer: &mut Layer, cmd: &ServerCmd) -> Result<(), CommandError> {
    match cmd {
        ServerCmd::Set { key, value } => {
            let below = layers::rules(&Layer::default(), Some(layer), &Layer::default());
            layer.set_rule(&below, key, value)?;
        }
        ServerCmd::Preset(name) => layer.set_preset(name)?,
        ServerCmd::Lang(l) => layer.lang = Some(*l),
        ServerCmd::Policy(p) => layer.policy = Some(*p),
        ServerCmd::Reset => *layer = Layer::default(),
    }
    Ok(())
}
