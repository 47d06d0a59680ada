//! The report on the open loop's tail: the fullest 100 ms windows of late
//! actions, with what else ran on the machine then.

use std::time::{Duration, Instant};

use super::latency::{LATE, Late};
use super::machine::Busy;

/// What the open loop's late actions say about its tail: how many were
/// answered over [`LATE`] after they were due, and the worst 100 ms
/// windows (by when the actions were due) with how long they waited for
/// their tables' previous answers, how late the driver sent them beyond
/// that (its thread did not run) and how long the service took to
/// answer them.
/// With each window, the most cores that other processes on the machine
/// (see [`Others`](super::machine::Others)) kept busy, and the most the host took, in a sample
/// overlapping the window or the 100 ms after it, and the busiest other
/// process of those samples.
pub fn late_windows(late: &[Late], others: &[Busy], start: Instant) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut windows: Vec<(u128, Vec<Late>)> = Vec::new();
    for l in late {
        let w = l.due.as_millis() / 100;
        match windows.last_mut() {
            Some((at, ls)) if *at == w => ls.push(*l),
            _ => windows.push((w, vec![*l])),
        }
    }
    let mut out = format!("open loop: {} actions answered over {} ms after due", late.len(), LATE.as_millis());
    windows.sort_by_key(|(_, ls)| std::cmp::Reverse(ls.len()));
    if !windows.is_empty() {
        out.push_str(&format!(", in {} windows of 100 ms; the most:", windows.len()));
    }
    for (w, ls) in windows.iter().take(3) {
        let max = |f: fn(&Late) -> Duration| ls.iter().map(f).max().map_or(0.0, ms);
        out.push_str(&format!(
            "\n  due at {:.1} s: {} actions, up to {:.1} ms late; waited up to {:.1} ms for their tables' previous \
             answers, sent up to {:.1} ms later than they could be, answered in up to {:.1} ms",
            *w as f64 / 10.0,
            ls.len(),
            max(|l| l.waited + l.sent_late + l.answer),
            max(|l| l.waited),
            max(|l| l.sent_late),
            max(|l| l.answer)
        ));
        let (from, to) =
            (start + Duration::from_millis(*w as u64 * 100), start + Duration::from_millis(*w as u64 * 100 + 300));
        let near: Vec<&Busy> = others.iter().filter(|b| b.at > from && b.at <= to).collect();
        let most = |f: fn(&Busy) -> f64| near.iter().map(|b| f(b)).reduce(f64::max);
        if let (Some(b), Some(h)) = (most(|b| b.cores), most(|b| b.stolen)) {
            out.push_str(&format!(
                "; other processes on the machine kept {:.0}% of a core busy, the host took {:.0}%",
                b * 100.0,
                h * 100.0
            ));
        }
        if let Some(top) =
            near.iter().map(|b| b.top).filter(|t| t.cores > 0.0).max_by(|a, b| a.cores.total_cmp(&b.cores))
        {
            out.push_str(&format!(" (the busiest other process: {}, {:.0}% of a core)", top.name(), top.cores * 100.0));
        }
        if !near.is_empty() {
            out.push_str(&format!(
                "; doko took {} page faults, its sleeping thread woke up to {:.1} ms late, its runtime's timer up to \
                 {:.1} ms",
                near.iter().map(|b| b.faults).sum::<u64>(),
                longest(near.iter().copied(), |b| b.lag),
                longest(near.iter().copied(), |b| b.runtime_lag)
            ));
        }
    }
    // (the samples from when the run's clock started: before it, the
    // driver played the tables' first actions untimed)
    let others: Vec<Busy> = others.iter().filter(|b| b.at > start).copied().collect();
    let n = others.len() as f64;
    for (who, cores) in
        [("other processes on the machine", (|b| b.cores) as fn(&Busy) -> f64), ("the host", |b| b.stolen)]
    {
        if let Some(most) = others.iter().max_by(|a, b| cores(a).total_cmp(&cores(b))) {
            out.push_str(&format!(
                "\n{who} in the open loop: {:.1} cores on average, at most {:.0}% of a core over 100 ms (at {:.1} s)",
                others.iter().map(cores).sum::<f64>() / n,
                cores(most) * 100.0,
                most.at.saturating_duration_since(start).as_secs_f64()
            ));
        }
    }
    if let Some(most) = others.iter().max_by_key(|b| b.faults) {
        out.push_str(&format!(
            "\ndoko in the open loop: {:.0} page faults per 100 ms on average, at most {} (at {:.1} s); its sleeping \
             thread woke at most {:.1} ms late, its runtime's timer at most {:.1} ms",
            others.iter().map(|b| b.faults).sum::<u64>() as f64 / n,
            most.faults,
            most.at.saturating_duration_since(start).as_secs_f64(),
            longest(others.iter(), |b| b.lag),
            longest(others.iter(), |b| b.runtime_lag)
        ));
    }
    out
}

