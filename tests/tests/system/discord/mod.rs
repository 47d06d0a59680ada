//! The whole system on Discord: the real `doko` binary against the fake
//! Discord (gateway v10 and REST on loopback). Four people play two complete
//! deals only by slash commands and by clicks on their own ephemeral hand
//! messages, as they would in a client; the bot is killed with SIGKILL in
//! the middle of the first deal and started again; the gateway asks it to
//! reconnect (op 7) and invalidates its session (op 9) mid-deal. One player
//! has closed direct messages and asked for hands by DM.
//!
//! Asserted: every interaction answered within Discord's 3 s; hands only
//! ever in ephemeral messages (or the DMs of the person who asked); one
//! table message per deal, edited in place; at most one "could not send
//! you a DM" notice per deal; no route the fake does not know; mentions
//! ping at most the person named.

use doko_system_tests::doko_binary;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use doko_system_tests::fake_discord::{Callback, Config, FakeDiscord, InteractionHandle, Opt, Place};

mod owed;
mod pictures;
mod two_deals;

const WAIT: Duration = Duration::from_secs(20);

/// The bot as a separate process on the fake's API.
struct Bot {
    child: Child,
}

impl Bot {
    fn start(fake: &FakeDiscord, data: &Path) -> Bot {
        Bot::start_logging(fake, data, "info,doko_discord=debug,serenity=warn")
    }

    /// Started with `DOKO_LOG` set to `log`.
    fn start_logging(fake: &FakeDiscord, data: &Path, log_filter: &str) -> Bot {
        Bot::start_with(fake, data, log_filter, None)
    }

    /// Started with a crash point (`DOKO_FAILPOINT`, bot/src/failpoint.rs).
    fn start_with(fake: &FakeDiscord, data: &Path, log_filter: &str, failpoint: Option<&str>) -> Bot {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(data.join("bot.log")).unwrap();
        let mut cmd = Command::new(doko_binary());
        match failpoint {
            Some(f) => cmd.env("DOKO_FAILPOINT", f),
            None => cmd.env_remove("DOKO_FAILPOINT"),
        };
        let child = cmd
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_GUILD", fake.config().guild_id.to_string())
            .env("DOKO_DATA", data)
            .env_remove("DOKO_REDIS_URL")
            .env_remove("DOKO_MATRIX_HOMESERVER")
            // the test plays at machine speed: no rate limits (bot/tests/bounds.rs has them)
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            .env("DOKO_LOG", log_filter)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("starting doko");
        Bot { child }
    }

    /// Waits for the process to end by itself (a crash point): true when it
    /// did within `wait`.
    fn exited(&mut self, wait: Duration) -> bool {
        doko_system_tests::exited(&mut self.child, wait)
    }

    /// SIGKILL: no chance to clean up.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A person at the table with their own latest ephemeral hand message.
struct Person {
    id: u64,
    /// The ephemeral message that shows their hand (the response to their
    /// last command or click).
    hand: Option<u64>,
}

/// Everything the test sent, to check the answers at the end.
struct Table<'a> {
    fake: &'a FakeDiscord,
    channel: u64,
    people: Vec<Person>,
    sent: Vec<InteractionHandle>,
    /// Whom to ask first who is to act.
    next: usize,
}

impl<'a> Table<'a> {
    /// The first channel's table, once the bot is connected and its
    /// commands are registered; nobody seated yet.
    async fn ready(fake: &'a FakeDiscord, data: &Path) -> Table<'a> {
        fake.wait_ready(WAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log(data)));
        fake.wait_for("the commands registered", WAIT, |f| {
            (!f.guild_commands(f.config().guild_id).is_empty()).then_some(())
        })
        .await
        .unwrap();
        let channel = fake.config().channels[0];
        let people = fake.config().users.iter().map(|u| Person { id: u.id, hand: None }).collect();
        Table { fake, channel, people, sent: Vec::new(), next: 0 }
    }

    fn place(&self) -> Place {
        Place::Channel(self.channel)
    }

    /// `/doko-rules <sub> [options]` by person `p` (an admin's command).
    async fn admin(&mut self, p: usize, sub: &str, options: Vec<Opt>) -> String {
        let i = self.fake.slash(self.people[p].id, self.place(), "doko-rules", vec![Opt::sub(sub, options)]);
        let (h, cb) = self.send(i).await;
        answer_text(self.fake, &h, &cb).await
    }

