//! The Matrix events the bot answers: invitations (joined when the
//! allow-list lets them in), messages (commands, queued for their table's
//! worker) and messages that stayed encrypted.

use std::sync::Arc;
use std::time::Duration;

use doko_bot::Actor;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::member::{MembershipState, StrippedRoomMemberEvent};
use matrix_sdk::ruma::events::room::message::{MessageType, OriginalSyncRoomMessageEvent, Relation};
use matrix_sdk::{Room, RoomState};
use tracing::{Instrument, info_span};

use crate::Route;
use crate::inbox::Received;
use crate::job::Job;
use crate::state::Adapter;

impl Adapter {
    /// Attaches the handlers of invitations, messages and messages that
    /// stayed encrypted.
    pub fn listen(self: &Arc<Self>) {
        let a = self.clone();
        self.client.add_event_handler(move |ev: StrippedRoomMemberEvent, room: Room| {
            let a = a.clone();
            async move { a.on_invite(ev, room).await }
        });
        let a = self.clone();
        self.client.add_event_handler(move |ev: OriginalSyncRoomMessageEvent, room: Room| {
            let a = a.clone();
            async move { a.on_message(ev, room).await }
        });
        let a = self.clone();
        self.client.add_event_handler(move |ev: OriginalSyncRoomEncryptedEvent, room: Room| {
            let a = a.clone();
            async move { a.on_undecryptable(ev, room).await }
        });
    }

    /// The invitations that arrived while the bot was away, each accepted
    /// or declined in a task of its own.
    pub fn accept_waiting_invitations(self: &Arc<Self>) {
        for room in self.client.invited_rooms() {
            let a = self.clone();
            tokio::spawn(async move {
                if let Ok(inv) = room.invite_details().await {
                    a.accept(room, inv.inviter_id.as_str()).await;
                }
            });
        }
    }

    /// An invitation of the bot: accepted or declined in a task of its own.
    pub async fn on_invite(self: Arc<Self>, ev: StrippedRoomMemberEvent, room: Room) {
        if ev.state_key != self.me || ev.content.membership != MembershipState::Invite {
            return;
        }
        tokio::spawn(async move { self.accept(room, ev.sender.as_str()).await });
    }

    /// Joins an invited room when the allow-list lets us, else declines.
    pub async fn accept(&self, room: Room, inviter: &str) {
        let span = info_span!("matrix_invite", room = %room.room_id(), inviter);
        async {
            if !crate::invite_allowed(&self.cfg.allow, self.me.as_str(), room.room_id().as_str(), inviter) {
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

    /// A message: a command for the bot (in a group room after the prefix,
    /// in a direct room any text) is written down and queued for its
    /// table's worker.
    pub async fn on_message(self: Arc<Self>, ev: OriginalSyncRoomMessageEvent, room: Room) {
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
            if self.is_private(&room, &ev.sender).await {
                self.direct_command(&ev, &room, &body).await;
                return;
            }
            let Some(cmd) = crate::command_text(&self.cfg.prefix, &body) else { return };
            let actor = self.actor(&room, &ev.sender).await;
            self.queue_command(&room, &ev, actor, cmd.to_string(), None).await;
        }
        .instrument(span)
        .await
    }

    /// A message in a direct room: the command goes to the person's table
    /// (the one its number names when they sit at several), or they are
    /// told they sit at none, or asked which.
    async fn direct_command(self: &Arc<Self>, ev: &OriginalSyncRoomMessageEvent, room: &Room, body: &str) {
        let cmd = crate::command_text(&self.cfg.prefix, body).unwrap_or(body.trim()).to_string();
        let tables = self.tables_of(&ev.sender).await;
        match crate::route(tables.len(), &cmd) {
            Route::At(i, text) => {
                let table_room = tables[i].0.clone();
                let actor = self.actor(&table_room, &ev.sender).await.from_direct();
                self.queue_command(&table_room, ev, actor, text, Some(room)).await;
            }
            Route::NoTable => {
                self.send_notice(room, None, &crate::no_table(&self.cfg.prefix), false).await;
            }
            Route::Ask => {
                let lang = tables.first().map(|t| t.2).unwrap_or_default();
                let names: Vec<String> = tables.iter().map(|t| t.1.clone()).collect();
                self.send_notice(room, None, &crate::ask_which(lang, &names), false).await;
            }
        }
    }

    /// Writes a command down in the inbox and queues it for its table
    /// room's worker; `direct`: the direct room it came from.
    async fn queue_command(
        self: &Arc<Self>,
        table_room: &Room,
        ev: &OriginalSyncRoomMessageEvent,
        actor: Actor,
        text: String,
        direct: Option<&Room>,
    ) {
        let received = Received {
            room: table_room.room_id().to_string(),
            event: ev.event_id.to_string(),
            sender: ev.sender.to_string(),
            text: text.clone(),
            direct: direct.map(|d| d.room_id().to_string()),
        };
        self.inbox.add(&received).await;
        let job = Job::Command {
            actor,
            text,
            delivery: ev.event_id.to_string(),
            from_direct: direct.map(|d| Box::new(d.clone())),
            received: Box::new(received),
        };
        self.enqueue(table_room, job).await;
    }

    /// A message that stayed encrypted (no keys): in a direct room the
    /// person is told to send it again, instead of silence; in a group room
    /// it may not have been for us, so it is only logged.
    pub async fn on_undecryptable(self: Arc<Self>, ev: OriginalSyncRoomEncryptedEvent, room: Room) {
        if ev.sender == self.me || u64::from(ev.origin_server_ts.0) < self.started_ms {
            return;
        }
        tracing::warn!(room = %room.room_id(), sender = %ev.sender, event = %ev.event_id, "could not decrypt a message");
        if self.is_private(&room, &ev.sender).await {
            let text = crate::both(|l| doko_bot::tr!(l, "undecryptable"));
            self.send_notice(&room, None, &text, false).await;
        }
    }
}
