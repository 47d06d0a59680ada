//! The `doko` binary. With no platform configured it opens a table in the
//! terminal (you and three computer players, on the embedded store);
//! `doko replay` checks and scores a game record; `doko bench` measures
//! the engine.

// matrix-sdk's futures are deep: proving them Send needs a higher limit
#![recursion_limit = "256"]

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use doko_bot::{AnyStore, EmbeddedStore, RedisStore, Service};

mod bench;
#[path = "../../tests/local_redis.rs"]
mod local_redis;

/// Doppelkopf for group play.
#[derive(Parser)]
#[command(name = "doko", version, about)]
struct Cli {
    /// Where the embedded store keeps its file (default: $DOKO_DATA, else
    /// ~/.local/share/doko).
    #[arg(long, global = true)]
    data: Option<PathBuf>,
    /// A Redis URL: store tables there instead of the embedded store
    /// (default: $DOKO_REDIS_URL).
    #[arg(long, global = true)]
    redis: Option<String>,
    /// Your name at the terminal table (default: your login name, else
    /// Player). The table's events name you like everyone else ("Anna
    /// plays ♣Q"), so a name reads better there than "You".
    #[arg(long, global = true)]
    name: Option<String>,
    /// Time the strong computer player may think per decision, in ms
    /// (default: $DOKO_BOT_BUDGET_MS, else 60).
    #[arg(long, global = true)]
    bot_budget_ms: Option<u64>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Replay a game record (doko-record/1), validating every step, and
    /// print the result.
    Replay {
        /// The record file, or `-` for standard input.
        file: String,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Measure the engine: random complete games per second on one core.
    Bench {
        /// How many games to play.
        #[arg(long, default_value_t = 2_000_000)]
        games: u64,
        /// The seed of the first game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play without nines (40 cards).
        #[arg(long)]
        no_nines: bool,
    },
    /// Measure the service: many tables at once on Redis (actions per
    /// second, latency, Redis memory per table). Starts its own
    /// redis-server unless --redis is given.
    BenchTables {
        /// Concurrent tables.
        #[arg(long, default_value_t = 1000)]
        tables: usize,
        /// Actions per table.
        #[arg(long, default_value_t = 52)]
        actions: usize,
    },
    /// Duplicate matches between two kinds of computer player (random,
    /// basic, strong): points per deal with a 95% confidence interval and
    /// decision times.
    Arena {
        /// Kind A.
        #[arg(long, default_value = "strong")]
        a: String,
        /// Kind B.
        #[arg(long, default_value = "basic")]
        b: String,
        /// Deals (each played twice, seats swapped).
        #[arg(long, default_value_t = 200)]
        deals: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The strong player's time per decision in milliseconds.
        #[arg(long, default_value_t = 60)]
        budget_ms: u64,
        /// The strong player's sampled worlds per decision.
        #[arg(long, default_value_t = 40)]
        worlds: usize,
        /// Threads (deals are split between them).
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Play at a table in this terminal (the default).
    Play,
}

fn read_input(file: &str) -> anyhow::Result<String> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin().read_to_string(&mut text).context("reading standard input")?;
    } else {
        text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
    }
    Ok(text)
}

