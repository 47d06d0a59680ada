//! # doko-discord
//!
//! The Discord adapter: translates Discord interactions (slash commands,
//! autocomplete, button clicks) into the bot's commands, and the bot's
//! messages into Discord responses. No game logic lives here.
//!
//! - `/doko ...` is the public command set; `/doko-rules ...` (house rules,
//!   language, timeout policy) carries `default_member_permissions =
//!   MANAGE_GUILD`, and the bot checks the permission again itself.
//! - A player's hand is an ephemeral reply with the cards as buttons (the
//!   playable ones enabled) and buttons for the bids and announcements that
//!   are legal now; a click answers with an update of that same message.
//! - Every delivery carries its interaction id to the service, so a
//!   duplicate delivery changes the table once.

pub mod handler;
pub mod http;
pub mod run;

use doko_bot::command::{BotLevel, Command, PovertyStep, RulesCmd, TimeoutPolicy, parse_card};
use doko_bot::{Actor, ChannelId, HandModel, Lang, Platform, UserId};
use doko_engine::{Bid, Call, Card, SoloKind};
use serenity::all::{
    ButtonStyle, CommandDataOption, CommandDataOptionValue, CommandInteraction, CommandOptionType,
    ComponentInteraction, CreateActionRow, CreateButton, CreateCommand, CreateCommandOption, Interaction, Member,
    Permissions, User,
};

/// The public command's name.
pub const COMMAND: &str = "doko";
/// The admin command's name.
pub const ADMIN_COMMAND: &str = "doko-rules";
const BUTTON_PREFIX: &str = "doko:";

fn opt(kind: CommandOptionType, name: &str, description: &str) -> CreateCommandOption {
    CreateCommandOption::new(kind, name, description)
}

fn sub(name: &str, description: &str) -> CreateCommandOption {
    opt(CommandOptionType::SubCommand, name, description)
}

/// The slash commands to register: `/doko` (public; no
/// `default_member_permissions`, so everyone may use it) and `/doko-rules`
/// (members with Manage Server).
pub fn commands() -> Vec<CreateCommand> {
    let mut bid = opt(CommandOptionType::String, "what", "your answer").required(true);
    for (label, value) in [
        ("healthy (gesund)", "healthy"),
        ("wedding (Hochzeit)", "wedding"),
        ("poverty (Armut)", "poverty"),
        ("throw in (schmeißen)", "throw-in"),
    ] {
        bid = bid.add_string_choice(label, value);
    }
    for k in SoloKind::ALL {
        bid = bid.add_string_choice(format!("solo {}", k.key()), format!("solo-{}", k.key()));
    }
    let mut announce = opt(CommandOptionType::String, "what", "the announcement").required(true);
    for c in Call::ALL {
        announce = announce.add_string_choice(c.name(), c.name());
    }
    let level = opt(CommandOptionType::String, "level", "how strong")
        .add_string_choice("basic", "basic")
        .add_string_choice("strong", "strong")
        .add_string_choice("random", "random");
    let public = CreateCommand::new(COMMAND)
        .description("Doppelkopf at this channel's table")
        .add_option(sub("join", "take a seat"))
        .add_option(sub("leave", "leave the table"))
        .add_option(sub("start", "deal"))
        .add_option(sub("addbot", "seat a computer player").add_sub_option(level))
        .add_option(sub("away", "let a computer play your seat"))
        .add_option(sub("back", "take your seat back"))
        .add_option(sub("hand", "show your hand (only you see it)"))
        .add_option(sub("bid", "answer the reservation query").add_sub_option(bid))
        .add_option(
            sub("play", "play a card").add_sub_option(
                opt(CommandOptionType::String, "card", "the card (CQ, H10, kreuz dame)")
                    .required(true)
                    .set_autocomplete(true),
            ),
        )
        .add_option(sub("announce", "announce for your party").add_sub_option(announce))
        .add_option(
            sub("poverty", "the poverty exchange")
                .add_sub_option(
                    opt(CommandOptionType::String, "step", "what to do")
                        .required(true)
                        .add_string_choice("give", "give")
                        .add_string_choice("accept", "accept")
                        .add_string_choice("decline", "decline")
                        .add_string_choice("return", "return"),
                )
                .add_sub_option(opt(CommandOptionType::String, "cards", "the cards, e.g. C9 S9 H9")),
        )
        .add_option(
            sub("dm", "also get your hand as a direct message")
                .add_sub_option(opt(CommandOptionType::Boolean, "on", "on or off").required(true)),
        )
        .add_option(sub("table", "show the table"))
        .add_option(sub("score", "show the score sheet"))
        .add_option(
            sub("record", "a finished deal's record")
                .add_sub_option(opt(CommandOptionType::Integer, "number", "deal record number").min_int_value(1)),
        )
        .add_option(sub("stats", "statistics of this channel"))
        .add_option(sub("rules", "show the house rules"))
        .add_option(sub("help", "the commands"));
    let admin = CreateCommand::new(ADMIN_COMMAND)
        .description("House rules, language and timeout policy of this channel (admins)")
        .default_member_permissions(Permissions::MANAGE_GUILD)
        .add_option(sub("show", "show the house rules"))
        .add_option(
            sub("set", "set one rule")
                .add_sub_option(opt(CommandOptionType::String, "key", "the rule").required(true))
                .add_sub_option(opt(CommandOptionType::String, "value", "its value").required(true)),
        )
        .add_option(
            sub("preset", "switch to a preset").add_sub_option(
                opt(CommandOptionType::String, "name", "the preset")
                    .required(true)
                    .add_string_choice("ddv", "ddv")
                    .add_string_choice("casual", "casual"),
            ),
        )
        .add_option(sub("reset", "back to the DDV rules"))
        .add_option(
            sub("lang", "the channel's language").add_sub_option(
                opt(CommandOptionType::String, "language", "en or de")
                    .required(true)
                    .add_string_choice("English", "en")
                    .add_string_choice("Deutsch", "de"),
            ),
        )
        .add_option(
            sub("policy", "when a player's time runs out").add_sub_option(
                opt(CommandOptionType::String, "policy", "what happens")
                    .required(true)
                    .add_string_choice("a computer stands in", "standin")
                    .add_string_choice("abort the deal", "abort"),
            ),
        );
    vec![public, admin]
}

