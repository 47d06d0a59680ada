//! `doko bench`: random complete games per second on one core.

use std::time::{Duration, Instant};

use doko_engine::{Rng, Rules, playouts};

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

/// One figure's line in a summary over several runs: its spread
/// ([`SpreadLine::line`]) and, where it has a target, how many of the runs
/// met it.
fn summary_line(name: &str, decimals: usize, target: Target, xs: &[f64]) -> String {
    let line = Spread::of(xs).line(name, decimals, target);
    if matches!(target, Target::None) {
        return line;
    }
    format!("{line}, met in {} of {}", xs.iter().filter(|x| target.met(**x)).count(), xs.len())
}

/// The median, least and most of one figure over several runs.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spread {
    median: f64,
    least: f64,
    most: f64,
    /// How many runs gave a figure.
    of: usize,
}

/// What a figure is held against.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// At least this much.
    AtLeast(f64),
    /// Less than this.
    Below(f64),
    /// No target: only reported.
    None,
}

impl Target {
    fn met(self, x: f64) -> bool {
        match self {
            Target::AtLeast(t) => x >= t,
            Target::Below(t) => x < t,
            Target::None => true,
        }
    }
}

impl Spread {
    /// Of the figures given (a median of an even count is the mean of the
    /// middle two); None for none.
    fn of(xs: &[f64]) -> Option<Spread> {
        let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
        Some(Spread { median, least: v[0], most: v[n - 1], of: n })
    }
}

/// A figure's line in a summary: "name: median X (least-most over N runs)",
/// with its target and how many runs met it.
trait SpreadLine {
    fn line(&self, name: &str, decimals: usize, target: Target) -> String;
}

impl SpreadLine for Option<Spread> {
    fn line(&self, name: &str, decimals: usize, target: Target) -> String {
        let f = |x: f64| format!("{x:.decimals$}");
        let Some(s) = self else { return format!("{name}: no run gave it") };
        let aim = match target {
            Target::AtLeast(t) => format!("; target at least {}", f(t)),
            Target::Below(t) => format!("; target under {}", f(t)),
            Target::None => String::new(),
        };
        format!(
            "{name}: median {} ({}-{} over {} run{}){aim}",
            f(s.median),
            f(s.least),
            f(s.most),
            s.of,
            if s.of == 1 { "" } else { "s" },
        )
    }
}

/// The figures of one `doko bench-tables` run that its summary over
/// several runs takes up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TablesFigures {
    /// The closed loop's actions a second.
    pub closed: f64,
    /// Redis alone's script calls a second (the same server, the same run).
    pub alone: f64,
    /// The closed loop as a share of Redis alone divided by the round
    /// trips an action (percent).
    pub share: f64,
    /// The open loop's offered rate, its median and p99 latency (ms) from
    /// when each action was due; None with no open loop.
    pub open: Option<(f64, f64, f64)>,
    /// Redis alone's p99 (ms) at the open loop's offered rate and times.
    pub alone_p99: Option<f64>,
    /// Redis `MEMORY USAGE` per table and per table's records (bytes).
    pub table_bytes: f64,
    /// See `table_bytes`.
    pub record_bytes: f64,
}

/// The summary of several `doko bench-tables` runs: each figure's median,
/// least and most, its target (issue 19) and how many runs met it.
pub fn tables_summary(runs: &[TablesFigures]) -> String {
    /// How one figure is read off a run (None: that run did not give it).
    type Figure<'a> = &'a dyn Fn(&TablesFigures) -> Option<f64>;
    let mut out = format!("summary of {} runs:\n", runs.len());
    let lines: [(&str, usize, Target, Figure); 8] = [
        ("closed loop, actions/s", 0, Target::None, &|r| Some(r.closed)),
        ("Redis alone, calls/s", 0, Target::None, &|r| Some(r.alone)),
        ("closed loop, % of Redis alone", 1, Target::AtLeast(50.0), &|r| Some(r.share)),
        ("open loop offered, actions/s", 0, Target::None, &|r| r.open.map(|o| o.0)),
        ("open loop median, ms", 2, Target::None, &|r| r.open.map(|o| o.1)),
        ("open loop p99, ms", 2, Target::Below(5.0), &|r| r.open.map(|o| o.2)),
        ("Redis alone's open loop p99, ms", 2, Target::None, &|r| r.alone_p99),
        ("Redis per table with its records, bytes", 0, Target::None, &|r| Some(r.table_bytes + r.record_bytes)),
    ];
    for (name, decimals, target, f) in lines {
        let xs: Vec<f64> = runs.iter().filter_map(f).collect();
        out.push_str("  ");
        out.push_str(&summary_line(name, decimals, target, &xs));
        out.push('\n');
    }
    out
}

/// Each core's share of time the host took (steal) between two readings
/// of `/proc/stat`, as "cpu0 3%, cpu1 21%"; None when they name no core.
fn stolen_per_core(before: &str, after: &str) -> Option<String> {
    // cpuN user nice system idle iowait irq softirq steal ...
    let cores = |stat: &str| -> Vec<(String, u64, u64)> {
        stat.lines()
            .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                let name = f.next()?.to_string();
                let ticks: Vec<u64> = f.take(8).map(|v| v.parse().ok()).collect::<Option<_>>()?;
                Some((name, ticks.iter().sum(), *ticks.get(7)?))
            })
            .collect()
    };
    let (b, a) = (cores(before), cores(after));
    let shares: Vec<String> = a
        .iter()
        .filter_map(|(name, total, steal)| {
            let (_, t0, s0) = b.iter().find(|(n, _, _)| n == name)?;
            let all = total.checked_sub(*t0).filter(|t| *t > 0)?;
            Some(format!("{name} {:.0}%", 100.0 * steal.saturating_sub(*s0) as f64 / all as f64))
        })
        .collect();
    (!shares.is_empty()).then(|| shares.join(", "))
}

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

/// Redis's `used_memory` (0 when it does not say).
async fn used_memory(url: &str) -> anyhow::Result<u64> {
    Ok(info_field(url, "memory", "used_memory").await?.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// One field of a section of the `INFO` of the Redis server at `url`.
async fn info_field(url: &str, section: &str, field: &str) -> anyhow::Result<Option<String>> {
    let client = redis::Client::open(url)?;
    let mut c = client.get_multiplexed_async_connection().await?;
    let info: String = redis::cmd("INFO").arg(section).query_async(&mut c).await?;
    Ok(info.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':')).map(|v| v.trim().to_string()))
}

/// A store that counts the calls the service makes (its round trips) and
/// its commits, with the bytes Redis keeps of a sample of them (for Redis
/// alone with tables of the size doko commits).
struct Counting<S> {
    inner: S,
    calls: std::sync::Arc<std::sync::atomic::AtomicU64>,
    commits: std::sync::Arc<Commits>,
}

/// The commits [`Counting`] saw: how many, and, for every [`SAMPLED`]th,
/// its bytes as Redis keeps them (compressed: [`doko_bot::store::packed`]).
#[derive(Default)]
struct Commits {
    made: std::sync::atomic::AtomicU64,
    sampled: std::sync::atomic::AtomicU64,
    stored: std::sync::atomic::AtomicU64,
}

/// One commit in this many is compressed again by the bench to learn the
/// size Redis keeps (all of them would add the compressor's time twice).
const SAMPLED: u64 = 32;

impl Commits {
    /// The sampled commits and their bytes as Redis keeps them, now.
    fn read(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.sampled.load(Relaxed), self.stored.load(Relaxed))
    }

    /// The mean bytes Redis keeps per commit since the counters read
    /// `before` ([`Commits::read`]); `None` when none was sampled.
    fn stored_mean(&self, before: (u64, u64)) -> Option<usize> {
        let (sampled, stored) = self.read();
        Some((stored - before.1).checked_div(sampled - before.0)? as usize).filter(|&b| b > 0)
    }
}

