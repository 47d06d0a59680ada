//! [`deliver`]: the one publishing policy for every platform.

use super::app::App;
use super::table_messages::{Delivered, PostOffice};
use super::{Notice, Outbox, Private, Route, Transport, TransportError};
use crate::ids::{ChannelId, UserId};
use crate::message::Kind;

/// Sends an outbox through a transport, with the one publishing policy for
/// every platform. In the channel, in this order: the answer to the person
/// who gave the command (where the transport shows it there), a deal's
/// result, the table message, edited in place (a new one is posted, and
/// its id kept with the table, when there is none or the edit fails), the
/// other notices and the mention of the person to act. Private messages
/// that go to a place of their own ([`Route::Own`]: a direct room) go out
/// at the same time as the channel's, one stream per person; an answer
/// due first ([`Route::First`]) is sent before anything else. When a
/// person cannot be reached privately the channel is told so, without the
/// secret. A failure of one send does not stop the others.
pub async fn deliver(app: &dyn App, transport: &dyn Transport, out: &Outbox) -> Delivered {
    let post = app.post_office();
    #[cfg(feature = "failpoints")]
    if out.actor.is_some() {
        crate::failpoint::hit("before-answer");
    }
    let mut report = Delivered::default();
    // (the actor answered, but not also by direct message where that was refused)
    let plain: Vec<Private>;
    let actor: Option<(&UserId, Vec<&Private>)> = match &out.actor {
        Some(a) if post.reachable(a) => Some((a, out.private_for(a).collect())),
        Some(a) => {
            plain = without_dm(out.private_for(a));
            Some((a, plain.iter().collect()))
        }
        None => None,
    };
    let mut late = Vec::new();
    let mut streams: Vec<(&UserId, Vec<&Private>, Route)> = Vec::new();
    if let Some((a, msgs)) = actor {
        match transport.route(a, &msgs) {
            Route::First => late.extend(send_private(post, transport, out, a, &msgs, &mut report).await),
            route => streams.push((a, msgs, route)),
        }
    }
    for to in out.recipients() {
        if out.actor.as_ref() == Some(to) {
            continue;
        }
        // (one found out of reach is withheld by `send_private`)
        let msgs: Vec<&Private> = out.private_for(to).collect();
        let route = transport.route(to, &msgs);
        streams.push((to, msgs, route));
    }
    let (in_channel, own): (Vec<_>, Vec<_>) = streams.into_iter().partition(|(_, _, r)| *r == Route::Channel);
    let (channel, own) = futures_util::future::join(
        channel_stream(post, transport, out, &in_channel),
        futures_util::future::join_all(own.iter().map(|(to, msgs, _)| async move {
            let mut report = Delivered::default();
            let unreachable = send_private(post, transport, out, to, msgs, &mut report).await;
            (report, unreachable)
        })),
    )
    .await;
    report.add(&channel);
    for (r, unreachable) in own {
        report.add(&r);
        late.extend(unreachable);
    }
    // the channel told of whoever could not be reached, after its own messages
    for u in late {
        tell_unreachable(transport, out, u).await;
    }
    // sent (or refused by the platform, logged above, and not tried again:
    // a message the platform keeps refusing must not hold up the table)
    if !out.owed.is_empty() {
        #[cfg(feature = "failpoints")]
        crate::failpoint::hit("after-deliver");
        post.delivered(&out.channel, out.owed_salt, &out.owed).await;
    }
    report
}

/// The channel's stream, in order: the actor's answer where it is shown in
/// the channel, the public messages ([`publish`]), then everyone else's
/// private messages that go there.
async fn channel_stream(
    post: &dyn PostOffice,
    transport: &dyn Transport,
    out: &Outbox,
    in_channel: &[(&UserId, Vec<&Private>, Route)],
) -> Delivered {
    let mut report = Delivered::default();
    let is_actor = |to: &UserId| out.actor.as_ref() == Some(to);
    let (before, after): (Vec<_>, Vec<_>) = in_channel.iter().partition(|(to, _, _)| is_actor(to));
    for (to, msgs, _) in before {
        if let Some(u) = send_private(post, transport, out, to, msgs, &mut report).await {
            tell_unreachable(transport, out, u).await;
        }
    }
    publish(post, transport, out, &mut report).await;
    for (to, msgs, _) in after {
        if let Some(u) = send_private(post, transport, out, to, msgs, &mut report).await {
            tell_unreachable(transport, out, u).await;
        }
    }
    report
}

