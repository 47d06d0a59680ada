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

/// Options of the table benchmark.
pub struct TablesOpts {
    /// Redis URL; none: start a redis-server of our own.
    pub redis: Option<String>,
    /// Concurrent tables.
    pub tables: usize,
    /// Actions per table (a deal is 4 bids and 48 cards).
    pub actions: usize,
    /// With the durable outbox: each action's outbox stored with it and
    /// marked delivered after it (as `deliver` does, with nothing sent).
    pub durable: bool,
}

async fn used_memory(url: &str) -> anyhow::Result<u64> {
    let client = redis::Client::open(url)?;
    let mut c = client.get_multiplexed_async_connection().await?;
    let info: String = redis::cmd("INFO").arg("memory").query_async(&mut c).await?;
    Ok(info.lines().find_map(|l| l.strip_prefix("used_memory:")).and_then(|v| v.trim().parse().ok()).unwrap_or(0))
}

/// Plays `tables` tables at once on Redis, four people each, and prints
/// actions per second, latency (median, p99) and Redis memory per table.
pub async fn tables(o: TablesOpts) -> anyhow::Result<()> {
    use std::sync::Arc;

    use doko_bot::command::Command;
    use doko_bot::player::{BasicPlayer, Player};
    use doko_bot::{Actor, ChannelId, Kind, Platform, RedisStore, Service, UserId};

    let (_guard, url) = match o.redis {
        Some(u) => (None, u),
        None => {
            let r = crate::local_redis::LocalRedis::start()?;
            let u = r.url();
            (Some(r), u)
        }
    };
    let before = used_memory(&url).await?;
    let svc = Service::new(RedisStore::connect(&url, 3600).await?, 5);
    let svc = Arc::new(if o.durable { svc.with_durable_outbox() } else { svc });
    let durable = o.durable;
    let setup = Instant::now();
    let mut handles = Vec::new();
    for t in 0..o.tables {
        let svc = svc.clone();
        handles.push(tokio::spawn(async move {
            let ch = ChannelId::new(Platform::Discord, format!("bench-{t}"));
            let people: Vec<Actor> = (0..4)
                .map(|i| Actor::new(UserId::new(Platform::Discord, format!("{t}-{i}")), format!("P{i}"), i == 0))
                .collect();
            for p in &people {
                svc.execute(&ch, p, Command::Join).await?;
            }
            svc.execute(&ch, &people[0], Command::Start).await?;
            Ok::<_, anyhow::Error>((ch, people))
        }));
    }
    let mut tables = Vec::new();
    for h in handles {
        tables.push(h.await??);
    }
    let setup_s = setup.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut handles = Vec::new();
    for (ch, people) in tables {
        let svc = svc.clone();
        let n = o.actions;
        handles.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity(n);
            for _ in 0..n {
                let (t, _) = svc.table(&ch).await?;
                let Some(g) = t.game()? else { break };
                let Some(seat) = g.mandatory_announcement().or(g.to_act()) else { break };
                let Some(ts) = t.table_seat(seat) else { break };
                let Some(actor) = people.iter().find(|a| t.seat_of(&a.user) == Some(ts)) else { break };
                let cmd = Command::from_action(BasicPlayer.decide(&g.view(seat)));
                let t0 = Instant::now();
                let msgs = svc.execute(&ch, actor, cmd).await?;
                if durable && !msgs.owed.is_empty() {
                    doko_bot::App::delivered(&*svc, &ch, &msgs.owed).await;
                }
                lat.push(t0.elapsed());
                if msgs.private.iter().any(|m| m.kind == Kind::Error) {
                    // a refused choice (a forced solo): take the first legal action
                    let cmd = Command::from_action(g.view(seat).legal[0]);
                    let msgs = svc.execute(&ch, actor, cmd).await?;
                    if durable && !msgs.owed.is_empty() {
                        doko_bot::App::delivered(&*svc, &ch, &msgs.owed).await;
                    }
                }
            }
            Ok::<_, anyhow::Error>(lat)
        }));
    }
    let mut lat = Vec::new();
    for h in handles {
        lat.extend(h.await??);
    }
    let secs = start.elapsed().as_secs_f64();
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1))).copied().unwrap_or_default()
    };
    let after = used_memory(&url).await?;
    println!(
        "{} tables on Redis{}: {} actions in {secs:.2} s = {:.0} actions/s; latency median {:.2} ms, p99 {:.2} ms; setup {setup_s:.2} s",
        o.tables,
        if durable { " (durable outbox)" } else { "" },
        lat.len(),
        lat.len() as f64 / secs,
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
    );
    println!(
        "Redis memory: {} KiB for {} tables ({:.1} KiB per table, records included)",
        (after.saturating_sub(before)) / 1024,
        o.tables,
        after.saturating_sub(before) as f64 / 1024.0 / o.tables as f64
    );
    Ok(())
}

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
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        println!("{kind:<20} {:>10.2} {:>10.2} {:>10.1}", ms(times[times.len() / 2]), ms(p99), size as f64 / 1024.0);
    }
    Ok(())
}
