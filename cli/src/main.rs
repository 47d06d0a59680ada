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
mod config;

/// The process's allocator (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
#[path = "../../tests/local_redis.rs"]
mod local_redis;
mod observe;
mod transfer;

/// Doppelkopf for group play.
#[derive(Parser)]
#[command(name = "doko", version, about)]
struct Cli {
    /// The configuration file (default: $DOKO_CONFIG, else the first of
    /// ./doko.toml, ~/.config/doko/doko.toml, /etc/doko/doko.toml that
    /// exists); each setting's DOKO_ variable wins over it, a flag over
    /// both (config/doko.example.toml documents every key).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// Logs as JSON lines instead of text (default: $DOKO_LOG_FORMAT, or
    /// the file's log.format).
    #[arg(long, global = true)]
    log_json: bool,
    /// Where the embedded store keeps its file (default: $DOKO_DATA, else
    /// ~/.local/share/doko).
    #[arg(long, global = true)]
    data: Option<PathBuf>,
    /// A Redis URL: store tables there instead of the embedded store
    /// (default: $DOKO_REDIS_URL); `redis://host:port/` for one server,
    /// `redis+cluster://host:port,host:port` for a Redis Cluster.
    #[arg(long, global = true)]
    redis: Option<String>,
    /// Your name at the terminal table (default: your login name, else
    /// Player). The table's events name you like everyone else ("Anna
    /// plays ♣Q"), so a name reads better there than "You".
    #[arg(long, global = true)]
    name: Option<String>,
    /// Time the searching computer players (strong, expert, uct) may think
    /// per decision, in ms (default: $DOKO_BOT_BUDGET_MS, else 60).
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
        /// Timed runs, one after the other (after one warm-up): each is
        /// printed, then their median against the target of 2,000,000
        /// games a second.
        #[arg(long, default_value_t = 1)]
        runs: usize,
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
        /// With the durable outbox, as the bot runs: what each action owes
        /// is stored with it and marked delivered afterwards (one more
        /// commit per action).
        #[arg(long)]
        durable: bool,
        /// The open loop's offered rate, actions per second over all
        /// tables (default: half the closed loop's).
        #[arg(long)]
        rate: Option<f64>,
        /// Whole measurements, one after the other (each with its own
        /// redis-server unless --redis is given): each is printed, then
        /// the median, least and most of each figure with the target it
        /// is held against and how many runs met it.
        #[arg(long, default_value_t = 1)]
        runs: usize,
    },
    /// Measure the card pictures: time to draw and size of a hand, a trick
    /// and a whole deal (median over the runs, on one core).
    BenchPictures {
        /// Pictures of each kind drawn.
        #[arg(long, default_value_t = 200)]
        runs: usize,
    },
    /// Duplicate matches between two kinds of computer player (random,
    /// basic, strong, expert, uct, or an outside program as `cmd:PROGRAM` through the
    /// seat protocol): points per deal with a 95% confidence interval and
    /// decision times.
    Arena {
        /// Side A: a kind, or `cmd:PROGRAM` (run with `sh -c`, one process
        /// per seat, spoken to by the seat protocol, docs/seat-protocol.md).
        #[arg(long, default_value = "strong")]
        a: String,
        /// Side B, as side A.
        #[arg(long, default_value = "basic")]
        b: String,
        /// Deals (each played twice, seats swapped).
        #[arg(long, default_value_t = 200)]
        deals: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The searching players' (strong, expert, uct) time per decision in
        /// milliseconds.
        #[arg(long, default_value_t = 60)]
        budget_ms: u64,
        /// The strong player's sampled worlds per decision.
        #[arg(long, default_value_t = 40)]
        worlds: usize,
        /// Threads (deals are split between them).
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Time a program (`cmd:`) has for each answer, in milliseconds.
        #[arg(long, default_value_t = 10_000)]
        seat_timeout_ms: u64,
        /// The rules: a preset name, or a record's rules object as JSON
        /// (`{"preset":"ddv","poverty":"on"}`).
        #[arg(long, default_value = "ddv")]
        rules: String,
    },
    /// Play one seat for a table manager through the seat protocol on
    /// stdin and stdout (docs/seat-protocol.md), with one of doko's kinds
    /// of computer player.
    Seat {
        /// The kind: random, basic, strong, expert or uct.
        #[arg(long, default_value = "strong")]
        kind: String,
        /// The searching players' (strong, expert, uct) time per decision in
        /// milliseconds.
        #[arg(long, default_value_t = 60)]
        budget_ms: u64,
        /// The strong player's sampled worlds per decision.
        #[arg(long, default_value_t = 40)]
        worlds: usize,
        /// End with an error when the events and the view disagree
        /// (conformance checks of a manager).
        #[arg(long)]
        strict: bool,
    },
    /// Play at a table in this terminal (the default).
    Play,
    /// Look into the store (the embedded file, or Redis with --redis).
    Store {
        #[command(subcommand)]
        cmd: StoreCmd,
    },
    /// Write every table and record of the store (the embedded file, or
    /// Redis with --redis) to a file: a backup, or the way from one store
    /// to another with `doko import`. Stop the bot first on the embedded
    /// store (one process owns its file); Redis can be exported while
    /// the bot runs.
    Export {
        /// The file to write, or `-` for standard output.
        file: String,
    },
    /// Read a file written by `doko export` into the store (the embedded
    /// file, or Redis with --redis): every table with its records under
    /// their numbers. The store must hold none of its tables yet.
    Import {
        /// The file to read, or `-` for standard input.
        file: String,
    },
    /// The configuration file.
    Config {
        #[command(subcommand)]
        cmd: ConfigCmd,
    },
}

