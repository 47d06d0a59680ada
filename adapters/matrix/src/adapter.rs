//! The adapter's inbound side: invitations, messages (commands in table
//! rooms, routed ones from direct rooms), who acts (name, admin, space),
//! and one worker per table room that answers its jobs in order.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use doko_bot::ids::ServerId;
use doko_bot::{Actor, App, Input, Lang, Platform, deliver};
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::member::{MembershipState, StrippedRoomMemberEvent};
use matrix_sdk::ruma::events::room::message::{MessageType, OriginalSyncRoomMessageEvent, Relation};
use matrix_sdk::ruma::events::room::power_levels::UserPowerLevel;
use matrix_sdk::ruma::{Int, OwnedRoomId, OwnedUserId};
use matrix_sdk::{Client, Room, RoomState};
use tokio::sync::{Mutex, mpsc};
use tracing::{Instrument, info_span};

use crate::config::{MatrixConfig, invite_allowed};
use crate::dialect;
use crate::inbox::{Inbox, Received};
use crate::rooms::{DirectRooms, active_members, channel, direct_of_two, member_present, room_name, user};
use crate::send::{RoomTransport, try_notice};
use crate::text::{Route, ask_which, both, command_text, no_table, route};

/// One unit of work for a table's worker.
pub(crate) enum Job {
    /// A command from a person.
    Command {
        actor: Actor,
        text: String,
        delivery: String,
        /// The direct room it came from (else the table's room).
        from_direct: Option<Box<Room>>,
        /// The command as written down on arrival (see [`Received`]).
        received: Box<Received>,
    },
    /// The turn timer.
    Tick,
    /// What a command on another platform owes this room (a table shared
    /// across platforms).
    Deliver(Box<doko_bot::Outbox>),
}

/// The adapter: the service plus what it needs of Matrix.
pub(crate) struct Adapter {
    pub(crate) app: Arc<dyn App>,
    pub(crate) client: Client,
    cfg: MatrixConfig,
    me: OwnedUserId,
    /// Milliseconds since the epoch: older events are ignored (the start,
    /// or, catching up, the oldest command still answered).
    started_ms: u64,
    /// The commands received and not yet answered (see [`Received`]).
    inbox: Inbox,
    /// One queue per table room, so a table's commands run in order.
    workers: Mutex<HashMap<OwnedRoomId, mpsc::UnboundedSender<Job>>>,
    /// The people's direct rooms.
    direct: DirectRooms,
}

impl Adapter {
    /// The adapter of a logged-in client, answering commands sent from
    /// `started_ms` on.
    pub(crate) fn new(
        app: Arc<dyn App>,
        client: &Client,
        cfg: MatrixConfig,
        me: OwnedUserId,
        started_ms: u64,
        inbox: Inbox,
    ) -> Adapter {
        Adapter {
            app,
            client: client.clone(),
            cfg,
            me,
            started_ms,
            inbox,
            workers: Mutex::new(HashMap::new()),
            direct: DirectRooms::new(client),
        }
    }

    pub(crate) async fn on_invite(self: Arc<Self>, ev: StrippedRoomMemberEvent, room: Room) {
        if ev.state_key != self.me || ev.content.membership != MembershipState::Invite {
            return;
        }
        tokio::spawn(async move { self.accept(room, ev.sender.as_str()).await });
    }

