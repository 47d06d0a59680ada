//! The `doko` binary. With no platform configured it opens a table in the
//! terminal (you and three computer players, on the embedded store);
//! `doko replay` checks and scores a game record; `doko bench` measures
//! the engine.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use doko_bot::{AnyStore, EmbeddedStore, RedisStore, Service};

mod bench;

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
    /// Your name at the terminal table.
    #[arg(long, global = true, default_value = "You")]
    name: String,
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

async fn store(cli: &Cli) -> anyhow::Result<AnyStore> {
    let redis = cli.redis.clone().or_else(|| std::env::var("DOKO_REDIS_URL").ok()).filter(|s| !s.is_empty());
    if let Some(url) = redis {
        let s = RedisStore::connect(&url, 90 * 24 * 3600).await.with_context(|| "connecting to Redis")?;
        return Ok(AnyStore::Redis(s));
    }
    let dir = cli
        .data
        .clone()
        .or_else(|| std::env::var_os("DOKO_DATA").map(PathBuf::from))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/doko")))
        .unwrap_or_else(|| PathBuf::from(".doko"));
    let path = dir.join("doko.redb");
    let s = EmbeddedStore::open(&path).with_context(|| format!("opening {}", path.display()))?;
    Ok(AnyStore::Embedded(s))
}

async fn play(cli: &Cli) -> anyhow::Result<()> {
    let service = Service::new(store(cli).await?, entropy());
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    doko_terminal::run(&service, stdin, tokio::io::stdout(), &cli.name).await
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
