//! The outbound side: answers interactions and keeps the table message,
//! through serenity's HTTP client.
//!
//! - A person's own messages (hand, refusals, help) go only into the
//!   ephemeral response to their interaction (flag 64); a click on a hand
//!   button updates that same message, with a fresh token each time.
//! - Everything public (what happened, the table) goes into one table
//!   message per channel, edited in place; score sheet, statistics and rules
//!   are new messages. Public text is built from the public view only.

use std::collections::HashMap;
use std::sync::Arc;

use doko_bot::render::Audience;
use doko_bot::{Kind, Message, Service, Store};
use serenity::all::{
    ChannelId as DiscordChannelId, CommandInteraction, ComponentInteraction, CreateAttachment,
    CreateAutocompleteResponse, CreateInteractionResponse, CreateInteractionResponseMessage, CreateMessage,
    EditInteractionResponse, EditMessage, Http, Interaction, MessageId,
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
    /// The bot failed.
    #[error(transparent)]
    Service(#[from] doko_bot::ServiceError),
}

/// The Discord adapter around the service.
pub struct Adapter<S: Store> {
    /// The bot.
    pub service: Arc<Service<S>>,
    /// Discord's HTTP API.
    pub http: Arc<Http>,
    /// Mention the person to act in a short message (configurable).
    pub mention: bool,
    /// When a command has not finished by then, the interaction is
    /// acknowledged first (deferred) and answered by an edit; Discord
    /// wants an answer within 3 seconds.
    pub defer_after: std::time::Duration,
    /// Tables this adapter has served (for the turn timer).
    active: Mutex<HashMap<String, (doko_bot::ChannelId, DiscordChannelId)>>,
}

const LIMIT: usize = 1900;

fn clip(text: &str) -> String {
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}\n…")
    }
}

impl<S: Store> Adapter<S> {
    /// An adapter.
    pub fn new(service: Arc<Service<S>>, http: Arc<Http>, mention: bool) -> Adapter<S> {
        Adapter {
            service,
            http,
            mention,
            defer_after: std::time::Duration::from_millis(1500),
            active: Mutex::new(HashMap::new()),
        }
    }