/// What an interaction asks of the bot.
#[derive(Clone, Debug, PartialEq)]
pub enum Inbound {
    /// A command for the service.
    Command {
        /// The table's channel.
        channel: ChannelId,
        /// Who acts (admin as Discord says, checked again here).
        actor: Actor,
        /// The command.
        command: Command,
        /// The stamp of the hand whose button was clicked.
        stamp: Option<String>,
        /// The interaction id (duplicate deliveries change state once).
        delivery: String,
        /// A click on a private hand: answer by updating the clicked
        /// message (false for the public "my hand" button).
        from_button: bool,
    },
    /// Autocomplete for `play`: the typed prefix.
    Autocomplete {
        /// The table's channel.
        channel: ChannelId,
        /// Who types.
        user: UserId,
        /// What they typed so far.
        prefix: String,
    },
    /// Something the bot cannot use; the text says why (sent ephemerally).
    Refused {
        /// Why.
        reason: String,
    },
}

/// Decodes a raw interaction payload with serenity's own types. A payload
/// serenity cannot decode is logged at warn level (never dropped silently).
pub fn decode(raw: &str) -> Option<Interaction> {
    match serde_json::from_str::<Interaction>(raw) {
        Ok(i) => Some(i),
        Err(e) => {
            tracing::warn!(error = %e, payload_len = raw.len(), "undecodable Discord interaction");
            None
        }
    }
}

fn name_of(user: &User, member: Option<&Member>) -> String {
    member.and_then(|m| m.nick.clone()).or_else(|| user.global_name.clone()).unwrap_or_else(|| user.name.clone())
}

fn is_admin(guild: bool, member: Option<&Member>) -> bool {
    // a direct message is the user's own table
    !guild || member.and_then(|m| m.permissions).is_some_and(|p| p.manage_guild() || p.administrator())
}

fn actor(user: &User, member: Option<&Member>, guild: bool) -> Actor {
    Actor::new(UserId::new(Platform::Discord, user.id.to_string()), name_of(user, member), is_admin(guild, member))
}

fn channel(id: serenity::all::ChannelId) -> ChannelId {
    ChannelId::new(Platform::Discord, id.to_string())
}

fn string_opt(opts: &[CommandDataOption], name: &str) -> Option<String> {
    opts.iter().find(|o| o.name == name).and_then(|o| match &o.value {
        CommandDataOptionValue::String(s) => Some(s.clone()),
        CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
        _ => None,
    })
}

fn int_opt(opts: &[CommandDataOption], name: &str) -> Option<i64> {
    opts.iter().find(|o| o.name == name).and_then(|o| match &o.value {
        CommandDataOptionValue::Integer(n) => Some(*n),
        _ => None,
    })
}

fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (c, n) = parse_card(&words[i..]).ok_or_else(|| format!("'{}' is not a card", words[i]))?;
        out.push(c);
        i += n;
    }
    Ok(out)
}

