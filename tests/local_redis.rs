//! A `redis-server` of one's own for tests and benchmarks. This file is the
//! test crate's (`doko_system_tests::LocalRedis`); the `doko bench-tables`
//! command includes the same file by path, so the bot library exports no
//! process-spawning helper.

/// A `redis-server` of one's own on a free loopback port with its own data
/// directory and no persistence (for benchmarks and tests); stopped and
/// removed when dropped.
pub struct LocalRedis {
    child: std::process::Child,
    dir: std::path::PathBuf,
    /// The port it listens on.
    pub port: u16,
}

impl LocalRedis {
    /// Starts one and waits until it answers PING.
    pub fn start() -> std::io::Result<LocalRedis> {
        use std::io::{Read, Write};
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = std::env::temp_dir().join(format!("doko-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()?;
        let server = LocalRedis { child, dir, port };
        let start = std::time::Instant::now();
        loop {
            if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                let mut buf = [0u8; 7];
                if s.write_all(b"PING\r\n").is_ok() && s.read(&mut buf).is_ok() && buf.starts_with(b"+PONG") {
                    return Ok(server);
                }
            }
            if start.elapsed() > std::time::Duration::from_secs(20) {
                return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "redis-server did not start"));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for LocalRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
