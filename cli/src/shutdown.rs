//! A graceful stop: SIGTERM or ctrl-c, then no new commands, the ones in
//! flight finished and everything owed committed, so a restart resumes.

use doko_bot::Service;

/// How long a graceful shutdown waits for the commands in flight.
pub const DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// SIGTERM (a service manager, a container's stop) or ctrl-c.
pub async fn signal() {
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
pub async fn graceful<S: doko_bot::Store>(service: &Service<S>) {
    service.close();
    if tokio::time::timeout(DRAIN, service.drain()).await.is_err() {
        tracing::warn!(
            "commands still in flight after {DRAIN:?}; stopping anyway (their changes are committed or not, never half)"
        );
    }
    // what was delivered and waits to be marked (see Service::defer_marks)
    service.flush_marks(std::time::Duration::ZERO).await;
}
