//! The table in this terminal: you and three computer players, on the
//! service the process runs, until standard input ends or the process is
//! told to stop.

use std::sync::Arc;

use doko_bot::{AnyStore, Service};

use crate::args::Cli;
use crate::{config, shutdown};

/// Plays at a table in this terminal under your name (`--name`,
/// `DOKO_NAME`, else your login name); a stop finishes the command in
/// flight and keeps the table.
pub async fn play(cli: &Cli, set: &config::Settings, service: &Arc<Service<AnyStore>>) -> anyhow::Result<()> {
    let app: Arc<dyn doko_bot::App> = service.clone();
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let name = cli.table.name.clone().or_else(|| set.get("DOKO_NAME")).unwrap_or_else(login_name);
    let term = doko_terminal::run(&*app, stdin, tokio::io::stdout(), &name);
    tokio::pin!(term);
    let r = tokio::select! {
        r = &mut term => r,
        _ = shutdown::signal() => {
            // the command in flight is finished and its answer printed;
            // the line being typed is not read
            service.close();
            tokio::select! {
                _ = &mut term => {}
                _ = async {
                    let _ = tokio::time::timeout(shutdown::DRAIN, service.drain()).await;
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

/// The login name, capitalised (`anna` → `Anna`), else `Player`.
fn login_name() -> String {
    let user = std::env::var("USER").or_else(|_| std::env::var("USERNAME")).unwrap_or_default();
    let mut chars = user.trim().chars();
    match chars.next() {
        Some(c) if c.is_alphanumeric() => c.to_uppercase().chain(chars).collect(),
        _ => "Player".to_string(),
    }
}
