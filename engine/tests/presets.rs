//! `config/presets.md` lists every rule key with its value in each preset;
//! it must agree with the engine.

use doko_engine::{KEYS, Preset, Rules};

#[test]
fn presets_doc_matches_the_engine() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../config/presets.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let ddv = Rules::preset(Preset::Ddv);
    let casual = Rules::preset(Preset::Casual);
    for k in KEYS {
        let line = format!(
            "| `{}` | {} | {} | {} | {} | {} |",
            k.name,
            ddv.get(k.name).unwrap(),
            casual.get(k.name).unwrap(),
            k.allowed,
            k.kind.json(),
            k.meaning
        );
        assert!(doc.contains(&line), "config/presets.md lacks the line: {line}");
    }
}
