//! The table message: seats, the trick, announcements, who is to act, the
//! spectators; and the last trick.

use doko_engine::{Phase, Rules, SeenBid};

use crate::table::Table;
use crate::{cached_tr, tr};

/// The table as everybody sees it.
pub fn table(t: &Table) -> String {
    let l = t.lang();
    // (sized for a table's text: not grown line by line; written with
    // `push_str`, not `write!`: this text is written at every move, and
    // `write!`'s formatting was a third of its time)
    let mut out = String::with_capacity(512);
    // (kept: a table's rules line is one of a few; a long one is not kept)
    push_line(&mut out, &cached_tr!(l, "table-rules", rules = rules_line(t.rules())));
    let g = match t.current_game() {
        Some(g) => g,
        None => {
            let names: Vec<&str> = t.seats().iter().map(|s| s.name()).collect();
            push_line(&mut out, &tr!(l, "table-seats", n = t.seats().len(), names = names.join(", ")));
            if t.seats().len() >= 4 {
                push_line(&mut out, &tr!(l, "table-say-start"));
            }
            if t.clock_paused() {
                push_line(&mut out, &tr!(l, "table-clock-paused"));
            }
            spectators_line(t, &mut out);
            return out;
        }
    };
    let pv = g.public_view();
    // (each seat's name found once: a name is the seat's person found by
    // the session's player key, and a table's text names a seat up to
    // four times)
    let names = doko_engine::Seat::ALL.map(|s| t.name_of(s));
    let name_of = |s: doko_engine::Seat| names[s.index()].as_ref();
    if let Some(c) = pv.contract {
        let line = match pv.declarer {
            Some(d) => tr!(l, "table-game-declarer", contract = l.contract(c), declarer = name_of(d)),
            None => tr!(l, "table-game", contract = l.contract(c)),
        };
        push_line(&mut out, &line);
    }
    for s in doko_engine::Seat::ALL {
        out.push_str(name_of(s));
        if let Some(p) = pv.parties[s.index()] {
            out.push_str(" [");
            out.push_str(&l.party(p));
            out.push(']');
        }
        if let Some(b) = pv.bids[s.index()] {
            let said = match b {
                SeenBid::Healthy => l.bid_said(false),
                SeenBid::Reserved => l.bid_said(true),
                SeenBid::Decided(r) => l.reservation(r),
            };
            out.push_str(" - ");
            out.push_str(&said);
        }
        for (i, a) in pv.announcements.iter().filter(|a| a.seat == s).enumerate() {
            out.push_str(if i == 0 { " - " } else { ", " });
            out.push_str(&l.call(a.call()));
        }
        out.push_str(" (");
        out.push_str(&l.card_count(pv.hand_sizes[s.index()]));
        out.push_str(")\n");
    }
    if let Some(last) = pv.tricks.last() {
        push_line(
            &mut out,
            &tr!(l, "table-last-trick", cards = l.cards(last.cards.iter().copied()), winner = name_of(last.winner)),
        );
    }
    if pv.trick.len > 0 {
        push_line(&mut out, &tr!(l, "table-trick", cards = l.cards(pv.trick.played().iter().copied())));
    }
    if let Some(s) = pv.to_act {
        push_line(&mut out, &tr!(l, "table-to-act", name = name_of(s), phase = phase_key(pv.phase)));
    }
    if let Some(m) = pv.mandatory {
        push_line(&mut out, &tr!(l, "table-must-announce", name = name_of(m)));
    }
    if t.clock_paused() {
        push_line(&mut out, &tr!(l, "table-clock-paused"));
    }
    spectators_line(t, &mut out);
    out
}

/// Adds `line` and a line break to `out` (what `writeln!(out, "{line}")`
/// writes, without the formatting machinery).
pub(super) fn push_line(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}

/// Who watches, and whose hand each sees (public, as a Kiebitz standing
/// behind a player is seen by everyone at the table).
pub(super) fn spectators_line(t: &Table, out: &mut String) {
    let l = t.lang();
    let names: Vec<String> = t
        .spectators()
        .iter()
        .map(|s| match t.kiebitz_sees(s.user()).and_then(|p| t.seat_of(p)) {
            Some(ts) => tr!(l, "table-kiebitz", spectator = s.name(), player = t.seats()[ts].name()),
            None => s.name().to_string(),
        })
        .collect();
    if !names.is_empty() {
        push_line(out, &tr!(l, "table-watching", names = names.join(", ")));
    }
}

/// The last trick of the deal being played, card by card: who led, who
/// played what, who took it and its points (public: every player saw it).
pub fn last_trick(t: &Table) -> String {
    let l = t.lang();
    let g = match t.game() {
        Ok(Some(g)) => g,
        _ => return tr!(l, "lasttrick-no-deal"),
    };
    let pv = g.public_view();
    let Some(last) = pv.tricks.last() else {
        return tr!(l, "lasttrick-none");
    };
    let plays: Vec<String> = (0..4)
        .map(|i| {
            let seat = last.leader.plus(i);
            format!("{} {}", t.name_of(seat), l.card_str(last.cards[i]))
        })
        .collect();
    tr!(
        l,
        "lasttrick",
        n = pv.tricks.len(),
        plays = plays.join(", "),
        winner = t.name_of(last.winner),
        points = last.points
    )
}

/// The catalog's key of a phase.
pub(super) fn phase_key(p: Phase) -> &'static str {
    match p {
        Phase::Bidding => "bidding",
        Phase::PovertyGive => "poverty-give",
        Phase::PovertyOffer => "poverty-offer",
        Phase::PovertyReturn => "poverty-return",
        Phase::SowChoice => "sow-choice",
        Phase::Playing => "playing",
        Phase::Finished | Phase::Redeal(_) => "over",
    }
}

pub(super) fn rules_line(r: &Rules) -> String {
    let over = r.overrides();
    if over.is_empty() {
        r.preset.name().to_string()
    } else {
        let o: Vec<String> = over.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{} + {}", r.preset.name(), o.join(", "))
    }
}
