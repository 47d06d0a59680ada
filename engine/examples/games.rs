//! Random complete games per second on one core, the engine alone (the
//! loop of `doko bench`): `cargo run --release -p doko-engine --example
//! games -- [GAMES] [SEED]`.

use std::time::Instant;

use doko_engine::{Rng, Rules, playout};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let rules = Rules::default();
    let mut rng = Rng::new(seed);
    let mut checksum: i64 = 0;
    for _ in 0..games / 20 {
        checksum += playout(&rules, &mut rng) as i64;
    }
    let start = Instant::now();
    for _ in 0..games {
        checksum += playout(&rules, &mut rng) as i64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games in {secs:.3} s: {:.0} games/s, {:.0} ns/game (checksum {checksum})",
        games as f64 / secs,
        secs * 1e9 / games as f64
    );
}
