//! The configured store: Redis when a URL is given, else the embedded
//! file in the data directory, its format checked before it is served.

use std::path::PathBuf;

use anyhow::Context;
use doko_bot::{AnyStore, EmbeddedStore, RedisStore};

use crate::args::Cli;
use crate::config;

/// The data directory: `--data`, `store.data` ($DOKO_DATA), else
/// ~/.local/share/doko.
pub fn data_dir(cli: &Cli, set: &config::Settings) -> PathBuf {
    cli.store
        .data
        .clone()
        .or_else(|| set.get("DOKO_DATA").map(PathBuf::from))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/doko")))
        .unwrap_or_else(|| PathBuf::from(".doko"))
}

/// The store, its format checked ([`doko_bot::check_format`]): a store
/// written by a newer doko is refused before anything is served.
pub async fn store(cli: &Cli, set: &config::Settings) -> anyhow::Result<AnyStore> {
    let s = open_store(cli, set).await?;
    doko_bot::check_format(&s).await.context("checking the store's format")?;
    Ok(s)
}

/// The store as configured, its format not checked (`doko store inspect`
/// reads a store of any format).
pub async fn open_store(cli: &Cli, set: &config::Settings) -> anyhow::Result<AnyStore> {
    let redis = cli.store.redis.clone().or_else(|| set.get("DOKO_REDIS_URL")).filter(|s| !s.is_empty());
    if let Some(url) = redis {
        // tables with a session in progress or statistics never expire;
        // others (people who joined and never played) after 90 days
        let wait = match set.get("DOKO_REDIS_REPLICA_WAIT_MS") {
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|ms| *ms <= doko_bot::REPLICA_WAIT_MAX_MS)
                .context("DOKO_REDIS_REPLICA_WAIT_MS: milliseconds, 0 to 2000 (0: no wait)")?,
            None => 0,
        };
        let s = RedisStore::connect(&url, 90 * 24 * 3600)
            .await
            .with_context(|| "connecting to Redis")?
            .with_replica_wait(wait);
        for w in s.check_settings().await {
            eprintln!("doko: warning: {w}");
        }
        return Ok(AnyStore::Redis(s));
    }
    let path = data_dir(cli, set).join("doko.redb");
    let s = EmbeddedStore::open(&path).with_context(|| format!("opening {}", path.display()))?;
    Ok(AnyStore::Embedded(s))
}
