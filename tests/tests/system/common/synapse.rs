//! The Matrix test harness shared by the Matrix whole-system tests
//! (`matrix.rs`, `matrix_pictures.rs`, `matrix_server.rs`, `linked.rs`; each includes it with
//! `#[path = "common/synapse.rs"] mod synapse;`): a throwaway Synapse on
//! loopback (installed from PyPI and started by
//! `scripts/synapse-test-server.sh`), the real `doko` binary as the bot,
//! matrix-sdk clients for the people, and one stream of everything they
//! see.
//!
//! Every wait is for an event, with a generous timeout; no fixed sleeps.

#![allow(dead_code)]

use doko_system_tests::doko_binary;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use matrix_sdk::config::SyncSettings;
use matrix_sdk::deserialized_responses::EncryptionInfo;
use matrix_sdk::ruma::events::room::member::{MembershipState, OriginalSyncRoomMemberEvent, StrippedRoomMemberEvent};
use matrix_sdk::ruma::events::room::message::{
    ImageMessageEventContent, MessageType, OriginalSyncRoomMessageEvent, Relation, RoomMessageEventContent,
};
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId};
use matrix_sdk::{Client, Room};
use tokio::sync::mpsc;

/// How long any one wait may take (the test machines are slow).
pub const WAIT: Duration = Duration::from_secs(120);

/// A Synapse started for this test, stopped when dropped.
pub struct Synapse {
    pub dir: PathBuf,
    pub url: String,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

impl Synapse {
    /// Started with the users of `a_complete_deal_over_matrix_with_a_restart`
    /// (`bot alice bob carol dave`).
    pub fn start() -> Synapse {
        Synapse::start_with_users("bot alice bob carol dave")
    }

    /// Started with these users (space-separated names; each with the
    /// password `pw-<name>`; `bot` is an admin).
    pub fn start_with_users(users: &str) -> Synapse {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("doko-synapse-{}-{port}", std::process::id()));
        let venv = std::env::var_os("DOKO_SYNAPSE_VENV").map(PathBuf::from).unwrap_or_else(|| {
            let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
            home.join(".cache/doko-synapse/venv")
        });
        let out = Command::new("bash")
            .arg(workspace().join("scripts/synapse-test-server.sh"))
            .env("SYN_DIR", &dir)
            .env("SYN_PORT", port.to_string())
            .env("SYN_VENV", &venv)
            .env("SYN_USERS", users)
            .output()
            .expect("running scripts/synapse-test-server.sh");
        eprintln!("{}", String::from_utf8_lossy(&out.stdout));
        let syn = Synapse { dir, url: format!("http://127.0.0.1:{port}") };
        assert!(out.status.success(), "Synapse did not start: {}", String::from_utf8_lossy(&out.stderr));
        syn
    }
}

impl Synapse {
    /// Synapse's process id, from its pid file.
    pub fn pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.dir.join("synapse.pid")).ok()?.trim().parse().ok()
    }
}

/// The CPU time process `pid` (None: this process) has used so far, user
/// and system, in milliseconds (Linux's `/proc/<pid>/stat`, in clock
/// ticks of 10 ms).
pub fn cpu_ms(pid: Option<u32>) -> f64 {
    let path = pid.map_or("/proc/self/stat".to_string(), |p| format!("/proc/{p}/stat"));
    let stat = std::fs::read_to_string(path).unwrap_or_default();
    // the fields after the command's name (which may hold spaces), from
    // the state (field 3): utime and stime are fields 14 and 15
    let rest = stat.rsplit_once(") ").map_or("", |(_, r)| r);
    let f: Vec<f64> = rest.split(' ').skip(11).take(2).filter_map(|x| x.parse().ok()).collect();
    f.iter().sum::<f64>() * 10.0
}

