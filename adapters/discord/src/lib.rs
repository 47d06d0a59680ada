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
pub mod shards;

use doko_bot::command::{
    ArgType, Command, CommandSpec, OptionKind, OptionValue, ParseError, Tree, from_options, slash_tree,
};
use doko_bot::ids::ServerId;
use doko_bot::{Actor, ChannelId, HandModel, Lang, Platform, UserId, tr};
use serenity::all::{
    ButtonStyle, CommandDataOption, CommandDataOptionValue, CommandInteraction, CommandOptionType,
    ComponentInteraction, CreateActionRow, CreateButton, CreateCommand, CreateCommandOption, Interaction, Member,
    Permissions, User,
};

/// The public command's name.
pub const COMMAND: &str = "doko";
/// The admin command's name.
pub const ADMIN_COMMAND: &str = "doko-rules";
/// The lists' command's name (lists, leaderboards, statistics).
pub const LISTS_COMMAND: &str = "doko-lists";
const BUTTON_PREFIX: &str = "doko:";

/// How Discord writes what the bot says: a channel as its mention
/// (`<#123>`, which clients show as the channel's name) and the commands
/// as this adapter's slash commands.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiscordDialect;

/// Discord's dialect, for the binary to give the service.
pub static DIALECT: DiscordDialect = DiscordDialect;

impl doko_bot::dialect::Dialect for DiscordDialect {
    fn channel_link(&self, id: &str) -> String {
        format!("<#{id}>")
    }

    fn help_style(&self) -> doko_bot::command::HelpStyle<'static> {
        doko_bot::command::HelpStyle::Slash { public: COMMAND, lists: LISTS_COMMAND, admin: ADMIN_COMMAND }
    }
}

/// Discord's option kind of an argument type.
fn option_kind(ty: ArgType) -> CommandOptionType {
    match ty.option_kind() {
        OptionKind::Text => CommandOptionType::String,
        OptionKind::Integer => CommandOptionType::Integer,
        OptionKind::Bool => CommandOptionType::Boolean,
    }
}

/// A subcommand of the bot's command definition: its options with their
/// kinds, choices (labels in English with German localizations), and
/// descriptions from the catalog.
fn subcommand(name: &str, spec: &CommandSpec) -> CreateCommandOption {
    let mut sub = CreateCommandOption::new(CommandOptionType::SubCommand, name, spec.describe(Lang::En))
        .description_localized("de", spec.describe(Lang::De));
    for a in spec.args {
        let mut o = CreateCommandOption::new(option_kind(a.ty), a.name, a.ty.expected(Lang::En))
            .description_localized("de", a.ty.expected(Lang::De))
            .required(a.required);
        for ((value, en), (_, de)) in a.ty.choices(Lang::En).into_iter().zip(a.ty.choices(Lang::De)) {
            o = o.add_string_choice_localized(en, value, [("de", de)]);
        }
        if a.ty.autocomplete() {
            o = o.set_autocomplete(true);
        }
        if a.ty == ArgType::Number {
            o = o.min_int_value(1);
        }
        sub = sub.add_sub_option(o);
    }
    sub
}

/// The slash commands to register, generated from the bot's one command
/// definition: `/doko` (public; no `default_member_permissions`, so
/// everyone may use it) and `/doko-rules` (the admin commands; members
/// with Manage Server).
pub fn commands() -> Vec<CreateCommand> {
    let mut public = CreateCommand::new(COMMAND)
        .description(tr!(Lang::En, "slash-public"))
        .description_localized("de", tr!(Lang::De, "slash-public"));
    for (name, spec) in slash_tree(Tree::Public) {
        public = public.add_option(subcommand(name, spec));
    }
    let mut lists = CreateCommand::new(LISTS_COMMAND)
        .description(tr!(Lang::En, "slash-lists"))
        .description_localized("de", tr!(Lang::De, "slash-lists"));
    for (name, spec) in slash_tree(Tree::Lists) {
        lists = lists.add_option(subcommand(name, spec));
    }
    let mut admin = CreateCommand::new(ADMIN_COMMAND)
        .description(tr!(Lang::En, "slash-admin"))
        .description_localized("de", tr!(Lang::De, "slash-admin"))
        .default_member_permissions(Permissions::MANAGE_GUILD);
    for (name, spec) in slash_tree(Tree::Admin) {
        admin = admin.add_option(subcommand(name, spec));
    }
    vec![public, lists, admin]
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
    Actor::new(UserId::new(Platform::DISCORD, user.id.to_string()), name_of(user, member), is_admin(guild, member))
}

/// The actor in a guild's channel belongs to that server, its admin when
/// Discord says they may manage it (the same permission as the channel's
/// admins: a server's channels share its roles).
fn in_guild(actor: Actor, guild: Option<serenity::all::GuildId>) -> Actor {
    match guild {
        Some(g) => {
            let admin = actor.admin;
            actor.in_server(ServerId::new(Platform::DISCORD, g.to_string()), admin)
        }
        None => actor,
    }
}

fn channel(id: serenity::all::ChannelId) -> ChannelId {
    ChannelId::new(Platform::DISCORD, id.to_string())
}

/// The user id a mention names: `<@123>`, or `<@!123>` as older clients
/// write it (spaces around allowed).
fn mentioned(text: &str) -> Option<&str> {
    let id = text.trim().strip_prefix("<@")?.strip_suffix('>')?;
    let id = id.strip_prefix('!').unwrap_or(id);
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
}

