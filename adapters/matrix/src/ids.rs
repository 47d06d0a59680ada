//! Matrix ids as the bot's platform-neutral ids.

use doko_bot::{ChannelId, Platform, UserId};
use matrix_sdk::ruma::RoomId;

/// The table of a room.
pub fn channel(room: &RoomId) -> ChannelId {
    ChannelId::new(Platform::MATRIX, room.as_str())
}

/// A Matrix user as the bot's user.
pub fn user(u: &matrix_sdk::ruma::UserId) -> UserId {
    UserId::new(Platform::MATRIX, u.as_str())
}
