//! Discord's objects as JSON, with the fields the documentation lists
//! (`resources/user.mdx`, `resources/guild.mdx`, `resources/channel.mdx`,
//! `resources/message.mdx`, `interactions/receiving-and-responding.mdx`).

use std::time::SystemTime;

use serde_json::{Value, json};

use super::model::{FakeGuild, FakeUser, MessageRecord, Place, State, hex_id, permissions, timestamp};

/// An option of a slash command interaction
/// (`application-command-interaction-data-option`): a subcommand, a group,
/// or a value. Option types as in `application-commands.mdx`.
#[derive(Clone, Debug)]
pub struct Opt(pub Value);

impl Opt {
    /// A subcommand (type 1) with its options.
    pub fn sub(name: &str, options: Vec<Opt>) -> Opt {
        Opt(json!({"name": name, "type": 1, "options": options.into_iter().map(|o| o.0).collect::<Vec<_>>()}))
    }

    /// A subcommand group (type 2).
    pub fn group(name: &str, subcommands: Vec<Opt>) -> Opt {
        Opt(json!({"name": name, "type": 2, "options": subcommands.into_iter().map(|o| o.0).collect::<Vec<_>>()}))
    }

    /// A string (type 3).
    pub fn string(name: &str, value: &str) -> Opt {
        Opt(json!({"name": name, "type": 3, "value": value}))
    }

    /// An integer (type 4).
    pub fn int(name: &str, value: i64) -> Opt {
        Opt(json!({"name": name, "type": 4, "value": value}))
    }

    /// A boolean (type 5).
    pub fn bool(name: &str, value: bool) -> Opt {
        Opt(json!({"name": name, "type": 5, "value": value}))
    }

    /// A user (type 6); the interaction's `resolved.users` gets the user.
    pub fn user(name: &str, id: u64) -> Opt {
        Opt(json!({"name": name, "type": 6, "value": id.to_string()}))
    }

    /// A number (type 10).
    pub fn number(name: &str, value: f64) -> Opt {
        Opt(json!({"name": name, "type": 10, "value": value}))
    }

    /// A string being typed, for autocomplete (`focused: true`).
    pub fn focused(name: &str, partial: &str) -> Opt {
        Opt(json!({"name": name, "type": 3, "value": partial, "focused": true}))
    }
}

/// A user object.
pub(crate) fn user(u: &FakeUser, bot: bool) -> Value {
    json!({
        "id": u.id.to_string(),
        "username": u.name,
        "discriminator": "0",
        "global_name": if bot { Value::Null } else { json!(u.name) },
        "avatar": null,
        "bot": bot,
        "system": false,
        "mfa_enabled": bot,
        "banner": null,
        "accent_color": null,
        "locale": "en-US",
        "verified": true,
        "flags": 0,
        "premium_type": 0,
        "public_flags": 0,
    })
}

/// A guild member object; `permissions` only in interactions.
pub(crate) fn member(u: &FakeUser, bot: bool, permissions: Option<u64>) -> Value {
    let mut m = json!({
        "user": user(u, bot),
        "nick": null,
        "avatar": null,
        "banner": null,
        "roles": [],
        "joined_at": timestamp(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000)),
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    });
    if let Some(p) = permissions {
        m["permissions"] = json!(p.to_string());
    }
    m
}

/// A guild text channel (type 0); `guild_id` is left out inside
/// GUILD_CREATE, as Discord does.
pub(crate) fn text_channel(guild: Option<u64>, id: u64, position: usize) -> Value {
    let name = if position == 0 { "doko".to_string() } else { format!("doko-{}", position + 1) };
    let mut c = json!({
        "id": id.to_string(),
        "type": 0,
        "position": position,
        "permission_overwrites": [],
        "name": name,
        "topic": null,
        "nsfw": false,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "parent_id": null,
        "last_pin_timestamp": null,
        "flags": 0,
    });
    if let Some(g) = guild {
        c["guild_id"] = json!(g.to_string());
    }
    c
}

/// A DM channel (type 1) with one recipient.
pub(crate) fn dm_channel(id: u64, recipient: &FakeUser) -> Value {
    json!({
        "id": id.to_string(),
        "type": 1,
        "last_message_id": null,
        "flags": 0,
        "recipients": [user(recipient, false)],
    })
}

