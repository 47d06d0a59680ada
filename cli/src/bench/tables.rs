//! `doko bench-tables`: many tables at once on Redis, closed loop and
//! open loop, against Redis alone on the same server.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use doko_bot::command::Command;
use doko_bot::{Actor, ChannelId, Platform, RedisStore, Service, UserId};

use super::counting::{Commits, Counting};
use super::drive::drive;
use super::late::late_windows;
use super::latency::RunResult;
use super::machine::{Others, process_memory};
use super::play::BenchTable;
use super::redis_alone::{script_baseline, script_open_loop};
use super::redis_info::{keys_memory, redis_pid, used_memory};
use super::summary::TablesFigures;

/// Options of the table benchmark.
#[derive(Clone, Debug)]
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
    /// The open loop's offered rate (actions per second over all tables);
    /// none: half the closed loop's.
    pub rate: Option<f64>,
}

/// A Discord-like id (19 digits) for table `t`, part `i`.
fn snowflake(t: usize, i: usize) -> String {
    format!("{}", 1_180_000_000_000_000_000u64 + (t as u64) * 16 + i as u64)
}

/// Plays `tables` tables at once on Redis, four people each, and prints
/// actions per second, latency (median, p99) and Redis memory per table;
/// in the same run, Redis alone with doko's commit script, doko's rate as
/// a fraction of it per round trip, and an open loop at a fixed offered
/// rate (latency below saturation, measured from when each action was
/// due).
pub async fn tables(o: TablesOpts) -> anyhow::Result<TablesFigures> {
    let (_guard, url) = match o.redis.clone() {
        Some(u) => (None, u),
        None => {
            let r = crate::local_redis::LocalRedis::start()?;
            let u = r.url();
            (Some(r), u)
        }
    };
    let before = used_memory(&url).await?;
    let m = Measured::connect(&url, o.durable).await?;
    let setup = Instant::now();
    let tables = open_tables(&m.svc, o.tables).await?;
    let setup_s = setup.elapsed().as_secs_f64();
    let at_start = match tables.first() {
        Some((ch, _)) => doko_bot::Store::load(m.reader.store(), ch)
            .await?
            .map_or(0, |s| doko_bot::store::packed::pack(&s.json).len()),
        None => 0,
    };
    let closed = closed_loop(&o, &m, &tables, at_start).await?;
    let after = used_memory(&url).await?;
    let memory = keys_memory(&url, &m.reader, &tables).await?;
    print_closed_loop(&o, &closed, setup_s, after.saturating_sub(before), memory);
    let (per_table, per_records, _) = memory;
    let (base, share) = redis_alone(&o, &url, &closed, at_start).await?;
    let mut figures = TablesFigures {
        closed: closed.rate,
        alone: base,
        share,
        open: None,
        alone_p99: None,
        table_bytes: per_table,
        record_bytes: per_records,
    };

    // the open loop: a fixed offered rate over all tables, below saturation
    if o.actions == 0 {
        return Ok(figures);
    }
    let offered = o.rate.unwrap_or(closed.rate / 2.0);
    let more = open_again(&m.svc, &tables).await?;
    let open = open_loop(&o, &url, &m, &more, offered).await?;
    let alone = alone_open_loop(&o, &url, closed.bytes, offered).await?;
    figures.open = Some((offered, open.pct(0.5), open.pct(0.99)));
    figures.alone_p99 = Some(alone.pct(0.99));
    Ok(figures)
}

/// The service measured, on Redis with its calls and commits counted, and
/// the driver's own service to read the tables through (its reads are not
/// doko's round trips).
struct Measured {
    svc: Arc<Service<Counting<RedisStore>>>,
    reader: Arc<Service<RedisStore>>,
    calls: Arc<AtomicU64>,
    commits: Arc<Commits>,
}

impl Measured {
    /// Connects both services to the Redis server at `url`; with
    /// `durable`, the measured one with the durable outbox as the bot runs.
    async fn connect(url: &str, durable: bool) -> anyhow::Result<Measured> {
        let calls = Arc::new(AtomicU64::new(0));
        let commits = Arc::new(Commits::default());
        let store =
            Counting { inner: RedisStore::connect(url, 3600).await?, calls: calls.clone(), commits: commits.clone() };
        let svc = Service::new(store, 5);
        let svc = Arc::new(if durable { svc.with_durable_outbox() } else { svc });
        if durable {
            // as the bot runs: a delivered entry's mark rides on the next commit
            svc.defer_marks();
        }
        let reader = Arc::new(Service::new(RedisStore::connect(url, 3600).await?, 6));
        Ok(Measured { svc, reader, calls, commits })
    }
}

