//! `doko bench`'s engine loop without the service: random complete games
//! per second on one core, from a release build of the engine alone (a
//! minute to build, where the `doko` binary takes half an hour).
//!
//! `cargo run --release -p doko-engine --example games -- [GAMES] [SEED] [no-nines]`

use std::time::Instant;

use doko_engine::{Rng, Rules, playouts};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let nines = args.next().as_deref() != Some("no-nines");
    let rules = Rules { nines, ..Rules::default() };
    let mut rng = Rng::new(seed);
    // warm-up, as `doko bench`
    let mut checksum = playouts(&rules, &mut rng, games / 20);
    let start = Instant::now();
    checksum += playouts(&rules, &mut rng, games);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} random games: {:.0} games/s, {:.0} ns/game (checksum {checksum})",
        games as f64 / secs,
        secs * 1e9 / games as f64
    );
}