impl Drop for Synapse {
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(self.dir.join("synapse.pid")) {
            let _ = Command::new("kill").arg(pid.trim()).status();
        }
        if !std::thread::panicking() && std::env::var_os("DOKO_TEST_KEEP").is_none() {
            let _ = std::fs::remove_dir_all(&self.dir);
        } else {
            eprintln!("Synapse's data and log kept in {}", self.dir.display());
        }
    }
}

/// The bot as a separate process.
pub struct Bot {
    child: Child,
}

impl Bot {
    /// Starts the bot and waits until it says it is serving (after its
    /// first sync, with its handlers attached).
    pub fn start(url: &str, data: &Path) -> Bot {
        Bot::start_with(url, data, None)
    }

    /// Started with a crash point (`DOKO_FAILPOINT`, bot/src/failpoint.rs).
    pub fn start_with(url: &str, data: &Path, failpoint: Option<&str>) -> Bot {
        Bot::start_on(url, data, failpoint, None)
    }

    /// Started on a Redis store (`redis`: its URL) or the embedded one.
    pub fn start_on(url: &str, data: &Path, failpoint: Option<&str>, redis: Option<&str>) -> Bot {
        let mut cmd = Command::new(doko_binary());
        match failpoint {
            Some(f) => cmd.env("DOKO_FAILPOINT", f),
            None => cmd.env_remove("DOKO_FAILPOINT"),
        };
        match redis {
            Some(r) => cmd.env("DOKO_REDIS_URL", r),
            None => cmd.env_remove("DOKO_REDIS_URL"),
        };
        let mut child = cmd
            .env("DOKO_MATRIX_HOMESERVER", url)
            .env("DOKO_MATRIX_USER", "bot")
            .env("DOKO_MATRIX_PASSWORD", "pw-bot")
            // alice and bob may invite the bot, carol and dave may not
            .env("DOKO_MATRIX_ALLOW", "@alice:localhost, @bob:localhost")
            .env("DOKO_DATA", data)
            .env_remove("DOKO_DISCORD_TOKEN")
            // the test plays at machine speed: no rate limits (bot/tests/bounds.rs has them)
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            // the SDK's events at the bot's defaults (at most WARN, its
            // request and sync targets off): the session's log must have no
            // WARN or ERROR line (DOKO_TEST_MATRIX_LOG: other directives,
            // to see what the SDK says at other levels)
            .env("DOKO_LOG", std::env::var("DOKO_TEST_MATRIX_LOG").unwrap_or("info,doko_matrix=debug".into()))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(
                std::fs::OpenOptions::new().create(true).append(true).open(data.join("bot.log")).unwrap(),
            ))
            .spawn()
            .expect("starting doko");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("doko: serving Matrix as") {
                    let _ = tx.send(line);
                }
            }
        });
        let line = rx.recv_timeout(WAIT).unwrap_or_else(|_| {
            let log = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
            panic!("the bot did not start:\n{log}")
        });
        assert_eq!(line, "doko: serving Matrix as @bot:localhost");
        Bot { child }
    }

    /// Waits for the process to end by itself (a crash point): true when it
    /// did within `wait`.
    pub fn exited(&mut self, wait: Duration) -> bool {
        doko_system_tests::exited(&mut self.child, wait)
    }

    /// The bot's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the bot the hard way (no shutdown).
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A message a player saw: edits arrive with their new content.
#[derive(Clone, Debug)]
pub struct Seen {
    pub player: usize,
    pub room: OwnedRoomId,
    pub sender: OwnedUserId,
    /// The text (an image's body: its caption or file name).
    pub body: String,
    pub html: Option<String>,
    pub notice: bool,
    pub edit: bool,
    /// An `m.image`: its content (where the file is, how it is encrypted).
    pub image: Option<Box<ImageMessageEventContent>>,
    /// The event came encrypted (`m.room.encrypted`) and was decrypted.
    pub encrypted: bool,
}

