//! One try of a command on the table, inside the table's transaction: the
//! server's defaults taken, a delivery handled once, the command applied
//! (or refused, leaving the table as it was), the computer players moved,
//! and what the change owes stored with it.

use doko_engine::Rng;

use super::compose::{committed, compose};
use super::replies::refusal;
use super::stamp::stamp;
use crate::authority::ActorKind;
use crate::command::Command;
use crate::ids::{Actor, ChannelId};
use crate::outbox::Outbox;
use crate::render;
use crate::table::{Ctx, Event, ServerLayer, Table};
use doko_players::decide;

/// What one try of a command did to the table.
pub(super) enum Applied {
    /// The delivery was handled before; the refusal it got, if it was
    /// refused (and the refusal is still remembered).
    Duplicate(Option<String>),
    /// Refused: the refusal's text, and what happened all the same (a
    /// person whose time had run out took their seat back).
    Refused(String, Vec<Event>),
    /// Applied, with what happened (and what it owes, stored with it, when
    /// the outbox is durable).
    Done {
        /// What happened.
        events: Vec<Event>,
        /// What it owes, stored with it (a durable outbox).
        owed: Option<Box<Outbox>>,
        /// The commit claimed the posting of the deal's table message in
        /// the channel: this process posts it without asking again.
        claimed: bool,
    },
    /// A click on a hand the deal has moved past (and what happened all
    /// the same, as for a refusal).
    Stale(Vec<Event>),
    /// The command comes from a server the table does not know yet: the
    /// channel joins the server first (once), then the command runs.
    NeedsServer,
}

impl Applied {
    /// How the command ended, as counted in the metrics.
    pub(super) fn outcome(&self) -> &'static str {
        match self {
            Applied::Duplicate(_) | Applied::NeedsServer => "duplicate",
            Applied::Refused(..) => "refused",
            Applied::Done { .. } => "done",
            Applied::Stale(_) => "stale",
        }
    }
}

/// A command to apply, with all a try needs to apply it.
pub(super) struct Request {
    /// The channel it was given in.
    pub(super) chan: ChannelId,
    /// Who gave it.
    pub(super) who: Actor,
    /// The command.
    pub(super) what: Command,
    /// Its delivery id, if the platform gave one.
    pub(super) id: Option<String>,
    /// The stamp of the hand it was clicked on, if it was.
    pub(super) clicked: Option<String>,
    /// The server's defaults, and whether the channel is known to belong
    /// to the server (a table that does not know its server yet waits for
    /// the channel to join it).
    pub(super) server: Option<(ServerLayer, bool)>,
    /// Whether what the change owes is stored with it.
    pub(super) durable: bool,
    /// The time of the command (ms since 1970, UTC).
    pub(super) now: u64,
    /// How the channel's platform names commands (the help).
    pub(super) dialect: &'static dyn crate::dialect::Dialect,
    /// The strong computer player's budget.
    pub(super) strong: doko_players::strong::StrongConfig,
    /// The page link a table without one takes (`None`: the host serves
    /// no pages, and a table forgets its own).
    pub(super) page: Option<crate::table::PageLink>,
}

/// The table before a command: what a refused one puts back and what
/// tells whether an applied one changed it.
struct Before {
    /// The table as it was (not kept for a move: a refused move leaves
    /// the table as it was, see `Table::apply`).
    table: Option<Table>,
    /// The moves made in the deal.
    moves: u64,
    /// A person whose time ran out, back with this command.
    back: Vec<Event>,
    /// The server's defaults changed the table's layers.
    layers_changed: bool,
}

