//! The Matrix adapter against a real homeserver: Synapse on loopback
//! (installed from PyPI and started by `scripts/synapse-test-server.sh`),
//! the real `doko` binary as the bot, and four players as matrix-sdk
//! clients who play a complete deal the way people would: they create an
//! encrypted room, invite the bot, `!doko join`, read their hands in the
//! direct rooms the bot opens (encrypted too), bid and play there without
//! the prefix. The admin changes a rule, a non-admin is refused; an invitation
//! from someone not on the allow-list is declined; the bot is
//! killed mid-deal and restarted: a command sent while it was down is
//! answered once it is back, also when it dies (at a crash point) after
//! handling that command and before answering it; it dies again right after
//! committing a card, before showing it, and once back shows the card, then
//! the next player's prompt and hand; every card is shown once, the deal
//! finishes.
//!
//! Every wait is for an event, with a generous timeout; no fixed sleeps
//! (the harness: `common/synapse.rs`).

use crate::synapse;

use doko_system_tests::doko_binary;
use std::time::Duration;

use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId};
use matrix_sdk::{Client, Room};
use synapse::{Bot, Seen, Synapse, WAIT, Watch, first_playable, from_bot, plain, player, quantile, say, timed_client};
use tokio::sync::mpsc;

const PLAYERS: [&str; 4] = ["alice", "bob", "carol", "dave"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_complete_deal_over_matrix_with_a_restart() {
    let t0 = std::time::Instant::now();
    let syn = Synapse::start();
    stage(t0, "synapse up");
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&syn.url, &data);
    stage(t0, "bot serving");

    let mut m = Players::in_an_encrypted_room(t0, &syn, &data).await;
    let mut helps_answered = m.help_rules_and_four_joins().await;
    say(&m.rooms[0], "!doko start").await;
    let mut deal = Deal {
        dms: vec![None, None, None, None],
        plays: 0,
        intruder: None,
        crashed_card: None,
        acted_on: vec![None; 4],
        bot: Some(bot),
        helps_answered: &mut helps_answered,
    };
    let result = m.play_the_deal_across_crashes(&mut deal).await;
    stage(t0, "deal finished");
    assert_eq!(deal.plays, 48, "every card was played once");
    let Deal { dms, intruder, crashed_card, bot, .. } = deal;
    m.check_every_card_shown_once(crashed_card, &result).await;
    m.check_each_help_answered_once_and_a_table_message_a_deal(helps_answered).await;
    m.moderation_in_the_room().await;
    m.bob_at_a_second_table(&dms).await;
    m.check_refusals_private_and_everything_decrypted(intruder, &dms);
    m.the_bot_declines_an_invitation_from_carol().await;
    // no hand ever reached another player's room
    for s in &m.watch.log {
        if from_bot(s) && s.body.contains("Your hand:") {
            let owner = dms[s.player].as_ref().map(|r| r.room_id().to_owned());
            assert_eq!(Some(s.room.clone()), owner, "a hand outside its owner's direct room");
        }
    }
    let (device, recovery_key) = m.check_cross_signing_and_key_backup().await;
    drop(bot);
    let token = check_the_log_is_quiet_and_keeps_the_secrets(&data, &recovery_key);
    m.after_a_logout_the_next_start_logs_in_again(&token, &device).await;
}

/// How long the test has run, printed with what it has reached.
fn stage(t0: std::time::Instant, what: &str) {
    eprintln!("[matrix test] {what}: {} ms", t0.elapsed().as_millis());
}

/// The four players in alice's encrypted table room, and everything they
/// see.
struct Players<'a> {
    t0: std::time::Instant,
    syn: &'a Synapse,
    data: &'a std::path::Path,
    watch: Watch,
    /// Keeps the players' events coming.
    _tx: mpsc::UnboundedSender<Seen>,
    clients: Vec<Client>,
    /// The table room as each player has it.
    rooms: Vec<Room>,
    rid: OwnedRoomId,
}

/// The deal as it goes: the players' direct rooms, the cards played, the
/// crashes and what they left to check.
struct Deal<'h> {
    dms: Vec<Option<Room>>,
    plays: usize,
    /// Who tried to play out of turn.
    intruder: Option<usize>,
    /// The card played as the bot crashed after committing it.
    crashed_card: Option<String>,
    /// The hand message each player last acted on.
    acted_on: Vec<Option<String>>,
    bot: Option<Bot>,
    helps_answered: &'h mut usize,
}