/// A person's client, logged in as `name` (password `pw-<name>`): joins
/// the rooms it is invited to and reports what it sees as player `i`.
pub async fn player(url: &str, name: &str, i: usize, tx: mpsc::UnboundedSender<Seen>) -> Client {
    let client = logged_in(url, name).await;
    let members = tx.clone();
    client.add_event_handler(move |ev: OriginalSyncRoomMemberEvent, room: Room| {
        let tx = members.clone();
        async move {
            // memberships as pseudo-messages: "member @bot:localhost join"
            let body = format!("member {} {}", ev.state_key, ev.content.membership);
            let _ = tx.send(Seen {
                player: i,
                room: room.room_id().to_owned(),
                sender: ev.sender,
                body,
                html: None,
                notice: false,
                edit: false,
                image: None,
                encrypted: false,
            });
        }
    });
    client.add_event_handler(move |ev: OriginalSyncRoomMessageEvent, room: Room, enc: Option<EncryptionInfo>| {
        let tx = tx.clone();
        async move {
            let (content, edit) = match &ev.content.relates_to {
                Some(Relation::Replacement(r)) => (r.new_content.msgtype.clone(), true),
                _ => (ev.content.msgtype.clone(), false),
            };
            let (body, html, notice, image) = match content {
                MessageType::Notice(n) => (n.body, n.formatted.map(|f| f.body), true, None),
                MessageType::Text(t) => (t.body, t.formatted.map(|f| f.body), false, None),
                MessageType::Image(i) => (i.body.clone(), None, false, Some(Box::new(i))),
                _ => return,
            };
            let _ = tx.send(Seen {
                player: i,
                room: room.room_id().to_owned(),
                sender: ev.sender,
                body,
                html,
                notice,
                edit,
                image,
                encrypted: enc.is_some(),
            });
        }
    });
    let c = client.clone();
    tokio::spawn(async move { c.sync(SyncSettings::default()).await });
    client
}

/// A client logged in as `name` (password `pw-<name>`), synced once,
/// that joins the rooms it is invited to (tried again for a while: the
/// invitation can come before the room is ready to be joined).
pub async fn logged_in(url: &str, name: &str) -> Client {
    let client = Client::builder().homeserver_url(url).build().await.unwrap();
    client.matrix_auth().login_username(name, &format!("pw-{name}")).send().await.unwrap();
    client.sync_once(SyncSettings::default()).await.unwrap();
    let me = client.user_id().unwrap().to_owned();
    client.add_event_handler(move |ev: StrippedRoomMemberEvent, room: Room| {
        let me = me.clone();
        async move {
            if ev.state_key == me && ev.content.membership == MembershipState::Invite {
                tokio::spawn(async move {
                    for _ in 0..20 {
                        if room.join().await.is_ok() {
                            return;
                        }
                        tokio::time::sleep(Duration::from_millis(300)).await;
                    }
                    panic!("could not join {}", room.room_id());
                });
            }
        }
    });
    client
}

/// What a timed client saw, when it arrived: a text or a notice (an edit
/// with its new content), or a membership as a pseudo-message
/// (`member @bot:localhost join`).
#[derive(Clone, Debug)]
pub struct Arrival {
    /// Which client saw it (the number it was started with).
    pub who: usize,
    pub room: OwnedRoomId,
    pub sender: OwnedUserId,
    pub body: String,
    pub edit: bool,
    /// The Megolm session it was encrypted with (a new one means the
    /// sender shared a new room key just before sending it).
    pub session: Option<String>,
    /// When the client's sync handed it over.
    pub at: Instant,
}