/// Applies `req` to `table` (one try): what it did, and whether to commit.
pub(super) fn apply(req: &Request, table: &mut Table, ctx: &mut Ctx<'_>, bots: &mut Rng) -> (Applied, bool) {
    let Some(layers_changed) = take_server(req, table, ctx) else { return (Applied::NeedsServer, false) };
    if let Some(id) = &req.id
        && !table.remember_delivery(id)
    {
        tracing::debug!("duplicate delivery ignored");
        return (Applied::Duplicate(table.refusal_of(id).map(str::to_string)), layers_changed);
    }
    // a move that is refused leaves the table as it was (`Table::apply`):
    // only another command's table is kept to put back, and to tell
    // whether it changed
    let is_move = req.what.is_move();
    let before = Before {
        table: (!is_move).then(|| table.clone()),
        moves: table.moves(),
        // a person whose time ran out is back with any command
        back: table.hand_back(&req.who.user),
        layers_changed,
    };
    let after_back = (!before.back.is_empty() && !is_move).then(|| table.clone());
    // (a person not at the table, a kicked one too, is refused as not
    // seated: an old hand of theirs is not answered with the seat's cards)
    if let Some(at) = &req.clicked
        && is_move
        && table.actor_kind(&req.who.user) != ActorKind::Stranger
        && stamp(table, &req.who.user).as_deref() != Some(at.as_str())
    {
        let commit = refuse(req, table, &before.back, &render::stale(table.lang()));
        return (Applied::Stale(before.back), commit || layers_changed);
    }
    let mut events = before.back.clone();
    // `back` from a person the clock replaced is done already
    let done = !before.back.is_empty() && req.what == Command::Back;
    match if done { Ok(Vec::new()) } else { table.apply(&req.who, &req.what, ctx) } {
        Ok(ev) => events.extend(ev),
        Err(e) => {
            // what a command that does not go through leaves: the table as
            // it was, or with the person back (a move left it so)
            if let Some(t) = after_back.as_ref().or(before.table.as_ref()) {
                *table = t.clone();
            }
            let text = refusal(table, &e);
            let commit = refuse(req, table, &before.back, &text);
            return (Applied::Refused(text, before.back), commit || layers_changed);
        }
    }
    if req.what == Command::Hint
        && let Some(view) = table.view_for(&req.who.user)
    {
        // the coach: the expert's choice from the asker's own view
        let advice = doko_players::coach::advise(&view, bots, req.strong);
        events.push(Event::Advice { to: req.who.user.clone(), advice });
    }
    // the table's web pages: a token for a table without one (the results
    // and lists link to them), a new one when renewed
    table.offer_page(req.page.as_ref(), req.what == Command::Web { renew: true });
    conclude(req, table, ctx, bots, events, before)
}

/// After a command went through: the computer players move, the clock is
/// set, and what the change owes is stored with it when it is committed.
fn conclude(
    req: &Request,
    table: &mut Table,
    ctx: &mut Ctx<'_>,
    bots: &mut Rng,
    mut events: Vec<Event>,
    before: Before,
) -> (Applied, bool) {
    match table.run_computers(ctx, &mut |level, view| decide(level, view, bots, req.strong)) {
        Ok(ev) => events.extend(ev),
        Err(e) => {
            tracing::error!(error = %e, "computer players failed");
            // (what the command and the computers did is dropped: the next
            // command reads the store)
            ctx.discard = true;
            let text = refusal(table, &e);
            return (Applied::Refused(text, Vec::new()), false);
        }
    }
    table.update_clock(req.now);
    // (a server's change is made after this commit: the delivery is
    // remembered here, so it is made once)
    // (a move that goes through counts a move: the whole table is
    // compared only when no move was made)
    let commit = table.moves() != before.moves
        || before.table.as_ref().is_some_and(|b| table != b)
        || !before.back.is_empty()
        || !ctx.new_records.is_empty()
        || before.layers_changed
        || (req.id.is_some() && matches!(req.what, Command::Server(_)));
    // the deal's first table message here: this commit claims posting it,
    // so that its delivery needs no claim of its own (a link's answers are
    // composed apart, and claim when they are delivered)
    let claimed = commit
        && !events.is_empty()
        && ctx.via.is_none()
        && !matches!(req.what, Command::Link(_) | Command::Unlink)
        && table.display().is_none()
        && !table.posting().posting_claimed(req.now);
    if claimed {
        table.posting_mut().claim_posting(req.now);
    }
    let owed = (req.durable && commit).then(|| {
        let mut out = compose(&req.chan, req.dialect, table, &req.who.user, &req.what, &events);
        committed(&mut out);
        table.owed_mut().keep_until_delivered(&mut out, req.now, || bots.next_u64());
        Box::new(out)
    });
    (Applied::Done { events, owed, claimed }, commit)
}

/// The server's defaults taken by the table: whether its layers changed,
/// or `None` when the table does not know the server yet (the channel
/// joins it first).
fn take_server(req: &Request, table: &mut Table, ctx: &Ctx<'_>) -> Option<bool> {
    if ctx.via.is_some() {
        // through a linked channel: the table is its home's, of the home's
        // server
        return Some(false);
    }
    if let Some(sid) = &req.who.server {
        let knows = table.server().is_some_and(|s| s.id == sid.to_string());
        return match &req.server {
            Some((layer, joined)) if knows || *joined => Some(table.set_server(layer.clone())),
            _ if !knows => None,
            _ => Some(false),
        };
    }
    if req.who.server_checked && !req.who.direct {
        // the platform says the channel belongs to no server (a room that
        // left its space)
        return Some(table.leave_server());
    }
    Some(false)
}

/// A command that does not go through: the delivery remembered as refused
/// with its answer (so that it is never applied later), the clock moved on
/// for a person back; whether that is to be committed.
fn refuse(req: &Request, table: &mut Table, back: &[Event], answer: &str) -> bool {
    if !back.is_empty() {
        table.update_clock(req.now);
    }
    if let Some(id) = &req.id {
        table.remember_refusal(id, answer);
    }
    !back.is_empty() || req.id.is_some()
}
