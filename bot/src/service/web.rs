//! The table's web pages from the service's side: the page link offered
//! with every command (a table without one takes it), the look-up key
//! that finds a table by its token, and the pages themselves, read from
//! the store as any process sees it.
//!
//! A token is 128 bits from the system's random source. The look-up key
//! (`web:page:TOKEN`, beside the tables) is written after the commit that
//! gave the table its token, and again on every `web`, which mends one a
//! crash left unwritten; a page is served only while the table's own
//! token is the one asked for, so `web renew` kills the old links without
//! deleting anything.

use super::Service;
use super::error::ServiceError;
use super::stored::read_stored;
use crate::ids::ChannelId;
use crate::store::{Commit, Keep, Store};
use crate::table::{PageLink, Table, is_token};
use crate::web::{self, Cache, Page};

/// What a page whose table cannot be read now gets.
const UNAVAILABLE: &str = "The table's pages are not available right now; try again in a minute.\n";

impl<S: Store> Service<S> {
    /// Serves the tables' web pages at `base`, the host's public address
    /// (`https://doko.example.org`): every table gets a token with its next
    /// change, and results and lists link to their pages.
    pub fn with_web(mut self, base: &str) -> Service<S> {
        self.web = Some(base.trim_end_matches('/').to_string());
        self
    }

    /// A fresh page link for the table a command changes (`None`: the host
    /// serves no pages).
    pub(super) fn page_offer(&self) -> Option<PageLink> {
        let base = self.web.clone()?;
        let mut bytes = [0u8; 16];
        if let Err(e) = getrandom::fill(&mut bytes) {
            // (never seen) no new token this time: a table keeps its own,
            // one without gets one with a later command
            tracing::error!(error = %e, "the system's random source failed");
            return Some(PageLink { base, token: String::new() });
        }
        let token = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Some(PageLink { base, token })
    }

    /// After a command's commit: the look-up key of the table's token,
    /// written when the command gave the table the token `offered`, or
    /// when it was asked for (`web`). A failure is logged: the next `web`
    /// writes it again.
    pub(super) async fn keep_page_key(&self, home: &ChannelId, t: &Table, offered: Option<&PageLink>, asked: bool) {
        let Some(page) = t.page() else { return };
        let made = offered.is_some_and(|o| o.token == page.token);
        // (and once per process for each token it serves a table with:
        // what a crash between the commit and this write left undone is
        // mended by the next command there)
        let known = self.pages_written.lock().expect("lock").contains(&page.token);
        if !asked && !made && known {
            return;
        }
        let key = ChannelId::web_page(&page.token);
        let written = async {
            let json = serde_json::to_string(home)?;
            let version = self.timed(self.store.version(&key)).await?;
            let keep = Keep { durable: true, records: 0 };
            // (a conflict: another process wrote the same key just now)
            let _: Commit = self.timed(self.store.commit_kept(&key, version, &json, &[], keep)).await?;
            Ok::<(), ServiceError>(())
        };
        match written.await {
            Ok(()) => {
                self.pages_written.lock().expect("lock").insert(page.token.clone());
            }
            // (not the error's text: it may name the key, which holds the token)
            Err(_) => tracing::warn!(channel = %home, "a table's page key could not be written"),
        }
    }

    /// The page at `path` (the listener's path, `/t/TOKEN/...`): a list, a
    /// finished deal, the leaderboard, a card picture or a static file;
    /// the same 404 for everything else, a 503 while the store fails.
    pub async fn web_page(&self, path: &str) -> Page {
        let parts: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
        let found = match parts.as_slice() {
            ["static", name] => Ok(web::static_file(name)),
            ["cards", faces, file] => Ok(file.strip_suffix(".png").and_then(|c| web::card_picture(faces, c))),
            ["t", token, rest @ ..] => self.table_page(token, rest).await,
            _ => Ok(None),
        };
        match found {
            Ok(Some(page)) => page,
            Ok(None) => Page::not_found(),
            Err(e) => {
                tracing::warn!(error = %e, "a web page could not be read");
                Page {
                    status: 503,
                    content_type: "text/plain; charset=utf-8",
                    body: UNAVAILABLE.as_bytes().into(),
                    cache: Cache::NoStore,
                }
            }
        }
    }