impl<S> Counting<S> {
    fn count(&self) {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn committed(&self, json: &str) {
        use std::sync::atomic::Ordering::Relaxed;
        if self.commits.made.fetch_add(1, Relaxed).is_multiple_of(SAMPLED) {
            self.commits.sampled.fetch_add(1, Relaxed);
            self.commits.stored.fetch_add(doko_bot::store::packed::pack(json).len() as u64, Relaxed);
        }
    }
}

impl<S: doko_bot::Store> doko_bot::Store for Counting<S> {
    async fn load(&self, ch: &doko_bot::ChannelId) -> Result<Option<doko_bot::Stored>, doko_bot::StoreError> {
        self.count();
        self.inner.load(ch).await
    }
    async fn commit(
        &self,
        ch: &doko_bot::ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<doko_bot::Commit, doko_bot::StoreError> {
        self.count();
        self.committed(json);
        self.inner.commit(ch, expected, json, records).await
    }
    async fn commit_kept(
        &self,
        ch: &doko_bot::ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: doko_bot::Keep,
    ) -> Result<doko_bot::Commit, doko_bot::StoreError> {
        self.count();
        self.committed(json);
        self.inner.commit_kept(ch, expected, json, records, keep).await
    }
    async fn version(&self, ch: &doko_bot::ChannelId) -> Result<u64, doko_bot::StoreError> {
        self.count();
        self.inner.version(ch).await
    }
    async fn record(&self, ch: &doko_bot::ChannelId, n: u32) -> Result<Option<String>, doko_bot::StoreError> {
        self.count();
        self.inner.record(ch, n).await
    }
    async fn channels(&self) -> Result<Vec<doko_bot::ChannelId>, doko_bot::StoreError> {
        self.inner.channels().await
    }
    async fn quarantine(&self, q: &doko_bot::store::Quarantined) -> Result<bool, doko_bot::StoreError> {
        self.inner.quarantine(q).await
    }
    async fn quarantined(&self) -> Result<Vec<doko_bot::store::Quarantined>, doko_bot::StoreError> {
        self.inner.quarantined().await
    }
    async fn format_version(&self) -> Result<Option<u32>, doko_bot::StoreError> {
        self.inner.format_version().await
    }
    async fn set_format_version(&self, v: u32) -> Result<(), doko_bot::StoreError> {
        self.inner.set_format_version(v).await
    }
}

/// Redis alone with doko's commit: `tasks` closed loops each running the
/// store's compare-and-set script (EVALSHA) on a key of its own with a
/// table of `bytes` bytes, on one multiplexed connection as the service
/// uses it. Returns script calls per second.
async fn script_baseline(url: &str, tasks: usize, calls: usize, bytes: usize) -> anyhow::Result<f64> {
    let client = redis::Client::open(url)?;
    let conn = client.get_multiplexed_async_connection().await?;
    let script = std::sync::Arc::new(redis::Script::new(doko_bot::store::CAS));
    let payload: std::sync::Arc<str> = "x".repeat(bytes).into();
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..tasks {
        let (mut c, script, payload) = (conn.clone(), script.clone(), payload.clone());
        handles.push(tokio::spawn(async move {
            let (key, recs) = (format!("bench-base:{{{t}}}:t"), format!("bench-base:{{{t}}}:r"));
            let mut v: i64 = 0;
            for _ in 0..calls {
                v = script.key(&key).key(&recs).arg(v).arg(&*payload).arg(0).arg(0).invoke_async(&mut c).await?;
                anyhow::ensure!(v > 0, "the compare-and-set failed");
            }
            Ok::<_, anyhow::Error>(())
        }));
    }
    for h in handles {
        h.await??;
    }
    let secs = start.elapsed().as_secs_f64();
    let mut c = conn.clone();
    let _: () = redis::cmd("FLUSHDB").query_async(&mut c).await.unwrap_or(());
    Ok((tasks * calls) as f64 / secs)
}

/// Redis alone in the open loop, beside doko's: `tasks` keys, each with
/// `calls` compare-and-set script calls (EVALSHA, a table of `bytes`
/// bytes) due at the same times as doko's open loop's actions at `rate`
/// (key `i`'s k-th call at its share of the first interval plus k
/// intervals), each sent when due once the key's last call was answered,
/// from a thread of its own as the open loop's players are. Latencies
/// count from when each call was due: what the machine gives Redis alone
/// at that rate, next to what doko gets.
fn script_open_loop(
    rt: tokio::runtime::Handle,
    url: &str,
    tasks: usize,
    calls: usize,
    bytes: usize,
    rate: f64,
) -> anyhow::Result<RunResult> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let client = redis::Client::open(url)?;
    let conn = rt.block_on(client.get_multiplexed_async_connection())?;
    let script = std::sync::Arc::new(redis::Script::new(doko_bot::store::CAS));
    // (loaded before the clock starts: the first calls are not a load)
    rt.block_on(script.load_async(&mut conn.clone()))?;
    let payload: std::sync::Arc<str> = "x".repeat(bytes).into();
    let (tx, rx) = std::sync::mpsc::channel::<anyhow::Result<(usize, Instant, i64)>>();
    let n = tasks.max(1) as f64;
    let every = Duration::from_secs_f64(n / rate);
    let start = Instant::now();
    let due = |i: usize, k: usize| start + every.mul_f64(i as f64 / n) + every * k as u32;
    // each key's calls answered, its version, when its last answer came
    // and when its call in flight was sent
    let mut keys: Vec<(usize, i64, Instant, Instant)> = vec![(0, 0, start, start); tasks];
    let mut waiting: BinaryHeap<Reverse<(Instant, usize)>> = (0..tasks).map(|i| Reverse((due(i, 0), i))).collect();
    let (mut lat, mut late) = (Vec::with_capacity(tasks * calls), Vec::new());
    let mut busy = 0usize;
    let send = |i: usize, v: i64, busy: &mut usize| {
        let (tx, mut c, script, payload) = (tx.clone(), conn.clone(), script.clone(), payload.clone());
        *busy += 1;
        rt.spawn(async move {
            let (key, recs) = (format!("bench-open:{{{i}}}:t"), format!("bench-open:{{{i}}}:r"));
            let r: redis::RedisResult<i64> =
                script.key(&key).key(&recs).arg(v).arg(&*payload).arg(0).arg(0).invoke_async(&mut c).await;
            let answered = Instant::now();
            let _ = tx.send(match r {
                Ok(v) if v > 0 => Ok((i, answered, v)),
                Ok(_) => Err(anyhow::anyhow!("the compare-and-set failed")),
                Err(e) => Err(e.into()),
            });
        });
    };
    loop {
        while let Some(&Reverse((at, i))) = waiting.peek() {
            if at > Instant::now() {
                break;
            }
            waiting.pop();
            keys[i].3 = Instant::now();
            send(i, keys[i].1, &mut busy);
        }
        if busy == 0 && waiting.is_empty() {
            break;
        }
        let wait = waiting.peek().map_or(SILENCE, |Reverse((at, _))| at.saturating_duration_since(Instant::now()));
        let (i, answered, version) = match rx.recv_timeout(wait) {
            Ok(r) => r?,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !waiting.is_empty() => continue,
            Err(_) => anyhow::bail!("no answer from Redis in {} s", SILENCE.as_secs()),
        };
        busy -= 1;
        let (k, _, ready, sent) = keys[i];
        let due_at = due(i, k);
        lat.push(answered - due_at);
        if answered - due_at > LATE {
            let ready = ready.max(due_at);
            late.push(Late {
                due: due_at - start,
                waited: ready - due_at,
                sent_late: sent.saturating_duration_since(ready),
                answer: answered - sent,
            });
        }
        keys[i] = (k + 1, version, answered, answered);
        if k + 1 < calls {
            let next = due(i, k + 1);
            if next <= Instant::now() {
                keys[i].3 = Instant::now();
                send(i, keys[i].1, &mut busy);
            } else {
                waiting.push(Reverse((next, i)));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let mut c = conn.clone();
    let _: () = rt.block_on(redis::cmd("FLUSHDB").query_async(&mut c)).unwrap_or(());
    lat.sort();
    late.sort_by_key(|l| l.due);
    Ok(RunResult { lat, secs, late, start })
}

/// A Discord-like id (19 digits) for table `t`, part `i`.
fn snowflake(t: usize, i: usize) -> String {
    format!("{}", 1_180_000_000_000_000_000u64 + (t as u64) * 16 + i as u64)
}

/// What Redis says each table's keys take (`MEMORY USAGE`, averaged over
/// the tables: the table's hash and its records' list), and how many
/// tables have finished a deal.
async fn keys_memory<S: doko_bot::Store>(
    url: &str,
    reader: &doko_bot::Service<S>,
    tables: &[BenchTable],
) -> anyhow::Result<(f64, f64, usize)> {
    let client = redis::Client::open(url)?;
    let mut c = client.get_multiplexed_async_connection().await?;
    let (mut table, mut records, mut deals) = (0u64, 0u64, 0usize);
    for (ch, _) in tables {
        let (tk, rk) = doko_bot::RedisStore::keys(ch);
        let t: Option<u64> = redis::cmd("MEMORY").arg("USAGE").arg(tk).query_async(&mut c).await?;
        let r: Option<u64> = redis::cmd("MEMORY").arg("USAGE").arg(rk).query_async(&mut c).await?;
        table += t.unwrap_or(0);
        records += r.unwrap_or(0);
        deals += usize::from(reader.table(ch).await?.0.records() > 0);
    }
    let n = tables.len().max(1) as f64;
    Ok((table as f64 / n, records as f64 / n, deals))
}

/// The process's resident memory now and at its peak, in KiB (Linux).
/// And its threads.
fn process_memory() -> Option<(u64, u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        status.lines().find_map(|l| l.strip_prefix(name))?.split_whitespace().next()?.parse().ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?, field("Threads:")?))
}

/// One table of the benchmark: its channel and its four people.
type BenchTable = (doko_bot::ChannelId, Vec<doko_bot::Actor>);

/// The latencies of a run and its length in seconds.
struct RunResult {
    lat: Vec<Duration>,
    secs: f64,
    /// The open loop's actions answered over [`LATE`] after they were
    /// due: when each was due (from the run's start), how late its
    /// driver sent it, and how long the service took to answer it.
    late: Vec<Late>,
    /// When the run's clock started.
    start: Instant,
}

/// An open-loop action answered late (see [`RunResult::late`]): when it
/// was due; how long after that its table's previous action was answered
/// (a table's next action is decided from the answer to its last, so a
/// late answer makes the next action late before it is sent); how late
/// the driver sent it beyond that (its thread or the runtime kept from
/// running); how long the service took to answer it.
#[derive(Clone, Copy)]
struct Late {
    due: Duration,
    waited: Duration,
    sent_late: Duration,
    answer: Duration,
}

/// How late an open-loop action is answered before the bench lists it.
const LATE: Duration = Duration::from_millis(5);

impl RunResult {
    fn pct(&self, p: f64) -> f64 {
        let i = ((self.lat.len() as f64 * p) as usize).min(self.lat.len().saturating_sub(1));
        self.lat.get(i).copied().unwrap_or_default().as_secs_f64() * 1e3
    }
}

/// Plays `tables` tables at once on Redis, four people each, and prints
/// actions per second, latency (median, p99) and Redis memory per table;
/// in the same run, Redis alone with doko's commit script, doko's rate as
/// a fraction of it per round trip, and an open loop at a fixed offered
/// rate (latency below saturation, measured from when each action was
/// due).
pub async fn tables(o: TablesOpts) -> anyhow::Result<TablesFigures> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use doko_bot::command::Command;
    use doko_bot::{Actor, ChannelId, Platform, RedisStore, Service, UserId};

