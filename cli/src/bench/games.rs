//! `doko bench`: random complete games per second on one core, with what
//! the machine's host took of each core meanwhile.

use std::time::Instant;

use doko_engine::{Rng, Rules, playouts};

use super::machine::stolen_per_core;
use super::summary::{Target, summary_line};

/// Plays `games` random games and prints games per second, and how much
/// of each core the machine's host took meanwhile (a virtual machine's
/// steal time: a figure from a host that takes a fifth of a core is a
/// figure of the host, not of the engine).
///
/// With `runs` over one, the timed run is repeated (each from where the
/// last left the generator: other games, the same kind) and the median of
/// the runs is printed against the target of 2,000,000 games a second.
pub fn run(games: u64, seed: u64, nines: bool, runs: usize) {
    let rules = Rules { nines, ..Rules::default() };
    let mut rng = Rng::new(seed);
    // warm-up
    let mut checksum = playouts(&rules, &mut rng, games / 20);
    let mut rates = Vec::new();
    for _ in 0..runs.max(1) {
        let before = std::fs::read_to_string("/proc/stat").ok();
        let start = Instant::now();
        checksum += playouts(&rules, &mut rng, games);
        let secs = start.elapsed().as_secs_f64();
        let after = std::fs::read_to_string("/proc/stat").ok();
        println!(
            "{games} random games ({} cards) in {secs:.3} s: {:.0} games/s, {:.0} ns/game (checksum {checksum})",
            if nines { 48 } else { 40 },
            games as f64 / secs,
            secs * 1e9 / games as f64
        );
        if let (Some(b), Some(a)) = (before, after)
            && let Some(stolen) = stolen_per_core(&b, &a)
        {
            println!("the host took over the run: {stolen}");
        }
        rates.push(games as f64 / secs);
    }
    if runs > 1 {
        println!("{}", summary_line("games/s", 0, Target::AtLeast(2_000_000.0), &rates));
    }
}
