//! Sharing one table across channels (`link`, `link CODE`, `unlink`): the
//! code made at the home table, the channel that joins with it, and the
//! channels an `unlink` gives their own tables back.

use super::Service;
use super::compose::table_message;
use super::error::ServiceError;
use super::parts::{part, route};
use super::replies::refused;
use super::unconfirmed::Idempotence;
use crate::ids::{Actor, ChannelId, Platform};
use crate::lang::Lang;
use crate::outbox::{Notice, Outbox, Private};
use crate::render::{self, Kind};
use crate::store::{Commit, Keep, Store};
use crate::table::{CommandError, Event, Table};
use crate::tr;

impl<S: Store> Service<S> {
    /// `link` (no code): the code made at the table, stored where the
    /// other channel's `link CODE` finds the table, and told to the admin
    /// who asked only.
    pub(super) async fn link_code(
        &self,
        home: &ChannelId,
        t: &Table,
        actor: &Actor,
        seqs: Vec<u64>,
    ) -> Result<Outbox, ServiceError> {
        let l = t.lang();
        let code = t.link_code(self.now_ms()).map(|c| c.code.clone()).ok_or(ServiceError::Contention)?;
        let key = ChannelId::link_code(home.platform, &code);
        let json = serde_json::to_string(home)?;
        let version = self.timed(self.store.version(&key)).await?;
        let keep = Keep { durable: false, records: 0 };
        if let Commit::Conflict = self.timed(self.store.commit_kept(&key, version, &json, &[], keep)).await? {
            return Err(ServiceError::Contention);
        }
        tracing::info!(channel = %home, "a link code was made");
        let mut out = Outbox::new(home.clone(), l);
        out.actor = Some(actor.user.clone());
        out.owed = seqs;
        let minutes = crate::table::LINK_CODE_MS / 60_000;
        let text = tr!(l, "link-code", code = code.as_str(), minutes = minutes);
        // (a code is for the admin who asked: never in the channel)
        out.private.push(Private { confidential: true, ..Private::new(actor.user.clone(), Kind::Help, text) });
        Ok(out)
    }

    /// `link CODE` in `ch`: the table the code was made at takes the
    /// channel (the code is used up), then the channel shares it; both
    /// channels are told, and `ch` gets the table message. Made again, it
    /// changes nothing made already.
    pub(super) async fn link_join(
        &self,
        ch: &ChannelId,
        (routed, lang): (&ChannelId, Lang),
        actor: &Actor,
        code: &str,
        seqs: Vec<u64>,
    ) -> Result<Outbox, ServiceError> {
        let refuse = |e: CommandError| {
            let mut out = refused(ch, &actor.user, render::error(lang, &e));
            out.lang = lang;
            out.owed = seqs.clone();
            Ok(out)
        };
        if routed != ch {
            // (already sharing a table: a code, right or wrong, changes
            // nothing)
            return refuse(CommandError::LinkedElsewhere);
        }
        let Some(home) = self.home_of_code(ch, code).await? else { return refuse(CommandError::NoLinkCode) };
        let (t, made) = match self.join_home(ch, &home, code).await? {
            Ok(joined) => joined,
            Err(e) => return refuse(e),
        };
        self.aliases.lock().expect("lock").insert(ch.clone(), home.clone());
        if made {
            tracing::info!(channel = %ch, home = %home, "a channel now shares a table");
        }
        // (what the channel's own table owed is its own: not the home's
        // entries of the same numbers)
        drop(seqs);
        Ok(linked(ch, &home, &t, actor))
    }

    /// The table a link code was made at: on another platform than `ch`'s.
    async fn home_of_code(&self, ch: &ChannelId, code: &str) -> Result<Option<ChannelId>, ServiceError> {
        for p in Platform::known().into_iter().filter(|p| *p != ch.platform) {
            if let Some(s) = self.timed(self.store.load(&ChannelId::link_code(p, code))).await?
                && let Ok(h) = serde_json::from_str::<ChannelId>(&s.json)
            {
                return Ok(Some(h));
            }
        }
        Ok(None)
    }