    let (_guard, url) = match o.redis {
        Some(u) => (None, u),
        None => {
            let r = crate::local_redis::LocalRedis::start()?;
            let u = r.url();
            (Some(r), u)
        }
    };
    let before = used_memory(&url).await?;
    let calls = Arc::new(AtomicU64::new(0));
    let commits = Arc::new(Commits::default());
    let store =
        Counting { inner: RedisStore::connect(&url, 3600).await?, calls: calls.clone(), commits: commits.clone() };
    let svc = Service::new(store, 5);
    let svc = Arc::new(if o.durable { svc.with_durable_outbox() } else { svc });
    if o.durable {
        // as the bot runs: a delivered entry's mark rides on the next commit
        svc.defer_marks();
    }
    // the driver reads the tables (at each deal's start) through a service
    // of its own: its reads are not doko's round trips
    let reader = Arc::new(Service::new(RedisStore::connect(&url, 3600).await?, 6));
    let setup = Instant::now();
    // (tables are opened by 256 workers, each taking the next table when
    // its last is open: the store's own timeout is for one command, not
    // for ten thousand queued behind each other, and ten thousand tasks
    // spawned at once would hold ten thousand futures' memory)
    let next = Arc::new(AtomicU64::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..256.min(o.tables) {
        let (svc, next, n) = (svc.clone(), next.clone(), o.tables as u64);
        workers.spawn(async move {
            let mut opened = Vec::new();
            loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= n {
                    break;
                }
                // ids as long as Discord's (snowflakes of 19 digits),
                // names of an everyday length
                let ch = ChannelId::new(Platform::Discord, snowflake(t as usize, 9));
                let people: Vec<Actor> = (0..4)
                    .map(|i| {
                        Actor::new(
                            UserId::new(Platform::Discord, snowflake(t as usize, i)),
                            format!("Player {i}"),
                            i == 0,
                        )
                    })
                    .collect();
                for p in &people {
                    svc.execute(&ch, p, Command::Join).await?;
                }
                svc.execute(&ch, &people[0], Command::Start).await?;
                opened.push((t, (ch, people)));
            }
            Ok::<_, anyhow::Error>(opened)
        });
    }
    let mut opened = Vec::with_capacity(o.tables);
    while let Some(done) = workers.join_next().await {
        opened.extend(done??);
    }
    // (in the order of their numbers, as the open loop's skew counts them)
    opened.sort_unstable_by_key(|(t, _)| *t);
    let tables: Vec<BenchTable> = opened.into_iter().map(|(_, table)| table).collect();
    let setup_s = setup.elapsed().as_secs_f64();
    let at_start = match tables.first() {
        Some((ch, _)) => {
            doko_bot::Store::load(reader.store(), ch).await?.map_or(0, |s| doko_bot::store::packed::pack(&s.json).len())
        }
        None => 0,
    };

