//! Typed identifiers: a channel id can never be passed as a user id, and
//! ids from different platforms never collide.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The platform a channel or user lives on: a short name (`discord`,
/// `matrix`, `terminal`) that begins every stored key. The bot knows no
/// list of platforms: an adapter names its own ([`Platform::new`]), and a
/// stored key of any platform reads back ([`Platform::named`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Platform(&'static str);

/// The platforms' names read back or given a dialect beyond the three
/// built in (see [`Platform::named`]).
static OTHERS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

impl Platform {
    /// Discord (guild channel or DM).
    pub const DISCORD: Platform = Platform("discord");
    /// Matrix (room).
    pub const MATRIX: Platform = Platform("matrix");
    /// The local terminal.
    pub const TERMINAL: Platform = Platform("terminal");

    /// A platform of this name: 1 to 16 of `a-z`, `0-9` and `-` (the
    /// name is checked where it is read back, see [`named`](Self::named)).
    pub const fn new(name: &'static str) -> Platform {
        Platform(name)
    }

    /// The platform a stored name names, if it is a platform's name at all
    /// (a name seen for the first time is kept for the life of the
    /// process; there are as many as platforms).
    pub fn named(name: &str) -> Option<Platform> {
        if let Some(p) = [Platform::DISCORD, Platform::MATRIX, Platform::TERMINAL].into_iter().find(|p| p.0 == name) {
            return Some(p);
        }
        let fits = (1..=16).contains(&name.len())
            && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !fits {
            return None;
        }
        let mut others = OTHERS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kept) = others.iter().find(|n| **n == name) {
            return Some(Platform(kept));
        }
        let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
        others.push(kept);
        Some(Platform(kept))
    }

    /// The platforms named so far in this process: the three above and
    /// every other read back or given a dialect.
    pub fn known() -> Vec<Platform> {
        let others = OTHERS.lock().unwrap_or_else(|e| e.into_inner());
        [Platform::DISCORD, Platform::MATRIX, Platform::TERMINAL]
            .into_iter()
            .chain(others.iter().map(|n| Platform(n)))
            .collect()
    }

    /// The platform and the platform's own id of a key `platform:id`.
    fn split_key(key: &str) -> Option<(Platform, &str)> {
        let (platform, id) = key.split_once(':')?;
        Some((Platform::named(platform)?, id))
    }

    /// The short name used in keys.
    pub const fn name(self) -> &'static str {
        self.0
    }
}

impl fmt::Debug for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Platform {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for Platform {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Platform, D::Error> {
        let name = std::borrow::Cow::<str>::deserialize(d)?;
        Platform::named(&name).ok_or_else(|| serde::de::Error::custom(format!("not a platform's name: {name:?}")))
    }
}

/// A channel (Discord channel, Matrix room, the terminal): one table each.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChannelId {
    /// The platform.
    pub platform: Platform,
    /// The platform's own id.
    pub id: String,
}

impl ChannelId {
    /// A channel id.
    pub fn new(platform: Platform, id: impl Into<String>) -> ChannelId {
        ChannelId { platform, id: id.into() }
    }

    /// The storage key, `platform:id`.
    pub fn key(&self) -> String {
        key_string(self.platform, &self.id)
    }

    /// Adds the storage key (see [`key`](Self::key)) to `out`.
    pub fn push_key(&self, out: &mut String) {
        push_key(out, self.platform, &self.id);
    }

    /// The channel of a storage key (see [`key`](Self::key)).
    pub fn from_key(key: &str) -> Option<ChannelId> {
        let (platform, id) = Platform::split_key(key)?;
        Some(ChannelId::new(platform, id))
    }
}

impl fmt::Display for ChannelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_key(f, self.platform, &self.id)
    }
}

/// A storage key, `platform:id` (built by hand: keys are built at every
/// command, and `to_string`'s formatting machinery cost several times
/// the copying).
fn key_string(platform: Platform, id: &str) -> String {
    let mut out = String::with_capacity(platform.name().len() + 1 + id.len());
    push_key(&mut out, platform, id);
    out
}

