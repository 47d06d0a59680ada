//! Prints the key table of `docs/rules.md`:
//! `cargo run -p doko-engine --example presets_table`.

fn main() {
    print!("{}", doko_engine::key_table());
}
