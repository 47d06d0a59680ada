//! The answers read from the store beyond the table: a deal's record, its
//! analysis, a server's leaderboard and one's own figures across the
//! server's tables. They are never part of what a change owes.

use super::Service;
use super::compose::compose;
use super::error::ServiceError;
use super::replies::private;
use super::stored::read_stored;
use crate::command::{Command, Period};
use crate::ids::{Actor, ChannelId, ServerId, UserId};
use crate::outbox::{Notice, Outbox, Private};
use crate::render::{self, Kind};
use crate::store::Store;
use crate::table::{Event, Table};
use crate::tr;

impl<S: Store> Service<S> {
    /// What a command owes: the answer to the person, the table message
    /// when something happened (or the table was asked for), the hands.
    pub(super) async fn outbox(
        &self,
        ch: &ChannelId,
        home: &ChannelId,
        t: &Table,
        actor: &Actor,
        cmd: &Command,
        events: &[Event],
    ) -> Result<Outbox, ServiceError> {
        let mut out = compose(ch, self.dialect(ch.platform), t, &actor.user, cmd, events);
        self.queries(home, t, actor, cmd, &mut out).await?;
        Ok(out)
    }

    /// The answers read from the store beyond the table: a record, a
    /// server's leaderboard, one's own figures.
    pub(super) async fn queries(
        &self,
        ch: &ChannelId,
        t: &Table,
        actor: &Actor,
        cmd: &Command,
        out: &mut Outbox,
    ) -> Result<(), ServiceError> {
        match cmd {
            Command::Record(n) => self.record_answer(ch, t, &actor.user, *n, out).await,
            Command::Analysis(n) => self.analysis_answer(ch, t, &actor.user, *n, out).await,
            Command::Leaderboard(p) => {
                let (server, tables) = self.community(ch, t).await?;
                let month = crate::table::month_of(self.now_ms());
                let (all, this_month) = merged(&tables, &month);
                let stats = if *p == Period::Month { &this_month } else { &all };
                let period = (*p == Period::Month).then_some(month.as_str());
                let text = render::leaderboard(t.lang(), server, period, tables.len(), &render::ranking(stats));
                out.notices.push(Notice::new(Kind::Stats, text, None));
                Ok(())
            }
            Command::Me => {
                let (server, tables) = self.community(ch, t).await?;
                let month = crate::table::month_of(self.now_ms());
                let link = |c: &ChannelId| self.dialect(c.platform).channel_link(&c.id);
                let text = me_text(ch, t, &actor.user, server, &tables, &month, &link);
                // one's own figures go where only they can read them (a
                // direct room on Matrix), held or not
                out.private.push(Private { confidential: true, ..private(t, &actor.user, Kind::Stats, text) });
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The tables a leaderboard spans: every table of the server this
    /// one belongs to (this one as it is now), or this one alone; and
    /// whether it is a server's. A table that cannot be read is left out
    /// (and logged).
    pub(super) async fn community(
        &self,
        ch: &ChannelId,
        t: &Table,
    ) -> Result<(bool, Vec<(ChannelId, Table)>), ServiceError> {
        let mut out = vec![(ch.clone(), t.clone())];
        let Some(sid) = t.server().and_then(|s| ServerId::from_key(&s.id)) else { return Ok((false, out)) };
        let (settings, _) = self.server_settings(&sid).await?;
        for other in settings.channel_ids() {
            if &other == ch {
                continue;
            }
            let stored = match self.timed(self.store.load(&other)).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(channel = %other, error = %e, "a table of the server cannot be loaded");
                    None
                }
            };
            if let Some(stored) = stored {
                match read_stored(Some(stored), &self.new_tables) {
                    // (a channel that moved to another server counts there)
                    Ok((table, _)) if table.server().is_some_and(|s| s.id == sid.to_string()) => {
                        out.push((other, table))
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(channel = %other, error = %e, "a table of the server cannot be read"),
                }
            }
        }
        Ok((true, out))
    }

    /// A record asked for, as the person's answer (records are read from
    /// the store, so they are not part of what a change owes).
    async fn record_answer(
        &self,
        ch: &ChannelId,
        t: &Table,
        me: &UserId,
        n: Option<u32>,
        out: &mut Outbox,
    ) -> Result<(), ServiceError> {
        let n = n.unwrap_or(t.records());
        let text = match self.timed(self.store.record(ch, n)).await? {
            // kept compact, handed out as `doko-record/1` (what `doko
            // replay` reads); one that cannot be read is handed out as kept
            Some(r) => doko_engine::Record::from_stored(&r).map_or(r, |rec| rec.to_json()),
            None => tr!(t.lang(), "no-such-record"),
        };
        out.private.insert(0, private(t, me, Kind::Record, text));
        Ok(())
    }

    /// `analysis`: the person's card choices in their newest recorded deal
    /// (or record `n`) examined again from their own view, on a blocking
    /// thread; the same deal gives the same answer (seeded by it).
    async fn analysis_answer(
        &self,
        ch: &ChannelId,
        t: &Table,
        me: &UserId,
        n: Option<u32>,
        out: &mut Outbox,
    ) -> Result<(), ServiceError> {
        let l = t.lang();
        let text = match t.analysable(me, n) {
            Err(e) => render::error(l, &e),
            Ok((number, seat)) => match self.timed(self.store.record(ch, number)).await? {
                Some(r) => match doko_engine::Record::from_stored(&r) {
                    Ok(rec) => {
                        let seed = u64::from(number) << 8 | seat.index() as u64;
                        let cfg = doko_players::analysis::AnalysisConfig::default();
                        let a = tokio::task::spawn_blocking(move || {
                            doko_players::analysis::analyse(&rec, seat, &cfg, seed)
                        })
                        .await
                        .map_err(|e| ServiceError::Failed(e.to_string()))?;
                        render::analysis(l, number, &a)
                    }
                    Err(_) => tr!(l, "no-such-record"),
                },
                None => tr!(l, "no-such-record"),
            },
        };
        out.private.insert(0, private(t, me, Kind::Record, text));
        Ok(())
    }
}

/// The figures of `tables` together: all time, and in `month`
/// (`2026-12`).
pub(super) fn merged(tables: &[(ChannelId, Table)], month: &str) -> (crate::table::Stats, crate::table::Stats) {
    let mut all = crate::table::Stats::default();
    let mut this_month = crate::table::Stats::default();
    for (_, x) in tables {
        all.merge(x.stats());
        if let Some(m) = x.month_stats(month) {
            this_month.merge(m);
        }
    }
    (all, this_month)
}

/// `me`: a person's figures over the tables of their server (or this
/// one), their rank all time and this month, and their latest lists.
/// `link` writes another channel as its platform links it.
fn me_text(
    ch: &ChannelId,
    t: &Table,
    me: &UserId,
    server: bool,
    tables: &[(ChannelId, Table)],
    month: &str,
    link: &dyn Fn(&ChannelId) -> String,
) -> String {
    let key = me.key();
    let (all, this_month) = merged(tables, month);
    let place = |s: &crate::table::Stats| {
        let rows = render::ranking(s);
        let i = rows.iter().position(|r| r.key == key)?;
        Some((rows[i].stats.clone(), rows[i].place, rows.len()))
    };
    let a = place(&all);
    let m = place(&this_month);
    let lists = latest_lists(ch, &key, tables, link);
    render::me(
        t.lang(),
        server,
        month,
        a.as_ref().map(|(s, r, o)| (s, *r, *o)),
        m.as_ref().map(|(s, r, o)| (s, *r, *o)),
        &lists,
    )
}

/// The five latest lists the person (by `key`) played in at `tables`,
/// newest first; a list of another channel than `ch` names it.
fn latest_lists(
    ch: &ChannelId,
    key: &str,
    tables: &[(ChannelId, Table)],
    link: &dyn Fn(&ChannelId) -> String,
) -> Vec<render::MyList> {
    let mut lists: Vec<render::MyList> = Vec::new();
    for (c, x) in tables {
        for s in x.history().iter().chain(x.session()) {
            let Some(p) = s.players().position(|k| k.as_str() == key) else { continue };
            if s.sheet().is_empty() {
                continue;
            }
            let points = s.totals()[p];
            let place = 1 + s.totals().iter().filter(|v| **v > points).count();
            lists.push(render::MyList {
                channel: (c != ch).then(|| link(c)),
                number: s.number(),
                started_ms: s.started_ms(),
                deals: s.sheet().len(),
                points,
                place: (place, s.totals().len()),
            });
        }
    }
    lists.sort_by(|a, b| b.started_ms.cmp(&a.started_ms).then(b.number.cmp(&a.number)));
    lists.truncate(5);
    lists
}
