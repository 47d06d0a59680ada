//! The table's web pages as the table keeps them: its page link, taken
//! from the service's offer, and who sat where in a deal on its sheet.

use doko_engine::SheetRow;

use super::page::PageLink;
use super::{Table, TableSession};

impl Table {
    /// The table's pages, while the host serves them (a token kept while
    /// a process without pages served the table shows none).
    pub fn page(&self) -> Option<&PageLink> {
        self.page.as_ref().filter(|p| !p.base.is_empty() && !p.token.is_empty())
    }

    /// Takes `offered` as the table's pages: a table without a token takes
    /// it whole, one with a token keeps its token under the offered
    /// address (`renew`: the offered token too); an offer without a token
    /// (the random source failed) gives none. `None` (this process serves
    /// no pages) keeps the token without an address, so that a process
    /// without pages (a rolling update) kills no link: the next offer
    /// shows them again. Whether the table changed.
    pub fn offer_page(&mut self, offered: Option<&PageLink>, renew: bool) -> bool {
        let next = match (offered, &self.page) {
            (None, None) => None,
            (None, Some(p)) => Some(PageLink { base: String::new(), token: p.token.clone() }),
            (Some(o), Some(p)) if !renew || o.token.is_empty() => {
                Some(PageLink { base: o.base.clone(), token: p.token.clone() })
            }
            (Some(o), None) if o.token.is_empty() => None,
            (Some(o), _) => Some(o.clone()),
        };
        if next == self.page {
            return false;
        }
        self.page = next;
        true
    }
}

impl Table {
    /// The names in seats 1 to 4 of a deal on list `s`: as its row keeps
    /// them, else as the table remembers who sat where in its newest
    /// deals, else `Seat N`.
    pub fn seat_names(&self, s: &TableSession, row: &SheetRow) -> [String; 4] {
        let names = s.names();
        if let Some(seats) = row.seats {
            return seats.map(|p| names.get(p).cloned().unwrap_or_default());
        }
        let played = self.played.iter().find(|p| p.record == row.record);
        std::array::from_fn(|i| {
            played
                .and_then(|p| s.players().position(|k| *k == p.seats[i]))
                .and_then(|p| names.get(p).cloned())
                .unwrap_or_else(|| crate::tr!(self.lang(), "web-seat", n = i + 1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
    use crate::table::is_token;

    fn link(base: &str, token: &str) -> PageLink {
        PageLink { base: base.into(), token: token.into() }
    }

    #[test]
    fn a_token_is_kept_until_renewed_and_forgotten_when_pages_are_off() {
        let mut t = Table::with_lang(Lang::En);
        let a = link("https://x.example", &"a".repeat(32));
        let b = link("https://y.example", &"b".repeat(32));
        assert!(t.offer_page(Some(&a), false));
        assert!(!t.offer_page(Some(&a), false));
        // another address: the same token under it
        assert!(t.offer_page(Some(&b), false));
        assert_eq!(t.page(), Some(&link("https://y.example", &"a".repeat(32))));
        assert!(t.offer_page(Some(&b), true));
        assert_eq!(t.page(), Some(&b));
        // a process without pages: the token kept, no address shown
        assert!(t.offer_page(None, false));
        assert_eq!(t.page(), None);
        assert!(!t.offer_page(None, false));
        assert!(t.offer_page(Some(&a), false));
        assert_eq!(t.page(), Some(&link("https://x.example", &"b".repeat(32))));
        // an offer without a token (the random source failed) makes none
        let mut fresh = Table::with_lang(Lang::En);
        assert!(!fresh.offer_page(Some(&link("https://x.example", "")), false));
        assert_eq!(fresh.page(), None);
        assert_eq!(b.deal_url(7), format!("https://y.example/t/{}/deal/7", "b".repeat(32)));
    }

    #[test]
    fn only_32_hex_digits_are_tokens() {
        assert!(is_token(&"0123456789abcdef".repeat(2)));
        assert!(!is_token(&"0123456789ABCDEF".repeat(2)));
        assert!(!is_token("abc"));
        assert!(!is_token(&format!("{}/", "a".repeat(31))));
    }
}
