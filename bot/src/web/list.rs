//! A list's page: its score sheet as DDV lists keep it (each deal's game,
//! declarer, winners, value, every player's running total with the
//! deal's points, Bock, solo and hint marks; the totals), the chart of the
//! running score with its numbers as text, and the table's other lists.

use askama::Template;
use doko_engine::{ByPlayer, SheetRow};

use super::{Head, render, running_chart};
use crate::lang::Lang;
use crate::table::{PageLink, Table, TableSession};
use crate::tr;

/// The most deals a list's page shows (the newest; a list has 24 or so).
pub const ROWS_SHOWN: usize = 400;

struct Player {
    name: String,
    total: i64,
}

struct Cell {
    running: i64,
    delta: String,
}

struct Row {
    deal: u32,
    href: Option<String>,
    contract: String,
    declarer: String,
    winner: String,
    value: i64,
    cells: Vec<Cell>,
    marks: String,
}

struct Cols {
    deal: String,
    contract: String,
    declarer: String,
    winner: String,
    value: String,
    marks: String,
    totals: String,
}

#[derive(Template)]
#[template(path = "list.html")]
struct ListPage {
    head: Head,
    heading: String,
    state: String,
    chart_title: String,
    chart: String,
    chart_text: Vec<String>,
    players: Vec<Player>,
    cols: Cols,
    rows: Vec<Row>,
    lists_label: String,
    lists: Vec<(String, u32)>,
}

/// List `s` of table `t` as a page (its deals link to their pages).
pub fn list_page(t: &Table, s: &TableSession, link: &PageLink) -> String {
    let link = &super::local(link);
    let l = t.lang();
    let names = s.names();
    let sheet = s.sheet();
    let shown = &sheet[sheet.len().saturating_sub(ROWS_SHOWN)..];
    // the running totals before the first deal shown, then after each
    let mut running: Vec<i64> = vec![0; names.len()];
    for row in &sheet[..sheet.len() - shown.len()] {
        add(&mut running, &row.scores);
    }
    let mut totals = vec![running.clone()];
    let mut rows = Vec::with_capacity(shown.len());
    for row in shown {
        add(&mut running, &row.scores);
        totals.push(running.clone());
        rows.push(sheet_row(l, s, row, &running, link));
    }
    let chart_text = totals
        .iter()
        .skip(1)
        .zip(shown)
        .map(|(after, row)| {
            let scores: Vec<String> = names.iter().zip(after).map(|(n, v)| format!("{n} {v}")).collect();
            tr!(l, "web-chart-after", deal = row.deal, scores = scores.join(", "))
        })
        .collect();
    let players =
        names.iter().enumerate().map(|(i, n)| Player { name: n.clone(), total: s.totals().as_slice()[i] }).collect();
    let state = if s.is_over() { "over" } else { "open" };
    let date = if s.started_ms() > 0 { crate::table::date_of(s.started_ms()) } else { "-".to_string() };
    let lists = t
        .history()
        .iter()
        .chain(t.session())
        .filter(|x| x.number() > 0)
        .map(|x| (link.list_url(x.number()), x.number()));
    let page = ListPage {
        head: Head::new(l, tr!(l, "web-page-title", number = s.number()), link),
        heading: tr!(l, "web-list-heading", number = s.number()),
        state: tr!(l, "web-list-state", played = sheet.len(), state = state, date = date),
        chart_title: tr!(l, "web-chart"),
        chart: running_chart(&totals),
        chart_text,
        players,
        cols: cols(l),
        rows,
        lists_label: tr!(l, "web-lists"),
        lists: lists.collect(),
    };
    render(page, "list")
}

fn add(running: &mut [i64], scores: &ByPlayer<i64>) {
    for (r, d) in running.iter_mut().zip(scores.iter()) {
        *r += d;
    }
}

fn cols(l: Lang) -> Cols {
    Cols {
        deal: tr!(l, "web-col-deal"),
        contract: tr!(l, "web-col-contract"),
        declarer: tr!(l, "web-col-declarer"),
        winner: tr!(l, "web-col-winner"),
        value: tr!(l, "web-col-value"),
        marks: tr!(l, "web-col-marks"),
        totals: tr!(l, "web-totals"),
    }
}

/// One deal's row: the game, the declarer, the winners (those who scored
/// points), the value (the least a player in the deal scored: a solo's
/// declarer scores three times it), the running totals and the marks.
fn sheet_row(l: Lang, s: &TableSession, row: &SheetRow, running: &[i64], link: &PageLink) -> Row {
    let names = s.names();
    let winners: Vec<&str> = row.scores.players().filter(|(_, v)| **v > 0).map(|(p, _)| names[p].as_str()).collect();
    let value = row.scores.iter().filter(|v| **v != 0).map(|v| v.abs()).min().unwrap_or(0);
    let mut marks: Vec<String> = Vec::new();
    match row.factor() {
        1 => {}
        2 => marks.push(tr!(l, "score-bock")),
        f => marks.push(format!("{} x{f}", tr!(l, "score-doppelbock"))),
    }
    if row.duty {
        marks.push(tr!(l, "web-mark-duty"));
    } else if row.contract.starts_with("solo-") || row.contract == "silent-solo" {
        marks.push(tr!(l, "web-mark-solo"));
    }
    if s.hinted(row.deal) {
        marks.push(tr!(l, "score-hint"));
    }
    let cells = running
        .iter()
        .zip(row.scores.iter())
        .map(|(r, d)| Cell { running: *r, delta: if *d == 0 { String::new() } else { format!("({d:+})") } })
        .collect();
    Row {
        deal: row.deal,
        href: (row.record > 0).then(|| link.deal_url(row.record)),
        contract: crate::render::sheet_contract(l, &row.contract),
        declarer: row.declarer.and_then(|p| names.get(p)).cloned().unwrap_or_default(),
        winner: if winners.is_empty() { tr!(l, "web-winner-none") } else { winners.join(", ") },
        value,
        cells,
        marks: marks.join(", "),
    }
}