    let calls_before = calls.load(Ordering::Relaxed);
    let commits_before = commits.read();
    let closed = drive(&svc, &reader, &tables, o.actions, None, o.durable, false).await?;
    // (the marks still waiting are the closed loop's to commit)
    svc.flush_marks(Duration::ZERO).await;
    // Redis alone commits tables of the size doko committed in the closed
    // loop (on average; a table grows by its first deal's statistics and
    // months), not of the size a table has when it opens, and as Redis
    // keeps them (compressed)
    let bytes = commits.stored_mean(commits_before).unwrap_or(at_start);
    let round_trips = (calls.load(Ordering::Relaxed) - calls_before) as f64 / closed.lat.len().max(1) as f64;
    let after = used_memory(&url).await?;
    let (per_table, per_records, deals) = keys_memory(&url, &reader, &tables).await?;
    let rate = closed.lat.len() as f64 / closed.secs;
    println!(
        "{} tables on Redis{}: {} actions in {:.2} s = {rate:.0} actions/s; latency median {:.2} ms, p99 {:.2} ms; \
         {round_trips:.2} store round trips per action; setup {setup_s:.2} s",
        o.tables,
        if o.durable { " (durable outbox)" } else { "" },
        closed.lat.len(),
        closed.secs,
        closed.pct(0.5),
        closed.pct(0.99),
    );
    println!(
        "Redis memory: {} KiB for {} tables ({:.1} KiB per table, records included)",
        (after.saturating_sub(before)) / 1024,
        o.tables,
        after.saturating_sub(before) as f64 / 1024.0 / o.tables as f64
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

    // Redis alone, same server, same concurrency, doko's commit script
    let base_calls = (o.actions * 2).max(20);
    let base = script_baseline(&url, o.tables, base_calls, bytes).await?;
    let allowed = base / round_trips.max(1.0);
    println!(
        "Redis alone: {base:.0} compare-and-set script calls/s ({} loops, {bytes}-byte tables: the mean of doko's \
         commits as Redis keeps them; {at_start} bytes when a table opens); at {round_trips:.2} round trips per action that allows \
         {allowed:.0} actions/s: doko reaches {:.1}%",
        o.tables,
        100.0 * rate / allowed
    );

    let mut figures = TablesFigures {
        closed: rate,
        alone: base,
        share: 100.0 * rate / allowed,
        open: None,
        alone_p99: None,
        table_bytes: per_table,
        record_bytes: per_records,
    };

    // the open loop: a fixed offered rate over all tables, below saturation
    if o.actions == 0 {
        return Ok(figures);
    }
    let offered = o.rate.unwrap_or(rate / 2.0);
    let mut more: Vec<BenchTable> = Vec::new();
    for (t, (_, people)) in tables.iter().enumerate() {
        let ch = ChannelId::new(Platform::Discord, snowflake(t, 8));
        for p in people {
            svc.execute(&ch, p, Command::Join).await?;
        }
        svc.execute(&ch, &people[0], Command::Start).await?;
        more.push((ch, people.clone()));
    }
    let others = Others::watch(redis_pid(&url).await);
    let open = drive(&svc, &reader, &more, o.actions, Some(offered), o.durable, true).await?;
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

    // Redis alone at the same offered rate, the same keys' worth of calls
    // due at the same times: what the machine gives a store call alone
    let others = Others::watch(redis_pid(&url).await);
    let (rt, tables_n, actions, u) = (tokio::runtime::Handle::current(), o.tables, o.actions, url.clone());
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
    figures.open = Some((offered, open.pct(0.5), open.pct(0.99)));
    figures.alone_p99 = Some(alone.pct(0.99));
    Ok(figures)
}

/// The process id of the Redis server at `url` (`INFO server`), to tell
/// its CPU time from other processes'; None when it cannot be read or the
/// server is not on this machine (its id would name another process).
async fn redis_pid(url: &str) -> Option<u32> {
    let host = url.split_once("://")?.1;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    if !["127.", "localhost", "[::1]"].iter().any(|h| host.starts_with(h)) {
        return None;
    }
    info_field(url, "server", "process_id").await.ok()??.parse().ok()
}

/// The CPU time of processes other than doko and its Redis server, taken
/// every 100 ms while the open loop runs (from `/proc` on Linux): what
/// else on the machine competed for its cores when actions were late.
struct Others {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Vec<Busy>>,
}

/// The longest a sleeper woke late since it was last read, in
/// microseconds: a thread of its own sleeping 1 ms at a time (how long the
/// kernel, or the host under it, kept a ready thread of this process from
/// running) and a task on the service's runtime doing the same (how long
/// the runtime's workers were busy or stopped).
#[derive(Default)]
struct Lags {
    thread: std::sync::atomic::AtomicU64,
    runtime: std::sync::atomic::AtomicU64,
}

impl Lags {
    /// Starts the two sleepers; each stops when `stop` is set.
    fn start(stop: &std::sync::Arc<std::sync::atomic::AtomicBool>) -> std::sync::Arc<Lags> {
        use std::sync::atomic::Ordering;
        let lags = std::sync::Arc::new(Lags::default());
        let (l, s) = (lags.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let t = Instant::now();
                std::thread::sleep(Duration::from_millis(1));
                let late = t.elapsed().saturating_sub(Duration::from_millis(1));
                l.thread.fetch_max(late.as_micros() as u64, Ordering::Relaxed);
            }
        });
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let (l, s) = (lags.clone(), stop.clone());
            rt.spawn(async move {
                while !s.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    // (tokio's timer ticks by the millisecond: up to 1 ms
                    // more is its own rounding)
                    let late = t.elapsed().saturating_sub(Duration::from_millis(2));
                    l.runtime.fetch_max(late.as_micros() as u64, Ordering::Relaxed);
                }
            });
        }
        lags
    }

    /// The longest lags (thread, runtime) since the last take.
    fn take(&self) -> (Duration, Duration) {
        use std::sync::atomic::Ordering;
        let us = |a: &std::sync::atomic::AtomicU64| Duration::from_micros(a.swap(0, Ordering::Relaxed));
        (us(&self.thread), us(&self.runtime))
    }
}

/// The counters [`Others`] reads at each sample, all since boot or the
/// process's start.
#[derive(Clone, Copy)]
struct Ticks {
    /// The machine's busy ticks (all cores, without idle, I/O wait and
    /// time the host took).
    busy: i64,
    /// The ticks of this process and of its Redis server.
    ours: i64,
    /// The ticks the host took (steal).
    steal: i64,
    /// This process's minor page faults.
    faults: u64,
}

/// One 100 ms sample of [`Others`]: when it ended, the cores that other
/// processes kept busy over it, the cores the machine's host took (steal
/// time: a virtual machine's cores running the host's work), and the
/// busiest other process.
#[derive(Clone, Copy)]
struct Busy {
    at: Instant,
    cores: f64,
    stolen: f64,
    top: Top,
    /// This process's minor page faults over the sample.
    faults: u64,
    /// The longest a thread of this process sleeping 1 ms woke late.
    lag: Duration,
    /// The longest the service runtime's 1 ms timer fired late.
    runtime_lag: Duration,
}

/// The busiest process of a sample but doko and its Redis server (a
/// kernel thread too, such as the host's memory reclaim): its name as
/// `/proc` gives it (at most 15 bytes) and the cores it kept busy.
#[derive(Clone, Copy, Default)]
struct Top {
    name: [u8; 16],
    len: u8,
    cores: f64,
}

impl Top {
    fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..usize::from(self.len)]).unwrap_or("?")
    }
}

/// Each process's name and CPU ticks (user and system) from `/proc`, but
/// those in `skip`.
fn processes(skip: &[u32]) -> std::collections::HashMap<u32, ([u8; 16], u8, i64)> {
    let mut out = std::collections::HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else { return out };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if skip.contains(&pid) {
            continue;
        }
        let Some((comm, ticks, _)) = proc_stat(&pid.to_string()) else { continue };
        let mut name = [0u8; 16];
        let len = comm.len().min(15);
        name[..len].copy_from_slice(&comm.as_bytes()[..len]);
        out.insert(pid, (name, len as u8, ticks));
    }
    out
}

