//! One table across platforms (issue 18, item 6): ONE `doko` process
//! serves the fake Discord (`tests/fake_discord/`) and a real Synapse on
//! loopback (`common/synapse.rs`) at once; a Matrix room and a Discord
//! channel, linked by their admins, share one table.
//!
//! - Both platforms are served by the one process: `/doko table` in the
//!   Discord channel and `!doko table` in the Matrix room are both
//!   answered, each with an empty table of its own.
//! - The link: a wrong code is refused (`no such link code`), a room
//!   member who is no admin (bob) and a plain Discord member (dave) may
//!   not ask for a code; alice (the room's admin) gets a code (`!doko
//!   link`) in her direct room only; carol (Manage Server) takes it in the
//!   Discord channel (`/doko-rules link code:CODE`); both sides are told
//!   (`now shares its table with`), nobody else ever sees the code; it is
//!   used up (the guild's second channel cannot take it); dave may not
//!   `unlink`.
//! - A whole deal with two players on each platform: alice and bob join in
//!   the room and play from their direct rooms, carol and dave join by
//!   `/doko join` and play by clicks on their ephemeral hands; each acts
//!   when it is their turn, from their own platform.
//! - Checked: both channels show the table message (edited as the deal
//!   goes) and the result; the results' `Points:` lines and revealed hands
//!   agree; every hand anyone was shown holds only cards of their own hand
//!   as dealt; no hand in the Discord channel, none in the Matrix room;
//!   hands reach Discord only as ephemeral answers to the Discord player's
//!   own interactions; the Discord side never mentions a Matrix id and
//!   pings only Discord users, the Matrix side never names a Discord
//!   snowflake.
//! - A wrong code given in the linked channel links nothing anew (refused,
//!   no second notice).
//! - `unlink` is refused while a deal runs (the next deal was dealt by
//!   itself); after `reset` alice unlinks from Matrix, both sides are
//!   told (`no longer shares its table`); the room's table keeps alice and
//!   bob only; the Discord channel has an empty table of its own again
//!   (`/doko table` shows it) where carol sits down, not in the room.
//! - The bot's log names no card, no token, no link code.

mod checks;
mod deal;
mod discord;
mod share;
mod text;

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::synapse;
use doko_system_tests::doko_binary;
use doko_system_tests::fake_discord::FakeDiscord;
use tokio::sync::mpsc;

/// How long a Discord answer may take.
const DWAIT: Duration = Duration::from_secs(20);
/// How long the whole deal may take.
const DEAL_LIMIT: Duration = Duration::from_secs(240);

const ALICE: usize = 0;
const BOB: usize = 1;
const MATRIX_NAMES: [&str; 2] = ["alice", "bob"];
const ROOM_NAME: &str = "Doko Abend";
const CAROL: u64 = 1_300_000_000_000_001_003;
const DAVE: u64 = 1_300_000_000_000_001_004;

/// The one bot process, serving Matrix and Discord; killed when dropped.
struct Both {
    child: Child,
}

impl Both {
    /// Starts `doko` with both platforms' settings and waits until it
    /// serves Matrix (its first sync done) and its Discord gateway session
    /// is ready with its commands registered.
    async fn start(matrix_url: &str, fake: &FakeDiscord, data: &Path) -> Both {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(data.join("bot.log")).unwrap();
        let mut child = Command::new(doko_binary())
            // Matrix
            .env("DOKO_MATRIX_HOMESERVER", matrix_url)
            .env("DOKO_MATRIX_USER", "bot")
            .env("DOKO_MATRIX_PASSWORD", "pw-bot")
            .env("DOKO_MATRIX_ALLOW", "@alice:localhost, @bob:localhost")
            // Discord
            .env("DOKO_DISCORD_TOKEN", &fake.config().token)
            .env("DOKO_DISCORD_API_URL", fake.api_origin())
            .env("DOKO_DISCORD_GUILD", fake.config().guild_id.to_string())
            // one embedded store
            .env("DOKO_DATA", data)
            .env_remove("DOKO_FAILPOINT")
            .env_remove("DOKO_REDIS_URL")
            .env_remove("DOKO_DISCORD_TOKEN_FILE")
            .env_remove("DOKO_DISCORD_INTERACTIONS")
            .env_remove("DOKO_DISCORD_SHARDS")
            // the test plays at machine speed
            .env("DOKO_RATE_USER", "0")
            .env("DOKO_RATE_CHANNEL", "0")
            // the bot's own crates at DEBUG: still no card, token or code
            .env("DOKO_LOG", "info,doko=debug,doko_bot=debug,doko_matrix=debug,doko_discord=debug,serenity=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("starting doko");
        let stdout = child.stdout.take().unwrap();
        let (tx, mut rx) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("doko: serving Matrix as") {
                    let _ = tx.send(line);
                }
            }
        });
        let both = Both { child };
        let line = tokio::time::timeout(synapse::WAIT, rx.recv())
            .await
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("the bot did not serve Matrix:\n{}", log_tail(data)));
        assert_eq!(line, "doko: serving Matrix as @bot:localhost");
        fake.wait_ready(DWAIT).await.unwrap_or_else(|e| panic!("{e:?}: {}", log_tail(data)));
        fake.wait_for("the commands registered", DWAIT, |f| {
            (!f.guild_commands(f.config().guild_id).is_empty()).then_some(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e:?}: {}", log_tail(data)));
        both
    }
}

impl Drop for Both {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The last 40 lines of the bot's log (the busy "job done" ones left out).
fn log_tail(data: &Path) -> String {
    let s = std::fs::read_to_string(data.join("bot.log")).unwrap_or_default();
    let tail: Vec<&str> = s.lines().rev().filter(|l| !l.contains("job done")).take(40).collect();
    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
}