fn string_opt(opts: &[CommandDataOption], name: &str) -> Option<String> {
    opts.iter().find(|o| o.name == name).and_then(|o| match &o.value {
        CommandDataOptionValue::String(s) => Some(s.clone()),
        CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
        _ => None,
    })
}

/// The typed options of a subcommand, as the bot's definition reads them;
/// a person mentioned (`<@123>`) is given as the id the mention names.
fn option_values(opts: &[CommandDataOption]) -> Vec<(&str, OptionValue)> {
    opts.iter()
        .filter_map(|o| {
            let v = match &o.value {
                CommandDataOptionValue::String(s) => OptionValue::Text(mentioned(s).unwrap_or(s).to_string()),
                CommandDataOptionValue::Autocomplete { value, .. } => OptionValue::Text(value.clone()),
                CommandDataOptionValue::Integer(n) => OptionValue::Integer(*n),
                CommandDataOptionValue::Boolean(b) => OptionValue::Bool(*b),
                _ => return None,
            };
            Some((o.name.as_str(), v))
        })
        .collect()
}

/// Why an interaction is refused before it reaches the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Refusal {
    NotAdmin,
    NoSubcommand(String),
    UnknownCommand(String),
    UnknownButton,
    Unsupported,
    Parse(ParseError),
}

impl Refusal {
    /// The refusal in a language.
    fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::NotAdmin => tr!(lang, "refused-not-admin"),
            Refusal::NoSubcommand(c) => tr!(lang, "refused-no-subcommand", command = c),
            Refusal::UnknownCommand(c) => tr!(lang, "refused-unknown-command", command = c),
            Refusal::UnknownButton => tr!(lang, "refused-unknown-button"),
            Refusal::Unsupported => tr!(lang, "refused-unsupported"),
            Refusal::Parse(e) => e.message(lang),
        }
    }
}

/// The language of an interaction before its table is known: the
/// server's locale, else the person's (German for `de`, else English).
fn locale_lang(guild_locale: Option<&str>, locale: &str) -> Lang {
    Lang::from_locale(guild_locale.unwrap_or(locale))
}

/// The command of a `/doko` or `/doko-rules` subcommand: the definition's
/// entry for it, its typed options read by the bot's typed parsers.
fn command_of(top: &str, sub: &str, opts: &[CommandDataOption]) -> Result<Command, Refusal> {
    let tree = match top {
        COMMAND => slash_tree(Tree::Public),
        LISTS_COMMAND => slash_tree(Tree::Lists),
        ADMIN_COMMAND => slash_tree(Tree::Admin),
        _ => return Err(Refusal::UnknownCommand(format!("{top} {sub}"))),
    };
    let Some((_, spec)) = tree.into_iter().find(|(n, _)| *n == sub) else {
        return Err(Refusal::UnknownCommand(format!("{top} {sub}")));
    };
    from_options(spec, &option_values(opts)).map_err(Refusal::Parse)
}

fn from_command(ci: &CommandInteraction) -> Inbound {
    let top = ci.data.name.as_str();
    let lang = locale_lang(ci.guild_locale.as_deref(), &ci.locale);
    let refused = |r: Refusal| Inbound::Refused { reason: r.text(lang) };
    let Some(first) = ci.data.options.first() else {
        return refused(Refusal::NoSubcommand(top.to_string()));
    };
    let CommandDataOptionValue::SubCommand(opts) = &first.value else {
        return refused(Refusal::NoSubcommand(top.to_string()));
    };
    let guild = ci.guild_id.is_some();
    let actor = in_guild(actor(&ci.user, ci.member.as_deref(), guild), ci.guild_id);
    if top == ADMIN_COMMAND && !actor.admin {
        // Discord hides the command from others, but the bot checks anyway
        return refused(Refusal::NotAdmin);
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
        Err(r) => refused(r),
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
    let lang = locale_lang(ci.guild_locale.as_deref(), &ci.locale);
    let Some(rest) = id.strip_prefix(BUTTON_PREFIX) else {
        return Inbound::Refused { reason: Refusal::UnknownButton.text(lang) };
    };
    // buttons of earlier versions: `play:CQ`, `poverty:accept`
    let text = match rest.split_once(':') {
        Some(("poverty", step)) => step.to_string(),
        Some((kind, arg)) => format!("{kind} {arg}"),
        None => rest.to_string(),
    };
    let command = doko_bot::parse(&text).map_err(|e| e.message(lang));
    match command {
        Ok(command) => Inbound::Command {
            channel: table.map_or_else(|| channel(ci.channel_id), |t| ChannelId::new(Platform::DISCORD, t)),
            // in a DM there are no guild permissions: never an admin there
            actor: in_guild(actor(&ci.user, ci.member.as_ref(), ci.guild_id.is_some() || table.is_some()), ci.guild_id),
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
                user: UserId::new(Platform::DISCORD, ci.user.id.to_string()),
                prefix,
            }
        }
        Interaction::Component(ci) => from_component(ci),
        _ => Inbound::Refused { reason: Refusal::Unsupported.text(Lang::En) },
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
            Command::Play(card) => Some((c.label.to_string(), card.to_string())),
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
                .label(c.label.as_ref())
                .style(if c.playable { ButtonStyle::Primary } else { ButtonStyle::Secondary })
                .disabled(!c.playable)
        })
        .collect();
    for c in &hand.choices {
        buttons.push(CreateButton::new(button_id(&c.command, ch)).label(c.label.as_ref()).style(ButtonStyle::Success));
    }
    buttons.push(
        CreateButton::new(button_id(&hand.refresh.command, ch))
            .label(hand.refresh.label.as_ref())
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
