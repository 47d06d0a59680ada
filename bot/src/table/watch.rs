//! Spectators (`watch`): people who follow a table without a seat. They
//! see the public table like everyone in the channel and get the deal
//! revealed when it is over, never a hand, unless a seated person lets one
//! of them look at their own hand (the Kiebitz custom): one spectator per
//! player, one player per spectator, ended when either leaves.

use serde::{Deserialize, Serialize};

use crate::ids::UserId;

/// The most spectators at one table.
pub const MAX_SPECTATORS: usize = 20;

/// A person watching the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spectator {
    user: UserId,
    name: String,
    /// The seated person who lets this spectator see their hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sees: Option<UserId>,
}

impl Spectator {
    /// A spectator who sees no hand.
    pub fn new(user: UserId, name: impl Into<String>) -> Spectator {
        Spectator { user, name: name.into(), sees: None }
    }

    /// Who watches.
    pub fn user(&self) -> &UserId {
        &self.user
    }

    /// The name shown.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The seated person whose hand this spectator may see, if any.
    pub fn sees(&self) -> Option<&UserId> {
        self.sees.as_ref()
    }

    pub(super) fn set_sees(&mut self, player: Option<UserId>) {
        self.sees = player;
    }

    /// Whether a platform id names this spectator (an adapter gives a
    /// mention as the id it names).
    pub(super) fn is_id(&self, who: &str) -> bool {
        let w = who.trim().to_lowercase();
        self.user.id.to_lowercase() == w
    }

    /// Whether a typed name is this spectator's (`name`, `@name`).
    pub(super) fn is_name(&self, who: &str) -> bool {
        let w = who.trim().to_lowercase();
        let bare = w.strip_prefix('@').unwrap_or(&w);
        let name = self.name.to_lowercase();
        name == w || name == bare
    }
}
