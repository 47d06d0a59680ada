//! Running the adapter against Discord: the gateway (serenity's client with
//! minimal intents; interactions need none), command registration per guild
//! (development) or globally (production), the turn-timer tick, and the
//! token from the environment or a file (never logged).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use doko_bot::App;
use serenity::all::{
    Client, Command as DiscordCommand, Context, EventHandler, GatewayIntents, GuildId, Interaction, Ready,
};
use serenity::async_trait;

use crate::handler::Adapter;

/// Discord settings.
#[derive(Clone, Debug, Default)]
pub struct DiscordConfig {
    /// The bot token (from `DOKO_DISCORD_TOKEN` or the file in
    /// `DOKO_DISCORD_TOKEN_FILE`).
    pub token: String,
    /// Register the commands in this guild only (development; instant)
    /// instead of globally (production; may take up to an hour).
    pub dev_guild: Option<u64>,
    /// Mention the person to act in a short message.
    pub mention: bool,
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
}

impl DiscordConfig {
    /// Reads the configuration from the environment; `None` when Discord is
    /// not configured at all.
    pub fn from_env() -> Result<Option<DiscordConfig>, ConfigError> {
        let token = match (std::env::var("DOKO_DISCORD_TOKEN"), std::env::var_os("DOKO_DISCORD_TOKEN_FILE")) {
            (Ok(t), _) if !t.trim().is_empty() => t.trim().to_string(),
            (_, Some(f)) => {
                let p = PathBuf::from(f);
                std::fs::read_to_string(&p).map_err(|e| ConfigError::TokenFile(p, e))?.trim().to_string()
            }
            _ => return Ok(None),
        };
        if token.is_empty() {
            return Err(ConfigError::NoToken);
        }
        let dev_guild = match std::env::var("DOKO_DISCORD_GUILD") {
            Ok(g) if !g.is_empty() => Some(g.parse().map_err(|_| ConfigError::BadGuild)?),
            _ => None,
        };
        let mention = std::env::var("DOKO_DISCORD_MENTION").map_or(true, |v| v != "0" && v != "false");
        Ok(Some(DiscordConfig { token, dev_guild, mention }))
    }
}

struct Events {
    app: Arc<dyn App>,
    config: DiscordConfig,
    /// One adapter for the process (it keeps the table messages and the
    /// tables served), made with the client's HTTP handle.
    adapter: std::sync::OnceLock<Arc<Adapter>>,
    ticking: std::sync::atomic::AtomicBool,
}

impl Events {
    fn adapter(&self, ctx: &Context) -> Arc<Adapter> {
        self.adapter
            .get_or_init(|| Arc::new(Adapter::new(self.app.clone(), ctx.http.clone(), self.config.mention)))
            .clone()
    }
}

#[async_trait]
impl EventHandler for Events {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
        let cmds = crate::commands();
        let result = match self.config.dev_guild {
            Some(g) => GuildId::new(g).set_commands(&ctx.http, cmds).await.map(|_| ()),
            None => DiscordCommand::set_global_commands(&ctx.http, cmds).await.map(|_| ()),
        };
        if let Err(e) = result {
            tracing::error!(error = %e, "registering the slash commands failed");
        }
        if self.ticking.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        // the turn timer: every few seconds for the tables served
        let adapter = self.adapter(&ctx);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(5));
            loop {
                every.tick().await;
                adapter.tick().await;
            }
        });
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Err(e) = self.adapter(&ctx).handle(&interaction).await {
            tracing::warn!(error = %e, "answering an interaction failed");
        }
    }
}

/// Connects to Discord and serves until the connection ends. Several
/// processes may serve one Redis; serenity shards as Discord recommends.
pub async fn run(app: Arc<dyn App>, config: DiscordConfig) -> Result<(), serenity::Error> {
    let intents = GatewayIntents::GUILDS;
    let events = Events {
        app,
        config: config.clone(),
        adapter: std::sync::OnceLock::new(),
        ticking: std::sync::atomic::AtomicBool::new(false),
    };
    let mut client = Client::builder(&config.token, intents).event_handler(events).await?;
    client.start_autosharded().await
}
