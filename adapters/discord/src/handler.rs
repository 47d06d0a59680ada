//! The outbound side: Discord as a [`Transport`], through serenity's HTTP
//! client. The bot's [`deliver`] decides what goes where; here is only how:
//!
//! - The person who gave the command gets their private messages in the
//!   ephemeral response to their interaction (flag 64); a click on a hand
//!   button updates that same message. Hands also go by direct message to
//!   those who asked for it (`dm on`).
//! - The table message is a channel message with a "my hand" button,
//!   edited in place; notices are new messages; mentions ping only the
//!   person named (`allowed_mentions`).

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use doko_bot::{
    App, ChannelId, Input, Kind, Notice, Private, Route, TableMessage, Transport, TransportError, UserId, deliver,
};
use serenity::all::{
    ChannelId as DiscordChannelId, CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse,
    CreateInteractionResponse, CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse, EditMessage,
    Http, Interaction, MessageId,
};
use tokio::sync::Mutex;
use tracing::{Instrument, info_span};

use crate::{Inbound, hand_components, my_hand_button, play_choices, translate};

/// A failure answering Discord.
#[derive(Debug, thiserror::Error)]
pub enum AdapterError {
    /// Discord (or serenity) failed.
    #[error("discord: {0}")]
    Discord(#[from] serenity::Error),
}

/// The Discord adapter around the bot.
pub struct Adapter {
    /// The bot.
    pub app: Arc<dyn App>,
    /// Discord's HTTP API.
    pub http: Arc<Http>,
    /// Mention the person to act in a short message (configurable).
    pub mention: bool,
    /// When a command has not finished by then, the interaction is
    /// acknowledged first (deferred) and answered by an edit; Discord
    /// wants an answer within 3 seconds.
    pub defer_after: std::time::Duration,
    /// Tables this adapter has served (for the turn timer).
    active: Mutex<HashMap<String, ChannelId>>,
    /// The shards of this process (all when `None`).
    shards: Option<crate::shards::Shards>,
    /// The tables running when the process started (read once, on the
    /// first guild the gateway hands over).
    running: tokio::sync::OnceCell<Vec<ChannelId>>,
}

const LIMIT: usize = 1900;

/// A long text as messages of at most [`LIMIT`] characters, cut between
/// lines (a deal's result with every trick and long names is longer than
/// one Discord message); a single line too long for a message is clipped.
fn pieces(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let line = clip(line);
        if !cur.is_empty() && cur.chars().count() + 1 + line.chars().count() > LIMIT {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push('\n');
        }
        cur.push_str(&line);
    }
    if !cur.is_empty() || out.is_empty() {
        out.push(cur);
    }
    out
}

/// The nonce of piece `i` of an owed message with key `key`: a 64-bit
/// FNV-1a hash of both in hex, with a `p` and the piece's number (at most
/// 20 characters).
fn piece_key(key: &str, i: usize) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes().chain((i as u64).to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("p{i}{h:016x}")
}

fn clip(text: &str) -> String {
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}\n…")
    }
}

/// Runs a request to Discord, waiting out a 429 (rate limited) and trying
/// again, a few times with a growing pause: behind a REST proxy serenity's
/// own rate limiter is off, and a limit is never an error for players.
async fn patient<T, F, Fut>(what: &'static str, mut request: F) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, serenity::Error>>,
{
    let mut pause = std::time::Duration::from_millis(250);
    for _ in 0..6 {
        match request().await {
            Err(serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r)))
                if r.status_code.as_u16() == 429 =>
            {
                tracing::info!(what, pause_ms = pause.as_millis() as u64, "rate limited by Discord; waiting");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(std::time::Duration::from_secs(8));
            }
            other => return other,
        }
    }
    request().await
}

/// A message created with the key of an owed message as its nonce, which
/// Discord enforces (`enforce_nonce`): a re-send after a crash returns the
/// message created the first time instead of a second copy.
fn keyed(msg: CreateMessage, key: Option<&String>) -> CreateMessage {
    match key {
        Some(k) => msg.nonce(serenity::all::Nonce::String(k.clone())).enforce_nonce(true),
        None => msg,
    }
}

fn platform(e: serenity::Error) -> TransportError {
    TransportError::Platform(e.to_string())
}

/// A Discord channel (or user) id of the bot's ids.
fn snowflake(id: &str) -> Option<u64> {
    id.parse::<u64>().ok().filter(|v| *v != 0)
}

