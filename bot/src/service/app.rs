//! The service as the adapters see it ([`App`]): every call answered (a
//! failure becomes a short answer to the person and a log line), and the
//! parts of an outbox for another platform's channels handed to that
//! platform's front end.

use async_trait::async_trait;

use super::Service;
use super::error::ServiceError;
use super::receipts::Note;
use super::replies::unavailable;
use super::stamp::stamp_of;
use super::unconfirmed::Idempotence;
use crate::command::{self, Command};
use crate::ids::{Actor, ChannelId, Platform, UserId};
use crate::lang::Lang;
use crate::outbox::{App, Claim, HandModel, Input, Outbox, PostOffice, TableMessages};
use crate::render;
use crate::store::Store;

impl<S: Store> Service<S> {
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
            Input::Open => (self.open_with_computers_checked(ch, actor).await, false),
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

    async fn running(&self, platform: Platform) -> Vec<ChannelId> {
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

    fn post_office(&self) -> &dyn PostOffice {
        self
    }
}

#[async_trait]
impl<S: Store> PostOffice for Service<S> {
    fn table_messages(&self) -> &TableMessages {
        &self.messages
    }

    async fn claim_display(&self, ch: &ChannelId, epoch: u32) -> Claim {
        let now = self.now_ms();
        let r = self
            .transact(ch, Idempotence::SafeToRepeat, move |table, ctx, _| {
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

    async fn posted(&self, ch: &ChannelId, epoch: u32, id: String) {
        self.note(ch, Note::Posted { epoch, id }).await;
    }

    async fn unreachable(&self, ch: &ChannelId, user: &UserId) -> bool {
        self.reach.found(user);
        self.first_unreachable(ch, user).await
    }

    fn reachable(&self, user: &UserId) -> bool {
        self.reach.reachable(user)
    }

    fn private_lock(&self, user: &UserId) -> Option<std::sync::Arc<tokio::sync::Mutex<()>>> {
        Some(self.reach.attempts(user))
    }

    async fn delivered(&self, ch: &ChannelId, salt: u64, owed: &[u64]) {
        self.note(ch, Note::Delivered { salt, seqs: owed.to_vec() }).await;
    }

    fn relayed(&self, platform: Platform) -> Option<tokio::sync::mpsc::UnboundedReceiver<Outbox>> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        self.relays.lock().expect("lock").insert(platform, tx);
        Some(rx)
    }
}
