//! The turn clock of a channel: the reminder and the table's policy when a
//! person takes too long, and the delivery of what the table still owes
//! from changes whose process did not deliver them.

use tracing::{Instrument, info_span};

use super::Service;
use super::compose::{committed, hand_private, kiebitz_private, table_message, ticked, to_act};
use super::error::ServiceError;
use super::parts::route;
use super::unconfirmed::Idempotence;
use crate::ids::{ChannelId, UserId};
use crate::lang::Lang;
use crate::outbox::{Notice, Outbox};
use crate::render::Kind;
use crate::store::Store;
use crate::table::{OwedEntry, Table};
use doko_players::decide;

/// An owed entry this process did not make is delivered by the turn clock
/// once it has waited this long (ms): its own process is given the time to
/// deliver it. Entries made before this process started are delivered at
/// its first turn clock.
pub const OWED_GRACE_MS: u64 = 30_000;

impl<S: Store> Service<S> {
    /// Applies the turn timeout of a channel: a reminder at half the
    /// `turn_timeout`, then the table's policy. Adapters call this
    /// periodically for their active channels.
    pub async fn tick(&self, ch: &ChannelId) -> Result<Outbox, ServiceError> {
        let Some(_in_flight) = self.gate.enter() else { return Ok(Outbox::new(ch.clone(), Lang::default())) };
        let span = info_span!("tick", channel = %ch);
        async {
            let now = self.now_ms();
            let strong = self.strong;
            let (durable, chan) = (self.durable, ch.clone());
            let (home, table, owed) = self
                .routed(ch, Idempotence::SafeToRepeat, move |table, ctx, bots| {
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
                        table.owed_mut().keep_until_delivered(&mut out, now, || bots.next_u64());
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
        let own = own_entry(&out, now);
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
        if let Some(u) = to_act(t) {
            c.notices.push(Notice {
                kind: Kind::Events,
                text: table.your_turn.clone(),
                mention: Some(u.clone()),
                key: Some(t.owed().key(last, "prompt")),
                picture: None,
            });
            if !hands.contains(&u) {
                hands.push(u);
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

/// This tick's own outbox as an owed entry, to be told with the ones left.
fn own_entry(out: &Outbox, now: u64) -> OwedEntry {
    OwedEntry {
        seq: out.owed.last().copied().unwrap_or(0),
        at_ms: now,
        table: out.table.clone(),
        notices: out.notices.clone(),
        private: out.private.iter().filter(|p| p.kind != Kind::Hand).cloned().collect(),
        hands: out.private.iter().filter(|p| p.kind == Kind::Hand).map(|p| p.to.clone()).collect(),
        actor: None,
        done: Vec::new(),
    }
}
