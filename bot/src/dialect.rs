//! What a platform's people type and read in their platform's own way:
//! how they start commands (for the usage lines of help), how a typed
//! mention of a person looks, and how a channel is named in a message.
//! The bot knows no platform's dialect: each adapter gives its own with
//! the [`Actor`](crate::ids::Actor) it hands the bot, and a person
//! without one gets [`Dialect::PLAIN`].

/// How a platform's people start commands, for the usage lines of help.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HelpStyle<'a> {
    /// Typed text after a prefix (`!doko play CARD`; an empty prefix on a
    /// terminal).
    Text(&'a str),
    /// Slash commands: the public command's name, the lists' and the
    /// admins' (`/doko play CARD`, `/doko-lists me`, `/doko-rules set KEY
    /// VALUE`).
    Slash {
        /// The public command.
        public: &'a str,
        /// The lists' command.
        lists: &'a str,
        /// The admins' command.
        admin: &'a str,
    },
}

/// A platform's dialect (see the module's documentation).
#[derive(Copy, Clone, Debug)]
pub struct Dialect {
    /// The help's usage lines.
    pub help: HelpStyle<'static>,
    /// The platform id a typed mention names, read from the text trimmed
    /// and in lowercase (`None`: the text is no mention). A person is
    /// named by their bare id and their name on every platform besides.
    pub mention: fn(&str) -> Option<&str>,
    /// How a channel of the platform, by its platform id, is named in a
    /// message to the platform's people.
    pub channel_label: fn(&str) -> String,
}

impl Dialect {
    /// Plain words: commands without a prefix, no mention syntax, a
    /// channel by its id.
    pub const PLAIN: Dialect = Dialect { help: HelpStyle::Text(""), mention: no_mention, channel_label: bare_id };
}

impl PartialEq for Dialect {
    fn eq(&self, other: &Dialect) -> bool {
        self.help == other.help
            && std::ptr::fn_addr_eq(self.mention, other.mention)
            && std::ptr::fn_addr_eq(self.channel_label, other.channel_label)
    }
}

impl Eq for Dialect {}

/// A dialect without mention syntax: no text is a mention.
pub fn no_mention(_: &str) -> Option<&str> {
    None
}

/// A channel named by its platform id.
pub fn bare_id(id: &str) -> String {
    id.to_string()
}