#[derive(Subcommand)]
enum ConfigCmd {
    /// Check a configuration file: every key known, every value of the
    /// form it takes, the front ends' settings complete. Prints each
    /// problem with its line and what is allowed (never a secret); exit
    /// status 1 when there is one.
    Check {
        /// The file.
        file: PathBuf,
    },
}

#[derive(Subcommand)]
enum StoreCmd {
    /// List the tables set aside because they could not be read (each
    /// `CHANNEL@VERSION`, when, and the reader's error); with an id, that
    /// one, and with --state its stored state too. The error and the state
    /// may show players' cards: they are for the store's operator.
    Inspect {
        /// One table set aside (`CHANNEL@VERSION`, as the channel was told).
        id: Option<String>,
        /// Print the stored state as well (JSON).
        #[arg(long)]
        state: bool,
    },
}

/// The largest record `doko replay` reads: 16 MiB. A record of a whole
/// deal is a few kilobytes, so this is thousands of times any real record;
/// a larger input (a wrong file, an endless stream, a record padded to
/// exhaust memory) is refused after reading at most this much plus one
/// byte, so replaying never holds more than a small multiple of it (the
/// bytes and the JSON tree made from them).
const RECORD_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The longest error line `doko replay` prints, in characters: room for
/// the longest message the engine gives about a record (the unknown rule,
/// listing every rule: about 440 characters with 25 keys), while nothing a
/// record says can make a line longer (the engine quotes at most a short
/// piece of it).
const ERROR_MAX_CHARS: usize = 700;

/// Why a record could not be read.
enum ReadFailure {
    /// Larger than [`RECORD_MAX_BYTES`].
    TooLarge,
    /// Unreadable, or not UTF-8 text.
    Failed(anyhow::Error),
}

/// Reads at most [`RECORD_MAX_BYTES`] of a record (and one byte more, to
/// tell a larger one).
fn read_bounded(input: impl Read, size_hint: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::with_capacity(size_hint.min(RECORD_MAX_BYTES) as usize + 1);
    input.take(RECORD_MAX_BYTES + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= RECORD_MAX_BYTES).then_some(bytes))
}

/// Reads a record from a file, or from standard input for `-`.
fn read_input(file: &str) -> Result<String, ReadFailure> {
    let bytes = if file == "-" {
        read_bounded(std::io::stdin().lock(), 0).context("reading standard input")
    } else {
        std::fs::File::open(file)
            .and_then(|f| {
                let len = f.metadata().map_or(0, |m| m.len());
                read_bounded(f, len)
            })
            .with_context(|| format!("reading {file}"))
    };
    match bytes {
        Ok(Some(bytes)) => {
            String::from_utf8(bytes).context("the record is not UTF-8 text").map_err(ReadFailure::Failed)
        }
        Ok(None) => Err(ReadFailure::TooLarge),
        Err(e) => Err(ReadFailure::Failed(e)),
    }
}

