//! One worker per table room: its jobs (commands, the turn timer, what
//! other platforms owe it) queued and answered in order, each answer
//! delivered through a [`RoomTransport`].

use std::sync::Arc;
use std::time::Duration;

use doko_bot::{Input, deliver};
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
                    let out = self.app.handle(&ch, &actor, Input::Text(text), Some(&delivery)).await;
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

    /// Sends a notice, logging a failure.
    pub async fn send_notice(&self, room: &Room, heading: Option<&str>, text: &str, code: bool) {
        if let Err(e) = try_notice(room, heading, text, code).await {
            tracing::warn!(error = %e, room = %room.room_id(), "sending failed");
        }
    }
}
