//! The coach's advice (`hint`), for the player who asked only.

use doko_engine::Action;
use doko_players::coach::{Advice, Role, Why};

use super::hand::choice_word;
use crate::lang::Lang;
use crate::tr;

/// The advice as one line: the expert's choice and why (a card's role in
/// the trick, or the chance its side won with it in the simulated deals).
pub fn advice(l: Lang, a: &Advice) -> String {
    let why = why_text(l, a.why);
    match a.action {
        Action::Play(card) => tr!(l, "hint-card", card = l.card(card), why = why),
        other => {
            let what = choice_word(l, &other).map(|w| w.into_owned()).unwrap_or_default();
            tr!(l, "hint-choice", choice = what, why = why)
        }
    }
}

/// Why a choice, as the coach and the analysis say it.
pub(super) fn why_text(l: Lang, why: Why) -> String {
    match why {
        Why::Card(role) => role_text(l, role),
        Why::Chance { percent, deals } => tr!(l, "hint-why-chance", percent = percent, deals = deals),
    }
}

/// A card's role in its trick, as the coach and the analysis name it.
fn role_text(l: Lang, role: Role) -> String {
    match role {
        Role::PullTrumps => tr!(l, "hint-why-pull-trumps"),
        Role::LeadAce => tr!(l, "hint-why-lead-ace"),
        Role::LeadSuit => tr!(l, "hint-why-lead-suit"),
        Role::SaveFox => tr!(l, "hint-why-save-fox"),
        Role::Smear => tr!(l, "hint-why-smear"),
        Role::Follow => tr!(l, "hint-why-follow"),
        Role::Ruff => tr!(l, "hint-why-ruff"),
        Role::Discard => tr!(l, "hint-why-discard"),
    }
}
