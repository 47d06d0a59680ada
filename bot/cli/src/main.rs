//! The `doko` binary: `doko replay` checks and scores a game record;
//! `doko bench` measures the engine.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

mod bench;

/// Doppelkopf for group play.
#[derive(Parser)]
#[command(name = "doko", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Replay { file, json }) => {
            let text = match read_input(&file) {
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
        Some(Command::Bench { games, seed, no_nines }) => {
            bench::run(games, seed, !no_nines);
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("doko: the table service is not built yet; try `doko replay FILE` or `doko bench`");
            ExitCode::from(2)
        }
    }
}
