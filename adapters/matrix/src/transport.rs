//! Delivering one job's answer into a table room: public messages into the
//! room, private ones into direct rooms, pictures where they belong.

use async_trait::async_trait;
use doko_bot::{
    Actor, ChannelId, Kind, Notice, Picture, Private, Route, TableMessage, Transport, TransportError, UserId,
};
use matrix_sdk::Room;
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::room::message::{ReplacementMetadata, RoomMessageEventContent};
use matrix_sdk::ruma::{OwnedEventId, OwnedUserId};

use crate::media::{DEAL_PICTURE, send_picture};
use crate::send::{keyed_notice, send_keyed, txn};
use crate::state::Adapter;

/// A table room while one job's answer is delivered: public messages into
/// the room (the table message edited with `m.replace`), hands always into
/// the person's direct room, the actor's other private answers where the
/// command came from: into the direct room while the actor holds cards (a
/// refusal can name a held card).
///
/// Card pictures (tables that show cards as pictures), each an `m.image`
/// after the text that says the same: a hand's picture follows its text in
/// the direct room, never anywhere else. Into the table's room goes only
/// the deal's picture (`deal.png`, every hand as dealt, once the deal is
/// over), after the result's notice. The trick's picture (`trick.png`, carried by the table
/// message) is not sent on Matrix: the table message is edited in place
/// with `m.replace`, which cannot swap a picture, and a new picture per
/// card would flood the room; the table's text shows the trick.
pub struct RoomTransport<'a> {
    /// The adapter (for direct rooms and the configuration).
    pub adapter: &'a Adapter,
    /// The table's room.
    pub room: &'a Room,
    /// The room's name, heading everything sent to a direct room.
    pub name: String,
    /// Who sent the command, if a command is answered.
    pub actor: Option<&'a Actor>,
    /// The direct room the command came from.
    pub from_direct: Option<&'a Room>,
}

#[async_trait]
impl Transport for RoomTransport<'_> {
    async fn post_table(&self, _: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        let text = msg.text();
        let content = RoomMessageEventContent::notice_html(crate::plain(None, &text), crate::html(None, &text, false));
        let sent = send_keyed(self.room, content, txn(msg.key.as_ref(), "p"))
            .await
            .map_err(|e| TransportError::Platform(e.to_string()))?;
        Ok(sent.to_string())
    }

    async fn edit_table(&self, _: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        let id = OwnedEventId::try_from(id).map_err(|_| TransportError::EditFailed)?;
        let text = msg.text();
        let content = RoomMessageEventContent::notice_html(crate::plain(None, &text), crate::html(None, &text, false));
        let edit = content.make_replacement(ReplacementMetadata::new(id, None));
        send_keyed(self.room, edit, txn(msg.key.as_ref(), "e")).await.map_err(|_| TransportError::EditFailed)?;
        Ok(())
    }

    async fn notice(&self, _: &ChannelId, notice: &Notice) -> Result<(), TransportError> {
        match notice.mention.as_ref().and_then(|u| OwnedUserId::try_from(u.id.as_str()).ok()) {
            None => keyed_notice(self.room, None, &notice.text, false, notice.key.as_ref()).await?,
            Some(uid) => {
                let html = format!(
                    "<a href=\"https://matrix.to/#/{uid}\">{}</a>: {}",
                    crate::escape(uid.as_str()),
                    crate::escape(&notice.text)
                );
                let content = RoomMessageEventContent::notice_html(format!("{uid}: {}", notice.text), html)
                    .add_mentions(Mentions::with_user_ids([uid]));
                send_keyed(self.room, content, txn(notice.key.as_ref(), "n"))
                    .await
                    .map_err(|e| TransportError::Platform(e.to_string()))?;
            }
        }
        // a notice is sent once: so is its picture (the deal's, after the result)
        if let Some(p) = &notice.picture {
            self.room_picture(p, notice.key.as_ref()).await;
        }
        Ok(())
    }

    async fn private(&self, _: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        let Ok(uid) = OwnedUserId::try_from(to.id.as_str()) else { return Ok(()) };
        let is_actor = self.actor.is_some_and(|a| &a.user == to);
        for m in msgs {
            let code = m.kind == Kind::Record;
            if self.shown_in_the_room(is_actor, m) {
                let text = format!("{}: {}", self.actor.map(|a| a.name.as_str()).unwrap_or(""), m.text);
                keyed_notice(self.room, None, &text, code, m.key.as_ref()).await?;
                continue;
            }
            let dm = match (is_actor, self.from_direct) {
                (true, Some(d)) => Some(d.clone()),
                _ => self.adapter.direct_room(&uid).await,
            };
            let Some(d) = dm else { return Err(TransportError::Unreachable(to.clone())) };
            keyed_notice(&d, Some(&self.name), &m.text, code, m.key.as_ref()).await?;
            // a hand's picture: only ever into the direct room, after its text
            if let Some(p) = &m.picture
                && let Err(e) = send_picture(&d, p, m.key.as_ref()).await
            {
                tracing::warn!(error = %e, picture = %p.name, room = %d.room_id(), "sending a card picture failed");
            }
        }
        Ok(())
    }

    fn mentions(&self) -> bool {
        self.adapter.cfg.mention
    }

    /// The direct room is a stream of its own, except for the actor's
    /// answer shown in the table's room (in order with the table message).
    fn route(&self, to: &UserId, msgs: &[&Private]) -> Route {
        if self.in_the_room(to, msgs) { Route::Channel } else { Route::Own }
    }
}

impl RoomTransport<'_> {
    /// Whether a private message is shown in the table's room: the
    /// actor's answer to a command given there, when it is no hand and
    /// names no held card.
    fn shown_in_the_room(&self, is_actor: bool, m: &Private) -> bool {
        m.kind != Kind::Hand && is_actor && self.from_direct.is_none() && !m.confidential
    }

    /// Whether any of these messages to `to` is shown in the table's room.
    fn in_the_room(&self, to: &UserId, msgs: &[&Private]) -> bool {
        let is_actor = self.actor.is_some_and(|a| &a.user == to);
        msgs.iter().any(|m| self.shown_in_the_room(is_actor, m))
    }

    /// A picture for the table's room, after the notice it belongs to:
    /// only the deal's (`deal.png`, every hand as dealt: public once the
    /// deal is over), never a hand's, and not the trick's (see
    /// [`RoomTransport`]). Best effort: the text says the same.
    async fn room_picture(&self, p: &Picture, key: Option<&String>) {
        if p.name != DEAL_PICTURE {
            return;
        }
        if let Err(e) = send_picture(self.room, p, key).await {
            tracing::warn!(error = %e, picture = %p.name, room = %self.room.room_id(), "sending a card picture failed");
        }
    }
}