/// The `@everyone` role (its id is the guild's).
fn everyone_role(guild: u64) -> Value {
    json!({
        "id": guild.to_string(),
        "name": "@everyone",
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 0,
        "permissions": permissions::MEMBER.to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    })
}

/// READY's `d` (`gateway-events.mdx`, Ready Event Fields), listing the
/// guilds of the session's shard.
pub(crate) fn ready(st: &State, session_id: &str, shard: Option<&Value>, guilds: &[FakeGuild]) -> Value {
    let c = &st.config;
    let guilds: Vec<Value> = guilds.iter().map(|g| json!({"id": g.id.to_string(), "unavailable": true})).collect();
    let mut d = json!({
        "v": 10,
        "user": user(&c.bot, true),
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": st.gateway_url,
        "application": {"id": c.application_id.to_string(), "flags": c.application_flags},
    });
    if let Some(s) = shard {
        d["shard"] = s.clone();
    }
    d
}

/// GUILD_CREATE's `d`: a guild object with the extra fields
/// (`gateway-events.mdx`, Guild Create).
pub(crate) fn guild_create(st: &State, g: &FakeGuild) -> Value {
    let c = &st.config;
    let mut members = vec![member(&c.bot, true, None)];
    members.extend(c.users.iter().map(|u| member(u, false, None)));
    let channels: Vec<Value> = g.channels.iter().enumerate().map(|(i, id)| text_channel(None, *id, i)).collect();
    let owner = c.users.first().map_or(c.bot.id, |u| u.id);
    let mut guild = json!({
        "id": g.id.to_string(),
        "name": g.name,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": owner.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone_role(g.id)],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "incidents_data": null,
    });
    // the extra fields of GUILD_CREATE
    let extra = json!({
        "joined_at": timestamp(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000)),
        "large": false,
        "unavailable": false,
        "member_count": members.len(),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    });
    if let (Value::Object(g), Value::Object(x)) = (&mut guild, extra) {
        g.extend(x);
    }
    guild
}

/// A message object for a record, authored by the bot (or, for interaction
/// responses, by the application's webhook).
pub(crate) fn message(st: &State, m: &MessageRecord) -> Value {
    let c = &st.config;
    let edited = if m.edits() > 0 { json!(timestamp(SystemTime::now())) } else { Value::Null };
    let attachments: Vec<Value> = m
        .attachments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let url = format!("{}/attachments/{}/{}/{}", st.api_origin, m.channel_id, m.id + i as u64, a.filename);
            json!({
                "id": (m.id + i as u64).to_string(),
                "filename": a.filename,
                "size": a.bytes.len(),
                "url": url,
                "proxy_url": url,
                "content_type": if a.filename.ends_with(".json") { "application/json" } else { "application/octet-stream" },
                "ephemeral": m.ephemeral(),
            })
        })
        .collect();
    let mut v = json!({
        "id": m.id.to_string(),
        "channel_id": m.channel_id.to_string(),
        "author": user(&c.bot, true),
        "content": m.content,
        "timestamp": timestamp(SystemTime::now()),
        "edited_timestamp": edited,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": if m.embeds.is_array() { m.embeds.clone() } else { json!([]) },
        "pinned": false,
        "type": if m.interaction.is_some() { 20 } else { 0 },
        "flags": m.flags,
        "components": if m.components.is_array() { m.components.clone() } else { json!([]) },
    });
    if m.interaction.is_some() {
        v["webhook_id"] = json!(c.application_id.to_string());
        v["application_id"] = json!(c.application_id.to_string());
    }
    if let Some((g, _)) = c.guild_of(m.channel_id) {
        v["guild_id"] = json!(g.id.to_string());
    }
    v
}

