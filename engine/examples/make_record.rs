//! Writes the record of a random deal to stdout:
//! `cargo run -p doko-engine --example make_record -- SEED [PRESET [CONTRACT [ANNOUNCED]]]`.
//! With CONTRACT (e.g. `wedding`, `poverty`, `redeal`, `solo-queens`), the
//! first seed from SEED on whose deal ends with that contract is used;
//! with ANNOUNCED = `yes`, the deal must also have an announcement.

use doko_engine::{Preset, Record, ReplayResult, Rng, Rules, random_game};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let preset = args.next().map(|p| Preset::from_name(&p).expect("preset")).unwrap_or(Preset::Ddv);
    let contract = args.next();
    let announced = args.next().as_deref() == Some("yes");
    let rules = Rules::preset(preset);
    for s in seed.. {
        let mut rng = Rng::new(s);
        let g = random_game(&rules, &mut rng);
        let name = ReplayResult::new(g.clone()).to_json()["contract"].as_str().unwrap_or("").to_string();
        if contract.as_ref().is_none_or(|c| *c == name) && (!announced || !g.announcements().is_empty()) {
            eprintln!("seed {s}");
            print!("{}", Record::from_game(&g).to_json());
            return;
        }
    }
}
