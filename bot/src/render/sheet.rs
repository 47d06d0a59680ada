//! The score sheet, lists, rankings, leaderboards, statistics and the
//! analysis after a deal.

use std::fmt::Write;

use doko_engine::{Bid, Contract, Party};

use crate::lang::Lang;
use crate::table::{PlayerStats, Table, TableSession};
use crate::tr;

/// What `analysis` found in deal `record` for one person.
pub fn analysis(l: Lang, record: u32, a: &doko_players::analysis::Analysis) -> String {
    if a.examined == 0 {
        return tr!(l, "analysis-nothing", record = record);
    }
    if a.findings.is_empty() {
        return tr!(l, "analysis-none", record = record, examined = a.examined);
    }
    let mut out = tr!(l, "analysis-head", record = record, examined = a.examined);
    use doko_players::analysis::Choice;
    let bid = |b: Bid| match b {
        Bid::Healthy => l.bid_said(false),
        Bid::Reserve(r) => l.reservation(r),
    };
    let yes = |x: bool| if x { "yes" } else { "no" };
    for f in &a.findings {
        let cost = format!("{:.1}", f.cost);
        let cost = if l == Lang::De { cost.replace('.', ",") } else { cost };
        let line = match (f.made, f.better) {
            (Choice::Card(played), Choice::Card(better)) => tr!(
                l,
                "analysis-finding",
                trick = f.trick,
                played = l.cards([played]),
                better = l.cards([better]),
                cost = cost
            ),
            (Choice::Call(c, said), _) => {
                tr!(l, "analysis-call", trick = f.trick, call = l.call(c), said = yes(said), cost = cost)
            }
            (Choice::Bid(made), Choice::Bid(better)) => {
                tr!(l, "analysis-bid", made = bid(made), better = bid(better), cost = cost)
            }
            (Choice::Answer(taken), _) => tr!(l, "analysis-answer", taken = yes(taken), cost = cost),
            (Choice::Give(made), Choice::Give(better)) | (Choice::Return(made), Choice::Return(better)) => tr!(
                l,
                "analysis-exchange",
                step = if matches!(f.made, Choice::Give(_)) { "give" } else { "return" },
                made = l.cards(made.iter()),
                better = l.cards(better.iter()),
                cost = cost
            ),
            _ => continue,
        };
        out.push('\n');
        out.push_str(&line);
        // why the better choice, as the coach says it
        if let Some(why) = f.why {
            let _ = write!(out, " ({})", super::coach::why_text(l, why));
        }
    }
    out
}

/// A score sheet row's contract (its record name) in the language.
pub(crate) fn sheet_contract(l: Lang, name: &str) -> String {
    match name {
        "normal" => l.contract(Contract::Normal).into_owned(),
        "wedding" => l.contract(Contract::Wedding).into_owned(),
        "silent-solo" => l.contract(Contract::SilentSolo).into_owned(),
        "poverty" => l.contract(Contract::Poverty).into_owned(),
        "black-sow" => l.contract(Contract::BlackSow(None)).into_owned(),
        other => match other.strip_prefix("solo-").and_then(doko_engine::SoloKind::from_key) {
            Some(k) => l.solo(k).into_owned(),
            None => match other.strip_prefix("black-sow-").and_then(doko_engine::SoloKind::from_key) {
                Some(k) => l.contract(Contract::BlackSow(Some(k))).into_owned(),
                None => other.to_string(),
            },
        },
    }
}

/// The score sheet.
pub fn score(t: &Table) -> String {
    let l = t.lang();
    let Some(s) = t.session() else { return tr!(l, "score-none") };
    sheet(l, s, t.rules().compulsory_solos > 0)
}

