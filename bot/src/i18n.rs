//! The translation catalog: every text a person reads, in English and
//! German, as [Fluent](https://projectfluent.org) messages with plural
//! rules (`1 card`, `2 cards`; `1 Karte`, `2 Karten`).
//!
//! The catalogs are `bot/locales/{en,de}/doko.ftl`, compiled into the
//! binary (nothing is read at run time) and parsed once, on first use, into
//! thread-safe bundles. Texts are looked up with [`Lang::msg`] or the
//! [`tr!`](crate::tr) macro:
//!
//! ```
//! use doko_bot::{Lang, tr};
//! assert_eq!(tr!(Lang::En, "table-cards", n = 1), "1 card");
//! assert_eq!(tr!(Lang::De, "table-cards", n = 2), "2 Karten");
//! ```
//!
//! Bidi isolation marks are off: the texts stay plain (chat platforms and
//! terminals show the marks as boxes).

use std::borrow::Cow;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast::{Expression, InlineExpression, Pattern, PatternElement};

use crate::lang::Lang;

/// The English catalog's source.
pub const EN_FTL: &str = include_str!("../locales/en/doko.ftl");
/// The German catalog's source.
pub const DE_FTL: &str = include_str!("../locales/de/doko.ftl");

/// A value for a message's variable: text or a number (numbers choose the
/// plural form). Text is borrowed where the caller has it (no copy).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'a> {
    /// Text, shown as it is.
    Text(Cow<'a, str>),
    /// A number.
    Number(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Arg<'a> {
        Arg::Text(Cow::Borrowed(s))
    }
}
impl<'a> From<String> for Arg<'a> {
    fn from(s: String) -> Arg<'a> {
        Arg::Text(Cow::Owned(s))
    }
}
impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Arg<'a> {
        Arg::Text(Cow::Borrowed(s.as_str()))
    }
}
impl<'a> From<Cow<'a, str>> for Arg<'a> {
    fn from(s: Cow<'a, str>) -> Arg<'a> {
        Arg::Text(s)
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl<'a> From<$t> for Arg<'a> {
            fn from(n: $t) -> Arg<'a> {
                Arg::Number(n as f64)
            }
        }
        impl<'a> From<&$t> for Arg<'a> {
            fn from(n: &$t) -> Arg<'a> {
                Arg::Number(*n as f64)
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

/// Why a message could not be formatted (a bug in a catalog or a caller).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{lang:?} message '{id}': {problems}")]
pub struct CatalogError {
    /// The language.
    pub lang: Lang,
    /// The message id.
    pub id: String,
    /// What Fluent reported.
    pub problems: String,
}

struct Catalog {
    en: FluentBundle<FluentResource>,
    de: FluentBundle<FluentResource>,
}

fn bundle(code: &str, source: &'static str) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(source.to_string())
        .unwrap_or_else(|(_, errors)| panic!("the {code} catalog does not parse: {errors:?}"));
    let id: unic_langid::LanguageIdentifier = code.parse().expect("a language code");
    let mut b = FluentBundle::new_concurrent(vec![id]);
    b.set_use_isolating(false);
    b.add_resource(resource).unwrap_or_else(|errors| panic!("the {code} catalog has duplicates: {errors:?}"));
    b
}

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog { en: bundle("en", EN_FTL), de: bundle("de", DE_FTL) });

fn bundle_of(lang: Lang) -> &'static FluentBundle<FluentResource> {
    match lang {
        Lang::En => &CATALOG.en,
        Lang::De => &CATALOG.de,
    }
}

