//! `config/presets.md` lists every rule key with its value in each preset,
//! its allowed values, its form in a record and its meaning; it must agree
//! with the engine.

#[test]
fn presets_doc_matches_the_engine() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../config/presets.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let table = doko_engine::key_table();
    assert!(doc.contains(&table), "config/presets.md lacks the key table (regenerate it):\n{table}");
}
