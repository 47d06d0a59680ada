//! What else ran on the machine: the host's steal time per core, the
//! process's memory, and, sampled every 100 ms from `/proc` while the open
//! loop runs, other processes' CPU time and how late this process's
//! sleepers woke.

use std::time::{Duration, Instant};

/// Each core's share of time the host took (steal) between two readings
/// of `/proc/stat`, as "cpu0 3%, cpu1 21%"; None when they name no core.
pub fn stolen_per_core(before: &str, after: &str) -> Option<String> {
    // cpuN user nice system idle iowait irq softirq steal ...
    let cores = |stat: &str| -> Vec<(String, u64, u64)> {
        stat.lines()
            .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                let name = f.next()?.to_string();
                let ticks: Vec<u64> = f.take(8).map(|v| v.parse().ok()).collect::<Option<_>>()?;
                Some((name, ticks.iter().sum(), *ticks.get(7)?))
            })
            .collect()
    };
    let (b, a) = (cores(before), cores(after));
    let shares: Vec<String> = a
        .iter()
        .filter_map(|(name, total, steal)| {
            let (_, t0, s0) = b.iter().find(|(n, _, _)| n == name)?;
            let all = total.checked_sub(*t0).filter(|t| *t > 0)?;
            Some(format!("{name} {:.0}%", 100.0 * steal.saturating_sub(*s0) as f64 / all as f64))
        })
        .collect();
    (!shares.is_empty()).then(|| shares.join(", "))
}

/// The process's resident memory now and at its peak, in KiB (Linux).
/// And its threads.
pub fn process_memory() -> Option<(u64, u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        status.lines().find_map(|l| l.strip_prefix(name))?.split_whitespace().next()?.parse().ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?, field("Threads:")?))
}

/// The CPU time of processes other than doko and its Redis server, taken
/// every 100 ms while the open loop runs (from `/proc` on Linux): what
/// else on the machine competed for its cores when actions were late.
pub struct Others {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Vec<Busy>>,
}

/// The longest a sleeper woke late since it was last read, in
/// microseconds: a thread of its own sleeping 1 ms at a time (how long the
/// kernel, or the host under it, kept a ready thread of this process from
/// running) and a task on the service's runtime doing the same (how long
/// the runtime's workers were busy or stopped).
#[derive(Default)]
struct Lags {
    thread: std::sync::atomic::AtomicU64,
    runtime: std::sync::atomic::AtomicU64,
}

impl Lags {
    /// Starts the two sleepers; each stops when `stop` is set.
    fn start(stop: &std::sync::Arc<std::sync::atomic::AtomicBool>) -> std::sync::Arc<Lags> {
        use std::sync::atomic::Ordering;
        let lags = std::sync::Arc::new(Lags::default());
        let (l, s) = (lags.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let t = Instant::now();
                std::thread::sleep(Duration::from_millis(1));
                let late = t.elapsed().saturating_sub(Duration::from_millis(1));
                l.thread.fetch_max(late.as_micros() as u64, Ordering::Relaxed);
            }
        });
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let (l, s) = (lags.clone(), stop.clone());
            rt.spawn(async move {
                while !s.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    // (tokio's timer ticks by the millisecond: up to 1 ms
                    // more is its own rounding)
                    let late = t.elapsed().saturating_sub(Duration::from_millis(2));
                    l.runtime.fetch_max(late.as_micros() as u64, Ordering::Relaxed);
                }
            });
        }
        lags
    }

    /// The longest lags (thread, runtime) since the last take.
    fn take(&self) -> (Duration, Duration) {
        use std::sync::atomic::Ordering;
        let us = |a: &std::sync::atomic::AtomicU64| Duration::from_micros(a.swap(0, Ordering::Relaxed));
        (us(&self.thread), us(&self.runtime))
    }
}

/// The counters [`Others`] reads at each sample, all since boot or the
/// process's start.
#[derive(Clone, Copy)]
struct Ticks {
    /// The machine's busy ticks (all cores, without idle, I/O wait and
    /// time the host took).
    busy: i64,
    /// The ticks of this process and of its Redis server.
    ours: i64,
    /// The ticks the host took (steal).
    steal: i64,
    /// This process's minor page faults.
    faults: u64,
}

/// One 100 ms sample of [`Others`]: when it ended, the cores that other
/// processes kept busy over it, the cores the machine's host took (steal
/// time: a virtual machine's cores running the host's work), and the
/// busiest other process.
#[derive(Clone, Copy)]
pub struct Busy {
    /// When the sample ended.
    pub at: Instant,
    /// The cores other processes kept busy.
    pub cores: f64,
    /// The cores the host took.
    pub stolen: f64,
    /// The busiest other process.
    pub top: Top,
    /// This process's minor page faults over the sample.
    pub faults: u64,
    /// The longest a thread of this process sleeping 1 ms woke late.
    pub lag: Duration,
    /// The longest the service runtime's 1 ms timer fired late.
    pub runtime_lag: Duration,
}

