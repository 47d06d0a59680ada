//! A Discord server's defaults and its leaderboard through the gateway:
//! the real `doko` binary against the fake Discord, one guild with two
//! channels.
//!
//! - Every interaction in the guild's channels carries `guild_id` and the
//!   member's permissions (Manage Server for the owner, none of the admin
//!   bits for the others).
//! - The owner sets server-wide defaults in the first channel (`bock on`,
//!   then the language `de`); the second channel takes them with its first
//!   command and its `rules` says where each value comes from (`Server`);
//!   the channel's own setting wins (`Kanal`) while the first channel keeps
//!   the server's; `rules reset` hands the channel's rules back to the
//!   server; a plain member's `server-set` is refused.
//! - In each channel a different person plays a whole deal with three
//!   computers; `/doko-lists leaderboard` then ranks both people (and no
//!   computer) with the points their results and sheets say; `/doko-lists
//!   me` answers privately with the person's lists in this and the other
//!   channel; `/doko-lists list` shows list 1 with its sheet.
//! - Nothing of a hand in the bot's log.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use doko_system_tests::doko_binary;
use doko_system_tests::fake_discord::{Callback, Config, FakeDiscord, InteractionHandle, Opt, Place, permissions};

const WAIT: Duration = Duration::from_secs(20);

/// The admin bits of a member's permissions (`MANAGE_GUILD`,
/// `ADMINISTRATOR`).
const ADMIN_BITS: u64 = permissions::MANAGE_GUILD | permissions::ADMINISTRATOR;

/// The bot as a separate process on the fake's API; killed when dropped.
struct Bot {
    child: Child,
}

