//! The `doko` binary. With no platform configured it opens a table in the
//! terminal (you and three computer players, on the embedded store);
//! `doko replay` checks and scores a game record; `doko bench` measures
//! the engine. This file reads the command line and hands each subcommand
//! to its module.

// matrix-sdk's futures are deep: proving them Send needs a higher limit
#![recursion_limit = "256"]

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Cmd, ConfigCmd, StoreCmd};

mod arena;
mod args;
mod bench;
mod config;
mod inspect;
#[path = "../../tests/local_redis.rs"]
mod local_redis;
mod logging;
mod observe;
mod replay;
mod seat;
mod serve;
mod shutdown;
mod stores;
mod terminal;
mod transfer;

/// The process's allocator (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse().resolved();
    match &cli.command {
        Some(Cmd::Config { cmd: ConfigCmd::Check { file } }) => config_check(file),
        Some(Cmd::Replay { file, json }) => replay::replay(file, *json),
        Some(Cmd::Bench { games, seed, no_nines, runs }) => {
            bench::run(*games, *seed, !no_nines, *runs);
            ExitCode::SUCCESS
        }
        Some(Cmd::BenchPictures { runs }) => match bench::pictures(*runs) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => failed(&e),
        },
        Some(Cmd::BenchPages { runs }) => match bench::pages(*runs) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => failed(&e),
        },
        Some(Cmd::BenchTables { redis, tables, actions, no_durable, rate, runs }) => {
            let opts = bench::TablesOpts {
                redis: redis.clone(),
                tables: *tables,
                actions: *actions,
                durable: !*no_durable,
                rate: *rate,
            };
            bench_tables(&opts, *runs)
        }
        Some(Cmd::Arena { a, b, deals, seed, budget_ms, a_budget_ms, worlds, threads, seat_timeout_ms, rules }) => {
            arena::run(&arena::Match {
                a,
                b,
                deals: *deals,
                seed: *seed,
                budget_ms: *budget_ms,
                a_budget_ms: *a_budget_ms,
                worlds: *worlds,
                threads: *threads,
                seat_timeout_ms: *seat_timeout_ms,
                rules,
            })
        }
        Some(Cmd::Seat { kind, budget_ms, worlds, strict }) => seat::run(kind, *budget_ms, *worlds, *strict),
        Some(Cmd::Export { file, .. }) => transfer(&cli, file, true),
        Some(Cmd::Import { file, .. }) => transfer(&cli, file, false),
        Some(Cmd::Store { cmd: StoreCmd::Inspect { id, state, .. } }) => store_inspect(&cli, id.as_deref(), *state),
        Some(Cmd::Play { .. }) | None => play(&cli),
    }
}

/// `doko config check FILE`: each problem printed, or that the file is
/// good.
fn config_check(file: &Path) -> ExitCode {
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

/// `doko bench-tables`: the measurement `runs` times, then, with more than
/// one, the summary of them all.
fn bench_tables(opts: &bench::TablesOpts, runs: usize) -> ExitCode {
    let rt = runtime();
    let mut figures = Vec::new();
    for run in 1..=runs.max(1) {
        if runs > 1 {
            println!("== run {run} of {runs}");
        }
        match rt.block_on(bench::tables(opts.clone())) {
            Ok(f) => figures.push(f),
            Err(e) => return failed(&e),
        }
    }
    if runs > 1 {
        print!("{}", bench::tables_summary(&figures));
    }
    ExitCode::SUCCESS
}

/// `doko export FILE` (`exporting`) or `doko import FILE`, and what was
/// moved.
fn transfer(cli: &Cli, file: &str, exporting: bool) -> ExitCode {
    let set = match settings(cli) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let rt = runtime();
    match rt.block_on(transfer::command(cli, &set, file, exporting)) {
        Ok(moved) => {
            let what = if exporting { "exported" } else { "imported" };
            eprintln!("doko: {what} {} tables and {} records", moved.tables, moved.records);
            ExitCode::SUCCESS
        }
        Err(e) => failed(&e),
    }
}

/// `doko store inspect [ID] [--state]`.
fn store_inspect(cli: &Cli, id: Option<&str>, state: bool) -> ExitCode {
    let set = match settings(cli) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let rt = runtime();
    match rt.block_on(inspect::inspect(cli, &set, id, state)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => failed(&e),
    }
}

/// `doko play` (the default), with the log started.
fn play(cli: &Cli) -> ExitCode {
    let set = match settings(cli) {
        Ok(s) => s,
        Err(code) => return code,
    };
    logging::init(cli.log_json, &set);
    let rt = runtime();
    let r = rt.block_on(serve::play(cli, &set));
    // a read of standard input may still wait on tokio's blocking
    // pool after a graceful stop: do not wait for it
    rt.shutdown_background();
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => failed(&e),
    }
}

/// A command's error printed with its causes (`doko: ...`); exit status 1.
fn failed(e: &anyhow::Error) -> ExitCode {
    eprintln!("doko: {e:#}");
    ExitCode::FAILURE
}

/// The settings for the commands that use them (the file under the
/// environment), or the problem, printed.
fn settings(cli: &Cli) -> Result<config::Settings, ExitCode> {
    let file = config::Settings::find(cli.store.config.as_deref());
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