/// Discord's channel of a table.
fn discord_channel(ch: &ChannelId) -> Result<DiscordChannelId, TransportError> {
    snowflake(&ch.id).map(DiscordChannelId::new).ok_or_else(|| TransportError::Platform(format!("not a channel: {ch}")))
}

/// Messages that ping nobody, or only this person.
fn mentions(user: Option<&UserId>) -> CreateAllowedMentions {
    let users: Vec<serenity::all::UserId> =
        user.and_then(|u| snowflake(&u.id)).map(serenity::all::UserId::new).into_iter().collect();
    CreateAllowedMentions::new().users(users)
}

/// Where an interaction's first answer goes.
pub enum Responder {
    /// Discord's callback endpoint (interactions from the gateway).
    Rest,
    /// The HTTP response to Discord's request (the interactions endpoint):
    /// the first answer is sent here, everything later through the REST API.
    Body(std::sync::Mutex<Option<tokio::sync::oneshot::Sender<CreateInteractionResponse>>>),
}

impl Responder {
    /// An answer for the HTTP response, and where it arrives.
    pub fn body() -> (Responder, tokio::sync::oneshot::Receiver<CreateInteractionResponse>) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        (Responder::Body(std::sync::Mutex::new(Some(tx))), rx)
    }

    async fn respond(&self, i: &Interaction, http: &Http, r: CreateInteractionResponse) -> Result<(), serenity::Error> {
        match self {
            Responder::Rest => respond(i, http, r).await,
            Responder::Body(tx) => {
                let tx = tx.lock().expect("responder lock").take();
                match tx {
                    Some(tx) => tx.send(r).map_err(|_| serenity::Error::Other("the HTTP request was gone")),
                    None => Err(serenity::Error::Other("the interaction was answered already")),
                }
            }
        }
    }

    fn is_body(&self) -> bool {
        matches!(self, Responder::Body(_))
    }
}

/// A card picture as a Discord attachment, its text as the attachment's
/// description (what screen readers say).
fn attachment(p: &doko_bot::Picture) -> CreateAttachment {
    CreateAttachment::bytes(p.png.to_vec(), p.name.clone()).description(p.alt.clone())
}

/// Discord without an interaction to answer: the channel, direct messages.
struct Channel<'a> {
    http: &'a Http,
    mention: bool,
}

impl Channel<'_> {
    /// Hands by direct message for a person who asked for it.
    async fn direct(&self, ch: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        let Some(hand) = msgs.iter().rev().find(|m| m.kind == Kind::Hand && m.dm) else { return Ok(()) };
        let Some(uid) = snowflake(&to.id) else { return Ok(()) };
        let mut msg = keyed(
            CreateMessage::new()
                .content(clip(&format!("<#{}>\n{}", ch.id, hand.text)))
                .allowed_mentions(mentions(None)),
            hand.key.as_ref(),
        );
        if let Some(h) = &hand.hand {
            msg = msg.components(hand_components(h));
        }
        if let Some(p) = &hand.picture {
            msg = msg.add_file(attachment(p));
        }
        let user = serenity::all::UserId::new(uid);
        let sent = match patient("dm channel", || user.create_dm_channel(self.http)).await {
            Ok(dm) => patient("dm", || dm.id.send_message(self.http, msg.clone())).await.map(|_| ()),
            Err(e) => Err(e),
        };
        sent.map_err(|e| {
            tracing::info!(error = %e, "a direct message was refused");
            TransportError::Unreachable(to.clone())
        })
    }
}

