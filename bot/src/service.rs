//! The service every adapter talks to: a command in, an [`Outbox`] out.
//! Each command loads the channel's table, applies the command, lets
//! computer players act and commits with a compare-and-set on the table's
//! version; on a conflict (another process acted on the same table) it
//! starts again from the fresh table after a short, jittered, growing
//! pause ([`transact`](Service::transact)). The rules work (reading the
//! stored table, the engine, computer players, writing it back) runs on
//! tokio's blocking pool, never on the async workers.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use doko_engine::{Rng, Rules};
use tracing::{Instrument, info_span};

use crate::authority::CommandKind;
use crate::command::{self, Command, Period, RulesCmd, ServerCmd};
use crate::ids::{Actor, ChannelId, Platform, ServerId, UserId};
use crate::lang::Lang;
use crate::limits::{Admit, Limits, RateLimiter};
use crate::outbox::{App, HandModel, Input, Notice, Outbox, Private, TableMessage};
use crate::render::{self, Kind};
use crate::server::ServerSettings;
use crate::store::{Commit, Keep, Quarantined, STORE_FORMAT, Store, StoreError, Stored};
use crate::table::{CommandError, Ctx, Event, OwedEntry, ServerLayer, Table};
use crate::tr;
use doko_players::decide;

/// A failure of the service itself (not a refused command).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored table could not be read.
    #[error("stored table unreadable: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// The channel's stored table cannot be read: it is set aside for
    /// inspection and the channel waits for an admin's `reset`.
    #[error("the channel's stored table (version {}) cannot be read", .0.version)]
    Damaged(Box<Damage>),
    /// Too many concurrent changes to one table.
    #[error("the table is too busy; try again")]
    Contention,
    /// A store call took longer than [`STORE_TIMEOUT`].
    #[error("the store did not answer in time")]
    Timeout,
    /// A change was sent to the store, which did not say whether it made
    /// it, and reading the table again could not tell (or failed).
    #[error("the store did not confirm a change")]
    Unconfirmed,
    /// The rules work stopped unexpectedly (a bug).
    #[error("the command failed: {0}")]
    Failed(String),
}

/// What the service knows of its store: whether its last call was
/// answered, since when, and the last failure. Every store call updates
/// it; [`Service::check_store`] makes one when nothing else does, so a
/// health endpoint (`/readyz`) can read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreHealth {
    /// The last store call was answered.
    pub up: bool,
    /// Since when (ms since the Unix epoch, by the service's clock).
    pub since_ms: u64,
    /// Store calls that failed or timed out since the service started.
    pub failures: u64,
    /// The last failure (no stored content: a store error or "timeout").
    pub last_error: Option<String>,
}

/// A stored table that cannot be read. Its reader's error may quote the
/// stored state (a hand, a card), so it goes to the quarantine for the
/// operator, never into a log or a channel: `Debug` and the log show only
/// what kind of error it is and where.
pub struct Damage {
    /// The stored version.
    pub version: u64,
    /// Written by a newer doko (in a format this one does not know): not
    /// damaged, so not set aside; a newer process reads it.
    pub newer: bool,
    /// The channel's language, if that much could be read.
    pub lang: Option<Lang>,
    /// It was set aside by this command (the channel is told once).
    pub fresh: bool,
    /// The error's kind and place (no content).
    pub what: String,
    error: String,
    state: String,
}

impl std::fmt::Debug for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Damage")
            .field("version", &self.version)
            .field("newer", &self.newer)
            .field("what", &self.what)
            .finish_non_exhaustive()
    }
}

/// A stored table read (a new one when none is stored), or the damage.
fn read_stored(stored: Option<Stored>, new: &(Rules, Lang)) -> Result<(Table, u64), ServiceError> {
    let Some(s) = stored else { return Ok((Table::new_with(new.0, new.1), 0)) };
    match serde_json::from_str::<Table>(&s.json) {
        Ok(mut t) => {
            t.upgrade();
            Ok((t, s.version))
        }
        Err(e) => {
            let probe = crate::table::stored_probe(&s.json);
            let newer = probe.is_some_and(|(f, _)| f > STORE_FORMAT);
            let what = format!("{:?} error at line {} column {}", e.classify(), e.line(), e.column());
            Err(ServiceError::Damaged(Box::new(Damage {
                version: s.version,
                newer,
                lang: probe.and_then(|(_, l)| l),
                fresh: false,
                what,
                error: e.to_string(),
                state: s.json,
            })))
        }
    }
}

/// How many tables a process keeps as it last committed them (see
/// [`Service::transact`]).
pub const TABLES_CACHED: usize = 1_024;

/// The tables a process keeps: each with its version and when it was last
/// put back (a count), so that a full set drops its least recently used
/// eighth, not everything (which made every table read again at once).
#[derive(Default)]
struct Copies {
    map: std::collections::HashMap<ChannelId, (u64, Arc<Table>, u64)>,
    clock: u64,
}

/// How often a change is tried again after a conflict, and how long the
/// pauses between tries may grow: 2 ms doubling up to 200 ms, each a random
/// fraction of that ("full jitter"), at most 16 tries (about 1.5 s in the
/// worst case).
const RETRY_BASE: Duration = Duration::from_millis(2);
const RETRY_CAP: Duration = Duration::from_millis(200);
const RETRY_TRIES: u32 = 16;

/// How long the service waits for one store call (a load or a commit):
/// 3 s, longer than Redis's own response timeout
/// ([`crate::store::REDIS_RESPONSE_TIMEOUT`], so Redis reports its error
/// first) and far longer than a durable commit of the embedded store. A
/// commit that took longer may still land: its outcome is unclear, and the
/// service reads the table again to find out (see [`Service::transact`]).
pub const STORE_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a command keeps trying after store failures (errors,
/// timeouts) before the person is told that the table is unavailable: 6 s
/// from its first try, within what a platform waits for a deferred answer.
/// A try that starts in time may take up to [`STORE_TIMEOUT`] longer.
pub const STORE_BUDGET: Duration = Duration::from_secs(6);

/// An owed entry this process did not make is delivered by the turn clock
/// once it has waited this long (ms): its own process is given the time to
/// deliver it. Entries made before this process started are delivered at
/// its first turn clock.
pub const OWED_GRACE_MS: u64 = 30_000;

/// How long a delivered entry's mark waits for its table's next commit
/// to carry it (see [`Service::defer_marks`]) before it is committed on
/// its own: at a table in play the next move comes sooner, and the mark
/// costs no round trip of its own. Far below [`OWED_GRACE_MS`] (another
/// process sends an entry after that) and the minutes in which Discord
/// and Matrix drop a message sent again with the same key (what a crash
/// before the mark leads to).
pub const MARK_DELAY: Duration = Duration::from_secs(5);

/// How often the marks that waited [`MARK_DELAY`] are committed.
const MARK_FLUSH_EVERY: Duration = Duration::from_secs(1);

/// A delivered entry's mark that waits for its table's next commit (see
/// [`Service::defer_marks`]): the table's salt, the entries, when it was
/// made, and a number to tell it from the others.
#[derive(Clone, Debug)]
struct Mark {
    salt: u64,
    seqs: Vec<u64>,
    at: tokio::time::Instant,
    id: u64,
}

/// The marks waiting, by the channel that delivered them.
#[derive(Default)]
struct Marks {
    by_channel: std::collections::HashMap<ChannelId, Vec<Mark>>,
    next: u64,
}

/// Exponential backoff with full jitter, a bounded number of tries and a
/// deadline ([`STORE_BUDGET`]).
struct Backoff {
    tries: u32,
    rng: Rng,
    deadline: tokio::time::Instant,
}

impl Backoff {
    fn new(seed: u64) -> Backoff {
        Backoff { tries: 0, rng: Rng::new(seed), deadline: tokio::time::Instant::now() + STORE_BUDGET }
    }

    /// Waits before the next try; false when the tries or the time are
    /// used up.
    async fn wait(&mut self) -> bool {
        self.tries += 1;
        if self.tries >= RETRY_TRIES {
            return false;
        }
        let cap = RETRY_CAP.min(RETRY_BASE * 2u32.saturating_pow(self.tries.min(16)));
        let pause = Duration::from_micros(self.rng.next_u64() % (cap.as_micros() as u64 + 1));
        if tokio::time::Instant::now() + pause > self.deadline {
            return false;
        }
        tokio::time::sleep(pause).await;
        true
    }
}

/// How a change whose commit failed without saying whether it was made (a
/// store error or timeout on commit) is settled once the table is read
/// again.
#[derive(Clone, Debug)]
enum Once {
    /// By the command's delivery id: a table that remembers it has it
    /// handled (applied or refused), one that does not has not.
    Delivery(String),
    /// The work may run again on the fresh table: it looks at the table
    /// itself and does nothing twice (the turn clock, the table message's
    /// id).
    Repeatable,
    /// A command without a delivery id: when the table has moved on past
    /// the unclear commit, it cannot be told whether it was made, and the
    /// person is told the table is unavailable rather than risk doing it
    /// twice.
    Unguarded,
}

/// A try whose commit's outcome is unclear: what it wrote, on which
/// version, and what it would answer.
struct Unclear<W> {
    expected: u64,
    json: String,
    table: Arc<Table>,
    result: W,
}

/// What reading the table again says about the unclear tries.
enum Settled {
    /// This try's change was made.
    Made(usize),
    /// None was made (so far; a late one can only land on its own
    /// version, where a new try's compare-and-set meets it).
    NotMade,
    /// It cannot be told.
    Unknown,
}

/// Settles unclear tries against the table as stored now.
fn settle<W>(
    stored: Option<&crate::store::Stored>,
    unclear: &[Unclear<W>],
    once: &Once,
) -> Result<Settled, ServiceError> {
    let version = stored.map_or(0, |s| s.version);
    // a compare-and-set lands only on the version after the one it read
    if let Some(s) = stored
        && let Some(i) = unclear.iter().rposition(|u| s.version == u.expected + 1 && s.json == u.json)
    {
        return Ok(Settled::Made(i));
    }
    match once {
        Once::Delivery(id) => match stored {
            Some(s) if crate::table::stored_knows_delivery(&s.json, id)? => {
                // handled since: by a try of ours (the newest that could
                // have landed answers) or a twin delivery elsewhere
                let i = unclear.iter().rposition(|u| u.expected < version).unwrap_or(unclear.len() - 1);
                Ok(Settled::Made(i))
            }
            _ => Ok(Settled::NotMade),
        },
        Once::Repeatable => Ok(Settled::NotMade),
        Once::Unguarded => {
            // a try's version was overwritten: its change may be under it
            if unclear.iter().any(|u| version > u.expected + 1) { Ok(Settled::Unknown) } else { Ok(Settled::NotMade) }
        }
    }
}

/// What one try of a command did to the table.
enum Applied {
    /// The delivery was handled before; the refusal it got, if it was
    /// refused (and the refusal is still remembered).
    Duplicate(Option<String>),
    /// Refused: the refusal's text, and what happened all the same (a
    /// person whose time had run out took their seat back).
    Refused(String, Vec<Event>),
    /// Applied, with what happened (and what it owes, stored with it, when
    /// the outbox is durable).
    Done(Vec<Event>, Option<Box<Outbox>>),
    /// A click on a hand the deal has moved past (and what happened all
    /// the same, as for a refusal).
    Stale(Vec<Event>),
    /// The command comes from a server the table does not know yet: the
    /// channel joins the server first (once), then the command runs.
    NeedsServer,
}

/// Where a linked channel's command went.
enum Route<W> {
    /// It ran here.
    Here(W),
    /// The channel is linked to this home (`Some`), or the home tried does
    /// not list it (`None`).
    Moved(Option<ChannelId>),
}

/// Where the deal stands for a person: the deal (a hash of the hands as
/// dealt, so a redeal is a new deal) and the moves made so far.
fn stamp(t: &Table, user: &UserId) -> Option<String> {
    if !t.plays_in_deal(user) {
        return None;
    }
    t.current_game().map(stamp_of)
}

/// [`stamp`] of a deal.
fn stamp_of(g: &doko_engine::Game) -> String {
    use std::hash::{Hash, Hasher};
    thread_local! {
        /// The last deal hashed and its hash: a move shows two hands of
        /// the same deal, one after the other.
        static LAST: std::cell::Cell<Option<([doko_engine::Cards; 4], u32)>> = const { std::cell::Cell::new(None) };
    }
    let dealt = *g.dealt();
    let hash = match LAST.get() {
        Some((d, h)) if d == dealt => h,
        _ => {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            dealt.hash(&mut h);
            let h = h.finish() as u32;
            LAST.set(Some((dealt, h)));
            h
        }
    };
    let moves = g.plays() + g.announcements().len() + g.bids().iter().flatten().count();
    stamp_text(hash, moves)
}

/// A stamp's text: the deal's hash as eight hex digits, a dot, the moves
/// (what `format!("{hash:08x}.{moves}")` writes, without its formatting
/// machinery: two hands are stamped at every move).
fn stamp_text(hash: u32, moves: usize) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(16);
    for shift in (0..8).rev() {
        out.push(char::from(HEX[(hash >> (shift * 4)) as usize & 15]));
    }
    out.push('.');
    push_decimal(&mut out, moves);
    out
}

