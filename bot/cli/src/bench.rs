//! `doko bench`: random complete games per second on one core.

use std::time::Instant;

use doko_engine::{Rng, Rules, playout};

/// Plays `games` random games and prints games per second.
pub fn run(games: u64, seed: u64, nines: bool) {
    let rules = Rules { nines, ..Rules::default() };
    let mut rng = Rng::new(seed);
    let mut checksum: i64 = 0;
    // warm-up
    for _ in 0..games / 20 {
        checksum += playout(&rules, &mut rng) as i64;
    }
    let start = Instant::now();
    for _ in 0..games {
        checksum += playout(&rules, &mut rng) as i64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} random games ({} cards) in {secs:.3} s: {:.0} games/s, {:.0} ns/game (checksum {checksum})",
        if nines { 48 } else { 40 },
        games as f64 / secs,
        secs * 1e9 / games as f64
    );
}