    /// Sends an interaction and waits for its answer.
    async fn send(&mut self, interaction: serde_json::Value) -> (InteractionHandle, Callback) {
        let h = self.fake.send_interaction(interaction).await.unwrap();
        let cb = self.fake.wait_callback(&h, WAIT).await.unwrap();
        assert!(cb.in_time(), "interaction {} answered late or refused: {cb:?}", h.id);
        self.sent.push(h.clone());
        (h, cb)
    }

    /// `/doko <sub> [options]` by person `p`; their hand message is the
    /// answer, when it shows a hand.
    async fn slash(&mut self, p: usize, sub: &str, options: Vec<Opt>) -> String {
        let i = self.fake.slash(self.people[p].id, self.place(), "doko", vec![Opt::sub(sub, options)]);
        let (h, cb) = self.send(i).await;
        assert!(cb.ephemeral(), "/doko {sub} answered in public: {cb:?}");
        let text = answer_text(self.fake, &h, &cb).await;
        if let Some(m) = self.fake.original_message(&h)
            && !m.custom_ids().is_empty()
        {
            self.people[p].hand = Some(m.id);
        }
        text
    }

    /// Clicks a button on person `p`'s hand message; the message is then
    /// updated with the answer.
    async fn click(&mut self, p: usize, custom_id: &str) -> String {
        let msg = self.people[p].hand.expect("a hand message");
        let i = self.fake.click(self.people[p].id, self.place(), msg, custom_id);
        let (h, cb) = self.send(i).await;
        assert!(matches!(cb.kind, 6 | 7), "a click on a hand is answered by updating it: {cb:?}");
        answer_text(self.fake, &h, &cb).await;
        self.fake.message(msg).unwrap().content
    }

    /// The buttons on person `p`'s hand message that can be clicked.
    fn enabled(&self, p: usize) -> Vec<String> {
        let Some(m) = self.people[p].hand.and_then(|id| self.fake.message(id)) else { return vec![] };
        m.enabled_ids()
    }

    /// The action a plain player takes from these buttons: the first
    /// playable card, else "healthy", else the first other choice.
    fn choose(buttons: &[String]) -> Option<String> {
        let command = |id: &String| id.strip_prefix("doko:").unwrap_or(id).split('@').next().unwrap_or("").to_string();
        let moves: Vec<&String> = buttons.iter().filter(|b| command(b) != "hand").collect();
        moves
            .iter()
            .find(|b| command(b).starts_with("play "))
            .or_else(|| moves.iter().find(|b| command(b) == "healthy"))
            .or_else(|| moves.iter().find(|b| !command(b).starts_with("announce")))
            .map(|b| (*b).clone())
    }

    /// The person to act (from a refreshed hand, from the person after
    /// `from` on), acts once. False when nobody has anything to do.
    async fn act(&mut self, from: usize) -> Option<usize> {
        for k in 0..4 {
            let p = (from + k) % 4;
            let refresh = self.enabled(p).into_iter().find(|b| b.starts_with("doko:hand@"));
            match refresh {
                Some(r) => {
                    self.click(p, &r).await;
                }
                None => {
                    self.slash(p, "hand", vec![]).await;
                }
            }
            if let Some(b) = Self::choose(&self.enabled(p)) {
                let answer = self.click(p, &b).await;
                assert!(!answer.is_empty());
                return Some(p);
            }
        }
        None
    }

    /// Makes `n` moves.
    async fn play(&mut self, n: usize) {
        for k in 0..n {
            let p = self.act(self.next).await.unwrap_or_else(|| panic!("nobody could act after {k} of {n} moves"));
            self.next = (p + 1) % 4;
        }
    }

    /// Plays until the next deal's table message is posted: the deal in
    /// play is over. The number of moves made.
    async fn finish_deal(&mut self) -> usize {
        let tables = self.table_messages().len();
        for n in 0..120 {
            if n >= 48 {
                // the last card's table message follows its answer
                let posted = self
                    .fake
                    .wait_for("the next deal's table message", Duration::from_millis(500), |f| {
                        let t = Table::tables_in(f, self.channel);
                        (t > tables).then_some(())
                    })
                    .await;
                if posted.is_ok() {
                    return n;
                }
            }
            let p = self.act(self.next).await.unwrap_or_else(|| panic!("nobody could act after {n} moves"));
            self.next = (p + 1) % 4;
        }
        panic!("the deal did not end in 120 moves");
    }

    fn tables_in(fake: &FakeDiscord, channel: u64) -> usize {
        fake.channel_messages(channel).iter().filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand")).count()
    }