    /// Links `ch` to `home` with the code typed: the home's table and
    /// whether the link was made now, or why it is refused.
    async fn join_home(
        &self,
        ch: &ChannelId,
        home: &ChannelId,
        code: &str,
    ) -> Result<Result<(std::sync::Arc<Table>, bool), CommandError>, ServiceError> {
        let now = self.now_ms();
        // the channel points at the home first: a crash before the home
        // takes it leaves the channel its own table (the home does not
        // list it), and the same code can be typed again
        let h = home.clone();
        let (_, pointed) = self
            .transact_key(ch, Idempotence::SafeToRepeat, move |t, _, _| {
                if t.linked_to() == Some(&h) {
                    return (Ok(()), false);
                }
                if t.linked_to().is_some() || t.links().next().is_some() {
                    return (Err(CommandError::LinkedElsewhere), false);
                }
                (Ok(()), t.set_linked_to(Some(h.clone()), now))
            })
            .await?;
        if let Err(e) = pointed {
            return Ok(Err(e));
        }
        let (h, c, typed) = (home.clone(), ch.clone(), code.to_string());
        let (t, r) = self
            .transact_key(home, Idempotence::SafeToRepeat, move |t, _, _| match t.accept_link(&h, &c, &typed, now) {
                Ok(changed) => (Ok(changed), changed),
                Err(e) => (Err(e), false),
            })
            .await?;
        match r {
            Ok(made) => Ok(Ok((t, made))),
            Err(e) => {
                let h = home.clone();
                self.transact_key(ch, Idempotence::SafeToRepeat, move |t, _, _| {
                    let mine = t.linked_to() == Some(&h);
                    ((), mine && t.set_linked_to(None, now))
                })
                .await?;
                Ok(Err(e))
            }
        }
    }

    /// After `unlink`: the channels it dropped are their own tables again
    /// and are told so; the home's table message says it. The answer goes
    /// where the command was given.
    pub(super) async fn unlinked(
        &self,
        ch: &ChannelId,
        home: &ChannelId,
        t: &Table,
        actor: &Actor,
        events: &[Event],
        out: Outbox,
    ) -> Result<Outbox, ServiceError> {
        let gone: Vec<ChannelId> = events
            .iter()
            .find_map(|e| match e {
                Event::Unlinked(g) => Some(g.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let l = t.lang();
        let mut parts = Vec::new();
        for g in &gone {
            let h = home.clone();
            let r = self
                .transact_key(g, Idempotence::SafeToRepeat, move |t, ctx, _| {
                    let mine = t.linked_to() == Some(&h);
                    (mine, mine && t.set_linked_to(None, ctx.now_ms))
                })
                .await;
            if let Err(e) = r {
                // (its next command finds the home without it: its own table)
                tracing::warn!(channel = %g, error = %e, "a channel unlinked could not be told so");
            }
            self.aliases.lock().expect("lock").remove(g);
            tracing::info!(channel = %g, home = %home, "a channel no longer shares a table");
            let mut o = Outbox::new(g.clone(), l);
            let text = tr!(l, "link-ended", other = crate::server::foreign_label(l, home));
            o.notices.push(Notice::new(Kind::Help, text, None));
            parts.push(o);
        }
        let mut main = part(&out, t, std::slice::from_ref(home), home, home);
        match parts.iter().position(|p| &p.channel == ch) {
            Some(i) => {
                let mut mine = parts.remove(i);
                mine.actor = Some(actor.user.clone());
                main.actor = None;
                mine.relay.push(main);
                mine.relay.extend(parts);
                Ok(mine)
            }
            None => {
                main.relay.extend(parts);
                Ok(main)
            }
        }
    }
}

/// What a channel that now shares `home`'s table is told, with the table
/// message; the home's channels are told too.
fn linked(ch: &ChannelId, home: &ChannelId, t: &Table, actor: &Actor) -> Outbox {
    let l = t.lang();
    let mut base = Outbox::new(home.clone(), l);
    base.table = Some(table_message(t, &[]));
    let mut out = route(base, t, home, ch);
    out.actor = Some(actor.user.clone());
    let text = tr!(l, "link-done", other = crate::server::foreign_label(l, home));
    out.notices.push(Notice::new(Kind::Help, text, None));
    for o in &mut out.relay {
        let text = tr!(l, "link-done", other = crate::server::foreign_label(l, ch));
        o.notices.push(Notice::new(Kind::Help, text, None));
    }
    out
}
