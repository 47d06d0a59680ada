//! A Redis Cluster of one's own for tests: three primaries (and, if asked
//! for, a replica of each) on free loopback ports, each node with its own
//! data directory, joined by `redis-cli --cluster create`.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A three-primary Redis Cluster on loopback, started for one test; every
/// server is stopped and the data directories removed when it is dropped
/// (also when the test fails, or the cluster failed to form).
pub struct LocalCluster {
    nodes: Vec<Child>,
    dir: PathBuf,
    /// The ports its nodes listen on: the primaries', then the replicas'.
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
        LocalCluster::start_nodes(false)
    }

    /// Starts six nodes, three primaries and a replica of each (nodes 3, 4
    /// and 5), with a cluster node timeout of 1 s, so a replica takes over
    /// within about two seconds of its primary's failure; waits until
    /// every replica has synchronised with its primary.
    pub fn start_with_replicas() -> std::io::Result<LocalCluster> {
        LocalCluster::start_nodes(true)
    }

    fn start_nodes(replicas: bool) -> std::io::Result<LocalCluster> {
        let dir = std::env::temp_dir().join(format!("doko-cluster-{}-{}", std::process::id(), free_port()?));
        std::fs::create_dir_all(&dir)?;
        let mut cluster = LocalCluster { nodes: Vec::new(), dir, ports: Vec::new() };
        let (count, timeout) = if replicas { (6, "1000") } else { (3, "2000") };
        for i in 0..count {
            let data = cluster.dir.join(format!("node{i}"));
            std::fs::create_dir_all(&data)?;
            // the node's port and its cluster bus port, free when chosen;
            // another test may take one before the node binds it (the node
            // then exits): a node that does not answer is started again on
            // other ports
            let mut tries = 0;
            let (child, port) = loop {
                tries += 1;
                let (port, bus) = (free_port()?, free_port()?);
                let mut child = Command::new("redis-server")
                    .args(["--port", &port.to_string(), "--cluster-port", &bus.to_string(), "--bind", "127.0.0.1"])
                    .args(["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"])
                    .args(["--cluster-node-timeout", timeout, "--save", "", "--appendonly", "no"])
                    .arg("--dir")
                    .arg(&data)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()?;
                match cluster.answers(port, "PING", "PONG", Duration::from_secs(10), Some(&mut child)) {
                    Ok(()) => break (child, port),
                    Err(e) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        let _ = std::fs::remove_file(data.join("nodes.conf"));
                        if tries >= 3 {
                            return Err(e);
                        }
                    }
                }
            };
            cluster.nodes.push(child);
            cluster.ports.push(port);
        }
        let out = Command::new("redis-cli")
            .arg("--cluster")
            .arg("create")
            .args(cluster.ports.iter().map(|p| format!("127.0.0.1:{p}")))
            .args(["--cluster-replicas", if replicas { "1" } else { "0" }, "--cluster-yes"])
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
        for &port in &cluster.ports[3..] {
            cluster.wait_for(port, "INFO replication", "master_link_status:up")?;
        }
        Ok(cluster)
    }

    /// Kills node `i` at once (SIGKILL: no shutdown, no last save), as a
    /// crashed machine would go.
    pub fn kill(&mut self, i: usize) {
        let _ = self.nodes[i].kill();
        let _ = self.nodes[i].wait();
    }

    /// Waits (at most 20 s) until `redis-cli` on `port` answers `command`
    /// with a text containing `want`.
    pub fn wait_for(&self, port: u16, command: &str, want: &str) -> std::io::Result<()> {
        self.answers(port, command, want, Duration::from_secs(20), None)
    }

    /// As [`LocalCluster::wait_for`], within `limit`; gives up at once
    /// when the node's process (`child`, if given) has exited.
    fn answers(
        &self,
        port: u16,
        command: &str,
        want: &str,
        limit: Duration,
        mut child: Option<&mut Child>,
    ) -> std::io::Result<()> {
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
            if let Some(c) = child.as_deref_mut()
                && let Some(status) = c.try_wait()?
            {
                return Err(err(format!("node {port} exited ({status}) before it answered {command}")));
            }
            if start.elapsed() > limit {
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
        // a background AOF rewrite (a node's forked child, not killed with
        // it) may still write a file while the directory goes: try again
        for _ in 0..40 {
            let _ = std::fs::remove_dir_all(&self.dir);
            if !self.dir.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
