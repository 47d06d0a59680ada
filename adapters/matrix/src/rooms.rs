//! Rooms and their people: who is a member, which rooms are direct, who is
//! an admin, which space a room belongs to, and each person's direct room
//! and tables.

use doko_bot::ids::ServerId;
use doko_bot::{Actor, Lang, Platform};
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::events::room::power_levels::UserPowerLevel;
use matrix_sdk::ruma::{Int, OwnedRoomId};
use matrix_sdk::{Room, RoomState};

use crate::ids::{channel, user};
use crate::state::Adapter;

impl Adapter {
    /// A direct room between the bot and this person only (marked direct,
    /// no third member); anything else is a group room, where nothing
    /// private is ever sent.
    pub async fn is_private(&self, room: &Room, u: &matrix_sdk::ruma::UserId) -> bool {
        if room.state() != RoomState::Joined || !room.is_direct().await.unwrap_or(false) {
            return false;
        }
        let members = active_members(room).await;
        if self.created.lock().await.contains(room.room_id()) && members <= 2 {
            return true; // opened by us for this person; members may lag a sync
        }
        members == 2 && member_present(room, u).await
    }

    /// The actor: name from the room's member list, admin from power
    /// levels; in a room of a space, that space (its admin from the
    /// space's power levels).
    pub async fn actor(&self, room: &Room, sender: &matrix_sdk::ruma::UserId) -> Actor {
        let name = match room.get_member_no_sync(sender).await {
            Ok(Some(m)) => m.name().to_string(),
            _ => sender.localpart().to_string(),
        };
        let actor = Actor::new(user(sender), name, self.is_admin(room, sender).await);
        match self.space_of(room).await {
            Some(space) => {
                let admin = self.is_admin(&space, sender).await;
                actor.in_server(ServerId::new(Platform::MATRIX, space.room_id().to_string()), admin)
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
    pub async fn space_of(&self, room: &Room) -> Option<Room> {
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
    pub async fn is_admin(&self, room: &Room, sender: &matrix_sdk::ruma::UserId) -> bool {
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
    pub async fn tables_of(&self, sender: &matrix_sdk::ruma::UserId) -> Vec<(Room, String, Lang)> {
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

    /// The person's direct room with the bot: an existing one they are in
    /// (or invited to), else a new one (encrypted, marked direct).
    pub async fn direct_room(&self, u: &matrix_sdk::ruma::UserId) -> Option<Room> {
        let mut dms = self.dms.lock().await;
        let known = dms.get(u).and_then(|id| self.client.get_room(id)).filter(|r| r.state() == RoomState::Joined);
        let mut found = None;
        if let Some(r) = known {
            match member_state(&r, u).await {
                // just opened by us: the invitation may not have synced yet
                None if self.created.lock().await.contains(r.room_id()) => return Some(r),
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
                    self.created.lock().await.insert(r.room_id().to_owned());
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
pub async fn direct_of_two(room: &Room) -> bool {
    room.is_direct().await.unwrap_or(false) && active_members(room).await <= 2
}

/// Joined and invited members, from the stored member list (the sync
/// summary's counts are not always sent).
pub async fn active_members(room: &Room) -> usize {
    room.members_no_sync(matrix_sdk::RoomMemberships::ACTIVE).await.map(|m| m.len()).unwrap_or(usize::MAX)
}

async fn member_state(room: &Room, u: &matrix_sdk::ruma::UserId) -> Option<MembershipState> {
    match room.get_member_no_sync(u).await {
        Ok(Some(m)) => Some(m.membership().clone()),
        _ => None,
    }
}

async fn member_present(room: &Room, u: &matrix_sdk::ruma::UserId) -> bool {
    matches!(member_state(room, u).await, Some(MembershipState::Join | MembershipState::Invite))
}

/// The room's display name, else its id.
pub async fn room_name(room: &Room) -> String {
    match room.display_name().await {
        Ok(n) => n.to_string(),
        Err(_) => room.room_id().to_string(),
    }
}
