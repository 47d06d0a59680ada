//! What the adapters may ask of the bot ([`App`]).

use async_trait::async_trait;

use super::table_messages::PostOffice;
use super::{HandModel, Input, Outbox};
use crate::ids::{Actor, ChannelId, UserId};
use crate::lang::Lang;

/// What the adapters may ask of the bot: what a person's input needs, and
/// the tables to resume at a start. Nothing here hands out a table, a game
/// or a seat's view.
#[async_trait]
pub trait App: Send + Sync {
    /// Runs what a person typed or clicked. `delivery` is the platform's id
    /// of the message or interaction: a second delivery with the same id
    /// changes nothing. Never fails: when the bot cannot act (the store is
    /// down), the person is told so.
    async fn handle(&self, ch: &ChannelId, actor: &Actor, input: Input, delivery: Option<&str>) -> Outbox;
    /// Applies the turn clock of a channel (reminders, time-outs).
    async fn tick(&self, ch: &ChannelId) -> Outbox;
    /// A person's hand at a table, if they hold cards there.
    async fn hand(&self, ch: &ChannelId, user: &UserId) -> Option<HandModel>;
    /// Whether a person holds a seat at a channel's table, and the table's
    /// language.
    async fn seated(&self, ch: &ChannelId, user: &UserId) -> Option<Lang>;
    /// The channels of a platform whose table has a deal running (their
    /// turn clocks run; after a restart the adapter resumes them). A full
    /// scan of the store: for start-up, not for every tick.
    async fn running(&self, platform: crate::ids::Platform) -> Vec<ChannelId>;
    /// Where [`deliver`] reports what it delivered, and where the outboxes
    /// for this platform's channels made on other platforms wait.
    fn post_office(&self) -> &dyn PostOffice;
}