impl<'a> Players<'a> {
    /// Alice creates an encrypted room (she is its creator: an admin) and
    /// invites the bot and the others; all join.
    async fn in_an_encrypted_room(t0: std::time::Instant, syn: &'a Synapse, data: &'a std::path::Path) -> Players<'a> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut watch = Watch::new(rx);
        let mut clients = Vec::new();
        for (i, name) in PLAYERS.iter().enumerate() {
            clients.push(player(&syn.url, name, i, tx.clone()).await);
        }
        let ids: Vec<OwnedUserId> = clients.iter().map(|c| c.user_id().unwrap().to_owned()).collect();

        // alice creates an encrypted room (she is its creator: an admin) and
        // invites the bot and the others
        let mut req = CreateRoom::new();
        req.name = Some("Doko Abend".into());
        req.invite = vec!["@bot:localhost".try_into().unwrap(), ids[1].clone(), ids[2].clone(), ids[3].clone()];
        req.initial_state = vec![
            InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults())
                .to_raw_any(),
        ];
        let room = clients[0].create_room(req).await.unwrap();
        let rid = room.room_id().to_owned();
        let mut rooms = vec![room.clone()];
        for c in &clients[1..] {
            rooms.push(c.join_room_by_id(&rid).await.unwrap());
        }
        // the joins arrive in any order: each is looked for in all that came
        let from = watch.log.len();
        for who in ["@bot:localhost", "@bob:localhost", "@carol:localhost", "@dave:localhost"] {
            let want = format!("member {who} join");
            watch.since(from, "everyone joined", |s| s.player == 0 && s.room == rid && s.body == want).await;
        }
        Players { t0, syn, data, watch, _tx: tx, clients, rooms, rid }
    }

    /// The help (an m.notice with HTML); a rule change refused for bob,
    /// done for alice; four join. The helps answered so far.
    async fn help_rules_and_four_joins(&mut self) -> usize {
        let (rooms, rid) = (&self.rooms, &self.rid);
        say(&rooms[0], "!doko help").await;
        let help =
            self.watch.until("the bot's help", |s| from_bot(s) && &s.room == rid && s.body.contains("Commands:")).await;
        assert!(help.notice && help.html.is_some(), "replies are m.notice with HTML: {help:?}");

        // a rule change: refused for bob, done for alice (the creator)
        say(&rooms[1], "!doko rules set piglets on").await;
        self.watch
            .until("bob refused", |s| from_bot(s) && &s.room == rid && s.body.contains("only the channel's admins"))
            .await;
        say(&rooms[0], "!doko rules set piglets on").await;
        say(&rooms[0], "!doko rules").await;
        self.watch
            .until("the rule changed", |s| from_bot(s) && &s.room == rid && s.body.contains("* piglets = on"))
            .await;

        for (i, r) in rooms.iter().enumerate() {
            say(r, "!doko join").await;
            let name = PLAYERS[i];
            self.watch
                .until("a join", |s| from_bot(s) && &s.room == rid && s.body.contains(&format!("{name} joins")))
                .await;
        }
        stage(self.t0, "room set up, rules changed, four joined");
        1
    }

    /// The deal: each player acts on the hands in their direct room, the
    /// bot killed and crashed on the way. The result in the room.
    async fn play_the_deal_across_crashes(&mut self, deal: &mut Deal<'_>) -> Seen {
        loop {
            let s = self.watch.next().await;
            if !from_bot(&s) {
                continue;
            }
            if s.room == self.rid {
                if s.body.contains("Your hand") {
                    panic!("a hand in the public room: {s:?}");
                }
                if s.body.contains("Result of deal 1") && s.player == 0 {
                    break s;
                }
                continue;
            }
            if !s.body.contains("Your hand:") {
                continue;
            }
            assert!(s.body.starts_with("Doko Abend\n"), "a direct message names its table: {s:?}");
            let p = s.player;
            let dm = match &deal.dms[p] {
                Some(r) => r.clone(),
                None => {
                    let r = self.clients[p].get_room(&s.room).unwrap();
                    assert!(r.latest_encryption_state().await.unwrap().is_encrypted(), "direct rooms are encrypted");
                    deal.dms[p] = Some(r.clone());
                    r
                }
            };
            // a hand shown again (after a restart the bot shows the hand of
            // the person to act once more): acted on already
            if deal.acted_on[p].as_deref() == Some(s.body.as_str()) {
                continue;
            }
            deal.acted_on[p] = Some(s.body.clone());
            if s.body.contains("Your turn") {
                self.play_a_card(deal, p, &dm, &s).await;
            } else if s.body.lines().any(|l| l.starts_with("You can:") && l.contains("healthy")) {
                say(&dm, "healthy").await;
            }
        }
    }

    /// Player `p`, on turn, plays the first playable card of hand `s` in
    /// their direct room `dm`; at the 4th card someone else tries to play,
    /// at the 21st and the 31st the bot is killed and crashes.
    async fn play_a_card(&mut self, deal: &mut Deal<'_>, p: usize, dm: &Room, s: &Seen) {
        let (syn, data) = (self.syn, self.data);
        let card = first_playable(&s.body).expect("a playable card");
        if deal.plays == 3 {
            // someone else tries to play in the room: the refusal goes to
            // their direct room (it could name a card they hold)
            deal.intruder = Some((p + 1) % 4);
            say(&self.rooms[(p + 1) % 4], "!doko play ♣9").await;
        }
        if deal.plays == 20 {
            // mid-deal: kill the bot; a command sent meanwhile is
            // answered once it is back. It comes back with a crash
            // point: it dies after handling the help, before answering
            // it; started again, it answers the help (once) and the
            // deal goes on
            stage(self.t0, "20 cards played; killing the bot");
            deal.bot.take().unwrap().kill();
            say(&self.rooms[0], "!doko help").await;
            *deal.helps_answered += 1;
            let mut crashing = Bot::start_with(&syn.url, data, Some("before-answer:1"));
            assert!(crashing.exited(WAIT), "the crash point was not reached");
            deal.bot = Some(Bot::start(&syn.url, data));
            stage(self.t0, "bot restarted");
        }
        if deal.plays == 30 {
            // the bot dies right after committing this card, before
            // showing it: started again, it shows the card played, then
            // the next player's prompt and hand (the loop waits for
            // that hand: without it the deal stops here)
            stage(self.t0, "30 cards played; a crash after the next commit");
            deal.bot.take().unwrap().kill();
            let mut crashing = Bot::start_with(&syn.url, data, Some("after-commit:1"));
            say(dm, &format!("play {card}")).await;
            assert!(crashing.exited(WAIT), "the crash point was not reached");
            deal.crashed_card = Some(format!("{} plays {card}", PLAYERS[p]));
            deal.bot = Some(Bot::start(&syn.url, data));
            stage(self.t0, "bot restarted");
            deal.plays += 1;
            return;
        }
        say(dm, &format!("play {card}")).await;
        deal.plays += 1;
    }

    /// The result comes first, then the next deal's table message with the
    /// last card; every card shown once in the room's table message, the
    /// one played as the bot crashed too (after its restart, before the
    /// next prompt); the result's points add up to 240.
    async fn check_every_card_shown_once(&mut self, crashed_card: Option<String>, result: &Seen) {
        let rid = &self.rid;
        self.watch
            .until("the next deal's table message", |s| {
                s.player == 0 && from_bot(s) && &s.room == rid && s.body.contains("Deal 2:")
            })
            .await;
        let is_play = |l: &str| PLAYERS.iter().any(|n| l.starts_with(&format!("{n} plays ")));
        let shown: Vec<&str> = self
            .watch
            .log
            .iter()
            .filter(|s| s.player == 0 && &s.room == rid && from_bot(s))
            .flat_map(|s| s.body.lines())
            .filter(|l| is_play(l))
            .collect();
        assert_eq!(shown.len(), 48, "each card shown once: {shown:#?}");
        let crashed_card = crashed_card.expect("the crash at the 31st card");
        assert!(shown.contains(&crashed_card.as_str()), "{crashed_card} was never shown");
        let prompts = self
            .watch
            .log
            .iter()
            .filter(|s| s.player == 0 && &s.room == rid && from_bot(s) && s.body.ends_with("your turn"))
            .count();
        assert!(prompts >= 1, "the prompt after the restart");
        let points: Vec<u32> = result
            .body
            .lines()
            .filter(|l| l.starts_with("Re:") || l.starts_with("Kontra:"))
            .filter_map(|l| l.rsplit(" - ").next()?.split_whitespace().next()?.parse().ok())
            .collect();
        assert_eq!(points.len(), 2, "{}", result.body);
        assert_eq!(points.iter().sum::<u32>(), 240, "{}", result.body);
    }

    /// After the deal: one more help; when it is answered, exactly three
    /// helps have been (the one sent while the bot was down too, once). The
    /// table is one message per deal, edited in place.
    async fn check_each_help_answered_once_and_a_table_message_a_deal(&mut self, mut helps_answered: usize) {
        let rid = &self.rid;
        say(&self.rooms[0], "!doko help").await;
        helps_answered += 1;
        let is_help = |s: &Seen| from_bot(s) && s.player == 0 && s.body.contains("Commands:") && !s.edit;
        self.watch.until("the last help", is_help).await;
        let log = &self.watch.log;
        let answered = log.iter().filter(|s| is_help(s)).count();
        let helps: Vec<(&OwnedRoomId, &str)> =
            log.iter().filter(|s| is_help(s)).map(|s| (&s.room, s.body.lines().next().unwrap_or(""))).collect();
        assert_eq!(
            answered, helps_answered,
            "help answers: a command was answered twice or an old one answered: {helps:#?}"
        );
        // the table is one message per deal, edited in place: the seats, the
        // deal, and the result with the next deal
        let in_room: Vec<&Seen> = log
            .iter()
            .filter(|s| s.player == 0 && &s.room == rid && from_bot(s) && s.body.contains("Rules:"))
            .collect();
        let originals = in_room.iter().filter(|s| !s.edit).count();
        let edits = in_room.iter().filter(|s| s.edit).count();
        assert_eq!(originals, 3, "a table message per deal, whatever the restart");
        assert!(edits >= 48, "the table message is edited as the deal goes on ({edits} edits)");
    }

    /// Moderation in the room (issue 14): bob is no admin; alice (the
    /// creator) kicks carol mid-deal, aborts the deal, and after a new
    /// start ends the session.
    async fn moderation_in_the_room(&mut self) {
        let (rooms, watch) = (&self.rooms, &mut self.watch);
        let room_id = &self.rid;
        let said = |text: &'static str| move |s: &Seen| from_bot(s) && s.room == *room_id && s.body.contains(text);
        say(&rooms[1], "!doko abort").await;
        // (a refusal goes to bob's direct room, or to the room)
        watch
            .until("bob may not abort", |s| {
                from_bot(s) && s.player == 1 && s.body.contains("only the channel's admins")
            })
            .await;
        say(&rooms[0], "!doko kick @carol:localhost").await;
        watch.until("carol kicked", said("alice removes carol from the table; a computer plays the seat")).await;
        say(&rooms[0], "!doko abort").await;
        watch.until("the deal aborted", said("alice aborts the deal; it counts for nobody")).await;
        watch.until("carol's seat freed", said("carol's seat is free")).await;
        say(&rooms[0], "!doko record").await;
        watch.until("the aborted record", |s| from_bot(s) && s.player == 0 && s.body.contains("\"aborted\"")).await;
        say(&rooms[2], "!doko join").await;
        watch.until("carol back", said("carol joins")).await;
        say(&rooms[0], "!doko start").await;
        watch.until("a new session's deal", said("deals.")).await;
        say(&rooms[0], "!doko reset").await;
        watch.until("the session ended", said("alice ends the session; its score sheet is kept")).await;
        stage(self.t0, "kick, abort, reset");
    }

    /// Bob at a second table: a direct-room command is ambiguous now; he
    /// names the table.
    async fn bob_at_a_second_table(&mut self, dms: &[Option<Room>]) {
        let watch = &mut self.watch;
        let mut req = CreateRoom::new();
        req.name = Some("Zweiter Tisch".into());
        req.invite = vec!["@bot:localhost".try_into().unwrap()];
        let second = self.clients[1].create_room(req).await.unwrap();
        let rid2 = second.room_id().to_owned();
        watch
            .until("the bot in the second room", |s| {
                s.player == 1 && s.room == rid2 && s.body == "member @bot:localhost join"
            })
            .await;
        say(&second, "!doko join").await;
        watch.until("bob at the second table", |s| from_bot(s) && s.room == rid2 && s.body.contains("bob joins")).await;
        let bob_dm = dms[1].clone().unwrap();
        say(&bob_dm, "hand").await;
        let ask = watch
            .until("the question which table", |s| {
                from_bot(s) && s.room == bob_dm.room_id() && s.body.contains("You sit at several tables")
            })
            .await;
        let n = ask.body.lines().find_map(|l| l.strip_suffix(": Doko Abend"));
        let n = n.unwrap_or_else(|| panic!("the question lists the tables: {}", ask.body)).to_string();
        say(&bob_dm, &format!("{n}: hand")).await;
        watch
            .until("bob's hand at the first table", |s| {
                from_bot(s)
                    && s.room == bob_dm.room_id()
                    && s.body.starts_with("Doko Abend\n")
                    && (s.body.contains("Your hand:") || s.body.contains("you hold no cards"))
            })
            .await;
    }

    /// The refusal of the play out of turn reached the intruder's direct
    /// room, not the public room; every message was decrypted.
    fn check_refusals_private_and_everything_decrypted(&self, intruder: Option<usize>, dms: &[Option<Room>]) {
        let (log, rid) = (&self.watch.log, &self.rid);
        let q = intruder;
        let refused = log.iter().any(|s| {
            from_bot(s)
                && q.is_some_and(|q| dms[q].as_ref().is_some_and(|d| s.room == d.room_id()))
                && s.body.contains("not your turn")
        });
        assert!(refused, "the refusal reached the player's direct room");
        assert!(
            !log.iter().any(|s| from_bot(s) && &s.room == rid && s.body.contains("not your turn")),
            "a refusal in the public room"
        );
        assert!(
            !log.iter().any(|s| from_bot(s) && s.body.contains("could not decrypt")),
            "a message was not decrypted"
        );
    }

    /// Carol is not on the allow-list: the bot declines her invitation.
    async fn the_bot_declines_an_invitation_from_carol(&mut self) {
        let mut req = CreateRoom::new();
        req.invite = vec!["@bot:localhost".try_into().unwrap()];
        let carols = self.clients[2].create_room(req).await.unwrap();
        let rid3 = carols.room_id().to_owned();
        self.watch
            .until("the bot declines", |s| s.player == 2 && s.room == rid3 && s.body == "member @bot:localhost leave")
            .await;
    }

    /// The bot's account set up cross-signing and key backup on its first
    /// start (issue 23): its device is signed by its own identity as the
    /// players' clients see it, the keys of its rooms are in a backup on
    /// the homeserver, and the recovery key is in a file only the bot can
    /// read. The device and the recovery key.
    async fn check_cross_signing_and_key_backup(&self) -> (String, String) {
        let data = self.data;
        let bot_id: OwnedUserId = "@bot:localhost".try_into().unwrap();
        let session: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(data.join("matrix/session.json")).unwrap()).unwrap();
        let device = session["device_id"].as_str().unwrap().to_string();
        assert!(
            cross_signed(&self.clients[0], &bot_id, &device).await,
            "the bot's device is not cross-signed by its owner"
        );
        let key_file = data.join("matrix/recovery-key");
        let recovery_key = std::fs::read_to_string(&key_file).expect("the recovery key file");
        assert!(recovery_key.trim().len() > 40, "a recovery key: {} characters", recovery_key.trim().len());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "the recovery key file is readable by the bot's user only");
        }
        let backed_up = backup_count(&self.syn.url, session["access_token"].as_str().unwrap()).await;
        assert!(backed_up > 0, "no room key in the bot's key backup");
        stage(self.t0, &format!("cross-signed, {backed_up} room keys in the backup"));
        (device, recovery_key)
    }

    /// The session is logged out elsewhere: the next start logs in again,
    /// as a new device that recovers the account's secrets with the
    /// recovery key and is cross-signed again.
    async fn after_a_logout_the_next_start_logs_in_again(&self, token: &str, device: &str) {
        let (syn, data) = (self.syn, self.data);
        let bot_id: OwnedUserId = "@bot:localhost".try_into().unwrap();
        let r = matrix_sdk::reqwest::Client::new()
            .post(format!("{}/_matrix/client/v3/logout", syn.url))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "logout: {}", r.status());
        let before = std::fs::read_to_string(data.join("bot.log")).unwrap().len();
        let bot = Bot::start(&syn.url, data);
        // a new device (its stores are gone): it recovers the account's secrets
        // with the recovery key, and is cross-signed again
        let recovered = "recovered the account's secrets with the recovery key";
        let t = std::time::Instant::now();
        while !std::fs::read_to_string(data.join("bot.log")).unwrap().contains(recovered) && t.elapsed() < WAIT {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let session: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(data.join("matrix/session.json")).unwrap()).unwrap();
        let new_device = session["device_id"].as_str().unwrap().to_string();
        assert_ne!(new_device, device, "a new device after the logout");
        assert!(cross_signed(&self.clients[0], &bot_id, &new_device).await, "the new device is not cross-signed");
        drop(bot);
        let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
        assert_eq!(log.matches("the stored Matrix session was refused").count(), 1, "{log}");
        assert_eq!(log.matches("logged in; session stored").count(), 2, "{log}");
        assert_eq!(log.matches(recovered).count(), 1, "{log}");
        // the bot's own WARN: the refused session, nothing from setting up the
        // new device (the SDK warns about the history it cannot decrypt and its
        // device keys not uploaded yet: a new device's first start)
        let loud: Vec<String> = log[before..]
            .lines()
            .map(plain)
            .filter(|l| (l.contains(" WARN ") || l.contains("ERROR ")) && l.contains("doko"))
            .collect();
        assert_eq!(loud.len(), 1, "{loud:#?}");
        assert_eq!(log.matches("set up cross-signing and key backup").count(), 1, "set up once per account: {log}");
    }
}

