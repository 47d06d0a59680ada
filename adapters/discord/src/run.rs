//! Running the adapter against Discord: the gateway (serenity's client with
//! minimal intents; interactions need none), command registration per guild
//! (development) or globally (production), the turn-timer tick, and the
//! token from the environment or a file (never logged).

pub use crate::shards::Shards;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use doko_bot::App;
use serenity::all::{
    Client, ClientBuilder, Command as DiscordCommand, Context, EventHandler, GatewayIntents, Guild, GuildId,
    HttpBuilder, Interaction, Ready,
};
use serenity::async_trait;

use crate::handler::Adapter;

/// Discord settings.
#[derive(Clone, Default)]
pub struct DiscordConfig {
    /// The bot token (from `DOKO_DISCORD_TOKEN` or the file in
    /// `DOKO_DISCORD_TOKEN_FILE`).
    pub token: String,
    /// Register the commands in this guild only (development; instant)
    /// instead of globally (production; may take up to an hour).
    pub dev_guild: Option<u64>,
    /// Mention the person to act in a short message.
    pub mention: bool,
    /// The REST API's origin instead of Discord's (a REST proxy such as
    /// nirn-proxy, or a test's fake Discord): `DOKO_DISCORD_API_URL`. The
    /// gateway's address is then asked of it; when it cannot say, the bot
    /// refuses to start rather than take the token to Discord itself.
    pub api_url: Option<String>,
    /// Serve Discord's interactions endpoint on this address instead of
    /// taking interactions from the gateway (`DOKO_DISCORD_INTERACTIONS`,
    /// e.g. `0.0.0.0:8080`); needs the application's public key.
    pub endpoint: Option<std::net::SocketAddr>,
    /// The application's public key, 64 hex digits
    /// (`DOKO_DISCORD_PUBLIC_KEY`).
    pub public_key: Option<String>,
    /// The gateway shards this process runs (`DOKO_DISCORD_SHARDS`, e.g.
    /// `0-3/8`); all of them (as Discord recommends) when unset.
    pub shards: Option<Shards>,
}

/// The token is never printed.
impl std::fmt::Debug for DiscordConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordConfig")
            .field("token", &"(hidden)")
            .field("dev_guild", &self.dev_guild)
            .field("mention", &self.mention)
            .field("api_url", &self.api_url)
            .field("endpoint", &self.endpoint)
            .field("public_key", &self.public_key)
            .field("shards", &self.shards)
            .finish()
    }
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Neither the variable nor the file is set.
    #[error("set DOKO_DISCORD_TOKEN or DOKO_DISCORD_TOKEN_FILE")]
    NoToken,
    /// The token file could not be read.
    #[error("reading the token file {0}: {1}")]
    TokenFile(PathBuf, std::io::Error),
    /// A bad guild id.
    #[error("DOKO_DISCORD_GUILD must be a number")]
    BadGuild,
    /// A bad endpoint address, or no public key for it.
    #[error(
        "DOKO_DISCORD_INTERACTIONS must be an address such as 0.0.0.0:8080, and DOKO_DISCORD_PUBLIC_KEY must be set with it"
    )]
    BadEndpoint,
    /// A bad shard range.
    #[error("DOKO_DISCORD_SHARDS must be a shard range such as 0-3/8 or 2/8 (first-last/total)")]
    BadShards,
    /// A bad API URL.
    #[error("DOKO_DISCORD_API_URL must be an http(s) origin such as http://127.0.0.1:8080, not {0:?}")]
    BadApiUrl(String),
}

impl DiscordConfig {
    /// Reads the configuration from the environment; `None` when Discord is
    /// not configured at all.
    pub fn from_env() -> Result<Option<DiscordConfig>, ConfigError> {
        Self::from_vars(&|k| std::env::var(k).ok())
    }

