//! Shared test support: a real `redis-server` per test (own port, own data
//! directory), and a driver that plays a seat the way a person would, by
//! sending commands through the service.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command as Proc, Stdio};
use std::time::{Duration, Instant};

use doko_bot::command::Command;
use doko_bot::player::{BasicPlayer, Player};
use doko_bot::{Actor, ChannelId, Kind, Message, Service, Store};
use doko_engine::Action;

/// A redis-server started for one test, stopped when dropped.
pub struct RedisServer {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("doko-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let child = Proc::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server must be installed (scripts/test installs it)");
        let start = Instant::now();
        loop {
            if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                use std::io::{Read, Write};
                let _ = s.write_all(b"PING\r\n");
                let mut buf = [0u8; 7];
                if s.read(&mut buf).is_ok() && buf.starts_with(b"+PONG") {
                    break;
                }
            }
            assert!(start.elapsed() < Duration::from_secs(20), "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        RedisServer { child, port, dir }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
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
        let msgs = svc.execute(ch, actor, command_for(a)).await.unwrap();
        if !refused(&msgs) {
            return true;
        }
    }
    panic!("no action of {} was accepted", actor.name);
}