/// Opens `n` tables, four people each, and starts their first deals, in
/// the order of their numbers (as the open loop's skew counts them).
///
/// The tables are opened by 256 workers, each taking the next table when
/// its last is open: the store's own timeout is for one command, not for
/// ten thousand queued behind each other, and ten thousand tasks spawned
/// at once would hold ten thousand futures' memory.
async fn open_tables(svc: &Arc<Service<Counting<RedisStore>>>, n: usize) -> anyhow::Result<Vec<BenchTable>> {
    let next = Arc::new(AtomicU64::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..256.min(n) {
        let (svc, next, n) = (svc.clone(), next.clone(), n as u64);
        workers.spawn(async move {
            let mut opened = Vec::new();
            loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= n {
                    break;
                }
                opened.push((t, open_table(&svc, t as usize).await?));
            }
            Ok::<_, anyhow::Error>(opened)
        });
    }
    let mut opened = Vec::with_capacity(n);
    while let Some(done) = workers.join_next().await {
        opened.extend(done??);
    }
    opened.sort_unstable_by_key(|(t, _)| *t);
    Ok(opened.into_iter().map(|(_, table)| table).collect())
}

/// Table `t`: its four people join and the first starts the deal. Ids as
/// long as Discord's (snowflakes of 19 digits), names of an everyday
/// length.
async fn open_table(svc: &Service<Counting<RedisStore>>, t: usize) -> anyhow::Result<BenchTable> {
    let ch = ChannelId::new(Platform::DISCORD, snowflake(t, 9));
    let people: Vec<Actor> = (0..4)
        .map(|i| Actor::new(UserId::new(Platform::DISCORD, snowflake(t, i)), format!("Player {i}"), i == 0))
        .collect();
    for p in &people {
        set_up(svc, &ch, p, Command::Join).await?;
    }
    set_up(svc, &ch, &people[0], Command::Start).await?;
    Ok((ch, people))
}

/// A step of a table's setup; with the durable outbox, what it owes is
/// then marked delivered, as the bot's delivery does (else the table would
/// keep the setup's messages as owed through the whole measurement).
async fn set_up(svc: &Service<Counting<RedisStore>>, ch: &ChannelId, p: &Actor, cmd: Command) -> anyhow::Result<()> {
    let msgs = svc.execute(ch, p, cmd).await?;
    if !msgs.owed.is_empty() {
        doko_bot::PostOffice::delivered(svc, ch, msgs.owed_salt, &msgs.owed).await;
    }
    Ok(())
}

/// The same people at a second table each, for the open loop.
async fn open_again(svc: &Service<Counting<RedisStore>>, tables: &[BenchTable]) -> anyhow::Result<Vec<BenchTable>> {
    let mut more: Vec<BenchTable> = Vec::new();
    for (t, (_, people)) in tables.iter().enumerate() {
        let ch = ChannelId::new(Platform::DISCORD, snowflake(t, 8));
        for p in people {
            set_up(svc, &ch, p, Command::Join).await?;
        }
        set_up(svc, &ch, &people[0], Command::Start).await?;
        more.push((ch, people.clone()));
    }
    Ok(more)
}

/// What the closed loop measured: its run, its rate (actions a second),
/// the store's round trips per action, and the bytes Redis keeps of a
/// table as doko committed it.
struct ClosedLoop {
    run: RunResult,
    rate: f64,
    round_trips: f64,
    bytes: usize,
}

/// The closed loop: every table's next action as soon as its last is
/// answered.
async fn closed_loop(
    o: &TablesOpts,
    m: &Measured,
    tables: &[BenchTable],
    at_start: usize,
) -> anyhow::Result<ClosedLoop> {
    let calls_before = m.calls.load(Ordering::Relaxed);
    let commits_before = m.commits.read();
    let run = drive(&m.svc, &m.reader, tables, o.actions, None, o.durable, false).await?;
    // (the marks still waiting are the closed loop's to commit)
    m.svc.flush_marks(Duration::ZERO).await;
    // Redis alone commits tables of the size doko committed in the closed
    // loop (on average; a table grows by its first deal's statistics and
    // months), not of the size a table has when it opens, and as Redis
    // keeps them (compressed)
    let bytes = m.commits.stored_mean(commits_before).unwrap_or(at_start);
    let round_trips = (m.calls.load(Ordering::Relaxed) - calls_before) as f64 / run.lat.len().max(1) as f64;
    let rate = run.lat.len() as f64 / run.secs;
    Ok(ClosedLoop { run, rate, round_trips, bytes })
}

