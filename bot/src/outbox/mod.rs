//! The seam between the bot and every platform.
//!
//! Every service call returns one platform-neutral [`Outbox`]: the table
//! message (what happened and the table, with the platform id of the
//! message to edit and the person to act), public notices, and private
//! messages, each hand as a [`HandModel`] (its cards with label and playable
//! flag, the legal choices as commands with labels). A platform implements
//! the small [`Transport`] trait (post or edit the table message, post a
//! notice, send one person their private messages); [`deliver`] carries the
//! publishing policy once for every platform: edit the table message in
//! place or post a new one and remember its id with the table, mention the
//! person to act, send hands, and tell the channel (without any secret)
//! when a person cannot be reached privately.
//!
//! Adapters see only [`App`] (what they may ask of the bot) and these
//! values: never a table, a game or a seat's view; [`deliver`] reports to
//! the bot's [`PostOffice`].

use std::borrow::Cow;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::command::Command;
use crate::ids::{ChannelId, UserId};
use crate::lang::Lang;
use crate::message::{Audience, Kind, Message};

mod app;
mod deliver;
mod table_messages;

pub use app::App;
pub use deliver::deliver;
pub use table_messages::{Claim, Delivered, POSTING_CLAIM_MS, PostOffice, TableMessages};

/// Resolves once `stop` says true: the binary's graceful stop, as the
/// front ends wait for it (never when its sender is gone without saying
/// so).
pub async fn stopped(stop: &mut tokio::sync::watch::Receiver<bool>) {
    while !*stop.borrow_and_update() {
        if stop.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// What a person typed or clicked: text for the one parser, or a command
/// already typed by the platform (slash options, buttons).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line of text (`play ♣Q`, `gesund`, ...).
    Text(String),
    /// A typed command.
    Command(Command),
    /// A click on a hand's button: the command and the hand's
    /// [`HandModel::stamp`]. A click on a hand the deal has moved past (a
    /// double click, an old message) is refused with a fresh hand instead
    /// of playing, say, the second copy of a card.
    Clicked {
        /// The command.
        command: Command,
        /// The stamp of the hand clicked.
        stamp: String,
    },
    /// A person opens a table of their own (the terminal's): computers
    /// fill the other seats and the deal starts when none is running;
    /// else the table and the person's hand.
    Open,
}

/// Everything one service call owes the platforms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outbox {
    /// The table's channel.
    pub channel: ChannelId,
    /// The channel's language (for what a transport adds itself).
    pub lang: Lang,
    /// The table message, when it changed or was asked for.
    pub table: Option<TableMessage>,
    /// Public notices (score sheet, statistics, rules), in order.
    pub notices: Vec<Notice>,
    /// Private messages, in order.
    pub private: Vec<Private>,
    /// The person who gave the command (none for the turn clock). They are
    /// answered first, even with nothing to say, so that a platform that
    /// must answer every interaction can.
    pub actor: Option<UserId>,
    /// The delivery had been handled before: nothing changed.
    pub duplicate: bool,
    /// The table could not be reached (the store is away): nothing was
    /// done, the person was told so, and the same delivery may be sent
    /// again later (it is applied at most once).
    pub unavailable: bool,
    /// The owed entries this outbox delivers (see [`crate::table::Owed`]):
    /// they were stored with the change that made them, in the same atomic
    /// commit, and [`deliver`] marks them delivered once it has sent them.
    /// A process that dies before that leaves them owed; the next turn
    /// clock of any process serving the table sends them again, each
    /// message with the same [`key`](Notice::key), which platforms that
    /// deduplicate (Matrix transaction ids, Discord nonces) use to drop a
    /// second copy.
    pub owed: Vec<u64>,
    /// The salt of the table whose entries [`owed`](Self::owed) numbers
    /// (see [`crate::table::Owed::salt`]); 0 where it is not known, and
    /// their mark is then made at once rather than with the table's next
    /// commit.
    pub owed_salt: u64,
    /// At a table shared with channels on other platforms (`link`): what
    /// each of those channels gets of this change, one outbox per channel
    /// (this one is the channel the command came from). The service hands
    /// them to the front end of their platform (see [`PostOffice::relayed`]);
    /// an adapter never sends them itself.
    pub relay: Vec<Outbox>,
}

