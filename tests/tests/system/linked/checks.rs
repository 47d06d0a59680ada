//! What each side saw of the linked deal: the same result, the table
//! message edited on both, hands only to their own players, and nobody of
//! one platform named or pinged on the other.

use std::collections::HashMap;
use std::time::Duration;

use doko_system_tests::fake_discord::FakeDiscord;
use matrix_sdk::ruma::OwnedRoomId;

use super::deal::Deal;
use super::discord::Discord;
use super::text::{contents, first_deal, hand_of, labels_after, mentioned, points_line, sub_multiset, versions};
use super::{ALICE, BOB, CAROL, DAVE, MATRIX_NAMES};
use crate::synapse::{Seen, from_bot};

/// The four's names.
const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

/// Everyone played their twelve cards from their own platform; the
/// results agree (the points, the hands as dealt). The hands as dealt, by
/// name.
pub(super) fn check_the_cards_played_and_the_results(
    deal: &Deal,
    discord_result: &str,
) -> HashMap<&'static str, Vec<String>> {
    let matrix_cards = deal.matrix_played.clone().map(|s| s.len());
    assert_eq!(matrix_cards, [12, 12], "alice and bob played their twelve cards from Matrix");
    assert_eq!(deal.discord_cards.get(&CAROL), Some(&12), "carol played her twelve cards from Discord");
    assert_eq!(deal.discord_cards.get(&DAVE), Some(&12), "dave played his twelve cards from Discord");
    let matrix_result = deal.matrix_result.clone();
    // the results agree: the points, the hands as dealt
    assert_eq!(points_line(discord_result), points_line(&matrix_result), "{discord_result}\n---\n{matrix_result}");
    let mut dealt: HashMap<&str, Vec<String>> = HashMap::new();
    for n in NAMES {
        let prefix = format!("{n}:");
        let on_discord = labels_after(discord_result, &prefix).unwrap_or_else(|| panic!("{n}: {discord_result}"));
        let on_matrix = labels_after(&matrix_result, &prefix).unwrap_or_else(|| panic!("{n}: {matrix_result}"));
        assert_eq!(on_discord, on_matrix, "{n}'s hand as dealt");
        assert_eq!(on_discord.len(), 12, "{n}'s hand as dealt: {on_discord:?}");
        dealt.insert(n, on_discord);
    }
    for n in NAMES {
        assert!(points_line(discord_result).contains(&format!("{n} ")), "{n} scored: {discord_result}");
    }
    dealt
}

/// Both sides had the table message, edited as the deal went.
pub(super) fn check_both_table_messages(fake: &FakeDiscord, channel: u64, log: &[Seen], rid: &OwnedRoomId) {
    let discord_table = fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| versions(m).iter().any(|v| v.contains("Trick:")))
        .max_by_key(|m| m.versions.len())
        .unwrap_or_else(|| panic!("no table message with a trick on Discord: {:#?}", contents(fake, channel)));
    assert!(discord_table.edits() >= 20, "the Discord table message edited: {} edits", discord_table.edits());
    for n in NAMES {
        assert!(versions(&discord_table).iter().any(|v| v.contains(n)), "{n} at the Discord table");
    }
    let room_tables = log
        .iter()
        .filter(|s| s.player == ALICE && &s.room == rid && from_bot(s) && s.edit && s.body.contains("Trick:"))
        .count();
    assert!(room_tables >= 20, "the Matrix table message edited: {room_tables} edits");
}

/// Every hand each Matrix player was shown: in their own direct room,
/// cards of their own hand; no Discord id, mention or pill on Matrix.
pub(super) fn check_matrix_shows_only_its_own(log: &[Seen], deal: &Deal, dealt: &HashMap<&str, Vec<String>>) {
    for p in [ALICE, BOB] {
        let hands = first_deal(&deal.matrix_hands[p]);
        assert!(hands.iter().any(|h| h.len() == 1), "{} was shown the last card: {hands:?}", MATRIX_NAMES[p]);
        for h in hands {
            assert!(sub_multiset(h, &dealt[MATRIX_NAMES[p]]), "{} was shown {h:?}", MATRIX_NAMES[p]);
        }
    }
    for s in log.iter().filter(|s| from_bot(s)) {
        if s.body.contains("Your hand") {
            assert_eq!(Some(&s.room), deal.dms[s.player].as_ref(), "a hand outside the direct room: {s:?}");
        }
        // no Discord snowflake, no Discord mention on Matrix
        for id in [CAROL, DAVE] {
            let id = id.to_string();
            let html = s.html.clone().unwrap_or_default();
            assert!(!s.body.contains(&id) && !html.contains(&id), "a Discord id on Matrix: {s:?}");
        }
        assert!(mentioned(&s.body).is_empty(), "a Discord mention on Matrix: {s:?}");
        let html = s.html.clone().unwrap_or_default();
        for pill in html.split("matrix.to/#/").skip(1) {
            assert!(
                pill.starts_with("@alice:localhost")
                    || pill.starts_with("@bob:localhost")
                    || pill.starts_with("%40alice%3Alocalhost")
                    || pill.starts_with("%40bob%3Alocalhost")
                    || pill.starts_with("@bot:localhost")
                    || pill.starts_with("%40bot%3Alocalhost")
                    || pill.starts_with('!')
                    || pill.starts_with("%21"),
                "a pill for someone not on Matrix: {s:?}"
            );
        }
    }
}

