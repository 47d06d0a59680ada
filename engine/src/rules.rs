//! House rules: the option keys of `house-rules.md`, their values, the
//! `ddv` and `casual` presets, and validation with helpful messages.

mod keys;
mod options;
mod presets;
mod text;

pub use keys::{KEYS, KeyInfo, RuleError, ValueKind};
pub use options::{
    BockSet, BockStacking, BockTrigger, Dulle, Extra, ExtraSet, PigletsWhen, Preset, ReDeadline, ReKontra, Rules,
    SoloPriority, SoloSet, WeddingRule,
};
pub use text::{RuleEntry, key_table};