    /// As [`DiscordConfig::from_env`], reading the variables through `env`
    /// (the binary's configuration: its file under the environment).
    pub fn from_vars(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<DiscordConfig>, ConfigError> {
        let token = match (env("DOKO_DISCORD_TOKEN"), env("DOKO_DISCORD_TOKEN_FILE").filter(|f| !f.is_empty())) {
            (Some(t), _) if !t.trim().is_empty() => t.trim().to_string(),
            (_, Some(f)) => {
                let p = PathBuf::from(f);
                std::fs::read_to_string(&p).map_err(|e| ConfigError::TokenFile(p, e))?.trim().to_string()
            }
            _ => return Ok(None),
        };
        if token.is_empty() {
            return Err(ConfigError::NoToken);
        }
        let dev_guild = match env("DOKO_DISCORD_GUILD") {
            Some(g) if !g.is_empty() => Some(g.trim().parse().map_err(|_| ConfigError::BadGuild)?),
            _ => None,
        };
        let mention = env("DOKO_DISCORD_MENTION").is_none_or(|v| v != "0" && v != "false");
        let api_url = match env("DOKO_DISCORD_API_URL") {
            Some(u) if !u.trim().is_empty() => Some(api_origin(u.trim())?),
            _ => None,
        };
        let endpoint = match env("DOKO_DISCORD_INTERACTIONS") {
            Some(a) if !a.trim().is_empty() => Some(a.trim().parse().map_err(|_| ConfigError::BadEndpoint)?),
            _ => None,
        };
        let public_key = env("DOKO_DISCORD_PUBLIC_KEY").filter(|k| !k.trim().is_empty());
        if endpoint.is_some() && public_key.is_none() {
            return Err(ConfigError::BadEndpoint);
        }
        let shards = match env("DOKO_DISCORD_SHARDS") {
            Some(s) if !s.trim().is_empty() => Some(Shards::parse(&s).ok_or(ConfigError::BadShards)?),
            _ => None,
        };
        Ok(Some(DiscordConfig { token, dev_guild, mention, api_url, endpoint, public_key, shards }))
    }
}

struct Events {
    app: Arc<dyn App>,
    config: DiscordConfig,
    /// One adapter for the process (it keeps the table messages and the
    /// tables served), made with the client's HTTP handle.
    adapter: std::sync::OnceLock<Arc<Adapter>>,
    ticking: std::sync::atomic::AtomicBool,
    /// What commands on other platforms owe this platform's channels,
    /// taken at the start (kept in order until the gateway is ready).
    relayed: std::sync::Mutex<Option<Relayed>>,
}

/// What commands on other platforms owe this platform's channels.
type Relayed = tokio::sync::mpsc::UnboundedReceiver<doko_bot::Outbox>;

impl Events {
    fn adapter(&self, ctx: &Context) -> Arc<Adapter> {
        self.adapter
            .get_or_init(|| {
                Arc::new(
                    Adapter::new(self.app.clone(), ctx.http.clone(), self.config.mention).shards(self.config.shards),
                )
            })
            .clone()
    }
}

#[async_trait]
impl EventHandler for Events {
    /// The gateway connection's state, for the health endpoint.
    async fn shard_stage_update(&self, _ctx: Context, event: serenity::all::ShardStageUpdateEvent) {
        let up = matches!(event.new, serenity::all::ConnectionStage::Connected);
        doko_bot::metrics::set_adapter("discord", up);
    }

    async fn ready(&self, ctx: Context, ready: Ready) {
        doko_bot::metrics::set_adapter("discord", true);
        tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
        register(&ctx.http, self.config.dev_guild).await;
        if self.ticking.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let relayed = self.relayed.lock().expect("lock").take();
        tick_forever(self.adapter(&ctx), relayed);
    }

    /// Discord hands each process the guilds of its shards: the running
    /// tables in their channels (and threads) are this process's to keep
    /// the clocks of, also after a restart.
    async fn guild_create(&self, ctx: Context, guild: Guild, _is_new: Option<bool>) {
        let channels: Vec<u64> =
            guild.channels.keys().map(|c| c.get()).chain(guild.threads.iter().map(|t| t.id.get())).collect();
        self.adapter(&ctx).resume_in(&channels).await;
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Err(e) = self.adapter(&ctx).handle(&interaction).await {
            tracing::warn!(error = %e, "answering an interaction failed");
        }
    }
}

/// An origin for serenity's proxy setting: scheme, host and port, no path.
fn api_origin(url: &str) -> Result<String, ConfigError> {
    let bad = || ConfigError::BadApiUrl(url.to_string());
    let rest = url.strip_prefix("http://").or_else(|| url.strip_prefix("https://")).ok_or_else(bad)?;
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') || host.contains('?') {
        return Err(bad());
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// Why the bot could not start on Discord.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Discord (or serenity) failed.
    #[error("discord: {0}")]
    Discord(#[from] serenity::Error),
    /// The configured API did not say where its gateway is.
    #[error("the Discord API at {api} did not give a gateway URL ({why}); not starting")]
    NoGateway {
        /// The configured API origin.
        api: String,
        /// What went wrong.
        why: String,
    },
    /// The interactions endpoint could not be served.
    #[error("the interactions endpoint: {0}")]
    Endpoint(String),
}

/// Registers the slash commands in the development guild or globally.
async fn register(http: &serenity::all::Http, dev_guild: Option<u64>) {
    let cmds = crate::commands();
    let result = match dev_guild {
        Some(g) => GuildId::new(g).set_commands(http, cmds).await.map(|_| ()),
        None => DiscordCommand::set_global_commands(http, cmds).await.map(|_| ()),
    };
    if let Err(e) = result {
        tracing::error!(error = %e, "registering the slash commands failed");
    }
}

/// The turn timer: every few seconds for the tables the adapter served.
/// Also delivers, in order, what commands on other platforms owe this
/// platform's channels (a table shared across platforms).
fn tick_forever(adapter: Arc<Adapter>, relayed: Option<Relayed>) {
    if let Some(mut relayed) = relayed {
        let a = adapter.clone();
        tokio::spawn(async move {
            // one queue per channel, in order: a slow channel holds up
            // only itself
            let mut queues: HashMap<String, tokio::sync::mpsc::UnboundedSender<doko_bot::Outbox>> = HashMap::new();
            while let Some(out) = relayed.recv().await {
                let tx = queues.entry(out.channel.key()).or_insert_with(|| {
                    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<doko_bot::Outbox>();
                    let a = a.clone();
                    tokio::spawn(async move {
                        while let Some(out) = rx.recv().await {
                            a.relayed(&out).await;
                        }
                    });
                    tx
                });
                let _ = tx.send(out);
            }
        });
    }
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            every.tick().await;
            adapter.tick().await;
        }
    });
}