/// A list's score sheet: every deal with the running totals, the check,
/// and the compulsory solos still owed (where `duty`).
pub(super) fn sheet(l: Lang, s: &TableSession, duty: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<16} {}",
        "#",
        tr!(l, "score-game"),
        s.names().iter().map(|n| format!("{n:>10}")).collect::<String>()
    );
    let mut running = vec![0i64; s.names().len()];
    for row in s.sheet() {
        for (r, d) in running.iter_mut().zip(&row.scores) {
            *r += d;
        }
        let cells: String = running.iter().map(|v| format!("{v:>10}")).collect();
        let bock = match row.factor() {
            1 => String::new(),
            2 => format!(" ({})", tr!(l, "score-bock")),
            f => format!(" ({} x{f})", tr!(l, "score-doppelbock")),
        };
        let hint = if s.hinted(row.deal) { format!(" ({})", tr!(l, "score-hint")) } else { String::new() };
        let contract: String = sheet_contract(l, &row.contract).chars().take(16).collect();
        let _ = writeln!(out, "{:>4}  {contract:<16} {cells}{bock}{hint}", row.deal);
    }
    let sum: i64 = s.totals().iter().sum();
    let totals = s.totals().as_slice();
    let parity_ok = totals.len() != 4 || totals.iter().all(|v| v.rem_euclid(2) == totals[0].rem_euclid(2));
    let _ = writeln!(out, "{}", tr!(l, "score-check", sum = sum, parity = if parity_ok { "yes" } else { "no" }));
    if duty && !s.is_over() {
        let owed: Vec<String> =
            s.names().iter().zip(s.duty_left()).filter(|(_, d)| **d > 0).map(|(n, d)| format!("{n} {d}")).collect();
        if !owed.is_empty() {
            let _ = writeln!(out, "{}", tr!(l, "score-duty-owed", owed = owed.join(", ")));
        }
    }
    out
}

/// `list` / `list N`: a list (session) with its number, how far it got,
/// when it started, its sheet, and the numbers of the lists kept here.
pub fn list(t: &Table, n: Option<u32>) -> String {
    let l = t.lang();
    let s = match n {
        Some(n) => t.list(n),
        None => t.session(),
    };
    let Some(s) = s else { return tr!(l, "score-none") };
    let mut out = String::new();
    // the length of the list being played (the rules now); a kept list's
    // is what it got to
    let current = t.session().is_some_and(|c| std::ptr::eq(c, s));
    let length = t.rules().games_per_session;
    let progress = if current && length > 0 && !s.is_over() {
        tr!(l, "list-progress-of", played = s.sheet().len(), length = length)
    } else {
        tr!(l, "list-progress", played = s.sheet().len())
    };
    let state = if s.is_over() { "over" } else { "open" };
    let _ = writeln!(
        out,
        "{}",
        tr!(
            l,
            "list-heading",
            number = s.number(),
            progress = progress,
            state = state,
            date = if s.started_ms() > 0 { crate::table::date_of(s.started_ms()) } else { "-".to_string() }
        )
    );
    out.push_str(&sheet(l, s, true));
    let kept: Vec<String> =
        t.history().iter().chain(t.session()).filter(|x| x.number() > 0).map(|x| x.number().to_string()).collect();
    if kept.len() > 1 {
        let _ = writeln!(out, "{}", tr!(l, "list-kept", numbers = kept.join(", ")));
    }
    out
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// Their place (shared by equal figures: 1, 1, 3).
    pub place: usize,
    /// The player's stored id.
    pub key: String,
    /// Their figures.
    pub stats: PlayerStats,
}

/// Ranks people: by points, then by win rate, then by deals; only those
/// who played a deal (computers are not ranked).
pub fn ranking(stats: &crate::table::Stats) -> Vec<Ranked> {
    let mut rows: Vec<Ranked> = stats
        .iter()
        // people only: a computer's key is its table's
        .filter(|(k, s)| s.deals > 0 && !k.is_computer())
        .map(|(k, s)| Ranked { place: 0, key: k.as_str().to_string(), stats: s.clone() })
        .collect();
    let rate = |s: &PlayerStats| u64::from(s.won) * 1_000_000 / u64::from(s.deals.max(1));
    let figures =
        |s: &PlayerStats| (std::cmp::Reverse(s.points), std::cmp::Reverse(rate(s)), std::cmp::Reverse(s.deals));
    rows.sort_by(|a, b| figures(&a.stats).cmp(&figures(&b.stats)).then(a.stats.name.cmp(&b.stats.name)));
    for i in 0..rows.len() {
        rows[i].place =
            if i > 0 && figures(&rows[i].stats) == figures(&rows[i - 1].stats) { rows[i - 1].place } else { i + 1 };
    }
    rows
}

/// How many players a leaderboard shows.
pub const LEADERBOARD_ROWS: usize = 20;

pub(super) fn win_rate(s: &PlayerStats) -> String {
    format!("{}%", (u64::from(s.won) * 100 + u64::from(s.deals) / 2) / u64::from(s.deals.max(1)))
}

