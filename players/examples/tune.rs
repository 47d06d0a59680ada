//! Tuning the computer players: duplicate matches between two
//! configurations, with where the points came from (by contract and by
//! who announced), and paired comparisons of two such matches.
//!
//! `cargo run --release -p doko-players --example tune -- A B DEALS MS
//! [ddv|casual] [SEED]` plays A against B, a side being `uct`, `strong`,
//! `basic` or `expert`, each with settings of its search and its own
//! budget: `expert,heur=0,solo=1,ms=12` (see `make`). `THREADS` (2)
//! splits the deals; `DUMP=FILE` writes A's points deal by deal;
//! `ONLY=solo` plays out only the deals B declares a solo in (the
//! others score 0), to compare defences against solos.
//!
//! `... --example tune -- compare FILE1 FILE2`: two dumps of the same
//! deals (same seed, deals and threads; say a variant and the expert
//! each against `uct`), the mean difference deal by deal with its 95%
//! interval. Pairing cancels most of the deals' luck: a change worth 0.3
//! points a deal shows in 800 deals where two separate matches would
//! need several thousand.

use std::time::{Duration, Instant};

use doko_engine::{Contract, Game, Phase, Rules, Seat};
use doko_players::arena::{A_SEATS, match_deals, player_seed};
use doko_players::player::{BasicPlayer, Player};
use doko_players::search::{SearchConfig, SearchPlayer};
use doko_players::strong::{StrongConfig, StrongPlayer};

fn make(spec: &str, budget: Duration, seed: u64) -> Box<dyn Player> {
    let budget = spec
        .split(',')
        .find_map(|kv| kv.strip_prefix("ms="))
        .map_or(budget, |ms| Duration::from_millis(ms.parse().expect("ms")));
    let mut parts = spec.split(',').filter(|kv| !kv.starts_with("ms="));
    let kind = parts.next().unwrap_or("expert");
    let mut cfg = match kind {
        "uct" => SearchConfig::uct(budget),
        "strong" => return Box::new(StrongPlayer::new(StrongConfig { budget, ..StrongConfig::default() }, seed)),
        "basic" => return Box::new(BasicPlayer),
        _ => SearchConfig::expert(budget),
    };
    for kv in parts {
        let (k, v) = kv.split_once('=').expect("key=value");
        let f: f64 = v.parse().expect("a number");
        match k {
            "mismatch" => cfg.mismatch = f,
            "bid" => cfg.bid_mismatch = f,
            "solver" => cfg.solver_cards = f as usize,
            "iters" => cfg.iterations = f as usize,
            "worlds" => cfg.worlds = f as usize,
            "heur" => cfg.heuristic = f != 0.0,
            "noise" => cfg.noise = f as u32,
            "flat" => cfg.flat = f != 0.0,
            "explore" => cfg.exploration = f,
            "solo" => cfg.solo_mismatch = f,
            "margin" => cfg.announce_margin = f,
            "paired" => cfg.paired = f != 0.0,
            "smear" => cfg.smear = f != 0.0,
            "policy" => cfg.policy = f,
            _ => panic!("unknown setting {k}"),
        }
    }
    if kind == "uct" {
        Box::new(SearchPlayer::with_config(cfg, seed))
    } else {
        Box::new(SearchPlayer::expert_with(cfg, seed))
    }
}

#[derive(Default, Clone)]
struct Out {
    per_deal: Vec<f64>,
    /// per category: A's points summed over plays, plays
    cats: std::collections::BTreeMap<String, (f64, usize)>,
    times: [Vec<Duration>; 2],
}

fn category(g: &Game, a_seats: [bool; 4]) -> String {
    let side = |s: Seat| if a_seats[s.index()] { "A" } else { "B" };
    let c = match g.contract() {
        Contract::Normal => "normal".to_string(),
        Contract::Solo(_) | Contract::SilentSolo => format!("solo {}", g.declarer().map_or("?", side)),
        Contract::Wedding => "wedding".into(),
        Contract::Poverty => "poverty".into(),
        other => format!("{other:?}"),
    };
    let mut by: Vec<&str> = g.announcements().iter().map(|a| side(a.seat)).collect();
    by.sort();
    by.dedup();
    let ann = if by.is_empty() { "-".to_string() } else { by.join("") };
    format!("{c:<10} ann {ann}")
}

/// Whether B declared a solo (a deal `ONLY=solo` keeps).
fn b_solo(g: &Game, a_seats: [bool; 4]) -> bool {
    matches!(g.contract(), Contract::Solo(_)) && g.declarer().is_some_and(|d| !a_seats[d.index()])
}

