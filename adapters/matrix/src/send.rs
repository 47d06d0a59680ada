//! Sending notices: HTML and plain bodies, with a transaction id made
//! from an owed message's key so a re-send is kept once.

use doko_bot::TransportError;
use matrix_sdk::Room;
use matrix_sdk::ruma::OwnedEventId;
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;

/// Sends a notice (no transaction id: not owed).
pub async fn try_notice(room: &Room, heading: Option<&str>, text: &str, code: bool) -> Result<(), TransportError> {
    keyed_notice(room, heading, text, code, None).await
}

/// The transaction id of an owed message (see `doko_bot::Owed`): the same
/// at every re-send, so the homeserver keeps one copy (it drops a repeated
/// transaction id of the same device). `kind` tells a post from an edit.
pub fn txn(key: Option<&String>, kind: &str) -> Option<matrix_sdk::ruma::OwnedTransactionId> {
    key.map(|k| format!("doko.{k}.{kind}").into())
}

/// Sends a message, with a transaction id when it is owed.
pub async fn send_keyed(
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

/// Sends a notice, with a transaction id made from `key` when it is owed.
pub async fn keyed_notice(
    room: &Room,
    heading: Option<&str>,
    text: &str,
    code: bool,
    key: Option<&String>,
) -> Result<(), TransportError> {
    let content = RoomMessageEventContent::notice_html(crate::plain(heading, text), crate::html(heading, text, code));
    send_keyed(room, content, txn(key, "n")).await.map(|_| ()).map_err(|e| TransportError::Platform(e.to_string()))
}