/// `leaderboard`: the ranking over `scope` (`server` or `channel`), for
/// `period` (`all`, or the month `2026-11`), with what it spans.
pub fn leaderboard(l: Lang, server: bool, period: Option<&str>, channels: usize, rows: &[Ranked]) -> String {
    let mut out = String::new();
    let scope = if server { "server" } else { "channel" };
    let _ = writeln!(
        out,
        "{}",
        tr!(l, "leaderboard-heading", scope = scope, period = period.unwrap_or("all"), channels = channels)
    );
    if rows.is_empty() {
        let _ = writeln!(out, "{}", tr!(l, "leaderboard-empty"));
        return out;
    }
    let _ = writeln!(
        out,
        "{:>3}  {:<16}{:>8}{:>7}{:>7}{:>11}",
        "#",
        tr!(l, "stats-player"),
        tr!(l, "stats-points"),
        tr!(l, "stats-deals"),
        tr!(l, "leaderboard-rate"),
        tr!(l, "leaderboard-solos-won")
    );
    for r in rows.iter().take(LEADERBOARD_ROWS) {
        let name: String = r.stats.name.chars().take(16).collect();
        let s = &r.stats;
        let _ = writeln!(
            out,
            "{:>3}  {name:<16}{:>8}{:>7}{:>7}{:>11}",
            r.place,
            s.points,
            s.deals,
            win_rate(s),
            format!("{}/{}", s.solos_won, s.solos)
        );
    }
    out
}

/// One of a person's lists, for `me`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyList {
    /// Where it was played, as its platform links a channel (see
    /// [`crate::dialect::Dialect`]), or `None` for the channel asked in.
    pub channel: Option<String>,
    /// Its number there.
    pub number: u32,
    /// When it started (ms; 0 unknown).
    pub started_ms: u64,
    /// Deals played in it.
    pub deals: usize,
    /// The person's points.
    pub points: i64,
    /// Their place (1 = most points) among how many.
    pub place: (usize, usize),
}

/// `me`: one's figures over all time and this month with one's rank,
/// and one's latest lists.
pub fn me(
    l: Lang,
    server: bool,
    month: &str,
    all: Option<(&PlayerStats, usize, usize)>,
    this_month: Option<(&PlayerStats, usize, usize)>,
    lists: &[MyList],
) -> String {
    let mut out = String::new();
    let scope = if server { "server" } else { "channel" };
    let Some((a, rank, of)) = all else { return tr!(l, "me-none", scope = scope) };
    let line = |period: &str, s: &PlayerStats, rank: usize, of: usize| {
        tr!(
            l,
            "me-line",
            period = period,
            points = s.points,
            deals = s.deals,
            won = s.won,
            rate = win_rate(s),
            solos = s.solos,
            solos_won = s.solos_won,
            rank = rank,
            of = of
        )
    };
    let _ = writeln!(out, "{}", tr!(l, "me-heading", name = a.name.as_str(), scope = scope));
    let _ = writeln!(out, "{}", line("all", a, rank, of));
    if let Some((m, rank, of)) = this_month {
        let _ = writeln!(out, "{}", line(month, m, rank, of));
    }
    if !lists.is_empty() {
        let _ = writeln!(out, "{}", tr!(l, "me-lists"));
        for m in lists {
            let date = if m.started_ms > 0 { crate::table::date_of(m.started_ms) } else { "-".into() };
            let here = tr!(l, "me-here");
            let _ = writeln!(
                out,
                "{}",
                tr!(
                    l,
                    "me-list",
                    number = m.number,
                    channel = m.channel.as_deref().unwrap_or(here.as_str()),
                    date = date,
                    deals = m.deals,
                    points = m.points,
                    place = m.place.0,
                    of = m.place.1
                )
            );
        }
    }
    out
}

/// Statistics of the channel.
pub fn stats(t: &Table) -> String {
    let l = t.lang();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16}{:>8}{:>8}{:>8}{:>8}{:>9}",
        tr!(l, "stats-player"),
        tr!(l, "stats-deals"),
        tr!(l, "stats-won"),
        tr!(l, "stats-solos"),
        tr!(l, "stats-won"),
        tr!(l, "stats-points")
    );
    for st in t.stats().values().filter(|s| s.deals > 0) {
        let _ = writeln!(
            out,
            "{:<16}{:>8}{:>8}{:>8}{:>8}{:>9}",
            st.name, st.deals, st.won, st.solos, st.solos_won, st.points
        );
    }
    out
}

/// Whether a contract is public knowledge yet (for adapters' titles).
pub fn contract_name(l: Lang, c: Option<Contract>) -> String {
    c.map(|c| l.contract(c).into_owned()).unwrap_or_else(|| tr!(l, "reservations"))
}

/// The party word (for adapters).
pub fn party_name(l: Lang, p: Party) -> String {
    l.party(p).into_owned()
}
