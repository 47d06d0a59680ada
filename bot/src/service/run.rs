//! The runner of a command let in: it applies the command in the table's
//! transaction (joining the channel to its server first when needed),
//! counts it, and turns what happened into the answer each channel gets.

use std::sync::Arc;

use tracing::{Instrument, info_span};

use super::Service;
use super::apply::{Applied, Request, apply};
use super::compose::{compose, hand_private, table_message};
use super::error::ServiceError;
use super::parts::route;
use super::replies::{private, restarting};
use super::unconfirmed::Idempotence;
use crate::authority::CommandKind;
use crate::command::Command;
use crate::ids::{Actor, ChannelId};
use crate::outbox::Outbox;
use crate::render::{self, Kind};
use crate::store::Store;
use crate::table::{Event, ServerLayer, Table};

/// A command as given: where, by whom, what, its delivery id and the stamp
/// of the hand it was clicked on.
pub(super) struct Given<'a> {
    /// The channel it was given in.
    pub(super) ch: &'a ChannelId,
    /// Who gave it.
    pub(super) actor: &'a Actor,
    /// The command.
    pub(super) cmd: Command,
    /// Its delivery id, if the platform gave one.
    pub(super) delivery: Option<&'a str>,
    /// The stamp of the hand it was clicked on, if it was.
    pub(super) clicked: Option<&'a str>,
}

impl<S: Store> Service<S> {
    /// Executes a command (within the rate limits: see [`Service::admit`]).
    pub(super) async fn run(&self, given: Given<'_>) -> Result<Outbox, ServiceError> {
        let (ch, actor, delivery) = (given.ch, given.actor, given.delivery);
        // (no card in any field: the command's kind only)
        let kind = CommandKind::of(&given.cmd).name();
        let Some(_in_flight) = self.gate.enter() else {
            crate::metrics::command(kind, "closing", 0.0);
            return Ok(restarting(ch, &actor.user));
        };
        let span =
            info_span!("command", channel = %ch, user = %actor.user, command = kind, delivery = delivery.unwrap_or(""));
        let started = std::time::Instant::now();
        crate::metrics::touched(ch);
        let mut outcome = "error";
        let r = async {
            let page = self.page_offer();
            let (home, table, applied) = self.apply_routed(&given, page.as_ref()).await?;
            outcome = applied.outcome();
            if let Applied::Done { .. } = applied {
                let asked = matches!(given.cmd, Command::Web { .. });
                self.keep_page_key(&home, &table, page.as_ref(), asked).await;
            }
            self.answer(&given, &home, &table, applied).await
        }
        .instrument(span)
        .await;
        crate::metrics::command(kind, outcome, started.elapsed().as_secs_f64());
        r
    }

    /// Applies a command at the table its channel shows; a channel new to
    /// its server joins it first (once), with the server's defaults.
    async fn apply_routed(
        &self,
        given: &Given<'_>,
        page: Option<&crate::table::PageLink>,
    ) -> Result<(ChannelId, Arc<Table>, Applied), ServiceError> {
        let (ch, actor) = (given.ch, given.actor);
        let now = self.now_ms();
        // the server's defaults, fetched when the table does not know the
        // server the command comes from (once per channel), and whether
        // the channel is known to belong to the server
        let mut joined: Option<(ServerLayer, bool)> = match &actor.server {
            Some(sid) => self.fresh_layer(sid).await.map(|l| (l, false)),
            None => None,
        };
        loop {
            let request = Request {
                chan: ch.clone(),
                who: actor.clone(),
                what: given.cmd.clone(),
                id: given.delivery.map(str::to_string),
                clicked: given.clicked.map(str::to_string),
                server: joined.clone(),
                durable: self.durable,
                now,
                dialect: self.dialect(ch.platform),
                strong: self.strong,
                page: page.cloned(),
            };
            let idempotence = match &request.id {
                Some(id) => Idempotence::ByDeliveryId(id.clone()),
                None => Idempotence::NotIdempotent,
            };
            let r = self.routed(ch, idempotence, move |table, ctx, bots| apply(&request, table, ctx, bots)).await?;
            match (&r.2, &actor.server) {
                (Applied::NeedsServer, Some(sid)) if !joined.as_ref().is_some_and(|(_, j)| *j) => {
                    joined = Some((self.join_server(ch, sid).await?, true));
                }
                (Applied::NeedsServer, _) => return Err(ServiceError::Failed("the server's defaults".into())),
                _ => return Ok(r),
            }
        }
    }

