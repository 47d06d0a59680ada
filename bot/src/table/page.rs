//! The table's web pages (`web`): where the host serves them and the
//! table's token, which makes their addresses unguessable. A new token
//! (`web renew`) leaves every address made with the old one dead.

use serde::{Deserialize, Serialize};

use super::{Table, TableSession};
use doko_engine::SheetRow;

/// The address of a table's pages: the host's public address and the
/// table's token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageLink {
    /// The host's public address (`web.url`), without a trailing slash.
    pub base: String,
    /// The table's token: 32 hex digits from the system's random source.
    pub token: String,
}

impl PageLink {
    /// The table's page: the list being played.
    pub fn table_url(&self) -> String {
        format!("{}/t/{}", self.base, self.token)
    }

    /// List `n`'s page.
    pub fn list_url(&self, n: u32) -> String {
        format!("{}/t/{}/list/{n}", self.base, self.token)
    }

    /// The page of the deal recorded as `record`.
    pub fn deal_url(&self, record: u32) -> String {
        format!("{}/t/{}/deal/{record}", self.base, self.token)
    }
}

/// Whether a text has the shape of a page token (32 lowercase hex
/// digits): anything else is not looked up.
pub fn is_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Table {
    /// The table's pages, while the host serves them.
    pub fn page(&self) -> Option<&PageLink> {
        self.page.as_ref()
    }

    /// Takes `offered` as the table's pages: a table without a token takes
    /// it whole, one with a token keeps its token under the offered
    /// address (`renew`: the offered token too); `None` (the host serves
    /// no pages) forgets them. Whether the table changed.
    pub fn offer_page(&mut self, offered: Option<&PageLink>, renew: bool) -> bool {
        let next = match (offered, &self.page) {
            (None, _) => None,
            (Some(o), Some(p)) if !renew => Some(PageLink { base: o.base.clone(), token: p.token.clone() }),
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
        assert!(t.offer_page(None, false));
        assert_eq!(t.page(), None);
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