/// The channel's public messages, in order: a deal's result, the table
/// message, the other notices, the mention of the person to act.
async fn publish(post: &dyn PostOffice, transport: &dyn Transport, out: &Outbox, report: &mut Delivered) {
    let ch = &out.channel;
    // a deal's result first, then the next deal's table message
    let (results, notices): (Vec<&Notice>, Vec<&Notice>) = out.notices.iter().partition(|n| n.kind == Kind::Result);
    for n in results {
        post_notice(transport, ch, n, "a result", report).await;
    }
    let newest = match &out.table {
        Some(t) => post.table_messages().publish(post, transport, ch, t, report).await,
        None => false,
    };
    for n in notices {
        post_notice(transport, ch, n, "a notice", report).await;
    }
    if transport.mentions()
        && newest
        && let Some(t) = &out.table
        && let Some(u) = &t.to_act
        && !out.notices.iter().any(|n| n.mention.as_ref() == Some(u))
    {
        let mut n = Notice::new(Kind::Events, t.your_turn.clone(), Some(u.clone()));
        n.key = t.key.as_ref().map(|k| format!("{k}m"));
        post_notice(transport, ch, &n, "the mention", report).await;
    }
}

/// Sends one person their private messages, counted in `report`; the
/// person found out of reach for the first time this deal, whom the
/// channel is to be told about ([`tell_unreachable`]).
async fn send_private(
    post: &dyn PostOffice,
    transport: &dyn Transport,
    out: &Outbox,
    to: &UserId,
    msgs: &[&Private],
    report: &mut Delivered,
) -> Option<UserId> {
    // one send at a time to a person: another outbox's send waits for this
    // one's answer, and is not tried once the person was found out of reach
    let lock = post.private_lock(to);
    let _one = match &lock {
        Some(l) => Some(l.lock().await),
        None => None,
    };
    let plain: Vec<Private>;
    let plain_refs: Vec<&Private>;
    let mut msgs = msgs;
    if !post.reachable(to) {
        if out.actor.as_ref() != Some(to) {
            report.withheld += 1;
            return None;
        }
        // (the actor is answered, without the direct-message copy)
        plain = without_dm(msgs.iter().copied());
        plain_refs = plain.iter().collect();
        msgs = &plain_refs;
    }
    let ch = &out.channel;
    match transport.private(ch, to, msgs).await {
        Ok(()) => report.private += 1,
        Err(TransportError::Unreachable(u)) => {
            report.failed += 1;
            tracing::info!(channel = %ch, "a person cannot be reached privately");
            // once per deal: the table remembers whom it told
            if post.unreachable(ch, &u).await {
                return Some(u);
            }
        }
        Err(e) => {
            report.failed += 1;
            tracing::warn!(error = %e, channel = %ch, "sending a private message failed");
        }
    }
    None
}

/// Private messages without their direct-message copy: how a person found
/// out of reach is answered.
fn without_dm<'a>(msgs: impl Iterator<Item = &'a Private>) -> Vec<Private> {
    msgs.map(|p| Private { dm: false, ..p.clone() }).collect()
}

/// Tells the channel that a person cannot be reached privately (without
/// what was to be sent).
async fn tell_unreachable(transport: &dyn Transport, out: &Outbox, u: UserId) {
    let n = Notice::new(Kind::Error, crate::tr!(out.lang, "unreachable"), Some(u));
    if let Err(e) = transport.notice(&out.channel, &n).await {
        tracing::warn!(error = %e, channel = %out.channel, "posting a notice failed");
    }
}

/// Posts a public notice, counted in `report` (a failure is logged as
/// posting `what`, and the other sends go on).
async fn post_notice(transport: &dyn Transport, ch: &ChannelId, n: &Notice, what: &str, report: &mut Delivered) {
    match transport.notice(ch, n).await {
        Ok(()) => report.notices += 1,
        Err(e) => {
            report.failed += 1;
            tracing::warn!(error = %e, channel = %ch, "posting {what} failed");
        }
    }
}
