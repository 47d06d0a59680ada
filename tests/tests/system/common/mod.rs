//! Shared test support: a real `redis-server` per test (own port, own data
//! directory), and a driver that plays a seat the way a person would, by
//! sending commands through the service.

#![allow(dead_code)]

pub mod contract;

use doko_bot::command::Command;
use doko_bot::{Actor, ChannelId, Kind, Message, Service, Store};
use doko_engine::Action;
use doko_players::player::{BasicPlayer, Player};

/// A redis-server started for one test, stopped when dropped.
pub struct RedisServer(doko_system_tests::LocalRedis);

impl RedisServer {
    pub fn start() -> RedisServer {
        RedisServer(
            doko_system_tests::LocalRedis::start().expect("redis-server must be installed (scripts/test installs it)"),
        )
    }

    pub fn url(&self) -> String {
        self.0.url()
    }
}

/// The command a person would type for an engine action.
pub fn command_for(a: Action) -> Command {
    Command::from_action(a)
}

fn refused(msgs: &[Message]) -> bool {
    msgs.iter().any(|m| m.kind == Kind::Error)
}

/// Lets the person whose turn it is act once, choosing like the basic
/// computer player from their own view and falling back through the legal
/// actions when the table refuses (a forced solo). Returns false when no
/// person is to act.
pub async fn act_once<S: Store>(svc: &Service<S>, ch: &ChannelId, people: &[Actor]) -> bool {
    let (t, _) = svc.table(ch).await.unwrap();
    let Ok(Some(g)) = t.game() else { return false };
    let Some(seat) = g.mandatory_announcement().or(g.to_act()) else { return false };
    let Some(ts) = t.table_seat(seat) else { return false };
    let Some(actor) = people.iter().find(|a| t.seat_of(&a.user) == Some(ts)) else { return false };
    let view = g.view(seat);
    let first = BasicPlayer.decide(&view);
    let mut tries = vec![first];
    tries.extend(view.legal.iter().copied().filter(|a| *a != first));
    for a in tries {
        let msgs = svc.execute(ch, actor, command_for(a)).await.unwrap().messages();
        if !refused(&msgs) {
            return true;
        }
    }
    panic!("no action of {} was accepted", actor.name);
}

/// A log captured in memory: a tracing subscriber at TRACE level (every
/// field of every span and event) that writes into a buffer.
#[derive(Clone, Default)]
pub struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Log {
    /// A subscriber writing into this log.
    pub fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync + 'static {
        let w = self.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || w.clone())
            .finish()
    }

    /// What was logged.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