/// The fields every interaction has: ids, token, where, who.
fn base(st: &mut State, kind: u64, user_id: u64, place: Place) -> Value {
    let id = st.snowflake();
    let token = format!("aW50ZXJhY3Rpb24{}", hex_id(id));
    let c = st.config.clone();
    let u = st.user(user_id).cloned().unwrap_or_else(|| FakeUser::new(user_id, "stranger"));
    let mut v = json!({
        "id": id.to_string(),
        "application_id": c.application_id.to_string(),
        "type": kind,
        "token": token,
        "version": 1,
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": 10_485_760,
    });
    match place {
        Place::Channel(ch) => {
            // a channel of no guild: the first guild's, as before
            let (guild, pos) = c.guild_of(ch).map_or((c.guild_id, 0), |(g, pos)| (g.id, pos));
            v["guild_id"] = json!(guild.to_string());
            v["guild"] = json!({"id": guild.to_string(), "locale": "en-US", "features": []});
            v["guild_locale"] = json!("en-US");
            v["channel_id"] = json!(ch.to_string());
            v["channel"] = text_channel(Some(guild), ch, pos);
            v["member"] = member(&u, false, Some(u.permissions));
            v["app_permissions"] = json!(permissions::ALL.to_string());
            v["authorizing_integration_owners"] = json!({"0": guild.to_string()});
            v["context"] = json!(0);
        }
        Place::Dm => {
            let ch = st.dm_channel(user_id);
            v["channel_id"] = json!(ch.to_string());
            v["channel"] = dm_channel(ch, &u);
            v["user"] = user(&u, false);
            // DMs with the app's bot user (receiving-and-responding.mdx)
            let p = permissions::ATTACH_FILES
                | permissions::EMBED_LINKS
                | permissions::MENTION_EVERYONE
                | permissions::USE_EXTERNAL_EMOJIS;
            v["app_permissions"] = json!(p.to_string());
            v["authorizing_integration_owners"] = json!({"0": "0"});
            v["context"] = json!(1);
        }
    }
    v
}

fn collect_users(opts: &[Value], out: &mut Vec<u64>) {
    for o in opts {
        if o["type"] == 6
            && let Some(id) = super::id_of(&o["value"])
        {
            out.push(id);
        }
        if let Some(sub) = o["options"].as_array() {
            collect_users(sub, out);
        }
    }
}

/// An APPLICATION_COMMAND (2) or APPLICATION_COMMAND_AUTOCOMPLETE (4)
/// interaction.
pub(crate) fn command_interaction(
    st: &mut State,
    user_id: u64,
    place: Place,
    name: &str,
    options: Vec<Opt>,
    kind: u64,
) -> Value {
    let mut v = base(st, kind, user_id, place);
    let command_id = match st.command_ids.get(name) {
        Some(id) => *id,
        None => {
            let id = st.snowflake();
            st.command_ids.insert(name.to_string(), id);
            id
        }
    };
    let options: Vec<Value> = options.into_iter().map(|o| o.0).collect();
    let mut data = json!({"id": command_id.to_string(), "name": name, "type": 1, "options": options});
    let mut users = Vec::new();
    collect_users(&options, &mut users);
    if !users.is_empty() {
        let mut resolved = serde_json::Map::new();
        for id in users {
            let u = st.user(id).cloned().unwrap_or_else(|| FakeUser::new(id, "stranger"));
            resolved.insert(id.to_string(), user(&u, false));
        }
        data["resolved"] = json!({"users": resolved});
    }
    // a guild command of the interaction's guild
    if let Some(g) = super::id_of(&v["guild_id"])
        && st.guild_commands.get(&g).is_some_and(|cmds| cmds.iter().any(|c| c["name"] == name))
    {
        data["guild_id"] = json!(g.to_string());
    }
    v["data"] = data;
    v
}

/// A MESSAGE_COMPONENT interaction (3): a button click.
pub(crate) fn component_interaction(
    st: &mut State,
    user_id: u64,
    place: Place,
    message_id: u64,
    custom_id: &str,
) -> Value {
    let mut v = base(st, 3, user_id, place);
    let channel_id = super::id_of(&v["channel_id"]).unwrap_or(0);
    let msg = match st.messages.get(&message_id) {
        Some(m) => message(st, m),
        None => {
            let m = MessageRecord {
                id: message_id,
                channel_id,
                content: String::new(),
                components: json!([]),
                flags: 0,
                embeds: json!([]),
                attachments: Vec::new(),
                versions: Vec::new(),
                deleted: false,
                interaction: None,
            };
            message(st, &m)
        }
    };
    v["message"] = msg;
    v["data"] = json!({"custom_id": custom_id, "component_type": 2});
    v
}

/// A message body's `flags`.
pub(crate) fn flags_of(body: &Value) -> u64 {
    body["flags"].as_u64().unwrap_or(0)
}