/// A process's name, CPU ticks (user and system) and minor page faults
/// so far, from `/proc/PID/stat` (`self`: this process).
fn proc_stat(pid: &str) -> Option<(String, i64, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (head, rest) = s.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<i64>().ok()? + f.get(12)?.parse::<i64>().ok()?;
    Some((name, ticks, f.get(7)?.parse().ok()?))
}

impl Others {
    /// Starts taking samples; None where `/proc` cannot be read.
    fn watch(redis: Option<u32>) -> Option<Others> {
        let first = Self::ticks(redis)?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let skip = [std::process::id(), redis.unwrap_or(0)];
        let lags = Lags::start(&stop);
        let thread = std::thread::spawn(move || {
            let mut samples = Vec::new();
            let (mut at, mut last, mut each) = (Instant::now(), first, processes(&skip));
            lags.take();
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let Some(ticks) = Self::ticks(redis) else { break };
                let now = processes(&skip);
                let (lag, runtime_lag) = lags.take();
                let t = Instant::now();
                let others = (ticks.busy - last.busy) - (ticks.ours - last.ours);
                // (/proc counts in USER_HZ, 100 a second on Linux)
                let cores = |n: i64| n.max(0) as f64 / 100.0 / (t - at).as_secs_f64();
                let busiest = now
                    .iter()
                    .filter_map(|(pid, (name, len, ticks))| Some((*name, *len, ticks - each.get(pid)?.2)))
                    .filter(|(_, _, d)| *d > 0)
                    .max_by_key(|(_, _, d)| *d);
                let top = busiest.map_or(Top::default(), |(name, len, d)| Top { name, len, cores: cores(d) });
                samples.push(Busy {
                    at: t,
                    cores: cores(others),
                    stolen: cores(ticks.steal - last.steal),
                    top,
                    faults: ticks.faults.saturating_sub(last.faults),
                    lag,
                    runtime_lag,
                });
                (at, last, each) = (t, ticks, now);
            }
            samples
        });
        Some(Others { stop, thread })
    }

    /// The samples taken (none when the thread failed).
    fn stop(self) -> Vec<Busy> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }

    /// The counters a sample is the difference of ([`Ticks`]).
    fn ticks(redis: Option<u32>) -> Option<Ticks> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let cpu: Vec<i64> = stat.lines().next()?.split_whitespace().skip(1).filter_map(|v| v.parse().ok()).collect();
        // user nice system idle iowait irq softirq steal ...
        let busy = cpu.get(..7)?.iter().sum::<i64>() - cpu[3] - cpu[4];
        let (_, own, faults) = proc_stat("self")?;
        let ours = own + redis.and_then(|p| proc_stat(&p.to_string())).map_or(0, |(_, ticks, _)| ticks);
        Some(Ticks { busy, ours, steal: cpu.get(7).copied().unwrap_or(0), faults })
    }
}

/// What the open loop's late actions say about its tail: how many were
/// answered over [`LATE`] after they were due, and the worst 100 ms
/// windows (by when the actions were due) with how long they waited for
/// their tables' previous answers, how late the driver sent them beyond
/// that (its thread did not run) and how long the service took to
/// answer them.
/// With each window, the most cores that other processes on the machine
/// (see [`Others`]) kept busy, and the most the host took, in a sample
/// overlapping the window or the 100 ms after it, and the busiest other
/// process of those samples.
fn late_windows(late: &[Late], others: &[Busy], start: Instant) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut windows: Vec<(u128, Vec<Late>)> = Vec::new();
    for l in late {
        let w = l.due.as_millis() / 100;
        match windows.last_mut() {
            Some((at, ls)) if *at == w => ls.push(*l),
            _ => windows.push((w, vec![*l])),
        }
    }
    let mut out = format!("open loop: {} actions answered over {} ms after due", late.len(), LATE.as_millis());
    windows.sort_by_key(|(_, ls)| std::cmp::Reverse(ls.len()));
    if !windows.is_empty() {
        out.push_str(&format!(", in {} windows of 100 ms; the most:", windows.len()));
    }
    for (w, ls) in windows.iter().take(3) {
        let max = |f: fn(&Late) -> Duration| ls.iter().map(f).max().map_or(0.0, ms);
        out.push_str(&format!(
            "\n  due at {:.1} s: {} actions, up to {:.1} ms late; waited up to {:.1} ms for their tables' previous \
             answers, sent up to {:.1} ms later than they could be, answered in up to {:.1} ms",
            *w as f64 / 10.0,
            ls.len(),
            max(|l| l.waited + l.sent_late + l.answer),
            max(|l| l.waited),
            max(|l| l.sent_late),
            max(|l| l.answer)
        ));
        let (from, to) =
            (start + Duration::from_millis(*w as u64 * 100), start + Duration::from_millis(*w as u64 * 100 + 300));
        let near: Vec<&Busy> = others.iter().filter(|b| b.at > from && b.at <= to).collect();
        let most = |f: fn(&Busy) -> f64| near.iter().map(|b| f(b)).reduce(f64::max);
        if let (Some(b), Some(h)) = (most(|b| b.cores), most(|b| b.stolen)) {
            out.push_str(&format!(
                "; other processes on the machine kept {:.0}% of a core busy, the host took {:.0}%",
                b * 100.0,
                h * 100.0
            ));
        }
        if let Some(top) =
            near.iter().map(|b| b.top).filter(|t| t.cores > 0.0).max_by(|a, b| a.cores.total_cmp(&b.cores))
        {
            out.push_str(&format!(" (the busiest other process: {}, {:.0}% of a core)", top.name(), top.cores * 100.0));
        }
        if !near.is_empty() {
            out.push_str(&format!(
                "; doko took {} page faults, its sleeping thread woke up to {:.1} ms late, its runtime's timer up to \
                 {:.1} ms",
                near.iter().map(|b| b.faults).sum::<u64>(),
                longest(near.iter().copied(), |b| b.lag),
                longest(near.iter().copied(), |b| b.runtime_lag)
            ));
        }
    }
    // (the samples from when the run's clock started: before it, the
    // driver played the tables' first actions untimed)
    let others: Vec<Busy> = others.iter().filter(|b| b.at > start).copied().collect();
    let n = others.len() as f64;
    for (who, cores) in
        [("other processes on the machine", (|b| b.cores) as fn(&Busy) -> f64), ("the host", |b| b.stolen)]
    {
        if let Some(most) = others.iter().max_by(|a, b| cores(a).total_cmp(&cores(b))) {
            out.push_str(&format!(
                "\n{who} in the open loop: {:.1} cores on average, at most {:.0}% of a core over 100 ms (at {:.1} s)",
                others.iter().map(cores).sum::<f64>() / n,
                cores(most) * 100.0,
                most.at.saturating_duration_since(start).as_secs_f64()
            ));
        }
    }
    if let Some(most) = others.iter().max_by_key(|b| b.faults) {
        out.push_str(&format!(
            "\ndoko in the open loop: {:.0} page faults per 100 ms on average, at most {} (at {:.1} s); its sleeping \
             thread woke at most {:.1} ms late, its runtime's timer at most {:.1} ms",
            others.iter().map(|b| b.faults).sum::<u64>() as f64 / n,
            most.faults,
            most.at.saturating_duration_since(start).as_secs_f64(),
            longest(others.iter(), |b| b.lag),
            longest(others.iter(), |b| b.runtime_lag)
        ));
    }
    out
}