#[async_trait]
impl Transport for Channel<'_> {
    async fn post_table(&self, ch: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        let channel = discord_channel(ch)?;
        let mut create = keyed(
            CreateMessage::new()
                .content(clip(&msg.text()))
                .components(vec![my_hand_button(&msg.hand_label)])
                .allowed_mentions(mentions(None)),
            msg.key.as_ref(),
        );
        if let Some(p) = &msg.picture {
            create = create.add_file(attachment(p));
        }
        let m = patient("table message", || channel.send_message(self.http, create.clone())).await.map_err(platform)?;
        Ok(m.id.to_string())
    }

    async fn edit_table(&self, ch: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        let id = snowflake(id).map(MessageId::new).ok_or(TransportError::EditFailed)?;
        let channel = discord_channel(ch)?;
        // the new picture, if any, replaces the one shown (none: the cards
        // are text now, or no deal is running)
        let mut edit = EditMessage::new().content(clip(&msg.text())).remove_all_attachments();
        if let Some(p) = &msg.picture {
            edit = edit.new_attachment(attachment(p));
        }
        patient("table edit", || channel.edit_message(self.http, id, edit.clone()))
            .await
            .map(|_| ())
            .map_err(|_| TransportError::EditFailed)
    }

    async fn notice(&self, ch: &ChannelId, notice: &Notice) -> Result<(), TransportError> {
        let text = match &notice.mention {
            Some(u) => format!("<@{}> {}", u.id, notice.text),
            None => notice.text.clone(),
        };
        let channel = discord_channel(ch)?;
        let parts = pieces(&text);
        let last = parts.len() - 1;
        for (i, part) in parts.into_iter().enumerate() {
            // each part its own nonce, made from the owed message's key
            // (Discord's nonce holds 25 characters: a suffix does not fit);
            // the picture goes with the last
            let part_key = notice.key.as_ref().map(|k| if i == 0 { k.clone() } else { piece_key(k, i) });
            let key = part_key.as_ref();
            let mut create =
                keyed(CreateMessage::new().content(part).allowed_mentions(mentions(notice.mention.as_ref())), key);
            if i == last
                && let Some(p) = &notice.picture
            {
                create = create.add_file(attachment(p));
            }
            patient("notice", || channel.send_message(self.http, create.clone())).await.map_err(platform)?;
        }
        Ok(())
    }

    async fn private(&self, ch: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        self.direct(ch, to, msgs).await
    }

    fn mentions(&self) -> bool {
        self.mention
    }

    /// Direct messages: each person's own channel, sent beside the table's.
    fn route(&self, _: &UserId, _: &[&Private]) -> Route {
        Route::Own
    }
}

/// Discord while answering one interaction: the person who gave it is
/// answered in its (ephemeral) response; everything else as [`Channel`].
struct Reply<'a> {
    channel: Channel<'a>,
    interaction: &'a Interaction,
    responder: &'a Responder,
    actor: &'a UserId,
    /// A click on a private hand: update the clicked message.
    from_button: bool,
    /// Acknowledged already: edit the response.
    deferred: bool,
    /// The delivery had been handled before: said so in this language.
    duplicate: Option<doko_bot::Lang>,
}

impl Reply<'_> {
    async fn answer(&self, msgs: &[&Private]) -> Result<(), TransportError> {
        let http = self.channel.http;
        let mut text: Vec<String> = msgs.iter().filter(|m| m.kind != Kind::Record).map(|m| m.text.clone()).collect();
        if text.is_empty() {
            text.push(match self.duplicate {
                Some(l) => doko_bot::render::already_done(l),
                None => "✓".to_string(),
            });
        }
        let text = clip(&text.join("\n"));
        let hand = msgs.iter().rev().find_map(|m| m.hand.as_ref());
        let mut files: Vec<CreateAttachment> = msgs
            .iter()
            .filter(|m| m.kind == Kind::Record)
            .enumerate()
            .map(|(i, m)| CreateAttachment::bytes(m.text.as_bytes().to_vec(), format!("record-{}.json", i + 1)))
            .collect();
        // the hand's picture, with the hand it shows (only hands have one)
        if let Some(p) = msgs.iter().rev().find_map(|m| m.picture.as_ref()) {
            files.push(attachment(p));
        }
        // an HTTP response body cannot carry files: acknowledge, then edit
        let deferred = if self.responder.is_body() && !files.is_empty() && !self.deferred {
            let ack = if self.from_button {
                CreateInteractionResponse::Acknowledge
            } else {
                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true))
            };
            self.responder.respond(self.interaction, http, ack).await.map_err(platform)?;
            true
        } else {
            self.deferred
        };
        if deferred {
            let mut e = EditInteractionResponse::new().content(text);
            if let Some(h) = hand {
                e = e.components(hand_components(h));
            }
            for f in files {
                e = e.new_attachment(f);
            }
            // an acknowledgement that went in the HTTP response reaches
            // Discord a moment after it was written: until then the
            // interaction's webhook is unknown (10015); try again shortly
            let mut pause = std::time::Duration::from_millis(50);
            for attempt in 0.. {
                let r = match self.interaction {
                    Interaction::Command(ci) => ci.edit_response(http, e.clone()).await.map(|_| ()),
                    Interaction::Component(ci) => ci.edit_response(http, e.clone()).await.map(|_| ()),
                    _ => Ok(()),
                };
                match r {
                    Err(serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(resp)))
                        if resp.error.code == 10015 && attempt < 10 =>
                    {
                        tokio::time::sleep(pause).await;
                        pause = (pause * 2).min(std::time::Duration::from_millis(500));
                    }
                    other => return other.map_err(platform),
                }
            }
            return Ok(());
        }
        let mut r = CreateInteractionResponseMessage::new().ephemeral(true).content(text).files(files);
        if let Some(h) = hand {
            r = r.components(hand_components(h));
        }
        let r = if self.from_button {
            CreateInteractionResponse::UpdateMessage(r)
        } else {
            CreateInteractionResponse::Message(r)
        };
        self.responder.respond(self.interaction, http, r).await.map_err(platform)
    }
}