/// Adds a storage key, `platform:id`, to `out`.
fn push_key(out: &mut String, platform: Platform, id: &str) {
    out.push_str(platform.name());
    out.push(':');
    out.push_str(id);
}

/// Writes a storage key, `platform:id`, without building it first.
fn write_key(f: &mut fmt::Formatter<'_>, platform: Platform, id: &str) -> fmt::Result {
    f.write_str(platform.name())?;
    f.write_str(":")?;
    f.write_str(id)
}

/// A user on a platform. Stored as its key, `platform:id` (format 2);
/// the object `{"platform", "id"}` format 1 wrote is read as well.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId {
    /// The platform.
    pub platform: Platform,
    /// The platform's own id.
    pub id: String,
}

impl UserId {
    /// A user id.
    pub fn new(platform: Platform, id: impl Into<String>) -> UserId {
        UserId { platform, id: id.into() }
    }

    /// The storage key, `platform:id`.
    pub fn key(&self) -> String {
        key_string(self.platform, &self.id)
    }

    /// The user of a storage key (see [`key`](Self::key)).
    pub fn from_key(key: &str) -> Option<UserId> {
        let (platform, id) = Platform::split_key(key)?;
        Some(UserId::new(platform, id))
    }
}

/// The forms a user id is stored in.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredUser {
    Key(String),
    Named { platform: Platform, id: String },
}

impl Serialize for UserId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // the key built on the stack (a table's commit writes every
        // seat's id: no string allocated for each, and no formatting
        // machinery); a key too long for the buffer as a string
        let (platform, id) = (self.platform.name().as_bytes(), self.id.as_bytes());
        let n = platform.len() + 1 + id.len();
        let mut buf = [0u8; 64];
        match buf.get_mut(..n) {
            Some(key) => {
                key[..platform.len()].copy_from_slice(platform);
                key[platform.len()] = b':';
                key[platform.len() + 1..].copy_from_slice(id);
                s.serialize_str(std::str::from_utf8(key).map_err(serde::ser::Error::custom)?)
            }
            None => s.serialize_str(&self.key()),
        }
    }
}

impl<'de> Deserialize<'de> for UserId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match StoredUser::deserialize(d)? {
            StoredUser::Named { platform, id } => Ok(UserId { platform, id }),
            StoredUser::Key(k) => {
                UserId::from_key(&k).ok_or_else(|| serde::de::Error::custom(format!("not a user id: {k:?}")))
            }
        }
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_key(f, self.platform, &self.id)
    }
}

/// A community a channel belongs to: a Discord server (guild) or a Matrix
/// space. Its admins set defaults for all its channels, and its
/// leaderboards span them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ServerId {
    /// The platform.
    pub platform: Platform,
    /// The platform's own id (a guild id, a space's room id).
    pub id: String,
}

impl ServerId {
    /// A server id.
    pub fn new(platform: Platform, id: impl Into<String>) -> ServerId {
        ServerId { platform, id: id.into() }
    }

    /// Where the server's settings are stored: a key beside the channels'
    /// that no channel can have (`discord:server:ID`).
    pub fn channel(&self) -> ChannelId {
        ChannelId::new(self.platform, format!("{SERVER_PREFIX}{}", self.id))
    }
}

impl fmt::Display for ServerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.platform.name(), self.id)
    }
}

/// What starts the stored id of a server's settings (see
/// [`ServerId::channel`]): no platform's channel id starts so.
pub const SERVER_PREFIX: &str = "server:";

/// What starts the stored id of a link code (see
/// [`ChannelId::link_code`]): no platform's channel id starts so.
pub const LINK_PREFIX: &str = "link:";

/// What starts the stored id of a web page token (see
/// [`ChannelId::web_page`]): no platform's channel id starts so.
pub const PAGE_PREFIX: &str = "page:";

/// The key space of the web pages' tokens (`web:page:TOKEN`).
const WEB: Platform = Platform::new("web");

impl ChannelId {
    /// Whether this key holds a server's settings, not a table.
    pub fn is_server(&self) -> bool {
        self.id.starts_with(SERVER_PREFIX)
    }