/// The one public message of a table, edited in place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableMessage {
    /// What just happened (if anything).
    pub events: Option<String>,
    /// The table: seats, trick, announcements, who is to act.
    pub table: String,
    /// The platform's id of the table message as stored with the table
    /// (edit it); `None`: post a new one.
    pub display: Option<String>,
    /// The deal's table message this belongs to: each deal gets a new one
    /// (a message older than an hour is slow to edit on Discord, and the
    /// result reads best next to the new deal).
    pub epoch: u32,
    /// The table's revision: which of two messages is newer.
    pub revision: u64,
    /// The person to act, if a person must act.
    pub to_act: Option<UserId>,
    /// The label of the button that opens one's hand (where there are
    /// buttons).
    pub hand_label: String,
    /// The words of a mention of the person to act ("your turn").
    pub your_turn: String,
    /// The idempotency key of an owed message (see [`Outbox::owed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The commit that made it claimed the posting of the deal's message
    /// for this process: [`deliver`] posts it without asking (never
    /// stored: a message sent again asks).
    #[serde(skip)]
    pub claimed: bool,
    /// At a table shared across platforms (`link`): the key of the table
    /// shown (its home channel's); empty for a channel's own table. A
    /// channel's messages of one table are never compared with another's
    /// (a channel linked, then its own again).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub home: String,
    /// The cards on the table as a picture, at tables that show cards as
    /// pictures: the trick being played and the last one (`trick.png`; the
    /// whole deal goes with its result, see [`Notice::picture`]). Never
    /// stored: an owed message goes as text.
    #[serde(skip)]
    pub picture: Option<Picture>,
}

/// A picture of cards (a PNG drawn by [`crate::picture`]), sent with a
/// message at tables that show cards as pictures (`cards images`). The
/// message's text says the same in words, for screen readers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The file name (`hand.png`, `trick.png`, `deal.png`).
    pub name: String,
    /// The PNG.
    pub png: std::sync::Arc<[u8]>,
    /// A short description for screen readers (`alt` text).
    pub alt: String,
}

impl TableMessage {
    /// The message's text: what happened, then the table.
    pub fn text(&self) -> String {
        match &self.events {
            Some(e) => format!("{}\n{}", e.trim_end(), self.table),
            None => self.table.clone(),
        }
    }
}

/// A public message that is not the table message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    /// What it is.
    pub kind: Kind,
    /// The text.
    pub text: String,
    /// A person to mention (platforms that can ping do).
    pub mention: Option<UserId>,
    /// The idempotency key of an owed message (see [`Outbox::owed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The deal as a picture, with its result at a table that shows cards
    /// as pictures (`deal.png`; never stored).
    #[serde(skip)]
    pub picture: Option<Picture>,
}

impl Notice {
    /// A notice without a key.
    pub fn new(kind: Kind, text: String, mention: Option<UserId>) -> Notice {
        Notice { kind, text, mention, key: None, picture: None }
    }
}

/// A message for one person only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    /// Who.
    pub to: UserId,
    /// What it is.
    pub kind: Kind,
    /// The text (a hand's text too, for platforms without buttons).
    pub text: String,
    /// The hand as data, for platforms with buttons (never stored: an
    /// owed hand is made afresh from the table when it is delivered).
    #[serde(skip)]
    pub hand: Option<HandModel>,
    /// The person holds cards now: nothing addressed to them may be shown
    /// where others can read it (a refusal can name a card they hold).
    pub confidential: bool,
    /// The person asked for their hand by direct message too.
    pub dm: bool,
    /// The idempotency key of an owed message (see [`Outbox::owed`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The hand as a picture, at tables that show cards as pictures
    /// (never stored).
    #[serde(skip)]
    pub picture: Option<Picture>,
}

impl Private {
    /// A plain message for one person: not confidential, not also by
    /// direct message, no hand, no key, no picture.
    pub fn new(to: UserId, kind: Kind, text: String) -> Private {
        Private { to, kind, text, hand: None, confidential: false, dm: false, key: None, picture: None }
    }
}

/// A hand, as a platform with buttons shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandModel {
    /// The table's channel (a hand shown elsewhere, e.g. in a direct
    /// message, acts at this table).
    pub channel: ChannelId,
    /// The cards in the contract's order (a pair once).
    pub cards: Vec<CardChoice>,
    /// The bids, announcements and poverty answers legal now.
    pub choices: Vec<Choice>,
    /// Show the hand again.
    pub refresh: Choice,
    /// Where the deal stood when this hand was made (the deal and the
    /// number of moves); buttons carry it back with [`Input::Clicked`].
    pub stamp: String,
}

