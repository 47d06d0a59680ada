//! The analysis on tiny crates held in memory.

use std::collections::BTreeMap;
use std::path::Path;

use super::*;

/// The circles of a crate made of `files` (path, text), rooted at `src/lib.rs`.
fn circles_of(files: &[(&str, &str)]) -> Vec<Circle> {
    let files: BTreeMap<&Path, String> = files.iter().map(|(p, t)| (Path::new(*p), t.to_string())).collect();
    let read = |p: &Path| files.get(p).cloned();
    crate_circles("demo", Path::new("src/lib.rs"), &read).unwrap().0
}

fn keys(circles: &[Circle]) -> Vec<String> {
    circles.iter().map(Circle::key).collect()
}

#[test]
fn a_circle_of_two_modules_is_found_with_its_names() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; mod b;"),
        ("src/a.rs", "use crate::b::{B, helper}; pub struct A;"),
        ("src/b.rs", "pub struct B; pub fn helper() {} fn f() -> crate::a::A { todo!() }"),
    ]);
    assert_eq!(keys(&circles), ["src/a.rs src/b.rs"]);
    assert_eq!(circles[0].walk, "src/a.rs -> src/b.rs (B, helper) -> src/a.rs (A)");
    assert_eq!(
        circles[0].message().lines().next(),
        Some("crate demo: circle of 2 files: src/a.rs -> src/b.rs (B, helper) -> src/a.rs (A)")
    );
}

#[test]
fn a_ring_is_a_circle_a_chain_is_not() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; mod b; mod c; pub use a::A;"),
        ("src/a.rs", "use crate::b::B; pub struct A(B);"),
        ("src/b.rs", "pub struct B(crate::c::C);"),
        ("src/c.rs", "pub struct C; fn f() { let _ = crate::A; }"),
    ]);
    // c uses `crate::A`, which is a's: a -> b -> c -> a
    assert_eq!(keys(&circles), ["src/a.rs src/b.rs src/c.rs"]);
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; mod b; mod c;"),
        ("src/a.rs", "use crate::b::B; pub struct A(B);"),
        ("src/b.rs", "pub struct B(crate::c::C);"),
        ("src/c.rs", "pub struct C;"),
    ]);
    assert!(circles.is_empty());
}

#[test]
fn a_re_export_is_followed_to_the_defining_file() {
    // `crate::Thing` is c's, through lib.rs and then b's glob: a and c form
    // the circle, lib.rs and b.rs do not join it
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; mod b; mod c; pub use b::Thing;"),
        ("src/a.rs", "use crate::Thing; pub fn go() {}"),
        ("src/b.rs", "pub use crate::c::*;"),
        ("src/c.rs", "pub struct Thing; fn f() { crate::a::go(); }"),
    ]);
    assert_eq!(keys(&circles), ["src/a.rs src/c.rs"]);
    assert_eq!(circles[0].walk, "src/a.rs -> src/c.rs (Thing) -> src/a.rs (go)");
}

#[test]
fn a_re_export_only_there_for_others_makes_no_edge() {
    // lib.rs passes `run` on and has a helper a uses: no circle
    let facade = [
        ("src/lib.rs", "mod a; pub use a::{Config, run}; pub fn helper() {}"),
        ("src/a.rs", "pub struct Config; pub fn run() { crate::helper() }"),
    ];
    assert!(circles_of(&facade).is_empty());
    // lib.rs uses what it re-exports itself: a circle, named by that name
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; pub use a::{Config, run}; pub fn helper(_: &Config) {}"),
        ("src/a.rs", "pub struct Config; pub fn run() { crate::helper(&Config) }"),
    ]);
    assert_eq!(circles[0].walk, "src/lib.rs -> src/a.rs (Config) -> src/lib.rs (helper)");
}

#[test]
fn super_and_self_resolve_and_inline_modules_belong_to_their_file() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod m;"),
        ("src/m.rs", "mod x; mod y; mod inner { pub fn deep() { super::x::X::new(); } }"),
        ("src/m/x.rs", "pub struct X; use super::y::Y;"),
        ("src/m/y.rs", "pub struct Y; fn f() { super::inner::deep(); self::g() } fn g() {}"),
    ]);
    assert_eq!(keys(&circles), ["src/m.rs src/m/x.rs src/m/y.rs"]);
}