/// The longest of one lag of `samples`, in milliseconds (0 for none).
fn longest<'a>(samples: impl Iterator<Item = &'a Busy>, lag: fn(&Busy) -> Duration) -> f64 {
    samples.map(lag).max().map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

/// A deal as the bench's players follow it, from the table read through
/// the driver's own service: the game and, for each game seat, which of
/// the table's people plays it. None when no deal runs.
async fn follow(
    reader: &doko_bot::Service<doko_bot::RedisStore>,
    ch: &doko_bot::ChannelId,
    people: &[doko_bot::Actor],
) -> anyhow::Result<Followed> {
    let (t, _) = doko_bot::Service::table(reader, ch).await?;
    let Some(g) = t.game()? else { return Ok(None) };
    let seated = doko_engine::Seat::ALL.map(|s| {
        let ts = t.table_seat(s)?;
        people.iter().position(|a| t.seat_of(&a.user) == Some(ts))
    });
    Ok(Some((g, seated)))
}

/// A table's deal as the driver follows it: the game and, for each game
/// seat, which of the table's people plays it.
type Followed = Option<(doko_engine::Game, [Option<usize>; 4])>;

/// Plays the tables: closed loop (each table's next action as soon as the
/// last is answered) or open loop at `rate` actions per second over all
/// tables (each table's k-th action due at a fixed time; its latency
/// counts from then, so falling behind shows). With `skew`, table `i`
/// first plays `i % 50` actions before the clock starts, so that the
/// tables' deals do not all end and begin at the same moment (as real
/// tables' do not: a thousand deals scored and dealt in the same
/// interval were the open loop's tail).
///
/// The closed loop's players are tasks on the service's runtime
/// ([`closed`]), as Redis alone's loops are, so that the two rates are
/// measured alike. The open loop's are driven from a thread of their own
/// ([`paced`]), as people send from machines of their own: each table's
/// next action is decided as soon as the last is answered, before it is
/// due, and sent when it is due to the service's runtime, which runs
/// nothing else.
async fn drive<S: doko_bot::Store + 'static>(
    svc: &std::sync::Arc<doko_bot::Service<S>>,
    reader: &std::sync::Arc<doko_bot::Service<doko_bot::RedisStore>>,
    tables: &[BenchTable],
    actions: usize,
    rate: Option<f64>,
    durable: bool,
    skew: bool,
) -> anyhow::Result<RunResult> {
    // each table's deal as its players see it when the run begins: read
    // before the clock starts (the driver's reads are not doko's work; read
    // in the run, a thousand of them fell in its first interval and their
    // backlog was the open loop's tail)
    let mut first = Vec::with_capacity(tables.len());
    for (i, (ch, people)) in tables.iter().enumerate() {
        let mut deal = follow(reader, ch, people).await?;
        for _ in 0..if skew { i % 50 } else { 0 } {
            if act(svc, reader, ch, people, &mut deal, durable).await?.is_none() {
                break;
            }
        }
        first.push(deal);
    }
    if rate.is_none() {
        return closed(svc, reader, tables, actions, durable, first).await;
    }
    let run = Paced {
        rt: tokio::runtime::Handle::current(),
        svc: svc.clone(),
        reader: reader.clone(),
        tables: tables.to_vec(),
        actions,
        rate,
        durable,
    };
    tokio::task::spawn_blocking(move || paced(run, first)).await?
}

/// [`drive`]'s closed loop: each table's players as a task on the
/// service's runtime, sending its next action as soon as the last is
/// answered, as Redis alone's loops run on it (each action is decided by
/// the basic computer, as in the open loop; its latency is from sending
/// to the answer).
async fn closed<S: doko_bot::Store + 'static>(
    svc: &std::sync::Arc<doko_bot::Service<S>>,
    reader: &std::sync::Arc<doko_bot::Service<doko_bot::RedisStore>>,
    tables: &[BenchTable],
    actions: usize,
    durable: bool,
    first: Vec<Followed>,
) -> anyhow::Result<RunResult> {
    let start = Instant::now();
    let mut players = tokio::task::JoinSet::new();
    for ((ch, people), mut deal) in tables.iter().cloned().zip(first) {
        let (svc, reader) = (svc.clone(), reader.clone());
        players.spawn(async move {
            let mut lat = Vec::with_capacity(actions);
            while lat.len() < actions {
                let Some(answered) = act(&svc, &reader, &ch, &people, &mut deal, durable).await? else { break };
                lat.push(answered);
            }
            Ok::<_, anyhow::Error>(lat)
        });
    }
    let mut lat = Vec::with_capacity(tables.len() * actions);
    while let Some(done) = players.join_next().await {
        lat.extend(done??);
    }
    let secs = start.elapsed().as_secs_f64();
    lat.sort();
    Ok(RunResult { lat, secs, late: Vec::new(), start })
}

/// A run of [`drive`]'s players on their own thread: the service's
/// runtime to send to, the service, the driver's reader, the tables, and
/// how to play them.
struct Paced<S: doko_bot::Store> {
    rt: tokio::runtime::Handle,
    svc: std::sync::Arc<doko_bot::Service<S>>,
    reader: std::sync::Arc<doko_bot::Service<doko_bot::RedisStore>>,
    tables: Vec<BenchTable>,
    actions: usize,
    rate: Option<f64>,
    durable: bool,
}

/// A table's next action as its player decided it, before it is due: who
/// plays which seat, what they do, and what they do instead when the
/// service refuses it (the first legal action: a forced solo's choice).
struct Decided {
    actor: usize,
    seat: doko_engine::Seat,
    action: doko_engine::Action,
    fallback: doko_engine::Action,
}

/// What the service's runtime tells the players' thread.
enum Event {
    /// A table's action was answered (with `refused`, its fallback was
    /// played after it, and the deal is read again).
    Answered { table: usize, answered: Instant, refused: bool },
    /// A table's deal as read through the driver's reader.
    Followed { table: usize, deal: Box<Followed> },
    /// A command or a read failed: the run stops.
    Failed(anyhow::Error),
}

/// Where a table of a [`paced`] run stands.
struct Driven {
    deal: Followed,
    /// The actions answered.
    k: usize,
    /// Its next action, decided; and, once sent, when.
    next: Option<(Decided, Option<Instant>)>,
    /// When its next action could be sent at the soonest: when its last
    /// was answered, or its deal read.
    ready: Instant,
}

/// How long the players wait for any answer before the run fails (a
/// task that panicked sends none).
const SILENCE: Duration = Duration::from_secs(60);

/// Whether a followed deal has nobody to act (it ended, or none runs):
/// it is read again.
fn over(deal: &Followed) -> bool {
    deal.as_ref().is_none_or(|(g, _)| g.mandatory_announcement().or(g.to_act()).is_none())
}

/// The next action at a followed deal, as the basic computer plays it;
/// None when nobody the driver seated is to act.
fn decide(deal: &Followed) -> Option<Decided> {
    use doko_players::player::{BasicPlayer, Player};
    let (g, seated) = deal.as_ref()?;
    let seat = g.mandatory_announcement().or(g.to_act())?;
    let actor = seated[seat.index()]?;
    let v = g.view(seat);
    let action = BasicPlayer.decide(&v);
    Some(Decided { actor, seat, action, fallback: *v.legal.first()? })
}

