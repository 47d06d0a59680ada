//! A player's hand: its text, its model with the legal choices, and the
//! short private answers about it.

use std::borrow::Cow;
use std::fmt::Write;

use doko_engine::{Action, Bid, Card, Cards, HandView, Reservation};

use super::table::push_line;
use crate::lang::Lang;
use crate::{cached_tr, tr};

/// A player's hand and what they may do now, from their hand's view only.
pub fn hand(l: Lang, view: &HandView) -> String {
    hand_text(l, view, &view.sorted_hand(), view.legal_cards())
}

/// A player's hand as text ([`hand`]) and as data for buttons
/// ([`hand_model`]), the hand sorted and its playable cards found once
/// for both.
pub fn hand_with_model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &HandView,
    stamp: String,
) -> (String, crate::outbox::HandModel) {
    let sorted = view.sorted_hand();
    let playable = view.legal_cards();
    (hand_text(l, view, &sorted, playable), model(l, channel, view, stamp, &sorted, playable))
}

/// [`hand`] of a hand sorted and its playable cards.
pub(super) fn hand_text(l: Lang, view: &HandView, sorted: &[Card], playable: Cards) -> String {
    let mut out = String::with_capacity(256);
    let cards = l.cards_marked(sorted.iter().copied(), |c| playable.contains(c));
    push_line(&mut out, &tr!(l, "hand-cards", cards = cards));
    if let Some(p) = view.own_party {
        push_line(&mut out, &cached_tr!(l, "hand-party", party = l.party(p)));
    }
    if let Some((given, returned)) = view.poverty_cards
        && !given.is_empty()
    {
        let _ = writeln!(
            out,
            "{}",
            tr!(l, "hand-poverty-cards", given = l.cards(given.iter()), returned = l.cards(returned.iter()))
        );
    }
    let mut can: Vec<Cow<'static, str>> = Vec::new();
    for a in &view.legal {
        let Some(word) = choice_word(l, a) else { continue };
        if !can.contains(&word) {
            can.push(word);
        }
    }
    if !can.is_empty() {
        push_line(&mut out, &tr!(l, "hand-can", choices = can.join(", ")));
    }
    if !playable.is_empty() {
        push_line(&mut out, &cached_tr!(l, "hand-your-turn"));
    }
    out
}

/// A choice other than a card, as the hand's "You can" line names it.
pub(super) fn choice_word(l: Lang, a: &Action) -> Option<Cow<'static, str>> {
    Some(match a {
        Action::Bid(b) => bid_word(l, *b),
        Action::Announce(c) => l.call(*c),
        Action::Say(d) => cached_tr!(l, "declaration", what = d.name()),
        Action::Genscher(_) => tr!(l, "choice-genscher").into(),
        Action::Answer(true) => cached_tr!(l, "choice-accept"),
        Action::Answer(false) => cached_tr!(l, "choice-decline"),
        Action::Give(c) => tr!(l, "choice-give", n = c.len()).into(),
        Action::Return(c) => tr!(l, "choice-return", n = c.len()).into(),
        Action::Play(_) => return None,
    })
}

pub(super) fn bid_word(l: Lang, b: Bid) -> Cow<'static, str> {
    match b {
        Bid::Healthy => l.bid_said(false),
        // what to type, in the channel's words
        Bid::Reserve(Reservation::Solo { kind, .. }) => tr!(l, "bid-solo-command", kind = kind.key()).into(),
        Bid::Reserve(r) => l.reservation(r),
    }
}

/// A hand as data for platforms with buttons: the cards (a pair once, in
/// the contract's order, playable ones marked) and the choices legal now.
pub fn hand_model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &HandView,
    stamp: String,
) -> crate::outbox::HandModel {
    model(l, channel, view, stamp, &view.sorted_hand(), view.legal_cards())
}

/// [`hand_model`] of a hand sorted and its playable cards.
pub(super) fn model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &HandView,
    stamp: String,
    sorted: &[Card],
    playable: Cards,
) -> crate::outbox::HandModel {
    use crate::command::{Command, PovertyStep};
    use crate::outbox::{CardChoice, Choice, HandModel};
    let mut cards: Vec<CardChoice> = Vec::with_capacity(view.hand.distinct().len());
    let mut shown = doko_engine::Cards::EMPTY;
    for &c in sorted {
        if shown.contains(c) {
            continue; // a pair plays the same
        }
        shown.insert(c);
        cards.push(CardChoice {
            label: Cow::Borrowed(l.card_str(c)),
            playable: playable.contains(c),
            command: Command::Play(c),
        });
    }
    let mut choices: Vec<Choice> = Vec::new();
    for a in &view.legal {
        let (label, command) = match *a {
            Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => {
                (l.solo(kind), Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false })))
            }
            Action::Bid(Bid::Healthy) => (l.bid_said(false), Command::Bid(Bid::Healthy)),
            Action::Bid(b @ Bid::Reserve(r)) => (l.reservation(r), Command::Bid(b)),
            Action::Announce(c) => (l.call(c), Command::Announce(c)),
            Action::Say(d) => (cached_tr!(l, "declaration", what = d.name()), Command::Say(d)),
            Action::Answer(true) => (cached_tr!(l, "choice-accept"), Command::Poverty(PovertyStep::Accept)),
            Action::Answer(false) => (cached_tr!(l, "choice-decline"), Command::Poverty(PovertyStep::Decline)),
            _ => continue,
        };
        if !choices.iter().any(|c| c.command == command) {
            choices.push(Choice { label, command });
        }
    }
    HandModel {
        channel: channel.clone(),
        cards,
        choices,
        refresh: Choice { label: cached_tr!(l, "button-refresh"), command: Command::Hand },
        stamp,
    }
}

/// Said in the channel when a person cannot be reached privately (nothing
/// secret in it).
pub fn unreachable(l: Lang) -> String {
    tr!(l, "unreachable")
}

/// The answer when the table cannot be reached (the store is down); the
/// table's language is unknown then, so both.
pub fn unavailable() -> String {
    format!("{} / {}", tr!(Lang::En, "unavailable"), tr!(Lang::De, "unavailable"))
}

/// The label of the button that opens one's hand.
pub fn hand_label(l: Lang) -> String {
    cached_tr!(l, "button-my-hand").into_owned()
}

/// The words of a mention of the person to act.
pub fn your_turn(l: Lang) -> String {
    cached_tr!(l, "your-turn").into_owned()
}

/// The answer to a delivery that was handled before.
pub fn already_done(l: Lang) -> String {
    tr!(l, "already-done")
}

/// The answer to a click on a hand the deal has moved past.
pub fn stale(l: Lang) -> String {
    tr!(l, "stale-hand")
}
