//! Prints the key table of `config/presets.md`:
//! `cargo run -p doko-engine --example presets_table`.

fn main() {
    print!("{}", doko_engine::key_table());
}
