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
use crate::ids::{Actor, ChannelId, UserId};
use crate::lang::Lang;
use crate::message::{Audience, Kind, Message};

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
}

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

/// Where delivery meets the bot: [`deliver`] coalesces table messages
/// here, claims the posting of a deal's message when the commit that made
/// it did not, and reports what it delivered, posted or could not deliver
/// (each carried by the table's next commit where the service defers
/// them, see `Service::defer_marks`: delivering costs no store round trip
/// of its own).
#[async_trait]
pub trait PostOffice: Send + Sync {
    /// The process's table messages in flight (see [`TableMessages`]).
    fn table_messages(&self) -> &TableMessages;
    /// Claims the posting of the table message of the deal's message
    /// `epoch` (see [`Claim`]): a claim lasts
    /// [`POSTING_CLAIM_MS`], or until the
    /// id is remembered ([`posted`](Self::posted)).
    async fn claim_display(&self, ch: &ChannelId, epoch: u32) -> Claim;
    /// Remembers the platform's id of a channel's table message for the
    /// deal's message `epoch`.
    async fn posted(&self, ch: &ChannelId, epoch: u32, id: String);
    /// Notes that a person could not be reached privately; true the first
    /// time in a deal (the channel is told once per deal, not per message).
    async fn unreachable(&self, ch: &ChannelId, user: &UserId) -> bool;
    /// Marks owed entries of a table as delivered (see [`Outbox::owed`];
    /// `salt`: [`Outbox::owed_salt`]).
    async fn delivered(&self, ch: &ChannelId, salt: u64, owed: &[u64]);
    /// The outboxes for this platform's channels that commands on other
    /// platforms make (a table shared across platforms, see
    /// [`Outbox::relay`]): a front end takes them once, at its start, and
    /// delivers each as it delivers a turn clock's. `None` where nothing
    /// is ever relayed.
    fn relayed(&self, _platform: crate::ids::Platform) -> Option<tokio::sync::mpsc::UnboundedReceiver<Outbox>> {
        None
    }
}

/// What [`deliver`] did, for logs and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delivered {
    /// A table message was posted (not edited).
    pub posted: bool,
    /// The table message was edited.
    pub edited: bool,
    /// Notices posted (mentions included).
    pub notices: usize,
    /// People who got private messages.
    pub private: usize,
    /// Sends that failed.
    pub failed: usize,
}

/// Sends an outbox through a transport, with the one policy for every
/// platform: first the answer to the person who gave the command; then the
/// table message, edited in place (a new one is posted, and its id kept
/// with the table, when there is none or the edit fails); then notices,
/// the mention of the person to act, and everyone else's private messages.
/// When a person cannot be reached privately the channel is told so,
/// without the secret. A failure of one send does not stop the others.
pub async fn deliver(app: &dyn App, transport: &dyn Transport, out: &Outbox) -> Delivered {
    let post = app.post_office();
    let ch = &out.channel;
    let mut report = Delivered::default();
    #[cfg(feature = "failpoints")]
    if out.actor.is_some() {
        crate::failpoint::hit("before-answer");
    }
    if let Some(actor) = &out.actor {
        let msgs: Vec<&Private> = out.private_for(actor).collect();
        send_private(post, transport, out, actor, &msgs, &mut report).await;
    }
    // a deal's result first, then the next deal's table message
    let (results, notices): (Vec<&Notice>, Vec<&Notice>) = out.notices.iter().partition(|n| n.kind == Kind::Result);
    for n in results {
        match transport.notice(ch, n).await {
            Ok(()) => report.notices += 1,
            Err(e) => {
                report.failed += 1;
                tracing::warn!(error = %e, channel = %ch, "posting a result failed");
            }
        }
    }
    let newest = match &out.table {
        Some(t) => post.table_messages().publish(post, transport, ch, t, &mut report).await,
        None => false,
    };
    for n in notices {
        match transport.notice(ch, n).await {
            Ok(()) => report.notices += 1,
            Err(e) => {
                report.failed += 1;
                tracing::warn!(error = %e, channel = %ch, "posting a notice failed");
            }
        }
    }
    if transport.mentions()
        && newest
        && let Some(t) = &out.table
        && let Some(u) = &t.to_act
        && !out.notices.iter().any(|n| n.mention.as_ref() == Some(u))
    {
        let mut n = Notice::new(Kind::Events, t.your_turn.clone(), Some(u.clone()));
        n.key = t.key.as_ref().map(|k| format!("{k}m"));
        match transport.notice(ch, &n).await {
            Ok(()) => report.notices += 1,
            Err(e) => {
                report.failed += 1;
                tracing::warn!(error = %e, channel = %ch, "posting the mention failed");
            }
        }
    }
    for to in out.recipients() {
        if out.actor.as_ref() == Some(to) {
            continue;
        }
        let msgs: Vec<&Private> = out.private_for(to).collect();
        send_private(post, transport, out, to, &msgs, &mut report).await;
    }
    // sent (or refused by the platform, logged above, and not tried again:
    // a message the platform keeps refusing must not hold up the table)
    if !out.owed.is_empty() {
        #[cfg(feature = "failpoints")]
        crate::failpoint::hit("after-deliver");
        post.delivered(ch, out.owed_salt, &out.owed).await;
    }
    report
}

