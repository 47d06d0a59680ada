//! The table messages a process publishes: one post or edit at a time per
//! table, changes that arrive meanwhile coalesced, and the posting of a
//! deal's message claimed once when several processes serve a table.

use async_trait::async_trait;

use super::{Outbox, TableMessage, Transport};
use crate::ids::{ChannelId, UserId};

/// Where delivery meets the bot: [`deliver`] coalesces table messages
/// here, claims the posting of a deal's message when the commit that made
/// it did not, and reports what it delivered, posted or could not deliver
/// (each carried by the table's next commit where the service defers
/// them, see `Service::defer_marks`: delivering costs no store round trip
/// of its own).
#[async_trait]
pub trait PostOffice: Send + Sync {
    /// The process's table messages in flight (see [`TableMessages`]).
    fn table_messages(&self) -> &TableMessages;
    /// Claims the posting of the table message of the deal's message
    /// `epoch` (see [`Claim`]): a claim lasts
    /// [`POSTING_CLAIM_MS`], or until the
    /// id is remembered ([`posted`](Self::posted)).
    async fn claim_display(&self, ch: &ChannelId, epoch: u32) -> Claim;
    /// Remembers the platform's id of a channel's table message for the
    /// deal's message `epoch`.
    async fn posted(&self, ch: &ChannelId, epoch: u32, id: String);
    /// Notes that a person could not be reached privately; true the first
    /// time in a deal (the channel is told once per deal, not per message).
    /// Their private messages are not tried again (see
    /// [`reachable`](Self::reachable)).
    async fn unreachable(&self, ch: &ChannelId, user: &UserId) -> bool;
    /// Whether private messages to a person are tried: not for a while
    /// after one was refused, nor until they say `dm on` (the answer to a
    /// person's own command is always given, without its direct-message
    /// copy).
    fn reachable(&self, user: &UserId) -> bool;
    /// The lock a private send to `user` holds, where sends of several
    /// outboxes to one person are to wait for each other (so that a
    /// refusal is known before the next try); `None`: not serialized.
    fn private_lock(&self, _user: &UserId) -> Option<std::sync::Arc<tokio::sync::Mutex<()>>> {
        None
    }
    /// Marks owed entries of a table as delivered (see [`Outbox::owed`];
    /// `salt`: [`Outbox::owed_salt`]).
    async fn delivered(&self, ch: &ChannelId, salt: u64, owed: &[u64]);
    /// The outboxes for this platform's channels that commands on other
    /// platforms make (a table shared across platforms, see
    /// [`Outbox::relay`]): a front end takes them once, at its start, and
    /// delivers each as it delivers a turn clock's. `None` where nothing
    /// is ever relayed.
    fn relayed(&self, _platform: crate::ids::Platform) -> Option<tokio::sync::mpsc::UnboundedReceiver<Outbox>> {
        None
    }
}

/// What [`deliver`] did, for logs and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delivered {
    /// A table message was posted (not edited).
    pub posted: bool,
    /// The table message was edited.
    pub edited: bool,
    /// Notices posted (mentions included).
    pub notices: usize,
    /// People who got private messages.
    pub private: usize,
    /// Sends that failed.
    pub failed: usize,
    /// People whose private messages were not tried: found out of reach
    /// before (see [`PostOffice::reachable`]).
    pub withheld: usize,
}

impl Delivered {
    /// Adds what another part of the same delivery did.
    pub fn add(&mut self, other: &Delivered) {
        self.posted |= other.posted;
        self.edited |= other.edited;
        self.notices += other.notices;
        self.private += other.private;
        self.failed += other.failed;
        self.withheld += other.withheld;
    }
}

/// The table messages this process is publishing, per channel: one post or
/// edit at a time per table, so concurrent commands never post a second
/// table message for a deal, and changes that arrive while one is being
/// sent coalesce into one edit (what happened is kept, in order; the table
/// shown is the newest).
#[derive(Default)]
pub struct TableMessages {
    slots: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Slot>>>,
}

#[derive(Default)]
struct Slot {
    state: std::sync::Mutex<SlotState>,
    /// Held while a post or edit is under way.
    sending: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct SlotState {
    /// Waiting to be sent, by revision and arrival (a table shown again
    /// has the revision of the change before it).
    pending: std::collections::BTreeMap<(u64, u64), TableMessage>,
    /// Arrivals so far.
    arrived: u64,
    /// The newest revision sent.
    sent: u64,
    /// The newest table message sent.
    shown: Option<TableMessage>,
    /// The message of a deal (epoch, platform id) this process knows.
    known: Option<(u32, String)>,
}

/// At most this many lines of what happened in one coalesced edit.
const EVENT_LINES: usize = 24;

impl TableMessages {
    fn slot(&self, ch: &ChannelId, home: &str) -> std::sync::Arc<Slot> {
        let mut slots = self.slots.lock().expect("table messages lock");
        if slots.len() > 10_000 {
            // forget idle tables (their ids are stored with the table)
            slots.retain(|_, s| std::sync::Arc::strong_count(s) > 1);
        }
        let key = if home.is_empty() { ch.key() } else { format!("{}|{home}", ch.key()) };
        slots.entry(key).or_default().clone()
    }