/// Discord: the hands each player was shown are cards of their own hand,
/// never public, never a DM (dm is off), only the answer to its own
/// player's interaction; no Matrix id on Discord; every interaction
/// answered in time.
pub(super) fn check_discord_shows_only_its_own(
    fake: &FakeDiscord,
    d: &Discord<'_>,
    deal: &Deal,
    dealt: &HashMap<&str, Vec<String>>,
) {
    for (u, n) in [(CAROL, "carol"), (DAVE, "dave")] {
        let hands = first_deal(&deal.discord_hands[&u]);
        assert!(hands.iter().any(|h| h.len() == 1), "{n} was shown the last card: {hands:?}");
        for h in hands {
            assert!(sub_multiset(h, &dealt[n]), "{n} was shown {h:?}, dealt {:?}", dealt[n]);
        }
    }
    // ... and a hand is never public on Discord, never a DM (dm is off),
    // only the answer to its own player's interaction
    let by: HashMap<u64, u64> = d.sent.iter().map(|(h, u)| (h.id, *u)).collect();
    for m in fake.messages() {
        for v in versions(&m) {
            for matrix_id in ["<@@", "@alice:localhost", "@bob:localhost", "@bot:localhost"] {
                assert!(!v.contains(matrix_id), "a Matrix id on Discord: {v}");
            }
            for id in mentioned(&v) {
                assert!(id == CAROL.to_string() || id == DAVE.to_string(), "{id} mentioned on Discord: {v}");
            }
            if !v.contains("Your hand") {
                continue;
            }
            assert!(m.ephemeral(), "a hand in public on Discord: {v}");
            let owner = m.interaction.and_then(|i| by.get(&i)).unwrap_or_else(|| panic!("a hand not asked for: {m:?}"));
            let name = if *owner == CAROL { "carol" } else { "dave" };
            // of their hand as dealt, or the next deal's hand they were
            // shown in answer to their own interaction
            let shown = hand_of(&v).unwrap();
            let own = sub_multiset(&shown, &dealt[name]) || deal.discord_hands[owner].contains(&shown);
            assert!(own, "{name} was shown a hand not their own: {v}");
        }
    }
    for c in fake.callbacks() {
        assert!(c.in_time() && c.elapsed < Duration::from_secs(3), "{c:?}");
        let text = c.content.clone().unwrap_or_default();
        for matrix_id in ["<@@", "@alice:localhost", "@bob:localhost", "@bot:localhost"] {
            assert!(!text.contains(matrix_id), "a Matrix id on Discord: {text}");
        }
        if let Some(shown) = hand_of(&text) {
            assert!(c.ephemeral(), "a hand in public on Discord: {text}");
            let owner = by.get(&c.interaction).unwrap_or_else(|| panic!("a hand not asked for: {c:?}"));
            let name = if *owner == CAROL { "carol" } else { "dave" };
            let own = sub_multiset(&shown, &dealt[name]) || deal.discord_hands[owner].contains(&shown);
            assert!(own, "{name} was shown a hand not their own: {text}");
        }
    }
    for u in [CAROL, DAVE] {
        for m in fake.dms(u) {
            assert!(!m.content.contains("Your hand"), "a hand by DM (dm is off): {}", m.content);
        }
    }
}

/// The Discord side pings only its own people (and them at their turn);
/// the Matrix room prompts nobody from Discord; no route the fake does not
/// know.
pub(super) fn check_prompts_and_pings(fake: &FakeDiscord, channel: u64, log: &[Seen], rid: &OwnedRoomId) {
    for r in fake.requests().iter().filter(|r| matches!(r.method.as_str(), "POST" | "PATCH")) {
        for u in r.body["allowed_mentions"]["users"].as_array().into_iter().flatten() {
            let u = u.as_str().unwrap_or_default();
            assert!(u == CAROL.to_string() || u == DAVE.to_string(), "{u} may be pinged on Discord: {:?}", r.body);
        }
    }
    let prompts: Vec<String> =
        contents(fake, channel).into_iter().filter(|c| c.contains("your turn") && c.contains("<@")).collect();
    assert!(!prompts.is_empty(), "no Discord player was pinged at their turn");
    for c in contents(fake, channel).iter().filter(|c| c.contains("your turn")) {
        assert!(
            c.starts_with(&format!("<@{CAROL}>")) || c.starts_with(&format!("<@{DAVE}>")),
            "a prompt on Discord for someone not on Discord: {c}"
        );
    }
    // ... and the Matrix room prompts nobody from Discord
    for s in log.iter().filter(|s| from_bot(s) && &s.room == rid && s.body.contains("your turn")) {
        assert!(
            !s.body.contains("carol") && !s.body.contains("dave"),
            "a prompt on Matrix for a Discord player: {s:?}"
        );
    }
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
}