#[async_trait]
impl Transport for Reply<'_> {
    async fn post_table(&self, ch: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        self.channel.post_table(ch, msg).await
    }

    async fn edit_table(&self, ch: &ChannelId, id: &str, msg: &TableMessage) -> Result<(), TransportError> {
        self.channel.edit_table(ch, id, msg).await
    }

    async fn notice(&self, ch: &ChannelId, notice: &Notice) -> Result<(), TransportError> {
        self.channel.notice(ch, notice).await
    }

    async fn private(&self, ch: &ChannelId, to: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        if to == self.actor {
            self.answer(msgs).await?;
        }
        self.channel.direct(ch, to, msgs).await
    }

    fn mentions(&self) -> bool {
        self.channel.mention
    }

    /// The interaction's own answer first (due within its deadline), then
    /// everyone's direct messages beside the table's channel.
    fn route(&self, to: &UserId, _: &[&Private]) -> Route {
        if to == self.actor { Route::First } else { Route::Own }
    }
}

async fn respond(i: &Interaction, http: &Http, r: CreateInteractionResponse) -> Result<(), serenity::Error> {
    match i {
        Interaction::Command(ci) | Interaction::Autocomplete(ci) => ci.create_response(http, r).await,
        Interaction::Component(ci) => ci.create_response(http, r).await,
        _ => Ok(()),
    }
}

impl Adapter {
    /// An adapter.
    pub fn new(app: Arc<dyn App>, http: Arc<Http>, mention: bool) -> Adapter {
        Adapter {
            app,
            http,
            mention,
            defer_after: std::time::Duration::from_millis(1500),
            active: Mutex::new(HashMap::new()),
            shards: None,
            running: tokio::sync::OnceCell::new(),
        }
    }

    /// The adapter of a process that runs these shards only.
    pub fn shards(mut self, shards: Option<crate::shards::Shards>) -> Adapter {
        self.shards = shards;
        self
    }

    /// Resumes the turn clocks of every running table of this process's
    /// shards by the channel's snowflake (the interactions endpoint, where
    /// no gateway hands out guilds; after a restart, or on another process
    /// of the same store).
    pub async fn resume(&self) {
        let running = self.app.running(doko_bot::Platform::DISCORD).await;
        let mut active = self.active.lock().await;
        let before = active.len();
        for ch in running {
            let mine = snowflake(&ch.id).is_some_and(|id| self.shards.is_none_or(|s| s.owns(id)));
            if mine {
                active.insert(ch.key(), ch);
            }
        }
        tracing::info!(tables = active.len() - before, "turn clocks resumed");
    }

    /// Resumes the turn clocks of the tables that were running when the
    /// process started in these channels: a guild's, as the gateway hands
    /// it to this process's shards (GUILD_CREATE). Discord sends a guild's
    /// interactions to the shard of the guild's id, so its tables are this
    /// process's, whatever shard their channel's own snowflake maps to.
    pub async fn resume_in(&self, channels: &[u64]) {
        let running = self.running.get_or_init(|| self.app.running(doko_bot::Platform::DISCORD)).await;
        let mut active = self.active.lock().await;
        let mut resumed = 0;
        for ch in running {
            if snowflake(&ch.id).is_some_and(|id| channels.contains(&id))
                && active.insert(ch.key(), ch.clone()).is_none()
            {
                resumed += 1;
            }
        }
        if resumed > 0 {
            tracing::info!(tables = resumed, "turn clocks resumed");
        }
    }