    /// Posts or edits the table message for `t`, together with what else is
    /// waiting for this table. False when a newer table had been shown (the
    /// person `t` names to act may not be the one any more).
    pub(super) async fn publish(
        &self,
        post: &dyn PostOffice,
        transport: &dyn Transport,
        ch: &ChannelId,
        t: &TableMessage,
        report: &mut Delivered,
    ) -> bool {
        let slot = self.slot(ch, &t.home);
        {
            let mut st = slot.state.lock().expect("slot lock");
            if t.revision < st.sent && t.events.is_none() {
                // a newer table is already shown, and this one adds nothing
                return false;
            }
            st.arrived += 1;
            let key = (t.revision, st.arrived);
            st.pending.insert(key, t.clone());
        }
        let newest = {
            let _sending = slot.sending.lock().await;
            let batch = {
                let mut st = slot.state.lock().expect("slot lock");
                let pending = std::mem::take(&mut st.pending);
                let mut batch = merge(pending.into_values());
                // what happened late is told with the newest table
                if let Some(shown) = &st.shown {
                    for m in batch.iter_mut().filter(|m| m.epoch == shown.epoch && m.revision < shown.revision) {
                        *m = TableMessage { events: m.events.take(), ..shown.clone() };
                    }
                }
                if let Some(last) = batch.last()
                    && st.shown.as_ref().is_none_or(|s| last.revision >= s.revision)
                {
                    st.sent = last.revision;
                    st.shown = Some(last.clone());
                }
                batch
            };
            self.send(post, transport, ch, &slot, batch, report).await;
            slot.state.lock().expect("slot lock").sent
        };
        t.revision >= newest
    }

    async fn send(
        &self,
        post: &dyn PostOffice,
        transport: &dyn Transport,
        ch: &ChannelId,
        slot: &Slot,
        batch: Vec<TableMessage>,
        report: &mut Delivered,
    ) {
        for m in batch {
            let known = slot.state.lock().expect("slot lock").known.clone();
            let mut id = match known {
                Some((epoch, id)) if epoch == m.epoch => Some(id),
                _ => m.display.clone(),
            };
            if id.is_none() && !m.claimed {
                // several processes may serve the table: one posts the
                // deal's message, the others wait for its id and edit it
                // (the commit that made it claimed it for this process, or
                // it is claimed now)
                match claim(post, ch, m.epoch).await {
                    Claim::Mine => {}
                    Claim::Posted(posted) => id = Some(posted),
                    Claim::Stale => continue,
                    Claim::Busy => unreachable!("claim waits out a busy claim"),
                }
            }
            let edited = match &id {
                Some(id) => match transport.edit_table(ch, id, &m).await {
                    Ok(()) => true,
                    Err(e) => {
                        tracing::info!(error = %e, channel = %ch, "editing the table message failed; posting a new one");
                        false
                    }
                },
                None => false,
            };
            if edited {
                report.edited = true;
                continue;
            }
            match transport.post_table(ch, &m).await {
                Ok(id) => {
                    report.posted = true;
                    slot.state.lock().expect("slot lock").known = Some((m.epoch, id.clone()));
                    post.posted(ch, m.epoch, id).await;
                }
                Err(e) => {
                    report.failed += 1;
                    tracing::warn!(error = %e, channel = %ch, "posting the table message failed");
                }
            }
        }
    }
}

/// How long a process's claim to post a deal's table message holds (ms):
/// other processes wait that long for the id it posts (which rides on the
/// table's next commit, or is written within two seconds, see
/// `Service::defer_marks`), then post themselves.
pub const POSTING_CLAIM_MS: u64 = 5_000;

/// Who posts a deal's table message when several processes serve a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This process posts it.
    Mine,
    /// It is posted: this id.
    Posted(String),
    /// Another process is posting it right now.
    Busy,
    /// The table has moved on to another deal's message.
    Stale,
}

/// Claims the posting of a deal's table message, waiting (as long as a
/// claim holds) for another process that is posting it.
async fn claim(post: &dyn PostOffice, ch: &ChannelId, epoch: u32) -> Claim {
    const PAUSE_MS: u64 = 100;
    for _ in 0..POSTING_CLAIM_MS / PAUSE_MS {
        match post.claim_display(ch, epoch).await {
            Claim::Busy => tokio::time::sleep(std::time::Duration::from_millis(PAUSE_MS)).await,
            other => return other,
        }
    }
    Claim::Mine
}

/// One message per deal: the newest table of each, with what happened in
/// between, in order.
fn merge(msgs: impl Iterator<Item = TableMessage>) -> Vec<TableMessage> {
    let mut out: Vec<TableMessage> = Vec::new();
    for m in msgs {
        match out.last_mut() {
            Some(last) if last.epoch == m.epoch => {
                let events = match (last.events.take(), m.events.clone()) {
                    (Some(a), Some(b)) => Some(format!("{}\n{}", a.trim_end(), b)),
                    (a, b) => a.or(b),
                };
                let claimed = last.claimed || m.claimed;
                *last = TableMessage { events: events.map(|e| last_lines(&e)), claimed, ..m };
            }
            _ => out.push(m),
        }
    }
    out
}

fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(EVENT_LINES)..].join("\n")
}
