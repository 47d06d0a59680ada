//! What a change owes the platforms, composed from the table and the
//! events: the answer to the person, the table message, a deal's result,
//! and the hands of those who hold or may see cards.

use super::replies::{private, private_to};
use super::stamp::stamp_of;
use crate::command::{Command, RulesCmd};
use crate::dialect::Dialect;
use crate::ids::{ChannelId, UserId};
use crate::outbox::{Notice, Outbox, Private, TableMessage};
use crate::render::{self, Kind};
use crate::table::{Event, Table};
use crate::tr;

/// An outbox made inside a change that is about to be committed: its table
/// message has the revision the commit gives the table.
pub(super) fn committed(out: &mut Outbox) {
    if let Some(t) = &mut out.table {
        t.revision += 1;
    }
}

/// What the turn clock's change owes: the table message, the hand of the
/// person to act.
pub(super) fn ticked(ch: &ChannelId, table: &Table, events: &[Event]) -> Outbox {
    let mut out = Outbox::new(ch.clone(), table.lang());
    out.notices.extend(results(table, events));
    out.table = Some(table_message(table, events));
    if let Some(u) = to_act(table)
        && let Some(p) = hand_private(table, ch, &u)
    {
        out.private.push(p);
    }
    for_spectators(table, None, events, &mut out);
    out
}

/// What spectators get with a change besides the public table (which
/// shows the deal revealed once it is over): a spectator let see a
/// player's hand gets it when a deal is dealt or when it was just shown to
/// them (a direct message where the platform has them). Never anyone
/// else's hand.
fn for_spectators(t: &Table, cmd: Option<&Command>, events: &[Event], out: &mut Outbox) {
    let dealt = events.iter().any(|e| matches!(e, Event::Dealt { .. }));
    let granted = matches!(cmd, Some(Command::Kiebitz(Some(_))));
    for s in t.spectators() {
        let u = s.user();
        if (dealt || granted)
            && !out.private.iter().any(|p| &p.to == u && p.kind == Kind::Hand)
            && let Some(p) = kiebitz_private(t, u)
        {
            out.private.push(p);
        }
    }
}

/// The hand a spectator may see (the Kiebitz custom): the text only, no
/// buttons, as confidential as the player's own hand.
pub(super) fn kiebitz_private(t: &Table, to: &UserId) -> Option<Private> {
    let (name, v) = t.kiebitz_view(to)?;
    let l = t.lang();
    let text = tr!(l, "kiebitz-hand", name = name, cards = l.cards(v.sorted_hand()));
    let picture = render::hand_picture(t, &v);
    Some(Private { confidential: true, dm: true, picture, ..private(t, to, Kind::Hand, text) })
}

/// What a command owes: the answer to the person, the table message when
/// something happened (or the table was asked for), the hands. (A record
/// asked for is read from the store afterwards.)
pub(super) fn compose(
    ch: &ChannelId,
    dialect: &dyn Dialect,
    t: &Table,
    me: &UserId,
    cmd: &Command,
    events: &[Event],
) -> Outbox {
    let mut out = Outbox::new(ch.clone(), t.lang());
    out.actor = Some(me.clone());
    answer_asked(ch, dialect, t, me, cmd, &mut out);
    // the coach's advice: to the person who asked, confidentially
    for e in events {
        if let Event::Advice { to, advice } = e
            && to == me
        {
            out.private.push(private_to(t, me, Kind::Help, render::advice(t.lang(), advice), true));
        }
    }
    let changed = !events.is_empty();
    out.notices.splice(0..0, results(t, events));
    if changed || matches!(cmd, Command::Table) {
        out.table = Some(table_message(t, events));
    }
    if changed {
        // hands: everyone at a new deal, else the actor and whoever acts next
        let dealt = events.iter().any(|e| matches!(e, Event::Dealt { .. }));
        let next = to_act(t);
        let mut users: Vec<&UserId> = Vec::new();
        for s in t.seats().iter() {
            if let Some(user) = s.user()
                && (dealt || user == me || next.as_ref() == Some(user))
                && !users.contains(&user)
            {
                users.push(user);
            }
        }
        for u in users {
            if let Some(p) = hand_private(t, ch, u) {
                out.private.push(p);
            }
        }
        for_spectators(t, Some(cmd), events, &mut out);
    }
    out
}

