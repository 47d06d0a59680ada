//! The service every adapter talks to: a command in, an [`Outbox`] out.
//! Each command loads the channel's table, applies the command, lets
//! computer players act and commits with a compare-and-set on the table's
//! version; on a conflict (another process acted on the same table) it
//! starts again from the fresh table after a short, jittered, growing
//! pause ([`transact`](Service::transact)). The rules work (reading the
//! stored table, the engine, computer players, writing it back) runs on
//! tokio's blocking pool, never on the async workers.
//!
//! [`Outbox`]: crate::outbox::Outbox

mod admission;
mod app;
mod apply;
mod backoff;
mod compose;
mod damage;
mod delivery;
mod entry;
mod error;
mod gate;
mod health;
mod links;
mod parts;
mod queries;
mod reach;
mod receipts;
mod replies;
mod routing;
mod run;
mod settings;
mod stamp;
mod store_calls;
mod stored;
mod table_cache;
mod tick;
mod transaction;
mod unconfirmed;
mod web;

use std::collections::HashMap;
use std::sync::Mutex;

use doko_engine::{Rng, Rules};

use crate::dialect::{Dialect, Plain};
use crate::ids::{ChannelId, Platform, ServerId};
use crate::lang::Lang;
use crate::limits::{Limits, RateLimiter};
use crate::outbox::{Outbox, TableMessages};
use crate::store::Store;
use crate::table::ServerLayer;
use gate::Gate;
use reach::OutOfReach;
use receipts::WaitingReceipts;
use table_cache::TableCache;

pub use backoff::STORE_BUDGET;
pub use delivery::MARK_DELAY;
pub use error::{Damage, ServiceError};
pub use health::StoreHealth;
pub use store_calls::STORE_TIMEOUT;
pub use table_cache::TABLES_CACHED;
pub use tick::OWED_GRACE_MS;

/// The platform-neutral bot.
pub struct Service<S: Store> {
    store: S,
    rng: Mutex<Rng>,
    /// Wall-clock milliseconds at `base`, so that time follows tokio's
    /// clock (which tests can pause and advance).
    base_ms: u64,
    base: tokio::time::Instant,
    strong: doko_players::strong::StrongConfig,
    messages: TableMessages,
    limits: Limits,
    limiter: RateLimiter,
    health: Mutex<StoreHealth>,
    durable: bool,
    /// House rules and language of a new table.
    new_tables: (Rules, Lang),
    /// Tables as this process last committed them, with their versions.
    tables: TableCache,
    /// Servers' defaults as this process last read them, and when.
    servers: Mutex<HashMap<ServerId, (u64, ServerLayer)>>,
    /// Channels linked to another channel's table (`link`), as this
    /// process last saw them: the home's table is what counts.
    aliases: Mutex<HashMap<ChannelId, ChannelId>>,
    /// Where the parts of an outbox for another platform's channel go (a
    /// table shared across platforms): that platform's front end, when
    /// this process serves it.
    relays: Mutex<HashMap<Platform, tokio::sync::mpsc::UnboundedSender<Outbox>>>,
    /// Lets commands in, counts those in progress, closes at shutdown.
    gate: Gate,
    /// What deliveries reported (entries delivered, table messages posted,
    /// people unreachable), waiting for their table's next commit (see
    /// [`Service::defer_marks`]).
    receipts: WaitingReceipts,
    /// The people found out of reach privately (see [`OutOfReach`]).
    reach: OutOfReach,
    /// How each platform writes channel links and names commands (see
    /// [`Dialect`]); plainly where none is given.
    dialects: HashMap<Platform, &'static dyn Dialect>,
    /// The host's public address of the tables' web pages (`web.url`),
    /// if it serves them.
    web: Option<String>,
    /// The page tokens whose look-up key this process wrote (or found).
    pages_written: Mutex<std::collections::HashSet<String>>,
}

impl<S: Store> Service<S> {
    /// A service on a store; `seed` drives deals and computer players
    /// (give the same seed for reproducible tests).
    pub fn new(store: S, seed: u64) -> Service<S> {
        let base_ms =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        Service {
            store,
            rng: Mutex::new(Rng::new(seed)),
            base_ms,
            base: tokio::time::Instant::now(),
            strong: Default::default(),
            messages: Default::default(),
            limits: Limits::default(),
            limiter: RateLimiter::default(),
            health: Mutex::new(StoreHealth::up_since(base_ms)),
            durable: false,
            new_tables: (Rules::default(), Lang::En),
            servers: Default::default(),
            aliases: Default::default(),
            relays: Default::default(),
            tables: Default::default(),
            gate: Default::default(),
            receipts: Default::default(),
            reach: Default::default(),
            dialects: HashMap::new(),
            web: None,
            pages_written: Default::default(),
        }
    }

    /// Sets the service's clock to `ms` (since 1970, UTC) now; it runs on
    /// from there (tests of what is counted by the month).
    pub fn starting_at(mut self, ms: u64) -> Service<S> {
        self.base_ms = ms;
        self.base = tokio::time::Instant::now();
        self
    }

    /// The house rules and language a new table starts with (the host's
    /// defaults; by default the DDV rules in English).
    pub fn with_new_tables(mut self, rules: Rules, lang: Lang) -> Service<S> {
        self.new_tables = (rules, lang);
        self
    }

    /// Makes the outbox durable (what the binary runs with): what a change
    /// owes the platforms is stored with it in the same commit, and
    /// [`deliver`](crate::outbox::deliver) marks it delivered; what a
    /// process that died left undelivered is sent by the next turn clock
    /// of any process serving the table (see [`crate::table::Owed`]).
    /// Off, outboxes are only returned (tests and benchmarks that drive the
    /// service without delivering).
    pub fn with_durable_outbox(mut self) -> Service<S> {
        self.durable = true;
        self
    }

    /// Sets the bounds: rate limits per person and per channel (none by
    /// default; see [`Limits::public`]) and the records kept per table.
    pub fn with_limits(mut self, limits: Limits) -> Service<S> {
        self.limits = limits;
        self
    }

    /// The bounds in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Sets the strong computer player's budget (time and samples per
    /// decision).
    pub fn with_strong(mut self, strong: doko_players::strong::StrongConfig) -> Service<S> {
        self.strong = strong;
        self
    }

    /// How a platform writes channel links and names commands: its
    /// adapter's [`Dialect`], which the binary gives here for every
    /// platform it serves.
    pub fn speaking(mut self, platform: Platform, dialect: &'static dyn Dialect) -> Service<S> {
        // (its stored link codes are looked for, see `Platform::known`)
        let platform = Platform::named(platform.name()).unwrap_or(platform);
        self.dialects.insert(platform, dialect);
        self
    }

    /// The dialect of a platform ([`Plain`] where none was given).
    pub(crate) fn dialect(&self, platform: Platform) -> &'static dyn Dialect {
        self.dialects.get(&platform).copied().unwrap_or(&Plain)
    }

    /// Milliseconds since the Unix epoch, by tokio's clock.
    pub fn now_ms(&self) -> u64 {
        self.base_ms + self.base.elapsed().as_millis() as u64
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The next number of the service's generator (seeds of deals,
    /// computer players and pauses).
    fn next_u64(&self) -> u64 {
        self.rng.lock().expect("rng lock").next_u64()
    }
}
