//! The table's web pages, as HTML: a list with its score sheet and a chart
//! of the running score ([`list`]), a finished deal to step through
//! ([`deal`]), the leaderboard ([`board`]), and what they share (the card
//! pictures, the style sheet, the stepping script). Pure: the service
//! finds the table and the records ([`crate::Service::web_page`]) and the
//! binary's listener serves what comes back.
//!
//! The pages are askama templates (`bot/templates/`), escaped by default
//! and checked when compiled; their texts come from the chat's catalogs,
//! in the table's language. No page shows anything of a deal before it is
//! over: the service only builds a deal's page from its record once the
//! deal is on a score sheet.

mod board;
mod chart;
mod deal;
mod list;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use doko_engine::Card;

use crate::lang::Lang;

pub use board::{BoardRow, board_page};
pub use chart::running_chart;
pub use deal::{DealSeats, deal_page};
pub use list::list_page;

/// How long a page may be kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cache {
    /// Never kept (a miss).
    NoStore,
    /// Kept, but asked again each time (its validator tells whether it
    /// changed): a list goes on.
    Revalidate,
    /// A finished deal's page: it never changes, but the table's token
    /// can be renewed, so only the reader's own browser keeps it, a day.
    Private,
    /// Shared by everyone and never changing (the cards, the style sheet,
    /// the script).
    Immutable,
}

/// A page to serve: its status, type, body and how long it may be kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The HTTP status.
    pub status: u16,
    /// The content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Arc<[u8]>,
    /// How long it may be kept.
    pub cache: Cache,
}

/// What every miss gets, the same bytes whatever was asked: nothing tells
/// whether a table, a list or a deal exists.
pub const NOT_FOUND: &str = "Not found\n";

impl Page {
    /// An HTML page.
    pub fn html(body: String, cache: Cache) -> Page {
        Page { status: 200, content_type: "text/html; charset=utf-8", body: body.into_bytes().into(), cache }
    }

    /// The one answer to every miss.
    pub fn not_found() -> Page {
        Page {
            status: 404,
            content_type: "text/plain; charset=utf-8",
            body: NOT_FOUND.as_bytes().into(),
            cache: Cache::NoStore,
        }
    }
}

/// The pages' style sheet.
pub const STYLE: &str = include_str!("static/doko.css");
/// The script that steps through a deal.
pub const SCRIPT: &str = include_str!("static/deal.js");

/// A static file of the pages by its name (`doko.css`, `deal.js`).
pub fn static_file(name: &str) -> Option<Page> {
    let (content_type, body) = match name {
        "doko.css" => ("text/css; charset=utf-8", STYLE),
        "deal.js" => ("text/javascript; charset=utf-8", SCRIPT),
        _ => return None,
    };
    Some(Page { status: 200, content_type, body: body.as_bytes().into(), cache: Cache::Immutable })
}

type CardPictures = Mutex<HashMap<(Lang, Card), Arc<[u8]>>>;

static CARDS: std::sync::LazyLock<CardPictures> = std::sync::LazyLock::new(Default::default);

/// One card's picture (`/cards/de/CQ.png`), drawn once per process and
/// kept; `None` for faces or a card that do not exist.
pub fn card_picture(faces: &str, code: &str) -> Option<Page> {
    // (the language's code as it is: one address a card)
    let l = Lang::ALL.into_iter().find(|l| l.code() == faces)?;
    let card: Card = code.parse().ok()?;
    if card.to_string() != code {
        return None;
    }
    let mut kept = CARDS.lock().unwrap_or_else(|e| e.into_inner());
    let png = match kept.get(&(l, card)) {
        Some(png) => png.clone(),
        None => {
            let drawn = crate::picture::hand(&[(card, crate::picture::Mark::Normal)], crate::render::faces(l)).ok()?;
            let png: Arc<[u8]> = drawn.into();
            kept.insert((l, card), png.clone());
            png
        }
    };
    Some(Page { status: 200, content_type: "image/png", body: png, cache: Cache::Immutable })
}

/// A player's colour in the chart and its legend (five at most at a
/// table), told apart also by those who see red and green alike (the
/// legend's are `.c0` to `.c4` in `doko.css`).
pub const COLOURS: [&str; 5] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00"];

/// The address's path (`https://x.org/doko` gives `/doko`): the pages
/// link to each other and to their files by it, so that they load from
/// wherever the browser reached them (the Content Security Policy allows
/// the page's own origin only).
pub(crate) fn local(link: &crate::table::PageLink) -> crate::table::PageLink {
    let rest = link.base.split_once("://").map_or(link.base.as_str(), |(_, r)| r);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    crate::table::PageLink { base: path.to_string(), token: link.token.clone() }
}

/// What the files' addresses carry (`?v=...`) so that a new doko's are
/// fetched anew though browsers keep them a year: a hash of the style
/// sheet, the script and the version.
pub(crate) fn asset_version() -> &'static str {
    static V: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let all = format!("{STYLE}{SCRIPT}{}", env!("CARGO_PKG_VERSION"));
        format!("{:08x}", xxhash_rust::xxh3::xxh3_64(all.as_bytes()) as u32)
    });
    &V
}

/// What every page's head and navigation show (`base.html`).
pub(crate) struct Head {
    /// The language's code.
    lang: &'static str,
    /// The page's title.
    title: String,
    /// The path the page's files and links start with.
    base: String,
    /// The files' version ([`asset_version`]).
    v: &'static str,
    /// The links every page shows: the list being played, the leaderboard.
    nav: Vec<(String, String)>,
}

impl Head {
    /// A page's head in `l`, its links and files under `link`'s path.
    pub(crate) fn new(l: Lang, title: String, link: &crate::table::PageLink) -> Head {
        let nav = vec![
            (link.table_url(), crate::tr!(l, "web-lists")),
            (format!("{}/leaderboard", link.table_url()), crate::tr!(l, "web-leaderboard")),
        ];
        Head { lang: l.code(), title, base: link.base.clone(), v: asset_version(), nav }
    }
}

/// A page's HTML; empty when it cannot be rendered (logged, naming the
/// page's kind only).
pub(crate) fn render(page: impl askama::Template, what: &'static str) -> String {
    page.render().unwrap_or_else(|e| {
        tracing::error!(error = %e, page = what, "a web page could not be rendered");
        String::new()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_link_by_the_addresss_path() {
        let l = |base: &str| local(&crate::table::PageLink { base: base.into(), token: "t".into() }).base;
        assert_eq!(l("https://doko.example.org"), "");
        assert_eq!(l("https://example.org/doko"), "/doko");
        assert_eq!(l("http://127.0.0.1:9187"), "");
        assert_eq!(asset_version().len(), 8);
    }

    #[test]
    fn cards_are_served_by_their_code_only() {
        let p = card_picture("de", "CQ").expect("the queen of clubs");
        assert_eq!(p.content_type, "image/png");
        assert!(p.body.starts_with(b"\x89PNG"));
        assert!(card_picture("de", "cq").is_none());
        assert!(card_picture("fr", "CQ").is_none());
        assert!(card_picture("de", "X1").is_none());
        assert!(static_file("deal.js").is_some());
        assert!(static_file("../deal.js").is_none());
    }
}