/// Formats message `id` with `args`, reporting any problem (unknown id,
/// missing variable).
pub fn try_msg(lang: Lang, id: &str, args: &[(&str, Arg<'_>)]) -> Result<String, CatalogError> {
    let err = |problems: String| CatalogError { lang, id: id.to_string(), problems };
    let b = bundle_of(lang);
    let pattern = b.get_message(id).and_then(|m| m.value()).ok_or_else(|| err("no such message".into()))?;
    // most messages are text and variables only: written here, as Fluent
    // would write them, without its resolver (its arguments' map, scope
    // and value copies); anything else, or a variable not given, by Fluent
    let mut text = String::with_capacity(128);
    if write_plain(&mut text, lang, pattern, args).is_some() {
        return Ok(text);
    }
    let mut errors = Vec::new();
    let text = b.format_pattern(pattern, Some(&fluent_args(args)), &mut errors).into_owned();
    if errors.is_empty() { Ok(text) } else { Err(err(format!("{errors:?}"))) }
}

/// `args` as Fluent's arguments (the texts borrowed, not copied).
fn fluent_args<'a>(args: &'a [(&str, Arg<'_>)]) -> FluentArgs<'a> {
    let mut fargs = FluentArgs::with_capacity(args.len());
    for (k, v) in args {
        match v {
            Arg::Text(s) => fargs.set(*k, FluentValue::from(&**s)),
            Arg::Number(n) => fargs.set(*k, FluentValue::from(*n)),
        }
    }
    fargs
}

/// A pattern of text, variables and selections on a variable, written
/// with `args` into `out` as Fluent writes it (isolation marks are off; a
/// number as Fluent's default number format, Rust's shortest `f64` form;
/// a selection as Fluent picks its variant: the first whose key is the
/// text, the number, or the number's plural category, else the default);
/// `None` for any other pattern or a variable not given. Fluent's
/// resolver (its arguments' map, scope and value copies) cost twice this.
fn write_plain(out: &mut String, lang: Lang, pattern: &Pattern<&str>, args: &[(&str, Arg<'_>)]) -> Option<()> {
    use std::fmt::Write as _;
    for e in &pattern.elements {
        match e {
            PatternElement::TextElement { value } => out.push_str(value),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id }),
            } => match arg(args, id.name)? {
                Arg::Text(t) => out.push_str(t),
                Arg::Number(n) => {
                    let _ = write!(out, "{n}");
                }
            },
            PatternElement::Placeable {
                expression: Expression::Select { selector: InlineExpression::VariableReference { id }, variants },
            } => {
                let value = arg(args, id.name)?;
                // the first variant that selects, else the default; a key
                // this cannot judge as Fluent would: Fluent decides
                let mut chosen = None;
                for v in variants {
                    if selects(lang, &v.key, value)? && chosen.is_none() {
                        chosen = Some(v);
                    }
                }
                let chosen = chosen.or_else(|| variants.iter().find(|v| v.default))?;
                write_plain(out, lang, &chosen.value, args)?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// The argument named `name`.
fn arg<'a, 'b>(args: &'a [(&str, Arg<'b>)], name: &str) -> Option<&'a Arg<'b>> {
    args.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
}

/// Whether a variant's key selects `value`, as Fluent decides it: a text
/// is the key's name; a number falls in the plural category the key
/// names. `None` where this cannot tell as Fluent would (a number that
/// is not a whole number from 0 up, a number key given a number).
fn selects(lang: Lang, key: &fluent_syntax::ast::VariantKey<&str>, value: &Arg<'_>) -> Option<bool> {
    use fluent_syntax::ast::VariantKey;
    match (key, value) {
        (VariantKey::Identifier { name }, Arg::Text(t)) => Some(*name == &**t),
        (VariantKey::NumberLiteral { .. }, Arg::Text(_)) => Some(false),
        (_, Arg::Number(n)) if !(n.fract() == 0.0 && *n >= 0.0 && *n < 1e15) => None,
        // (a number key's match depends on Fluent's number options)
        (VariantKey::NumberLiteral { .. }, Arg::Number(_)) => None,
        (VariantKey::Identifier { name }, Arg::Number(n)) => {
            // the cardinal plural categories of English and German: `one`
            // for 1 (a whole number, as all of this program's numbers
            // are), `other` for every other number; no other category
            let one = match lang {
                Lang::En | Lang::De => *n == 1.0,
            };
            Some(match *name {
                "one" => one,
                "other" => !one,
                _ => false,
            })
        }
    }
}

/// Whether the catalogs have a message.
pub fn has(lang: Lang, id: &str) -> bool {
    bundle_of(lang).has_message(id)
}

thread_local! {
    /// [`Lang::word`]'s texts by language, id and variables, and the key
    /// being looked up (kept to be written again without allocating).
    static WORDS: std::cell::RefCell<(Vec<u8>, Words)> = Default::default();
}

/// [`Lang::word`]'s texts by key: a short key of bytes, hashed with FxHash
/// (the standard library's SipHash was a third of a word's time; the keys
/// are the program's own words, not chosen by an outsider).
type Words = std::collections::HashMap<Vec<u8>, &'static str, rustc_hash::FxBuildHasher>;

/// The most texts [`Lang::word`] keeps per thread (it starts afresh when
/// full: a caller that passed names or cards would fill it).
const WORDS_KEPT: usize = 1024;

/// The most distinct texts [`Lang::word`] keeps for the life of the
/// process (its words are a closed set of some hundreds; beyond this, a
/// word is formatted afresh each time, so a caller that passed names or
/// cards cannot make the process keep more than a few hundred kilobytes).
const WORDS_FOR_GOOD: usize = 4096;

/// The texts [`Lang::word`] keeps for the life of the process, each once:
/// every thread's kept words point into it, so a word is handed out
/// without a copy.
static INTERNED: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

/// `text` kept for the life of the process (the same text once), or
/// `None` when [`WORDS_FOR_GOOD`] texts are kept already.
fn intern(text: &str) -> Option<&'static str> {
    let mut kept = INTERNED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(t) = kept.iter().find(|t| **t == text) {
        return Some(t);
    }
    if kept.len() >= WORDS_FOR_GOOD {
        return None;
    }
    let t: &'static str = Box::leak(text.into());
    kept.push(t);
    Some(t)
}

impl Lang {
    /// The message `id` of the catalog in this language, with its
    /// variables. A missing message or variable is a bug: it fails debug
    /// builds (and so every test that renders it) and shows the id in
    /// release builds.
    pub fn msg(self, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        match try_msg(self, id, args) {
            Ok(text) => text,
            Err(e) => {
                debug_assert!(false, "{e}");
                tracing::error!(error = %e, "translation missing");
                id.to_string()
            }
        }
    }

    /// [`msg`](Self::msg) for a message whose variables take a few values
    /// only (a party, a bid's word, a count of cards, no variable at all):
    /// formatted by Fluent once, then kept for the life of the process and
    /// lent (no copy). The table and the hands are rendered at every move,
    /// with a dozen such words each.
    pub fn word(self, id: &str, args: &[(&str, Arg<'_>)]) -> Cow<'static, str> {
        WORDS.with(|w| {
            let mut w = w.borrow_mut();
            let (key, kept) = &mut *w;
            // the key: each part after its kind and length (no formatting:
            // this is asked a dozen times a move)
            key.clear();
            let mut keyed = key_part(key, b'L', self.code()) && key_part(key, b'I', id);
            for (k, v) in args {
                keyed = keyed
                    && key_part(key, b'K', k)
                    && match v {
                        Arg::Text(t) => key_part(key, b'T', t),
                        Arg::Number(n) => {
                            key.push(b'N');
                            key.extend_from_slice(&n.to_bits().to_le_bytes());
                            true
                        }
                    };
            }
            if !keyed {
                return Cow::Owned(self.msg(id, args));
            }
            if let Some(text) = kept.get(key.as_slice()) {
                return Cow::Borrowed(*text);
            }
            let text = self.msg(id, args);
            let Some(text) = intern(&text) else {
                return Cow::Owned(text);
            };
            if kept.len() >= WORDS_KEPT {
                kept.clear();
            }
            kept.insert(key.clone(), text);
            Cow::Borrowed(text)
        })
    }
}

/// Adds a part of [`Lang::word`]'s key: its kind, its length (as one
/// character) and itself; `false` for a part too long to be a word's.
#[inline]
fn key_part(key: &mut Vec<u8>, kind: u8, part: &str) -> bool {
    let Ok(len) = u8::try_from(part.len()) else {
        return false;
    };
    key.extend_from_slice(&[kind, len]);
    key.extend_from_slice(part.as_bytes());
    true
}

/// [`tr!`](crate::tr) for a message whose variables take a few values
/// only (see [`Lang::word`]): `cached_tr!(lang, "party", party = "re")`.
#[macro_export]
macro_rules! cached_tr {
    ($lang:expr, $id:expr $(, $k:ident = $v:expr)* $(,)?) => {
        $lang.word($id, &[$((stringify!($k), $crate::i18n::Arg::from($v))),*])
    };
}

/// Looks up a message: `tr!(lang, "id")` or `tr!(lang, "id", name = value,
/// ...)`; values are text or numbers (see [`Arg`]).
#[macro_export]
macro_rules! tr {
    ($lang:expr, $id:expr $(, $k:ident = $v:expr)* $(,)?) => {
        $lang.msg($id, &[$((stringify!($k), $crate::i18n::Arg::from($v))),*])
    };
}

/// The message ids of a catalog source and the variables each uses, in
/// order of appearance (for the consistency tests).
pub fn ids_and_variables(source: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in source.lines() {
        let starts_entry = line.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        if starts_entry && let Some((id, _)) = line.split_once('=') {
            out.push((id.trim().to_string(), Vec::new()));
        }
        if line.trim_start().starts_with('#') {
            continue;
        }
        if let Some((_, vars)) = out.last_mut() {
            let mut rest = line;
            while let Some(i) = rest.find('$') {
                rest = &rest[i + 1..];
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !name.is_empty() && !vars.contains(&name) {
                    vars.push(name);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_catalogs_have_the_same_messages_and_variables() {
        let mut en = ids_and_variables(EN_FTL);
        let mut de = ids_and_variables(DE_FTL);
        en.iter_mut().for_each(|(_, v)| v.sort());
        de.iter_mut().for_each(|(_, v)| v.sort());
        let en_ids: Vec<&String> = en.iter().map(|(i, _)| i).collect();
        let de_ids: Vec<&String> = de.iter().map(|(i, _)| i).collect();
        let only_en: Vec<_> = en_ids.iter().filter(|i| !de_ids.contains(i)).collect();
        let only_de: Vec<_> = de_ids.iter().filter(|i| !en_ids.contains(i)).collect();
        assert!(only_en.is_empty() && only_de.is_empty(), "only English: {only_en:?}; only German: {only_de:?}");
        for ((id, ve), (_, vd)) in en.iter().zip(&de) {
            assert_eq!(ve, vd, "the variables of {id}");
        }
        assert_eq!(en_ids.len(), en.len(), "no duplicate ids");
    }

    /// Every message of both catalogs, with every variable given texts
    /// (each selection's keys among them) and numbers, is written by the
    /// plain writer as Fluent writes it, wherever the plain writer takes
    /// it; and the messages with a selection are taken by it.
    #[test]
    fn the_plain_writer_writes_as_fluent() {
        let mut plain_written = 0;
        let mut selections = 0;
        for (lang, source) in [(Lang::En, EN_FTL), (Lang::De, DE_FTL)] {
            let b = bundle_of(lang);
            for (id, vars) in ids_and_variables(source) {
                let Some(pattern) = b.get_message(&id).and_then(|m| m.value()) else {
                    continue;
                };
                // the texts a variable may be given: the keys in the
                // message's source, and a name with a colon
                let entry = source.split("\n").skip_while(|l| !l.starts_with(&format!("{id} ="))).take(40);
                let mut texts: Vec<String> = entry
                    .filter_map(|l| l.trim_start().trim_start_matches('*').strip_prefix('['))
                    .filter_map(|l| l.split_once(']').map(|(k, _)| k.to_string()))
                    .collect();
                texts.push("Anna: ♣Q".to_string());
                let numbers = [0u32, 1, 2, 3, 5, 11, 12, 21, 100];
                let mut values: Vec<Arg<'_>> = texts.iter().map(|t| Arg::from(t.as_str())).collect();
                values.extend(numbers.iter().map(|n| Arg::from(*n)));
                // each variable through every value, the others at each
                // value in turn
                for fixed in &values {
                    for (i, _) in vars.iter().enumerate() {
                        for v in &values {
                            let args: Vec<(&str, Arg<'_>)> = vars
                                .iter()
                                .enumerate()
                                .map(|(j, name)| (name.as_str(), if i == j { v.clone() } else { fixed.clone() }))
                                .collect();
                            let mut errors = Vec::new();
                            let fluent = b.format_pattern(pattern, Some(&fluent_args(&args)), &mut errors).into_owned();
                            let mut plain = String::new();
                            if write_plain(&mut plain, lang, pattern, &args).is_some() {
                                assert_eq!(plain, fluent, "{lang:?} {id} {args:?}");
                                plain_written += 1;
                            }
                        }
                    }
                }
                let has_select = pattern
                    .elements
                    .iter()
                    .any(|e| matches!(e, PatternElement::Placeable { expression: Expression::Select { .. } }));
                if has_select && taken_with_select(lang, pattern, &vars, &values) {
                    selections += 1;
                }
            }
        }
        assert!(plain_written > 10_000, "{plain_written}");
        assert!(selections > 20, "{selections}");
        let to_act = bundle_of(Lang::De).get_message("table-to-act").and_then(|m| m.value()).expect("there");
        let mut out = String::new();
        let args = [("name", Arg::from("Anna")), ("phase", Arg::from("playing"))];
        assert!(write_plain(&mut out, Lang::De, to_act, &args).is_some(), "the plain writer takes table-to-act");
    }

    /// Whether the plain writer takes a pattern with some of `values`.
    fn taken_with_select(lang: Lang, pattern: &Pattern<&str>, vars: &[String], values: &[Arg<'_>]) -> bool {
        values.iter().any(|v| {
            let args: Vec<(&str, Arg<'_>)> = vars.iter().map(|n| (n.as_str(), v.clone())).collect();
            write_plain(&mut String::new(), lang, pattern, &args).is_some()
        })
    }

    /// A word kept is the message formatted afresh, for each language and
    /// value, also after the kept words were emptied for being too many.
    #[test]
    fn a_kept_word_is_the_message() {
        for round in 0..3 {
            for lang in Lang::ALL {
                for n in 0..13u32 {
                    assert_eq!(cached_tr!(lang, "table-cards", n = n), tr!(lang, "table-cards", n = n), "{n}");
                }
                for party in ["re", "kontra"] {
                    assert_eq!(cached_tr!(lang, "party", party = party), tr!(lang, "party", party = party));
                }
                assert_eq!(cached_tr!(lang, "hand-your-turn"), tr!(lang, "hand-your-turn"));
            }
            if round == 1 {
                // past what is kept: emptied, then filled again
                for n in 0..(WORDS_KEPT as u32 + 10) {
                    assert_eq!(cached_tr!(Lang::De, "table-cards", n = n), tr!(Lang::De, "table-cards", n = n));
                }
            }
        }
        // a text too long to be a word is formatted, not kept
        let long = "x".repeat(300);
        assert_eq!(cached_tr!(Lang::En, "party", party = long.as_str()), tr!(Lang::En, "party", party = long.as_str()));
        assert_eq!(cached_tr!(Lang::En, "table-cards", n = 1), "1 card");
        assert_eq!(cached_tr!(Lang::De, "table-cards", n = 2), "2 Karten");
    }

    #[test]
    fn every_message_resolves_with_sample_values() {
        for (lang, source) in [(Lang::En, EN_FTL), (Lang::De, DE_FTL)] {
            for (id, vars) in ids_and_variables(source) {
                for n in [0, 1, 2, 5] {
                    let args: Vec<(&str, Arg)> = vars.iter().map(|v| (v.as_str(), Arg::Number(n as f64))).collect();
                    let text = try_msg(lang, &id, &args).unwrap_or_else(|e| panic!("{e}"));
                    assert!(!text.trim().is_empty() || id.ends_with("-empty"), "{lang:?} {id} is empty");
                    assert!(!text.contains('\u{2068}'), "no isolation marks");
                }
            }
        }
    }

    /// The messages written without Fluent's resolver read exactly as
    /// Fluent writes them: every message of both catalogs, with text
    /// (with braces and marks in it) and numbers (whole, fractional,
    /// negative) as values; and a message of another kind, or a variable
    /// not given, goes to Fluent.
    #[test]
    fn plain_messages_read_as_fluent_writes_them() {
        let mut plain_ones = 0;
        for (lang, source) in [(Lang::En, EN_FTL), (Lang::De, DE_FTL)] {
            let b = bundle_of(lang);
            for (id, vars) in ids_and_variables(source) {
                let pattern = b.get_message(&id).and_then(|m| m.value()).expect("a message");
                let samples: [&dyn Fn(usize) -> Arg<'static>; 5] = [
                    &|i| Arg::Number(i as f64),
                    &|i| Arg::Number(i as f64 + 0.5),
                    &|i| Arg::Number(-(i as f64) - 12.0),
                    &|i| Arg::Text(format!("{{Näme}} {i} \\u{{41}} ♣").into()),
                    &|_| Arg::Text("".into()),
                ];
                for sample in samples {
                    let args: Vec<(&str, Arg)> =
                        vars.iter().enumerate().map(|(i, v)| (v.as_str(), sample(i))).collect();
                    let mut errors = Vec::new();
                    let fluent = b.format_pattern(pattern, Some(&fluent_args(&args)), &mut errors).into_owned();
                    assert!(errors.is_empty(), "{lang:?} {id}: {errors:?}");
                    if let Some(text) = plain(lang, pattern, &args) {
                        assert_eq!(text, fluent, "{lang:?} {id}");
                        plain_ones += 1;
                    }
                    assert_eq!(try_msg(lang, &id, &args).unwrap(), fluent, "{lang:?} {id}");
                }
                if !vars.is_empty() {
                    assert_eq!(plain(lang, pattern, &[]), None, "{lang:?} {id}: a variable not given goes to Fluent");
                }
            }
        }
        assert!(plain_ones > 1000, "messages written plain: {plain_ones}");
        // a message with a choice (plural) is written plain for a whole
        // number, and goes to Fluent for another
        let cards = bundle_of(Lang::En).get_message("table-cards").and_then(|m| m.value()).unwrap();
        assert_eq!(plain(Lang::En, cards, &[("n", Arg::Number(1.0))]).as_deref(), Some("1 card"));
        assert_eq!(plain(Lang::En, cards, &[("n", Arg::Number(1.5))]), None);
        assert_eq!(tr!(Lang::En, "table-cards", n = 1), "1 card");
    }

    /// The plain writer's text, if it takes the pattern.
    fn plain(lang: Lang, pattern: &Pattern<&str>, args: &[(&str, Arg<'_>)]) -> Option<String> {
        let mut out = String::new();
        write_plain(&mut out, lang, pattern, args).map(|()| out)
    }

    /// Every id the code looks up with a literal (through the macro or the
    /// method) exists in both catalogs: the bot's sources and the
    /// adapters' are scanned.
    #[test]
    fn every_id_used_in_code_exists() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let mut files = Vec::new();
        for dir in ["bot/src", "adapters/discord/src", "adapters/matrix/src", "adapters/terminal/src"] {
            collect_rs(&std::path::Path::new(root).join(dir), &mut files);
        }
        assert!(files.len() > 10, "sources found: {files:?}");
        let mut used = 0;
        for f in files {
            if f.ends_with("i18n.rs") {
                continue; // this file's examples
            }
            let text = std::fs::read_to_string(&f).unwrap();
            for id in literal_ids(&text) {
                used += 1;
                for lang in [Lang::En, Lang::De] {
                    assert!(has(lang, &id), "{} uses '{id}', which the {lang:?} catalog lacks", f.display());
                }
            }
        }
        assert!(used > 100, "ids found in code: {used}");
    }

    fn collect_rs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                collect_rs(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// The literal ids of the macro's and the method's calls.
    fn literal_ids(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (marker, skip_arg) in [("tr!(", true), (".msg(\"", false)] {
            let mut rest = text;
            while let Some(i) = rest.find(marker) {
                rest = &rest[i + marker.len()..];
                let after = if skip_arg {
                    // the first argument (the language) up to the comma
                    match rest.find(',') {
                        Some(c) if !rest[..c].contains('\n') || rest[..c].trim().len() < 40 => {
                            rest[c + 1..].trim_start()
                        }
                        _ => continue,
                    }
                } else {
                    rest
                };
                let after = after.strip_prefix('"').unwrap_or(if skip_arg { "" } else { after });
                if let Some(end) = after.find('"') {
                    let id = &after[..end];
                    if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                        out.push(id.to_string());
                    }
                }
            }
        }
        out
    }
}