/// An error line cut to [`ERROR_MAX_CHARS`].
fn bounded(line: &str) -> String {
    match line.char_indices().nth(ERROR_MAX_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

fn replay(file: &str, json: bool) -> ExitCode {
    let text = match read_input(file) {
        Ok(t) => t,
        Err(ReadFailure::TooLarge) => {
            eprintln!("record: larger than {} MiB; refused", RECORD_MAX_BYTES >> 20);
            return ExitCode::from(2);
        }
        Err(ReadFailure::Failed(e)) => {
            eprintln!("{}", bounded(&format!("record: {e:#}")));
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
            eprintln!("{}", bounded(&e.to_string()));
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

/// The data directory: `--data`, `store.data` ($DOKO_DATA), else
/// ~/.local/share/doko.
fn data_dir(cli: &Cli, set: &config::Settings) -> PathBuf {
    cli.data
        .clone()
        .or_else(|| set.get("DOKO_DATA").map(PathBuf::from))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/doko")))
        .unwrap_or_else(|| PathBuf::from(".doko"))
}

/// The store, its format checked ([`doko_bot::check_format`]): a store
/// written by a newer doko is refused before anything is served.
async fn store(cli: &Cli, set: &config::Settings) -> anyhow::Result<AnyStore> {
    let s = open_store(cli, set).await?;
    doko_bot::check_format(&s).await.context("checking the store's format")?;
    Ok(s)
}

async fn open_store(cli: &Cli, set: &config::Settings) -> anyhow::Result<AnyStore> {
    let redis = cli.redis.clone().or_else(|| set.get("DOKO_REDIS_URL")).filter(|s| !s.is_empty());
    if let Some(url) = redis {
        // tables with a session in progress or statistics never expire;
        // others (people who joined and never played) after 90 days
        let s = RedisStore::connect(&url, 90 * 24 * 3600).await.with_context(|| "connecting to Redis")?;
        for w in s.check_settings().await {
            eprintln!("doko: warning: {w}");
        }
        return Ok(AnyStore::Redis(s));
    }
    let path = data_dir(cli, set).join("doko.redb");
    let s = EmbeddedStore::open(&path).with_context(|| format!("opening {}", path.display()))?;
    Ok(AnyStore::Embedded(s))
}

async fn play(cli: &Cli, set: &config::Settings) -> anyhow::Result<()> {
    let budget = cli.bot_budget_ms.or_else(|| set.get("DOKO_BOT_BUDGET_MS").and_then(|v| v.parse().ok())).unwrap_or(60);
    let strong =
        doko_players::strong::StrongConfig { budget: std::time::Duration::from_millis(budget), ..Default::default() };
    let var = |k: &str| set.get(k);
    let discord = doko_discord::run::DiscordConfig::from_vars(&var)?;
    let matrix = doko_matrix::MatrixConfig::from_vars(&var, data_dir(cli, set).join("matrix"))?;
    let limits = limits(discord.is_some() || matrix.is_some(), set)?;
    let rules = config::new_table_rules(
        set.get("DOKO_PRESET").as_deref().unwrap_or("ddv"),
        &set.get("DOKO_RULES").unwrap_or_default(),
    )
    .map_err(|e| anyhow::anyhow!("the rules for new tables: {e}"))?;
    let lang = match set.get("DOKO_LANGUAGE").as_deref() {
        None => doko_bot::Lang::En,
        Some(code) => doko_bot::Lang::from_code(code).context("the language for new tables: en or de")?,
    };
    tracing::info!(?limits, "bounds");
    let service = std::sync::Arc::new(
        Service::new(store(cli, set).await?, entropy())
            .with_strong(strong)
            .with_limits(limits)
            .with_new_tables(rules, lang)
            .with_durable_outbox(),
    );
    // a delivered entry's mark rides on its table's next commit
    service.defer_marks();
    let app: std::sync::Arc<dyn doko_bot::App> = service.clone();
    if let Some(listen) = set.get("DOKO_METRICS_LISTEN") {
        let handle = observe::install()?;
        let listener = tokio::net::TcpListener::bind(&listen)
            .await
            .with_context(|| format!("listening on {listen} for metrics"))?;
        let health = service.clone();
        tokio::spawn(observe::serve(listener, handle, std::sync::Arc::new(move || health.store_health().up)));
    }
    // the store's health, also when nobody plays (logged when it changes)
    let health = service.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            health.check_store().await;
        }
    });
    if discord.is_some() || matrix.is_some() {
        let mut platforms = tokio::task::JoinSet::new();
        let (stop_tx, stop) = tokio::sync::watch::channel(false);
        if let Some(discord) = discord {
            tracing::info!(dev_guild = ?discord.dev_guild, "serving Discord");
            let s = app.clone();
            let stop = stop.clone();
            platforms.spawn(async move { doko_discord::run::run_until(s, discord, stop).await.context("Discord") });
        }
        if let Some(matrix) = matrix {
            tracing::info!(config = ?matrix, "serving Matrix");
            let s = app.clone();
            let stop = stop.clone();
            platforms.spawn(async move {
                doko_matrix::run_until(s, matrix, |me| println!("doko: serving Matrix as {me}"), stop)
                    .await
                    .context("Matrix")
            });
        }
        // the first platform to end ends the process; SIGTERM or ctrl-c
        // ends it gracefully
        tokio::select! {
            done = platforms.join_next() => {
                if let Some(done) = done {
                    done.context("platform task")??;
                }
            }
            _ = shutdown_signal() => {
                graceful(&service).await;
                // the front ends close their connections; what does not end
                // within a few seconds is dropped
                let _ = stop_tx.send(true);
                let closed = tokio::time::timeout(std::time::Duration::from_secs(5), async {
                    while platforms.join_next().await.is_some() {}
                })
                .await;
                if closed.is_err() {
                    tracing::warn!("a front end did not close within 5 s; dropping it");
                }
                platforms.shutdown().await;
                tracing::info!("stopped");
            }
        }
        return Ok(());
    }
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let name = cli.name.clone().or_else(|| set.get("DOKO_NAME")).unwrap_or_else(login_name);
    let term = doko_terminal::run(&*app, stdin, tokio::io::stdout(), &name);
    tokio::pin!(term);
    let r = tokio::select! {
        r = &mut term => r,
        _ = shutdown_signal() => {
            // the command in flight is finished and its answer printed;
            // the line being typed is not read
            service.close();
            tokio::select! {
                _ = &mut term => {}
                _ = async {
                    let _ = tokio::time::timeout(DRAIN, service.drain()).await;
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                } => {}
            }
            println!("\ndoko stopped; the table is kept.");
            Ok(())
        }
    };
    // (what was delivered and waits to be marked is marked before the end)
    service.flush_marks(std::time::Duration::ZERO).await;
    r
}

/// How long a graceful shutdown waits for the commands in flight.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// SIGTERM (a service manager, a container's stop) or ctrl-c.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "no SIGTERM handler; ctrl-c only");
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = term.recv() => tracing::info!("SIGTERM: shutting down"),
            _ = tokio::signal::ctrl_c() => tracing::info!("ctrl-c: shutting down"),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// A graceful stop: no new commands (each is answered that the bot is
/// restarting), the ones in flight finished (at most [`DRAIN`]); every
/// change is committed with what it owes, so a restart resumes every
/// table and delivers what was not delivered.
async fn graceful<S: doko_bot::Store>(service: &Service<S>) {
    service.close();
    if tokio::time::timeout(DRAIN, service.drain()).await.is_err() {
        tracing::warn!(
            "commands still in flight after {DRAIN:?}; stopping anyway (their changes are committed or not, never half)"
        );
    }
    // what was delivered and waits to be marked (see Service::defer_marks)
    service.flush_marks(std::time::Duration::ZERO).await;
}

/// `doko store inspect`: what was set aside, for the operator.
async fn inspect(cli: &Cli, set: &config::Settings, id: Option<&str>, state: bool) -> anyhow::Result<()> {
    use doko_bot::Store;
    let s = open_store(cli, set).await?;
    let all = s.quarantined().await.context("reading the tables set aside")?;
    let chosen: Vec<_> = all.iter().filter(|q| id.is_none_or(|id| q.id() == id)).collect();
    if let Some(id) = id
        && chosen.is_empty()
    {
        anyhow::bail!("no table set aside as {id} ({} set aside in all)", all.len());
    }
    if id.is_none() {
        println!("{} table(s) set aside", all.len());
    }
    for q in chosen {
        println!("{}  set aside {}", q.id(), utc(q.at_ms));
        println!("  error: {}", q.error);
        if state || id.is_some() {
            println!("  state ({} bytes):", q.state.len());
            if state {
                println!("{}", q.state);
            }
        }
    }
    Ok(())
}

/// `doko export FILE` or `doko import FILE` on the configured store.
async fn transfer_cmd(
    cli: &Cli,
    set: &config::Settings,
    file: &str,
    exporting: bool,
) -> anyhow::Result<transfer::Moved> {
    let s = store(cli, set).await?;
    if exporting {
        if file == "-" {
            return transfer::export(&s, &mut std::io::stdout().lock()).await;
        }
        let tmp = format!("{file}.part");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp).with_context(|| format!("creating {tmp}"))?);
        let moved = transfer::export(&s, &mut out).await?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, file).with_context(|| format!("writing {file}"))?;
        return Ok(moved);
    }
    if file == "-" {
        return transfer::import(&s, &mut std::io::stdin().lock()).await;
    }
    let f = std::fs::File::open(file).with_context(|| format!("reading {file}"))?;
    transfer::import(&s, &mut std::io::BufReader::new(f)).await
}