    /// Applies the turn timer to every table this adapter has served and
    /// publishes reminders and time-outs.
    pub async fn tick(&self) {
        let channels: Vec<(doko_bot::ChannelId, DiscordChannelId)> =
            self.active.lock().await.values().cloned().collect();
        for (ch, discord) in channels {
            match self.service.tick(&ch).await {
                Ok(msgs) if !msgs.is_empty() => {
                    let published = match self.service.table(&ch).await {
                        Ok((t, _)) => self.publish(&ch, discord, &msgs, &t).await,
                        Err(e) => Err(e.into()),
                    };
                    if let Err(e) = published {
                        tracing::warn!(error = %e, channel = %ch, "publishing a timeout failed");
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, channel = %ch, "turn timer failed"),
            }
        }
    }

    /// Handles one interaction: translate, run the command, answer.
    pub async fn handle(&self, interaction: &Interaction) -> Result<(), AdapterError> {
        let span = info_span!("discord_interaction", id = %interaction.id());
        async {
            match (translate(interaction), interaction) {
                (Inbound::Command { channel, actor, command, delivery, from_button }, _) => {
                    let exec = self.service.execute_delivery(&channel, &actor, command, Some(&delivery));
                    tokio::pin!(exec);
                    let mut deferred = false;
                    let msgs = tokio::select! {
                        r = &mut exec => r?,
                        _ = tokio::time::sleep(self.defer_after) => {
                            let ack = CreateInteractionResponseMessage::new().ephemeral(true);
                            let r = if from_button {
                                CreateInteractionResponse::Acknowledge
                            } else {
                                CreateInteractionResponse::Defer(ack)
                            };
                            self.respond(interaction, r).await?;
                            deferred = true;
                            exec.await?
                        }
                    };
                    // the table after the command, loaded once for everything below
                    let (table, _) = self.service.table(&channel).await?;
                    let lang = table.lang();
                    let mine: Vec<&Message> =
                        msgs.iter().filter(|m| m.to == Audience::Private(actor.user.clone())).collect();
                    let hand = table.view_for(&actor.user);
                    let mut response = CreateInteractionResponseMessage::new().ephemeral(true);
                    // a record is a file, not a (too long) message
                    for (i, m) in mine.iter().filter(|m| m.kind == Kind::Record).enumerate() {
                        response = response.add_file(CreateAttachment::bytes(
                            m.text.as_bytes().to_vec(),
                            format!("record-{}.json", i + 1),
                        ));
                    }
                    let mine: Vec<&Message> = mine.into_iter().filter(|m| m.kind != Kind::Record).collect();
                    let text: Vec<String> = mine.iter().map(|m| m.text.clone()).collect();
                    let text = if msgs.is_empty() {
                        lang.t("already done", "schon erledigt").to_string()
                    } else if text.is_empty() {
                        "✓".to_string()
                    } else {
                        text.join("\n")
                    };
                    response = response.content(clip(&text));
                    let has_hand = mine.iter().any(|m| m.kind == Kind::Hand);
                    if has_hand && let Some(v) = &hand {
                        response = response.components(hand_components(v, lang));
                    }
                    if deferred {
                        self.edit(interaction, &text, hand.as_ref().filter(|_| has_hand), lang).await?;
                    } else {
                        let r = if from_button {
                            CreateInteractionResponse::UpdateMessage(response)
                        } else {
                            CreateInteractionResponse::Message(response)
                        };
                        self.respond(interaction, r).await?;
                    }
                    // the table's own channel (a click in a DM names it)
                    if let Ok(id) = channel.id.parse::<u64>()
                        && id != 0
                    {
                        let discord = DiscordChannelId::new(id);
                        self.active.lock().await.insert(channel.key(), (channel.clone(), discord));
                        self.publish(&channel, discord, &msgs, &table).await?;
                        self.direct_messages(discord, &msgs, &table).await?;
                    }
                }
                (Inbound::Autocomplete { channel, user, prefix }, _) => {
                    let (t, _) = self.service.table(&channel).await?;
                    let view = t.view_for(&user);
                    let mut a = CreateAutocompleteResponse::new();
                    for (label, value) in play_choices(view.as_ref(), t.lang(), &prefix) {
                        a = a.add_string_choice(label, value);
                    }
                    self.respond(interaction, CreateInteractionResponse::Autocomplete(a)).await?;
                }
                (Inbound::Refused { reason }, _) => {
                    let r = CreateInteractionResponseMessage::new().ephemeral(true).content(clip(&reason));
                    self.respond(interaction, CreateInteractionResponse::Message(r)).await?;
                }
            }
            Ok(())
        }
        .instrument(span)
        .await
    }

    /// Answers a deferred interaction by editing its response.
    async fn edit(
        &self,
        i: &Interaction,
        text: &str,
        hand: Option<&doko_engine::SeatView>,
        lang: doko_bot::Lang,
    ) -> Result<(), AdapterError> {
        let mut e = EditInteractionResponse::new().content(clip(text));
        if let Some(v) = hand {
            e = e.components(hand_components(v, lang));
        }
        match i {
            Interaction::Command(ci) => {
                ci.edit_response(&self.http, e).await?;
            }
            Interaction::Component(ci) => {
                ci.edit_response(&self.http, e).await?;
            }
            _ => {}
        }
        Ok(())
    }

    async fn respond(&self, i: &Interaction, r: CreateInteractionResponse) -> Result<(), AdapterError> {
        match i {
            Interaction::Command(ci) | Interaction::Autocomplete(ci) => respond_command(ci, &self.http, r).await,
            Interaction::Component(ci) => respond_component(ci, &self.http, r).await,
            _ => Ok(()),
        }
    }

    /// Public messages: events and table into the table message (edited in
    /// place), other public messages as new ones; a mention when a person
    /// is to act.
    pub async fn publish(
        &self,
        ch: &doko_bot::ChannelId,
        discord: DiscordChannelId,
        msgs: &[Message],
        table: &doko_bot::Table,
    ) -> Result<(), AdapterError> {
        let lang = table.lang();
        let public: Vec<&Message> = msgs.iter().filter(|m| m.to == Audience::Public).collect();
        let table_text: Vec<&str> =
            public.iter().filter(|m| matches!(m.kind, Kind::Events | Kind::Table)).map(|m| m.text.as_str()).collect();
        if !table_text.is_empty() {
            let content = clip(&table_text.join("\n"));
            // the message id lives with the table: every process edits the same one
            let stored =
                table.display().as_ref().and_then(|s| s.parse::<u64>().ok()).filter(|v| *v != 0).map(MessageId::new);
            let edited = match stored {
                Some(id) => discord
                    .edit_message(&self.http, id, EditMessage::new().content(&content))
                    .await
                    .map(|_| true)
                    .unwrap_or(false),
                None => false,
            };
            if !edited {
                let m = discord
                    .send_message(
                        &self.http,
                        CreateMessage::new().content(&content).components(vec![my_hand_button(lang)]),
                    )
                    .await?;
                self.service.set_display(ch, Some(m.id.to_string())).await?;
            }
        }
        for m in public.iter().filter(|m| !matches!(m.kind, Kind::Events | Kind::Table)) {
            discord.send_message(&self.http, CreateMessage::new().content(clip(&m.text))).await?;
        }
        if self.mention
            && let Some(u) = public.iter().find(|m| m.kind == Kind::Table).and_then(|m| m.mention.first())
        {
            let text = format!("<@{}> {}", u.id, lang.t("your turn", "du bist dran"));
            discord.send_message(&self.http, CreateMessage::new().content(text)).await?;
        }
        Ok(())
    }

    /// Hands of players who asked for them by direct message. DMs can be
    /// closed: then the table is told (nothing secret in that).
    async fn direct_messages(
        &self,
        discord: DiscordChannelId,
        msgs: &[Message],
        t: &doko_bot::Table,
    ) -> Result<(), AdapterError> {
        let lang = t.lang();
        let hands: Vec<&Message> = msgs.iter().filter(|m| m.kind == Kind::Hand).collect();
        if hands.is_empty() {
            return Ok(());
        }
        for m in hands {
            let Audience::Private(u) = &m.to else { continue };
            let Some(i) = t.seat_of(u) else { continue };
            let Ok(uid) = u.id.parse::<u64>() else { continue };
            if !t.seats()[i].dm() || uid == 0 {
                continue;
            }
            let mut msg = CreateMessage::new().content(clip(&format!("#{}\n{}", discord, m.text)));
            if let Some(v) = t.view_for(u) {
                msg = msg.components(crate::hand_components_for(&v, lang, Some(&discord.to_string())));
            }
            let sent = match serenity::all::UserId::new(uid).create_dm_channel(&self.http).await {
                Ok(dm) => dm.id.send_message(&self.http, msg).await.map(|_| ()),
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                tracing::info!(error = %e, "a direct message was refused");
                let text = format!(
                    "<@{uid}> {}",
                    lang.t(
                        "I cannot send you direct messages (they are closed); use /doko hand.",
                        "Ich kann dir keine Direktnachrichten schicken (sie sind geschlossen); nutze /doko hand."
                    )
                );
                discord.send_message(&self.http, CreateMessage::new().content(text)).await?;
            }
        }
        Ok(())
    }
}

async fn respond_command(
    ci: &CommandInteraction,
    http: &Http,
    r: CreateInteractionResponse,
) -> Result<(), AdapterError> {
    ci.create_response(http, r).await?;
    Ok(())
}

async fn respond_component(
    ci: &ComponentInteraction,
    http: &Http,
    r: CreateInteractionResponse,
) -> Result<(), AdapterError> {
    ci.create_response(http, r).await?;
    Ok(())
}
