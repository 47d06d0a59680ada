//! A server's settings (a Discord server, a Matrix space): the defaults
//! its admins set for every channel, and the channels that belong to it
//! (so a change reaches each, and a leaderboard spans them). Stored beside
//! the tables, under the server's own key ([`ServerId::channel`]), with the
//! same compare-and-set.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::ids::{ChannelId, ServerId};
use crate::table::{Layer, ServerLayer};

/// What is stored for a server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSettings {
    /// Marks the stored text as a server's (never a table's).
    #[serde(default)]
    pub server: String,
    /// The defaults its admins set.
    #[serde(default)]
    pub layer: Layer,
    /// Its channels' keys (`discord:123`) where the bot has a table.
    #[serde(default)]
    pub channels: BTreeSet<String>,
    /// Counts the changes (the version a table's copy carries: kept in
    /// the settings, so it survives an export and import).
    #[serde(default)]
    pub revision: u64,
}

impl ServerSettings {
    /// The settings of a server with no defaults and no channels yet.
    pub fn new(id: &ServerId) -> ServerSettings {
        ServerSettings { server: id.to_string(), ..ServerSettings::default() }
    }

    /// The layer a table of this server holds, at the settings' revision.
    pub fn layer_for(&self, id: &ServerId) -> ServerLayer {
        ServerLayer { id: id.to_string(), layer: self.layer.clone(), version: self.revision }
    }

    /// The channels, as ids.
    pub fn channel_ids(&self) -> Vec<ChannelId> {
        self.channels.iter().filter_map(|k| ChannelId::from_key(k)).collect()
    }
}

impl ServerId {
    /// The server of a stored key (`discord:123`, as [`ServerLayer::id`]
    /// holds it).
    pub fn from_key(key: &str) -> Option<ServerId> {
        let c = ChannelId::from_key(key)?;
        Some(ServerId::new(c.platform, c.id))
    }
}

/// A channel as the people of another platform read it (`the Discord
/// channel 123`).
pub fn foreign_label(l: crate::lang::Lang, ch: &ChannelId) -> String {
    crate::tr!(l, "link-channel", platform = ch.platform.name(), id = ch.id.as_str())
}