    /// A page of the table whose token is `token`: `[]` the list being
    /// played (else the newest kept), `["list", N]`, `["deal", N]` (a
    /// deal on a score sheet only), `["leaderboard"]`.
    async fn table_page(&self, token: &str, rest: &[&str]) -> Result<Option<Page>, ServiceError> {
        let number = |s: &str| s.parse::<u32>().ok().filter(|n| n.to_string() == s);
        // (nothing is looked up for a path that cannot be a page)
        let wanted = match rest {
            [] => Some(None),
            ["list", n] => number(n).map(|n| Some(("list", n))),
            ["deal", n] => number(n).map(|n| Some(("deal", n))),
            ["leaderboard"] => Some(Some(("leaderboard", 0))),
            _ => None,
        };
        let Some(wanted) = wanted else { return Ok(None) };
        let Some((home, t)) = self.table_of(token).await? else { return Ok(None) };
        let link = t.page().expect("checked by table_of").clone();
        match wanted {
            None => Ok(t
                .session()
                .or(t.history().last())
                .map(|s| Page::html(web::list_page(&t, s, &link), Cache::Revalidate))),
            Some(("list", n)) => Ok(t.list(n).map(|s| Page::html(web::list_page(&t, s, &link), Cache::Revalidate))),
            Some(("deal", n)) => self.deal_page(&home, &t, n, &link).await,
            _ => self.board_page(&home, &t, &link).await.map(Some),
        }
    }

    /// The table whose current token is `token`, with its channel.
    async fn table_of(&self, token: &str) -> Result<Option<(ChannelId, Table)>, ServiceError> {
        if !is_token(token) {
            return Ok(None);
        }
        // (a failure's text may name the key, which holds the token)
        let key = self.timed(self.store.load(&ChannelId::web_page(token))).await;
        let key = key.map_err(|_| ServiceError::Failed("a page key could not be read".into()))?;
        let Some(key) = key else { return Ok(None) };
        let Ok(home) = serde_json::from_str::<ChannelId>(&key.json) else { return Ok(None) };
        let Some(stored) = self.timed(self.store.load(&home)).await? else { return Ok(None) };
        let (t, _) = read_stored(Some(stored), &self.new_tables)?;
        // a renewed token's links are dead
        let current = t.page().is_some_and(|p| same(p.token.as_bytes(), token.as_bytes()));
        Ok(current.then_some((home, t)))
    }

    /// Deal `n`'s page: only a deal on one of the table's score sheets
    /// (scored, so over), from its record.
    async fn deal_page(
        &self,
        home: &ChannelId,
        t: &Table,
        n: u32,
        link: &PageLink,
    ) -> Result<Option<Page>, ServiceError> {
        let found = t
            .history()
            .iter()
            .chain(t.session())
            .find_map(|s| s.sheet().iter().find(|r| r.record == n).map(|r| (s, r)));
        let Some((s, row)) = found else { return Ok(None) };
        let Some(text) = self.timed(self.store.record(home, n)).await? else { return Ok(None) };
        let Ok(rec) = doko_engine::Record::from_stored(&text) else { return Ok(None) };
        let game = match rec.replay() {
            Ok(g) if rec.aborted.is_none() && g.score().is_some() => g,
            _ => return Ok(None),
        };
        let seats = web::DealSeats { names: t.seat_names(s, row), on_list: Some((s.number(), row.deal)) };
        Ok(Some(Page::html(web::deal_page(t.lang(), n, &rec, &game, &seats, link), Cache::Private)))
    }

    /// The leaderboard's page: the tables `leaderboard` spans, all time
    /// and this month.
    async fn board_page(&self, home: &ChannelId, t: &Table, link: &PageLink) -> Result<Page, ServiceError> {
        let (server, tables) = self.community(home, t).await?;
        let month = crate::table::month_of(self.now_ms());
        let (all, this_month) = super::queries::merged(&tables, &month);
        let (all, this_month) = (crate::render::ranking(&all), crate::render::ranking(&this_month));
        Ok(Page::html(web::board_page(t.lang(), server, &month, &all, &this_month, link), Cache::Revalidate))
    }
}

/// Whether two tokens are the same, in a time that does not depend on
/// where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
