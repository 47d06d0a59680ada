//! The durable outbox through the gateway: what a bot that crashed at a
//! crash point owed is delivered once after its restart.

use doko_system_tests::fake_discord::{Config, FakeDiscord};

use super::{Bot, Table, WAIT, f_contents, log, said};
use std::path::Path;

/// The log filter of the bots started here.
const QUIET: &str = "info,doko_discord=debug,serenity=warn";

/// The durable outbox (issue 23) through the gateway: the bot crashes at a
/// crash point right after committing a deal's last card, before anything
/// of it is delivered; started again, it posts what it owed (the result,
/// the next deal's table message) once, then pings the person to act, who
/// plays on. Then the same crash mid-deal, and the bot that delivers what
/// was owed crashes after sending it but before marking it delivered;
/// started again, it sends it all again with the same nonces, which Discord
/// (`enforce_nonce`) answers with the first messages: one prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_crashed_bot_owed_arrives_once_after_the_restart() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data =
        std::env::temp_dir().join(format!("doko-discord-owed-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut bot = Bot::start(&fake, &data);
    let mut t = Table::ready(&fake, &data).await;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    // four "healthy" and 47 cards: one card is left
    t.play(51).await;
    let (p, last) = t.ready_move(t.next).await.expect("the last card");
    assert!(last.contains(":play "), "{last}");

    let (mut crashing, tables) = crash_right_after_the_last_card(&t, &data, &mut bot, (p, &last)).await;
    // started again: what it owed, then the prompt
    let (mut bot, identified) = restart(&fake, &data, &mut crashing, None);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap();
    let to_act = result_table_and_one_prompt_once(&t, &data, tables).await;
    // the person pinged plays on
    t.next = to_act;
    t.play(3).await;

    let mut bot = crash_mid_deal_and_while_delivering(&mut t, &data, &mut bot).await;
    t.play(2).await;
    bot.kill();
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    let log_text = std::fs::read_to_string(data.join("bot.log")).unwrap();
    assert_eq!(log_text.matches("failpoint: aborting").count(), 3, "{log_text}");
    let _ = std::fs::remove_dir_all(&data);
}

/// Kills `bot` and starts another, with a crash point if given: the new
/// bot and the IDENTIFYs seen before it started.
fn restart(fake: &FakeDiscord, data: &Path, bot: &mut Bot, failpoint: Option<&str>) -> (Bot, usize) {
    bot.kill();
    let identified = fake.identify_count();
    let b = Bot::start_with(fake, data, QUIET, failpoint);
    (b, identified)
}

/// A bot that dies right after its next commit: person `p` clicks the
/// `last` card, the bot dies before delivering anything of it. The dead
/// bot and the table messages so far.
async fn crash_right_after_the_last_card(
    t: &Table<'_>,
    data: &Path,
    bot: &mut Bot,
    (p, last): (usize, &str),
) -> (Bot, usize) {
    let (fake, channel) = (t.fake, t.channel);
    let (mut crashing, identified) = restart(fake, data, bot, Some("after-commit:1"));
    fake.wait_for("the bot's IDENTIFY", WAIT, |f| (f.identify_count() > identified && f.ready()).then_some(()))
        .await
        .unwrap();
    let msg = t.people[p].hand.unwrap();
    let click = fake.click(t.people[p].id, t.place(), msg, last);
    fake.send_interaction(click).await.unwrap();
    assert!(crashing.exited(WAIT), "the crash point was not reached: {}", log(data));
    let tables = t.table_messages().len();
    assert!(
        !fake.channel_messages(channel).iter().any(|m| m.content.contains("Result of deal 1")),
        "delivered before the crash"
    );
    (crashing, tables)
}

/// What the restarted bot owed, once each: the result, then the next
/// deal's table message, then one prompt. The person prompted.
async fn result_table_and_one_prompt_once(t: &Table<'_>, data: &Path, tables: usize) -> usize {
    let (fake, channel) = (t.fake, t.channel);
    said(fake, channel, "Result of deal 1").await;
    // (the result comes first, then the next deal's table message, then
    // the prompt)
    fake.wait_for("the next deal's table message", WAIT, |f| (Table::tables_in(f, channel) > tables).then_some(()))
        .await
        .unwrap();
    let newest = |t: &Table| t.table_messages().iter().map(|m| m.id).max().unwrap_or(0);
    let after = |t: &Table, q: usize| t.prompts(q).into_iter().filter(|id| *id > newest(t)).count();
    let to_act = fake
        .wait_for("the prompt after the restart", WAIT, |_| (0..4).find(|q| after(t, *q) > 0))
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {:?} {}", f_contents(fake, channel), log(data)));
    assert_eq!(
        t.table_messages().len(),
        tables + 1,
        "the next deal's table message, once: {:?}",
        f_contents(fake, channel)
    );
    assert_eq!((0..4).map(|q| after(t, q)).sum::<usize>(), 1, "one prompt: {:?}", f_contents(fake, channel));
    let results: Vec<u64> = fake
        .channel_messages(channel)
        .iter()
        .filter(|m| m.versions.iter().any(|v| v["content"].as_str().is_some_and(|c| c.contains("Result of deal 1"))))
        .map(|m| m.id)
        .collect();
    assert_eq!(results.len(), 1, "the result once: {:?}", f_contents(fake, channel));
    to_act
}

/// The same crash mid-deal; then the bot that delivers what was owed dies
/// too, after sending it and before marking it delivered: the third one
/// sends it all again, with the same nonces, and there is one prompt. The
/// third bot, its prompted person next.
async fn crash_mid_deal_and_while_delivering(t: &mut Table<'_>, data: &Path, bot: &mut Bot) -> Bot {
    let (fake, channel) = (t.fake, t.channel);
    let (p, card) = t.ready_move(t.next).await.expect("a card");
    let (mut crashing, identified) = restart(fake, data, bot, Some("after-commit:1"));
    fake.wait_for("the bot's IDENTIFY", WAIT, |f| (f.identify_count() > identified && f.ready()).then_some(()))
        .await
        .unwrap();
    let newest_before = fake.messages().iter().map(|m| m.id).max().unwrap_or(0);
    let click = fake.click(t.people[p].id, t.place(), t.people[p].hand.unwrap(), &card);
    fake.send_interaction(click).await.unwrap();
    assert!(crashing.exited(WAIT), "the crash point was not reached: {}", log(data));
    let (mut crashing, _) = restart(fake, data, &mut crashing, Some("after-deliver:1"));
    assert!(crashing.exited(WAIT), "the second crash point was not reached: {}", log(data));
    let repeats = fake.nonce_repeats();
    let (bot, _) = restart(fake, data, &mut crashing, None);
    fake.wait_for("what was owed, sent again", WAIT, |f| (f.nonce_repeats() > repeats).then_some(()))
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {}", log(data)));
    // one prompt after the crash, though it was sent twice
    let prompts: Vec<u64> = (0..4).flat_map(|q| t.prompts(q)).filter(|id| *id > newest_before).collect();
    assert_eq!(prompts.len(), 1, "one prompt: {:?}", f_contents(fake, channel));
    let made: Vec<_> = fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| m.id > newest_before)
        .filter_map(|m| m.versions[0]["nonce"].as_str().map(str::to_string))
        .collect();
    let mut distinct = made.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(made.len(), distinct.len(), "two messages with one nonce: {made:?}");
    t.next = (0..4).find(|q| t.prompts(*q).contains(&prompts[0])).unwrap();
    bot
}
