//! The deal as the four play it, each from their own platform, and what
//! each was shown on the way.

use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

use matrix_sdk::ruma::OwnedRoomId;

use super::ALICE;
use super::text::{first_deal, hand_of};
use crate::synapse::{Seen, first_playable, from_bot, say};

/// The deal as the four play it: who acted on what, what each was shown.
#[derive(Default)]
pub(super) struct Deal {
    /// The Matrix players' direct rooms with the bot.
    pub(super) dms: [Option<OwnedRoomId>; 2],
    /// The last hand message each Matrix player acted on.
    pub(super) acted_on: [Option<String>; 2],
    /// The hands each Matrix player was shown in their direct room, in
    /// order.
    pub(super) matrix_hands: [Vec<Vec<String>>; 2],
    /// The hands each Discord player was shown in their answers, in order.
    pub(super) discord_hands: HashMap<u64, Vec<Vec<String>>>,
    /// Cards played from each platform (on Matrix: the sizes of the
    /// hands a card was played from).
    pub(super) matrix_played: [BTreeSet<usize>; 2],
    pub(super) discord_cards: HashMap<u64, usize>,
    /// The result as the Matrix room got it (until its points line).
    pub(super) matrix_result: String,
    /// When someone last acted.
    pub(super) progress: Option<Instant>,
}

impl Deal {
    /// Whether the Matrix room had the whole result.
    pub(super) fn matrix_done(&self) -> bool {
        self.matrix_result.lines().any(|l| l.starts_with("Points: "))
    }

    /// A Discord player's hand shown: recorded; false when it is no longer
    /// the first deal's (the count of cards went up).
    pub(super) fn discord_hand(&mut self, user: u64, text: &str) -> bool {
        let Some(hand) = hand_of(text) else { return true };
        let seen = self.discord_hands.entry(user).or_default();
        seen.push(hand);
        first_deal(seen).len() == seen.len()
    }
}

/// A Matrix player sees something: the result in the room is kept; a
/// hand in their direct room is acted on when it is their turn.
pub(super) async fn on_matrix(deal: &mut Deal, s: &Seen, rid: &OwnedRoomId, clients: &[matrix_sdk::Client; 2]) {
    if !from_bot(s) {
        return;
    }
    let p = s.player;
    if &s.room == rid {
        assert!(!s.body.contains("Your hand"), "a hand in the Matrix room: {s:?}");
        if p == ALICE && !s.edit && !deal.matrix_done() {
            if s.body.starts_with("Result of deal 1") {
                deal.matrix_result = s.body.clone();
            } else if !deal.matrix_result.is_empty() {
                deal.matrix_result.push('\n');
                deal.matrix_result.push_str(&s.body);
            }
        }
        return;
    }
    if !s.notice && s.body.starts_with("member ") {
        return; // the bot joining a direct room
    }
    match &deal.dms[p] {
        Some(dm) => assert_eq!(&s.room, dm, "a message from the bot outside the room and the direct room: {s:?}"),
        None => deal.dms[p] = Some(s.room.clone()),
    }
    let Some(hand) = hand_of(&s.body) else { return };
    deal.matrix_hands[p].push(hand);
    if first_deal(&deal.matrix_hands[p]).len() < deal.matrix_hands[p].len() || deal.matrix_done() {
        return; // the next deal's
    }
    if deal.acted_on[p].as_deref() == Some(s.body.as_str()) {
        return; // shown again
    }
    deal.acted_on[p] = Some(s.body.clone());
    let dm = clients[p].get_room(&s.room).unwrap();
    if s.body.contains("Your turn") {
        let card = first_playable(&s.body).expect("a playable card");
        say(&dm, &format!("play {card}")).await;
        deal.matrix_played[p].insert(hand_of(&s.body).map_or(0, |h| h.len()));
        deal.progress = Some(Instant::now());
    } else if let Some(can) = s.body.lines().find_map(|l| l.strip_prefix("You can: "))
        && can.split(", ").any(|c| c == "healthy")
    {
        say(&dm, "healthy").await;
        deal.progress = Some(Instant::now());
    }
}