fn replay(file: &str, json: bool) -> ExitCode {
    let text = match read_input(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("record: {e:#}");
            return ExitCode::from(2);
        }
    };
    match doko_engine::record::replay_str(&text) {
        Ok(result) => {
            if json {
                println!("{}", serde_json::to_string_pretty(&result.to_json()).expect("JSON value"));
            } else {
                print!("{}", result.to_text());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn entropy() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish()
}

/// The data directory: `--data`, `$DOKO_DATA`, else ~/.local/share/doko.
fn data_dir(cli: &Cli) -> PathBuf {
    cli.data
        .clone()
        .or_else(|| std::env::var_os("DOKO_DATA").map(PathBuf::from))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/doko")))
        .unwrap_or_else(|| PathBuf::from(".doko"))
}

async fn store(cli: &Cli) -> anyhow::Result<AnyStore> {
    let redis = cli.redis.clone().or_else(|| std::env::var("DOKO_REDIS_URL").ok()).filter(|s| !s.is_empty());
    if let Some(url) = redis {
        // tables with a session in progress or statistics never expire;
        // others (people who joined and never played) after 90 days
        let s = RedisStore::connect(&url, 90 * 24 * 3600).await.with_context(|| "connecting to Redis")?;
        for w in s.check_settings().await {
            eprintln!("doko: warning: {w}");
        }
        return Ok(AnyStore::Redis(s));
    }
    let path = data_dir(cli).join("doko.redb");
    let s = EmbeddedStore::open(&path).with_context(|| format!("opening {}", path.display()))?;
    Ok(AnyStore::Embedded(s))
}

async fn play(cli: &Cli) -> anyhow::Result<()> {
    let budget = cli
        .bot_budget_ms
        .or_else(|| std::env::var("DOKO_BOT_BUDGET_MS").ok().and_then(|v| v.parse().ok()))
        .unwrap_or(60);
    let strong =
        doko_bot::strong::StrongConfig { budget: std::time::Duration::from_millis(budget), ..Default::default() };
    let discord = doko_discord::run::DiscordConfig::from_env()?;
    let matrix = doko_matrix::MatrixConfig::from_env(data_dir(cli).join("matrix"))?;
    let limits = limits(discord.is_some() || matrix.is_some())?;
    tracing::info!(?limits, "bounds");
    let service =
        std::sync::Arc::new(Service::new(store(cli).await?, entropy()).with_strong(strong).with_limits(limits));
    let app: std::sync::Arc<dyn doko_bot::App> = service.clone();
    if discord.is_some() || matrix.is_some() {
        let mut platforms = tokio::task::JoinSet::new();
        if let Some(discord) = discord {
            tracing::info!(dev_guild = ?discord.dev_guild, "serving Discord");
            let s = app.clone();
            platforms.spawn(async move { doko_discord::run::run(s, discord).await.context("Discord") });
        }
        if let Some(matrix) = matrix {
            tracing::info!(config = ?matrix, "serving Matrix");
            let s = app.clone();
            platforms.spawn(async move {
                doko_matrix::run(s, matrix, |me| println!("doko: serving Matrix as {me}")).await.context("Matrix")
            });
        }
        // the first platform to end ends the process
        if let Some(done) = platforms.join_next().await {
            done.context("platform task")??;
        }
        return Ok(());
    }
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let name = cli.name.clone().unwrap_or_else(login_name);
    doko_terminal::run(&*app, stdin, tokio::io::stdout(), &name).await
}

/// The bounds: rate limits for a bot among strangers (none at the
/// terminal, where one person plays), from `$DOKO_RATE_USER` and
/// `$DOKO_RATE_CHANNEL` (`BURST/MILLISECONDS`, or `0` for none), and the
/// records kept per table from `$DOKO_RECORDS_KEPT` (0: all).
fn limits(public: bool) -> anyhow::Result<doko_bot::Limits> {
    let mut l = if public { doko_bot::Limits::public() } else { doko_bot::Limits::default() };
    if let Ok(v) = std::env::var("DOKO_RATE_USER") {
        l.user = doko_bot::Rate::parse(&v).context("DOKO_RATE_USER")?;
    }
    if let Ok(v) = std::env::var("DOKO_RATE_CHANNEL") {
        l.channel = doko_bot::Rate::parse(&v).context("DOKO_RATE_CHANNEL")?;
    }
    if let Ok(v) = std::env::var("DOKO_RECORDS_KEPT") {
        l.records_kept = v.trim().parse().context("DOKO_RECORDS_KEPT: a number (0: all)")?;
    }
    Ok(l)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Cmd::Replay { file, json }) => replay(file, *json),
        Some(Cmd::Bench { games, seed, no_nines }) => {
            bench::run(*games, *seed, !no_nines);
            ExitCode::SUCCESS
        }
        Some(Cmd::BenchTables { tables, actions }) => {
            let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
            let opts = bench::TablesOpts { redis: cli.redis.clone(), tables: *tables, actions: *actions };
            match rt.block_on(bench::tables(opts)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("doko: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Cmd::Arena { a, b, deals, seed, budget_ms, worlds, threads }) => {
            use doko_bot::arena;
            let (Some(ka), Some(kb)) = (arena::Kind::from_name(a), arena::Kind::from_name(b)) else {
                eprintln!("doko: kinds are random, basic, strong");
                return ExitCode::from(2);
            };
            let cfg = doko_bot::strong::StrongConfig {
                worlds: *worlds,
                budget: std::time::Duration::from_millis(*budget_ms),
                ..Default::default()
            };
            let rules = doko_engine::Rules::default();
            let threads = (*threads).max(1);
            let per = deals.div_ceil(threads);
            let start = std::time::Instant::now();
            let parts: Vec<arena::ArenaResult> = std::thread::scope(|sc| {
                let hs: Vec<_> = (0..threads)
                    .map(|t| {
                        let n = per.min(deals.saturating_sub(t * per));
                        let s = seed.wrapping_add(t as u64 * 0x9E37_79B9);
                        let rules = &rules;
                        sc.spawn(move || arena::run(ka, kb, n, s, rules, cfg))
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().expect("arena thread")).collect()
            });
            let mut all = arena::ArenaResult::default();
            for p in parts {
                all.per_deal.extend(p.per_deal);
                all.times[0].extend(p.times[0].iter().copied());
                all.times[1].extend(p.times[1].iter().copied());
                all.illegal += p.illegal;
            }
            let (mean, ci) = all.mean_ci();
            let (am, ap) = all.time_stats(0);
            let (bm, bp) = all.time_stats(1);
            println!(
                "{} duplicate deals ({} plays), {:.0} s: {a} vs {b}: {a} {mean:+.3} points per deal (95% CI {:+.3} .. {:+.3}), {b} {:+.3}",
                all.per_deal.len(),
                2 * all.per_deal.len(),
                start.elapsed().as_secs_f64(),
                mean - ci,
                mean + ci,
                -mean
            );
            println!(
                "decision time {a}: median {:.2} ms, p99 {:.2} ms; {b}: median {:.2} ms, p99 {:.2} ms; illegal choices {}",
                am.as_secs_f64() * 1e3,
                ap.as_secs_f64() * 1e3,
                bm.as_secs_f64() * 1e3,
                bp.as_secs_f64() * 1e3,
                all.illegal
            );
            ExitCode::SUCCESS
        }
        Some(Cmd::Play) | None => {
            tracing_subscriber::fmt()
                .with_env_filter(tracing_subscriber::EnvFilter::from_env("DOKO_LOG"))
                .with_writer(std::io::stderr)
                .init();
            let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
            match rt.block_on(play(&cli)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("doko: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// The login name, capitalised (`anna` → `Anna`), else `Player`.
fn login_name() -> String {
    let user = std::env::var("USER").or_else(|_| std::env::var("USERNAME")).unwrap_or_default();
    let mut chars = user.trim().chars();
    match chars.next() {
        Some(c) if c.is_alphanumeric() => c.to_uppercase().chain(chars).collect(),
        _ => "Player".to_string(),
    }
}