    /// The public table messages: those with the "my hand" button.
    fn table_messages(&self) -> Vec<doko_system_tests::fake_discord::MessageRecord> {
        self.fake
            .channel_messages(self.channel)
            .into_iter()
            .filter(|m| m.custom_ids().iter().any(|id| id == "doko:hand"))
            .collect()
    }
}

fn log(data: &Path) -> String {
    let s = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
    let tail: Vec<&str> = s.lines().rev().take(40).collect();
    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
}

/// Waits until some version of a message in the channel says `text`.
async fn said(fake: &FakeDiscord, channel: u64, text: &str) {
    fake.wait_for(text, WAIT, |f| {
        f.channel_messages(channel)
            .iter()
            .any(|m| {
                m.content.contains(text)
                    || m.versions.iter().any(|v| v["content"].as_str().is_some_and(|c| c.contains(text)))
            })
            .then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {:?}", f_contents(fake, channel)));
}

fn f_contents(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.channel_messages(channel).into_iter().map(|m| m.content).collect()
}

/// The text of an interaction's answer: the callback's, or the deferred
/// response's once edited.
pub(crate) async fn answer_text(fake: &FakeDiscord, h: &InteractionHandle, cb: &Callback) -> String {
    if cb.kind == 5 || cb.kind == 6 {
        let m = fake
            .wait_for("the deferred answer", WAIT, |f| f.original_message(h).filter(|m| m.edits() >= 1))
            .await
            .unwrap();
        return m.content;
    }
    cb.content.clone().unwrap_or_default()
}

/// An admin's moderation through the gateway: a member who is no admin is
/// refused; the admin kicks a player mid-deal (a computer plays the seat
/// to the deal's end, the kicked player's old buttons play nothing),
/// aborts the deal (void, the record says aborted, the seat is freed and
/// the session ends), and ends a new session with its sheet kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_kicks_aborts_and_ends_the_session_through_the_gateway() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data = std::env::temp_dir().join(format!("doko-discord-mod-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    // everything logged, also the libraries' wire traffic as far as the
    // binary lets it through: no hand and no token may show up in it
    let bot = Bot::start_logging(&fake, &data, "trace");
    let mut t = Table::ready(&fake, &data).await;
    let channel = t.channel;
    let bob = t.people[1].id;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    t.play(6).await;
    long_options_are_refused_briefly(&mut t).await;

    // bob is no admin: Discord shows him the admin command, the bot refuses
    let text = t.admin(1, "abort", vec![]).await;
    assert!(text.contains("Manage Server"), "{text}");
    // alice kicks bob by mention; a computer plays his seat to the end
    let text = t.admin(0, "kick", vec![Opt::string("player", &format!("<@{bob}>"))]).await;
    assert!(!text.is_empty());
    said(&fake, channel, "removes bob from the table; a computer plays the seat until this deal ends").await;
    // bob's old hand message: a click plays nothing for him any more and
    // shows him no card of the seat; nor does `hand`
    let old = t.enabled(1);
    let plays: Vec<String> = old.iter().filter(|b| !b.starts_with("doko:hand@")).take(3).cloned().collect();
    assert!(!plays.is_empty(), "bob's old hand has moves to click: {old:?}");
    for b in &plays {
        let before = t.table_messages().last().map(|m| m.versions.len());
        let answer = t.click(1, b).await;
        assert!(!answer.contains("Your turn") && !answer.contains("Your hand"), "{answer}");
        assert!(answer.contains("not seated"), "{answer}");
        let after = t.table_messages().last().map(|m| m.versions.len());
        assert_eq!(before, after, "a kicked player's click changed the table");
    }
    let answer = t.slash(1, "hand", vec![]).await;
    assert!(!answer.contains("Your hand") && answer.contains("not seated"), "{answer}");
    // the others play on; bob's turns are the computer's
    t.people[1].hand = None;
    t.play(4).await;
    // alice aborts the deal: it counts for nobody, bob's seat is freed
    t.admin(0, "abort", vec![]).await;
    said(&fake, channel, "alice aborts the deal; it counts for nobody (record 1)").await;
    said(&fake, channel, "bob's seat is free").await;
    // the record says so
    let text = t.slash(0, "record", vec![]).await;
    let rec = fake
        .wait_for("the record file", WAIT, |f| {
            f.messages().into_iter().rev().find(|m| !m.attachments.is_empty()).map(|m| m.attachments[0].clone())
        })
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {text}"));
    assert!(String::from_utf8_lossy(&rec.bytes).contains("\"aborted\""), "{text}");

    // bob comes back, a new session; alice ends it and its sheet is kept
    t.slash(1, "join", vec![]).await;
    t.slash(0, "start", vec![]).await;
    t.play(4).await;
    t.admin(0, "end-session", vec![]).await;
    said(&fake, channel, "alice ends the session; its score sheet is kept").await;
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop(bot);
    let trace = std::fs::read_to_string(data.join("bot.log")).unwrap();
    // the bot's own spans at TRACE, with their fields (a command's kind,
    // never its text)
    assert!(trace.contains("command") && trace.contains("discord_interaction"), "the log at TRACE:\n{trace}");
    for secret in [fake.config().token.as_str(), "doko:play", "Your hand", "♣", "♠", "♥", "♦"] {
        let hit = trace.lines().find(|l| l.contains(secret));
        assert!(hit.is_none(), "the log shows {secret:?}: {hit:?}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// A 6,000-character option (the most Discord lets a string option hold)
/// to a command of each tree, by an admin: each answer is under 200
/// characters and does not echo the option.
async fn long_options_are_refused_briefly(t: &mut Table<'_>) {
    let long = "x".repeat(6_000);
    let answers = [
        t.slash(0, "help", vec![Opt::string("command", &long)]).await,
        t.admin(0, "set", vec![Opt::string("key", &long), Opt::string("value", "on")]).await,
        t.admin(0, "set", vec![Opt::string("key", "dulle"), Opt::string("value", &long)]).await,
        t.admin(0, "kick", vec![Opt::string("player", &long)]).await,
    ];
    for a in answers {
        assert!(a.chars().count() < 200, "{} characters: {a:.300}", a.chars().count());
        assert!(!a.contains(&long[..100]), "the option is echoed: {a:.300}");
    }
}

impl Table<'_> {
    /// The person to act and the button they would click, from refreshed
    /// hands (from person `from` on), without clicking it.
    async fn ready_move(&mut self, from: usize) -> Option<(usize, String)> {
        for k in 0..4 {
            let p = (from + k) % 4;
            match self.enabled(p).into_iter().find(|b| b.starts_with("doko:hand@")) {
                Some(r) => {
                    self.click(p, &r).await;
                }
                None => {
                    self.slash(p, "hand", vec![]).await;
                }
            }
            if let Some(b) = Self::choose(&self.enabled(p)) {
                return Some((p, b));
            }
        }
        None
    }

    /// The channel's messages that ping person `p` with "your turn", by id.
    fn prompts(&self, p: usize) -> Vec<u64> {
        let start = format!("<@{}>", self.people[p].id);
        self.fake
            .channel_messages(self.channel)
            .iter()
            .filter(|m| m.content.starts_with(&start) && m.content.contains("your turn"))
            .map(|m| m.id)
            .collect()
    }
}

/// A graceful stop as a service manager does it: SIGTERM to the bot in the
/// middle of a deal. It closes its gateway connection properly (a close
/// frame with 1000, Discord's "logging off"), exits 0, and started again it
/// connects anew and the deal goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_the_gateway_and_the_deal_goes_on_after_a_restart() {
    let fake = FakeDiscord::start(Config::default()).await.unwrap();
    let data =
        std::env::temp_dir().join(format!("doko-discord-term-{}-{}", std::process::id(), fake.config().guild_id));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut bot = Bot::start(&fake, &data);
    let mut t = Table::ready(&fake, &data).await;
    for p in 0..4 {
        t.slash(p, "join", vec![]).await;
    }
    t.slash(0, "start", vec![]).await;
    t.play(6).await;
    let pid = bot.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    assert!(bot.exited(WAIT), "no exit after SIGTERM: {}", log(&data));
    let status = bot.child.wait().unwrap();
    assert!(status.success(), "{status:?}: {}", log(&data));
    let conns = fake.connections();
    assert!(conns.iter().any(|c| c.closed_by_client == Some(1000)), "no close frame: {conns:?}");
    // started again: a new session, the deal where it was
    let identified = fake.identify_count();
    let _bot = Bot::start(&fake, &data);
    fake.wait_for("the restarted bot's IDENTIFY", WAIT, |f| {
        (f.identify_count() > identified && f.ready()).then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e:?}: {}", log(&data)));
    for p in &mut t.people {
        p.hand = None;
    }
    t.play(4).await;
    let _ = std::fs::remove_dir_all(&data);
}
