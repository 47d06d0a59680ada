//! `docs/rules.md` lists every rule key with its value in each preset, its
//! allowed values, its form in a record and its meaning; it must agree
//! with the engine. With `DOKO_UPDATE_DOCS=1` the test writes the engine's
//! table into the page instead.

#[test]
fn the_rules_page_has_the_engines_key_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules.md");
    let page = std::fs::read_to_string(path).unwrap();
    let (begin, end) = ("<!-- rules:begin -->\n", "<!-- rules:end -->");
    let start = page.find(begin).expect("docs/rules.md marks its key table") + begin.len();
    let stop = page[start..].find(end).expect("the end marker") + start;
    let table = doko_engine::key_table();
    if std::env::var_os("DOKO_UPDATE_DOCS").is_some() {
        std::fs::write(path, format!("{}{table}{}", &page[..start], &page[stop..])).unwrap();
        return;
    }
    assert_eq!(&page[start..stop], table, "docs/rules.md's key table (DOKO_UPDATE_DOCS=1 writes it)");
}