/// The command of a `/doko` or `/doko-rules` subcommand.
fn command_of(top: &str, sub: &str, opts: &[CommandDataOption]) -> Result<Command, String> {
    let need = |name: &str| string_opt(opts, name).ok_or_else(|| format!("missing option {name}"));
    let text_cmd = |text: String| doko_bot::parse(&text).map_err(|e| e.to_string());
    Ok(match (top, sub) {
        (COMMAND, "join") => Command::Join,
        (COMMAND, "leave") => Command::Leave,
        (COMMAND, "start") => Command::Start,
        (COMMAND, "addbot") => Command::AddBot(match string_opt(opts, "level").as_deref() {
            None | Some("basic") => BotLevel::Basic,
            Some("strong") => BotLevel::Strong,
            Some("random") => BotLevel::Random,
            Some(other) => return Err(format!("unknown level {other}")),
        }),
        (COMMAND, "away") => Command::Away,
        (COMMAND, "back") => Command::Back,
        (COMMAND, "hand") => Command::Hand,
        (COMMAND, "bid") => {
            let what = need("what")?;
            let bid = Bid::from_name(&what, false).ok_or_else(|| format!("unknown bid {what}"))?;
            Command::Bid(bid)
        }
        (COMMAND, "play") => text_cmd(format!("play {}", need("card")?))?,
        (COMMAND, "announce") => text_cmd(format!("announce {}", need("what")?))?,
        (COMMAND, "poverty") => match need("step")?.as_str() {
            "accept" => Command::Poverty(PovertyStep::Accept),
            "decline" => Command::Poverty(PovertyStep::Decline),
            "give" => Command::Poverty(PovertyStep::Give(parse_cards(&need("cards")?)?)),
            "return" => Command::Poverty(PovertyStep::Return(parse_cards(&need("cards")?)?)),
            other => return Err(format!("unknown step {other}")),
        },
        (COMMAND, "dm") => Command::Dm(
            opts.iter()
                .find(|o| o.name == "on")
                .and_then(|o| if let CommandDataOptionValue::Boolean(b) = o.value { Some(b) } else { None })
                .ok_or_else(|| "missing option on".to_string())?,
        ),
        (COMMAND, "table") => Command::Table,
        (COMMAND, "score") => Command::Score,
        (COMMAND, "record") => Command::Record(int_opt(opts, "number").map(|n| n.clamp(0, u32::MAX as i64) as u32)),
        (COMMAND, "stats") => Command::Stats,
        (COMMAND, "rules") | (ADMIN_COMMAND, "show") => Command::Rules(RulesCmd::Show),
        (COMMAND, "help") => Command::Help(None),
        (ADMIN_COMMAND, "set") => Command::Rules(RulesCmd::Set { key: need("key")?, value: need("value")? }),
        (ADMIN_COMMAND, "preset") => Command::Rules(RulesCmd::Preset(need("name")?)),
        (ADMIN_COMMAND, "reset") => Command::Rules(RulesCmd::Reset),
        (ADMIN_COMMAND, "lang") => {
            Command::Lang(Lang::from_code(&need("language")?).ok_or_else(|| "unknown language".to_string())?)
        }
        (ADMIN_COMMAND, "policy") => Command::Policy(match need("policy")?.as_str() {
            "standin" => TimeoutPolicy::StandIn,
            "abort" => TimeoutPolicy::Abort,
            other => return Err(format!("unknown policy {other}")),
        }),
        (t, s) => return Err(format!("unknown command /{t} {s}")),
    })
}

fn from_command(ci: &CommandInteraction) -> Inbound {
    let top = ci.data.name.as_str();
    let Some(first) = ci.data.options.first() else {
        return Inbound::Refused { reason: format!("/{top} needs a subcommand") };
    };
    let CommandDataOptionValue::SubCommand(opts) = &first.value else {
        return Inbound::Refused { reason: format!("/{top}: unexpected option {}", first.name) };
    };
    let guild = ci.guild_id.is_some();
    let actor = actor(&ci.user, ci.member.as_deref(), guild);
    if top == ADMIN_COMMAND && !actor.admin {
        // Discord hides the command from others, but the bot checks anyway
        return Inbound::Refused { reason: "only members with Manage Server may change the house rules".into() };
    }
    match command_of(top, &first.name, opts) {
        Ok(command) => Inbound::Command {
            channel: channel(ci.channel_id),
            actor,
            command,
            stamp: None,
            delivery: ci.id.to_string(),
            from_button: false,
        },
        Err(reason) => Inbound::Refused { reason },
    }
}

/// The custom id of a hand's button: `doko:` and the command's canonical
/// text (which the bot's one parser reads back), then `@` and the table's
/// channel, so a hand shown anywhere (an ephemeral reply, a direct
/// message) acts at its table, then `~` and the hand's stamp, so a click on
/// an out-of-date hand is refused: `doko:play CQ@123~1a2b3c4d.17`.
pub fn button_id(command: &Command, hand: &HandModel) -> String {
    format!("{BUTTON_PREFIX}{command}@{}~{}", hand.channel.id, hand.stamp)
}

