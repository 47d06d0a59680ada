//! Rooms as the bot sees them: a room's channel and a user's id, members
//! and names, and each person's direct room with the bot.

use std::collections::{HashMap, HashSet};

use doko_bot::{ChannelId, Platform, UserId};
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId, RoomId};
use matrix_sdk::{Client, Room, RoomState};
use tokio::sync::Mutex;

/// The time now, in milliseconds since the epoch.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// The channel of a room.
pub(crate) fn channel(room: &RoomId) -> ChannelId {
    ChannelId::new(Platform::Matrix, room.as_str())
}

/// The bot's id of a Matrix user.
pub(crate) fn user(u: &matrix_sdk::ruma::UserId) -> UserId {
    UserId::new(Platform::Matrix, u.as_str())
}

/// The direct rooms of the people the bot sends private messages to.
pub(crate) struct DirectRooms {
    client: Client,
    /// Direct rooms by user, so concurrent tables do not open two.
    by_user: Mutex<HashMap<OwnedUserId, OwnedRoomId>>,
    /// Direct rooms this process opened.
    opened: Mutex<HashSet<OwnedRoomId>>,
}

impl DirectRooms {
    /// No direct room known yet.
    pub(crate) fn new(client: &Client) -> DirectRooms {
        DirectRooms { client: client.clone(), by_user: Mutex::new(HashMap::new()), opened: Mutex::new(HashSet::new()) }
    }

    /// Whether this process opened the room (its members may lag a sync).
    pub(crate) async fn opened(&self, room: &RoomId) -> bool {
        self.opened.lock().await.contains(room)
    }

    /// The person's direct room with the bot: an existing one they are in
    /// (or invited to), else a new one (encrypted, marked direct).
    pub(crate) async fn room(&self, u: &matrix_sdk::ruma::UserId) -> Option<Room> {
        let mut dms = self.by_user.lock().await;
        let known = dms.get(u).and_then(|id| self.client.get_room(id)).filter(|r| r.state() == RoomState::Joined);
        let mut found = None;
        if let Some(r) = known {
            match member_state(&r, u).await {
                // just opened by us: the invitation may not have synced yet
                None if self.opened.lock().await.contains(r.room_id()) => return Some(r),
                Some(MembershipState::Join | MembershipState::Invite) if active_members(&r).await <= 2 => {
                    return Some(r);
                }
                // they left or declined: do not invite them again with every
                // hand; they can invite the bot to a direct room themselves
                Some(MembershipState::Leave | MembershipState::Ban) => found = Some(None),
                _ => {}
            }
        }
        for r in self.client.get_dm_rooms(u) {
            if active_members(&r).await <= 2 && member_present(&r, u).await {
                found = Some(Some(r));
                break;
            }
        }
        let found = match found {
            Some(Some(r)) => Some(r),
            Some(None) => return None,
            None => None,
        };
        let room = match found {
            Some(r) => r,
            None => match self.client.create_dm(u).await {
                Ok(r) => {
                    tracing::info!(user = %u, room = %r.room_id(), "opened a direct room");
                    self.opened.lock().await.insert(r.room_id().to_owned());
                    r
                }
                Err(e) => {
                    tracing::warn!(error = %e, user = %u, "could not open a direct room");
                    return None;
                }
            },
        };
        dms.insert(u.to_owned(), room.room_id().to_owned());
        Some(room)
    }
}

/// Marked direct, with at most the bot and one person: not a table room.
pub(crate) async fn direct_of_two(room: &Room) -> bool {
    room.is_direct().await.unwrap_or(false) && active_members(room).await <= 2
}

/// Joined and invited members, from the stored member list (the sync
/// summary's counts are not always sent).
pub(crate) async fn active_members(room: &Room) -> usize {
    room.members_no_sync(matrix_sdk::RoomMemberships::ACTIVE).await.map(|m| m.len()).unwrap_or(usize::MAX)
}

async fn member_state(room: &Room, u: &matrix_sdk::ruma::UserId) -> Option<MembershipState> {
    match room.get_member_no_sync(u).await {
        Ok(Some(m)) => Some(m.membership().clone()),
        _ => None,
    }
}

pub(crate) async fn member_present(room: &Room, u: &matrix_sdk::ruma::UserId) -> bool {
    matches!(member_state(room, u).await, Some(MembershipState::Join | MembershipState::Invite))
}

pub(crate) async fn room_name(room: &Room) -> String {
    match room.display_name().await {
        Ok(n) => n.to_string(),
        Err(_) => room.room_id().to_string(),
    }
}
