//! `doko bench-pictures`: the card pictures' drawing time and size.

use std::time::{Duration, Instant};

/// `doko bench-pictures`: draws each kind of card picture `runs` times
/// from seeded deals and prints the median time and the size (issue 18:
/// at most 20 ms and 60 KB a picture on one core).
pub fn pictures(runs: usize) -> anyhow::Result<()> {
    use doko_bot::picture::{self, Faces, Mark};
    use doko_engine::Game;
    let runs = runs.max(1);
    let kinds: [(&str, bool); 4] = [("hand", true), ("trick", true), ("deal", true), ("deal without nines", false)];
    println!("{:<20} {:>10} {:>10} {:>10}", "picture", "median ms", "p99 ms", "KB");
    for (kind, nines) in kinds {
        let mut times = Vec::with_capacity(runs);
        let mut size = 0usize;
        for i in 0..runs {
            let rules = doko_engine::Rules { nines, ..Default::default() };
            let g = Game::deal(rules, doko_engine::Seat::new(0), i as u64 + 1);
            let hands: [Vec<doko_engine::Card>; 4] = std::array::from_fn(|s| g.dealt()[s].iter().collect());
            let faces = if i % 2 == 0 { Faces::German } else { Faces::English };
            let start = Instant::now();
            let png = match kind {
                "hand" => {
                    let cards: Vec<_> = hands[0]
                        .iter()
                        .enumerate()
                        .map(|(k, c)| (*c, if k % 3 == 0 { Mark::Playable } else { Mark::Dimmed }))
                        .collect();
                    picture::hand(&cards, faces)?
                }
                "trick" => picture::trick(&hands[1][..3], Some((&hands[2][..4], 2)), faces)?,
                _ => picture::deal(&hands, faces)?,
            };
            times.push(start.elapsed());
            size = size.max(png.len());
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        println!("{kind:<20} {:>10.2} {:>10.2} {:>10.1}", ms(times[times.len() / 2]), ms(p99), size as f64 / 1024.0);
    }
    Ok(())
}
