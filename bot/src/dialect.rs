//! What differs in how platforms write things the bot says: a link to a
//! channel, and the commands as a platform offers them (typed words after
//! a prefix, or slash commands of the platform's names). Each adapter
//! gives its own [`Dialect`] and the binary registers it with the service
//! ([`crate::service::Service::speaking`]); a platform with none is
//! written plainly ([`Plain`]), so a new platform needs nothing here.

use crate::command::HelpStyle;

/// How a platform writes channel links and names commands.
pub trait Dialect: Send + Sync {
    /// A channel of this platform as people can follow it in a message
    /// (a mention, a link); by default its id.
    fn channel_link(&self, id: &str) -> String {
        id.to_string()
    }

    /// How the help names the commands; by default the words alone, as a
    /// terminal takes them.
    fn help_style(&self) -> HelpStyle<'static> {
        HelpStyle::Text("")
    }
}

/// A platform that writes channels as their ids and commands as words.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl Dialect for Plain {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_platform_without_a_dialect_is_written_plainly() {
        assert_eq!(Plain.channel_link("!room:example.org"), "!room:example.org");
        assert!(matches!(Plain.help_style(), HelpStyle::Text("")));
    }
}