#[test]
fn a_mod_declaration_test_modules_and_other_crates_make_no_edge() {
    // a uses lib.rs's Root; `mod a;` is no edge back
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; pub struct Root;"),
        ("src/a.rs", "use std::fmt; use doko_engine::Game; pub struct A(crate::Root);"),
    ]);
    assert!(circles.is_empty());
    // lib.rs uses a's A; only a's tests use lib.rs's Root, or b's B
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; mod b; pub use a::A; pub struct Root;"),
        ("src/a.rs", "pub struct A; #[cfg(test)] mod tests; #[cfg(test)] mod inline { use crate::Root; }"),
        ("src/b.rs", "pub struct B(crate::a::A);"),
        ("src/a/tests.rs", "use crate::b::B;"),
    ]);
    assert!(circles.is_empty());
}

#[test]
fn child_modules_macros_serde_paths_and_module_imports_make_edges() {
    let circles = circles_of(&[
        ("src/lib.rs", "mod a; mod b; mod c; #[path = \"d_here.rs\"] mod d;"),
        ("src/a.rs", "use crate::b; fn f() { b::go(); }"),
        ("src/b.rs", "pub fn go() { format!(\"{}\", crate::c::C); }"),
        ("src/c.rs", "pub struct C(#[serde(skip_serializing_if = \"crate::d::is_zero\")] u8);"),
        ("src/d_here.rs", "pub fn is_zero(_: &u8) -> bool { crate::a::f(); true }"),
    ]);
    assert_eq!(keys(&circles), ["src/a.rs src/b.rs src/c.rs src/d_here.rs"]);
}

/// A function of `body` lines between its signature and closing brace.
fn function_of(lines: usize) -> String {
    let mut text = String::from("/// docs\n#[inline]\npub fn long(\n    x: u8,\n) {\n");
    for _ in 0..lines - 4 {
        text.push_str("    let _ = x;\n");
    }
    text.push_str("}\n");
    text
}

#[test]
fn a_101_line_function_is_long_a_100_line_one_is_not() {
    for (lines, long) in [(100, false), (101, true)] {
        let text = function_of(lines);
        let found = sizes::functions(&text).unwrap();
        assert_eq!(found, [Function { name: "long".into(), line: 3, lines }]);
        assert_eq!(found[0].lines > MAX_FUNCTION_LINES, long);
    }
}

#[test]
fn functions_are_named_by_their_impl_module_and_macro() {
    let text = "mod tests {\n    impl<T> Table<T> {\n        fn apply(&self) {\n        }\n    }\n}\n\
                trait Tr { fn provided(&self) {} fn required(&self); }\n\
                proptest! {\n    #[test]\n    fn prop(x in 0..3u8) {\n        let _ = x;\n    }\n}\n";
    let found: Vec<(String, usize, usize)> =
        sizes::functions(text).unwrap().into_iter().map(|f| (f.name, f.line, f.lines)).collect();
    assert_eq!(found, [("tests::Table::apply".into(), 3, 2), ("Tr::provided".into(), 7, 1), ("prop".into(), 10, 3)]);
}

#[test]
fn lines_are_counted_as_wc_does() {
    assert_eq!(sizes::line_count(""), 0);
    assert_eq!(sizes::line_count("a\nb"), 1);
    assert_eq!(sizes::line_count("a\nb\n"), 2);
}

#[test]
fn the_ratchet_fails_on_new_things_and_on_fixed_ones() {
    let found = [("a".to_owned(), "a is long".to_owned()), ("b".to_owned(), "b is long".to_owned())];
    assert!(ratchet("LIST", &["a", "b"], &found).is_empty());
    let failures = ratchet("LIST", &["a", "c"], &found);
    assert_eq!(failures.len(), 2);
    assert!(failures[0].starts_with("new: b is long"), "{failures:?}");
    assert_eq!(failures[1], "fixed: remove it from LIST: \"c\"");
}

#[test]
fn a_circle_broken_in_part_asks_for_what_is_left() {
    let found = [("a b".to_owned(), "circle a b".to_owned()), ("x y".to_owned(), "circle x y".to_owned())];
    let failures = circle_ratchet("LIST", &["a b c"], &found);
    assert_eq!(failures.len(), 3, "{failures:?}");
    assert!(failures[0].starts_with("smaller: circle a b"), "{failures:?}");
    assert!(failures[0].ends_with("replace \"a b c\" in LIST with \"a b\")"), "{failures:?}");
    assert!(failures[1].starts_with("new: circle x y"), "{failures:?}");
    assert_eq!(failures[2], "fixed: remove it from LIST: \"a b c\"");
}