/// A plain client for the timing, logged in as `name`, reporting as
/// client `who`: its own `sync_once` loop with a long poll and no pause
/// (matrix-sdk's `sync` waits a second between syncs that follow each
/// other quickly), and every text, notice and membership it sees, with
/// the time it arrived.
pub async fn timed_client(url: &str, name: &str, who: usize, tx: mpsc::UnboundedSender<Arrival>) -> Client {
    let client = logged_in(url, name).await;
    let members = tx.clone();
    client.add_event_handler(move |ev: OriginalSyncRoomMemberEvent, room: Room| {
        let tx = members.clone();
        async move {
            let body = format!("member {} {}", ev.state_key, ev.content.membership);
            let (room, sender, at) = (room.room_id().to_owned(), ev.sender, Instant::now());
            let _ = tx.send(Arrival { who, room, sender, body, edit: false, session: None, at });
        }
    });
    client.add_event_handler(move |ev: OriginalSyncRoomMessageEvent, room: Room, enc: Option<EncryptionInfo>| {
        let tx = tx.clone();
        async move {
            let at = Instant::now();
            let (content, edit) = match ev.content.relates_to {
                Some(Relation::Replacement(r)) => (r.new_content.msgtype, true),
                _ => (ev.content.msgtype, false),
            };
            let body = match content {
                MessageType::Notice(n) => n.body,
                MessageType::Text(t) => t.body,
                _ => return,
            };
            let session = enc.and_then(|e| e.session_id().map(str::to_owned));
            let room = room.room_id().to_owned();
            let _ = tx.send(Arrival { who, room, sender: ev.sender, body, edit, session, at });
        }
    });
    let c = client.clone();
    tokio::spawn(async move {
        let s = SyncSettings::default().timeout(Duration::from_secs(30));
        loop {
            if c.sync_once(s.clone()).await.is_err() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    });
    client
}

/// The `q` quantile (0.5: the median) of `v`, in milliseconds.
pub fn quantile(v: &mut [Duration], q: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3
}

/// Everything the players see, in one stream ([`Seen`] from [`player`]s,
/// or [`Arrival`]s from [`timed_client`]s).
pub struct Watch<T = Seen> {
    pub rx: mpsc::UnboundedReceiver<T>,
    pub log: Vec<T>,
}

impl<T: Clone + std::fmt::Debug> Watch<T> {
    /// A stream of what the players see, from their clients' sender.
    pub fn new(rx: mpsc::UnboundedReceiver<T>) -> Watch<T> {
        Watch { rx, log: Vec::new() }
    }

    pub async fn next(&mut self) -> T {
        let s = tokio::time::timeout(WAIT, self.rx.recv())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "nothing arrived for {WAIT:?}; last seen: {:#?}",
                    self.log.iter().rev().take(8).collect::<Vec<_>>()
                )
            })
            .expect("players gone");
        self.log.push(s.clone());
        s
    }

    /// What `f` picks among what arrived since `from` (the log's length
    /// when the command was sent), else the next such: answers in several
    /// rooms (and the parts of one answer) are waited for one by one,
    /// whatever order they arrive in.
    pub async fn since(&mut self, from: usize, what: &str, f: impl Fn(&T) -> bool) -> T {
        if let Some(s) = self.log[from..].iter().find(|s| f(s)) {
            return s.clone();
        }
        self.until(what, f).await
    }

    pub async fn until(&mut self, what: &str, f: impl Fn(&T) -> bool) -> T {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.next()).await {
                Ok(s) if f(&s) => return s,
                Ok(_) => {}
                Err(_) => panic!("waited {WAIT:?} for {what}"),
            }
        }
    }
}

pub fn from_bot(s: &Seen) -> bool {
    s.sender.as_str() == "@bot:localhost"
}

pub async fn say(room: &Room, text: &str) {
    room.send(RoomMessageEventContent::text_plain(text)).await.unwrap();
}

/// The first playable card (`[♣Q]`) of a hand message.
pub fn first_playable(body: &str) -> Option<String> {
    let line = body.lines().find(|l| l.starts_with("Your hand:"))?;
    let start = line.find('[')? + '['.len_utf8();
    let end = start + line[start..].find(']')?;
    Some(line[start..end].to_string())
}

/// A log line without its colours (escape sequences dropped).
pub fn plain(l: &str) -> String {
    let mut out = String::new();
    let mut esc = false;
    for c in l.chars() {
        match (esc, c) {
            (false, '\u{1b}') => esc = true,
            (true, 'm') => esc = false,
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}