fn from_component(ci: &ComponentInteraction) -> Inbound {
    // the hand's stamp: `...~stamp`
    let (id, stamp) = match ci.data.custom_id.rsplit_once('~') {
        Some((id, stamp)) => (id, Some(stamp.to_string())),
        None => (ci.data.custom_id.as_str(), None),
    };
    // the table's channel: `...@channel`
    let (id, table) = match id.rsplit_once('@') {
        Some((id, ch)) if ch.chars().all(|c| c.is_ascii_digit()) && !ch.is_empty() => (id, Some(ch)),
        _ => (id, None),
    };
    let Some(rest) = id.strip_prefix(BUTTON_PREFIX) else {
        return Inbound::Refused { reason: format!("unknown button {id}") };
    };
    // buttons of earlier versions: `play:CQ`, `poverty:accept`
    let text = match rest.split_once(':') {
        Some(("poverty", step)) => step.to_string(),
        Some((kind, arg)) => format!("{kind} {arg}"),
        None => rest.to_string(),
    };
    let command = doko_bot::parse(&text).map_err(|e| e.to_string());
    match command {
        Ok(command) => Inbound::Command {
            channel: table.map_or_else(|| channel(ci.channel_id), |t| ChannelId::new(Platform::Discord, t)),
            // in a DM there are no guild permissions: never an admin there
            actor: actor(&ci.user, ci.member.as_ref(), ci.guild_id.is_some() || table.is_some()),
            command,
            stamp,
            delivery: ci.id.to_string(),
            // only a private hand (ephemeral, or in a DM) is updated in
            // place; a click under the public table message gets a new
            // ephemeral reply, never an update of the public message
            from_button: ci.guild_id.is_none()
                || ci.message.flags.is_some_and(|f| f.contains(serenity::all::MessageFlags::EPHEMERAL)),
        },
        Err(reason) => Inbound::Refused { reason },
    }
}

/// Translates an interaction (pure: no I/O).
pub fn translate(i: &Interaction) -> Inbound {
    match i {
        Interaction::Command(ci) => from_command(ci),
        Interaction::Autocomplete(ci) => {
            let prefix = ci
                .data
                .options
                .first()
                .and_then(|o| match &o.value {
                    CommandDataOptionValue::SubCommand(opts) => string_opt(opts, "card"),
                    _ => None,
                })
                .unwrap_or_default();
            Inbound::Autocomplete {
                channel: channel(ci.channel_id),
                user: UserId::new(Platform::Discord, ci.user.id.to_string()),
                prefix,
            }
        }
        Interaction::Component(ci) => from_component(ci),
        _ => Inbound::Refused { reason: "this kind of interaction is not used by doko".into() },
    }
}

/// Autocomplete for `/doko play`: the cards playable now that match what
/// was typed (by code or label), as (label, value) pairs; only from the
/// person's own hand.
pub fn play_choices(hand: Option<&HandModel>, prefix: &str) -> Vec<(String, String)> {
    let Some(h) = hand else { return Vec::new() };
    let p = prefix.trim().to_lowercase();
    h.cards
        .iter()
        .filter(|c| c.playable)
        .filter_map(|c| match &c.command {
            Command::Play(card) => Some((c.label.clone(), card.to_string())),
            _ => None,
        })
        .filter(|(label, code)| {
            p.is_empty() || code.to_lowercase().starts_with(&p) || label.to_lowercase().starts_with(&p)
        })
        .take(25)
        .collect()
}

/// The hand as buttons: every card (the playable ones enabled), then the
/// bids, announcements and poverty answers that are legal now, and a
/// refresh button; at most five rows of five (Discord's limits). Every
/// button names its table's channel.
pub fn hand_components(hand: &HandModel) -> Vec<CreateActionRow> {
    let ch = hand;
    let mut buttons: Vec<CreateButton> = hand
        .cards
        .iter()
        .map(|c| {
            CreateButton::new(button_id(&c.command, ch))
                .label(&c.label)
                .style(if c.playable { ButtonStyle::Primary } else { ButtonStyle::Secondary })
                .disabled(!c.playable)
        })
        .collect();
    for c in &hand.choices {
        buttons.push(CreateButton::new(button_id(&c.command, ch)).label(&c.label).style(ButtonStyle::Success));
    }
    buttons.push(
        CreateButton::new(button_id(&hand.refresh.command, ch))
            .label(&hand.refresh.label)
            .style(ButtonStyle::Secondary),
    );
    buttons.truncate(25);
    buttons.chunks(5).map(|row| CreateActionRow::Buttons(row.to_vec())).collect()
}

/// The button under the public table message that opens one's hand.
pub fn my_hand_button(label: &str) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(format!("{BUTTON_PREFIX}hand")).label(label).style(ButtonStyle::Primary),
    ])
}