/// The longest of one lag of `samples`, in milliseconds (0 for none).
fn longest<'a>(samples: impl Iterator<Item = &'a Busy>, lag: fn(&Busy) -> Duration) -> f64 {
    samples.map(lag).max().map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::machine::Top;

    /// The late actions are counted by the 100 ms window they were due
    /// in, the fullest windows first, each with what other processes used
    /// and the host took in the samples that overlap it or the 100 ms
    /// after it.
    #[test]
    fn late_windows_name_the_fullest_windows_and_the_other_processes() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let late = |due, waited, sent, answer| Late {
            due: ms(due),
            waited: ms(waited),
            sent_late: ms(sent),
            answer: ms(answer),
        };
        // two in the window at 0.2 s, three in the one at 4.7 s
        let lates = [
            late(210, 0, 1, 5),
            late(290, 3, 0, 7),
            late(4_700, 30, 10, 60),
            late(4_750, 0, 45, 20),
            late(4_799, 0, 2, 9),
        ];
        let busy = |at, cores, stolen| Busy {
            at: start + ms(at),
            cores,
            stolen,
            top: Top::default(),
            faults: 0,
            lag: Duration::ZERO,
            runtime_lag: Duration::ZERO,
        };
        // the busiest other process of a sample in the window at 4.7 s
        let top = |name: &str, cores| {
            let mut t = Top { cores, len: name.len() as u8, ..Top::default() };
            t.name[..name.len()].copy_from_slice(name.as_bytes());
            t
        };
        let others = [
            busy(300, 0.2, 0.0),
            Busy { top: top("kworker/u8:3", 0.1), faults: 120, lag: ms(2), ..busy(4_800, 0.9, 0.5) },
            Busy { top: top("kdamond.0", 0.4), faults: 30, runtime_lag: ms(40), ..busy(4_900, 1.0, 0.1) },
            busy(5_100, 0.1, 0.0),
            busy(9_000, 0.3, 0.7),
        ];
        let text = late_windows(&lates, &others, start);
        assert!(
            text.starts_with("open loop: 5 actions answered over 5 ms after due, in 2 windows of 100 ms"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            "  due at 4.7 s: 3 actions, up to 100.0 ms late; waited up to 30.0 ms for their tables' previous answers, \
             sent up to 45.0 ms later than they could be, answered in up to 60.0 ms; \
             other processes on the machine kept 100% of a core busy, the host took 50% \
             (the busiest other process: kdamond.0, 40% of a core); doko took 150 page faults, its sleeping thread \
             woke up to 2.0 ms late, its runtime's timer up to 40.0 ms"
        );
        assert_eq!(
            lines[2],
            "  due at 0.2 s: 2 actions, up to 10.0 ms late; waited up to 3.0 ms for their tables' previous answers, \
             sent up to 1.0 ms later than they could be, answered in up to 7.0 ms; \
             other processes on the machine kept 20% of a core busy, the host took 0%; doko took 0 page faults, its \
             sleeping thread woke up to 0.0 ms late, its runtime's timer up to 0.0 ms"
        );
        assert_eq!(
            lines[3],
            "other processes on the machine in the open loop: 0.5 cores on average, at most 100% of a core over \
             100 ms (at 4.9 s)"
        );
        assert_eq!(
            lines[4],
            "the host in the open loop: 0.3 cores on average, at most 70% of a core over 100 ms (at 9.0 s)"
        );
        assert_eq!(
            lines[5],
            "doko in the open loop: 30 page faults per 100 ms on average, at most 120 (at 4.8 s); its sleeping thread \
             woke at most 2.0 ms late, its runtime's timer at most 40.0 ms"
        );
        assert_eq!(late_windows(&[], &[], start), "open loop: 0 actions answered over 5 ms after due");
    }
}
