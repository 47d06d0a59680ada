//! The service every adapter talks to: text (or a typed command) in,
//! messages out. Each command loads the channel's table, applies the
//! command, lets computer players act, and commits with a compare-and-set
//! on the table's version; on a conflict (another process acted on the
//! same table) it starts again from the fresh table.

use std::sync::Mutex;

use doko_engine::Rng;
use tracing::{Instrument, info_span};

use crate::command::{self, Command, RulesCmd};
use crate::ids::{Actor, ChannelId, UserId};
use crate::player;
use crate::render::{self, Kind, Message};
use crate::store::{Commit, Store, StoreError};
use crate::table::{Ctx, Event, Occupant, Table};

/// A failure of the service itself (not a refused command).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored table could not be read.
    #[error("stored table unreadable: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// Too many concurrent changes to one table.
    #[error("the table is too busy; try again")]
    Contention,
}

/// The platform-neutral bot.
pub struct Service<S: Store> {
    store: S,
    rng: Mutex<Rng>,
    /// Wall-clock milliseconds at `base`, so that time follows tokio's
    /// clock (which tests can pause and advance).
    base_ms: u64,
    base: tokio::time::Instant,
    strong: crate::strong::StrongConfig,
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
        }
    }

    /// Sets the strong computer player's budget (time and samples per
    /// decision).
    pub fn with_strong(mut self, strong: crate::strong::StrongConfig) -> Service<S> {
        self.strong = strong;
        self
    }

    /// Milliseconds since the Unix epoch, by tokio's clock.
    pub fn now_ms(&self) -> u64 {
        self.base_ms + self.base.elapsed().as_millis() as u64
    }

    /// Applies the turn timeout of a channel: a reminder at half the
    /// `turn_timeout`, then the table's policy. Adapters call this
    /// periodically for their active channels.
    pub async fn tick(&self, ch: &ChannelId) -> Result<Vec<Message>, ServiceError> {
        let span = info_span!("tick", channel = %ch);
        async {
            for _attempt in 0..64 {
                let (mut table, version) = self.table(ch).await?;
                let mut seed = || self.next_u64();
                let mut ctx = Ctx { seed: &mut seed, new_records: Vec::new() };
                let mut bot_rng = Rng::new(self.next_u64());
                let now = self.now_ms();
                let events = match table.check_timeout(now, &mut ctx, &mut |level, view| {
                    player::decide(level, view, &mut bot_rng, self.strong)
                }) {
                    Ok(ev) => ev,
                    Err(e) => {
                        tracing::error!(error = %e, "turn timeout failed");
                        return Ok(Vec::new());
                    }
                };
                if events.is_empty() {
                    return Ok(Vec::new());
                }
                table.update_clock(now);
                let records = std::mem::take(&mut ctx.new_records);
                let json = serde_json::to_string(&table)?;
                match self.store.commit(ch, version, &json, &records).await? {
                    Commit::Done(_) => {}
                    Commit::Conflict => continue,
                }
                let mut out = Vec::new();
                if let Some(text) = render::events(&table, &events) {
                    let mut m = Message::public(Kind::Events, text);
                    m.mention = self.to_act(&table).into_iter().collect();
                    out.push(m);
                }
                let mut m = Message::public(Kind::Table, render::table(&table));
                m.mention = self.to_act(&table).into_iter().collect();
                out.push(m);
                if let Some(u) = self.to_act(&table)
                    && let Some(v) = table.view_for(&u)
                {
                    out.push(Message::private(&u, Kind::Hand, render::hand(table.lang(), &v)));
                }
                return Ok(out);
            }
            Err(ServiceError::Contention)
        }
        .instrument(span)
        .await
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    fn next_u64(&self) -> u64 {
        self.rng.lock().expect("rng lock").next_u64()
    }

    /// The channel's table as stored (a new one if none).
    pub async fn table(&self, ch: &ChannelId) -> Result<(Table, u64), ServiceError> {
        Ok(match self.store.load(ch).await? {
            Some(s) => (serde_json::from_str(&s.json)?, s.version),
            None => (Table::default(), 0),
        })
    }

    /// Handles a line of text from a user.
    pub async fn handle(&self, ch: &ChannelId, actor: &Actor, text: &str) -> Result<Vec<Message>, ServiceError> {
        match command::parse(text) {
            Ok(cmd) => self.execute(ch, actor, cmd).await,
            Err(e) => {
                let (t, _) = self.table(ch).await?;
                Ok(vec![Message::private(&actor.user, Kind::Error, render::parse_error(t.lang(), &e))])
            }
        }
    }

    /// Handles a line of text delivered with a platform id (an interaction
    /// or event id): a second delivery with the same id changes nothing.
    pub async fn handle_delivery(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        text: &str,
        delivery: &str,
    ) -> Result<Vec<Message>, ServiceError> {
        match command::parse(text) {
            Ok(cmd) => self.execute_delivery(ch, actor, cmd, Some(delivery)).await,
            Err(_) => self.handle(ch, actor, text).await,
        }
    }

    /// Executes a command for a user.
    pub async fn execute(&self, ch: &ChannelId, actor: &Actor, cmd: Command) -> Result<Vec<Message>, ServiceError> {
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
    ) -> Result<Vec<Message>, ServiceError> {
        let span =
            info_span!("command", channel = %ch, user = %actor.user, command = ?cmd, delivery = delivery.unwrap_or(""));
        async {
            for _attempt in 0..64 {
                let (mut table, version) = self.table(ch).await?;
                if let Some(id) = delivery
                    && !table.remember_delivery(id)
                {
                    tracing::debug!("duplicate delivery ignored");
                    return Ok(Vec::new());
                }
                let before = table.clone();
                let mut seed = || self.next_u64();
                let mut ctx = Ctx { seed: &mut seed, new_records: Vec::new() };
                let mut events = match table.apply(actor, &cmd, &mut ctx) {
                    Ok(ev) => ev,
                    Err(e) => {
                        let text = match &e {
                            crate::table::CommandError::Rule(r) => render::rule_error(&before, r),
                            e => render::error(table.lang(), e),
                        };
                        return Ok(vec![Message::private(&actor.user, Kind::Error, text)]);
                    }
                };
                let mut bot_rng = Rng::new(self.next_u64());
                match table
                    .run_computers(&mut ctx, &mut |level, view| player::decide(level, view, &mut bot_rng, self.strong))
                {
                    Ok(ev) => events.extend(ev),
                    Err(e) => {
                        tracing::error!(error = %e, "computer players failed");
                        return Ok(vec![Message::private(&actor.user, Kind::Error, render::error(table.lang(), &e))]);
                    }
                }
                let records = std::mem::take(&mut ctx.new_records);
                table.update_clock(self.now_ms());
                if table != before || !records.is_empty() {
                    let json = serde_json::to_string(&table)?;
                    match self.store.commit(ch, version, &json, &records).await? {
                        Commit::Done(_) => {}
                        Commit::Conflict => {
                            tracing::debug!("conflict, retrying");
                            continue;
                        }
                    }
                }
                return self.messages(ch, &table, actor, &cmd, &events).await;
            }
            Err(ServiceError::Contention)
        }
        .instrument(span)
        .await
    }

    async fn messages(
        &self,
        ch: &ChannelId,
        t: &Table,
        actor: &Actor,
        cmd: &Command,
        events: &[Event],
    ) -> Result<Vec<Message>, ServiceError> {
        let l = t.lang();
        let mut out = Vec::new();
        let me = &actor.user;
        match cmd {
            Command::Help(topic) => out.push(Message::private(me, Kind::Help, render::help_text(l, topic.as_deref()))),
            Command::Score => out.push(Message::public(Kind::Score, render::score(t))),
            Command::Stats => out.push(Message::public(Kind::Stats, render::stats(t))),
            Command::Rules(RulesCmd::Show) => out.push(Message::public(Kind::Rules, render::rules(t))),
            Command::Record(n) => {
                let n = n.unwrap_or(t.records());
                let text = match self.store.record(ch, n).await? {
                    Some(r) => r,
                    None => l.t("no such record", "kein solches Protokoll").to_string(),
                };
                out.push(Message::private(me, Kind::Record, text));
            }
            Command::Dm(on) => out.push(Message::private(
                me,
                Kind::Help,
                if *on {
                    l.t("Your hand will also come as a direct message.", "Dein Blatt kommt auch als Direktnachricht.")
                } else {
                    l.t("No more direct messages.", "Keine Direktnachrichten mehr.")
                }
                .to_string(),
            )),
            Command::Hand => match t.view_for(me) {
                Some(v) => out.push(Message::private(me, Kind::Hand, render::hand(l, &v))),
                None => out.push(Message::private(
                    me,
                    Kind::Error,
                    l.t("you hold no cards right now", "du hast gerade keine Karten").to_string(),
                )),
            },
            _ => {}
        }
        if let Some(text) = render::events(t, events) {
            out.push(Message::public(Kind::Events, text));
        }
        let changed = !events.is_empty();
        if changed || matches!(cmd, Command::Table) {
            let mut m = Message::public(Kind::Table, render::table(t));
            m.mention = self.to_act(t).into_iter().collect();
            out.push(m);
        }
        if changed {
            // hands: everyone at a new deal, else the actor and whoever acts next
            let dealt = events.iter().any(|e| matches!(e, Event::Dealt { .. }));
            let mut users: Vec<UserId> = Vec::new();
            for s in t.seats() {
                if let Occupant::Human { user } = s.occupant()
                    && (dealt || user == me || self.to_act(t).as_ref() == Some(user))
                    && !users.contains(user)
                {
                    users.push(user.clone());
                }
            }
            for u in users {
                if let Some(v) = t.view_for(&u) {
                    out.push(Message::private(&u, Kind::Hand, render::hand(l, &v)));
                }
            }
        }
        Ok(out)
    }

    /// The person who must act now, if a person must.
    fn to_act(&self, t: &Table) -> Option<UserId> {
        t.person_to_act().map(|(user, _)| user)
    }

    /// Remembers the platform's id of a channel's public table message.
    pub async fn set_display(&self, ch: &ChannelId, id: Option<String>) -> Result<(), ServiceError> {
        for _attempt in 0..64 {
            let (mut table, version) = self.table(ch).await?;
            if *table.display() == id {
                return Ok(());
            }
            table.set_display(id.clone());
            let json = serde_json::to_string(&table)?;
            if let Commit::Done(_) = self.store.commit(ch, version, &json, &[]).await? {
                return Ok(());
            }
        }
        Err(ServiceError::Contention)
    }
}