/// A time in milliseconds since the Unix epoch as an HTTP date
/// (`Wed, 25 Nov 2026 14:22:02 GMT`; `httpdate`, already in the binary
/// through hyper).
fn utc(ms: u64) -> String {
    httpdate::fmt_http_date(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
}

/// The bounds: rate limits for a bot among strangers (none at the
/// terminal, where one person plays), from `$DOKO_RATE_USER` and
/// `$DOKO_RATE_CHANNEL` (`BURST/MILLISECONDS`, or `0` for none), and the
/// records kept per table from `$DOKO_RECORDS_KEPT` (0: all).
fn limits(public: bool, set: &config::Settings) -> anyhow::Result<doko_bot::Limits> {
    let mut l = if public { doko_bot::Limits::public() } else { doko_bot::Limits::default() };
    if let Some(v) = set.get("DOKO_RATE_USER") {
        l.user = doko_bot::Rate::parse(&v).context("DOKO_RATE_USER")?;
    }
    if let Some(v) = set.get("DOKO_RATE_CHANNEL") {
        l.channel = doko_bot::Rate::parse(&v).context("DOKO_RATE_CHANNEL")?;
    }
    if let Some(v) = set.get("DOKO_RECORDS_KEPT") {
        l.records_kept = v.trim().parse().context("DOKO_RECORDS_KEPT: a number (0: all)")?;
    }
    Ok(l)
}

/// The settings for the commands that use them (the file under the
/// environment), or the problem, printed.
fn settings(cli: &Cli) -> Result<config::Settings, ExitCode> {
    let file = config::Settings::find(cli.config.as_deref());
    if let Some(f) = &file
        && !f.is_file()
    {
        eprintln!("doko: the configuration file {} does not exist", f.display());
        return Err(ExitCode::from(2));
    }
    config::Settings::load(file).map_err(|e| {
        eprintln!("doko: {e:#}");
        ExitCode::from(2)
    })
}

/// Threads for blocking work at most (each command's rules and rendering
/// run there): beyond a few per core they only add memory (each keeps its
/// stack and the allocator's arena: with tokio's 512, 10,000 tables
/// opened at once grew the process past 100 MiB), and the embedded
/// store's writes and standard input need only a few.
const BLOCKING_THREADS: usize = 16;

/// The runtime of every async command.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(BLOCKING_THREADS)
        .enable_all()
        .build()
        .expect("tokio runtime")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Cmd::Config { cmd: ConfigCmd::Check { file } }) => {
            let problems = config::check(file);
            for p in &problems {
                eprintln!("{p}");
            }
            if problems.is_empty() {
                println!("{}: good", file.display());
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(Cmd::Replay { file, json }) => replay(file, *json),
        Some(Cmd::Bench { games, seed, no_nines, runs }) => {
            bench::run(*games, *seed, !no_nines, *runs);
            ExitCode::SUCCESS
        }
        Some(Cmd::BenchPictures { runs }) => match bench::pictures(*runs) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("doko: {e:#}");
                ExitCode::FAILURE
            }
        },
        Some(Cmd::BenchTables { tables, actions, durable, rate, runs }) => {
            let rt = runtime();
            let opts = bench::TablesOpts {
                redis: cli.redis.clone(),
                tables: *tables,
                actions: *actions,
                durable: *durable,
                rate: *rate,
            };
            let mut figures = Vec::new();
            for run in 1..=(*runs).max(1) {
                if *runs > 1 {
                    println!("== run {run} of {runs}");
                }
                match rt.block_on(bench::tables(opts.clone())) {
                    Ok(f) => figures.push(f),
                    Err(e) => {
                        eprintln!("doko: {e:#}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            if *runs > 1 {
                print!("{}", bench::tables_summary(&figures));
            }
            ExitCode::SUCCESS
        }
        Some(Cmd::Arena { a, b, deals, seed, budget_ms, worlds, threads, seat_timeout_ms, rules }) => {
            use doko_players::arena;
            let (Some(sa), Some(sb)) = (arena::Side::from_name(a), arena::Side::from_name(b)) else {
                eprintln!("doko: sides are random, basic, strong, expert, uct or cmd:PROGRAM");
                return ExitCode::from(2);
            };
            let cfg = strong_config(*budget_ms, *worlds);
            let value = if rules.trim_start().starts_with('{') {
                match serde_json::from_str(rules) {
                    Ok(v) => v,
                    Err(e) => {
                        eprintln!("doko: --rules: {e}");
                        return ExitCode::from(2);
                    }
                }
            } else {
                serde_json::Value::String(rules.clone())
            };
            let rules = match doko_engine::record::rules_from_json(Some(&value)) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("doko: {e}");
                    return ExitCode::from(2);
                }
            };
            let threads = (*threads).max(1);
            let per = deals.div_ceil(threads);
            let timeout = std::time::Duration::from_millis(*seat_timeout_ms);
            let start = std::time::Instant::now();
            let parts: Vec<Result<arena::ArenaResult, doko_players::seat::SeatError>> = std::thread::scope(|sc| {
                let hs: Vec<_> = (0..threads)
                    .map(|t| {
                        let n = per.min(deals.saturating_sub(t * per));
                        let s = seed.wrapping_add(t as u64 * 0x9E37_79B9);
                        let (rules, sa, sb) = (&rules, &sa, &sb);
                        sc.spawn(move || arena::run_sides(sa, sb, n, s, rules, cfg, timeout))
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().expect("arena thread")).collect()
            });
            let parts: Vec<arena::ArenaResult> = match parts.into_iter().collect() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("doko: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut all = arena::ArenaResult::default();
            for p in parts {
                all.per_deal.extend(p.per_deal);
                all.times[0].extend(p.times[0].iter().copied());
                all.times[1].extend(p.times[1].iter().copied());
                all.illegal += p.illegal;
                all.failures.extend(p.failures);
            }
            for f in &all.failures {
                eprintln!("doko: program {f}");
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
            // the results deal by deal, to compare two runs exactly
            let total: f64 = all.per_deal.iter().map(|x| x * 2.0).sum();
            let digest = all
                .per_deal
                .iter()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, x| (h ^ ((x * 2.0) as i64 as u64)).wrapping_mul(0x0100_0000_01b3));
            println!("points of {a} over all plays: {total:+.0} (deal by deal: {digest:016x})");
            if all.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Some(Cmd::Seat { kind, budget_ms, worlds, strict }) => {
            let Some(level) = doko_players::BotLevel::from_name(kind) else {
                eprintln!("doko: kinds are random, basic, strong, expert, uct");
                return ExitCode::from(2);
            };
            let cfg = strong_config(*budget_ms, *worlds);
            let stdin = std::io::stdin();
            let r = doko_players::seat::serve(
                |seed| doko_players::arena::kind_player(level, seed, cfg),
                &format!("doko-{} {}", level.name(), env!("CARGO_PKG_VERSION")),
                *strict,
                stdin.lock(),
                std::io::stdout().lock(),
                std::io::stderr(),
            );
            match r {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("doko seat: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Cmd::Export { file }) | Some(Cmd::Import { file }) => {
            let set = match settings(&cli) {
                Ok(s) => s,
                Err(code) => return code,
            };
            let exporting = matches!(cli.command, Some(Cmd::Export { .. }));
            let rt = runtime();
            match rt.block_on(transfer_cmd(&cli, &set, file, exporting)) {
                Ok(moved) => {
                    let what = if exporting { "exported" } else { "imported" };
                    eprintln!("doko: {what} {} tables and {} records", moved.tables, moved.records);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("doko: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Cmd::Store { cmd: StoreCmd::Inspect { id, state } }) => {
            let set = match settings(&cli) {
                Ok(s) => s,
                Err(code) => return code,
            };
            let rt = runtime();
            match rt.block_on(inspect(&cli, &set, id.as_deref(), *state)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("doko: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Cmd::Play) | None => {
            use tracing_subscriber::Layer;
            use tracing_subscriber::layer::SubscriberExt;
            use tracing_subscriber::util::SubscriberInitExt;
            let set = match settings(&cli) {
                Ok(s) => s,
                Err(code) => return code,
            };
            let directives = set.get("DOKO_LOG").unwrap_or_default();
            let json = cli.log_json || set.get("DOKO_LOG_FORMAT").as_deref() == Some("json");
            let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
            let layer = if json { layer.json().boxed() } else { layer.boxed() };
            tracing_subscriber::registry().with(layer.with_filter(log_filter(&directives))).init();
            tracing::info!(settings = ?set, "configuration");
            let rt = runtime();
            let r = rt.block_on(play(&cli, &set));
            // a read of standard input may still wait on tokio's blocking
            // pool after a graceful stop: do not wait for it
            rt.shutdown_background();
            match r {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("doko: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// The crates whose DEBUG and TRACE events carry what goes over the wire:
/// request and response bodies, gateway and sync payloads, Redis commands
/// (hands in ephemeral messages, card buttons' ids, tokens in headers and
/// logins). A target is theirs when its first segment is one of these or
/// starts with `matrix_sdk` or `ruma`.
const WIRE_CRATES: &[&str] = &[
    "serenity",
    "matrix_sdk",
    "ruma",
    "hyper",
    "hyper_util",
    "reqwest",
    "h2",
    "tungstenite",
    "tokio_tungstenite",
    "async_tungstenite",
    "redis",
    "rustls",
    "tower",
    "tower_http",
    "eyeball",
];

/// Whether an event of `target` at `level` may be logged at all: at most
/// INFO for [`WIRE_CRATES`], whatever `DOKO_LOG` says.
fn wire_capped(target: &str, level: &tracing::Level) -> bool {
    let krate = target.split("::").next().unwrap_or(target);
    let wire = WIRE_CRATES.contains(&krate) || krate.starts_with("matrix_sdk") || krate.starts_with("ruma");
    wire && *level > tracing::Level::INFO
}

/// The strong player's budget from the command line (`--budget-ms`,
/// `--worlds`).
fn strong_config(budget_ms: u64, worlds: usize) -> doko_players::strong::StrongConfig {
    doko_players::strong::StrongConfig {
        worlds,
        budget: std::time::Duration::from_millis(budget_ms),
        ..Default::default()
    }
}

/// The log filter: the directives of `DOKO_LOG` (as
/// `tracing_subscriber::EnvFilter` reads them; empty: errors only), and
/// always at most INFO from [`WIRE_CRATES`], even where `DOKO_LOG` names
/// them (`DOKO_LOG=serenity=trace` gives serenity's INFO and above): their
/// DEBUG and TRACE would put cards and tokens in the log.
fn log_filter<S>(directives: &str) -> impl tracing_subscriber::layer::Filter<S> + use<S>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    use tracing_subscriber::filter::FilterExt;
    let user = tracing_subscriber::EnvFilter::builder().parse_lossy(quiet_sdk(directives));
    user.and(tracing_subscriber::filter::filter_fn(|meta| !wire_capped(meta.target(), meta.level())))
}

/// `DOKO_LOG`'s directives with the Matrix SDK at sensible levels unless
/// they name it: its WARN and ERROR (at most WARN: its INFO is its own
/// bookkeeping), except targets that log what the SDK or the bot handles
/// itself: `matrix_sdk::http_client` logs every refused request at ERROR
/// (a 404 for the account data it probes, which the bot reports again with
/// its own context where it matters: "sync failed", "sending failed"),
/// `matrix_sdk::sync` an event for a room it has not stored (one the bot
/// left), and `matrix_sdk_base::room::room_info` warns when a room's
/// version is not known yet (an invitation before its create event; it
/// goes on with the current rules) - ERROR only there.
/// `DOKO_LOG=matrix_sdk=debug` (or any directive naming `matrix_sdk`) sets
/// them as it says. Empty: errors only, as before.
fn quiet_sdk(directives: &str) -> String {
    let d = directives.trim();
    if d.contains("matrix_sdk") {
        return d.to_string();
    }
    // a directive's target matches every target it begins: matrix_sdk_base,
    // matrix_sdk_crypto, ... too
    let (d, sdk) = match d {
        "" | "error" => ("error", "error"),
        _ => (d, "warn"),
    };
    format!(
        "{d},matrix_sdk={sdk},matrix_sdk::http_client=off,matrix_sdk::sync=off,matrix_sdk_base::room::room_info=error"
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What reaches the log under `directives` from one event at each
    /// level of each target: `target LEVEL` lines.
    fn logged(directives: &str) -> Vec<String> {
        let buf = Captured::default();
        let w = buf.clone();
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .without_time()
            .with_target(false)
            .with_level(false)
            .with_writer(move || w.clone())
            .with_filter(log_filter(directives));
        tracing::subscriber::with_default(tracing_subscriber::registry().with(layer), || {
            macro_rules! each_level {
                ($t:literal) => {
                    tracing::trace!(target: $t, "{} TRACE", $t);
                    tracing::debug!(target: $t, "{} DEBUG", $t);
                    tracing::info!(target: $t, "{} INFO", $t);
                    tracing::warn!(target: $t, "{} WARN", $t);
                };
            }
            each_level!("doko_bot::service");
            each_level!("serenity::http::client");
            each_level!("serenity");
            each_level!("matrix_sdk_crypto::machine");
            each_level!("matrix_sdk::http_client");
            each_level!("matrix_sdk::sync");
            each_level!("matrix_sdk_base::room::room_info");
            each_level!("hyper_util::client");
            each_level!("redis::aio");
            each_level!("h2::codec");
            each_level!("tungstenite::protocol");
            each_level!("reqwest::connect");
            each_level!("serenity_like_but_not");
        });
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text.lines().map(|l| l.trim().to_string()).collect()
    }

    #[test]
    fn times_read_as_utc() {
        assert_eq!(utc(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(utc(951_782_400_000), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(utc(1_795_616_522_999), "Wed, 25 Nov 2026 14:22:02 GMT");
    }

    #[test]
    fn wire_crates_log_at_most_info_whatever_doko_log_says() {
        let wire = [
            "serenity::http::client",
            "serenity",
            "matrix_sdk_crypto::machine",
            "hyper_util::client",
            "redis::aio",
            "h2::codec",
            "tungstenite::protocol",
            "reqwest::connect",
        ];
        for directives in [
            "trace",
            "debug",
            "trace,serenity=trace",
            "serenity::http=trace,matrix_sdk_crypto=trace,hyper_util=trace,redis=trace,h2=trace",
            "info,tungstenite::protocol=trace,reqwest[connect]=trace,[{x}]=trace",
        ] {
            let lines = logged(directives);
            for t in wire {
                assert!(
                    !lines.iter().any(|l| l == &format!("{t} DEBUG") || l == &format!("{t} TRACE")),
                    "{directives}: {t}: {lines:?}"
                );
            }
            // their INFO and WARN still come through where asked for
            assert!(lines.contains(&"serenity::http::client INFO".to_string()), "{directives}: {lines:?}");
            assert!(lines.contains(&"redis::aio WARN".to_string()), "{directives}: {lines:?}");
        }
        // everything else as DOKO_LOG says
        let lines = logged("trace");
        assert!(lines.contains(&"doko_bot::service TRACE".to_string()), "{lines:?}");
        assert!(lines.contains(&"serenity_like_but_not TRACE".to_string()), "{lines:?}");
        let lines = logged("doko_bot=debug");
        assert!(lines.contains(&"doko_bot::service DEBUG".to_string()), "{lines:?}");
        assert!(!lines.contains(&"doko_bot::service TRACE".to_string()), "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("serenity")), "{lines:?}");
        // unset: errors only, as before
        assert!(logged("").is_empty());
        // the Matrix SDK at most at WARN where DOKO_LOG does not name it,
        // and nothing from its request and sync targets
        assert!(!logged("").iter().any(|l| l.starts_with("matrix_sdk")), "{:?}", logged(""));
        for d in ["info", "trace", "warn,doko_bot=debug"] {
            let lines = logged(d);
            assert!(lines.contains(&"matrix_sdk_crypto::machine WARN".to_string()), "{d}: {lines:?}");
            assert!(!lines.contains(&"matrix_sdk_crypto::machine INFO".to_string()), "{d}: {lines:?}");
            assert!(
                !lines.iter().any(|l| l.starts_with("matrix_sdk::http_client")
                    || l.starts_with("matrix_sdk::sync")
                    || l.starts_with("matrix_sdk_base::room::room_info")),
                "{d}: {lines:?}"
            );
        }
        let lines = logged("info,matrix_sdk_crypto=info");
        assert!(lines.contains(&"matrix_sdk_crypto::machine INFO".to_string()), "{lines:?}");
        assert!(!lines.contains(&"matrix_sdk_crypto::machine DEBUG".to_string()), "{lines:?}");
    }
}
