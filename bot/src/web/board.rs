//! The leaderboard's page: the server's players (or the table's, for a
//! channel in no server) all time and this month, ranked as `leaderboard`
//! ranks them; names as the tables show them, nothing of their accounts.

use askama::Template;

use super::{Head, render};
use crate::lang::Lang;
use crate::render::Ranked;
use crate::table::PageLink;
use crate::tr;

/// The most players a leaderboard's page shows.
pub const BOARD_ROWS: usize = 100;

/// One row of a leaderboard's page.
pub struct BoardRow {
    place: usize,
    name: String,
    points: i64,
    deals: u32,
    won: u32,
}

struct Cols {
    place: String,
    name: String,
    points: String,
    deals: String,
    won: String,
}

#[derive(Template)]
#[template(path = "board.html")]
struct BoardPage {
    head: Head,
    heading: String,
    scope: String,
    cols: Cols,
    boards: Vec<(String, &'static str, Vec<BoardRow>)>,
}

fn rows(ranked: &[Ranked]) -> Vec<BoardRow> {
    ranked
        .iter()
        .take(BOARD_ROWS)
        .map(|r| BoardRow {
            place: r.place,
            name: r.stats.name.clone(),
            points: r.stats.points,
            deals: r.stats.deals,
            won: r.stats.won,
        })
        .collect()
}

/// The leaderboard's page: of a server's tables (`server`) or of this
/// one, all time and in `month` (`2026-12`).
pub fn board_page(
    l: Lang,
    server: bool,
    month: &str,
    all: &[Ranked],
    this_month: &[Ranked],
    link: &PageLink,
) -> String {
    let link = &super::local(link);
    let page = BoardPage {
        head: Head::new(l, tr!(l, "web-leaderboard"), link),
        heading: tr!(l, "web-leaderboard"),
        scope: tr!(l, "web-board-scope", server = if server { "yes" } else { "no" }),
        cols: Cols {
            place: tr!(l, "web-col-place"),
            name: tr!(l, "web-col-name"),
            points: tr!(l, "web-col-points"),
            deals: tr!(l, "web-col-deals"),
            won: tr!(l, "web-col-won"),
        },
        boards: vec![
            (tr!(l, "web-board-all"), "all-time", rows(all)),
            (tr!(l, "web-board-month", month = month), "this-month", rows(this_month)),
        ],
    };
    render(page, "leaderboard")
}