/// Serves Discord's interactions endpoint (no gateway): interactions come
/// as signed HTTP requests, everything else goes through the REST API.
async fn run_endpoint(
    app: Arc<dyn App>,
    config: &DiscordConfig,
    addr: std::net::SocketAddr,
    key: &str,
) -> Result<(), RunError> {
    let mut b = HttpBuilder::new(&config.token);
    if let Some(api) = &config.api_url {
        b = b.proxy(api.as_str()).ratelimiter_disabled(true);
    }
    let http = Arc::new(b.build());
    let info = http.get_current_application_info().await?;
    http.set_application_id(info.id);
    register(&http, config.dev_guild).await;
    let adapter = Arc::new(Adapter::new(app, http, config.mention).shards(config.shards));
    adapter.resume().await;
    let relayed = adapter.app.post_office().relayed(doko_bot::Platform::DISCORD);
    tick_forever(adapter.clone(), relayed);
    let endpoint = crate::http::Endpoint::new(adapter, key).map_err(RunError::Endpoint)?;
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| RunError::Endpoint(e.to_string()))?;
    crate::http::serve(Arc::new(endpoint), listener).await.map_err(|e| RunError::Endpoint(e.to_string()))
}

/// Connects to Discord and serves until the connection ends. Several
/// processes may serve one Redis; serenity shards as Discord recommends.
/// With an interactions endpoint configured, serves that instead of the
/// gateway.
pub async fn run(app: Arc<dyn App>, config: DiscordConfig) -> Result<(), RunError> {
    let (_keep, stop) = tokio::sync::watch::channel(false);
    run_until(app, config, stop).await
}

/// As [`run`], until `stop` says true: then the gateway's shards are shut
/// down (each closes its connection with Discord properly) or the
/// interactions endpoint stops listening, and it returns.
pub async fn run_until(
    app: Arc<dyn App>,
    config: DiscordConfig,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(), RunError> {
    if let (Some(addr), Some(key)) = (config.endpoint, config.public_key.as_deref()) {
        return tokio::select! {
            r = run_endpoint(app, &config, addr, key) => r,
            _ = doko_bot::stopped(&mut stop) => {
                tracing::info!("the interactions endpoint stops");
                Ok(())
            }
        };
    }
    let intents = GatewayIntents::GUILDS;
    let relayed = app.post_office().relayed(doko_bot::Platform::DISCORD);
    let events = Events {
        app,
        config: config.clone(),
        adapter: std::sync::OnceLock::new(),
        ticking: std::sync::atomic::AtomicBool::new(false),
        relayed: std::sync::Mutex::new(relayed),
    };
    let mut client = match &config.api_url {
        None => Client::builder(&config.token, intents).event_handler(events).await?,
        Some(api) => {
            // a REST proxy: serenity wants the origin only and no rate
            // limiter of its own (the proxy keeps Discord's limits)
            let http = HttpBuilder::new(&config.token).proxy(api.as_str()).ratelimiter_disabled(true).build();
            // serenity falls back to Discord's own gateway when it cannot
            // ask for one; ask first, and refuse instead
            let gateway =
                http.get_gateway().await.map_err(|e| RunError::NoGateway { api: api.clone(), why: e.to_string() })?.url;
            tracing::info!(api = %api, gateway = %gateway, "Discord through a configured API");
            let client = ClientBuilder::new_with_http(http, intents).event_handler(events).await?;
            *client.ws_url.lock().await = gateway;
            client
        }
    };
    let manager = client.shard_manager.clone();
    tokio::spawn(async move {
        doko_bot::stopped(&mut stop).await;
        tracing::info!("closing the gateway connections");
        doko_bot::metrics::set_adapter("discord", false);
        manager.shutdown_all().await;
    });
    match config.shards {
        // serenity's range is first..last with the last shard included
        Some(s) => client.start_shard_range(s.first..s.last, s.total).await?,
        None => client.start_autosharded().await?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_never_printed() {
        let c = DiscordConfig { token: "secret-token-123".into(), ..Default::default() };
        assert!(!format!("{c:?}").contains("secret-token-123"));
    }

    #[test]
    fn api_origins() {
        assert_eq!(api_origin("http://127.0.0.1:8080/").unwrap(), "http://127.0.0.1:8080");
        assert_eq!(api_origin("https://proxy.example").unwrap(), "https://proxy.example");
        assert!(api_origin("127.0.0.1:8080").is_err());
        assert!(api_origin("http://proxy/api/v10").is_err());
    }
}
