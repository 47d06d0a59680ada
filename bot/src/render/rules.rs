//! The table's house rules, cut into parts that fit a message.

use crate::table::Table;
use crate::tr;

/// The rule set with what differs from the preset marked.
pub fn rules(t: &Table) -> String {
    rules_parts(t).concat()
}

/// The most characters of one message of `rules`: every platform takes
/// it (Discord at most 2,000).
pub const RULES_PART_CHARS: usize = 1800;

/// `rules`: every key with its value (`*` where it differs from the
/// preset) and a line on what it means, in the table's language, in
/// parts of at most [`RULES_PART_CHARS`] characters cut between lines.
pub fn rules_parts(t: &Table) -> Vec<String> {
    let l = t.lang();
    let r = t.rules();
    let from = |src: crate::table::Source| tr!(l, "rules-source", source = src.key());
    let mut lines = vec![
        tr!(l, "rules-heading"),
        format!("preset {} ({})", r.preset.name(), from(t.preset_source())),
        tr!(
            l,
            "rules-lang-policy",
            lang = l.code(),
            lang_from = from(t.lang_source()),
            policy = t.policy().name(),
            policy_from = from(t.policy_source())
        ),
    ];
    for e in r.entries() {
        let mark = if e.differs { "*" } else { " " };
        let tag = t.rule_setter(e.key).map(|src| format!(" ({})", from(src))).unwrap_or_default();
        lines.push(format!("{mark} {} = {}{tag} - {}", e.key, e.value, tr!(l, "rule-about", key = e.key)));
    }
    if let Some(g) = t.game().ok().flatten()
        && g.rules() != t.rules()
    {
        lines.push(tr!(l, "rules-deal-differs"));
    }
    let mut parts: Vec<String> = vec![String::new()];
    for line in lines {
        let last = parts.last_mut().expect("one part at least");
        if !last.is_empty() && last.chars().count() + line.chars().count() + 1 > RULES_PART_CHARS {
            parts.push(String::new());
        }
        let last = parts.last_mut().expect("one part at least");
        last.push_str(&line);
        last.push('\n');
    }
    parts
}