/// Logged in once, then the stored session; no secret in the log, and
/// nothing an operator must act on. The access token.
fn check_the_log_is_quiet_and_keeps_the_secrets(data: &std::path::Path, recovery_key: &str) -> String {
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    let mut loud: std::collections::BTreeMap<String, usize> = Default::default();
    for l in log.lines().map(plain).filter(|l| l.contains(" WARN ") || l.contains("ERROR ")) {
        let l = l.as_str();
        let level = if l.contains("ERROR ") { "ERROR" } else { "WARN" };
        let what: String = l.split(level).nth(1).unwrap_or("").chars().take(400).collect();
        *loud.entry(format!("{level} {what}")).or_default() += 1;
    }
    eprintln!("WARN and ERROR lines of the bot over the session: {}", loud.values().sum::<usize>());
    for (line, n) in &loud {
        eprintln!("{n:5} {line}");
    }
    assert!(loud.is_empty(), "a quiet log: nothing an operator must act on was logged, yet: {loud:#?}");
    assert_eq!(log.matches("logged in; session stored").count(), 1, "{log}");
    // (four starts after the first: two crashes, each followed by a start)
    assert_eq!(log.matches("restored the stored Matrix session").count(), 4, "{log}");
    assert_eq!(log.matches("failpoint: aborting").count(), 2, "{log}");
    let session: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data.join("matrix/session.json")).unwrap()).unwrap();
    let token = session["access_token"].as_str().unwrap().to_string();
    assert!(token.len() > 8 && !log.contains(&token), "the access token was logged");
    assert!(!log.contains("pw-bot"), "the password was logged");
    assert!(!log.contains(recovery_key.trim()), "the recovery key was logged");
    assert_eq!(log.matches("set up cross-signing and key backup").count(), 1, "{log}");
    token
}

