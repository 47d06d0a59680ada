//! An outbox cut into each channel's part at a table shared across
//! channels (`link`): each gets the table message with its own message id,
//! the notices and private messages of its platform, and the answer only
//! where the command was given.

use crate::ids::{ChannelId, UserId};
use crate::outbox::Outbox;
use crate::render::Kind;
use crate::table::Table;

/// What each channel of a shared table (`link`) gets of an outbox made for
/// `asked` (the channel the command or turn clock came through): the
/// outbox for `asked`, with the others' in [`Outbox::relay`]. A table of
/// one channel: the outbox as it is.
pub(super) fn route(out: Outbox, t: &Table, home: &ChannelId, asked: &ChannelId) -> Outbox {
    if (t.links().next().is_none() && home == asked) || out.duplicate || out.unavailable {
        return out;
    }
    let channels: Vec<ChannelId> = std::iter::once(home.clone()).chain(t.links().cloned()).collect();
    if !channels.contains(asked) {
        return out;
    }
    let mut main = part(&out, t, &channels, asked, asked);
    // (a part with nothing to send that marks owed entries delivered goes
    // all the same)
    main.relay = channels
        .iter()
        .filter(|c| *c != asked)
        .map(|c| part(&out, t, &channels, c, asked))
        .filter(|p| !p.is_empty() || !p.owed.is_empty())
        .collect();
    main
}

/// One channel's part of an outbox at a shared table: the table message
/// with that channel's message id; notices (a mention of a person of
/// another platform left out, the prompt to them dropped); the private
/// messages of the people of its platform (their hands acting here); the
/// answer to the person who gave the command only where they gave it.
pub(super) fn part(out: &Outbox, t: &Table, channels: &[ChannelId], x: &ChannelId, asked: &ChannelId) -> Outbox {
    let home = &channels[0];
    let mut o = out.clone();
    o.relay.clear();
    o.channel = x.clone();
    let via = (x != home).then_some(x);
    if let Some(tm) = &mut o.table {
        tm.display = t.display_for(via).cloned();
        // (a commit claims the posting of the home's message only: a
        // linked channel's message is claimed when it is delivered)
        tm.claimed &= via.is_none();
        if channels.len() > 1 {
            tm.home = home.key();
        }
        if tm.to_act.as_ref().is_some_and(|u| u.platform != x.platform) {
            tm.to_act = None;
        }
    }
    o.notices.retain_mut(|n| match &n.mention {
        Some(u) if u.platform != x.platform => {
            n.mention = None;
            n.kind != Kind::Events
        }
        _ => true,
    });
    // (people of a platform no channel of the table is on: at the home)
    let here =
        |u: &UserId| u.platform == x.platform || (x == home && !channels.iter().any(|c| c.platform == u.platform));
    o.private.retain(|p| here(&p.to));
    for p in &mut o.private {
        if let Some(h) = &mut p.hand {
            h.channel = x.clone();
        }
    }
    if x != asked {
        o.actor = None;
        o.duplicate = false;
        o.unavailable = false;
    }
    o
}
