//! Card pictures as `m.image` messages (encrypted in encrypted rooms).

use doko_bot::Picture;
use matrix_sdk::Room;
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::ruma::UInt;
use matrix_sdk::ruma::events::room::message::TextMessageEventContent;

use crate::send::txn;

/// The file name of the picture of a whole deal (every hand as dealt), the
/// only picture sent into the table's room.
pub const DEAL_PICTURE: &str = "deal.png";

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
pub async fn send_picture(room: &Room, picture: &Picture, key: Option<&String>) -> Result<(), matrix_sdk::Error> {
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