/// Whether `device` of `user` is signed by `user`'s own cross-signing
/// identity, as `client` sees it (asked again until it is, for up to
/// [`WAIT`]: the signature reaches other clients through their syncs).
async fn cross_signed(client: &Client, user: &matrix_sdk::ruma::UserId, device: &str) -> bool {
    let t = std::time::Instant::now();
    loop {
        let _ = client.encryption().request_user_identity(user).await;
        let devices = client.encryption().get_user_devices(user).await.unwrap();
        if devices.devices().any(|d| d.device_id().as_str() == device && d.is_cross_signed_by_owner()) {
            return true;
        }
        if t.elapsed() > WAIT {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// How many room keys the current key backup of the token's account holds
/// (`GET /room_keys/version`; 0 when there is none).
async fn backup_count(url: &str, token: &str) -> u64 {
    let t = std::time::Instant::now();
    loop {
        let r = matrix_sdk::reqwest::Client::new()
            .get(format!("{url}/_matrix/client/v3/room_keys/version"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let n = if r.status().is_success() {
            serde_json::from_str::<serde_json::Value>(&r.text().await.unwrap()).unwrap()["count"].as_u64().unwrap_or(0)
        } else {
            0
        };
        // the upload runs beside the syncs: give it a moment
        if n > 0 || t.elapsed() > WAIT {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The figure for BENCHMARKS.md (issue 23), run by hand on a release
/// build: `DOKO_BIN=.../release/doko cargo test -p doko-system-tests --test
/// matrix -- --ignored --nocapture answer_time` (`DOKO_BENCH_REDIS=1`: the
/// bot on a Redis store). In one encrypted room on the test Synapse: the
/// bot's answer to `!doko rules` (sent to the answer seen by the sender),
/// next to a plain round trip (alice's message seen by bob, bob's answer
/// seen by alice), alternating, 40 of each after a warm-up. Printed, not asserted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement for BENCHMARKS.md, run by hand on a release build"]
async fn answer_time_next_to_a_plain_round_trip() {
    let syn = Synapse::start();
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let redis = std::env::var_os("DOKO_BENCH_REDIS").map(|_| doko_system_tests::LocalRedis::start().unwrap());
    let bot = Bot::start_on(&syn.url, &data, None, redis.as_ref().map(|r| r.url()).as_deref());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let alice = timed_client(&syn.url, "alice", 0, tx.clone()).await;
    let bob = timed_client(&syn.url, "bob", 1, tx.clone()).await;
    let mut req = CreateRoom::new();
    req.invite = vec!["@bot:localhost".try_into().unwrap(), "@bob:localhost".try_into().unwrap()];
    req.initial_state = vec![
        InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults()).to_raw_any(),
    ];
    let room = alice.create_room(req).await.unwrap();
    let rid = room.room_id().to_owned();
    // everyone in, and the bot answering
    let bob_room = loop {
        if let Ok(r) = bob.join_room_by_id(&rid).await {
            break r;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // (who saw it: alice 0, bob 1; body, sender)
    let mut wait_for = async |pred: &dyn Fn(usize, &str, &str) -> bool| loop {
        let a = tokio::time::timeout(WAIT, rx.recv()).await.expect("an answer").unwrap();
        if pred(a.who, &a.body, a.sender.as_str()) {
            return a.at;
        }
    };
    let rules = |w: usize, b: &str, s: &str| w == 0 && s == "@bot:localhost" && b.contains("House rules");
    for tries in 0.. {
        assert!(tries < 24, "the bot never answered");
        say(&room, "!doko rules").await;
        if tokio::time::timeout(Duration::from_secs(5), wait_for(&rules)).await.is_ok() {
            break;
        }
    }
    let (mut bot_times, mut plain) = (Vec::new(), Vec::new());
    // (the first five of each are a warm-up, and may meet a late answer to
    // the bot's first `rules`)
    for i in 0..45 {
        let t0 = std::time::Instant::now();
        say(&room, "!doko rules").await;
        let at = wait_for(&rules).await;
        if i >= 5 {
            bot_times.push(at - t0);
        }
        let t0 = std::time::Instant::now();
        let (ping, pong) = (format!("ping {i}"), format!("pong {i}"));
        say(&room, &ping).await;
        wait_for(&|w, b, s| w == 1 && s == "@alice:localhost" && b == ping).await;
        say(&bob_room, &pong).await;
        let at = wait_for(&|w, b, s| w == 0 && s == "@bob:localhost" && b == pong).await;
        if i >= 5 {
            plain.push(at - t0);
        }
    }
    let store = if redis.is_some() { "Redis" } else { "embedded" };
    let (bm, b90) = (quantile(&mut bot_times, 0.5), quantile(&mut bot_times, 0.9));
    let (pm, p90) = (quantile(&mut plain, 0.5), quantile(&mut plain, 0.9));
    eprintln!(
        "answer time ({store} store, {}): bot median {bm:.1} ms, p90 {b90:.1} ms; plain round trip median {pm:.1} ms, p90 {p90:.1} ms; ratio median {:.2}, p90 {:.2}",
        doko_binary().display(),
        bm / pm,
        b90 / p90
    );
    drop(bot);
}
