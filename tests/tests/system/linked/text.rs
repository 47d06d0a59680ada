//! Reading what the fake Discord shows: buttons, hands, results, mentions
//! and the table message.

use doko_system_tests::fake_discord::{FakeDiscord, MessageRecord};

use super::DWAIT;

/// A button's command (`doko:play CQ@stamp` is `play CQ`).
pub(super) fn command_of(id: &str) -> String {
    id.strip_prefix("doko:").unwrap_or(id).split('@').next().unwrap_or("").to_string()
}

/// What a plain player does from these buttons: the first playable card,
/// else `healthy`; nothing else (no announcements).
pub(super) fn choose(buttons: &[String]) -> Option<String> {
    buttons
        .iter()
        .find(|b| command_of(b).starts_with("play "))
        .or_else(|| buttons.iter().find(|b| matches!(command_of(b).as_str(), "bid healthy" | "healthy")))
        .cloned()
}

/// The cards of a line `PREFIX: [♣Q] ♠10 ...` of a text (brackets that
/// mark playable cards dropped).
pub(super) fn labels_after(text: &str, prefix: &str) -> Option<Vec<String>> {
    let line = text.lines().find_map(|l| l.trim().strip_prefix(prefix))?;
    let line = line.split(" -> ").next().unwrap_or(line);
    Some(line.split_whitespace().map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string()).collect())
}

/// The cards of the `Your hand:` line of a text.
pub(super) fn hand_of(text: &str) -> Option<Vec<String>> {
    labels_after(text, "Your hand:")
}

/// Whether every card of `part` is in `whole` (as many times).
pub(super) fn sub_multiset(part: &[String], whole: &[String]) -> bool {
    let mut left: Vec<&String> = whole.iter().collect();
    part.iter().all(|c| match left.iter().position(|w| *w == c) {
        Some(i) => {
            left.remove(i);
            true
        }
        None => false,
    })
}

/// The hands shown to one person in order, split where the count of cards
/// goes up (the next deal): those of the first deal.
pub(super) fn first_deal(hands: &[Vec<String>]) -> &[Vec<String>] {
    let end = hands.windows(2).position(|w| w[1].len() > w[0].len()).map_or(hands.len(), |i| i + 1);
    &hands[..end]
}

/// The text of the channel's messages from the one that starts with
/// `title` up to the one with the points line (a result may come in
/// pieces).
pub(super) fn result_in(fake: &FakeDiscord, channel: u64, title: &str) -> Option<String> {
    let msgs = fake.channel_messages(channel);
    let start = msgs.iter().position(|m| m.content.starts_with(title))?;
    let mut out = String::new();
    for m in &msgs[start..] {
        out.push_str(&m.content);
        out.push('\n');
        if m.content.lines().any(|l| l.starts_with("Points: ")) {
            return Some(out);
        }
    }
    None
}

/// The `Points:` line of a result.
pub(super) fn points_line(result: &str) -> String {
    result.lines().find(|l| l.starts_with("Points: ")).unwrap_or_else(|| panic!("no points line: {result}")).to_string()
}

/// The contents of the channel's messages.
pub(super) fn contents(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.channel_messages(channel).into_iter().map(|m| m.content).collect()
}

/// Every text of a message: each version's content.
pub(super) fn versions(m: &MessageRecord) -> Vec<String> {
    let mut out: Vec<String> = m.versions.iter().filter_map(|v| v["content"].as_str().map(String::from)).collect();
    out.push(m.content.clone());
    out
}

/// The newest message id so far.
pub(super) fn mark(fake: &FakeDiscord) -> u64 {
    fake.messages().iter().map(|m| m.id).max().unwrap_or(0)
}

/// Waits until some public message of the channel after `since` (any
/// version of it) says `text`; that text.
pub(super) async fn posted(fake: &FakeDiscord, channel: u64, since: u64, text: &str) -> String {
    fake.wait_for(text, DWAIT, |f| {
        f.channel_messages(channel).iter().filter(|m| m.id > since).flat_map(versions).find(|c| c.contains(text))
    })
    .await
    .unwrap_or_else(|e| panic!("{e}: {:#?}", contents(fake, channel)))
}

/// The ids `<@123>` mentions name in a text.
pub(super) fn mentioned(text: &str) -> Vec<String> {
    text.split("<@")
        .skip(1)
        .filter_map(|r| {
            let r = r.strip_prefix('!').unwrap_or(r);
            let end = r.find('>')?;
            Some(r[..end].to_string())
        })
        .collect()
}

/// The Discord player the Discord table message names to act (`carol to
/// play.`), `Some("")` for someone else, `None` when it names nobody.
pub(super) fn to_act_on_discord(fake: &FakeDiscord, channel: u64) -> Option<String> {
    let table = fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand") || m.content.contains("Rules:"))
        .max_by_key(|m| m.id)?;
    for l in table.content.lines() {
        for n in ["alice", "bob", "carol", "dave"] {
            if l.starts_with(&format!("{n} to ")) || l.starts_with(&format!("{n} must announce")) {
                return Some(if n == "carol" || n == "dave" { n.to_string() } else { String::new() });
            }
        }
    }
    None
}
