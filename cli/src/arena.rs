//! `doko arena`: duplicate matches between two kinds of computer player
//! (or outside programs through the seat protocol), split over threads,
//! with points per deal, a 95% confidence interval and decision times.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use doko_players::arena::{self, ArenaResult, Side};
use doko_players::seat::SeatError;

/// One `doko arena` run as given on the command line.
pub struct Match<'a> {
    /// Side A: a kind, or `cmd:PROGRAM`.
    pub a: &'a str,
    /// Side B, as side A.
    pub b: &'a str,
    /// Deals, each played twice with the seats swapped.
    pub deals: usize,
    /// The first thread's seed.
    pub seed: u64,
    /// The searching players' time per decision, in milliseconds.
    pub budget_ms: u64,
    /// Side A's time per decision, where it differs.
    pub a_budget_ms: Option<u64>,
    /// The strong player's sampled worlds per decision.
    pub worlds: usize,
    /// Threads the deals are split between.
    pub threads: usize,
    /// Time a program has for each answer, in milliseconds.
    pub seat_timeout_ms: u64,
    /// A preset name, or a record's rules object as JSON.
    pub rules: &'a str,
}

/// Plays the match and prints its result; exit status 2 for sides or
/// rules it cannot read, 1 when a program failed.
pub fn run(m: &Match) -> ExitCode {
    let (Some(sa), Some(sb)) = (Side::from_name(m.a), Side::from_name(m.b)) else {
        eprintln!("doko: sides are random, basic, strong, expert, uct or cmd:PROGRAM");
        return ExitCode::from(2);
    };
    let rules = match rules(m.rules) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("doko: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let all = match play(m, &sa, &sb, &rules) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("doko: {e}");
            return ExitCode::FAILURE;
        }
    };
    for f in &all.failures {
        eprintln!("doko: program {f}");
    }
    report(m.a, m.b, &all, start.elapsed());
    if all.failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// The rules of `--rules`: a preset's name, or a rules object as JSON; the
/// error as printed after `doko: `.
fn rules(text: &str) -> Result<doko_engine::Rules, String> {
    let value = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("--rules: {e}"))?
    } else {
        serde_json::Value::String(text.to_string())
    };
    doko_engine::record::rules_from_json(Some(&value)).map_err(|e| e.to_string())
}

/// The deals split between the threads, each thread's seed its own, and
/// their results put together.
fn play(m: &Match, sa: &Side, sb: &Side, rules: &doko_engine::Rules) -> Result<ArenaResult, SeatError> {
    let cfg = [strong_config(m.a_budget_ms.unwrap_or(m.budget_ms), m.worlds), strong_config(m.budget_ms, m.worlds)];
    let threads = m.threads.max(1);
    let per = m.deals.div_ceil(threads);
    let timeout = Duration::from_millis(m.seat_timeout_ms);
    let parts: Vec<Result<ArenaResult, SeatError>> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let n = per.min(m.deals.saturating_sub(t * per));
                let s = m.seed.wrapping_add(t as u64 * 0x9E37_79B9);
                sc.spawn(move || arena::run_sides(sa, sb, n, s, rules, cfg, timeout))
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("arena thread")).collect()
    });
    let parts: Vec<ArenaResult> = parts.into_iter().collect::<Result<_, _>>()?;
    let mut all = ArenaResult::default();
    for p in parts {
        all.per_deal.extend(p.per_deal);
        all.times[0].extend(p.times[0].iter().copied());
        all.times[1].extend(p.times[1].iter().copied());
        all.illegal += p.illegal;
        all.failures.extend(p.failures);
    }
    Ok(all)
}

/// Prints the points per deal with their confidence interval, the
/// decision times and a digest of the results deal by deal.
fn report(a: &str, b: &str, all: &ArenaResult, elapsed: Duration) {
    let (mean, ci) = all.mean_ci();
    let (am, ap) = all.time_stats(0);
    let (bm, bp) = all.time_stats(1);
    println!(
        "{} duplicate deals ({} plays), {:.0} s: {a} vs {b}: {a} {mean:+.3} points per deal (95% CI {:+.3} .. {:+.3}), {b} {:+.3}",
        all.per_deal.len(),
        2 * all.per_deal.len(),
        elapsed.as_secs_f64(),
        mean - ci,
        mean + ci,
        -mean
    );
    println!(
        "decision time {a}: median {:.2} ms, p99 {:.2} ms; {b}: median {:.2} ms, p99 {:.2} ms; illegal choices {}",
        am.as_secs_f64() * 1e3,
        ap.as_secs_f64() * 1e3,
        bm.as_secs_f64() * 1e3,
        bp.as_secs_f64() * 1e3,
        all.illegal
    );
    // the results deal by deal, to compare two runs exactly
    let total: f64 = all.per_deal.iter().map(|x| x * 2.0).sum();
    let digest = all
        .per_deal
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, x| (h ^ ((x * 2.0) as i64 as u64)).wrapping_mul(0x0100_0000_01b3));
    println!("points of {a} over all plays: {total:+.0} (deal by deal: {digest:016x})");
}

/// The strong player's budget from the command line (`--budget-ms`,
/// `--worlds`).
pub fn strong_config(budget_ms: u64, worlds: usize) -> doko_players::strong::StrongConfig {
    doko_players::strong::StrongConfig {
        worlds,
        budget: std::time::Duration::from_millis(budget_ms),
        ..Default::default()
    }
}
