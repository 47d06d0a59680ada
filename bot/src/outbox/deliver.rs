//! [`deliver`]: the one publishing policy for every platform.

use super::app::App;
use super::table_messages::{Delivered, PostOffice};
use super::{Notice, Outbox, Private, Transport, TransportError};
use crate::ids::{ChannelId, UserId};
use crate::message::Kind;

/// Sends an outbox through a transport, with the one policy for every
/// platform: first the answer to the person who gave the command; then the
/// table message, edited in place (a new one is posted, and its id kept
/// with the table, when there is none or the edit fails); then notices,
/// the mention of the person to act, and everyone else's private messages.
/// When a person cannot be reached privately the channel is told so,
/// without the secret. A failure of one send does not stop the others.
pub async fn deliver(app: &dyn App, transport: &dyn Transport, out: &Outbox) -> Delivered {
    let post = app.post_office();
    let ch = &out.channel;
    let mut report = Delivered::default();
    #[cfg(feature = "failpoints")]
    if out.actor.is_some() {
        crate::failpoint::hit("before-answer");
    }
    if let Some(actor) = &out.actor {
        // (answered, but not also by direct message where that was refused)
        let plain: Vec<Private>;
        let msgs: Vec<&Private> = if post.reachable(actor) {
            out.private_for(actor).collect()
        } else {
            plain = out.private_for(actor).map(|p| Private { dm: false, ..p.clone() }).collect();
            plain.iter().collect()
        };
        send_private(post, transport, out, actor, &msgs, &mut report).await;
    }
    // a deal's result first, then the next deal's table message
    let (results, notices): (Vec<&Notice>, Vec<&Notice>) = out.notices.iter().partition(|n| n.kind == Kind::Result);
    for n in results {
        post_notice(transport, ch, n, "a result", &mut report).await;
    }
    let newest = match &out.table {
        Some(t) => post.table_messages().publish(post, transport, ch, t, &mut report).await,
        None => false,
    };
    for n in notices {
        post_notice(transport, ch, n, "a notice", &mut report).await;
    }
    if transport.mentions()
        && newest
        && let Some(t) = &out.table
        && let Some(u) = &t.to_act
        && !out.notices.iter().any(|n| n.mention.as_ref() == Some(u))
    {
        let mut n = Notice::new(Kind::Events, t.your_turn.clone(), Some(u.clone()));
        n.key = t.key.as_ref().map(|k| format!("{k}m"));
        post_notice(transport, ch, &n, "the mention", &mut report).await;
    }
    for to in out.recipients() {
        if out.actor.as_ref() == Some(to) {
            continue;
        }
        if !post.reachable(to) {
            report.withheld += 1;
            continue;
        }
        let msgs: Vec<&Private> = out.private_for(to).collect();
        send_private(post, transport, out, to, &msgs, &mut report).await;
    }
    // sent (or refused by the platform, logged above, and not tried again:
    // a message the platform keeps refusing must not hold up the table)
    if !out.owed.is_empty() {
        #[cfg(feature = "failpoints")]
        crate::failpoint::hit("after-deliver");
        post.delivered(ch, out.owed_salt, &out.owed).await;
    }
    report
}

async fn send_private(
    post: &dyn PostOffice,
    transport: &dyn Transport,
    out: &Outbox,
    to: &UserId,
    msgs: &[&Private],
    report: &mut Delivered,
) {
    let ch = &out.channel;
    match transport.private(ch, to, msgs).await {
        Ok(()) => report.private += 1,
        Err(TransportError::Unreachable(u)) => {
            report.failed += 1;
            tracing::info!(channel = %ch, "a person cannot be reached privately");
            // once per deal: the table remembers whom it told
            if post.unreachable(ch, &u).await {
                let n = Notice::new(Kind::Error, crate::tr!(out.lang, "unreachable"), Some(u));
                if let Err(e) = transport.notice(ch, &n).await {
                    tracing::warn!(error = %e, channel = %ch, "posting a notice failed");
                }
            }
        }
        Err(e) => {
            report.failed += 1;
            tracing::warn!(error = %e, channel = %ch, "sending a private message failed");
        }
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