async fn send_private(
    post: &dyn PostOffice,
    transport: &dyn Transport,
    out: &Outbox,
    to: &UserId,
    msgs: &[&Private],
    report: &mut Delivered,
) {
    let ch = &out.channel;
    match transport.private(ch, to, msgs).await {
        Ok(()) => report.private += 1,
        Err(TransportError::Unreachable(u)) => {
            report.failed += 1;
            tracing::info!(channel = %ch, "a person cannot be reached privately");
            // once per deal: the table remembers whom it told
            if post.unreachable(ch, &u).await {
                let n = Notice::new(Kind::Error, crate::tr!(out.lang, "unreachable"), Some(u));
                if let Err(e) = transport.notice(ch, &n).await {
                    tracing::warn!(error = %e, channel = %ch, "posting a notice failed");
                }
            }
        }
        Err(e) => {
            report.failed += 1;
            tracing::warn!(error = %e, channel = %ch, "sending a private message failed");
        }
    }
}

/// The table messages this process is publishing, per channel: one post or
/// edit at a time per table, so concurrent commands never post a second
/// table message for a deal, and changes that arrive while one is being
/// sent coalesce into one edit (what happened is kept, in order; the table
/// shown is the newest).
#[derive(Default)]
pub struct TableMessages {
    slots: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Slot>>>,
}

#[derive(Default)]
struct Slot {
    state: std::sync::Mutex<SlotState>,
    /// Held while a post or edit is under way.
    sending: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct SlotState {
    /// Waiting to be sent, by revision and arrival (a table shown again
    /// has the revision of the change before it).
    pending: std::collections::BTreeMap<(u64, u64), TableMessage>,
    /// Arrivals so far.
    arrived: u64,
    /// The newest revision sent.
    sent: u64,
    /// The newest table message sent.
    shown: Option<TableMessage>,
    /// The message of a deal (epoch, platform id) this process knows.
    known: Option<(u32, String)>,
}

/// At most this many lines of what happened in one coalesced edit.
const EVENT_LINES: usize = 24;

impl TableMessages {
    fn slot(&self, ch: &ChannelId, home: &str) -> std::sync::Arc<Slot> {
        let mut slots = self.slots.lock().expect("table messages lock");
        if slots.len() > 10_000 {
            // forget idle tables (their ids are stored with the table)
            slots.retain(|_, s| std::sync::Arc::strong_count(s) > 1);
        }
        let key = if home.is_empty() { ch.key() } else { format!("{}|{home}", ch.key()) };
        slots.entry(key).or_default().clone()
    }

    /// Posts or edits the table message for `t`, together with what else is
    /// waiting for this table. False when a newer table had been shown (the
    /// person `t` names to act may not be the one any more).
    async fn publish(
        &self,
        post: &dyn PostOffice,
        transport: &dyn Transport,
        ch: &ChannelId,
        t: &TableMessage,
        report: &mut Delivered,
    ) -> bool {
        let slot = self.slot(ch, &t.home);
        {
            let mut st = slot.state.lock().expect("slot lock");
            if t.revision < st.sent && t.events.is_none() {
                // a newer table is already shown, and this one adds nothing
                return false;
            }
            st.arrived += 1;
            let key = (t.revision, st.arrived);
            st.pending.insert(key, t.clone());
        }
        let newest = {
            let _sending = slot.sending.lock().await;
            let batch = {
                let mut st = slot.state.lock().expect("slot lock");
                let pending = std::mem::take(&mut st.pending);
                let mut batch = merge(pending.into_values());
                // what happened late is told with the newest table
                if let Some(shown) = &st.shown {
                    for m in batch.iter_mut().filter(|m| m.epoch == shown.epoch && m.revision < shown.revision) {
                        *m = TableMessage { events: m.events.take(), ..shown.clone() };
                    }
                }
                if let Some(last) = batch.last()
                    && st.shown.as_ref().is_none_or(|s| last.revision >= s.revision)
                {
                    st.sent = last.revision;
                    st.shown = Some(last.clone());
                }
                batch
            };
            self.send(post, transport, ch, &slot, batch, report).await;
            slot.state.lock().expect("slot lock").sent
        };
        t.revision >= newest
    }

