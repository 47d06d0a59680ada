//! The command line: the global options and the subcommands as clap reads
//! them (their doc comments are the help text).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Doppelkopf for group play. Without a command: the bot, on the
/// front ends the configuration names, or, with none, a table in this
/// terminal with three computer players.
#[derive(Parser)]
#[command(name = "doko", version, about)]
pub struct Cli {
    /// Where the tables are kept, and the configuration.
    #[command(flatten)]
    pub store: StoreOpts,
    /// Logs as JSON lines instead of text (default: $DOKO_LOG_FORMAT, or
    /// the file's log.format).
    #[arg(long)]
    pub log_json: bool,
    /// The terminal table.
    #[command(flatten)]
    pub table: TableOpts,
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

/// The options of the commands that use the configuration and the store.
#[derive(Args, Clone, Default)]
pub struct StoreOpts {
    /// The configuration file (default: $DOKO_CONFIG, else the first of
    /// ./doko.toml, ~/.config/doko/doko.toml, /etc/doko/doko.toml that
    /// exists); each setting's DOKO_ variable wins over it, a flag over
    /// both (config/doko.example.toml documents every key).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Where the embedded store keeps its file (default: $DOKO_DATA, else
    /// ~/.local/share/doko).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// A Redis URL: store tables there instead of the embedded store
    /// (default: $DOKO_REDIS_URL); `redis://host:port/` for one server,
    /// `redis+cluster://host:port,host:port` for a Redis Cluster.
    #[arg(long)]
    pub redis: Option<String>,
}

impl StoreOpts {
    /// These options, each given here or else in `outer` (the options
    /// written before the command's name).
    fn or(self, outer: &StoreOpts) -> StoreOpts {
        StoreOpts {
            config: self.config.or_else(|| outer.config.clone()),
            data: self.data.or_else(|| outer.data.clone()),
            redis: self.redis.or_else(|| outer.redis.clone()),
        }
    }
}

/// The options of the terminal table.
#[derive(Args, Clone, Default)]
pub struct TableOpts {
    /// Your name at the terminal table (default: your login name, else
    /// Player). The table's events name you like everyone else ("Anna
    /// plays ♣Q"), so a name reads better there than "You".
    #[arg(long)]
    pub name: Option<String>,
    /// Time the searching computer players (strong, expert, uct) may think
    /// per decision, in ms (default: $DOKO_BOT_BUDGET_MS, else 60).
    #[arg(long)]
    pub bot_budget_ms: Option<u64>,
}

impl Cli {
    /// The command line with a command's own options in the places the
    /// program reads (`doko play --name Anna` as `doko --name Anna`); an
    /// option given before the command's name counts too.
    pub fn resolved(mut self) -> Cli {
        match &mut self.command {
            Some(Cmd::Play { store, log_json, table }) => {
                self.store = std::mem::take(store).or(&self.store);
                self.log_json |= *log_json;
                self.table.name = table.name.take().or(self.table.name);
                self.table.bot_budget_ms = table.bot_budget_ms.or(self.table.bot_budget_ms);
            }
            Some(Cmd::Export { store, .. } | Cmd::Import { store, .. }) => {
                self.store = std::mem::take(store).or(&self.store);
            }
            Some(Cmd::Store { cmd: StoreCmd::Inspect { store, .. } }) => {
                self.store = std::mem::take(store).or(&self.store);
            }
            _ => {}
        }
        self
    }
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
        /// A Redis to measure on (`redis://host:port/`; its data is
        /// changed) instead of a redis-server of its own.
        #[arg(long)]
        redis: Option<String>,
        /// Concurrent tables.
        #[arg(long, default_value_t = 1000)]
        tables: usize,
        /// Actions per table.
        #[arg(long, default_value_t = 52)]
        actions: usize,
        /// Without the durable outbox: what each action owes is not stored
        /// with it nor marked delivered afterwards. The bot never runs so;
        /// by default the measurement runs as the bot does.
        #[arg(long)]
        no_durable: bool,
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
    /// Measure the web pages: a 24-deal list's page and a deal's page
    /// served over loopback HTTP (median and p99 time, size).
    BenchPages {
        /// Requests for each page.
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
        /// Side A's time per decision in milliseconds, where it differs
        /// from --budget-ms (to match a side's time against the other's).
        #[arg(long)]
        a_budget_ms: Option<u64>,
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
    Play {
        #[command(flatten)]
        store: StoreOpts,
        /// Logs as JSON lines instead of text (default: $DOKO_LOG_FORMAT,
        /// or the file's log.format).
        #[arg(long)]
        log_json: bool,
        #[command(flatten)]
        table: TableOpts,
    },
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
        #[command(flatten)]
        store: StoreOpts,
    },
    /// Read a file written by `doko export` into the store (the embedded
    /// file, or Redis with --redis): every table with its records under
    /// their numbers. The store must hold none of its tables yet.
    Import {
        /// The file to read, or `-` for standard input.
        file: String,
        #[command(flatten)]
        store: StoreOpts,
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
        #[command(flatten)]
        store: StoreOpts,
    },
}