/// Writes `n` in decimal digits.
fn push_decimal(out: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// A table's JSON, written into a buffer of a table's usual size (grown
/// from serde_json's 128 bytes, a table of two kilobytes was copied five
/// times).
fn table_json(t: &Table) -> Result<String, serde_json::Error> {
    let mut buf = Vec::with_capacity(4096);
    serde_json::to_writer(&mut buf, t)?;
    // (serde_json writes UTF-8 only)
    Ok(String::from_utf8(buf).expect("serde_json writes UTF-8"))
}

/// The platform-neutral bot.
pub struct Service<S: Store> {
    store: S,
    rng: Mutex<Rng>,
    /// Wall-clock milliseconds at `base`, so that time follows tokio's
    /// clock (which tests can pause and advance).
    base_ms: u64,
    base: tokio::time::Instant,
    strong: doko_players::strong::StrongConfig,
    messages: crate::outbox::TableMessages,
    limits: Limits,
    limiter: RateLimiter,
    health: Mutex<StoreHealth>,
    durable: bool,
    /// House rules and language of a new table.
    new_tables: (Rules, Lang),
    /// Tables as this process last committed them, with their versions.
    tables: Mutex<Copies>,
    /// Servers' defaults as this process last read them, and when.
    servers: Mutex<std::collections::HashMap<ServerId, (u64, ServerLayer)>>,
    /// Channels linked to another channel's table (`link`), as this
    /// process last saw them: the home's table is what counts.
    aliases: Mutex<std::collections::HashMap<ChannelId, ChannelId>>,
    /// Where the parts of an outbox for another platform's channel go (a
    /// table shared across platforms): that platform's front end, when
    /// this process serves it.
    relays: Mutex<std::collections::HashMap<crate::ids::Platform, tokio::sync::mpsc::UnboundedSender<Outbox>>>,
    /// Shutting down: new commands are answered, not applied.
    closing: std::sync::atomic::AtomicBool,
    /// Commands being applied now.
    in_flight: std::sync::atomic::AtomicUsize,
    /// Told when the last command in flight ends.
    idle: tokio::sync::Notify,
    /// Whether a delivered entry's mark waits for its table's next commit
    /// (see [`Service::defer_marks`]).
    defer: std::sync::atomic::AtomicBool,
    /// The marks waiting.
    marks: Mutex<Marks>,
}

/// A command in flight, counted while it lives.
struct Flight<'a> {
    in_flight: &'a std::sync::atomic::AtomicUsize,
    idle: &'a tokio::sync::Notify,
}

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        if self.in_flight.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            self.idle.notify_waiters();
        }
    }
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
            health: Mutex::new(StoreHealth { up: true, since_ms: base_ms, failures: 0, last_error: None }),
            durable: false,
            new_tables: (Rules::default(), Lang::En),
            servers: Default::default(),
            aliases: Default::default(),
            relays: Default::default(),
            tables: Default::default(),
            closing: Default::default(),
            in_flight: Default::default(),
            idle: Default::default(),
            defer: Default::default(),
            marks: Default::default(),
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

    /// Stops taking commands (a graceful shutdown): every command from now
    /// on is answered that the bot is restarting and is not applied; the
    /// ones in flight finish ([`Service::drain`] waits for them), and turn
    /// clocks stop.
    pub fn close(&self) {
        self.closing.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether [`Service::close`] was called.
    pub fn is_closing(&self) -> bool {
        self.closing.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Waits until no command is in flight.
    pub async fn drain(&self) {
        loop {
            let idle = self.idle.notified();
            if self.in_flight.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }

    /// Counts a command in flight, or `None` when closing (then it is not
    /// to be applied).
    fn take_off(&self) -> Option<Flight<'_>> {
        self.in_flight.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let flight = Flight { in_flight: &self.in_flight, idle: &self.idle };
        (!self.is_closing()).then_some(flight)
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

    /// Lets the mark of a delivered entry (see [`App::delivered`]) ride on
    /// its table's next commit instead of a commit of its own: at a table
    /// in play an action then costs one store round trip, where marking
    /// at once took a second one for every action. A mark that waited
    /// [`MARK_DELAY`] is committed on its own, by a task this starts (it
    /// ends with the service); [`flush_marks`](Self::flush_marks) commits
    /// the rest at a graceful stop. A process that dies with marks waiting
    /// leaves their entries owed, as one that died between delivering and
    /// marking always did: the next turn clock sends them again with the
    /// same keys, and the platforms drop the second copy.
    pub fn defer_marks(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        self.defer.store(true, std::sync::atomic::Ordering::SeqCst);
        let service = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(MARK_FLUSH_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let Some(s) = service.upgrade() else { return };
                s.flush_marks(MARK_DELAY).await;
            }
        })
    }

    /// Commits the marks (see [`defer_marks`](Self::defer_marks)) that
    /// waited at least `age` (all of them with zero), each table's in one
    /// commit; returns how many tables it committed. A mark that cannot be
    /// committed (the store is away) is given up on, logged: its entries
    /// are sent again later, with the same keys.
    pub async fn flush_marks(&self, age: Duration) -> usize {
        let now = tokio::time::Instant::now();
        let due: Vec<(ChannelId, Vec<Mark>)> = {
            let mut m = self.marks.lock().expect("marks lock");
            let mut due = Vec::new();
            m.by_channel.retain(|ch, marks| {
                let (old, young): (Vec<Mark>, Vec<Mark>) = marks.drain(..).partition(|k| now - k.at >= age);
                if !old.is_empty() {
                    due.push((ch.clone(), old));
                }
                *marks = young;
                !marks.is_empty()
            });
            due
        };
        let mut committed = 0;
        for (ch, marks) in due {
            match self.mark_delivered(&ch, marks).await {
                Ok(true) => committed += 1,
                Ok(false) => {}
                Err(e) => {
                    // sent again by a later turn clock (platforms that can
                    // drop the second copy do)
                    tracing::warn!(error = %e, channel = %ch, "marking messages delivered failed");
                }
            }
        }
        committed
    }

    /// Marks owed entries delivered in `ch` in one commit of their table
    /// (none when nothing changes); whether it committed.
    async fn mark_delivered(&self, ch: &ChannelId, marks: Vec<Mark>) -> Result<bool, ServiceError> {
        let (_, changed) = self
            .transact(ch, Once::Repeatable, move |table, ctx, _| {
                // (each channel of a shared table delivers its part)
                let by = ctx.via.as_ref().map(ChannelId::key).unwrap_or_default();
                let all: Vec<String> =
                    std::iter::once(String::new()).chain(table.links().map(ChannelId::key)).collect();
                let mut changed = false;
                for m in &marks {
                    changed |= table.owed_mut().delivered_of(m.salt, &m.seqs, &by, &all);
                }
                (changed, changed)
            })
            .await?;
        Ok(changed)
    }

    /// The marks waiting for a table's next commit that it can carry: those
    /// its own channel delivered (a linked channel's are committed on their
    /// own, through the link).
    fn marks_for(&self, key: &ChannelId) -> Vec<Mark> {
        if !self.defer.load(std::sync::atomic::Ordering::Relaxed) {
            return Vec::new();
        }
        self.marks.lock().expect("marks lock").by_channel.get(key).cloned().unwrap_or_default()
    }

    /// Forgets the marks a commit of `key`'s table carried.
    fn marks_carried(&self, key: &ChannelId, carried: &[Mark]) {
        if carried.is_empty() {
            return;
        }
        let mut m = self.marks.lock().expect("marks lock");
        if let Some(marks) = m.by_channel.get_mut(key) {
            marks.retain(|k| !carried.iter().any(|c| c.id == k.id));
            if marks.is_empty() {
                m.by_channel.remove(key);
            }
        }
    }

    /// What the service knows of its store now.
    pub fn store_health(&self) -> StoreHealth {
        self.health.lock().expect("health lock").clone()
    }

    /// Asks the store one cheap question (its format) and returns what is
    /// known of it then: the background check a platform runs every few
    /// seconds, so an outage is noticed (and logged once) also when nobody
    /// plays.
    pub async fn check_store(&self) -> StoreHealth {
        let _ = self.timed(self.store.format_version()).await;
        self.store_health()
    }

    /// Notes a store call's outcome; a change is logged once.
    fn note_store(&self, failure: Option<String>) {
        let now = self.now_ms();
        let mut h = self.health.lock().expect("health lock");
        match failure {
            None if !h.up => {
                tracing::info!(down_ms = now.saturating_sub(h.since_ms), "the store answers again");
                h.up = true;
                h.since_ms = now;
            }
            None => {}
            Some(e) => {
                if h.up {
                    tracing::warn!(error = %e, "the store does not answer; commands are told the table is unavailable");
                    h.up = false;
                    h.since_ms = now;
                }
                h.failures += 1;
                h.last_error = Some(e);
            }
        }
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

    /// The rate limits: `None` when the command may go on, else the answer
    /// (a polite one once per burst, then an empty one: the person is
    /// still answered, with nothing, where a platform must answer).
    async fn admit(&self, ch: &ChannelId, actor: &Actor) -> Result<Option<Outbox>, ServiceError> {
        let admit = self.limiter.admit(&self.limits, &actor.user.key(), &ch.key(), self.now_ms());
        let mut out = Outbox::new(ch.clone(), Lang::default());
        out.actor = Some(actor.user.clone());
        match admit {
            Admit::Yes => return Ok(None),
            Admit::Silent => {
                crate::metrics::command("any", "limited", 0.0);
                tracing::debug!(channel = %ch, user = %actor.user, "rate limited")
            }
            Admit::Tell => {
                crate::metrics::command("any", "limited", 0.0);
                tracing::info!(channel = %ch, user = %actor.user, "rate limited");
                let (t, _) = self.table(ch).await?;
                out.lang = t.lang();
                out.private.push(private(&t, &actor.user, Kind::Error, tr!(t.lang(), "rate-limited")));
            }
        }
        Ok(Some(out))
    }

    /// Sets the strong computer player's budget (time and samples per
    /// decision).
    pub fn with_strong(mut self, strong: doko_players::strong::StrongConfig) -> Service<S> {
        self.strong = strong;
        self
    }

    /// Milliseconds since the Unix epoch, by tokio's clock.
    pub fn now_ms(&self) -> u64 {
        self.base_ms + self.base.elapsed().as_millis() as u64
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    fn next_u64(&self) -> u64 {
        self.rng.lock().expect("rng lock").next_u64()
    }

    /// The channel's table as stored (a new one if none) and its version,
    /// for inspection (tests, benchmarks); adapters never see it.
    /// A channel linked to another's table (see [`Table::linked_to`])
    /// reads that table.
    pub async fn table(&self, ch: &ChannelId) -> Result<(Table, u64), ServiceError> {
        let key = self.home_of(ch);
        if &key != ch {
            let (t, v) = self.table_key(&key).await?;
            if t.is_linked_with(ch) {
                return Ok((t, v));
            }
            self.aliases.lock().expect("lock").remove(ch);
        }
        let (t, v) = self.table_key(ch).await?;
        if let Some(home) = t.linked_to().cloned() {
            let (h, hv) = self.table_key(&home).await?;
            if h.is_linked_with(ch) {
                self.aliases.lock().expect("lock").insert(ch.clone(), home);
                return Ok((h, hv));
            }
        }
        Ok((t, v))
    }

    /// The table stored under a channel's own key.
    async fn table_key(&self, ch: &ChannelId) -> Result<(Table, u64), ServiceError> {
        match read_stored(self.timed(self.store.load(ch)).await?, &self.new_tables) {
            Err(ServiceError::Damaged(d)) => Err(ServiceError::Damaged(self.set_aside(ch, d).await)),
            r => r,
        }
    }

    /// Where a channel's table is stored, as this process last saw it:
    /// its own key, or its home's when it is linked.
    fn home_of(&self, ch: &ChannelId) -> ChannelId {
        self.aliases.lock().expect("lock").get(ch).cloned().unwrap_or_else(|| ch.clone())
    }

    /// Runs `work` on the table a channel shows (its own, or its home's
    /// when linked: `ctx.via` is then the channel), as
    /// [`transact_key`](Self::transact_key); returns the key it ran at.
    /// The home's list of links is what counts: a channel whose home no
    /// longer lists it is its own table again (and forgets the home).
    async fn routed<W, F>(
        &self,
        ch: &ChannelId,
        once: Once,
        work: F,
    ) -> Result<(ChannelId, Arc<Table>, W), ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        let work = Arc::new(work);
        let mut key = self.home_of(ch);
        // the home that does not list the channel (any more)
        let mut left: Option<ChannelId> = None;
        for _ in 0..4 {
            let (asked, at, w, gone) = (ch.clone(), key.clone(), work.clone(), left.clone());
            let (t, r) = self
                .transact_key(&key, once.clone(), move |table, ctx, rng| {
                    if at != asked {
                        if !table.is_linked_with(&asked) {
                            return (Route::Moved(None), false);
                        }
                        ctx.via = Some(asked.clone());
                    } else if let Some(home) = table.linked_to().cloned() {
                        if gone.as_ref() != Some(&home) {
                            return (Route::Moved(Some(home)), false);
                        }
                        if table.link_settled(ctx.now_ms) {
                            table.set_linked_to(None, ctx.now_ms);
                            let (w, _) = w(table, ctx, rng);
                            return (Route::Here(w), true);
                        }
                        // (a link being made: its own table until the home
                        // takes it)
                    }
                    let (w, commit) = w(table, ctx, rng);
                    (Route::Here(w), commit)
                })
                .await?;
            match r {
                Route::Here(w) => return Ok((key, t, w)),
                Route::Moved(Some(home)) => {
                    self.aliases.lock().expect("lock").insert(ch.clone(), home.clone());
                    key = home;
                }
                Route::Moved(None) => {
                    tracing::info!(channel = %ch, "a channel's link is gone: its own table again");
                    self.aliases.lock().expect("lock").remove(ch);
                    left = Some(key);
                    key = ch.clone();
                }
            }
        }
        Err(ServiceError::Failed("a channel's link could not be followed".into()))
    }

    /// Runs `work` on the table a channel shows (see [`routed`](Self::routed)).
    async fn transact<W, F>(&self, ch: &ChannelId, once: Once, work: F) -> Result<(Arc<Table>, W), ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        self.routed(ch, once, work).await.map(|(_, t, w)| (t, w))
    }

    /// Sets a damaged table aside (once per version; not one written by a
    /// newer doko), and logs it without its content.
    async fn set_aside(&self, ch: &ChannelId, mut d: Box<Damage>) -> Box<Damage> {
        if d.newer {
            tracing::warn!(channel = %ch, version = d.version, "the table was stored by a newer doko; update this process");
            return d;
        }
        let q = Quarantined {
            channel: ch.key(),
            version: d.version,
            at_ms: self.now_ms(),
            error: std::mem::take(&mut d.error),
            state: std::mem::take(&mut d.state),
        };
        match self.timed(self.store.quarantine(&q)).await {
            Ok(true) => {
                d.fresh = true;
                tracing::error!(channel = %ch, version = d.version, what = %d.what,
                    "a stored table cannot be read: set aside (doko store inspect), the channel waits for an admin's reset");
            }
            Ok(false) => {
                tracing::debug!(channel = %ch, version = d.version, "a stored table cannot be read (set aside before)")
            }
            Err(e) => {
                tracing::warn!(channel = %ch, version = d.version, error = %e, "a damaged table could not be set aside")
            }
        }
        d
    }

    /// Answers a command at a channel whose table cannot be read: an
    /// admin's `reset` starts the table afresh (the damaged one stays set
    /// aside); anything else is told what happened and what to do.
    async fn on_damage(&self, ch: &ChannelId, actor: &Actor, d: Box<Damage>, reset: bool) -> Outbox {
        let lang = d.lang.unwrap_or_default();
        let id = format!("{}@{}", ch.key(), d.version);
        let mut out = Outbox::new(ch.clone(), lang);
        out.actor = Some(actor.user.clone());
        let tell = |out: &mut Outbox, text: String, public: bool| {
            if public {
                out.notices.push(Notice::new(Kind::Error, text.clone(), None));
            }
            out.private.push(Private::new(actor.user.clone(), Kind::Error, text));
        };
        if d.newer {
            tell(&mut out, tr!(lang, "table-newer"), false);
            return out;
        }
        if reset && actor.admin && !actor.direct {
            let fresh = Table::with_lang(lang);
            let json = match serde_json::to_string(&fresh) {
                Ok(j) => j,
                Err(_) => return unavailable(ch, &actor.user),
            };
            self.uncache(ch);
            return match self.timed(self.store.commit_kept(ch, d.version, &json, &[], Keep::default())).await {
                Ok(Commit::Done(_)) => {
                    tracing::info!(channel = %ch, version = d.version, "a damaged table was replaced by a new one");
                    out.notices.push(Notice::new(Kind::Events, tr!(lang, "table-damaged-reset", id = id), None));
                    out
                }
                // changed meanwhile (another admin's reset): say it again
                Ok(Commit::Conflict) | Err(_) => unavailable(ch, &actor.user),
            };
        }
        tell(&mut out, tr!(lang, "table-damaged", id = id), d.fresh);
        out
    }

    /// A store call, given at most [`STORE_TIMEOUT`].
    async fn timed<T>(&self, call: impl Future<Output = Result<T, StoreError>>) -> Result<T, ServiceError> {
        let started = std::time::Instant::now();
        let r = match tokio::time::timeout(STORE_TIMEOUT, call).await {
            Ok(r) => r.map_err(ServiceError::from),
            Err(_) => Err(ServiceError::Timeout),
        };
        crate::metrics::store_call(started.elapsed().as_secs_f64(), r.is_ok());
        self.note_store(r.as_ref().err().map(|e| e.to_string()));
        r
    }

    /// Takes this process's copy of a table (as it last committed or read
    /// it, with its version) out while a command works on
    /// it (so it is changed in place, not copied; a command on the same
    /// table meanwhile reads it from the store).
    fn cached(&self, ch: &ChannelId) -> Option<(u64, Arc<Table>)> {
        self.tables.lock().expect("lock").map.remove(ch).map(|(v, t, _)| (v, t))
    }

    /// Keeps a table this process committed or read (at most
    /// [`TABLES_CACHED`]: beyond, the least recently used eighth is
    /// dropped, and read again as needed).
    fn cache(&self, ch: &ChannelId, version: u64, t: &Arc<Table>) {
        let dropped: Vec<(u64, Arc<Table>, u64)>;
        {
            let mut c = self.tables.lock().expect("lock");
            if c.map.get(ch).is_some_and(|(v, _, _)| *v > version) {
                // (a command meanwhile kept a newer one)
                return;
            }
            dropped = if c.map.len() >= TABLES_CACHED && !c.map.contains_key(ch) {
                let mut used: Vec<u64> = c.map.values().map(|e| e.2).collect();
                let (_, cut, _) = used.select_nth_unstable(TABLES_CACHED / 8);
                let cut = *cut;
                c.map.extract_if(|_, e| e.2 <= cut).map(|(_, e)| e).collect()
            } else {
                Vec::new()
            };
            c.clock += 1;
            let used = c.clock;
            c.map.insert(ch.clone(), (version, t.clone(), used));
        }
        // (the copies dropped are freed outside the lock)
        drop(dropped);
    }

    /// Forgets this process's copy of a table (it is read again).
    fn uncache(&self, ch: &ChannelId) {
        self.tables.lock().expect("lock").map.remove(ch);
    }

    /// The one way a table changes: load it, let `work` change it (on the
    /// blocking pool; it says whether to commit), commit with the
    /// compare-and-set, and on a conflict try again from the fresh table
    /// after a backoff. `work` gets the deal seeds (through the context)
    /// and a generator for computer players.
    ///
    /// A load that fails or times out is tried again within the budget
    /// ([`STORE_BUDGET`]). A commit that fails or times out may have been
    /// made all the same: the table is read again and the unclear try
    /// settled as `once` says. When it was made, its answer is given (as
    /// for any applied command); when it was not, the change is tried again
    /// within the budget; else the caller gets an error (and the person
    /// the short "table unavailable").
    async fn transact_key<W, F>(&self, ch: &ChannelId, once: Once, work: F) -> Result<(Arc<Table>, W), ServiceError>
    where
        W: Send + 'static,
        F: Fn(&mut Table, &mut Ctx<'_>, &mut Rng) -> (W, bool) + Send + Sync + 'static,
    {
        let work = Arc::new(work);
        let mut backoff = Backoff::new(self.next_u64());
        let mut unclear: Vec<Unclear<W>> = Vec::new();
        // the last store failure, once the budget is spent: settle what is
        // unclear with one more read, then give up
        let mut spent: Option<ServiceError> = None;
        loop {
            // the table as this process last committed or read it, when it
            // holds it (nothing unclear): no read; a commit on it that
            // meets a newer table conflicts, and the table is read then
            let cached = if unclear.is_empty() { self.cached(ch) } else { None };
            let stored = match &cached {
                Some(_) => None,
                None => match self.timed(self.store.load(ch)).await {
                    Ok(s) => s,
                    Err(e) => {
                        tracing::warn!(error = %e, "reading the table failed");
                        if spent.is_some() || !backoff.wait().await {
                            return Err(if unclear.is_empty() { e } else { ServiceError::Unconfirmed });
                        }
                        continue;
                    }
                },
            };
            if !unclear.is_empty() {
                match settle(stored.as_ref(), &unclear, &once)? {
                    Settled::Made(i) => {
                        tracing::info!("an unclear commit was made");
                        let u = unclear.swap_remove(i);
                        return Ok((u.table, u.result));
                    }
                    Settled::Unknown => {
                        tracing::warn!("whether an unclear commit was made cannot be told");
                        return Err(ServiceError::Unconfirmed);
                    }
                    Settled::NotMade => tracing::debug!("an unclear commit was not made"),
                }
            }
            if let Some(e) = spent {
                return Err(e);
            }
            let from_cache = cached.is_some();
            let version = match &cached {
                Some((v, _)) => *v,
                None => stored.as_ref().map_or(0, |s| s.version),
            };
            let (seed, bots) = (self.next_u64(), self.next_u64());
            let w = work.clone();
            let records_kept = self.limits.records_kept;
            let new_tables = self.new_tables;
            let now_ms = self.now_ms();
            let span = tracing::Span::current();
            // a quick step (a held table without searching computers or
            // pictures) runs here: handing it to a blocking thread and
            // waking this task again cost more than the step itself
            let quick = cached.as_ref().is_some_and(|(_, t)| t.quick());
            // delivered entries' marks that wait for this table's next
            // commit: a commit carries them
            let marks = self.marks_for(ch);
            let step = move || -> Result<_, ServiceError> {
                let _span = span.enter();
                let (mut table, _) = match cached {
                    // (the only holder, unless an answer still renders it)
                    Some((_, t)) => (Arc::try_unwrap(t).unwrap_or_else(|t| Table::clone(&t)), version),
                    None => read_stored(stored, &new_tables)?,
                };
                let mut seeds = Rng::new(seed);
                let mut next = move || seeds.next_u64();
                let mut ctx = Ctx { seed: &mut next, new_records: Vec::new(), discard: false, now_ms, via: None };
                let (result, commit) = w(&mut table, &mut ctx, &mut Rng::new(bots));
                let (commit, discard) = (commit && !ctx.discard, ctx.discard);
                // (a table linked elsewhere owes nothing of its own here)
                let carried = if commit && !marks.is_empty() && table.linked_to().is_none() {
                    let all: Vec<String> =
                        std::iter::once(String::new()).chain(table.links().map(ChannelId::key)).collect();
                    for m in &marks {
                        table.owed_mut().delivered_of(m.salt, &m.seqs, "", &all);
                    }
                    marks
                } else {
                    Vec::new()
                };
                if commit {
                    table.bump_revision();
                }
                let records = std::mem::take(&mut ctx.new_records);
                let json = if commit { Some(table_json(&table)?) } else { None };
                let keep = Keep { durable: table.durable(), records: records_kept };
                Ok((Arc::new(table), result, json, records, keep, discard, carried))
            };
            let step = if quick {
                // (a step that panics is a failed command here too, as a
                // blocking thread's panic is: the person is answered)
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(step))
                    .map_err(|_| ServiceError::Failed("the command's step panicked".into()))?
            } else {
                tokio::task::spawn_blocking(step).await.map_err(|e| ServiceError::Failed(e.to_string()))?
            };
            let (table, result, json, records, keep, discard, carried) = match step {
                Ok(step) => step,
                Err(ServiceError::Damaged(d)) => return Err(ServiceError::Damaged(self.set_aside(ch, d).await)),
                Err(e) => return Err(e),
            };
            let Some(json) = json else {
                if discard {
                    // work that failed part of the way: this copy is not
                    // the stored table (taken out of the cache, it stays
                    // out: the next command reads the store)
                    return Ok((table, result));
                }
                if from_cache {
                    // nothing to commit: the table it was read on must be
                    // the stored one (one short read: its version)
                    match self.timed(self.store.version(ch)).await {
                        Ok(v) if v == version => {
                            self.cache(ch, version, &table);
                            return Ok((table, result));
                        }
                        Ok(_) => tracing::debug!("the table changed elsewhere; reading it"),
                        Err(e) => {
                            tracing::warn!(error = %e, "reading the table's version failed");
                            if !backoff.wait().await {
                                return Err(e);
                            }
                        }
                    }
                    continue;
                }
                if version > 0 && unclear.is_empty() {
                    // read from the store: kept for the next command
                    self.cache(ch, version, &table);
                }
                return Ok((table, result));
            };
            match self.timed(self.store.commit_kept(ch, version, &json, &records, keep)).await {
                Ok(Commit::Done(v)) => {
                    for r in &records {
                        crate::metrics::deal(doko_engine::Record::from_stored(r).is_ok_and(|r| r.aborted.is_some()));
                    }
                    self.marks_carried(ch, &carried);
                    self.cache(ch, v, &table);
                    return Ok((table, result));
                }
                Ok(Commit::Conflict) => {
                    tracing::debug!("conflict, retrying");
                    self.uncache(ch);
                    if !backoff.wait().await {
                        // a conflict may be an unclear try of ours that landed
                        if unclear.is_empty() {
                            crate::metrics::error("contention");
                            return Err(ServiceError::Contention);
                        }
                        spent = Some(ServiceError::Contention);
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "commit failed, outcome unclear; reading the table again");
                    self.uncache(ch);
                    unclear.push(Unclear { expected: version, json, table, result });
                    if !backoff.wait().await {
                        spent = Some(e);
                    }
                }
            }
        }
    }

    /// Applies the turn timeout of a channel: a reminder at half the
    /// `turn_timeout`, then the table's policy. Adapters call this
    /// periodically for their active channels.
    pub async fn tick(&self, ch: &ChannelId) -> Result<Outbox, ServiceError> {
        let Some(_flight) = self.take_off() else { return Ok(Outbox::new(ch.clone(), Lang::default())) };
        let span = info_span!("tick", channel = %ch);
        async {
            let now = self.now_ms();
            let strong = self.strong;
            let (durable, chan) = (self.durable, ch.clone());
            let (home, table, owed) = self
                .routed(ch, Once::Repeatable, move |table, ctx, bots| {
                    let events =
                        match table.check_timeout(now, ctx, &mut |level, view| decide(level, view, bots, strong)) {
                            Ok(ev) => ev,
                            Err(e) => {
                                tracing::error!(error = %e, "turn timeout failed");
                                // (the steps before it are not kept either)
                                ctx.discard = true;
                                Vec::new()
                            }
                        };
                    if events.is_empty() {
                        return (None, false);
                    }
                    table.update_clock(now);
                    let mut out = ticked(&chan, table, &events);
                    committed(&mut out);
                    if durable {
                        table.owed_mut().owe(&mut out, now, || bots.next_u64());
                    }
                    (Some(out), true)
                })
                .await?;
            let out = owed.unwrap_or_else(|| Outbox::new(ch.clone(), table.lang()));
            let mut out = route(out, &table, &home, ch);
            if !self.durable {
                return Ok(out);
            }
            // what this channel still owes (each channel of a shared
            // table catches up with its own turn clock)
            let relay = std::mem::take(&mut out.relay);
            let by = if home == *ch { String::new() } else { ch.key() };
            let mut out = route(self.catch_up(ch, &table, out, now, &by), &table, &home, ch);
            out.relay = relay;
            Ok(out)
        }
        .instrument(span)
        .await
    }

    /// Handles a line of text from a user.
    pub async fn handle(&self, ch: &ChannelId, actor: &Actor, text: &str) -> Result<Outbox, ServiceError> {
        self.handle_delivery_opt(ch, actor, text, None).await
    }

    /// Handles a line of text delivered with a platform id (an interaction
    /// or event id): a second delivery with the same id changes nothing.
    pub async fn handle_delivery(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        text: &str,
        delivery: &str,
    ) -> Result<Outbox, ServiceError> {
        self.handle_delivery_opt(ch, actor, text, Some(delivery)).await
    }

    async fn handle_delivery_opt(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        text: &str,
        delivery: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        if let Some(out) = self.admit(ch, actor).await? {
            return Ok(out);
        }
        match command::parse(text) {
            Ok(cmd) => self.run(ch, actor, cmd, delivery, None).await,
            Err(e) => {
                let (t, _) = self.table(ch).await?;
                let mut out = Outbox::new(ch.clone(), t.lang());
                out.actor = Some(actor.user.clone());
                out.private.push(private(&t, &actor.user, Kind::Error, render::parse_error(t.lang(), &e)));
                Ok(out)
            }
        }
    }

    /// Executes a command for a user.
    pub async fn execute(&self, ch: &ChannelId, actor: &Actor, cmd: Command) -> Result<Outbox, ServiceError> {
        self.execute_delivery(ch, actor, cmd, None).await
    }

    /// Executes a command delivered with an id (see
    /// [`Service::handle_delivery`]); `None` executes it unconditionally.
    pub async fn execute_delivery(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        cmd: Command,
        delivery: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        self.execute_stamped(ch, actor, cmd, delivery, None).await
    }

    /// Executes a command clicked on a hand made at `stamp` (see
    /// [`Input::Clicked`]); `None`: not from a hand.
    pub async fn execute_stamped(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        cmd: Command,
        delivery: Option<&str>,
        clicked: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        if let Some(out) = self.admit(ch, actor).await? {
            return Ok(out);
        }
        self.run(ch, actor, cmd, delivery, clicked).await
    }

    /// Executes a command (within the rate limits: see [`Service::admit`]).
    async fn run(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        cmd: Command,
        delivery: Option<&str>,
        clicked: Option<&str>,
    ) -> Result<Outbox, ServiceError> {
        // (no card in any field: the command's kind only)
        let kind = CommandKind::of(&cmd).name();
        let Some(_flight) = self.take_off() else {
            crate::metrics::command(kind, "closing", 0.0);
            return Ok(restarting(ch, &actor.user));
        };
        let span =
            info_span!("command", channel = %ch, user = %actor.user, command = kind, delivery = delivery.unwrap_or(""));
        let started = std::time::Instant::now();
        crate::metrics::touched(ch);
        let mut outcome = "error";
        let r = async {
            let now = self.now_ms();
            let strong = self.strong;
            // the server's defaults, fetched when the table does not know
            // the server the command comes from (once per channel)
            // (the defaults, and whether the channel is known to belong to
            // the server: a table that does not know its server yet waits
            // for the channel to join it)
            let mut joined: Option<(ServerLayer, bool)> = match &actor.server {
                Some(sid) => self.fresh_layer(sid).await.map(|l| (l, false)),
                None => None,
            };
            let (home, table, applied) = loop {
                let (durable, chan) = (self.durable, ch.clone());
                let (who, what, id) = (actor.clone(), cmd.clone(), delivery.map(str::to_string));
                let clicked = clicked.map(str::to_string);
                let once = match &id {
                    Some(id) => Once::Delivery(id.clone()),
                    None => Once::Unguarded,
                };
                let server = joined.clone();
                let r = self
                    .routed(ch, once, move |table, ctx, bots| {
                        let mut relayered = false;
                        if ctx.via.is_some() {
                            // through a linked channel: the table is its
                            // home's, of the home's server
                        } else if let Some(sid) = &who.server {
                            let knows = table.server().is_some_and(|s| s.id == sid.to_string());
                            match &server {
                                Some((layer, joined)) if knows || *joined => {
                                    relayered = table.set_server(layer.clone())
                                }
                                _ if !knows => return (Applied::NeedsServer, false),
                                _ => {}
                            }
                        } else if who.server_checked && !who.direct {
                            // the platform says the channel belongs to no
                            // server (a room that left its space)
                            relayered = table.leave_server();
                        }
                        if let Some(id) = &id
                            && !table.remember_delivery(id)
                        {
                            tracing::debug!("duplicate delivery ignored");
                            return (Applied::Duplicate(table.refusal_of(id).map(str::to_string)), relayered);
                        }
                        // a move that is refused leaves the table as it
                        // was (`Table::apply`): only another command's table
                        // is kept to put back, and to tell whether it changed
                        let is_move = what.is_move();
                        let before = (!is_move).then(|| table.clone());
                        let moves = table.moves();
                        // a person whose time ran out is back with any command
                        let back = table.hand_back(&who.user);
                        let after_back = (!back.is_empty() && !is_move).then(|| table.clone());
                        // what a command that does not go through leaves: the
                        // table as it was, or with the person back (a move
                        // left it so)
                        let restore = |table: &mut Table| {
                            if let Some(t) = after_back.as_ref().or(before.as_ref()) {
                                *table = t.clone();
                            }
                        };
                        // and the delivery remembered as refused with its
                        // answer (so that it is never applied later)
                        let refuse = |table: &mut Table, answer: &str| {
                            if !back.is_empty() {
                                table.update_clock(now);
                            }
                            if let Some(id) = &id {
                                table.remember_refusal(id, answer);
                            }
                            !back.is_empty() || id.is_some()
                        };
                        if let Some(at) = &clicked
                            && is_move
                            && stamp(table, &who.user).as_deref() != Some(at.as_str())
                        {
                            let commit = refuse(table, &render::stale(table.lang()));
                            return (Applied::Stale(back), commit || relayered);
                        }
                        let mut events = back.clone();
                        // `back` from a person the clock replaced is done already
                        let done = !back.is_empty() && what == Command::Back;
                        match if done { Ok(Vec::new()) } else { table.apply(&who, &what, ctx) } {
                            Ok(ev) => events.extend(ev),
                            Err(e) => {
                                restore(table);
                                let text = refusal(table, &e);
                                let commit = refuse(table, &text);
                                return (Applied::Refused(text, back), commit || relayered);
                            }
                        }
                        match table.run_computers(ctx, &mut |level, view| decide(level, view, bots, strong)) {
                            Ok(ev) => events.extend(ev),
                            Err(e) => {
                                tracing::error!(error = %e, "computer players failed");
                                // (what the command and the computers did is
                                // dropped: the next command reads the store)
                                ctx.discard = true;
                                let text = refusal(table, &e);
                                return (Applied::Refused(text, Vec::new()), false);
                            }
                        }
                        table.update_clock(now);
                        // (a server's change is made after this commit: the
                        // delivery is remembered here, so it is made once)
                        // (a move that goes through counts a move: the whole
                        // table is compared only when no move was made)
                        let commit = table.moves() != moves
                            || before.as_ref().is_some_and(|b| table != b)
                            || !back.is_empty()
                            || !ctx.new_records.is_empty()
                            || relayered
                            || (id.is_some() && matches!(what, Command::Server(_)));
                        let owed = (durable && commit).then(|| {
                            let mut out = compose(&chan, table, &who.user, &what, &events);
                            committed(&mut out);
                            table.owed_mut().owe(&mut out, now, || bots.next_u64());
                            Box::new(out)
                        });
                        (Applied::Done(events, owed), commit)
                    })
                    .await?;
                match (&r.2, &actor.server) {
                    (Applied::NeedsServer, Some(sid)) if !joined.as_ref().is_some_and(|(_, j)| *j) => {
                        joined = Some((self.join_server(ch, sid).await?, true));
                    }
                    (Applied::NeedsServer, _) => return Err(ServiceError::Failed("the server's defaults".into())),
                    _ => break r,
                }
            };
            outcome = match &applied {
                Applied::Duplicate(_) | Applied::NeedsServer => "duplicate",
                Applied::Refused(..) => "refused",
                Applied::Done(..) => "done",
                Applied::Stale(_) => "stale",
            };
            let out = match applied {
                Applied::NeedsServer => Err(ServiceError::Failed("the server's defaults".into())),
                Applied::Duplicate(None) if matches!(cmd, Command::Link(Some(_))) => {
                    // made again: nothing made twice
                    let Command::Link(Some(code)) = &cmd else { unreachable!() };
                    return self.link_join(ch, (&home, table.lang()), actor, code, Vec::new()).await;
                }
                Applied::Duplicate(None) if matches!(cmd, Command::Server(_)) => {
                    // the change may not have been made (a crash after the
                    // delivery was remembered): making it again changes
                    // nothing made already
                    let Command::Server(sc) = &cmd else { unreachable!() };
                    let (t, event) = self.server_command(ch, actor, sc).await?;
                    let mut out = compose(ch, &t, &actor.user, &cmd, &[event]);
                    out.duplicate = true;
                    Ok(out)
                }
                Applied::Duplicate(refused) => {
                    let mut out = Outbox::new(ch.clone(), table.lang());
                    out.actor = Some(actor.user.clone());
                    out.duplicate = true;
                    if let Some(text) = refused {
                        out.private.push(private(&table, &actor.user, Kind::Error, text));
                    }
                    Ok(out)
                }
                Applied::Refused(text, back) => {
                    let mut out = Outbox::new(ch.clone(), table.lang());
                    out.actor = Some(actor.user.clone());
                    out.private.push(private(&table, &actor.user, Kind::Error, text));
                    if !back.is_empty() {
                        out.table = Some(table_message(&table, &back));
                    }
                    Ok(out)
                }
                Applied::Done(events, owed) => {
                    #[cfg(feature = "failpoints")]
                    crate::failpoint::hit("after-commit");
                    // what the command owes was stored with it: its
                    // delivery is this answer's
                    let seqs = owed.as_ref().map(|o| o.owed.clone()).unwrap_or_default();
                    match &cmd {
                        Command::Server(sc) => {
                            let (t, event) = self.server_command(ch, actor, sc).await?;
                            let mut all = events.clone();
                            all.push(event);
                            // (a linked channel's own table took the change,
                            // for when it is unlinked: the answer shows the
                            // table it shares)
                            let shown = if home == *ch { &t } else { &table };
                            let mut out = compose(ch, shown, &actor.user, &cmd, &all);
                            out.owed = seqs;
                            Ok(out)
                        }
                        Command::Link(Some(code)) => {
                            return self.link_join(ch, (&home, table.lang()), actor, code, seqs).await;
                        }
                        Command::Link(None) => self.link_code(&home, &table, actor, seqs).await,
                        Command::Unlink => {
                            let out = match owed {
                                Some(out) => *out,
                                None => compose(ch, &table, &actor.user, &cmd, &events),
                            };
                            return self.unlinked(ch, &home, &table, actor, &events, out).await;
                        }
                        // (what is read beyond the table is read at the
                        // table's own key: its records, its server)
                        _ => match owed {
                            Some(mut out) => {
                                self.queries(&home, &table, actor, &cmd, &mut out).await?;
                                Ok(*out)
                            }
                            None => self.outbox(ch, &home, &table, actor, &cmd, &events).await,
                        },
                    }
                }
                Applied::Stale(back) => {
                    let mut out = Outbox::new(ch.clone(), table.lang());
                    out.actor = Some(actor.user.clone());
                    if !back.is_empty() {
                        out.table = Some(table_message(&table, &back));
                    }
                    let text = render::stale(table.lang());
                    out.private.push(private(&table, &actor.user, Kind::Error, text));
                    if let Some(p) = hand_private(&table, ch, &actor.user) {
                        out.private.push(p);
                    }
                    Ok(out)
                }
            };
            out.map(|o| route(o, &table, &home, ch))
        }
        .instrument(span)
        .await;
        crate::metrics::command(kind, outcome, started.elapsed().as_secs_f64());
        r
    }

    /// What a command owes: the answer to the person, the table message
    /// when something happened (or the table was asked for), the hands.
    async fn outbox(
        &self,
        ch: &ChannelId,
        home: &ChannelId,
        t: &Table,
        actor: &Actor,
        cmd: &Command,
        events: &[Event],
    ) -> Result<Outbox, ServiceError> {
        let mut out = compose(ch, t, &actor.user, cmd, events);
        self.queries(home, t, actor, cmd, &mut out).await?;
        Ok(out)
    }

    /// The answers read from the store beyond the table: a record, a
    /// server's leaderboard, one's own figures.
    async fn queries(
        &self,
        ch: &ChannelId,
        t: &Table,
        actor: &Actor,
        cmd: &Command,
        out: &mut Outbox,
    ) -> Result<(), ServiceError> {
        match cmd {
            Command::Record(n) => self.record_answer(ch, t, &actor.user, *n, out).await,
            Command::Analysis(n) => self.analysis_answer(ch, t, &actor.user, *n, out).await,
            Command::Leaderboard(p) => {
                let (server, tables) = self.community(ch, t).await?;
                let month = crate::table::month_of(self.now_ms());
                let mut all = crate::table::Stats::default();
                for (_, x) in &tables {
                    match p {
                        Period::All => all.merge(x.stats()),
                        Period::Month => all.merge(x.month_stats(&month).unwrap_or(&Default::default())),
                    }
                }
                let period = (*p == Period::Month).then_some(month.as_str());
                let text = render::leaderboard(t.lang(), server, period, tables.len(), &render::ranking(&all));
                out.notices.push(Notice::new(Kind::Stats, text, None));
                Ok(())
            }
            Command::Me => {
                let (server, tables) = self.community(ch, t).await?;
                let text = me_text(ch, t, &actor.user, server, &tables, &crate::table::month_of(self.now_ms()));
                // one's own figures go where only they can read them (a
                // direct room on Matrix), held or not
                out.private.push(Private { confidential: true, ..private(t, &actor.user, Kind::Stats, text) });
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The tables a leaderboard spans: every table of the server this
    /// one belongs to (this one as it is now), or this one alone; and
    /// whether it is a server's. A table that cannot be read is left out
    /// (and logged).
    async fn community(&self, ch: &ChannelId, t: &Table) -> Result<(bool, Vec<(ChannelId, Table)>), ServiceError> {
        let mut out = vec![(ch.clone(), t.clone())];
        let Some(sid) = t.server().and_then(|s| ServerId::from_key(&s.id)) else { return Ok((false, out)) };
        let (settings, _) = self.server_settings(&sid).await?;
        for other in settings.channel_ids() {
            if &other == ch {
                continue;
            }
            let stored = match self.timed(self.store.load(&other)).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(channel = %other, error = %e, "a table of the server cannot be loaded");
                    None
                }
            };
            if let Some(stored) = stored {
                match read_stored(Some(stored), &self.new_tables) {
                    // (a channel that moved to another server counts there)
                    Ok((table, _)) if table.server().is_some_and(|s| s.id == sid.to_string()) => {
                        out.push((other, table))
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(channel = %other, error = %e, "a table of the server cannot be read"),
                }
            }
        }
        Ok((true, out))
    }

    /// A server's stored settings and their version (0: none yet).
    async fn server_settings(&self, sid: &ServerId) -> Result<(ServerSettings, u64), ServiceError> {
        match self.timed(self.store.load(&sid.channel())).await? {
            None => Ok((ServerSettings::new(sid), 0)),
            Some(s) => match serde_json::from_str::<ServerSettings>(&s.json) {
                Ok(settings) => Ok((settings, s.version)),
                Err(e) => {
                    // the channels go on with their own settings; the
                    // server's next change writes them anew
                    tracing::error!(server = %sid, error = %e, "a server's settings cannot be read: no server defaults");
                    Ok((ServerSettings::new(sid), s.version))
                }
            },
        }
    }

    /// Changes a server's settings with the store's compare-and-set
    /// (again on a conflict, within the usual budget): `change` says
    /// whether it changed anything. Returns them as stored and their
    /// version.
    async fn update_server(
        &self,
        sid: &ServerId,
        change: impl Fn(&mut ServerSettings) -> Result<bool, CommandError>,
    ) -> Result<(ServerSettings, u64), ServiceError> {
        let mut backoff = Backoff::new(self.next_u64());
        loop {
            let (mut settings, version) = self.server_settings(sid).await?;
            if !change(&mut settings).map_err(|e| ServiceError::Failed(e.to_string()))? {
                return Ok((settings, version));
            }
            settings.revision += 1;
            let json = serde_json::to_string(&settings)?;
            let keep = Keep { durable: true, records: 0 };
            match self.timed(self.store.commit_kept(&sid.channel(), version, &json, &[], keep)).await? {
                Commit::Done(v) => return Ok((settings, v)),
                Commit::Conflict if backoff.wait().await => continue,
                Commit::Conflict => return Err(ServiceError::Contention),
            }
        }
    }

    /// Adds a channel to its server (once) and returns the server's
    /// defaults for its table.
    async fn join_server(&self, ch: &ChannelId, sid: &ServerId) -> Result<ServerLayer, ServiceError> {
        let key = ch.key();
        let (settings, _) = self
            .update_server(sid, |s| {
                let new = s.channels.insert(key.clone());
                if new {
                    tracing::info!(channel = %ch, server = %sid, "a channel joined its server");
                }
                Ok(new)
            })
            .await?;
        let layer = settings.layer_for(sid);
        self.cache_layer(sid, &layer);
        Ok(layer)
    }

    /// How long a process takes a server's defaults it read as current
    /// (a change made elsewhere reaches a table at the latest after this,
    /// should the change's own delivery to the table have failed).
    const SERVER_FRESH_MS: u64 = 5_000;

    /// Remembers a server's defaults as read now.
    fn cache_layer(&self, sid: &ServerId, layer: &ServerLayer) {
        let mut c = self.servers.lock().expect("lock");
        if c.get(sid).is_none_or(|(_, l)| l.version <= layer.version) {
            c.insert(sid.clone(), (self.now_ms(), layer.clone()));
        }
    }

    /// A server's defaults, read at most [`Self::SERVER_FRESH_MS`] ago
    /// (read now otherwise; `None` when they cannot be read: the table
    /// keeps its copy).
    async fn fresh_layer(&self, sid: &ServerId) -> Option<ServerLayer> {
        let now = self.now_ms();
        if let Some((at, l)) = self.servers.lock().expect("lock").get(sid)
            && now.saturating_sub(*at) < Self::SERVER_FRESH_MS
        {
            return Some(l.clone());
        }
        match self.server_settings(sid).await {
            Ok((settings, _)) => {
                let layer = settings.layer_for(sid);
                self.cache_layer(sid, &layer);
                Some(layer)
            }
            Err(e) => {
                tracing::warn!(server = %sid, error = %e, "reading a server's settings failed");
                None
            }
        }
    }

    /// `link` (no code): the code made at the table, stored where the
    /// other channel's `link CODE` finds the table, and told to the admin
    /// who asked only.
    async fn link_code(
        &self,
        home: &ChannelId,
        t: &Table,
        actor: &Actor,
        seqs: Vec<u64>,
    ) -> Result<Outbox, ServiceError> {
        let l = t.lang();
        let code = t.link_code(self.now_ms()).map(|c| c.code.clone()).ok_or(ServiceError::Contention)?;
        let key = ChannelId::link_code(home.platform, &code);
        let json = serde_json::to_string(home)?;
        let version = self.timed(self.store.version(&key)).await?;
        let keep = Keep { durable: false, records: 0 };
        if let Commit::Conflict = self.timed(self.store.commit_kept(&key, version, &json, &[], keep)).await? {
            return Err(ServiceError::Contention);
        }
        tracing::info!(channel = %home, "a link code was made");
        let mut out = Outbox::new(home.clone(), l);
        out.actor = Some(actor.user.clone());
        out.owed = seqs;
        let minutes = crate::table::LINK_CODE_MS / 60_000;
        let text = tr!(l, "link-code", code = code.as_str(), minutes = minutes);
        // (a code is for the admin who asked: never in the channel)
        out.private.push(Private { confidential: true, ..Private::new(actor.user.clone(), Kind::Help, text) });
        Ok(out)
    }

    /// `link CODE` in `ch`: the table the code was made at takes the
    /// channel (the code is used up), then the channel shares it; both
    /// channels are told, and `ch` gets the table message. Made again, it
    /// changes nothing made already.
    async fn link_join(
        &self,
        ch: &ChannelId,
        (routed, lang): (&ChannelId, Lang),
        actor: &Actor,
        code: &str,
        seqs: Vec<u64>,
    ) -> Result<Outbox, ServiceError> {
        let refuse = |e: CommandError| {
            let mut out = refused(ch, &actor.user, render::error(lang, &e));
            out.lang = lang;
            out.owed = seqs.clone();
            Ok(out)
        };
        if routed != ch {
            // (already sharing a table: a code, right or wrong, changes
            // nothing)
            return refuse(CommandError::LinkedElsewhere);
        }
        // the table the code was made at: on another platform
        let mut home = None;
        for p in [Platform::Discord, Platform::Matrix, Platform::Terminal].into_iter().filter(|p| *p != ch.platform) {
            if let Some(s) = self.timed(self.store.load(&ChannelId::link_code(p, code))).await?
                && let Ok(h) = serde_json::from_str::<ChannelId>(&s.json)
            {
                home = Some(h);
                break;
            }
        }
        let Some(home) = home else { return refuse(CommandError::NoLinkCode) };
        let now = self.now_ms();
        // the channel points at the home first: a crash before the home
        // takes it leaves the channel its own table (the home does not
        // list it), and the same code can be typed again
        let h = home.clone();
        let (_, pointed) = self
            .transact_key(ch, Once::Repeatable, move |t, _, _| {
                if t.linked_to() == Some(&h) {
                    return (Ok(()), false);
                }
                if t.linked_to().is_some() || t.links().next().is_some() {
                    return (Err(CommandError::LinkedElsewhere), false);
                }
                (Ok(()), t.set_linked_to(Some(h.clone()), now))
            })
            .await?;
        if let Err(e) = pointed {
            return refuse(e);
        }
        let (h, c, typed) = (home.clone(), ch.clone(), code.to_string());
        let (t, r) = self
            .transact_key(&home, Once::Repeatable, move |t, _, _| match t.accept_link(&h, &c, &typed, now) {
                Ok(changed) => (Ok(changed), changed),
                Err(e) => (Err(e), false),
            })
            .await?;
        let made = match r {
            Ok(made) => made,
            Err(e) => {
                let h = home.clone();
                self.transact_key(ch, Once::Repeatable, move |t, _, _| {
                    let mine = t.linked_to() == Some(&h);
                    ((), mine && t.set_linked_to(None, now))
                })
                .await?;
                return refuse(e);
            }
        };
        self.aliases.lock().expect("lock").insert(ch.clone(), home.clone());
        if made {
            tracing::info!(channel = %ch, home = %home, "a channel now shares a table");
        }
        let l = t.lang();
        let mut base = Outbox::new(home.clone(), l);
        base.table = Some(table_message(&t, &[]));
        let mut out = route(base, &t, &home, ch);
        out.actor = Some(actor.user.clone());
        // (what the channel's own table owed is its own: not the home's
        // entries of the same numbers)
        drop(seqs);
        let text = tr!(l, "link-done", other = crate::server::foreign_label(l, &home));
        out.notices.push(Notice::new(Kind::Help, text, None));
        for o in &mut out.relay {
            let text = tr!(l, "link-done", other = crate::server::foreign_label(l, ch));
            o.notices.push(Notice::new(Kind::Help, text, None));
        }
        Ok(out)
    }

    /// After `unlink`: the channels it dropped are their own tables again
    /// and are told so; the home's table message says it. The answer goes
    /// where the command was given.
    async fn unlinked(
        &self,
        ch: &ChannelId,
        home: &ChannelId,
        t: &Table,
        actor: &Actor,
        events: &[Event],
        out: Outbox,
    ) -> Result<Outbox, ServiceError> {
        let gone: Vec<ChannelId> = events
            .iter()
            .find_map(|e| match e {
                Event::Unlinked(g) => Some(g.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let l = t.lang();
        let mut parts = Vec::new();
        for g in &gone {
            let h = home.clone();
            let r = self
                .transact_key(g, Once::Repeatable, move |t, ctx, _| {
                    let mine = t.linked_to() == Some(&h);
                    (mine, mine && t.set_linked_to(None, ctx.now_ms))
                })
                .await;
            if let Err(e) = r {
                // (its next command finds the home without it: its own table)
                tracing::warn!(channel = %g, error = %e, "a channel unlinked could not be told so");
            }
            self.aliases.lock().expect("lock").remove(g);
            tracing::info!(channel = %g, home = %home, "a channel no longer shares a table");
            let mut o = Outbox::new(g.clone(), l);
            let text = tr!(l, "link-ended", other = crate::server::foreign_label(l, home));
            o.notices.push(Notice::new(Kind::Help, text, None));
            parts.push(o);
        }
        let mut main = part(&out, t, std::slice::from_ref(home), home, home);
        match parts.iter().position(|p| &p.channel == ch) {
            Some(i) => {
                let mut mine = parts.remove(i);
                mine.actor = Some(actor.user.clone());
                main.actor = None;
                mine.relay.push(main);
                mine.relay.extend(parts);
                Ok(mine)
            }
            None => {
                main.relay.extend(parts);
                Ok(main)
            }
        }
    }

    /// Hands the parts of an outbox for other platforms' channels to
    /// their front ends (see [`Outbox::relay`]); a platform this process
    /// does not serve gets them from the durable outbox, by a process that
    /// does.
    fn send_relays(&self, out: &mut Outbox) {
        for part in std::mem::take(&mut out.relay) {
            if part.is_empty() && part.owed.is_empty() {
                continue;
            }
            let tx = self.relays.lock().expect("lock").get(&part.channel.platform).cloned();
            let unsent = match tx {
                Some(tx) => tx.send(part).err().map(|e| e.0),
                None => Some(part),
            };
            if let Some(part) = unsent {
                tracing::debug!(channel = %part.channel, "no front end of this platform here: left to one that has");
            }
        }
    }

    /// A server admin's change of the server's defaults: made on the
    /// server's settings, then taken by each of its tables (a table busy
    /// or unreadable now takes it with a later command, see
    /// [`Self::fresh_layer`]). Returns this channel's table and the event
    /// that says how many took it.
    async fn server_command(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        sc: &ServerCmd,
    ) -> Result<(Table, Event), ServiceError> {
        let sid = actor.server.clone().ok_or_else(|| ServiceError::Failed(CommandError::NoServer.to_string()))?;
        let key = ch.key();
        let (settings, _) = self
            .update_server(&sid, |s| {
                crate::table::server_change(&mut s.layer, sc)?;
                s.channels.insert(key.clone());
                Ok(true)
            })
            .await?;
        let layer = settings.layer_for(&sid);
        self.cache_layer(&sid, &layer);
        let mut took = 0;
        let mut here: Option<Arc<Table>> = None;
        for other in settings.channel_ids() {
            let l = layer.clone();
            // (a channel linked to another table keeps the server's
            // defaults on its own, for when it is unlinked)
            let r = self
                .transact_key(&other, Once::Repeatable, move |t, _, _| {
                    // a channel whose table is gone is not made again, and
                    // one that moved to another server is that one's now
                    if t.revision() == 0 || t.server().is_some_and(|s| s.id != l.id) {
                        return (false, false);
                    }
                    let changed = t.set_server(l.clone());
                    // it holds this change now (or a later one)
                    (t.server().is_some_and(|s| s.id == l.id && s.version >= l.version), changed)
                })
                .await;
            match r {
                Ok((t, kept)) => {
                    took += usize::from(kept);
                    if &other == ch {
                        here = Some(t);
                    }
                }
                Err(e) => tracing::warn!(channel = %other, error = %e, "a table did not take the server's defaults"),
            }
        }
        let t = match here {
            // (a server command is rare: a copy of the table is no cost)
            Some(t) => Arc::unwrap_or_clone(t),
            None => self.table(ch).await?.0,
        };
        let event = Event::ServerChanged {
            name: actor.name.clone(),
            change: Command::Server(sc.clone()).to_string(),
            channels: took,
        };
        Ok((t, event))
    }

    /// A record asked for, as the person's answer (records are read from
    /// the store, so they are not part of what a change owes).
    async fn record_answer(
        &self,
        ch: &ChannelId,
        t: &Table,
        me: &UserId,
        n: Option<u32>,
        out: &mut Outbox,
    ) -> Result<(), ServiceError> {
        let n = n.unwrap_or(t.records());
        let text = match self.timed(self.store.record(ch, n)).await? {
            // kept compact, handed out as `doko-record/1` (what `doko
            // replay` reads); one that cannot be read is handed out as kept
            Some(r) => doko_engine::Record::from_stored(&r).map_or(r, |rec| rec.to_json()),
            None => tr!(t.lang(), "no-such-record"),
        };
        out.private.insert(0, private(t, me, Kind::Record, text));
        Ok(())
    }

    /// `analysis`: the person's card choices in their newest recorded deal
    /// (or record `n`) examined again from their own view, on a blocking
    /// thread; the same deal gives the same answer (seeded by it).
    async fn analysis_answer(
        &self,
        ch: &ChannelId,
        t: &Table,
        me: &UserId,
        n: Option<u32>,
        out: &mut Outbox,
    ) -> Result<(), ServiceError> {
        let l = t.lang();
        let text = match t.analysable(me, n) {
            Err(e) => render::error(l, &e),
            Ok((number, seat)) => match self.timed(self.store.record(ch, number)).await? {
                Some(r) => match doko_engine::Record::from_stored(&r) {
                    Ok(rec) => {
                        let seed = u64::from(number) << 8 | seat.index() as u64;
                        let cfg = doko_players::analysis::AnalysisConfig::default();
                        let a = tokio::task::spawn_blocking(move || {
                            doko_players::analysis::analyse(&rec, seat, &cfg, seed)
                        })
                        .await
                        .map_err(|e| ServiceError::Failed(e.to_string()))?;
                        render::analysis(l, number, &a)
                    }
                    Err(_) => tr!(l, "no-such-record"),
                },
                None => tr!(l, "no-such-record"),
            },
        };
        out.private.insert(0, private(t, me, Kind::Record, text));
        Ok(())
    }

    /// Adds to `out` what this table owes from changes another process (or
    /// this one's earlier life) made and did not deliver, then the prompt:
    /// the table as it stands, the person to act mentioned, their hand.
    fn catch_up(&self, ch: &ChannelId, t: &Table, out: Outbox, now: u64, by: &str) -> Outbox {
        let left: Vec<_> = t
            .owed()
            .left(now, self.base_ms, OWED_GRACE_MS, by)
            .into_iter()
            .filter(|e| !out.owed.contains(&e.seq))
            .collect();
        if left.is_empty() {
            return out;
        }
        tracing::info!(channel = %ch, entries = left.len(), "delivering what the table still owes");
        let mut c = Outbox::new(ch.clone(), t.lang());
        let mut events: Vec<String> = Vec::new();
        let mut key = None;
        let mut hands: Vec<UserId> = Vec::new();
        let own = OwedEntry {
            seq: out.owed.last().copied().unwrap_or(0),
            at_ms: now,
            table: out.table.clone(),
            notices: out.notices.clone(),
            private: out.private.iter().filter(|p| p.kind != Kind::Hand).cloned().collect(),
            hands: out.private.iter().filter(|p| p.kind == Kind::Hand).map(|p| p.to.clone()).collect(),
            actor: None,
            done: Vec::new(),
        };
        let last = own.seq.max(left.last().map_or(0, |e| e.seq));
        for e in left.iter().chain(std::iter::once(&own)) {
            if let Some(tm) = &e.table {
                events.extend(tm.events.clone());
                key = tm.key.clone().or(key);
            }
            c.notices.extend(e.notices.iter().cloned());
            c.private.extend(e.private.iter().cloned());
            for u in &e.hands {
                if !hands.contains(u) {
                    hands.push(u.clone());
                }
            }
        }
        c.owed = left.iter().map(|e| e.seq).chain(out.owed.iter().copied()).collect();
        c.owed_salt = t.owed().salt();
        let mut table = table_message(t, &[]);
        table.events = (!events.is_empty()).then(|| events.join("\n"));
        table.key = key;
        let to_act = to_act(t);
        if let Some(u) = &to_act {
            c.notices.push(Notice {
                kind: Kind::Events,
                text: table.your_turn.clone(),
                mention: Some(u.clone()),
                key: Some(t.owed().key(last, "prompt")),
                picture: None,
            });
            if !hands.contains(u) {
                hands.push(u.clone());
            }
        }
        c.table = Some(table);
        for (i, u) in hands.iter().enumerate() {
            if let Some(mut p) = hand_private(t, ch, u).or_else(|| kiebitz_private(t, u)) {
                p.key = Some(t.owed().key(last, &format!("h{i}")));
                c.private.push(p);
            }
        }
        c
    }
}

/// An outbox made inside a change that is about to be committed: its table
/// message has the revision the commit gives the table.
fn committed(out: &mut Outbox) {
    if let Some(t) = &mut out.table {
        t.revision += 1;
    }
}

/// What the turn clock's change owes: the table message, the hand of the
/// person to act.
fn ticked(ch: &ChannelId, table: &Table, events: &[Event]) -> Outbox {
    let mut out = Outbox::new(ch.clone(), table.lang());
    out.notices.extend(results(table, events));
    out.table = Some(table_message(table, events));
    if let Some(u) = to_act(table)
        && let Some(p) = hand_private(table, ch, &u)
    {
        out.private.push(p);
    }
    for_spectators(table, None, events, &mut out);
    out
}

/// What spectators get with a change besides the public table (which
/// shows the deal revealed once it is over): a spectator let see a
/// player's hand gets it when a deal is dealt or when it was just shown to
/// them (a direct message where the platform has them). Never anyone
/// else's hand.
fn for_spectators(t: &Table, cmd: Option<&Command>, events: &[Event], out: &mut Outbox) {
    let dealt = events.iter().any(|e| matches!(e, Event::Dealt { .. }));
    let granted = matches!(cmd, Some(Command::Kiebitz(Some(_))));
    for s in t.spectators() {
        let u = s.user();
        if (dealt || granted)
            && !out.private.iter().any(|p| &p.to == u && p.kind == Kind::Hand)
            && let Some(p) = kiebitz_private(t, u)
        {
            out.private.push(p);
        }
    }
}

/// The hand a spectator may see (the Kiebitz custom): the text only, no
/// buttons, as confidential as the player's own hand.
fn kiebitz_private(t: &Table, to: &UserId) -> Option<Private> {
    let (name, v) = t.kiebitz_view(to)?;
    let l = t.lang();
    let text = tr!(l, "kiebitz-hand", name = name, cards = l.cards(v.sorted_hand()));
    let picture = render::hand_picture(t, &v);
    Some(Private { confidential: true, dm: true, picture, ..private(t, to, Kind::Hand, text) })
}

/// What a command owes: the answer to the person, the table message when
/// something happened (or the table was asked for), the hands. (A record
/// asked for is read from the store afterwards.)
fn compose(ch: &ChannelId, t: &Table, me: &UserId, cmd: &Command, events: &[Event]) -> Outbox {
    {
        let l = t.lang();
        let mut out = Outbox::new(ch.clone(), l);
        out.actor = Some(me.clone());
        let notice = |kind, text| Notice::new(kind, text, None);
        match cmd {
            Command::Help(topic) => {
                out.private.push(private(t, me, Kind::Help, render::help_text(l, topic.as_deref(), ch.platform)));
            }
            Command::Score => out.notices.push(notice(Kind::Score, render::score(t))),
            Command::LastTrick => out.private.push(private(t, me, Kind::Table, render::last_trick(t))),
            Command::Stats => out.notices.push(notice(Kind::Stats, render::stats(t))),
            Command::List(n) => out.notices.push(notice(Kind::Score, render::list(t, *n))),
            Command::Rules(RulesCmd::Show) => {
                out.notices.extend(render::rules_parts(t).into_iter().map(|p| notice(Kind::Rules, p)))
            }
            Command::Record(_) | Command::Analysis(_) => {}
            Command::Dm(on) => {
                out.private.push(private(t, me, Kind::Help, if *on { tr!(l, "dm-on") } else { tr!(l, "dm-off") }))
            }
            Command::Hand => match hand_private(t, ch, me) {
                Some(p) => out.private.push(p),
                None => match kiebitz_private(t, me) {
                    // asked for: the answer, not also a direct message
                    Some(p) => out.private.push(Private { dm: false, ..p }),
                    None => out.private.push(private(t, me, Kind::Error, tr!(l, "no-cards"))),
                },
            },
            _ => {}
        }
        let changed = !events.is_empty();
        out.notices.splice(0..0, results(t, events));
        if changed || matches!(cmd, Command::Table) {
            out.table = Some(table_message(t, events));
        }
        if changed {
            // hands: everyone at a new deal, else the actor and whoever acts next
            let dealt = events.iter().any(|e| matches!(e, Event::Dealt { .. }));
            let next = to_act(t);
            let mut users: Vec<&UserId> = Vec::new();
            for s in t.seats().iter() {
                if let Some(user) = s.user()
                    && (dealt || user == me || next.as_ref() == Some(user))
                    && !users.contains(&user)
                {
                    users.push(user);
                }
            }
            for u in users {
                if let Some(p) = hand_private(t, ch, u) {
                    out.private.push(p);
                }
            }
            for_spectators(t, Some(cmd), events, &mut out);
        }
        out
    }
}

/// What each channel of a shared table (`link`) gets of an outbox made for
/// `asked` (the channel the command or turn clock came through): the
/// outbox for `asked`, with the others' in [`Outbox::relay`]. A table of
/// one channel: the outbox as it is.
fn route(out: Outbox, t: &Table, home: &ChannelId, asked: &ChannelId) -> Outbox {
    if (t.links().next().is_none() && home == asked) || out.duplicate || out.unavailable {
        return out;
    }
    let channels: Vec<ChannelId> = std::iter::once(home.clone()).chain(t.links().cloned()).collect();
    if !channels.contains(asked) {
        return out;
    }
    let mut main = part(&out, t, &channels, asked, asked);
    // (a part with nothing to send that marks owed entries delivered goes
    // all the same)
    main.relay = channels
        .iter()
        .filter(|c| *c != asked)
        .map(|c| part(&out, t, &channels, c, asked))
        .filter(|p| !p.is_empty() || !p.owed.is_empty())
        .collect();
    main
}

/// One channel's part of an outbox at a shared table: the table message
/// with that channel's message id; notices (a mention of a person of
/// another platform left out, the prompt to them dropped); the private
/// messages of the people of its platform (their hands acting here); the
/// answer to the person who gave the command only where they gave it.
fn part(out: &Outbox, t: &Table, channels: &[ChannelId], x: &ChannelId, asked: &ChannelId) -> Outbox {
    let home = &channels[0];
    let mut o = out.clone();
    o.relay.clear();
    o.channel = x.clone();
    let via = (x != home).then_some(x);
    if let Some(tm) = &mut o.table {
        tm.display = t.display_for(via).cloned();
        if channels.len() > 1 {
            tm.home = home.key();
        }
        if tm.to_act.as_ref().is_some_and(|u| u.platform != x.platform) {
            tm.to_act = None;
        }
    }
    o.notices.retain_mut(|n| match &n.mention {
        Some(u) if u.platform != x.platform => {
            n.mention = None;
            n.kind != Kind::Events
        }
        _ => true,
    });
    // (people of a platform no channel of the table is on: at the home)
    let here =
        |u: &UserId| u.platform == x.platform || (x == home && !channels.iter().any(|c| c.platform == u.platform));
    o.private.retain(|p| here(&p.to));
    for p in &mut o.private {
        if let Some(h) = &mut p.hand {
            h.channel = x.clone();
        }
    }
    if x != asked {
        o.actor = None;
        o.duplicate = false;
        o.unavailable = false;
    }
    o
}

/// A deal's result as its own message (with the whole deal as a picture
/// where the table shows pictures): it stays in the channel, where the
/// table message moves on with the next deal.
fn results(t: &Table, events: &[Event]) -> Vec<Notice> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored(s) => {
                let text = render::events(t, std::slice::from_ref(e))?;
                Some(Notice { picture: render::deal_picture(t, s), ..Notice::new(Kind::Result, text, None) })
            }
            _ => None,
        })
        .collect()
}

/// The table message: what happened (a deal's result apart, see
/// [`results`]), the table.
fn table_message(t: &Table, events: &[Event]) -> TableMessage {
    let shown: Vec<Event> = events.iter().filter(|e| !matches!(e, Event::Scored(_))).cloned().collect();
    TableMessage {
        events: render::events(t, &shown),
        table: render::table(t),
        display: t.display().clone(),
        epoch: t.epoch(),
        revision: t.revision(),
        to_act: to_act(t),
        hand_label: render::hand_label(t.lang()),
        your_turn: render::your_turn(t.lang()),
        key: None,
        home: String::new(),
        picture: render::table_picture(t),
    }
}

impl<S: Store> Service<S> {
    /// Remembers the platform's id of a channel's public table message
    /// for the deal's table message `epoch` (a message posted for an
    /// earlier deal is not kept).
    pub async fn set_display(&self, ch: &ChannelId, epoch: u32, id: Option<String>) -> Result<(), ServiceError> {
        self.transact(ch, Once::Repeatable, move |table, ctx, _| {
            if table.epoch() != epoch {
                return ((), false);
            }
            let via = ctx.via.as_ref();
            let changed = table.display_for(via) != id.as_ref();
            table.set_display_for(via, id.clone());
            ((), changed)
        })
        .await
        .map(|_| ())
    }

    /// Opens the table of one person with computer players: when no deal
    /// is running, the person sits down, computers fill the other seats and
    /// the deal starts; else the table and the person's hand.
    pub async fn open_with_computers_checked(&self, ch: &ChannelId, me: &Actor) -> Result<Outbox, ServiceError> {
        if let Some(out) = self.admit(ch, me).await? {
            return Ok(out);
        }
        let (table, _) = self.table(ch).await?;
        let running = table.deal_running();
        let notice = |text: &str| Notice::new(Kind::Help, text.to_string(), None);
        let l = table.lang();
        if running {
            let mut out = self.run(ch, me, Command::Table, None, None).await?;
            out.notices.insert(0, notice(&tr!(l, "resuming")));
            let hand = self.run(ch, me, Command::Hand, None, None).await?;
            out.private.extend(hand.private);
            out.owed.extend(hand.owed);
            return Ok(out);
        }
        // (what the steps before the start owe is told by the start's table
        // message: they are marked delivered with it)
        let mut owed = Vec::new();
        if table.seat_of(&me.user).is_none() {
            owed.extend(self.run(ch, me, Command::Join, None, None).await?.owed);
        }
        let (t, _) = self.table(ch).await?;
        for _ in t.seats().len()..4 {
            owed.extend(self.run(ch, me, Command::AddBot(Default::default()), None, None).await?.owed);
        }
        let mut out = self.run(ch, me, Command::Start, None, None).await?;
        out.notices.insert(0, notice(&tr!(l, "welcome-computers")));
        owed.append(&mut out.owed);
        out.owed = owed;
        Ok(out)
    }
}

/// A refusal's text for the person (the table, as the refusal leaves it,
/// names the players and gives the language).
fn refusal(t: &Table, e: &CommandError) -> String {
    match e {
        CommandError::Rule(r) => render::rule_error(t, r),
        e => render::error(t.lang(), e),
    }
}

/// The person who must act now, if a person must.
fn to_act(t: &Table) -> Option<UserId> {
    t.person_to_act().map(|(u, _)| u)
}

/// A private message to a person at a table.
fn private(t: &Table, to: &UserId, kind: Kind, text: String) -> Private {
    private_to(t, to, kind, text, t.plays_in_deal(to))
}

/// [`private`], where whether the person plays in the deal (and so is
/// answered confidentially) is known.
fn private_to(t: &Table, to: &UserId, kind: Kind, text: String, plays: bool) -> Private {
    let seat = t.seat_of(to).and_then(|i| t.seats().get(i));
    Private { confidential: plays, dm: seat.is_some_and(|s| s.dm()), ..Private::new(to.clone(), kind, text) }
}

/// A person's hand as a private message, if they hold cards.
fn hand_private(t: &Table, ch: &ChannelId, to: &UserId) -> Option<Private> {
    // (a hand's view means its person plays in the deal: not asked again
    // for its stamp and its confidentiality)
    let v = t.hand_view_for(to)?;
    let stamp = t.current_game().map(stamp_of).unwrap_or_default();
    let (text, model) = render::hand_with_model(t.lang(), ch, &v, stamp);
    let mut p = private_to(t, to, Kind::Hand, text, true);
    p.hand = Some(model);
    p.picture = render::hand_picture(t, &v);
    Some(p)
}

/// A person's answer when the table cannot be reached.
/// The answer to a command while the bot shuts down: not applied, try
/// again in a moment.
fn restarting(ch: &ChannelId, to: &UserId) -> Outbox {
    refused(ch, to, tr!(Lang::default(), "restarting"))
}

fn unavailable(ch: &ChannelId, to: &UserId) -> Outbox {
    Outbox { unavailable: true, ..refused(ch, to, render::unavailable()) }
}

/// A command not taken, and why, for the person who gave it only.
fn refused(ch: &ChannelId, to: &UserId, why: String) -> Outbox {
    let mut out = Outbox::new(ch.clone(), Lang::default());
    out.actor = Some(to.clone());
    out.private.push(Private::new(to.clone(), Kind::Error, why));
    out
}

#[async_trait]
impl<S: Store> App for Service<S> {
    async fn handle(&self, ch: &ChannelId, actor: &Actor, input: Input, delivery: Option<&str>) -> Outbox {
        // whether it was a `reset` matters only at a damaged table: a line
        // of text is parsed again only then
        let (r, reset) = match input {
            Input::Text(text) => {
                let r = self.handle_delivery_opt(ch, actor, &text, delivery).await;
                let reset =
                    matches!(r, Err(ServiceError::Damaged(_))) && matches!(command::parse(&text), Ok(Command::Reset));
                (r, reset)
            }
            Input::Command(cmd) => {
                let reset = matches!(cmd, Command::Reset);
                (self.execute_delivery(ch, actor, cmd, delivery).await, reset)
            }
            Input::Clicked { command, stamp } => {
                (self.execute_stamped(ch, actor, command, delivery, Some(&stamp)).await, false)
            }
        };
        match r {
            Ok(mut out) => {
                self.send_relays(&mut out);
                out
            }
            Err(ServiceError::Damaged(d)) => self.on_damage(ch, actor, d, reset).await,
            Err(e) => {
                tracing::error!(error = %e, channel = %ch, "a command could not be run");
                unavailable(ch, &actor.user)
            }
        }
    }

    async fn tick(&self, ch: &ChannelId) -> Outbox {
        let mut out = Service::tick(self, ch).await.unwrap_or_else(|e| {
            match e {
                // said once when it was set aside
                ServiceError::Damaged(_) => tracing::debug!(error = %e, channel = %ch, "turn timer: table damaged"),
                e => tracing::warn!(error = %e, channel = %ch, "turn timer failed"),
            }
            Outbox::new(ch.clone(), Lang::default())
        });
        self.send_relays(&mut out);
        out
    }

    fn relayed(&self, platform: Platform) -> Option<tokio::sync::mpsc::UnboundedReceiver<Outbox>> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        self.relays.lock().expect("lock").insert(platform, tx);
        Some(rx)
    }

    async fn hand(&self, ch: &ChannelId, user: &UserId) -> Option<HandModel> {
        let (t, _) = self.table(ch).await.ok()?;
        // (a hand's view means its person plays in the deal: the stamp is
        // the deal's, its seat not looked up again)
        let v = t.hand_view_for(user)?;
        Some(render::hand_model(t.lang(), ch, &v, t.current_game().map(stamp_of).unwrap_or_default()))
    }

    async fn seated(&self, ch: &ChannelId, user: &UserId) -> Option<Lang> {
        match self.table(ch).await {
            Ok((t, _)) => t.seat_of(user).map(|_| t.lang()),
            Err(e) => {
                tracing::warn!(error = %e, channel = %ch, "table unreadable");
                None
            }
        }
    }

    async fn open_with_computers(&self, ch: &ChannelId, actor: &Actor) -> Outbox {
        match self.open_with_computers_checked(ch, actor).await {
            Ok(mut out) => {
                self.send_relays(&mut out);
                out
            }
            Err(ServiceError::Damaged(d)) => self.on_damage(ch, actor, d, false).await,
            Err(e) => {
                tracing::error!(error = %e, channel = %ch, "opening the table failed");
                unavailable(ch, &actor.user)
            }
        }
    }

    async fn unreachable(&self, ch: &ChannelId, user: &UserId) -> bool {
        let who = user.clone();
        let r = self
            .transact(ch, Once::Repeatable, move |table, _, _| {
                let new = table.note_unreachable(&who);
                (new, new)
            })
            .await;
        r.map(|(_, new)| new).unwrap_or(true)
    }

    async fn running(&self, platform: crate::ids::Platform) -> Vec<ChannelId> {
        let channels = match self.store.channels().await {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!(error = %e, "listing the tables failed");
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        // (a server's settings are stored beside the tables: not a table)
        for ch in channels.into_iter().filter(|c| c.platform == platform && c.is_table()) {
            match self.table(&ch).await {
                Ok((t, _)) if t.deal_running() || t.owed().any() => out.push(ch),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, channel = %ch, "a stored table could not be read"),
            }
        }
        out
    }

    async fn claim_display(&self, ch: &ChannelId, epoch: u32) -> crate::outbox::Claim {
        use crate::outbox::Claim;
        let now = self.now_ms();
        let r = self
            .transact(ch, Once::Repeatable, move |table, ctx, _| {
                if table.epoch() != epoch {
                    return (Claim::Stale, false);
                }
                let via = ctx.via.as_ref();
                if let Some(id) = table.display_for(via) {
                    return (Claim::Posted(id.clone()), false);
                }
                if table.posting_claimed_for(via, now) {
                    return (Claim::Busy, false);
                }
                table.claim_posting_for(via, now);
                (Claim::Mine, true)
            })
            .await;
        match r {
            Ok((_, c)) => c,
            Err(e) => {
                tracing::warn!(error = %e, channel = %ch, "claiming the table message failed");
                Claim::Mine
            }
        }
    }

    fn table_messages(&self) -> &crate::outbox::TableMessages {
        &self.messages
    }

    async fn delivered(&self, ch: &ChannelId, salt: u64, owed: &[u64]) {
        if owed.is_empty() {
            return;
        }
        let mut mark = Mark { salt, seqs: owed.to_vec(), at: tokio::time::Instant::now(), id: 0 };
        if salt != 0 && self.defer.load(std::sync::atomic::Ordering::Relaxed) {
            // (waits for the table's next commit, or MARK_DELAY)
            let mut m = self.marks.lock().expect("marks lock");
            m.next += 1;
            mark.id = m.next;
            m.by_channel.entry(ch.clone()).or_default().push(mark);
            return;
        }
        if let Err(e) = self.mark_delivered(ch, vec![mark]).await {
            // sent again by a later turn clock (platforms that can drop the
            // second copy do)
            tracing::warn!(error = %e, channel = %ch, "marking messages delivered failed");
        }
    }

    async fn set_display(&self, ch: &ChannelId, epoch: u32, id: Option<String>) {
        if let Err(e) = Service::set_display(self, ch, epoch, id).await {
            tracing::warn!(error = %e, channel = %ch, "keeping the table message's id failed");
        }
    }
}

/// `me`: a person's figures over the tables of their server (or this
/// one), their rank all time and this month, and their latest lists.
fn me_text(ch: &ChannelId, t: &Table, me: &UserId, server: bool, tables: &[(ChannelId, Table)], month: &str) -> String {
    let key = me.key();
    let mut all = crate::table::Stats::default();
    let mut this_month = crate::table::Stats::default();
    for (_, x) in tables {
        all.merge(x.stats());
        if let Some(m) = x.month_stats(month) {
            this_month.merge(m);
        }
    }
    let place = |s: &crate::table::Stats| {
        let rows = render::ranking(s);
        let i = rows.iter().position(|r| r.key == key)?;
        Some((rows[i].stats.clone(), rows[i].place, rows.len()))
    };
    let a = place(&all);
    let m = place(&this_month);
    let mut lists: Vec<render::MyList> = Vec::new();
    for (c, x) in tables {
        for s in x.history().iter().chain(x.session()) {
            let Some(p) = s.players().position(|k| k.as_str() == key) else { continue };
            if s.sheet().is_empty() {
                continue;
            }
            let points = s.totals()[p];
            let place = 1 + s.totals().iter().filter(|v| **v > points).count();
            lists.push(render::MyList {
                channel: (c != ch).then(|| crate::server::channel_label(c)),
                number: s.number(),
                started_ms: s.started_ms(),
                deals: s.sheet().len(),
                points,
                place: (place, s.totals().len()),
            });
        }
    }
    lists.sort_by(|a, b| b.started_ms.cmp(&a.started_ms).then(b.number.cmp(&a.number)));
    lists.truncate(5);
    render::me(
        t.lang(),
        server,
        month,
        a.as_ref().map(|(s, r, o)| (s, *r, *o)),
        m.as_ref().map(|(s, r, o)| (s, *r, *o)),
        &lists,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stamp's text is the deal's hash in eight lowercase hex digits, a
    /// dot and the moves, as `format!` writes them.
    #[test]
    fn a_stamps_text_is_hex_and_moves() {
        let mut rng = Rng::new(7);
        let hashes =
            [0, 1, 0xf, 0xabc, 0x8000_0000, u32::MAX].into_iter().chain((0..200).map(|_| rng.next_u64() as u32));
        for hash in hashes {
            for moves in [0, 1, 9, 10, 47, 99, 100, 1234, usize::MAX] {
                assert_eq!(stamp_text(hash, moves), format!("{hash:08x}.{moves}"));
            }
        }
    }
}
