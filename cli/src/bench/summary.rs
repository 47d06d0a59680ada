//! The summary of several runs: each figure's median, least and most,
//! held against its target with how many runs met it.

/// One figure's line in a summary over several runs: its spread
/// ([`SpreadLine::line`]) and, where it has a target, how many of the runs
/// met it.
pub fn summary_line(name: &str, decimals: usize, target: Target, xs: &[f64]) -> String {
    let line = Spread::of(xs).line(name, decimals, target);
    if matches!(target, Target::None) {
        return line;
    }
    format!("{line}, met in {} of {}", xs.iter().filter(|x| target.met(**x)).count(), xs.len())
}

/// The median, least and most of one figure over several runs.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spread {
    median: f64,
    least: f64,
    most: f64,
    /// How many runs gave a figure.
    of: usize,
}

/// What a figure is held against.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// At least this much.
    AtLeast(f64),
    /// Less than this.
    Below(f64),
    /// No target: only reported.
    None,
}

impl Target {
    fn met(self, x: f64) -> bool {
        match self {
            Target::AtLeast(t) => x >= t,
            Target::Below(t) => x < t,
            Target::None => true,
        }
    }
}

impl Spread {
    /// Of the figures given (a median of an even count is the mean of the
    /// middle two); None for none.
    fn of(xs: &[f64]) -> Option<Spread> {
        let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
        Some(Spread { median, least: v[0], most: v[n - 1], of: n })
    }
}

/// A figure's line in a summary: "name: median X (least-most over N runs)",
/// with its target and how many runs met it.
trait SpreadLine {
    fn line(&self, name: &str, decimals: usize, target: Target) -> String;
}

impl SpreadLine for Option<Spread> {
    fn line(&self, name: &str, decimals: usize, target: Target) -> String {
        let f = |x: f64| format!("{x:.decimals$}");
        let Some(s) = self else { return format!("{name}: no run gave it") };
        let aim = match target {
            Target::AtLeast(t) => format!("; target at least {}", f(t)),
            Target::Below(t) => format!("; target under {}", f(t)),
            Target::None => String::new(),
        };
        format!(
            "{name}: median {} ({}-{} over {} run{}){aim}",
            f(s.median),
            f(s.least),
            f(s.most),
            s.of,
            if s.of == 1 { "" } else { "s" },
        )
    }
}

/// The figures of one `doko bench-tables` run that its summary over
/// several runs takes up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TablesFigures {
    /// The closed loop's actions a second.
    pub closed: f64,
    /// Redis alone's script calls a second (the same server, the same run).
    pub alone: f64,
    /// The closed loop as a share of Redis alone divided by the round
    /// trips an action (percent).
    pub share: f64,
    /// The open loop's offered rate, its median and p99 latency (ms) from
    /// when each action was due; None with no open loop.
    pub open: Option<(f64, f64, f64)>,
    /// Redis alone's p99 (ms) at the open loop's offered rate and times.
    pub alone_p99: Option<f64>,
    /// Redis `MEMORY USAGE` per table and per table's records (bytes).
    pub table_bytes: f64,
    /// See `table_bytes`.
    pub record_bytes: f64,
}

/// The summary of several `doko bench-tables` runs: each figure's median,
/// least and most, its target (issue 19) and how many runs met it.
pub fn tables_summary(runs: &[TablesFigures]) -> String {
    /// How one figure is read off a run (None: that run did not give it).
    type Figure<'a> = &'a dyn Fn(&TablesFigures) -> Option<f64>;
    let mut out = format!("summary of {} runs:\n", runs.len());
    let lines: [(&str, usize, Target, Figure); 8] = [
        ("closed loop, actions/s", 0, Target::None, &|r| Some(r.closed)),
        ("Redis alone, calls/s", 0, Target::None, &|r| Some(r.alone)),
        ("closed loop, % of Redis alone", 1, Target::AtLeast(50.0), &|r| Some(r.share)),
        ("open loop offered, actions/s", 0, Target::None, &|r| r.open.map(|o| o.0)),
        ("open loop median, ms", 2, Target::None, &|r| r.open.map(|o| o.1)),
        ("open loop p99, ms", 2, Target::Below(5.0), &|r| r.open.map(|o| o.2)),
        ("Redis alone's open loop p99, ms", 2, Target::None, &|r| r.alone_p99),
        ("Redis per table with its records, bytes", 0, Target::None, &|r| Some(r.table_bytes + r.record_bytes)),
    ];
    for (name, decimals, target, f) in lines {
        let xs: Vec<f64> = runs.iter().filter_map(f).collect();
        out.push_str("  ");
        out.push_str(&summary_line(name, decimals, target, &xs));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spread's median is the middle figure of an odd count and the mean
    /// of the middle two of an even one; figures that are not finite are
    /// left out, and nothing gives no spread.
    #[test]
    fn spread_takes_the_middle_and_the_ends() {
        let s = Spread::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!(s, Spread { median: 2.0, least: 1.0, most: 3.0, of: 3 });
        let s = Spread::of(&[4.0, 1.0, f64::NAN, 2.0, 10.0]).unwrap();
        assert_eq!(s, Spread { median: 3.0, least: 1.0, most: 10.0, of: 4 });
        assert_eq!(Spread::of(&[]), None);
        assert_eq!(Spread::of(&[f64::INFINITY]), None);
        assert_eq!(Some(s).line("x", 1, Target::Below(5.0)), "x: median 3.0 (1.0-10.0 over 4 runs); target under 5.0");
        assert_eq!(None.line("x", 1, Target::None), "x: no run gave it");
    }

    /// The summary of several bench-tables runs holds each figure against
    /// its target and counts the runs that met it: the closed loop's share
    /// at least 50%, the open loop's p99 under 5 ms.
    #[test]
    fn tables_summary_counts_the_runs_that_met_each_target() {
        let run = |share, p99| TablesFigures {
            closed: 20_000.0,
            alone: 70_000.0,
            share,
            open: Some((10_000.0, 1.0, p99)),
            alone_p99: Some(1.5),
            table_bytes: 1_400.0,
            record_bytes: 300.0,
        };
        let text = tables_summary(&[run(52.0, 4.0), run(49.0, 6.0), run(55.0, 4.5)]);
        assert!(text.starts_with("summary of 3 runs:\n"), "{text}");
        assert!(
            text.contains(
                "  closed loop, % of Redis alone: median 52.0 (49.0-55.0 over 3 runs); target at least 50.0, met in 2 of 3\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "  open loop p99, ms: median 4.50 (4.00-6.00 over 3 runs); target under 5.00, met in 2 of 3\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("  Redis per table with its records, bytes: median 1700 (1700-1700 over 3 runs)\n"),
            "{text}"
        );
        // a run with no open loop gives no open-loop figure
        let text = tables_summary(&[TablesFigures { open: None, alone_p99: None, ..run(51.0, 0.0) }]);
        assert!(text.contains("  open loop p99, ms: no run gave it, met in 0 of 0\n"), "{text}");
    }
}
