//! The adapters' dialects, read from the adapters' own files (the bot
//! knows none): for tests that speak as a platform's people do.

#![allow(dead_code)]

use doko_bot::dialect::Dialect;
use doko_bot::{Lang, Platform, render};

#[path = "../../../adapters/discord/src/dialect.rs"]
pub mod discord;
#[path = "../../../adapters/matrix/src/dialect.rs"]
pub mod matrix;

/// The dialect a platform's adapter gives (the terminal's plain words).
pub fn of(platform: Platform) -> &'static Dialect {
    match platform {
        Platform::Discord => &discord::DIALECT,
        Platform::Matrix => &matrix::DIALECT,
        Platform::Terminal => &Dialect::PLAIN,
    }
}

/// The help as a platform's people read it.
pub fn help_text(l: Lang, topic: Option<&str>, platform: Platform) -> String {
    render::help_text(l, topic, of(platform))
}