/// The closed loop's figures: rate, latency, round trips, Redis memory
/// (`grown`: how much `used_memory` grew; `memory`: `MEMORY USAGE` per
/// table and its records, and the tables that finished a deal) and the
/// process's own.
fn print_closed_loop(o: &TablesOpts, closed: &ClosedLoop, setup_s: f64, grown: u64, memory: (f64, f64, usize)) {
    let (per_table, per_records, deals) = memory;
    let (run, rate, round_trips) = (&closed.run, closed.rate, closed.round_trips);
    println!(
        "{} tables on Redis{}: {} actions in {:.2} s = {rate:.0} actions/s; latency median {:.2} ms, p99 {:.2} ms; \
         {round_trips:.2} store round trips per action; setup {setup_s:.2} s",
        o.tables,
        if o.durable { " (durable outbox)" } else { " (without the durable outbox)" },
        run.lat.len(),
        run.secs,
        run.pct(0.5),
        run.pct(0.99),
    );
    println!(
        "Redis memory: {} KiB for {} tables ({:.1} KiB per table, records included)",
        grown / 1024,
        o.tables,
        grown as f64 / 1024.0 / o.tables as f64
    );
    println!(
        "Redis MEMORY USAGE per table: {per_table:.0} bytes for the table and {per_records:.0} for its records \
         ({:.0} bytes in all; {deals} of {} tables have finished a deal)",
        per_table + per_records,
        o.tables
    );
    if let Some((rss, peak, threads)) = process_memory() {
        println!(
            "doko process: {:.1} MiB resident now, {:.1} MiB at most, {threads} threads (the service, its copies of at \
             most {} tables, and the driver)",
            rss as f64 / 1024.0,
            peak as f64 / 1024.0,
            doko_bot::service::TABLES_CACHED
        );
    }
}

/// Redis alone, same server, same concurrency, doko's commit script: its
/// calls a second, and doko's closed loop as a share of what that allows
/// at doko's round trips per action (percent); both printed.
async fn redis_alone(o: &TablesOpts, url: &str, closed: &ClosedLoop, at_start: usize) -> anyhow::Result<(f64, f64)> {
    let (rate, round_trips, bytes) = (closed.rate, closed.round_trips, closed.bytes);
    let base_calls = (o.actions * 2).max(20);
    let base = script_baseline(url, o.tables, base_calls, bytes).await?;
    let allowed = base / round_trips.max(1.0);
    println!(
        "Redis alone: {base:.0} compare-and-set script calls/s ({} loops, {bytes}-byte tables: the mean of doko's \
         commits as Redis keeps them; {at_start} bytes when a table opens); at {round_trips:.2} round trips per action that allows \
         {allowed:.0} actions/s: doko reaches {:.1}%",
        o.tables,
        100.0 * rate / allowed
    );
    Ok((base, 100.0 * rate / allowed))
}

/// The open loop at `offered` actions a second over the `more` tables,
/// printed with its late actions and what else ran on the machine.
async fn open_loop(
    o: &TablesOpts,
    url: &str,
    m: &Measured,
    more: &[BenchTable],
    offered: f64,
) -> anyhow::Result<RunResult> {
    let others = Others::watch(redis_pid(url).await);
    let open = drive(&m.svc, &m.reader, more, o.actions, Some(offered), o.durable, true).await?;
    let others = others.map(Others::stop).unwrap_or_default();
    println!(
        "open loop at {offered:.0} actions/s offered: {} actions in {:.2} s = {:.0} actions/s; \
         latency from when each was due: median {:.2} ms, p99 {:.2} ms",
        open.lat.len(),
        open.secs,
        open.lat.len() as f64 / open.secs,
        open.pct(0.5),
        open.pct(0.99)
    );
    println!("{}", late_windows(&open.late, &others, open.start));
    Ok(open)
}

/// Redis alone at the same offered rate, the same keys' worth of calls
/// due at the same times: what the machine gives a store call alone;
/// printed as the open loop is.
async fn alone_open_loop(o: &TablesOpts, url: &str, bytes: usize, offered: f64) -> anyhow::Result<RunResult> {
    let others = Others::watch(redis_pid(url).await);
    let (rt, tables_n, actions, u) = (tokio::runtime::Handle::current(), o.tables, o.actions, url.to_string());
    let alone =
        tokio::task::spawn_blocking(move || script_open_loop(rt, &u, tables_n, actions, bytes, offered)).await??;
    let others = others.map(Others::stop).unwrap_or_default();
    println!(
        "Redis alone in the open loop at {offered:.0} calls/s offered: {} calls in {:.2} s = {:.0} calls/s; \
         latency from when each was due: median {:.2} ms, p99 {:.2} ms",
        alone.lat.len(),
        alone.secs,
        alone.lat.len() as f64 / alone.secs,
        alone.pct(0.5),
        alone.pct(0.99)
    );
    println!("{}", late_windows(&alone.late, &others, alone.start).replace("open loop", "Redis alone's open loop"));
    Ok(alone)
}
