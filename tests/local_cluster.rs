//! A Redis Cluster of one's own for tests: three primaries (no replicas) on
//! free loopback ports, each with its own data directory, joined by
//! `redis-cli --cluster create`.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A three-primary Redis Cluster on loopback, started for one test; every
/// server is stopped and the data directories removed when it is dropped
/// (also when the test fails, or the cluster failed to form).
pub struct LocalCluster {
    nodes: Vec<Child>,
    dir: PathBuf,
    /// The ports its nodes listen on, one per primary.
    pub ports: Vec<u16>,
}

/// A free loopback port (for a moment: the listener is closed again).
fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn err(what: impl Into<String>) -> std::io::Error {
    std::io::Error::other(what.into())
}

impl LocalCluster {
    /// Starts three `redis-server --cluster-enabled yes`, joins them with
    /// `redis-cli --cluster create` (each primary gets a third of the
    /// slots), and waits until every node says the cluster is ok.
    pub fn start() -> std::io::Result<LocalCluster> {
        let dir = std::env::temp_dir().join(format!("doko-cluster-{}-{}", std::process::id(), free_port()?));
        std::fs::create_dir_all(&dir)?;
        let mut cluster = LocalCluster { nodes: Vec::new(), dir, ports: Vec::new() };
        for i in 0..3 {
            // the node's port and its cluster bus port, both free
            let (port, bus) = (free_port()?, free_port()?);
            let data = cluster.dir.join(format!("node{i}"));
            std::fs::create_dir_all(&data)?;
            let child = Command::new("redis-server")
                .args(["--port", &port.to_string(), "--cluster-port", &bus.to_string(), "--bind", "127.0.0.1"])
                .args(["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"])
                .args(["--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no"])
                .arg("--dir")
                .arg(&data)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()?;
            cluster.nodes.push(child);
            cluster.ports.push(port);
        }
        for &port in &cluster.ports {
            cluster.wait_for(port, "PING", "PONG")?;
        }
        let out = Command::new("redis-cli")
            .arg("--cluster")
            .arg("create")
            .args(cluster.ports.iter().map(|p| format!("127.0.0.1:{p}")))
            .arg("--cluster-yes")
            .stdin(Stdio::null())
            .output()?;
        if !out.status.success() {
            return Err(err(format!(
                "redis-cli --cluster create failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        for &port in &cluster.ports {
            cluster.wait_for(port, "CLUSTER INFO", "cluster_state:ok")?;
        }
        Ok(cluster)
    }

    /// Waits (at most 20 s) until `redis-cli` on `port` answers `command`
    /// with a text containing `want`.
    fn wait_for(&self, port: u16, command: &str, want: &str) -> std::io::Result<()> {
        let start = Instant::now();
        loop {
            let out = Command::new("redis-cli")
                .args(["-h", "127.0.0.1", "-p", &port.to_string()])
                .args(command.split(' '))
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()?;
            if String::from_utf8_lossy(&out.stdout).contains(want) {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err(err(format!("node {port} did not answer {command} with {want}")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The URL of one node (`redis://127.0.0.1:PORT/`).
    pub fn node_url(&self, i: usize) -> String {
        format!("redis://127.0.0.1:{}/", self.ports[i])
    }

    /// The cluster's URL for the bot: `redis+cluster://` with every node
    /// as a seed.
    pub fn url(&self) -> String {
        let nodes: Vec<String> = self.ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
        format!("redis+cluster://{}", nodes.join(","))
    }
}

impl Drop for LocalCluster {
    fn drop(&mut self) {
        for c in &mut self.nodes {
            let _ = c.kill();
        }
        for c in &mut self.nodes {
            let _ = c.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