    /// Where a link code made at a table of `platform` is stored (the
    /// table's channel, for the other channel's `link CODE`): a key beside
    /// the channels' that no channel can have (`discord:link:CODE`).
    pub fn link_code(platform: Platform, code: &str) -> ChannelId {
        ChannelId::new(platform, format!("{LINK_PREFIX}{code}"))
    }

    /// Where a table's web page token is stored (the table's channel, for
    /// the pages' look-up): a key beside the channels' that no channel
    /// can have (`web:page:TOKEN`).
    pub fn web_page(token: &str) -> ChannelId {
        ChannelId::new(WEB, format!("{PAGE_PREFIX}{token}"))
    }

    /// Whether this key holds a table (not a server's settings, not a link
    /// code, not a page token).
    pub fn is_table(&self) -> bool {
        !self.is_server() && !self.id.starts_with(LINK_PREFIX) && !self.id.starts_with(PAGE_PREFIX)
    }
}

/// Who sends a command: the user, the name to show, whether the adapter
/// says they are an admin of the channel, and whether the command came
/// from a direct message (see [`crate::authority`]); where the channel
/// belongs to a server (a Discord guild, a Matrix space), which one and
/// whether they are one of its admins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// The user.
    pub user: UserId,
    /// Display name.
    pub name: String,
    /// An admin of the channel: may change its rules and language and
    /// moderate its table.
    pub admin: bool,
    /// The command came from a direct message, routed to the table where
    /// the person sits (not typed in the table's channel).
    pub direct: bool,
    /// The server (guild, space) the channel belongs to, as the platform
    /// says; `None` for a channel of no server and for direct messages.
    pub server: Option<ServerId>,
    /// An admin of that server: may set its defaults.
    pub server_admin: bool,
    /// The platform said which server the channel belongs to (`server`),
    /// or that it belongs to none (`server` is `None`); false where it
    /// cannot tell (a direct message).
    pub server_checked: bool,
}

/// The longest display name kept, in characters.
pub const MAX_NAME_CHARS: usize = 64;

impl Actor {
    /// An actor in the table's channel.
    /// The name is cut to [`MAX_NAME_CHARS`] characters (it is shown at
    /// the table and kept with it).
    pub fn new(user: UserId, name: impl Into<String>, admin: bool) -> Actor {
        let mut name = name.into();
        if let Some((cut, _)) = name.char_indices().nth(MAX_NAME_CHARS) {
            name.truncate(cut);
        }
        Actor { user, name, admin, direct: false, server: None, server_admin: false, server_checked: false }
    }

    /// The same actor in a channel of `server`, an admin of it or not.
    pub fn in_server(mut self, server: ServerId, admin: bool) -> Actor {
        self.server = Some(server);
        self.server_admin = admin;
        self.server_checked = true;
        self
    }

    /// The same actor in a channel the platform says belongs to no server
    /// (a Matrix room in no space).
    pub fn in_no_server(mut self) -> Actor {
        self.server = None;
        self.server_admin = false;
        self.server_checked = true;
        self
    }

    /// The same actor writing from a direct message.
    pub fn from_direct(mut self) -> Actor {
        self.direct = true;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A user id is written as its key, short (built on the stack) or
    /// long (a Matrix id may be far longer than a Discord snowflake), and
    /// read back as the same user; a name with quotes and backslashes is
    /// escaped as JSON escapes it.
    #[test]
    fn a_user_id_is_written_as_its_key() {
        let long = format!("@{}:example.org", "a".repeat(200));
        for user in [
            UserId::new(Platform::DISCORD, "1234567890123456789"),
            UserId::new(Platform::MATRIX, "@anna:example.org"),
            UserId::new(Platform::MATRIX, long.as_str()),
            UserId::new(Platform::TERMINAL, "Anna \"Ä\" \\ 1"),
            UserId::new(Platform::TERMINAL, ""),
        ] {
            let json = serde_json::to_string(&user).expect("written");
            assert_eq!(json, serde_json::to_string(&user.key()).expect("a string"), "{user:?}");
            assert_eq!(user.key(), user.to_string());
            let back: UserId = serde_json::from_str(&json).expect("read");
            assert_eq!(back, user);
        }
    }
}