    /// The answer to a command from what it did at the table shown at
    /// `home`, cut into each linked channel's part.
    async fn answer(
        &self,
        given: &Given<'_>,
        home: &ChannelId,
        table: &Table,
        applied: Applied,
    ) -> Result<Outbox, ServiceError> {
        let (ch, actor, cmd) = (given.ch, given.actor, &given.cmd);
        let out = match applied {
            Applied::NeedsServer => return Err(ServiceError::Failed("the server's defaults".into())),
            Applied::Duplicate(None) if matches!(cmd, Command::Link(Some(_))) => {
                // made again: nothing made twice
                let Command::Link(Some(code)) = cmd else { unreachable!() };
                return self.link_join(ch, (home, table.lang()), actor, code, Vec::new()).await;
            }
            Applied::Duplicate(None) if matches!(cmd, Command::Server(_)) => {
                // the change may not have been made (a crash after the
                // delivery was remembered): making it again changes nothing
                // made already
                let Command::Server(sc) = cmd else { unreachable!() };
                let (t, event) = self.server_command(ch, actor, sc).await?;
                let mut out = compose(ch, self.dialect(ch.platform), &t, &actor.user, cmd, &[event]);
                out.duplicate = true;
                out
            }
            Applied::Duplicate(refused) => duplicate(ch, table, actor, refused),
            Applied::Refused(text, back) => refused(ch, table, actor, text, &back),
            Applied::Done { events, owed, claimed } => {
                return self.answer_done(given, home, table, (events, owed, claimed)).await;
            }
            Applied::Stale(back) => stale(ch, table, actor, &back),
        };
        Ok(route(out, table, home, ch))
    }

    /// The answer to a command applied: what it owes (stored with it when
    /// the outbox is durable), and what the commands beyond the table add;
    /// its table message is this process's to post when the commit
    /// `claimed` it.
    async fn answer_done(
        &self,
        given: &Given<'_>,
        home: &ChannelId,
        table: &Table,
        (events, owed, claimed): (Vec<Event>, Option<Box<Outbox>>, bool),
    ) -> Result<Outbox, ServiceError> {
        let (ch, actor, cmd) = (given.ch, given.actor, &given.cmd);
        #[cfg(feature = "failpoints")]
        crate::failpoint::hit("after-commit");
        if *cmd == Command::Dm(true) {
            // asked for direct messages: tried again
            self.reach.asked(&actor.user);
        }
        // what the command owes was stored with it: its delivery is this
        // answer's
        let seqs = owed.as_ref().map(|o| o.owed.clone()).unwrap_or_default();
        let mut out = match cmd {
            Command::Server(sc) => {
                let (t, event) = self.server_command(ch, actor, sc).await?;
                let mut all = events;
                all.push(event);
                // (a linked channel's own table took the change, for when it
                // is unlinked: the answer shows the table it shares)
                let shown = if home == ch { &t } else { table };
                let mut out = compose(ch, self.dialect(ch.platform), shown, &actor.user, cmd, &all);
                out.owed = seqs;
                out
            }
            Command::Link(Some(code)) => return self.link_join(ch, (home, table.lang()), actor, code, seqs).await,
            Command::Link(None) => self.link_code(home, table, actor, seqs).await?,
            Command::Unlink => {
                let out = match owed {
                    Some(out) => *out,
                    None => compose(ch, self.dialect(ch.platform), table, &actor.user, cmd, &events),
                };
                return self.unlinked(ch, home, table, actor, &events, out).await;
            }
            // (what is read beyond the table is read at the table's own
            // key: its records, its server)
            _ => match owed {
                Some(mut out) => {
                    self.queries(home, table, actor, cmd, &mut out).await?;
                    *out
                }
                None => self.outbox(ch, home, table, actor, cmd, &events).await?,
            },
        };
        if let Some(t) = &mut out.table {
            t.claimed = claimed;
        }
        Ok(route(out, table, home, ch))
    }
}

/// The answer to a delivery handled before: nothing new, or the refusal
/// it got.
fn duplicate(ch: &ChannelId, table: &Table, actor: &Actor, refused: Option<String>) -> Outbox {
    let mut out = Outbox::new(ch.clone(), table.lang());
    out.actor = Some(actor.user.clone());
    out.duplicate = true;
    if let Some(text) = refused {
        out.private.push(private(table, &actor.user, Kind::Error, text));
    }
    out
}

/// The answer to a command refused: why, and the table when a person came
/// back all the same.
fn refused(ch: &ChannelId, table: &Table, actor: &Actor, text: String, back: &[Event]) -> Outbox {
    let mut out = Outbox::new(ch.clone(), table.lang());
    out.actor = Some(actor.user.clone());
    out.private.push(private(table, &actor.user, Kind::Error, text));
    if !back.is_empty() {
        out.table = Some(table_message(table, back));
    }
    out
}

/// The answer to a click on a hand the deal has moved past: the table when
/// a person came back all the same, the refusal, and the current hand.
fn stale(ch: &ChannelId, table: &Table, actor: &Actor, back: &[Event]) -> Outbox {
    let mut out = Outbox::new(ch.clone(), table.lang());
    out.actor = Some(actor.user.clone());
    if !back.is_empty() {
        out.table = Some(table_message(table, back));
    }
    let text = render::stale(table.lang());
    out.private.push(private(table, &actor.user, Kind::Error, text));
    if let Some(p) = hand_private(table, ch, &actor.user) {
        out.private.push(p);
    }
    out
}
