//! Prints the preset table of `config/presets.md`:
//! `cargo run -p doko-engine --example presets_table`.

use doko_engine::{KEYS, Preset, Rules};

fn main() {
    let ddv = Rules::preset(Preset::Ddv);
    let casual = Rules::preset(Preset::Casual);
    println!("| key | `ddv` | `casual` | allowed values | in a record | meaning |");
    println!("|---|---|---|---|---|---|");
    for k in KEYS {
        println!(
            "| `{}` | {} | {} | {} | {} | {} |",
            k.name,
            ddv.get(k.name).unwrap(),
            casual.get(k.name).unwrap(),
            k.allowed,
            k.kind.json(),
            k.meaning
        );
    }
}
