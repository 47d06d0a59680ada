//! What just happened at the table, one line per event, and a scored
//! deal's result.

use std::fmt::Write;

use doko_engine::{Party, RedealReason};

use super::sheet::score;
use crate::command::short;
use crate::lang::Lang;
use crate::table::{Event, PovertyMove, Summary, Table};
use crate::tr;

/// Events as one public message.
pub fn events(t: &Table, ev: &[Event]) -> Option<String> {
    let mut out = String::new();
    // (the coach's advice is the asker's alone)
    for e in ev.iter().filter(|e| !matches!(e, Event::Advice { .. })) {
        out.push_str(&event_line(t, e));
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

/// One event's line: what happened at the table, or a move of the deal.
fn event_line(t: &Table, e: &Event) -> String {
    let l = t.lang();
    match e {
        Event::Joined(n) => tr!(l, "event-joined", name = n),
        Event::Left(n) => tr!(l, "event-left", name = n),
        Event::Watching(n) => tr!(l, "event-watching", name = n),
        Event::CardStyle(c) => tr!(l, "event-card-style", style = c.name()),
        Event::Unwatched(n) => tr!(l, "event-unwatched", name = n),
        Event::KiebitzStarted { player, spectator } => {
            tr!(l, "event-kiebitz", player = player.as_str(), spectator = spectator.as_str())
        }
        Event::KiebitzEnded { player, spectator } => {
            tr!(l, "event-kiebitz-ended", player = player.as_str(), spectator = spectator.as_str())
        }
        Event::ComputerJoined(n) => tr!(l, "event-computer-joined", name = n),
        Event::Away(n) => tr!(l, "event-away", name = n),
        Event::HintTaken(n) => tr!(l, "event-hint", name = n),
        Event::Advice { .. } => String::new(),
        Event::Back(n) => tr!(l, "event-back", name = n),
        Event::SessionOver => {
            let mut s = tr!(l, "event-session-over");
            s.push('\n');
            s.push_str(&score(t));
            s
        }
        Event::RulesChanged => tr!(l, "event-rules-changed"),
        Event::ServerChanged { name, change, channels } => {
            tr!(l, "event-server-changed", name = name.as_str(), change = short(change), channels = channels)
        }
        Event::Unlinked(channels) => {
            let names: Vec<String> = channels.iter().map(|c| crate::server::foreign_label(l, c)).collect();
            tr!(l, "link-ended", other = names.join(", "))
        }
        Event::LangChanged => tr!(l, "event-lang-changed"),
        Event::Reminder { name, left_s, timeout_s } => {
            tr!(l, "event-reminder", name = name, left = left_s, timeout = timeout_s)
        }
        Event::TimedOut { name, timeout_s } => tr!(l, "event-timed-out", name = name, timeout = timeout_s),
        Event::Aborted { name, timeout_s, record } => {
            tr!(l, "event-aborted", name = name, timeout = timeout_s, record = record)
        }
        Event::AbortedBy { name, record } => tr!(l, "event-aborted-by", name = name, record = record),
        Event::Kicked { name, by, now } => {
            tr!(l, "event-kicked", name = name, by = by, now = if *now { "yes" } else { "no" })
        }
        Event::BotRemoved { name, now } => {
            tr!(l, "event-bot-removed", name = name, now = if *now { "yes" } else { "no" })
        }
        Event::Freed(n) => tr!(l, "event-freed", name = n),
        Event::SessionReset(n) => {
            let mut s = tr!(l, "event-session-reset", name = n);
            s.push('\n');
            s.push_str(&score(t));
            s
        }
        Event::ClockPaused(n) => tr!(l, "event-clock-paused", name = n),
        Event::ClockResumed(n) => tr!(l, "event-clock-resumed", name = n),
        Event::Waiting => tr!(l, "event-waiting"),
        Event::Dealt { .. }
        | Event::Bid { .. }
        | Event::Played { .. }
        | Event::TrickWon { .. }
        | Event::Announced { .. }
        | Event::SowStarted
        | Event::SowTaken(_)
        | Event::SowSolo { .. }
        | Event::Genscher { .. }
        | Event::Said { .. }
        | Event::Poverty { .. }
        | Event::Scored(_)
        | Event::Redeal(_) => deal_event_line(l, e).unwrap_or_default(),
    }
}

/// A line for what happened in the deal (dealt, bids, cards, tricks,
/// announcements, poverty, the result); `None` for any other event.
fn deal_event_line(l: Lang, e: &Event) -> Option<String> {
    Some(match e {
        Event::Dealt { number, dealer, bock, forced } => {
            let mut s = tr!(l, "event-dealt", number = number, dealer = dealer);
            if *bock > 0 {
                s.push(' ');
                s.push_str(&tr!(l, "bock", factor = doko_engine::bock_factor(*bock)));
            }
            if let Some(f) = forced {
                s.push(' ');
                s.push_str(&tr!(l, "event-forced-solo", name = f));
            }
            s
        }
        Event::Bid { name, reserved } => {
            tr!(l, "event-bid", name = name, bid = if *reserved { "reserved" } else { "healthy" })
        }
        Event::Played { name, card } => tr!(l, "event-played", name = name, card = l.card_str(*card)),
        Event::TrickWon { name, points } => tr!(l, "event-trick-won", name = name, points = points),
        Event::Announced { name, call } => tr!(l, "event-announced", name = name, call = l.call(*call)),
        Event::SowStarted => tr!(l, "event-sow-started"),
        Event::SowTaken(name) => tr!(l, "event-sow-taken", name = name),
        Event::SowSolo { name, kind } => tr!(l, "event-sow-solo", name = name, solo = l.solo(*kind)),
        Event::Genscher { name, partner } => tr!(l, "event-genscher", name = name, partner = partner),
        Event::Said { name, what } => tr!(l, "event-said", name = name, what = what.name()),
        Event::Poverty { name, step } => {
            let step = match step {
                PovertyMove::Gave => "gave",
                PovertyMove::Accepted => "accepted",
                PovertyMove::Declined => "declined",
                PovertyMove::Returned => "returned",
            };
            tr!(l, "event-poverty", name = name, step = step)
        }
        Event::Scored(s) => summary(l, s),
        Event::Redeal(r) => tr!(
            l,
            "event-redeal",
            reason = match r {
                RedealReason::ThrowIn => "throw-in",
                RedealReason::PovertyDeclined => "poverty-declined",
            }
        ),
        _ => return None,
    })
}

/// The result of a scored deal.
pub fn summary(l: Lang, s: &Summary) -> String {
    let mut out = String::new();
    let contract = l.contract(s.contract);
    let title = match &s.declarer {
        Some(d) => tr!(l, "summary-title-declarer", number = s.number, contract = contract, declarer = d),
        None => tr!(l, "summary-title", number = s.number, contract = contract),
    };
    let _ = writeln!(out, "{title}");
    for (party, names, points) in [(Party::Re, &s.re, s.card_points[0]), (Party::Kontra, &s.kontra, s.card_points[1])] {
        let _ = writeln!(
            out,
            "{}",
            tr!(l, "summary-party", party = l.party(party), names = names.join(", "), points = points)
        );
    }
    let _ = match s.winner {
        Some(w) => writeln!(out, "{}", tr!(l, "summary-winner", party = l.party(w), value = s.value)),
        None => writeln!(out, "{}", tr!(l, "summary-no-winner", value = s.value)),
    };
    for it in &s.items {
        let _ = writeln!(out, "  {} {} {:+}", reason(l, it.reason), l.party(it.party), it.points);
    }
    if s.bock > 0 {
        let _ = writeln!(out, "{}", tr!(l, "bock", factor = doko_engine::bock_factor(s.bock)));
    }
    let scores: Vec<String> = s.scores.iter().map(|(n, p)| format!("{n} {p:+}")).collect();
    let _ = write!(out, "{}", tr!(l, "summary-scores", scores = scores.join(", "), record = s.record));
    // the deal revealed: public only now that it is over
    if !s.hands.is_empty() {
        let _ = write!(out, "\n{}", tr!(l, "summary-revealed"));
        for (name, cards) in &s.hands {
            let _ = write!(out, "\n  {}", tr!(l, "summary-hand", name = name, cards = l.cards(cards.iter().copied())));
        }
        for (i, t) in s.tricks.iter().enumerate() {
            let _ = write!(
                out,
                "\n  {}",
                tr!(
                    l,
                    "summary-trick",
                    n = i + 1,
                    leader = t.leader.as_str(),
                    cards = l.cards(t.cards.iter().copied()),
                    winner = t.winner.as_str(),
                    points = t.points
                )
            );
        }
    }
    out
}

/// The catalog's key of a scoring reason.
pub(super) fn reason(l: Lang, r: doko_engine::Reason) -> String {
    use doko_engine::Reason::*;
    let key = match r {
        Won => "won",
        Under90 => "under90",
        Under60 => "under60",
        Under30 => "under30",
        Schwarz => "schwarz",
        AnnouncedRe => "announced-re",
        AnnouncedKontra => "announced-kontra",
        ReDoubles => "re-doubles",
        KontraDoubles => "kontra-doubles",
        AnnouncedNo90 => "announced-no90",
        AnnouncedNo60 => "announced-no60",
        AnnouncedNo30 => "announced-no30",
        AnnouncedSchwarz => "announced-schwarz",
        Reached120AgainstNo90 => "reached120",
        Reached90AgainstNo60 => "reached90",
        Reached60AgainstNo30 => "reached60",
        Reached30AgainstSchwarz => "reached30",
        AgainstTheElders => "against-the-elders",
        Doppelkopf => "doppelkopf",
        Fox => "fox",
        FoxLastTrick => "fox-last-trick",
        Charlie => "charlie",
        CharlieCaught => "charlie-caught",
        FoxFirstTrick => "fox-first-trick",
        DulleCaught => "dulle-caught",
        HeartTrick => "heart-trick",
        LizzieMiller => "lizzie-miller",
        SoloDouble => "solo-double",
    };
    tr!(l, "reason", reason = key)
}