fn run(a: &str, b: &str, deals: usize, seed: u64, rules: Rules, budget: Duration) -> Out {
    let mut out = Out::default();
    // only the deals B declares a solo in (the rest score 0: a paired
    // comparison of the defence against solos)
    let only_b_solo = std::env::var("ONLY").is_ok_and(|o| o == "solo");
    for (deal_seed, dealer) in match_deals(deals, seed) {
        let mut points = 0.0;
        for (round, a_seats) in A_SEATS.into_iter().enumerate() {
            let mut players: Vec<Box<dyn Player>> = (0..4)
                .map(|i| make(if a_seats[i] { a } else { b }, budget, player_seed(deal_seed, i, round)))
                .collect();
            let mut g = Game::deal(rules, dealer, deal_seed);
            while let Some(s) = g.mandatory_announcement().or(g.to_act()) {
                if only_b_solo && g.phase() == Phase::Playing && !b_solo(&g, a_seats) {
                    break;
                }
                let v = g.view(s);
                let t0 = Instant::now();
                let act = players[s.index()].decide(&v);
                out.times[usize::from(!a_seats[s.index()])].push(t0.elapsed());
                g.act(s, act).expect("legal");
            }
            if only_b_solo && !b_solo(&g, a_seats) {
                continue;
            }
            let sc = g.score().map_or([0; 4], |s| s.scores);
            let p: f64 = (0..4).filter(|i| a_seats[*i]).map(|i| sc[i] as f64).sum();
            points += p;
            let e = out.cats.entry(category(&g, a_seats)).or_default();
            e.0 += p;
            e.1 += 1;
        }
        out.per_deal.push(points / 2.0);
    }
    out
}

/// Mean and half-width of the 95% interval.
fn mean_ci(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn compare(a: &str, b: &str) {
    let read = |p: &str| -> Vec<f64> {
        std::fs::read_to_string(p).expect("a dump").split_whitespace().map(|x| x.parse().expect("a number")).collect()
    };
    let (a, b) = (read(a), read(b));
    assert_eq!(a.len(), b.len(), "dumps of the same deals");
    let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
    let (m, ci) = mean_ci(&d);
    println!(
        "{} deals: {:+.3} against {:+.3}: {m:+.3} (95% CI {:+.3} .. {:+.3})",
        d.len(),
        mean_ci(&a).0,
        mean_ci(&b).0,
        m - ci,
        m + ci
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args[1] == "compare" {
        return compare(&args[2], &args[3]);
    }
    let (a, b) = (args[1].clone(), args[2].clone());
    let deals: usize = args[3].parse().expect("deals");
    let budget = Duration::from_millis(args[4].parse().expect("ms"));
    let rules = match args.get(5).map(String::as_str) {
        Some("casual") => Rules::preset(doko_engine::Preset::Casual),
        _ => Rules::default(),
    };
    let seed: u64 = args.get(6).map_or(1, |s| s.parse().expect("seed"));
    let t0 = Instant::now();
    let threads: usize = std::env::var("THREADS").map_or(2, |t| t.parse().expect("threads"));
    let per = deals.div_ceil(threads);
    let parts: Vec<Out> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let (a, b) = (&a, &b);
                sc.spawn(move || run(a, b, per, seed.wrapping_add(t as u64 * 0x9E37_79B9), rules, budget))
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    let mut all = Out::default();
    for p in parts {
        all.per_deal.extend(p.per_deal);
        for (k, (s, n)) in p.cats {
            let e = all.cats.entry(k).or_default();
            e.0 += s;
            e.1 += n;
        }
        for i in 0..2 {
            all.times[i].extend(p.times[i].iter().copied());
        }
    }
    if let Ok(path) = std::env::var("DUMP") {
        let text: Vec<String> = all.per_deal.iter().map(|x| x.to_string()).collect();
        std::fs::write(path, text.join("\n")).expect("dump");
    }
    let n = all.per_deal.len() as f64;
    let (mean, ci) = mean_ci(&all.per_deal);
    let med = |t: &mut Vec<Duration>| {
        t.sort();
        (t[t.len() / 2].as_secs_f64() * 1e3, t[t.len() * 99 / 100].as_secs_f64() * 1e3)
    };
    let (am, ap) = med(&mut all.times[0]);
    let (bm, bp) = med(&mut all.times[1]);
    println!(
        "{a} vs {b}: {n} deals, {:.0} s: A {mean:+.3} (95% CI {:+.3} .. {:+.3}); A {am:.1}/{ap:.1} ms, B {bm:.1}/{bp:.1} ms",
        t0.elapsed().as_secs_f64(),
        mean - ci,
        mean + ci
    );
    for (k, (s, c)) in &all.cats {
        // contribution to A's points per deal (2 plays a deal)
        println!("  {k:<22} plays {c:>5}  A per play {:+.3}  share of per-deal {:+.3}", s / *c as f64, s / 2.0 / n);
    }
}
