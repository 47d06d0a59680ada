//! `doko play` (the default): the service built from the settings, with its
//! metrics and its store's health watched, served to Discord and Matrix
//! when they are configured, else to a table in this terminal.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use doko_bot::{AnyStore, Platform, Service};
use doko_discord::run::DiscordConfig;
use doko_matrix::MatrixConfig;

use crate::args::Cli;
use crate::{config, observe, shutdown, stores, terminal};

/// The service this process runs, shared by its front ends.
type Served = Arc<Service<AnyStore>>;

/// Serves the configured front ends (Discord, Matrix) until one ends or
/// the process is told to stop; with none configured, a table in this
/// terminal.
pub async fn play(cli: &Cli, set: &config::Settings) -> anyhow::Result<()> {
    let budget =
        cli.table.bot_budget_ms.or_else(|| set.get("DOKO_BOT_BUDGET_MS").and_then(|v| v.parse().ok())).unwrap_or(60);
    let strong = doko_players::strong::StrongConfig { budget: Duration::from_millis(budget), ..Default::default() };
    if set.get("DOKO_WEB_URL").is_some() && set.get("DOKO_METRICS_LISTEN").is_none() {
        anyhow::bail!("web.url is set, but no metrics.listen to serve the pages on: set both, or neither");
    }
    let var = |k: &str| set.get(k);
    let discord = DiscordConfig::from_vars(&var)?;
    let matrix = MatrixConfig::from_vars(&var, stores::data_dir(cli, set).join("matrix"))?;
    let prefix = matrix.as_ref().map_or("!doko", |m| m.prefix.as_str());
    let service = service(cli, set, strong, discord.is_some() || matrix.is_some())
        .await?
        .speaking(Platform::DISCORD, &doko_discord::DIALECT)
        .speaking(Platform::MATRIX, doko_matrix::dialect(prefix));
    let service = Arc::new(service);
    // a delivered entry's mark rides on its table's next commit
    service.defer_marks();
    if let Some(listen) = set.get("DOKO_METRICS_LISTEN") {
        serve_metrics(&listen, &service, set).await?;
    }
    watch_store_health(&service);
    if discord.is_some() || matrix.is_some() {
        return serve_platforms(&service, discord, matrix).await;
    }
    terminal::play(cli, set, &service).await
}

/// The service on the configured store, with the durable outbox: the
/// computer players' budget, the bounds (`public`: for a bot among
/// strangers, see [`limits`]), and new tables' rules and language from the
/// settings.
async fn service(
    cli: &Cli,
    set: &config::Settings,
    strong: doko_players::strong::StrongConfig,
    public: bool,
) -> anyhow::Result<Service<AnyStore>> {
    let limits = limits(public, set)?;
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
    let service = Service::new(stores::store(cli, set).await?, entropy())
        .with_strong(strong)
        .with_limits(limits)
        .with_new_tables(rules, lang)
        .with_durable_outbox();
    Ok(match set.get("DOKO_WEB_URL") {
        Some(url) => service.with_web(&url),
        None => service,
    })
}

/// `/metrics`, `/healthz` and `/readyz` served on `listen`, and the
/// tables' web pages where `[web] url` is set.
async fn serve_metrics(listen: &str, service: &Served, set: &config::Settings) -> anyhow::Result<()> {
    let handle = observe::install()?;
    let listener =
        tokio::net::TcpListener::bind(listen).await.with_context(|| format!("listening on {listen} for metrics"))?;
    let health = service.clone();
    let web = match set.get("DOKO_WEB_URL") {
        Some(_) => {
            let rate = match set.get("DOKO_WEB_RATE") {
                Some(v) => doko_bot::Rate::parse(&v).context("DOKO_WEB_RATE")?,
                None => Some(WEB_RATE),
            };
            Some(Arc::new(observe::Web::new(service.clone(), rate)))
        }
        None => None,
    };
    let router = observe::router(handle, Arc::new(move || health.store_health().up), web);
    tokio::spawn(observe::serve(listener, router));
    Ok(())
}

/// Web page requests per client by default: 60 at once, then one a second.
const WEB_RATE: doko_bot::Rate = doko_bot::Rate { burst: 60, every_ms: 1000 };

/// The store's health, checked every 5 s also when nobody plays (logged
/// when it changes).
fn watch_store_health(service: &Served) {
    let health = service.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            health.check_store().await;
        }
    });
}

/// Serves Discord and Matrix (those configured) until the first of them
/// ends, which ends the process; SIGTERM or ctrl-c ends it gracefully.
async fn serve_platforms(
    service: &Served,
    discord: Option<DiscordConfig>,
    matrix: Option<MatrixConfig>,
) -> anyhow::Result<()> {
    let app: Arc<dyn doko_bot::App> = service.clone();
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
    tokio::select! {
        done = platforms.join_next() => {
            if let Some(done) = done {
                done.context("platform task")??;
            }
        }
        _ = shutdown::signal() => {
            shutdown::graceful(service).await;
            // the front ends close their connections; what does not end
            // within a few seconds is dropped
            let _ = stop_tx.send(true);
            close_platforms(platforms).await;
            tracing::info!("stopped");
        }
    }
    Ok(())
}

/// Waits a few seconds for the front ends to close, then drops the rest.
async fn close_platforms(mut platforms: tokio::task::JoinSet<anyhow::Result<()>>) {
    let closed =
        tokio::time::timeout(Duration::from_secs(5), async { while platforms.join_next().await.is_some() {} }).await;
    if closed.is_err() {
        tracing::warn!("a front end did not close within 5 s; dropping it");
    }
    platforms.shutdown().await;
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

/// A seed for the service's random numbers: the clock mixed with the
/// process's random hasher keys.
fn entropy() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish()
}