    async fn send(
        &self,
        post: &dyn PostOffice,
        transport: &dyn Transport,
        ch: &ChannelId,
        slot: &Slot,
        batch: Vec<TableMessage>,
        report: &mut Delivered,
    ) {
        for m in batch {
            let known = slot.state.lock().expect("slot lock").known.clone();
            let mut id = match known {
                Some((epoch, id)) if epoch == m.epoch => Some(id),
                _ => m.display.clone(),
            };
            if id.is_none() && !m.claimed {
                // several processes may serve the table: one posts the
                // deal's message, the others wait for its id and edit it
                // (the commit that made it claimed it for this process, or
                // it is claimed now)
                match claim(post, ch, m.epoch).await {
                    Claim::Mine => {}
                    Claim::Posted(posted) => id = Some(posted),
                    Claim::Stale => continue,
                    Claim::Busy => unreachable!("claim waits out a busy claim"),
                }
            }
            let edited = match &id {
                Some(id) => match transport.edit_table(ch, id, &m).await {
                    Ok(()) => true,
                    Err(e) => {
                        tracing::info!(error = %e, channel = %ch, "editing the table message failed; posting a new one");
                        false
                    }
                },
                None => false,
            };
            if edited {
                report.edited = true;
                continue;
            }
            match transport.post_table(ch, &m).await {
                Ok(id) => {
                    report.posted = true;
                    slot.state.lock().expect("slot lock").known = Some((m.epoch, id.clone()));
                    post.posted(ch, m.epoch, id).await;
                }
                Err(e) => {
                    report.failed += 1;
                    tracing::warn!(error = %e, channel = %ch, "posting the table message failed");
                }
            }
        }
    }
}

/// How long a process's claim to post a deal's table message holds (ms):
/// other processes wait that long for the id it posts (which rides on the
/// table's next commit, or is written within two seconds, see
/// `Service::defer_marks`), then post themselves.
pub const POSTING_CLAIM_MS: u64 = 5_000;

/// Who posts a deal's table message when several processes serve a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This process posts it.
    Mine,
    /// It is posted: this id.
    Posted(String),
    /// Another process is posting it right now.
    Busy,
    /// The table has moved on to another deal's message.
    Stale,
}

/// Claims the posting of a deal's table message, waiting (as long as a
/// claim holds) for another process that is posting it.
async fn claim(post: &dyn PostOffice, ch: &ChannelId, epoch: u32) -> Claim {
    const PAUSE_MS: u64 = 100;
    for _ in 0..POSTING_CLAIM_MS / PAUSE_MS {
        match post.claim_display(ch, epoch).await {
            Claim::Busy => tokio::time::sleep(std::time::Duration::from_millis(PAUSE_MS)).await,
            other => return other,
        }
    }
    Claim::Mine
}

/// One message per deal: the newest table of each, with what happened in
/// between, in order.
fn merge(msgs: impl Iterator<Item = TableMessage>) -> Vec<TableMessage> {
    let mut out: Vec<TableMessage> = Vec::new();
    for m in msgs {
        match out.last_mut() {
            Some(last) if last.epoch == m.epoch => {
                let events = match (last.events.take(), m.events.clone()) {
                    (Some(a), Some(b)) => Some(format!("{}\n{}", a.trim_end(), b)),
                    (a, b) => a.or(b),
                };
                let claimed = last.claimed || m.claimed;
                *last = TableMessage { events: events.map(|e| last_lines(&e)), claimed, ..m };
            }
            _ => out.push(m),
        }
    }
    out
}

fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(EVENT_LINES)..].join("\n")
}
