//! The sync loop: one long poll after the other, backing off on errors,
//! until the adapter is told to stop.

use std::time::Duration;

use matrix_sdk::Client;
use matrix_sdk::config::SyncSettings;

use crate::verification::Secured;

/// Syncs until `stop` says true: then the long poll in flight is dropped
/// (what was received is handled and stored).
///
/// One long poll follows the other with no pause between them: the SDK's
/// own `sync` loop sleeps a second before a /sync that follows the last
/// one within a second, which in a busy room (the bot's own messages end
/// each long poll early) delays nearly every command; back off only on
/// errors.
pub async fn sync_until(client: &Client, secured: &mut Secured, mut stop: tokio::sync::watch::Receiver<bool>) {
    let settings = SyncSettings::default().timeout(Duration::from_secs(30));
    let mut backoff = Duration::from_secs(1);
    loop {
        let synced = tokio::select! {
            r = client.sync_once(settings.clone()) => r,
            _ = doko_bot::stopped(&mut stop) => {
                tracing::info!("the Matrix sync stops");
                doko_bot::metrics::set_adapter("matrix", false);
                return;
            }
        };
        match synced {
            Ok(_) => {
                backoff = Duration::from_secs(1);
                doko_bot::metrics::set_adapter("matrix", true);
                secured.after_sync(client).await;
            }
            Err(e) => {
                doko_bot::metrics::set_adapter("matrix", false);
                tracing::warn!(error = %e, "sync failed; retrying in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}
