//! `doko seat`: one seat for a table manager through the seat protocol on
//! standard input and output, played by one of doko's computer players.

use std::process::ExitCode;

use crate::arena::strong_config;

/// Plays the seat as `kind` until the manager ends; with `strict`, an
/// error when the events and the view disagree.
pub fn run(kind: &str, budget_ms: u64, worlds: usize, strict: bool) -> ExitCode {
    let Some(level) = doko_players::BotLevel::from_name(kind) else {
        eprintln!("doko: kinds are random, basic, strong, expert, uct");
        return ExitCode::from(2);
    };
    let cfg = strong_config(budget_ms, worlds);
    let stdin = std::io::stdin();
    let r = doko_players::seat::serve(
        |seed| doko_players::arena::kind_player(level, seed, cfg),
        &format!("doko-{} {}", level.name(), env!("CARGO_PKG_VERSION")),
        strict,
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
