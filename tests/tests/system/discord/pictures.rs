//! Card pictures, a spectator with a Kiebitz and the last trick through
//! the gateway: every picture shows exactly the cards its words name.

use doko_system_tests::fake_discord::{Callback, Config, FakeDiscord, MessageRecord, Opt};

use super::{Bot, Table, WAIT, said};

/// The card labels of a line `PREFIX: [♣Q] ♠10 ...` of a message (the
/// brackets that mark playable cards dropped).
fn labels_after(text: &str, prefix: &str) -> Option<Vec<String>> {
    let line = text.lines().find_map(|l| l.trim().strip_prefix(prefix))?;
    let line = line.split(" -> ").next().unwrap_or(line);
    Some(line.split_whitespace().map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string()).collect())
}

/// The cards a picture was drawn from (read back from the PNG), as labels.
fn picture_labels(png: &[u8]) -> Vec<Vec<String>> {
    let rows = doko_bot::picture::cards_of(png).expect("a card picture made by doko");
    rows.into_iter().map(|r| r.into_iter().map(|c| doko_bot::Lang::En.card(c)).collect()).collect()
}

/// Issue 18 through the gateway: an admin switches the table to card
/// pictures; each hand message carries a picture of exactly that hand,
/// the table message a picture of the trick on the table and the last one
/// (cards everyone saw), the result the whole deal (only once it is over),
/// and no public message ever a hand. A fifth person watches; alice lets
/// her see her hand (Kiebitz): she gets alice's hand with its picture by
/// direct message and nobody else's, ever. `lasttrick` answers privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_pictures_spectators_and_the_last_trick_through_the_gateway() {
    let mut config = Config::default();
    config.users.push(doko_system_tests::fake_discord::FakeUser::new(1_300_000_000_000_001_005, "eve"));
    // names as long as Discord's (32): the result with every trick comes
    // whole (in more than one message where it must)
    for (u, n) in config.users[1..4].iter_mut().zip(["bob", "carol", "dave"]) {
        u.name = format!("{n}{}", "_".repeat(32 - n.len()));
    }
    let names: Vec<String> = config.users[..4].iter().map(|u| u.name.clone()).collect();
    let fake = FakeDiscord::start(config).await.unwrap();
    let data = std::env::temp_dir().join(format!("doko-discord-pic-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&fake, &data);
    let mut t = Table::ready(&fake, &data).await;
    let channel = t.channel;
    let (alice, eve) = (t.people[0].id, t.people[4].id);
    pictures_on_a_watcher_and_her_kiebitz(&mut t, eve).await;
    play_until_a_trick_and_check_its_picture(&mut t).await;
    t.finish_deal().await;

    check_every_hand_picture(&fake.callbacks());
    // eve got alice's hand only: by direct message, never anyone else's
    for m in fake.dms(eve) {
        assert!(m.content.contains("alice's hand"), "{}", m.content);
        assert!(!m.content.contains("Your hand"), "{}", m.content);
    }
    for p in 1..4 {
        assert!(fake.dms(t.people[p].id).iter().all(|m| m.attachments.is_empty()), "no DMs were asked for");
    }
    let _ = alice;
    check_the_public_result(&fake.channel_messages(channel), &names);
    // eve stops watching: no hand for her any more
    t.slash(4, "unwatch", vec![]).await;
    let text = t.slash(4, "hand", vec![]).await;
    assert!(text.contains("not seated"), "{text}");
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop(bot);
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    for secret in ["♣", "♠", "♥", "♦", "Your hand"] {
        assert!(!log.contains(secret), "the log shows {secret}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// Only an admin switches the table to pictures; four join, eve watches
/// and alice lets her see her hand; the deal starts and eve gets alice's
/// hand in words and picture.
async fn pictures_on_a_watcher_and_her_kiebitz(t: &mut Table<'_>, eve: u64) {
    let (fake, channel) = (t.fake, t.channel);
    // only an admin may switch the table to pictures
    let text = t.admin(1, "cards", vec![Opt::string("style", "images")]).await;
    assert!(text.contains("Manage Server"), "{text}");
    t.admin(0, "cards", vec![Opt::string("style", "images")]).await;
    said(fake, channel, "Cards are shown as pictures from now on").await;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    let text = t.slash(4, "watch", vec![]).await;
    assert!(!text.contains("not"), "{text}");
    said(fake, channel, "eve watches the table.").await;
    // a stranger's hand request shows nothing
    let text = t.slash(4, "hand", vec![]).await;
    assert!(text.contains("not seated"), "{text}");
    t.slash(0, "kiebitz", vec![Opt::string("spectator", &format!("<@{eve}>"))]).await;
    said(fake, channel, "alice lets eve see their hand (Kiebitz).").await;
    t.slash(0, "start", vec![]).await;
    // eve's direct message: alice's hand as dealt, in words and picture
    let first = fake
        .wait_for("eve's Kiebitz hand", WAIT, |f| f.dms(eve).into_iter().find(|m| !m.attachments.is_empty()))
        .await
        .unwrap();
    let words = labels_after(&first.content, "alice's hand (you are their Kiebitz: do not tell):").expect("the hand");
    assert_eq!(words.len(), 12, "{}", first.content);
    assert_eq!(first.attachments[0].filename, "hand.png");
    assert_eq!(picture_labels(&first.attachments[0].bytes), vec![words.clone()]);
    // eve asks herself: alice's hand again, in her ephemeral answer
    let text = t.slash(4, "hand", vec![]).await;
    assert!(text.contains("alice's hand"), "{text}");
}

/// Plays until a trick is taken: the table's picture shows the trick on
/// the table and the last one, as its text does; `lasttrick` answers
/// privately, card by card.
async fn play_until_a_trick_and_check_its_picture(t: &mut Table<'_>) {
    for _ in 0..12 {
        t.play(1).await;
        if t.table_messages().last().is_some_and(|m| m.content.contains("Last trick:")) {
            break;
        }
    }
    // one trick taken, one card of the next on the table: the table's
    // picture shows exactly those, as its text does
    let table = t.table_messages().last().cloned().expect("the table message");
    let pic = table
        .attachments
        .iter()
        .find(|a| a.filename == "trick.png")
        .unwrap_or_else(|| panic!("the trick's picture: {:?} {}", table.attachments, table.content));
    let rows = picture_labels(&pic.bytes);
    assert_eq!(rows[0], labels_after(&table.content, "Trick:").unwrap_or_default(), "{}", table.content);
    assert_eq!(Some(rows[1].clone()), labels_after(&table.content, "Last trick:"), "{}", table.content);
    // lasttrick: privately, card by card
    let text = t.slash(1, "lasttrick", vec![]).await;
    assert!(text.starts_with("Last trick (1.): "), "{text}");
    for l in &rows[1] {
        assert!(text.contains(l.as_str()), "{l} in {text}");
    }
}

/// Every hand picture went with its own hand's words, and every hand shown
/// had one.
fn check_every_hand_picture(callbacks: &[Callback]) {
    let mut checked = 0;
    for cb in callbacks {
        for a in cb.attachments.iter().filter(|a| a.filename == "hand.png") {
            let content = cb.content.clone().unwrap_or_default();
            let words = labels_after(&content, "Your hand:")
                .or_else(|| labels_after(&content, "alice's hand (you are their Kiebitz: do not tell):"))
                .unwrap_or_else(|| panic!("a hand picture without its hand: {content}"));
            assert_eq!(picture_labels(&a.bytes), vec![words], "{content}");
            checked += 1;
        }
    }
    assert!(checked >= 48, "a picture with every hand shown: {checked}");
}

/// In public: never a hand picture; the result shows the whole deal, in as
/// many messages as it takes, the deal's picture (of the hands of `names`)
/// with the last.
fn check_the_public_result(public: &[MessageRecord], names: &[String]) {
    assert!(public.iter().all(|m| m.attachments.iter().all(|a| a.filename != "hand.png")));
    // the result, in as many messages as it takes, the deal's picture with
    // the last
    let start = public.iter().position(|m| m.content.starts_with("Result of deal 1")).expect("the result");
    let mut result = String::new();
    let mut deal = None;
    for m in &public[start..] {
        assert!(m.content.chars().count() <= 2000, "a message Discord refuses");
        result.push_str(&m.content);
        result.push('\n');
        if let Some(a) = m.attachments.iter().find(|a| a.filename == "deal.png") {
            deal = Some(a);
            break;
        }
    }
    assert!(!result.contains('…'), "nothing of the result cut off: {result}");
    for n in 1..=12 {
        assert!(result.contains(&format!("\n  {n}. ")), "trick {n} in the result: {result}");
    }
    let rows = picture_labels(&deal.expect("the deal's picture").bytes);
    let hands: Vec<Vec<String>> = names.iter().filter_map(|n| labels_after(&result, &format!("{n}:"))).collect();
    assert_eq!(hands.len(), 4, "{result}");
    for h in &hands {
        assert!(rows.contains(h), "{h:?} in the deal's picture {rows:?}");
    }
}