/// [`drive`]'s timed run on the players' own thread. Each table's next
/// action is decided as soon as its last is answered (or its deal read),
/// and sent when due (open loop) or at once (closed loop) as a task on
/// the service's runtime, which reports back when it was answered. The
/// thread sleeps until the next action is due or an answer comes
/// (microseconds late, where a runtime's timer rounds to milliseconds).
fn paced<S: doko_bot::Store + 'static>(run: Paced<S>, first: Vec<Followed>) -> anyhow::Result<RunResult> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    let n = run.tables.len().max(1) as f64;
    // each table's actions are spread evenly: table i starts at its share
    // of the first interval
    let every = run.rate.map(|r| Duration::from_secs_f64(n / r));
    let start = Instant::now();
    let due = |i: usize, k: usize| every.map(|e| start + e.mul_f64(i as f64 / n) + e * k as u32);
    let mut tables: Vec<Driven> =
        first.into_iter().map(|deal| Driven { deal, k: 0, next: None, ready: start }).collect();
    let mut waiting: BinaryHeap<Reverse<(Instant, usize)>> = BinaryHeap::new();
    // (room for every latency and late action up front: a vector that
    // doubles mid-run copies megabytes into fresh pages on this thread)
    let total = run.tables.len() * run.actions;
    let (mut lat, mut late) = (Vec::with_capacity(total), Vec::with_capacity(total));
    let mut busy = 0usize;

    let read = |i: usize, busy: &mut usize| {
        let (tx, reader) = (tx.clone(), run.reader.clone());
        let (ch, people) = run.tables[i].clone();
        *busy += 1;
        run.rt.spawn(async move {
            let event = match follow(&reader, &ch, &people).await {
                Ok(deal) => Event::Followed { table: i, deal: Box::new(deal) },
                Err(e) => Event::Failed(e),
            };
            let _ = tx.send(event);
        });
    };
    let send = |i: usize, d: &Decided, busy: &mut usize| {
        let (tx, svc, durable) = (tx.clone(), run.svc.clone(), run.durable);
        let ch = run.tables[i].0.clone();
        let actor = run.tables[i].1[d.actor].clone();
        let (action, fallback) = (d.action, d.fallback);
        *busy += 1;
        run.rt.spawn(async move {
            use doko_bot::Kind;
            let played = async {
                let msgs = command(&svc, &ch, &actor, action, durable).await?;
                let answered = Instant::now();
                let refused = msgs.private.iter().any(|m| m.kind == Kind::Error);
                if refused {
                    command(&svc, &ch, &actor, fallback, durable).await?;
                }
                Ok::<_, anyhow::Error>((answered, refused))
            };
            let event = match played.await {
                Ok((answered, refused)) => Event::Answered { table: i, answered, refused },
                Err(e) => Event::Failed(e),
            };
            let _ = tx.send(event);
        });
    };
    // a table's next action decided and sent when due (none when its deal
    // has nobody the driver seated to act: the table stops)
    let plan = |i: usize, t: &mut Driven, waiting: &mut BinaryHeap<Reverse<(Instant, usize)>>, busy: &mut usize| {
        let Some(d) = decide(&t.deal) else { return };
        let sent = match due(i, t.k) {
            Some(at) if at > Instant::now() => {
                waiting.push(Reverse((at, i)));
                None
            }
            _ => {
                // (when sent: taken before the task can run and answer)
                let sent = Instant::now();
                send(i, &d, busy);
                Some(sent)
            }
        };
        t.next = Some((d, sent));
    };

    for (i, t) in tables.iter_mut().enumerate() {
        if run.actions == 0 {
            continue;
        }
        if over(&t.deal) {
            read(i, &mut busy);
        } else {
            plan(i, t, &mut waiting, &mut busy);
        }
    }
    loop {
        // what is due is sent
        while let Some(&Reverse((at, i))) = waiting.peek() {
            if at > Instant::now() {
                break;
            }
            waiting.pop();
            if let Some((d, sent)) = tables[i].next.as_mut() {
                *sent = Some(Instant::now());
                send(i, d, &mut busy);
            }
        }
        if busy == 0 && waiting.is_empty() {
            break;
        }
        let wait = waiting.peek().map_or(SILENCE, |Reverse((at, _))| at.saturating_duration_since(Instant::now()));
        let event = match rx.recv_timeout(wait) {
            Ok(e) => e,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !waiting.is_empty() => continue,
            Err(_) => anyhow::bail!("no answer from the service in {} s", SILENCE.as_secs()),
        };
        busy -= 1;
        match event {
            Event::Failed(e) => return Err(e),
            Event::Followed { table: i, deal } => {
                let t = &mut tables[i];
                t.deal = *deal;
                t.ready = Instant::now();
                if !over(&t.deal) {
                    plan(i, t, &mut waiting, &mut busy);
                }
            }
            Event::Answered { table: i, answered, refused } => {
                let t = &mut tables[i];
                let Some((d, Some(sent))) = t.next.take() else { anyhow::bail!("an answer to nothing sent") };
                let due = due(i, t.k);
                lat.push(answered - due.unwrap_or(sent));
                if let Some(due) = due
                    && answered - due > LATE
                {
                    let ready = t.ready.max(due);
                    late.push(Late {
                        due: due - start,
                        waited: ready - due,
                        sent_late: sent.saturating_duration_since(ready),
                        answer: answered - sent,
                    });
                }
                t.ready = answered;
                t.k += 1;
                let played = !refused && t.deal.as_mut().is_some_and(|(g, _)| g.act(d.seat, d.action).is_ok());
                if !played {
                    t.deal = None;
                }
                if t.k >= run.actions {
                    continue;
                }
                if over(&t.deal) {
                    read(i, &mut busy);
                } else {
                    plan(i, t, &mut waiting, &mut busy);
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    lat.sort();
    late.sort_by_key(|l| l.due);
    Ok(RunResult { lat, secs, late, start })
}

/// One action at a table: the next person to act plays as the basic
/// computer would ([`decide`]). Returns how long the service took to
/// answer it (a refused choice's fallback not counted), or `None` when
/// the table has nothing to do.
async fn act<S: doko_bot::Store>(
    svc: &doko_bot::Service<S>,
    reader: &doko_bot::Service<doko_bot::RedisStore>,
    ch: &doko_bot::ChannelId,
    people: &[doko_bot::Actor],
    deal: &mut Followed,
    durable: bool,
) -> anyhow::Result<Option<Duration>> {
    use doko_bot::Kind;

    // the deal as the players follow it: read from the store when a deal
    // starts (and after a refusal), then played along here, as people at a
    // table follow it from what they are shown, so that the driver's reads
    // neither share Redis with the service nor cost a parse and replay per
    // action
    if over(deal) {
        *deal = follow(reader, ch, people).await?;
    }
    let Some(d) = decide(deal) else { return Ok(None) };
    let actor = &people[d.actor];
    let sent = Instant::now();
    let msgs = command(svc, ch, actor, d.action, durable).await?;
    let answered = sent.elapsed();
    if msgs.private.iter().any(|m| m.kind == Kind::Error) {
        // a refused choice (a forced solo): take the first legal action,
        // and read the table again next time
        command(svc, ch, actor, d.fallback, durable).await?;
        *deal = None;
    } else if deal.as_mut().is_some_and(|(g, _)| g.act(d.seat, d.action).is_err()) {
        *deal = None;
    }
    Ok(Some(answered))
}

/// The actions sent so far (each action's delivery id is made from it).
static CLICKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// One action as a command to the service, delivered with an id of its
/// own as a platform delivers a click (a Discord interaction id: a
/// snowflake of 19 digits), so the table remembers it as it does in play;
/// with the durable outbox, what it owes is then marked delivered (as
/// `deliver` does, with nothing sent).
async fn command<S: doko_bot::Store>(
    svc: &doko_bot::Service<S>,
    ch: &doko_bot::ChannelId,
    actor: &doko_bot::Actor,
    action: doko_engine::Action,
    durable: bool,
) -> anyhow::Result<doko_bot::Outbox> {
    let click = CLICKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let id = (1_190_000_000_000_000_000u64 + click * 4_194_304).to_string();
    let cmd = doko_bot::command::Command::from_action(action);
    let msgs = svc.execute_delivery(ch, actor, cmd, Some(&id)).await?;
    if durable && !msgs.owed.is_empty() {
        doko_bot::App::delivered(svc, ch, msgs.owed_salt, &msgs.owed).await;
    }
    Ok(msgs)
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
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        println!("{kind:<20} {:>10.2} {:>10.2} {:>10.1}", ms(times[times.len() / 2]), ms(p99), size as f64 / 1024.0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steal is read per core from two readings of `/proc/stat`, as a
    /// share of all that core's ticks between them; the machine's total
    /// line and other lines are not cores.
    #[test]
    fn stolen_per_core_reads_each_cores_steal() {
        let before = "cpu  500 0 100 1000 0 0 0 90 0 0\ncpu0 200 0 50 500 0 0 0 40 0 0\ncpu1 300 0 50 500 0 0 0 50 0 0\nintr 1 2\n";
        // cpu0: 100 more ticks, 25 stolen; cpu1: 200 more ticks, none
        let after = "cpu  800 0 100 1100 0 0 0 115 0 0\ncpu0 260 0 55 510 0 0 0 65 0 0\ncpu1 500 0 50 500 0 0 0 50 0 0\nintr 3 4\n";
        assert_eq!(stolen_per_core(before, after).as_deref(), Some("cpu0 25%, cpu1 0%"));
        // a core with no ticks between the readings, and no cores at all
        assert_eq!(stolen_per_core(before, before), None);
        assert_eq!(stolen_per_core("intr 1", "intr 2"), None);
    }

    /// The late actions are counted by the 100 ms window they were due
    /// in, the fullest windows first, each with what other processes used
    /// and the host took in the samples that overlap it or the 100 ms
    /// after it.
    #[test]
    fn late_windows_name_the_fullest_windows_and_the_other_processes() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let late = |due, waited, sent, answer| Late {
            due: ms(due),
            waited: ms(waited),
            sent_late: ms(sent),
            answer: ms(answer),
        };
        // two in the window at 0.2 s, three in the one at 4.7 s
        let lates = [
            late(210, 0, 1, 5),
            late(290, 3, 0, 7),
            late(4_700, 30, 10, 60),
            late(4_750, 0, 45, 20),
            late(4_799, 0, 2, 9),
        ];
        let busy = |at, cores, stolen| Busy {
            at: start + ms(at),
            cores,
            stolen,
            top: Top::default(),
            faults: 0,
            lag: Duration::ZERO,
            runtime_lag: Duration::ZERO,
        };
        // the busiest other process of a sample in the window at 4.7 s
        let top = |name: &str, cores| {
            let mut t = Top { cores, len: name.len() as u8, ..Top::default() };
            t.name[..name.len()].copy_from_slice(name.as_bytes());
            t
        };
        let others = [
            busy(300, 0.2, 0.0),
            Busy { top: top("kworker/u8:3", 0.1), faults: 120, lag: ms(2), ..busy(4_800, 0.9, 0.5) },
            Busy { top: top("kdamond.0", 0.4), faults: 30, runtime_lag: ms(40), ..busy(4_900, 1.0, 0.1) },
            busy(5_100, 0.1, 0.0),
            busy(9_000, 0.3, 0.7),
        ];
        let text = late_windows(&lates, &others, start);
        assert!(
            text.starts_with("open loop: 5 actions answered over 5 ms after due, in 2 windows of 100 ms"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            "  due at 4.7 s: 3 actions, up to 100.0 ms late; waited up to 30.0 ms for their tables' previous answers, \
             sent up to 45.0 ms later than they could be, answered in up to 60.0 ms; \
             other processes on the machine kept 100% of a core busy, the host took 50% \
             (the busiest other process: kdamond.0, 40% of a core); doko took 150 page faults, its sleeping thread \
             woke up to 2.0 ms late, its runtime's timer up to 40.0 ms"
        );
        assert_eq!(
            lines[2],
            "  due at 0.2 s: 2 actions, up to 10.0 ms late; waited up to 3.0 ms for their tables' previous answers, \
             sent up to 1.0 ms later than they could be, answered in up to 7.0 ms; \
             other processes on the machine kept 20% of a core busy, the host took 0%; doko took 0 page faults, its \
             sleeping thread woke up to 0.0 ms late, its runtime's timer up to 0.0 ms"
        );
        assert_eq!(
            lines[3],
            "other processes on the machine in the open loop: 0.5 cores on average, at most 100% of a core over \
             100 ms (at 4.9 s)"
        );
        assert_eq!(
            lines[4],
            "the host in the open loop: 0.3 cores on average, at most 70% of a core over 100 ms (at 9.0 s)"
        );
        assert_eq!(
            lines[5],
            "doko in the open loop: 30 page faults per 100 ms on average, at most 120 (at 4.8 s); its sleeping thread \
             woke at most 2.0 ms late, its runtime's timer at most 40.0 ms"
        );
        assert_eq!(late_windows(&[], &[], start), "open loop: 0 actions answered over 5 ms after due");
    }

    /// A spread's median is the middle figure of an odd count and the mean
    /// of the middle two of an even one; figures that are not finite are
    /// left out, and nothing gives no spread.
    #[test]
    fn spread_takes_the_middle_and_the_ends() {
        let s = Spread::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!(s, Spread { median: 2.0, least: 1.0, most: 3.0, of: 3 });
        let s = Spread::of(&[4.0, 1.0, f64::NAN, 2.0, 10.0]).unwrap();
        assert_eq!(s, Spread { median: 3.0, least: 1.0, most: 10.0, of: 4 });
        assert_eq!(Spread::of(&[]), None);
        assert_eq!(Spread::of(&[f64::INFINITY]), None);
        assert_eq!(Some(s).line("x", 1, Target::Below(5.0)), "x: median 3.0 (1.0-10.0 over 4 runs); target under 5.0");
        assert_eq!(None.line("x", 1, Target::None), "x: no run gave it");
    }

    /// The summary of several bench-tables runs holds each figure against
    /// its target and counts the runs that met it: the closed loop's share
    /// at least 50%, the open loop's p99 under 5 ms.
    #[test]
    fn tables_summary_counts_the_runs_that_met_each_target() {
        let run = |share, p99| TablesFigures {
            closed: 20_000.0,
            alone: 70_000.0,
            share,
            open: Some((10_000.0, 1.0, p99)),
            alone_p99: Some(1.5),
            table_bytes: 1_400.0,
            record_bytes: 300.0,
        };
        let text = tables_summary(&[run(52.0, 4.0), run(49.0, 6.0), run(55.0, 4.5)]);
        assert!(text.starts_with("summary of 3 runs:\n"), "{text}");
        assert!(
            text.contains(
                "  closed loop, % of Redis alone: median 52.0 (49.0-55.0 over 3 runs); target at least 50.0, met in 2 of 3\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "  open loop p99, ms: median 4.50 (4.00-6.00 over 3 runs); target under 5.00, met in 2 of 3\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("  Redis per table with its records, bytes: median 1700 (1700-1700 over 3 runs)\n"),
            "{text}"
        );
        // a run with no open loop gives no open-loop figure
        let text = tables_summary(&[TablesFigures { open: None, alone_p99: None, ..run(51.0, 0.0) }]);
        assert!(text.contains("  open loop p99, ms: no run gave it, met in 0 of 0\n"), "{text}");
    }
}
