//! A channel whose stored table cannot be read: the table is set aside for
//! the operator (once), and the channel is told what happened until an
//! admin's `reset` starts it afresh.

use super::Service;
use super::error::Damage;
use super::replies::unavailable;
use crate::ids::{Actor, ChannelId};
use crate::outbox::{Notice, Outbox, Private};
use crate::render::Kind;
use crate::store::{Commit, Keep, Quarantined, Store};
use crate::table::Table;
use crate::tr;

impl<S: Store> Service<S> {
    /// Sets a damaged table aside (once per version; not one written by a
    /// newer doko), and logs it without its content.
    pub(super) async fn set_aside(&self, ch: &ChannelId, mut d: Box<Damage>) -> Box<Damage> {
        if d.newer {
            tracing::warn!(channel = %ch, version = d.version, "the table was stored by a newer doko; update this process");
            return d;
        }
        let q = Quarantined {
            channel: ch.key(),
            version: d.version,
            at_ms: self.now_ms(),
            error: std::mem::take(&mut d.error),
            state: std::mem::take(&mut d.state),
        };
        match self.timed(self.store.quarantine(&q)).await {
            Ok(true) => {
                d.fresh = true;
                tracing::error!(channel = %ch, version = d.version, what = %d.what,
                    "a stored table cannot be read: set aside (doko store inspect), the channel waits for an admin's reset");
            }
            Ok(false) => {
                tracing::debug!(channel = %ch, version = d.version, "a stored table cannot be read (set aside before)")
            }
            Err(e) => {
                tracing::warn!(channel = %ch, version = d.version, error = %e, "a damaged table could not be set aside")
            }
        }
        d
    }

    /// Answers a command at a channel whose table cannot be read: an
    /// admin's `reset` starts the table afresh (the damaged one stays set
    /// aside); anything else is told what happened and what to do.
    pub(super) async fn on_damage(&self, ch: &ChannelId, actor: &Actor, d: Box<Damage>, reset: bool) -> Outbox {
        let lang = d.lang.unwrap_or_default();
        let id = format!("{}@{}", ch.key(), d.version);
        let mut out = Outbox::new(ch.clone(), lang);
        out.actor = Some(actor.user.clone());
        let tell = |out: &mut Outbox, text: String, public: bool| {
            if public {
                out.notices.push(Notice::new(Kind::Error, text.clone(), None));
            }
            out.private.push(Private::new(actor.user.clone(), Kind::Error, text));
        };
        if d.newer {
            tell(&mut out, tr!(lang, "table-newer"), false);
            return out;
        }
        if reset && actor.admin && !actor.direct {
            return self.reset_damaged(ch, actor, &d, out).await;
        }
        tell(&mut out, tr!(lang, "table-damaged", id = id), d.fresh);
        out
    }

    /// An admin's `reset` at a damaged table: a new table in its place, in
    /// the channel's language, told in `out`.
    async fn reset_damaged(&self, ch: &ChannelId, actor: &Actor, d: &Damage, mut out: Outbox) -> Outbox {
        let lang = d.lang.unwrap_or_default();
        let id = format!("{}@{}", ch.key(), d.version);
        let fresh = Table::with_lang(lang);
        let json = match serde_json::to_string(&fresh) {
            Ok(j) => j,
            Err(_) => return unavailable(ch, &actor.user),
        };
        self.tables.forget(ch);
        match self.timed(self.store.commit_kept(ch, d.version, &json, &[], Keep::default())).await {
            Ok(Commit::Done(_)) => {
                tracing::info!(channel = %ch, version = d.version, "a damaged table was replaced by a new one");
                out.notices.push(Notice::new(Kind::Events, tr!(lang, "table-damaged-reset", id = id), None));
                out
            }
            // changed meanwhile (another admin's reset): say it again
            Ok(Commit::Conflict) | Err(_) => unavailable(ch, &actor.user),
        }
    }
}
