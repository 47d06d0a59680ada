//! The command line: the global options and the subcommands as clap reads
//! them (their doc comments are the help text).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Doppelkopf for group play.
#[derive(Parser)]
#[command(name = "doko", version, about)]
pub struct Cli {
    /// The configuration file (default: $DOKO_CONFIG, else the first of
    /// ./doko.toml, ~/.config/doko/doko.toml, /etc/doko/doko.toml that
    /// exists); each setting's DOKO_ variable wins over it, a flag over
    /// both (config/doko.example.toml documents every key).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Logs as JSON lines instead of text (default: $DOKO_LOG_FORMAT, or
    /// the file's log.format).
    #[arg(long, global = true)]
    pub log_json: bool,
    /// Where the embedded store keeps its file (default: $DOKO_DATA, else
    /// ~/.local/share/doko).
    #[arg(long, global = true)]
    pub data: Option<PathBuf>,
    /// A Redis URL: store tables there instead of the embedded store
    /// (default: $DOKO_REDIS_URL); `redis://host:port/` for one server,
    /// `redis+cluster://host:port,host:port` for a Redis Cluster.
    #[arg(long, global = true)]
    pub redis: Option<String>,
    /// Your name at the terminal table (default: your login name, else
    /// Player). The table's events name you like everyone else ("Anna
    /// plays ♣Q"), so a name reads better there than "You".
    #[arg(long, global = true)]
    pub name: Option<String>,
    /// Time the searching computer players (strong, expert, uct) may think
    /// per decision, in ms (default: $DOKO_BOT_BUDGET_MS, else 60).
    #[arg(long, global = true)]
    pub bot_budget_ms: Option<u64>,
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

/// The subcommands; none plays at the terminal.
#[derive(Subcommand)]
pub enum Cmd {
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

/// What `doko config` does.
#[derive(Subcommand)]
pub enum ConfigCmd {
    /// Check a configuration file: every key known, every value of the
    /// form it takes, the front ends' settings complete. Prints each
    /// problem with its line and what is allowed (never a secret); exit
    /// status 1 when there is one.
    Check {
        /// The file.
        file: PathBuf,
    },
}

/// What `doko store` does.
#[derive(Subcommand)]
pub enum StoreCmd {
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
