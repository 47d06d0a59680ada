//! One worker per table room: its jobs (commands, the turn timer, what
//! other platforms owe it) queued and answered in order, each answer
//! delivered through a [`RoomTransport`].

use std::sync::Arc;
use std::time::Duration;

use doko_bot::{Actor, ChannelId, Input, Outbox, deliver};
use matrix_sdk::Room;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId};
use tokio::sync::mpsc;
use tracing::{Instrument, info_span};

use crate::ids::channel;
use crate::inbox::Received;
use crate::job::Job;
use crate::rooms::{direct_of_two, room_name};
use crate::send::try_notice;
use crate::state::Adapter;
use crate::transport::RoomTransport;

/// How soon a person hears something when the table does not answer.
pub const FIRST_WORD: Duration = Duration::from_millis(1_000);

/// How long a command is tried again while the store is away before the
/// person is told the table is unavailable.
pub const PATIENCE: Duration = Duration::from_secs(120);

impl Adapter {
    /// Starts the feeds of the table workers besides commands: what
    /// commands on other platforms owe these rooms (in each room's order
    /// with its own commands), and the turn timer for every table room.
    pub fn feed_workers(self: &Arc<Self>) {
        if let Some(mut relayed) = self.app.post_office().relayed(doko_bot::Platform::MATRIX) {
            let a = self.clone();
            tokio::spawn(async move {
                while let Some(out) = relayed.recv().await {
                    let room =
                        OwnedRoomId::try_from(out.channel.id.as_str()).ok().and_then(|id| a.client.get_room(&id));
                    match room {
                        Some(room) => a.enqueue(&room, Job::Deliver(Box::new(out))).await,
                        None => tracing::warn!(room = %out.channel.id, "a shared table's room is not joined"),
                    }
                }
            });
        }
        let a = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(5));
            loop {
                every.tick().await;
                for room in a.client.joined_rooms() {
                    if !direct_of_two(&room).await {
                        a.enqueue(&room, Job::Tick).await;
                    }
                }
            }
        });
    }

    /// Queues a job for a table room's worker (started on first use).
    pub async fn enqueue(self: &Arc<Self>, room: &Room, mut job: Job) {
        let mut workers = self.workers.lock().await;
        let id = room.room_id().to_owned();
        if let Some(tx) = workers.get(&id) {
            match tx.send(job) {
                Ok(()) => return,
                Err(back) => job = back.0,
            }
        }
        let (tx, mut rx) = mpsc::unbounded_channel::<Job>();
        let a = self.clone();
        let r = room.clone();
        tokio::spawn(async move {
            while let Some(job) = rx.recv().await {
                // each job in its own task: a panic ends that job only, and
                // the room's later commands still run, in order
                let (a2, r2) = (a.clone(), r.clone());
                if let Err(e) = tokio::spawn(async move { a2.work(&r2, job).await }).await {
                    tracing::error!(error = %e, room = %r.room_id(), "a command failed");
                }
            }
        });
        let _ = tx.send(job);
        workers.insert(id, tx);
    }

    /// Does one job, then strikes its command off the inbox.
    pub async fn work(&self, room: &Room, job: Job) {
        let received = match &job {
            Job::Command { received, .. } => Some(received.event.clone()),
            Job::Tick | Job::Deliver(_) => None,
        };
        self.answer(room, job).await;
        if let Some(event) = received {
            self.inbox.remove(&event).await;
        }
    }

    /// Answers a command received before a restart (written down in the
    /// inbox on arrival, not answered then).
    pub async fn replay(self: &Arc<Self>, r: Received) {
        let (Ok(room_id), Ok(sender)) =
            (OwnedRoomId::try_from(r.room.as_str()), OwnedUserId::try_from(r.sender.as_str()))
        else {
            self.inbox.remove(&r.event).await;
            return;
        };
        let Some(room) = self.client.get_room(&room_id) else {
            self.inbox.remove(&r.event).await;
            return;
        };
        let direct =
            r.direct.as_deref().and_then(|d| OwnedRoomId::try_from(d).ok()).and_then(|d| self.client.get_room(&d));
        let mut actor = self.actor(&room, &sender).await;
        if direct.is_some() {
            actor = actor.from_direct();
        }
        let job = Job::Command {
            actor,
            text: r.text.clone(),
            delivery: r.event.clone(),
            from_direct: direct.map(Box::new),
            received: Box::new(r),
        };
        self.enqueue(&room, job).await;
    }

    /// Answers one job: the service handles it and its answer is delivered
    /// into the room (and direct rooms).
    pub async fn answer(&self, room: &Room, job: Job) {
        let ch = channel(room.room_id());
        let span = info_span!("matrix_table", room = %room.room_id());
        async {
            let t0 = std::time::Instant::now();
            let (out, actor, from_direct) = match job {
                Job::Command { actor, text, delivery, from_direct, received: _ } => {
                    let out = self.patiently(room, &ch, &actor, &text, &delivery).await;
                    (out, Some(actor), from_direct)
                }
                Job::Tick => (self.app.tick(&ch).await, None, None),
                Job::Deliver(out) => (*out, None, None),
            };
            if (out.is_empty() && out.owed.is_empty()) || out.duplicate {
                // nothing to say, or a command answered before (caught up
                // on again after a restart: answered once)
                return;
            }
            let handled = t0.elapsed();
            let name = room_name(room).await;
            let transport =
                RoomTransport { adapter: self, room, name, actor: actor.as_ref(), from_direct: from_direct.as_deref() };
            let sent = deliver(&*self.app, &transport, &out).await;
            tracing::debug!(
                handled_ms = handled.as_millis() as u64,
                answered_ms = t0.elapsed().as_millis() as u64,
                failed = sent.failed,
                "job done"
            );
        }
        .instrument(span)
        .await
    }

    /// Runs a command; when the table does not answer within
    /// [`FIRST_WORD`] (the store is slow or away), the room is told at once
    /// that the bot is waiting, and while the store is away the command is
    /// tried again (the same delivery: applied once) for up to
    /// [`PATIENCE`], after which the person is told it is unavailable.
    async fn patiently(&self, room: &Room, ch: &ChannelId, actor: &Actor, text: &str, delivery: &str) -> Outbox {
        let started = tokio::time::Instant::now();
        let mut pause = Duration::from_secs(1);
        let mut told = false;
        loop {
            let attempt = self.app.handle(ch, actor, Input::Text(text.to_string()), Some(delivery));
            tokio::pin!(attempt);
            let out = tokio::select! {
                out = &mut attempt => out,
                _ = tokio::time::sleep(FIRST_WORD), if !told => {
                    self.tell_waiting(room).await;
                    told = true;
                    attempt.await
                }
            };
            if !out.unavailable || started.elapsed() >= PATIENCE {
                return out;
            }
            if !told {
                self.tell_waiting(room).await;
                told = true;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(5));
        }
    }

    /// Tells a room that the table does not answer and the bot waits.
    async fn tell_waiting(&self, room: &Room) {
        tracing::warn!(room = %room.room_id(), "the table does not answer; waiting for the store");
        let text =
            format!("{} {}", doko_bot::render::unavailable(), crate::both(|l| doko_bot::tr!(l, "store-waiting")));
        self.send_notice(room, None, &text, false).await;
    }

    /// Sends a notice, logging a failure.
    pub async fn send_notice(&self, room: &Room, heading: Option<&str>, text: &str, code: bool) {
        if let Err(e) = try_notice(room, heading, text, code).await {
            tracing::warn!(error = %e, room = %room.room_id(), "sending failed");
        }
    }
}