    fn channel(&self) -> Channel<'_> {
        Channel { http: &self.http, mention: self.mention }
    }

    /// Applies the turn timer to every table this adapter has served and
    /// publishes reminders and time-outs.
    pub async fn tick(&self) {
        let channels: Vec<ChannelId> = self.active.lock().await.values().cloned().collect();
        for ch in channels {
            let out = self.app.tick(&ch).await;
            if !out.is_empty() {
                deliver(&*self.app, &self.channel(), &out).await;
            }
        }
    }

    /// Delivers what a command on another platform owes a channel here (a
    /// table shared across platforms), as a turn clock's outbox; the
    /// channel's turn clock runs from then on.
    pub async fn relayed(&self, out: &doko_bot::Outbox) {
        let span = info_span!("discord_relayed", channel = %out.channel);
        async {
            if snowflake(&out.channel.id).is_some() {
                self.active.lock().await.insert(out.channel.key(), out.channel.clone());
            }
            deliver(&*self.app, &self.channel(), out).await;
        }
        .instrument(span)
        .await
    }

    /// Handles one interaction from the gateway: translate, run the
    /// command, answer.
    pub async fn handle(&self, interaction: &Interaction) -> Result<(), AdapterError> {
        self.handle_with(interaction, &Responder::Rest).await
    }

    /// Handles one interaction, its first answer going to `responder`.
    pub async fn handle_with(&self, interaction: &Interaction, responder: &Responder) -> Result<(), AdapterError> {
        let span = info_span!("discord_interaction", id = %interaction.id());
        async {
            match translate(interaction) {
                Inbound::Command { channel, actor, command, stamp, delivery, from_button } => {
                    let input = match stamp {
                        Some(stamp) => Input::Clicked { command, stamp },
                        None => Input::Command(command),
                    };
                    let exec = self.app.handle(&channel, &actor, input, Some(&delivery));
                    tokio::pin!(exec);
                    let mut deferred = false;
                    let out = tokio::select! {
                        out = &mut exec => out,
                        _ = tokio::time::sleep(self.defer_after) => {
                            let r = if from_button {
                                CreateInteractionResponse::Acknowledge
                            } else {
                                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true))
                            };
                            responder.respond(interaction, &self.http, r).await?;
                            deferred = true;
                            exec.await
                        }
                    };
                    if snowflake(&channel.id).is_some() {
                        self.active.lock().await.insert(channel.key(), channel.clone());
                    }
                    let reply = Reply {
                        channel: self.channel(),
                        interaction,
                        responder,
                        actor: &actor.user,
                        from_button,
                        deferred,
                        duplicate: out.duplicate.then_some(out.lang),
                    };
                    deliver(&*self.app, &reply, &out).await;
                }
                Inbound::Autocomplete { channel, user, prefix } => {
                    let hand = self.app.hand(&channel, &user).await;
                    let mut a = CreateAutocompleteResponse::new();
                    for (label, value) in play_choices(hand.as_ref(), &prefix) {
                        a = a.add_string_choice(label, value);
                    }
                    responder.respond(interaction, &self.http, CreateInteractionResponse::Autocomplete(a)).await?;
                }
                Inbound::Refused { reason } => {
                    let r = CreateInteractionResponseMessage::new().ephemeral(true).content(clip(&reason));
                    responder.respond(interaction, &self.http, CreateInteractionResponse::Message(r)).await?;
                }
            }
            Ok(())
        }
        .instrument(span)
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_goes_in_pieces_cut_between_lines() {
        let line = "x".repeat(100);
        let text = vec![line.as_str(); 45].join("\n");
        let parts = pieces(&text);
        assert_eq!(parts.len(), 3);
        assert!(
            parts.iter().all(|p| p.chars().count() <= LIMIT),
            "{:?}",
            parts.iter().map(|p| p.len()).collect::<Vec<_>>()
        );
        assert_eq!(parts.join("\n"), text, "nothing lost, nothing added");
        assert_eq!(pieces("short"), vec!["short".to_string()]);
        assert_eq!(pieces(""), vec![String::new()]);
        let long = "y".repeat(LIMIT + 50);
        assert!(pieces(&long)[0].chars().count() <= LIMIT + 2, "a single long line is clipped");
        // each piece's nonce fits Discord's 25 characters and differs
        let k = "abcdef012345.123456.n0";
        let keys: Vec<String> = (1..20).map(|i| piece_key(k, i)).collect();
        assert!(keys.iter().all(|x| x.len() <= 25));
        assert!(keys.iter().enumerate().all(|(i, x)| !keys[i + 1..].contains(x)));
        assert_ne!(piece_key(k, 1), piece_key("abcdef012345.123457.n0", 1));
    }
}
