//! The table's web pages (`web`): where the host serves them and the
//! table's token, which makes their addresses unguessable. A new token
//! (`web renew`) leaves every address made with the old one dead.

use serde::{Deserialize, Serialize};

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