/// The answer to a command that asks for something shown from the table
/// alone (help, the score, the rules, one's hand, ...).
fn answer_asked(ch: &ChannelId, dialect: &dyn Dialect, t: &Table, me: &UserId, cmd: &Command, out: &mut Outbox) {
    let l = t.lang();
    let notice = |kind, text| Notice::new(kind, text, None);
    match cmd {
        Command::Help(topic) => {
            out.private.push(private(
                t,
                me,
                Kind::Help,
                crate::command::help_styled(l, topic.as_deref(), dialect.help_style()),
            ));
        }
        Command::Score => out.notices.push(notice(Kind::Score, render::score(t))),
        Command::LastTrick => out.private.push(private(t, me, Kind::Table, render::last_trick(t))),
        Command::Stats => out.notices.push(notice(Kind::Stats, render::stats(t))),
        Command::List(n) => {
            let mut text = render::list(t, *n);
            let number = n.or(t.session().map(|s| s.number())).filter(|n| *n > 0);
            if let (Some(p), Some(n)) = (t.page(), number) {
                text.push_str(&tr!(l, "web-list-link", url = p.list_url(n)));
                text.push('\n');
            }
            out.notices.push(notice(Kind::Score, text))
        }
        Command::Web { renew } => {
            let text = match t.page() {
                None => tr!(l, "web-off"),
                Some(p) if *renew => tr!(l, "web-renewed", url = p.table_url()),
                Some(p) => tr!(l, "web-show", url = p.table_url()),
            };
            out.notices.push(notice(Kind::Help, text))
        }
        Command::Rules(RulesCmd::Show) => {
            out.notices.extend(render::rules_parts(t).into_iter().map(|p| notice(Kind::Rules, p)))
        }
        Command::Record(_) | Command::Analysis(_) => {}
        Command::Dm(on) => {
            out.private.push(private(t, me, Kind::Help, if *on { tr!(l, "dm-on") } else { tr!(l, "dm-off") }))
        }
        Command::Hand => match hand_private(t, ch, me) {
            Some(p) => out.private.push(p),
            None => match kiebitz_private(t, me) {
                // asked for: the answer, not also a direct message
                Some(p) => out.private.push(Private { dm: false, ..p }),
                None => out.private.push(private(t, me, Kind::Error, tr!(l, "no-cards"))),
            },
        },
        _ => {}
    }
}

/// A deal's result as its own message (with the whole deal as a picture
/// where the table shows pictures): it stays in the channel, where the
/// table message moves on with the next deal.
fn results(t: &Table, events: &[Event]) -> Vec<Notice> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored(s) => {
                let mut text = render::events(t, std::slice::from_ref(e))?;
                if let Some(p) = t.page() {
                    text.push('\n');
                    text.push_str(&crate::tr!(t.lang(), "web-deal-link", url = p.deal_url(s.record)));
                }
                Some(Notice { picture: render::deal_picture(t, s), ..Notice::new(Kind::Result, text, None) })
            }
            _ => None,
        })
        .collect()
}

/// The table message: what happened (a deal's result apart, see
/// [`results`]), the table.
pub(super) fn table_message(t: &Table, events: &[Event]) -> TableMessage {
    let shown: Vec<Event> = events.iter().filter(|e| !matches!(e, Event::Scored(_))).cloned().collect();
    TableMessage {
        events: render::events(t, &shown),
        table: render::table(t),
        display: t.display().clone(),
        epoch: t.epoch(),
        revision: t.revision(),
        to_act: to_act(t),
        hand_label: render::hand_label(t.lang()),
        your_turn: render::your_turn(t.lang()),
        key: None,
        claimed: false,
        home: String::new(),
        picture: render::table_picture(t),
    }
}

/// The person who must act now, if a person must.
pub(super) fn to_act(t: &Table) -> Option<UserId> {
    t.person_to_act().map(|(u, _)| u)
}

/// A person's hand as a private message, if they hold cards.
pub(super) fn hand_private(t: &Table, ch: &ChannelId, to: &UserId) -> Option<Private> {
    // (a hand's view means its person plays in the deal: not asked again
    // for its stamp and its confidentiality)
    let v = t.hand_view_for(to)?;
    let stamp = t.current_game().map(stamp_of).unwrap_or_default();
    let (text, model) = render::hand_with_model(t.lang(), ch, &v, stamp);
    let mut p = private_to(t, to, Kind::Hand, text, true);
    p.hand = Some(model);
    p.picture = render::hand_picture(t, &v);
    Some(p)
}