/// The busiest process of a sample but doko and its Redis server (a
/// kernel thread too, such as the host's memory reclaim): its name as
/// `/proc` gives it (at most 15 bytes) and the cores it kept busy.
#[derive(Clone, Copy, Default)]
pub struct Top {
    /// Its name's bytes (the first `len` of them).
    pub name: [u8; 16],
    /// The length of its name.
    pub len: u8,
    /// The cores it kept busy.
    pub cores: f64,
}

impl Top {
    /// Its name.
    pub fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..usize::from(self.len)]).unwrap_or("?")
    }
}

/// Each process's name and CPU ticks (user and system) from `/proc`, but
/// those in `skip`.
fn processes(skip: &[u32]) -> std::collections::HashMap<u32, ([u8; 16], u8, i64)> {
    let mut out = std::collections::HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else { return out };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if skip.contains(&pid) {
            continue;
        }
        let Some((comm, ticks, _)) = proc_stat(&pid.to_string()) else { continue };
        let mut name = [0u8; 16];
        let len = comm.len().min(15);
        name[..len].copy_from_slice(&comm.as_bytes()[..len]);
        out.insert(pid, (name, len as u8, ticks));
    }
    out
}

/// A process's name, CPU ticks (user and system) and minor page faults
/// so far, from `/proc/PID/stat` (`self`: this process).
fn proc_stat(pid: &str) -> Option<(String, i64, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (head, rest) = s.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<i64>().ok()? + f.get(12)?.parse::<i64>().ok()?;
    Some((name, ticks, f.get(7)?.parse().ok()?))
}

impl Others {
    /// Starts taking samples; None where `/proc` cannot be read.
    pub fn watch(redis: Option<u32>) -> Option<Others> {
        let first = Self::ticks(redis)?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let skip = [std::process::id(), redis.unwrap_or(0)];
        let lags = Lags::start(&stop);
        let thread = std::thread::spawn(move || {
            let mut samples = Vec::new();
            let (mut at, mut last, mut each) = (Instant::now(), first, processes(&skip));
            lags.take();
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let Some(ticks) = Self::ticks(redis) else { break };
                let now = processes(&skip);
                let (lag, runtime_lag) = lags.take();
                let t = Instant::now();
                let others = (ticks.busy - last.busy) - (ticks.ours - last.ours);
                // (/proc counts in USER_HZ, 100 a second on Linux)
                let cores = |n: i64| n.max(0) as f64 / 100.0 / (t - at).as_secs_f64();
                let busiest = now
                    .iter()
                    .filter_map(|(pid, (name, len, ticks))| Some((*name, *len, ticks - each.get(pid)?.2)))
                    .filter(|(_, _, d)| *d > 0)
                    .max_by_key(|(_, _, d)| *d);
                let top = busiest.map_or(Top::default(), |(name, len, d)| Top { name, len, cores: cores(d) });
                samples.push(Busy {
                    at: t,
                    cores: cores(others),
                    stolen: cores(ticks.steal - last.steal),
                    top,
                    faults: ticks.faults.saturating_sub(last.faults),
                    lag,
                    runtime_lag,
                });
                (at, last, each) = (t, ticks, now);
            }
            samples
        });
        Some(Others { stop, thread })
    }

    /// The samples taken (none when the thread failed).
    pub fn stop(self) -> Vec<Busy> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }

    /// The counters a sample is the difference of ([`Ticks`]).
    fn ticks(redis: Option<u32>) -> Option<Ticks> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let cpu: Vec<i64> = stat.lines().next()?.split_whitespace().skip(1).filter_map(|v| v.parse().ok()).collect();
        // user nice system idle iowait irq softirq steal ...
        let busy = cpu.get(..7)?.iter().sum::<i64>() - cpu[3] - cpu[4];
        let (_, own, faults) = proc_stat("self")?;
        let ours = own + redis.and_then(|p| proc_stat(&p.to_string())).map_or(0, |(_, ticks, _)| ticks);
        Some(Ticks { busy, ours, steal: cpu.get(7).copied().unwrap_or(0), faults })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steal is read per core from two readings of `/proc/stat`, as a
    /// share of all that core's ticks between them; the machine's total
    /// line and other lines are not cores.
    #[test]
    fn stolen_per_core_reads_each_cores_steal() {
        let before = "cpu  500 0 100 1000 0 0 0 90 0 0\ncpu0 200 0 50 500 0 0 0 40 0 0\ncpu1 300 0 50 500 0 0 0 50 0 0\nintr 1 2\n";
        // cpu0: 100 more ticks, 25 stolen; cpu1: 200 more ticks, none
        let after = "cpu  800 0 100 1100 0 0 0 115 0 0\ncpu0 260 0 55 510 0 0 0 65 0 0\ncpu1 500 0 50 500 0 0 0 50 0 0\nintr 3 4\n";
        assert_eq!(stolen_per_core(before, after).as_deref(), Some("cpu0 25%, cpu1 0%"));
        // a core with no ticks between the readings, and no cores at all
        assert_eq!(stolen_per_core(before, before), None);
        assert_eq!(stolen_per_core("intr 1", "intr 2"), None);
    }
}