impl Bot {
    fn start(fake: &FakeDiscord, data: &Path) -> Bot {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(data.join("bot.log")).unwrap();
        let child = Command::new(doko_binary())
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_GUILD", fake.config().guild_id.to_string())
            .env("DOKO_DATA", data)
            .env_remove("DOKO_FAILPOINT")
            .env_remove("DOKO_REDIS_URL")
            .env_remove("DOKO_MATRIX_HOMESERVER")
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            // everything the bot logs: still no hand in it
            .env("DOKO_LOG", "debug,serenity=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("starting doko");
        Bot { child }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn log_tail(data: &Path) -> String {
    let s = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
    let tail: Vec<&str> = s.lines().rev().take(40).collect();
    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
}

/// The people of the guild as the test drives them, with each one's
/// latest ephemeral hand message per channel.
struct Guild<'a> {
    fake: &'a FakeDiscord,
    guild: u64,
    hands: HashMap<(u64, u64), u64>,
}

impl<'a> Guild<'a> {
    /// Sends `/top sub [options]` by `user` in `channel` and waits for its
    /// answer; checks the interaction carries the guild and the member's
    /// permissions first. The answer's callback and text.
    async fn command(
        &mut self,
        user: u64,
        channel: u64,
        top: &str,
        sub: &str,
        options: Vec<Opt>,
    ) -> (Callback, String) {
        let i = self.fake.slash(user, Place::Channel(channel), top, vec![Opt::sub(sub, options)]);
        self.check_guild_fields(&i, user);
        let (h, cb) = self.send(i).await;
        let text = crate::discord::answer_text(self.fake, &h, &cb).await;
        if let Some(m) = self.fake.original_message(&h)
            && m.custom_ids().iter().any(|id| id.contains(":play ") || id.starts_with("doko:hand@"))
        {
            self.hands.insert((user, channel), m.id);
        }
        (cb, text)
    }

    /// `guild_id` is the guild's, the member's permissions are sent, with
    /// Manage Server for the owner (the first user) only.
    fn check_guild_fields(&self, i: &serde_json::Value, user: u64) {
        assert_eq!(i["guild_id"].as_str(), Some(self.guild.to_string().as_str()), "{i}");
        assert_eq!(i["member"]["user"]["id"].as_str(), Some(user.to_string().as_str()), "{i}");
        let perms: u64 = i["member"]["permissions"]
            .as_str()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no member permissions: {i}"));
        let owner = self.fake.config().users[0].id;
        if user == owner {
            assert_ne!(perms & permissions::MANAGE_GUILD, 0, "the owner manages the server: {perms:#x}");
        } else {
            assert_eq!(perms & ADMIN_BITS, 0, "a plain member: {perms:#x}");
        }
    }

    async fn send(&self, interaction: serde_json::Value) -> (InteractionHandle, Callback) {
        let h = self.fake.send_interaction(interaction).await.unwrap();
        let cb = self.fake.wait_callback(&h, WAIT).await.unwrap();
        assert!(cb.in_time(), "interaction {} answered late or refused: {cb:?}", h.id);
        (h, cb)
    }

    /// `/doko-rules <sub>` (admins).
    async fn admin(&mut self, user: u64, channel: u64, sub: &str, options: Vec<Opt>) -> String {
        self.command(user, channel, "doko-rules", sub, options).await.1
    }

    /// `/doko <sub>`, answered privately.
    async fn doko(&mut self, user: u64, channel: u64, sub: &str, options: Vec<Opt>) -> String {
        let (cb, text) = self.command(user, channel, "doko", sub, options).await;
        assert!(cb.ephemeral(), "/doko {sub} answered in public: {cb:?}");
        text
    }

    /// A click on `user`'s hand message in `channel`; the message's text
    /// after the update.
    async fn click(&mut self, user: u64, channel: u64, custom_id: &str) -> String {
        let msg = self.hands[&(user, channel)];
        let i = self.fake.click(user, Place::Channel(channel), msg, custom_id);
        self.check_guild_fields(&i, user);
        let (h, cb) = self.send(i).await;
        assert!(matches!(cb.kind, 6 | 7), "a click on a hand is answered by updating it: {cb:?}");
        crate::discord::answer_text(self.fake, &h, &cb).await;
        self.fake.message(msg).unwrap().content
    }

    /// The enabled buttons of `user`'s hand message in `channel`.
    fn enabled(&self, user: u64, channel: u64) -> Vec<String> {
        let Some(m) = self.hands.get(&(user, channel)).and_then(|id| self.fake.message(*id)) else { return vec![] };
        m.enabled_ids()
    }

    /// `user` plays the deal being dealt in `channel` with three computers
    /// to its end (their twelve cards), by clicks on their hand, until the
    /// deal's result (`title`) is posted. The result's text.
    async fn play_deal(&mut self, user: u64, channel: u64, title: &str) -> String {
        let mut cards = 0;
        for moves in 0..60 {
            if let Some(r) = result_in(self.fake, channel, title) {
                return r;
            }
            let refresh = self.enabled(user, channel).into_iter().find(|b| b.starts_with("doko:hand@"));
            match refresh {
                Some(r) => {
                    self.click(user, channel, &r).await;
                }
                None => {
                    self.doko(user, channel, "hand", vec![]).await;
                }
            }
            let Some(b) = choose(&self.enabled(user, channel)) else {
                // nothing to do: the deal may be over (a throw-in)
                let hand = self.hands.get(&(user, channel)).and_then(|id| self.fake.message(*id));
                return self
                    .fake
                    .wait_for(title, WAIT, |f| result_in(f, channel, title))
                    .await
                    .unwrap_or_else(|e| panic!("{e}: nothing to do after {moves} moves: {hand:?}"));
            };
            let card = command_of(&b).starts_with("play ");
            let answer = self.click(user, channel, &b).await;
            assert!(!answer.is_empty());
            if card {
                cards += 1;
                if cards == 12 {
                    break;
                }
            }
        }
        assert_eq!(cards, 12, "the deal did not end");
        self.fake
            .wait_for(title, WAIT, |f| result_in(f, channel, title))
            .await
            .unwrap_or_else(|e| panic!("{e}: {:?}", contents(self.fake, channel)))
    }
}

/// A button's command (`doko:play CQ@stamp` is `play CQ`).
fn command_of(id: &str) -> String {
    id.strip_prefix("doko:").unwrap_or(id).split('@').next().unwrap_or("").to_string()
}

/// The action a plain player takes from these buttons: the first playable
/// card, else "healthy", else the first other choice but an announcement.
fn choose(buttons: &[String]) -> Option<String> {
    let moves: Vec<&String> = buttons.iter().filter(|b| command_of(b) != "hand").collect();
    moves
        .iter()
        .find(|b| command_of(b).starts_with("play "))
        .or_else(|| moves.iter().find(|b| command_of(b) == "healthy"))
        .or_else(|| moves.iter().find(|b| !command_of(b).starts_with("announce")))
        .map(|b| (*b).clone())
}

/// The text of the channel's messages that start with `title`, with the
/// messages after it up to the one with the points line (a result may come
/// in pieces).
fn result_in(fake: &FakeDiscord, channel: u64, title: &str) -> Option<String> {
    let msgs = fake.channel_messages(channel);
    let start = msgs.iter().position(|m| m.content.starts_with(title))?;
    let mut out = String::new();
    for m in &msgs[start..] {
        out.push_str(&m.content);
        out.push('\n');
        if m.content.lines().any(|l| l.starts_with("Points: ") || l.starts_with("Punkte: ")) {
            return Some(out);
        }
    }
    None
}

/// A person's points in a result's points line (`Points: bob +3, Bot 1
/// -1, ...`).
fn points_of(result: &str, name: &str) -> i64 {
    let line = result
        .lines()
        .find_map(|l| l.strip_prefix("Points: ").or_else(|| l.strip_prefix("Punkte: ")))
        .unwrap_or_else(|| panic!("no points line: {result}"));
    let line = line.split("  (").next().unwrap_or(line);
    line.split(", ")
        .find_map(|e| e.strip_prefix(&format!("{name} ")))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no points of {name}: {line}"))
}

/// A person's total on a score sheet (names right-aligned in columns of
/// ten after the deal's number and contract): the last deal's row.
fn sheet_total(text: &str, name: &str) -> i64 {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("   #  ")).unwrap_or_else(|| panic!("no sheet: {text}"));
    let names = sheet_names(text);
    let col = names.iter().position(|n| n == name).unwrap_or_else(|| panic!("{name} not on the sheet: {names:?}"));
    let last = lines[header + 1..]
        .iter()
        .take_while(|l| l.len() > 4 && l[..4].trim().parse::<u32>().is_ok())
        .last()
        .unwrap_or_else(|| panic!("no deal on the sheet: {text}"));
    let cell: String = last.chars().skip(23 + 10 * col).take(10).collect();
    cell.trim().parse().unwrap_or_else(|_| panic!("no total in {last:?}"))
}

/// The names on a score sheet, in its columns' order.
fn sheet_names(text: &str) -> Vec<String> {
    let header = text.lines().find(|l| l.starts_with("   #  ")).unwrap_or_else(|| panic!("no sheet: {text}"));
    header
        .chars()
        .skip(23)
        .collect::<Vec<_>>()
        .chunks(10)
        .map(|c| c.iter().collect::<String>().trim().to_string())
        .collect()
}

/// A leaderboard's rows: rank, name, points, deals, win rate, solos.
fn leaderboard_rows(text: &str) -> Vec<(usize, String, i64, u32, String, String)> {
    text.lines()
        .skip(2)
        .filter(|l| l.len() > 21)
        .map(|l| {
            let rank = l[..3].trim().parse().unwrap_or_else(|_| panic!("a row: {l:?}"));
            let name = l[5..21].trim().to_string();
            let rest: Vec<&str> = l[21..].split_whitespace().collect();
            assert_eq!(rest.len(), 4, "a row: {l:?}");
            (rank, name, rest[0].parse().unwrap(), rest[1].parse().unwrap(), rest[2].to_string(), rest[3].to_string())
        })
        .collect()
}

fn contents(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.channel_messages(channel).into_iter().map(|m| m.content).collect()
}

/// The newest message id so far.
fn mark(fake: &FakeDiscord) -> u64 {
    fake.messages().iter().map(|m| m.id).max().unwrap_or(0)
}

/// Waits until the public messages of `channel` made after `since`,
/// together, satisfy `ok`; their text.
async fn posted(fake: &FakeDiscord, channel: u64, since: u64, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let text = |f: &FakeDiscord| {
        f.channel_messages(channel)
            .iter()
            .filter(|m| m.id > since)
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    };
    fake.wait_for(what, WAIT, |f| {
        let t = text(f);
        ok(&t).then_some(t)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}: {:?}", text(fake)))
}

/// Waits until some version of a message in the channel says `text`.
async fn said(fake: &FakeDiscord, channel: u64, text: &str) {
    fake.wait_for(text, WAIT, |f| {
        f.channel_messages(channel)
            .iter()
            .any(|m| m.versions.iter().any(|v| v["content"].as_str().is_some_and(|c| c.contains(text))))
            .then_some(())
    })
    .await
    .unwrap_or_else(|e| panic!("{e}: {:?}", contents(fake, channel)));
}

/// The line of a rules listing about `key`.
fn rule_line<'t>(rules: &'t str, key: &str) -> &'t str {
    let at = format!(" {key} = ");
    rules
        .lines()
        .find(|l| l.get(1..).is_some_and(|r| r.starts_with(&at)))
        .unwrap_or_else(|| panic!("no {key}: {rules}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_defaults_reach_its_channels_and_its_leaderboard_spans_them() {
    let began = std::time::Instant::now();
    let config = Config::default();
    let (guild, ch1, ch2) = (config.guild_id, config.channels[0], config.channels[1]);
    let (alice, bob, carol) = (config.users[0].id, config.users[1].id, config.users[2].id);
    let ids = Ids { ch1, ch2, alice, bob, carol };
    assert_eq!(config.users[0].name, "alice");
    let fake = FakeDiscord::start(config).await.unwrap();
    let data = std::env::temp_dir().join(format!("doko-discord-server-{}-{guild}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&fake, &data);
    fake.wait_ready(WAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log_tail(&data)));
    check_the_three_commands(&fake, guild).await;
    let mut g = Guild { fake: &fake, guild, hands: HashMap::new() };

    the_owner_sets_a_server_default_a_member_may_not(&mut g, ids).await;
    the_server_s_defaults_and_the_channels_own_settings(&mut g, ids).await;
    let results = each_plays_a_deal_in_a_channel(&mut g, ids).await;
    let (board, rows, month) = check_the_leaderboards(&mut g, ids, &results).await;
    check_the_figures_of_each_privately(&mut g, ids, &results, &rows, &month).await;
    check_the_lists_and_the_statistics(&mut g, ids, &results, &board).await;

    // every interaction answered in time, no route the fake does not know
    for c in fake.callbacks() {
        assert!(c.in_time() && c.elapsed < Duration::from_secs(3), "{c:?}");
    }
    assert!(fake.unknown_routes().is_empty(), "{:?}", fake.unknown_routes());
    drop(bot);
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    assert!(log.contains("a channel joined its server"), "{}", log_tail(&data));
    for secret in [fake.config().token.as_str(), "doko:play", "Your hand", "Dein Blatt", "♣", "♠", "♥", "♦"] {
        let hit = log.lines().find(|l| l.contains(secret));
        assert!(hit.is_none(), "the log shows {secret:?}: {hit:?}");
    }
    eprintln!("the server test took {:.1} s", began.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&data);
}

/// The guild's two channels and the three people of the test.
#[derive(Clone, Copy)]
struct Ids {
    ch1: u64,
    ch2: u64,
    /// The owner (Manage Server).
    alice: u64,
    bob: u64,
    carol: u64,
}

/// A row of the leaderboard: place, name, points, deals, won, solos won.
type Row = (usize, String, i64, u32, String, String);

/// The three commands are registered; the admins' needs Manage Server, the
/// lists' not.
async fn check_the_three_commands(fake: &FakeDiscord, guild: u64) {
    let commands = fake
        .wait_for("the commands registered", WAIT, |f| {
            let c = f.guild_commands(guild);
            (!c.is_empty()).then_some(c)
        })
        .await
        .unwrap();
    // the three commands; the admins' needs Manage Server, the lists' not
    let named = |n: &str| commands.iter().find(|c| c["name"] == n).unwrap_or_else(|| panic!("/{n}: {commands:?}"));
    let subs = |n: &str| -> Vec<String> {
        named(n)["options"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|o| o["name"].as_str().map(String::from))
            .collect()
    };
    assert!(named("doko")["default_member_permissions"].is_null());
    assert!(named("doko-lists")["default_member_permissions"].is_null());
    assert_eq!(named("doko-rules")["default_member_permissions"].as_str(), Some("32"));
    assert_eq!(subs("doko-lists"), ["stats", "list", "leaderboard", "me", "analysis", "web"]);
    for s in ["server-set", "server-preset", "server-lang", "server-policy", "server-reset", "server-show"] {
        assert!(subs("doko-rules").iter().any(|x| x == s), "{s} in {:?}", subs("doko-rules"));
    }
}

/// The owner sets bock for the whole server, from the first channel (which
/// joins the server with it); a plain member may not: Discord hides the
/// command, the bot refuses.
async fn the_owner_sets_a_server_default_a_member_may_not(g: &mut Guild<'_>, Ids { ch1, alice, bob, .. }: Ids) {
    let fake = g.fake;
    g.admin(alice, ch1, "server-set", vec![Opt::string("key", "bock"), Opt::string("value", "on")]).await;
    said(fake, ch1, "alice changed this server's defaults: server set bock on (1 ").await;
    // a plain member may not: Discord hides the command, the bot refuses
    let text = g.admin(bob, ch1, "server-set", vec![Opt::string("key", "bock"), Opt::string("value", "off")]).await;
    assert!(text.contains("Manage Server"), "{text}");
    let text = g.admin(bob, ch1, "server-reset", vec![]).await;
    assert!(text.contains("Manage Server"), "{text}");
    assert!(
        !contents(fake, ch1).iter().any(|c| c.contains("bob changed")),
        "a member changed the server: {:?}",
        contents(fake, ch1)
    );
}

/// The second channel takes the server's defaults with its first command;
/// the server's language reaches both channels at once; a channel's own
/// setting wins there; `rules reset` hands the channel's rules back to the
/// server.
async fn the_server_s_defaults_and_the_channels_own_settings(
    g: &mut Guild<'_>,
    Ids { ch1, ch2, alice, bob, carol }: Ids,
) {
    let fake = g.fake;
    let at = mark(fake);
    g.doko(carol, ch2, "rules", vec![]).await;
    let rules = posted(fake, ch2, at, "the rules of the second channel", |t| {
        t.contains(" bock = ") && t.contains("timeout policy")
    })
    .await;
    assert!(rule_line(&rules, "bock").starts_with("* bock = on (server) - "), "{rules}");
    assert!(rules.contains("language en (default), timeout policy standin (default)"), "{rules}");
    assert!(rules.contains("preset ddv (default)"), "{rules}");

    // the server's language: both channels, at once
    g.admin(alice, ch1, "server-lang", vec![Opt::string("language", "de")]).await;
    // (told in the first channel, in the language it has now)
    said(fake, ch1, "alice hat die Vorgaben dieses Servers geändert: server lang de (2 ").await;
    let at = mark(fake);
    g.doko(carol, ch2, "rules", vec![]).await;
    let rules = posted(fake, ch2, at, "the German rules", |t| t.contains(" bock = ") && t.contains("Sprache")).await;
    assert!(rule_line(&rules, "bock").starts_with("* bock = on (Server) - "), "{rules}");
    assert!(rules.contains("Sprache de (Server), bei Zeitüberschreitung standin (Standard)"), "{rules}");
    // an admin's own setting in the second channel wins there
    g.admin(alice, ch2, "set", vec![Opt::string("key", "bock"), Opt::string("value", "off")]).await;
    let at = mark(fake);
    g.admin(alice, ch2, "server-show", vec![]).await;
    let rules = posted(fake, ch2, at, "the channel's bock", |t| t.contains(" bock = ") && t.contains("Sprache")).await;
    assert!(rule_line(&rules, "bock").starts_with("  bock = off (Kanal) - "), "{rules}");
    // the first channel keeps the server's
    let at = mark(fake);
    g.doko(bob, ch1, "rules", vec![]).await;
    let rules =
        posted(fake, ch1, at, "the first channel's rules", |t| t.contains(" bock = ") && t.contains("Sprache")).await;
    assert!(rule_line(&rules, "bock").starts_with("* bock = on (Server) - "), "{rules}");
    assert!(rules.contains("Sprache de (Server)"), "{rules}");
    // the first channel's own language wins over the server's
    g.admin(alice, ch1, "lang", vec![Opt::string("language", "en")]).await;
    let at = mark(fake);
    g.doko(bob, ch1, "rules", vec![]).await;
    let rules = posted(fake, ch1, at, "the English rules", |t| t.contains(" bock = ") && t.contains("language")).await;
    assert!(rule_line(&rules, "bock").starts_with("* bock = on (server) - "), "{rules}");
    assert!(rules.contains("language en (channel), timeout policy standin (default)"), "{rules}");
    // `rules reset` hands the second channel's rules back to the server
    g.admin(alice, ch2, "reset", vec![]).await;
    let at = mark(fake);
    g.doko(carol, ch2, "rules", vec![]).await;
    let rules =
        posted(fake, ch2, at, "the server's bock again", |t| t.contains(" bock = ") && t.contains("Sprache")).await;
    assert!(rule_line(&rules, "bock").starts_with("* bock = on (Server) - "), "{rules}");
}

/// Bob plays a deal in the first channel, carol one in the second, each
/// with three computers; the points each result gave, by name.
async fn each_plays_a_deal_in_a_channel(
    g: &mut Guild<'_>,
    Ids { ch1, ch2, bob, carol, .. }: Ids,
) -> HashMap<&'static str, i64> {
    let mut results = HashMap::new();
    for (who, name, ch, title) in [(bob, "bob", ch1, "Result of deal 1"), (carol, "carol", ch2, "Ergebnis von Spiel 1")]
    {
        g.doko(who, ch, "join", vec![]).await;
        for _ in 0..3 {
            g.doko(who, ch, "addbot", vec![]).await;
        }
        g.doko(who, ch, "start", vec![]).await;
        let result = g.play_deal(who, ch, title).await;
        results.insert(name, points_of(&result, name));
    }
    results
}

/// The leaderboard of the server, in the first channel, in public: both
/// people ranked by their points, no computer; this month's the same. The
/// board, its rows and the month.
async fn check_the_leaderboards(
    g: &mut Guild<'_>,
    Ids { ch1, alice, carol, .. }: Ids,
    results: &HashMap<&str, i64>,
) -> (String, Vec<Row>, String) {
    let fake = g.fake;
    let at = mark(fake);
    let (cb, _) = g.command(alice, ch1, "doko-lists", "leaderboard", vec![]).await;
    assert!(cb.ephemeral(), "{cb:?}");
    let board = posted(fake, ch1, at, "the leaderboard", |t| t.starts_with("Leaderboard of this server")).await;
    let mut lines = board.lines();
    assert_eq!(lines.next(), Some("Leaderboard of this server (2 channels), all time; people only:"), "{board}");
    let header = lines.next().unwrap_or_default();
    for h in ["#", "player", "points", "deals", "won", "solos won"] {
        assert!(header.contains(h), "{header:?}");
    }
    let rows = leaderboard_rows(&board);
    assert_eq!(rows.len(), 2, "both people, nobody else: {board}");
    let mut names: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    names.sort();
    assert_eq!(names, ["bob", "carol"], "{board}");
    for (i, (rank, name, points, deals, rate, solos)) in rows.iter().enumerate() {
        // one more than those with better figures (equal figures share)
        let better = |o: &Row| {
            let f = |r: &Row| (r.2, r.4.trim_end_matches('%').parse::<u32>().unwrap());
            f(o) > f(&rows[i])
        };
        assert_eq!(*rank, 1 + rows.iter().filter(|o| better(o)).count(), "{board}");
        assert_eq!(*points, results[name.as_str()], "{name}'s points: {board}");
        assert_eq!(*deals, 1, "{board}");
        assert!(rate == "0%" || rate == "100%", "{board}");
        assert!(solos == "0/0" || solos == "0/1" || solos == "1/1", "{board}");
    }
    assert!(rows[0].2 >= rows[1].2, "ranked by points: {board}");
    // this month: the same two (all played today)
    let at = mark(fake);
    g.command(carol, ch1, "doko-lists", "leaderboard", vec![Opt::string("period", "month")]).await;
    let month = doko_bot::table::month_of(now_ms());
    let board_month = posted(fake, ch1, at, "the month's leaderboard", |t| t.starts_with("Leaderboard of")).await;
    assert!(
        board_month
            .starts_with(&format!("Leaderboard of this server (2 channels), this month ({month}); people only:")),
        "{board_month}"
    );
    assert_eq!(leaderboard_rows(&board_month), rows, "{board_month}");
    (board, rows, month)
}

/// Bob's own figures, privately: his list here, and from the second
/// channel his list in the first; carol's list is the second channel's;
/// alice played nothing.
async fn check_the_figures_of_each_privately(
    g: &mut Guild<'_>,
    Ids { ch1, ch2, alice, bob, carol }: Ids,
    results: &HashMap<&str, i64>,
    rows: &[Row],
    month: &str,
) {
    let fake = g.fake;
    let bob_points = results["bob"];
    let bob_rank = rows.iter().find(|r| r.1 == "bob").unwrap().0;
    let public_before = contents(fake, ch1).len();
    let (cb, me) = g.command(bob, ch1, "doko-lists", "me", vec![]).await;
    assert!(cb.ephemeral(), "`me` in public: {cb:?}");
    let bob_deals = "1 deal";
    assert!(me.starts_with(&format!("bob in this server:\nAll time: {bob_points} points, {bob_deals}, ")), "{me}");
    assert!(me.contains(&format!("place {bob_rank} of 2")), "{me}");
    assert!(me.contains(&format!("\nThis month ({month}): {bob_points} points, {bob_deals}, ")), "{me}");
    assert!(me.contains("Your latest lists:\nlist 1 in this channel ("), "{me}");
    assert!(me.contains(&format!("1 deal, {bob_points} points, place ")), "{me}");
    let (cb, me) = g.command(bob, ch2, "doko-lists", "me", vec![]).await;
    assert!(cb.ephemeral(), "`me` in public: {cb:?}");
    assert!(me.starts_with("bob auf diesem Server:\nInsgesamt: "), "{me}");
    assert!(me.contains(&format!("Liste 1 in <#{ch1}> (")), "{me}");
    assert!(!me.contains("diesem Kanal ("), "bob played no list in the second channel: {me}");
    // carol asks in the first channel: her list is the second channel's
    let (_, me) = g.command(carol, ch1, "doko-lists", "me", vec![]).await;
    assert!(me.contains(&format!("list 1 in <#{ch2}> (")), "{me}");
    assert!(me.contains(&format!("All time: {} points, 1 deal, ", results["carol"])), "{me}");
    assert_eq!(contents(fake, ch1).len(), public_before, "`me` posted in public: {:?}", contents(fake, ch1));
    // alice played nothing
    let (_, me) = g.command(alice, ch1, "doko-lists", "me", vec![]).await;
    assert_eq!(me.trim(), "You have played no deal in this server yet.", "{me}");
}

/// The list being played in the first channel, in public (by its number
/// too), its computers not on the `board`; a list not kept; the second
/// channel's list agrees with carol's result; the channel's statistics.
async fn check_the_lists_and_the_statistics(
    g: &mut Guild<'_>,
    Ids { ch1, ch2, bob, carol, .. }: Ids,
    results: &HashMap<&str, i64>,
    board: &str,
) {
    let fake = g.fake;
    let bob_points = results["bob"];
    let today = doko_bot::table::date_of(now_ms());
    let at = mark(fake);
    g.command(bob, ch1, "doko-lists", "list", vec![]).await;
    let list = posted(fake, ch1, at, "list 1", |t| t.starts_with("List 1 (") && t.contains("Check:")).await;
    assert!(list.starts_with(&format!("List 1 (1 of 24 deals, being played, started {today}):\n")), "{list}");
    assert_eq!(sheet_total(&list, "bob"), bob_points, "{list}");
    // the computers on the sheet are not ranked
    let computers: Vec<String> = sheet_names(&list).into_iter().filter(|n| n != "bob").collect();
    assert_eq!(computers.len(), 3, "{list}");
    for c in &computers {
        assert!(!board.contains(c.as_str()), "the computer {c} is ranked: {board}");
    }
    // by its number: the same sheet
    let at = mark(fake);
    g.command(bob, ch1, "doko-lists", "list", vec![Opt::int("number", 1)]).await;
    let again = posted(fake, ch1, at, "list 1 by number", |t| t.starts_with("List 1 (") && t.contains("Check:")).await;
    assert_eq!(again, list);
    // a list that is not kept
    let at = mark(fake);
    let (_, text) = g.command(bob, ch1, "doko-lists", "list", vec![Opt::int("number", 7)]).await;
    let said_7 = |t: &str| t.contains("No list number 7 is kept here.");
    if !said_7(&text) {
        posted(fake, ch1, at, "no list 7", said_7).await;
    }
    // the second channel's list (German) agrees with carol's result
    let at = mark(fake);
    g.command(carol, ch2, "doko-lists", "list", vec![]).await;
    let list2 = posted(fake, ch2, at, "Liste 1", |t| t.starts_with("Liste 1 (") && t.contains("Kontrolle")).await;
    assert!(list2.starts_with(&format!("Liste 1 (1 von 24 Spielen, läuft, begonnen {today}):\n")), "{list2}");
    assert_eq!(sheet_total(&list2, "carol"), results["carol"], "{list2}");
    // the channel's statistics
    let at = mark(fake);
    g.command(bob, ch1, "doko-lists", "stats", vec![]).await;
    posted(fake, ch1, at, "the channel's statistics", |t| t.contains("bob") && !t.contains("carol")).await;
}

/// Now, in ms since 1970 (UTC).
fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64
}
