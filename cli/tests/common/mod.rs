//! What the binary's tests share: the `doko` command without the caller's
//! `DOKO_` variables, and a driver for its terminal table (read up to the
//! prompt, type a line, choose the next move off the hand lines).

#![allow(dead_code)] // each test uses its part

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The binary, with no `DOKO_` variable of the caller's environment.
pub fn doko() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_doko"));
    for (k, _) in std::env::vars() {
        if k.starts_with("DOKO_") {
            c.env_remove(k);
        }
    }
    c
}

/// The binary playing at its terminal table, its output collected.
pub struct Doko {
    /// The process.
    pub child: Child,
    /// Its standard input.
    pub stdin: ChildStdin,
    /// Everything it printed.
    pub out: Arc<Mutex<String>>,
    /// How much of `out` [`Doko::next`] has returned.
    pub read_upto: usize,
}

impl Doko {
    /// Starts `doko ARGS` with piped input and output (stderr dropped).
    pub fn start(args: &[&std::ffi::OsStr]) -> Doko {
        let mut child =
            doko().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let out = Arc::new(Mutex::new(String::new()));
        let o = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                o.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Doko { child, stdin, out, read_upto: 0 }
    }

    /// Waits for the next prompt and returns everything printed since the
    /// last call.
    pub fn next(&mut self) -> String {
        let start = Instant::now();
        loop {
            {
                let o = self.out.lock().unwrap();
                // the prompt is the last thing printed, on a line of its own
                // (a table line like "... -> Bot 1" is not a prompt)
                let new = &o[self.read_upto..];
                if o.len() > self.read_upto && (new == "> " || new.ends_with("\n> ")) {
                    let s = new.to_string();
                    self.read_upto = o.len();
                    return s;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no prompt; output so far:\n{}",
                self.out.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Types a line and returns what follows up to the next prompt.
    pub fn send(&mut self, line: &str) -> String {
        self.stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        self.next()
    }

    /// Everything printed after what [`Doko::next`] returned.
    pub fn tail(&self) -> String {
        self.out.lock().unwrap()[self.read_upto..].to_string()
    }
}

/// What the person types next, read off the private hand lines.
pub fn choose(screen: &str) -> Option<String> {
    let hand = screen.lines().rev().find(|l| l.contains("Your hand:"))?;
    let can = screen.lines().rev().find(|l| l.contains("You can:")).unwrap_or("");
    if can.contains("healthy") {
        return Some("healthy".into());
    }
    if screen.contains("Your turn") {
        let start = hand.find('[')?;
        let end = hand[start..].find(']')? + start;
        return Some(format!("play {}", &hand[start + 1..end]));
    }
    None
}