    /// Joins an invited room when the allow-list lets us, else declines.
    pub(crate) async fn accept(&self, room: Room, inviter: &str) {
        let span = info_span!("matrix_invite", room = %room.room_id(), inviter);
        async {
            if !invite_allowed(&self.cfg.allow, self.me.as_str(), room.room_id().as_str(), inviter) {
                tracing::info!("invitation declined (not on the allow-list)");
                let _ = room.leave().await;
                return;
            }
            // a fresh room can refuse the join for a moment: retry
            let mut wait = Duration::from_millis(500);
            for _ in 0..8 {
                if room.state() == RoomState::Joined {
                    return;
                }
                // (joining an invitation marked direct marks the room direct)
                match room.join().await {
                    Ok(()) => {
                        tracing::info!("joined");
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "join failed; retrying");
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(Duration::from_secs(30));
                    }
                }
            }
        }
        .instrument(span)
        .await
    }

    pub(crate) async fn on_message(self: Arc<Self>, ev: OriginalSyncRoomMessageEvent, room: Room) {
        if ev.sender == self.me || room.state() != RoomState::Joined {
            return;
        }
        if u64::from(ev.origin_server_ts.0) < self.started_ms {
            tracing::debug!(event = %ev.event_id, "older than the start: ignored");
            return;
        }
        if matches!(ev.content.relates_to, Some(Relation::Replacement(_))) {
            return; // edits are not new commands
        }
        let MessageType::Text(text) = &ev.content.msgtype else { return };
        let body = text.body.clone();
        let span = info_span!("matrix_message", room = %room.room_id(), sender = %ev.sender, event = %ev.event_id);
        async {
            if !self.is_private(&room, &ev.sender).await {
                let Some(cmd) = command_text(&self.cfg.prefix, &body) else { return };
                let actor = self.actor(&room, &ev.sender).await;
                let received = Received {
                    room: room.room_id().to_string(),
                    event: ev.event_id.to_string(),
                    sender: ev.sender.to_string(),
                    text: cmd.to_string(),
                    direct: None,
                };
                self.inbox.add(&received).await;
                let job = Job::Command {
                    actor,
                    text: cmd.to_string(),
                    delivery: ev.event_id.to_string(),
                    from_direct: None,
                    received: Box::new(received),
                };
                self.enqueue(&room, job).await;
                return;
            }
            // a direct room: the command goes to the person's table
            let cmd = command_text(&self.cfg.prefix, &body).unwrap_or(body.trim()).to_string();
            let tables = self.tables_of(&ev.sender).await;
            match route(tables.len(), &cmd) {
                Route::At(i, text) => {
                    let table_room = tables[i].0.clone();
                    let actor = self.actor(&table_room, &ev.sender).await.from_direct();
                    let received = Received {
                        room: table_room.room_id().to_string(),
                        event: ev.event_id.to_string(),
                        sender: ev.sender.to_string(),
                        text: text.clone(),
                        direct: Some(room.room_id().to_string()),
                    };
                    self.inbox.add(&received).await;
                    let job = Job::Command {
                        actor,
                        text,
                        delivery: ev.event_id.to_string(),
                        from_direct: Some(Box::new(room.clone())),
                        received: Box::new(received),
                    };
                    self.enqueue(&table_room, job).await;
                }
                Route::NoTable => {
                    self.send_notice(&room, None, &no_table(&self.cfg.prefix), false).await;
                }
                Route::Ask => {
                    let lang = tables.first().map(|t| t.2).unwrap_or_default();
                    let names: Vec<String> = tables.iter().map(|t| t.1.clone()).collect();
                    self.send_notice(&room, None, &ask_which(lang, &names), false).await;
                }
            }
        }
        .instrument(span)
        .await
    }

    /// A message that stayed encrypted (no keys): in a direct room the
    /// person is told to send it again, instead of silence; in a group room
    /// it may not have been for us, so it is only logged.
    pub(crate) async fn on_undecryptable(self: Arc<Self>, ev: OriginalSyncRoomEncryptedEvent, room: Room) {
        if ev.sender == self.me || u64::from(ev.origin_server_ts.0) < self.started_ms {
            return;
        }
        tracing::warn!(room = %room.room_id(), sender = %ev.sender, event = %ev.event_id, "could not decrypt a message");
        if self.is_private(&room, &ev.sender).await {
            let text = both(|l| doko_bot::tr!(l, "undecryptable"));
            self.send_notice(&room, None, &text, false).await;
        }
    }

    /// A direct room between the bot and this person only (marked direct,
    /// no third member); anything else is a group room, where nothing
    /// private is ever sent.
    async fn is_private(&self, room: &Room, u: &matrix_sdk::ruma::UserId) -> bool {
        if room.state() != RoomState::Joined || !room.is_direct().await.unwrap_or(false) {
            return false;
        }
        let members = active_members(room).await;
        if self.direct.opened(room.room_id()).await && members <= 2 {
            return true; // opened by us for this person; members may lag a sync
        }
        members == 2 && member_present(room, u).await
    }

    /// The actor: name from the room's member list, admin from power
    /// levels; in a room of a space, that space (its admin from the
    /// space's power levels).
    async fn actor(&self, room: &Room, sender: &matrix_sdk::ruma::UserId) -> Actor {
        let name = match room.get_member_no_sync(sender).await {
            Ok(Some(m)) => m.name().to_string(),
            _ => sender.localpart().to_string(),
        };
        let actor = dialect::actor(user(sender), name, self.is_admin(room, sender).await);
        match self.space_of(room).await {
            Some(space) => {
                let admin = self.is_admin(&space, sender).await;
                actor.in_server(ServerId::new(Platform::Matrix, space.room_id().to_string()), admin)
            }
            // a direct room tells nothing of a table's space
            None if direct_of_two(room).await => actor,
            None => actor.in_no_server(),
        }
    }

    /// The space a room belongs to: a space the room names as its parent
    /// (`m.space.parent`) that names the room as its child in turn
    /// (`m.space.child`, the spec's reciprocal relationship), which the
    /// bot has joined (so it can read who its admins are). A room's claim
    /// alone is not enough: anyone who may change a room's state could
    /// name any space. The first such space by id, when there are several.
    async fn space_of(&self, room: &Room) -> Option<Room> {
        use matrix_sdk::deserialized_responses::SyncOrStrippedState;
        use matrix_sdk::ruma::events::SyncStateEvent;
        use matrix_sdk::ruma::events::space::child::SpaceChildEventContent;
        use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
        let parents = room.get_state_events_static::<SpaceParentEventContent>().await.ok()?;
        let mut ids: Vec<OwnedRoomId> = parents
            .into_iter()
            .filter_map(|e| match e.deserialize() {
                Ok(SyncOrStrippedState::Sync(SyncStateEvent::Original(e))) if !e.content.via.is_empty() => {
                    Some(e.state_key)
                }
                _ => None,
            })
            .collect();
        ids.sort();
        for id in ids {
            let Some(space) = self.client.get_room(&id) else { continue };
            if space.state() != RoomState::Joined {
                continue;
            }
            let child = space.get_state_event_static_for_key::<SpaceChildEventContent, _>(room.room_id()).await;
            let ok = match child.ok().flatten().map(|raw| raw.deserialize()) {
                Some(Ok(SyncOrStrippedState::Sync(SyncStateEvent::Original(e)))) => !e.content.via.is_empty(),
                _ => false,
            };
            if ok {
                return Some(space);
            }
        }
        None
    }

    /// A member whose power level is at least the level for changing room
    /// state (or the configured level); creators in room version 12.
    async fn is_admin(&self, room: &Room, sender: &matrix_sdk::ruma::UserId) -> bool {
        // (a room without a power-levels event: the spec's defaults, where
        // the creator has 100 and everyone else 0)
        let pl = room.power_levels_or_default().await;
        let need = match self.cfg.admin_level {
            Some(l) => Int::new_saturating(l),
            None => pl.state_default,
        };
        pl.for_user(sender) >= UserPowerLevel::Int(need)
    }

    /// The table rooms where this person holds a seat: room, name, language.
    async fn tables_of(&self, sender: &matrix_sdk::ruma::UserId) -> Vec<(Room, String, Lang)> {
        let u = user(sender);
        let mut out = Vec::new();
        let mut rooms = self.client.joined_rooms();
        rooms.sort_by(|a, b| a.room_id().cmp(b.room_id()));
        for room in rooms {
            if direct_of_two(&room).await {
                continue;
            }
            if let Some(lang) = self.app.seated(&channel(room.room_id()), &u).await {
                let name = room_name(&room).await;
                out.push((room, name, lang));
            }
        }
        out
    }

    /// Queues a job for a table room's worker (started on first use).
    pub(crate) async fn enqueue(self: &Arc<Self>, room: &Room, mut job: Job) {
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

    async fn work(&self, room: &Room, job: Job) {
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
    pub(crate) async fn replay(self: &Arc<Self>, r: Received) {
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

    async fn answer(&self, room: &Room, job: Job) {
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
            let transport = RoomTransport {
                direct: &self.direct,
                mentions: self.cfg.mention,
                room,
                name,
                actor: actor.as_ref(),
                from_direct: from_direct.as_deref(),
            };
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

    async fn send_notice(&self, room: &Room, heading: Option<&str>, text: &str, code: bool) {
        if let Err(e) = try_notice(room, heading, text, code).await {
            tracing::warn!(error = %e, room = %room.room_id(), "sending failed");
        }
    }
}
