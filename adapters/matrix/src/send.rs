//! Sending into rooms: notices and the table message (edited with
//! `m.replace`), each owed message with its transaction id, card
//! pictures, and the [`Transport`] of a table room.

use async_trait::async_trait;
use doko_bot::{Actor, ChannelId, Kind, Notice, Picture, Private, TableMessage, Transport, TransportError, UserId};
use matrix_sdk::Room;
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::room::message::{ReplacementMetadata, RoomMessageEventContent, TextMessageEventContent};
use matrix_sdk::ruma::{OwnedEventId, OwnedUserId, UInt};

use crate::rooms::DirectRooms;
use crate::text::{escape, html, plain};

/// A notice (no transaction id).
pub(crate) async fn try_notice(
    room: &Room,
    heading: Option<&str>,
    text: &str,
    code: bool,
) -> Result<(), TransportError> {
    keyed_notice(room, heading, text, code, None).await
}

/// The transaction id of an owed message (see `doko_bot::Owed`): the same
/// at every re-send, so the homeserver keeps one copy (it drops a repeated
/// transaction id of the same device). `kind` tells a post from an edit.
fn txn(key: Option<&String>, kind: &str) -> Option<matrix_sdk::ruma::OwnedTransactionId> {
    key.map(|k| format!("doko.{k}.{kind}").into())
}

/// Sends a message, with a transaction id when it is owed.
async fn send_keyed(
    room: &Room,
    content: RoomMessageEventContent,
    txn_id: Option<matrix_sdk::ruma::OwnedTransactionId>,
) -> Result<OwnedEventId, matrix_sdk::Error> {
    let send = room.send(content);
    let send = match txn_id {
        Some(t) => send.with_transaction_id(t),
        None => send,
    };
    send.await.map(|r| r.response.event_id)
}

async fn keyed_notice(
    room: &Room,
    heading: Option<&str>,
    text: &str,
    code: bool,
    key: Option<&String>,
) -> Result<(), TransportError> {
    let content = RoomMessageEventContent::notice_html(plain(heading, text), html(heading, text, code));
    send_keyed(room, content, txn(key, "n")).await.map(|_| ()).map_err(|e| TransportError::Platform(e.to_string()))
}

/// The file name of the picture of a whole deal (every hand as dealt), the
/// only picture sent into the table's room.
const DEAL_PICTURE: &str = "deal.png";

/// The width and height of a PNG (its `IHDR` chunk), if it is one.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    let ihdr = png.get(12..24).filter(|h| h.starts_with(b"IHDR"))?;
    let be = |b: &[u8]| b.try_into().ok().map(u32::from_be_bytes);
    Some((be(&ihdr[4..8])?, be(&ihdr[8..12])?))
}

/// Sends a card picture as an `m.image` (after the message that says the
/// same in words): in an encrypted room the SDK encrypts the file before
/// uploading it and sends its key inside the encrypted event (`file`, not
/// `url`). Its body is the picture's alt text (a caption, with the file
/// name beside it), for screen readers; with the picture's size. An owed
/// message's picture has a transaction id made from its key, as its text
/// has (a re-send uploads the file again, the homeserver keeps one event).
/// Logged by name, size and room only: never the cards.
async fn send_picture(room: &Room, picture: &Picture, key: Option<&String>) -> Result<(), matrix_sdk::Error> {
    let mut info = BaseImageInfo { size: UInt::new(picture.png.len() as u64), ..Default::default() };
    if let Some((w, h)) = png_size(&picture.png) {
        info.width = Some(UInt::from(w));
        info.height = Some(UInt::from(h));
    }
    let mut config = AttachmentConfig::new()
        .info(AttachmentInfo::Image(info))
        .caption(Some(TextMessageEventContent::plain(picture.alt.clone())));
    if let Some(t) = txn(key, "i") {
        config = config.txn_id(t);
    }
    // (the type of `image/png` is the `mime` crate's, inferred here)
    room.send_attachment(
        picture.name.clone(),
        &"image/png".parse().expect("a MIME type"),
        picture.png.to_vec(),
        config,
    )
    .await?;
    tracing::debug!(picture = %picture.name, bytes = picture.png.len(), room = %room.room_id(), "sent a card picture");
    Ok(())
}

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
pub(crate) struct RoomTransport<'a> {
    /// The people's direct rooms.
    pub(crate) direct: &'a DirectRooms,
    /// Whether to ping the person to act (the configuration's `mention`).
    pub(crate) mentions: bool,
    pub(crate) room: &'a Room,
    /// The room's name, heading everything sent to a direct room.
    pub(crate) name: String,
    pub(crate) actor: Option<&'a Actor>,
    /// The direct room the command came from.
    pub(crate) from_direct: Option<&'a Room>,
}

#[async_trait]
impl Transport for RoomTransport<'_> {
    async fn post_table(&self, _: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        let text = msg.text();
        let content = RoomMessageEventContent::notice_html(plain(None, &text), html(None, &text, false));
        let sent = send_keyed(self.room, content, txn(msg.key.as_ref(), "p"))
            .await
            .map_err(|e| TransportError::Platform(e.to_string()))?;
        Ok(sent.to_string())
    }

    async fn edit_table(&self, _: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        let id = OwnedEventId::try_from(id).map_err(|_| TransportError::EditFailed)?;
        let text = msg.text();
        let content = RoomMessageEventContent::notice_html(plain(None, &text), html(None, &text, false));
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
                    escape(uid.as_str()),
                    escape(&notice.text)
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
            if m.kind != Kind::Hand && is_actor && self.from_direct.is_none() && !m.confidential {
                let text = format!("{}: {}", self.actor.map(|a| a.name.as_str()).unwrap_or(""), m.text);
                keyed_notice(self.room, None, &text, code, m.key.as_ref()).await?;
                continue;
            }
            let dm = match (is_actor, self.from_direct) {
                (true, Some(d)) => Some(d.clone()),
                _ => self.direct.room(&uid).await,
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
        self.mentions
    }
}

impl RoomTransport<'_> {
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