/// A card of a hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardChoice {
    /// Its label in the channel's language (`♣D`; the card's symbol, lent
    /// for the life of the process).
    pub label: Cow<'static, str>,
    /// Whether it may be played now.
    pub playable: bool,
    /// Playing it.
    pub command: Command,
}

/// A choice offered as a button.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The label in the channel's language (a kept word is lent, not
    /// copied).
    pub label: Cow<'static, str>,
    /// The command it gives.
    pub command: Command,
}

impl Outbox {
    /// An empty outbox for a channel.
    pub fn new(channel: ChannelId, lang: Lang) -> Outbox {
        Outbox {
            channel,
            lang,
            table: None,
            notices: Vec::new(),
            private: Vec::new(),
            actor: None,
            duplicate: false,
            unavailable: false,
            owed: Vec::new(),
            owed_salt: 0,
            relay: Vec::new(),
        }
    }

    /// Nothing to send.
    pub fn is_empty(&self) -> bool {
        self.table.is_none() && self.notices.is_empty() && self.private.is_empty()
    }

    /// The private messages for one person.
    pub fn private_for<'a>(&'a self, user: &'a UserId) -> impl Iterator<Item = &'a Private> + 'a {
        self.private.iter().filter(move |p| &p.to == user)
    }

    /// The people who get private messages, in order of their first one.
    pub fn recipients(&self) -> Vec<&UserId> {
        let mut out: Vec<&UserId> = Vec::new();
        for p in &self.private {
            if !out.contains(&&p.to) {
                out.push(&p.to);
            }
        }
        out
    }

    /// Everything as a flat list of messages (events, table, notices,
    /// private messages), for tests and logs.
    pub fn messages(&self) -> Vec<Message> {
        let mut out = Vec::new();
        if let Some(t) = &self.table {
            if let Some(e) = &t.events {
                let mut m = Message::public(Kind::Events, e.clone());
                m.mention = t.to_act.iter().cloned().collect();
                out.push(m);
            }
            let mut m = Message::public(Kind::Table, t.table.clone());
            m.mention = t.to_act.iter().cloned().collect();
            out.push(m);
        }
        for n in &self.notices {
            let mut m = Message::public(n.kind, n.text.clone());
            m.mention = n.mention.iter().cloned().collect();
            out.push(m);
        }
        for p in &self.private {
            out.push(Message {
                to: Audience::Private(p.to.clone()),
                kind: p.kind,
                text: p.text.clone(),
                mention: vec![],
            });
        }
        out
    }
}

/// Why a transport could not send.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The person cannot be reached privately (closed direct messages, no
    /// direct room).
    #[error("cannot reach {0} privately")]
    Unreachable(UserId),
    /// The message to edit is gone (deleted, too old): post a new one.
    #[error("the table message cannot be edited")]
    EditFailed,
    /// The platform failed.
    #[error("platform: {0}")]
    Platform(String),
}

/// What a platform does with an outbox: the whole of an adapter's
/// outbound side.
#[async_trait]
pub trait Transport: Send + Sync {
    /// Posts a new table message; returns the platform's id for it.
    async fn post_table(&self, ch: &ChannelId, msg: &TableMessage) -> Result<String, TransportError>;
    /// Edits the table message with this id.
    async fn edit_table(&self, ch: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError>;
    /// Posts a public notice.
    async fn notice(&self, ch: &ChannelId, notice: &Notice) -> Result<(), TransportError>;
    /// Sends one person their private messages of this outbox, in order.
    /// Called for the person who gave the command even when `msgs` is
    /// empty.
    async fn private(&self, ch: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError>;
    /// Whether to ping the person to act with a short notice.
    fn mentions(&self) -> bool {
        false
    }
    /// Where one person's private messages of this outbox go, which sets
    /// what they are sent in order with (see [`Route`]). By default with
    /// the channel's messages, one after the other, as a transport with
    /// one output has it.
    fn route(&self, to: &UserId, msgs: &[&Private]) -> Route {
        let _ = (to, msgs);
        Route::Channel
    }
}

/// Where a person's private messages go, for the order of sending: sends
/// to one place keep their order; sends to different places go out at the
/// same time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Where the channel's messages go, in order with them (the actor's
    /// before the table message, everyone else's after the notices).
    Channel,
    /// A place of the person's own (a direct room): sent beside the
    /// channel's messages and everyone else's.
    Own,
    /// Answered before anything else is sent (an interaction's own
    /// answer, due within its deadline); the rest goes out after it.
    First,
}
