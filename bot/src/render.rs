//! Messages as platform-neutral values. Public text is built only from the
//! engine's [`PublicView`](doko_engine::PublicView) and the table's names
//! and sheet; a private hand only from that seat's
//! [`HandView`](doko_engine::HandView). Nothing here can reach another
//! seat's hand.

use std::borrow::Cow;
use std::fmt::Write;

use doko_engine::{
    Action, Bid, Card, Cards, Contract, HandView, Party, Phase, RedealReason, Reservation, Rules, SeenBid, SessionError,
};

use crate::command::{CardStyle, ParseError, short};
use crate::ids::UserId;
use crate::lang::Lang;
use crate::outbox::Picture;
use crate::table::{CommandError, Event, PlayerStats, PovertyMove, Summary, Table, TableSession};
use crate::{cached_tr, tr};

/// Who may see a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everybody in the channel.
    Public,
    /// Only this user (an ephemeral reply, a direct room, the terminal).
    Private(UserId),
}

/// What a message is, so adapters can place it (edit the table message,
/// send a hand privately, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    /// What just happened.
    Events,
    /// The table: seats, trick, announcements, who is to act.
    Table,
    /// A player's hand.
    Hand,
    /// The score sheet.
    Score,
    /// A game record.
    Record,
    /// Statistics.
    Stats,
    /// The rule set.
    Rules,
    /// Help.
    Help,
    /// A refused command.
    Error,
    /// A deal's result (the deal revealed): its own message, posted before
    /// the next deal's table message, so it stays readable in the channel.
    Result,
}

/// A message to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who sees it.
    pub to: Audience,
    /// What it is.
    pub kind: Kind,
    /// The text (plain, with card symbols).
    pub text: String,
    /// Users to mention (the player to act), for adapters that can.
    pub mention: Vec<UserId>,
}

impl Message {
    /// A public message.
    pub fn public(kind: Kind, text: String) -> Message {
        Message { to: Audience::Public, kind, text, mention: Vec::new() }
    }
    /// A private message.
    pub fn private(user: &UserId, kind: Kind, text: String) -> Message {
        Message { to: Audience::Private(user.clone()), kind, text, mention: Vec::new() }
    }
}

/// Events as one public message.
pub fn events(t: &Table, ev: &[Event]) -> Option<String> {
    let l = t.lang();
    let mut out = String::new();
    for e in ev {
        let line = match e {
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
            Event::Back(n) => tr!(l, "event-back", name = n),
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
        };
        out.push_str(&line);
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
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
fn reason(l: Lang, r: doko_engine::Reason) -> String {
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
fn push_line(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}

/// Who watches, and whose hand each sees (public, as a Kiebitz standing
/// behind a player is seen by everyone at the table).
fn spectators_line(t: &Table, out: &mut String) {
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

/// What `analysis` found in deal `record` for one person.
pub fn analysis(l: Lang, record: u32, a: &doko_players::analysis::Analysis) -> String {
    if a.examined == 0 {
        return tr!(l, "analysis-nothing", record = record);
    }
    if a.findings.is_empty() {
        return tr!(l, "analysis-none", record = record, examined = a.examined);
    }
    let mut out = tr!(l, "analysis-head", record = record, examined = a.examined);
    use doko_players::analysis::Choice;
    let bid = |b: Bid| match b {
        Bid::Healthy => l.bid_said(false),
        Bid::Reserve(r) => l.reservation(r),
    };
    let yes = |x: bool| if x { "yes" } else { "no" };
    for f in &a.findings {
        let cost = format!("{:.1}", f.cost);
        let cost = if l == Lang::De { cost.replace('.', ",") } else { cost };
        let line = match (f.made, f.better) {
            (Choice::Card(played), Choice::Card(better)) => tr!(
                l,
                "analysis-finding",
                trick = f.trick,
                played = l.cards([played]),
                better = l.cards([better]),
                cost = cost
            ),
            (Choice::Call(c, said), _) => {
                tr!(l, "analysis-call", trick = f.trick, call = l.call(c), said = yes(said), cost = cost)
            }
            (Choice::Bid(made), Choice::Bid(better)) => {
                tr!(l, "analysis-bid", made = bid(made), better = bid(better), cost = cost)
            }
            (Choice::Answer(taken), _) => tr!(l, "analysis-answer", taken = yes(taken), cost = cost),
            (Choice::Give(made), Choice::Give(better)) | (Choice::Return(made), Choice::Return(better)) => tr!(
                l,
                "analysis-exchange",
                step = if matches!(f.made, Choice::Give(_)) { "give" } else { "return" },
                made = l.cards(made.iter()),
                better = l.cards(better.iter()),
                cost = cost
            ),
            _ => continue,
        };
        out.push('\n');
        out.push_str(&line);
    }
    out
}

/// The catalog's key of a phase.
fn phase_key(p: Phase) -> &'static str {
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

fn rules_line(r: &Rules) -> String {
    let over = r.overrides();
    if over.is_empty() {
        r.preset.name().to_string()
    } else {
        let o: Vec<String> = over.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{} + {}", r.preset.name(), o.join(", "))
    }
}

/// A player's hand and what they may do now, from their hand's view only.
pub fn hand(l: Lang, view: &HandView) -> String {
    hand_text(l, view, &view.sorted_hand(), view.legal_cards())
}

/// A player's hand as text ([`hand`]) and as data for buttons
/// ([`hand_model`]), the hand sorted and its playable cards found once
/// for both.
pub fn hand_with_model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &HandView,
    stamp: String,
) -> (String, crate::outbox::HandModel) {
    let sorted = view.sorted_hand();
    let playable = view.legal_cards();
    (hand_text(l, view, &sorted, playable), model(l, channel, view, stamp, &sorted, playable))
}

/// [`hand`] of a hand sorted and its playable cards.
fn hand_text(l: Lang, view: &HandView, sorted: &[Card], playable: Cards) -> String {
    let mut out = String::with_capacity(256);
    let cards = l.cards_marked(sorted.iter().copied(), |c| playable.contains(c));
    push_line(&mut out, &tr!(l, "hand-cards", cards = cards));
    if let Some(p) = view.own_party {
        push_line(&mut out, &cached_tr!(l, "hand-party", party = l.party(p)));
    }
    if let Some((given, returned)) = view.poverty_cards
        && !given.is_empty()
    {
        let _ = writeln!(
            out,
            "{}",
            tr!(l, "hand-poverty-cards", given = l.cards(given.iter()), returned = l.cards(returned.iter()))
        );
    }
    let mut can: Vec<Cow<'static, str>> = Vec::new();
    for a in &view.legal {
        let word = match a {
            Action::Bid(b) => bid_word(l, *b),
            Action::Announce(c) => l.call(*c),
            Action::Say(d) => cached_tr!(l, "declaration", what = d.name()),
            Action::Genscher(_) => tr!(l, "choice-genscher").into(),
            Action::Answer(true) => cached_tr!(l, "choice-accept"),
            Action::Answer(false) => cached_tr!(l, "choice-decline"),
            Action::Give(c) => tr!(l, "choice-give", n = c.len()).into(),
            Action::Return(c) => tr!(l, "choice-return", n = c.len()).into(),
            Action::Play(_) => continue,
        };
        if !can.contains(&word) {
            can.push(word);
        }
    }
    if !can.is_empty() {
        push_line(&mut out, &tr!(l, "hand-can", choices = can.join(", ")));
    }
    if !playable.is_empty() {
        push_line(&mut out, &cached_tr!(l, "hand-your-turn"));
    }
    out
}

fn bid_word(l: Lang, b: Bid) -> Cow<'static, str> {
    match b {
        Bid::Healthy => l.bid_said(false),
        // what to type, in the channel's words
        Bid::Reserve(Reservation::Solo { kind, .. }) => tr!(l, "bid-solo-command", kind = kind.key()).into(),
        Bid::Reserve(r) => l.reservation(r),
    }
}

/// A score sheet row's contract (its record name) in the language.
fn sheet_contract(l: Lang, name: &str) -> String {
    match name {
        "normal" => l.contract(Contract::Normal).into_owned(),
        "wedding" => l.contract(Contract::Wedding).into_owned(),
        "silent-solo" => l.contract(Contract::SilentSolo).into_owned(),
        "poverty" => l.contract(Contract::Poverty).into_owned(),
        "black-sow" => l.contract(Contract::BlackSow(None)).into_owned(),
        other => match other.strip_prefix("solo-").and_then(doko_engine::SoloKind::from_key) {
            Some(k) => l.solo(k).into_owned(),
            None => match other.strip_prefix("black-sow-").and_then(doko_engine::SoloKind::from_key) {
                Some(k) => l.contract(Contract::BlackSow(Some(k))).into_owned(),
                None => other.to_string(),
            },
        },
    }
}

/// The score sheet.
pub fn score(t: &Table) -> String {
    let l = t.lang();
    let Some(s) = t.session() else { return tr!(l, "score-none") };
    sheet(l, s, t.rules().compulsory_solos > 0)
}

/// A list's score sheet: every deal with the running totals, the check,
/// and the compulsory solos still owed (where `duty`).
fn sheet(l: Lang, s: &TableSession, duty: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<16} {}",
        "#",
        tr!(l, "score-game"),
        s.names().iter().map(|n| format!("{n:>10}")).collect::<String>()
    );
    let mut running = vec![0i64; s.names().len()];
    for row in s.sheet() {
        for (r, d) in running.iter_mut().zip(&row.scores) {
            *r += d;
        }
        let cells: String = running.iter().map(|v| format!("{v:>10}")).collect();
        let bock = match row.factor() {
            1 => String::new(),
            2 => format!(" ({})", tr!(l, "score-bock")),
            f => format!(" ({} x{f})", tr!(l, "score-doppelbock")),
        };
        let contract: String = sheet_contract(l, &row.contract).chars().take(16).collect();
        let _ = writeln!(out, "{:>4}  {contract:<16} {cells}{bock}", row.deal);
    }
    let sum: i64 = s.totals().iter().sum();
    let totals = s.totals().as_slice();
    let parity_ok = totals.len() != 4 || totals.iter().all(|v| v.rem_euclid(2) == totals[0].rem_euclid(2));
    let _ = writeln!(out, "{}", tr!(l, "score-check", sum = sum, parity = if parity_ok { "yes" } else { "no" }));
    if duty && !s.is_over() {
        let owed: Vec<String> =
            s.names().iter().zip(s.duty_left()).filter(|(_, d)| **d > 0).map(|(n, d)| format!("{n} {d}")).collect();
        if !owed.is_empty() {
            let _ = writeln!(out, "{}", tr!(l, "score-duty-owed", owed = owed.join(", ")));
        }
    }
    out
}

/// `list` / `list N`: a list (session) with its number, how far it got,
/// when it started, its sheet, and the numbers of the lists kept here.
pub fn list(t: &Table, n: Option<u32>) -> String {
    let l = t.lang();
    let s = match n {
        Some(n) => t.list(n),
        None => t.session(),
    };
    let Some(s) = s else { return tr!(l, "score-none") };
    let mut out = String::new();
    // the length of the list being played (the rules now); a kept list's
    // is what it got to
    let current = t.session().is_some_and(|c| std::ptr::eq(c, s));
    let length = t.rules().games_per_session;
    let progress = if current && length > 0 && !s.is_over() {
        tr!(l, "list-progress-of", played = s.sheet().len(), length = length)
    } else {
        tr!(l, "list-progress", played = s.sheet().len())
    };
    let state = if s.is_over() { "over" } else { "open" };
    let _ = writeln!(
        out,
        "{}",
        tr!(
            l,
            "list-heading",
            number = s.number(),
            progress = progress,
            state = state,
            date = if s.started_ms() > 0 { crate::table::date_of(s.started_ms()) } else { "-".to_string() }
        )
    );
    out.push_str(&sheet(l, s, true));
    let kept: Vec<String> =
        t.history().iter().chain(t.session()).filter(|x| x.number() > 0).map(|x| x.number().to_string()).collect();
    if kept.len() > 1 {
        let _ = writeln!(out, "{}", tr!(l, "list-kept", numbers = kept.join(", ")));
    }
    out
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// Their place (shared by equal figures: 1, 1, 3).
    pub place: usize,
    /// The player's stored id.
    pub key: String,
    /// Their figures.
    pub stats: PlayerStats,
}

/// Ranks people: by points, then by win rate, then by deals; only those
/// who played a deal (computers are not ranked).
pub fn ranking(stats: &crate::table::Stats) -> Vec<Ranked> {
    let mut rows: Vec<Ranked> = stats
        .iter()
        // people only: a computer's key is its table's
        .filter(|(k, s)| s.deals > 0 && !k.is_computer())
        .map(|(k, s)| Ranked { place: 0, key: k.as_str().to_string(), stats: s.clone() })
        .collect();
    let rate = |s: &PlayerStats| u64::from(s.won) * 1_000_000 / u64::from(s.deals.max(1));
    let figures =
        |s: &PlayerStats| (std::cmp::Reverse(s.points), std::cmp::Reverse(rate(s)), std::cmp::Reverse(s.deals));
    rows.sort_by(|a, b| figures(&a.stats).cmp(&figures(&b.stats)).then(a.stats.name.cmp(&b.stats.name)));
    for i in 0..rows.len() {
        rows[i].place =
            if i > 0 && figures(&rows[i].stats) == figures(&rows[i - 1].stats) { rows[i - 1].place } else { i + 1 };
    }
    rows
}

/// How many players a leaderboard shows.
pub const LEADERBOARD_ROWS: usize = 20;

fn win_rate(s: &PlayerStats) -> String {
    format!("{}%", (u64::from(s.won) * 100 + u64::from(s.deals) / 2) / u64::from(s.deals.max(1)))
}

/// `leaderboard`: the ranking over `scope` (`server` or `channel`), for
/// `period` (`all`, or the month `2026-11`), with what it spans.
pub fn leaderboard(l: Lang, server: bool, period: Option<&str>, channels: usize, rows: &[Ranked]) -> String {
    let mut out = String::new();
    let scope = if server { "server" } else { "channel" };
    let _ = writeln!(
        out,
        "{}",
        tr!(l, "leaderboard-heading", scope = scope, period = period.unwrap_or("all"), channels = channels)
    );
    if rows.is_empty() {
        let _ = writeln!(out, "{}", tr!(l, "leaderboard-empty"));
        return out;
    }
    let _ = writeln!(
        out,
        "{:>3}  {:<16}{:>8}{:>7}{:>7}{:>11}",
        "#",
        tr!(l, "stats-player"),
        tr!(l, "stats-points"),
        tr!(l, "stats-deals"),
        tr!(l, "leaderboard-rate"),
        tr!(l, "leaderboard-solos-won")
    );
    for r in rows.iter().take(LEADERBOARD_ROWS) {
        let name: String = r.stats.name.chars().take(16).collect();
        let s = &r.stats;
        let _ = writeln!(
            out,
            "{:>3}  {name:<16}{:>8}{:>7}{:>7}{:>11}",
            r.place,
            s.points,
            s.deals,
            win_rate(s),
            format!("{}/{}", s.solos_won, s.solos)
        );
    }
    out
}

/// One of a person's lists, for `me`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyList {
    /// Where it was played, as the platform shows a channel (`<#id>` on
    /// Discord), or `None` for the channel asked in.
    pub channel: Option<String>,
    /// Its number there.
    pub number: u32,
    /// When it started (ms; 0 unknown).
    pub started_ms: u64,
    /// Deals played in it.
    pub deals: usize,
    /// The person's points.
    pub points: i64,
    /// Their place (1 = most points) among how many.
    pub place: (usize, usize),
}

/// `me`: one's figures over all time and this month with one's rank,
/// and one's latest lists.
pub fn me(
    l: Lang,
    server: bool,
    month: &str,
    all: Option<(&PlayerStats, usize, usize)>,
    this_month: Option<(&PlayerStats, usize, usize)>,
    lists: &[MyList],
) -> String {
    let mut out = String::new();
    let scope = if server { "server" } else { "channel" };
    let Some((a, rank, of)) = all else { return tr!(l, "me-none", scope = scope) };
    let line = |period: &str, s: &PlayerStats, rank: usize, of: usize| {
        tr!(
            l,
            "me-line",
            period = period,
            points = s.points,
            deals = s.deals,
            won = s.won,
            rate = win_rate(s),
            solos = s.solos,
            solos_won = s.solos_won,
            rank = rank,
            of = of
        )
    };
    let _ = writeln!(out, "{}", tr!(l, "me-heading", name = a.name.as_str(), scope = scope));
    let _ = writeln!(out, "{}", line("all", a, rank, of));
    if let Some((m, rank, of)) = this_month {
        let _ = writeln!(out, "{}", line(month, m, rank, of));
    }
    if !lists.is_empty() {
        let _ = writeln!(out, "{}", tr!(l, "me-lists"));
        for m in lists {
            let date = if m.started_ms > 0 { crate::table::date_of(m.started_ms) } else { "-".into() };
            let here = tr!(l, "me-here");
            let _ = writeln!(
                out,
                "{}",
                tr!(
                    l,
                    "me-list",
                    number = m.number,
                    channel = m.channel.as_deref().unwrap_or(here.as_str()),
                    date = date,
                    deals = m.deals,
                    points = m.points,
                    place = m.place.0,
                    of = m.place.1
                )
            );
        }
    }
    out
}

/// Statistics of the channel.
pub fn stats(t: &Table) -> String {
    let l = t.lang();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16}{:>8}{:>8}{:>8}{:>8}{:>9}",
        tr!(l, "stats-player"),
        tr!(l, "stats-deals"),
        tr!(l, "stats-won"),
        tr!(l, "stats-solos"),
        tr!(l, "stats-won"),
        tr!(l, "stats-points")
    );
    for st in t.stats().values().filter(|s| s.deals > 0) {
        let _ = writeln!(
            out,
            "{:<16}{:>8}{:>8}{:>8}{:>8}{:>9}",
            st.name, st.deals, st.won, st.solos, st.solos_won, st.points
        );
    }
    out
}

/// The rule set with what differs from the preset marked.
pub fn rules(t: &Table) -> String {
    rules_parts(t).concat()
}

/// The most characters of one message of `rules`: every platform takes
/// it (Discord at most 2,000).
pub const RULES_PART_CHARS: usize = 1800;

/// `rules`: every key with its value (`*` where it differs from the
/// preset) and a line on what it means, in the table's language, in
/// parts of at most [`RULES_PART_CHARS`] characters cut between lines.
pub fn rules_parts(t: &Table) -> Vec<String> {
    let l = t.lang();
    let r = t.rules();
    let from = |src: crate::table::Source| tr!(l, "rules-source", source = src.key());
    let mut lines = vec![
        tr!(l, "rules-heading"),
        format!("preset {} ({})", r.preset.name(), from(t.preset_source())),
        tr!(
            l,
            "rules-lang-policy",
            lang = l.code(),
            lang_from = from(t.lang_source()),
            policy = t.policy().name(),
            policy_from = from(t.policy_source())
        ),
    ];
    for e in r.entries() {
        let mark = if e.differs { "*" } else { " " };
        let tag = t.rule_setter(e.key).map(|src| format!(" ({})", from(src))).unwrap_or_default();
        lines.push(format!("{mark} {} = {}{tag} - {}", e.key, e.value, tr!(l, "rule-about", key = e.key)));
    }
    if let Some(g) = t.game().ok().flatten()
        && g.rules() != t.rules()
    {
        lines.push(tr!(l, "rules-deal-differs"));
    }
    let mut parts: Vec<String> = vec![String::new()];
    for line in lines {
        let last = parts.last_mut().expect("one part at least");
        if !last.is_empty() && last.chars().count() + line.chars().count() + 1 > RULES_PART_CHARS {
            parts.push(String::new());
        }
        let last = parts.last_mut().expect("one part at least");
        last.push_str(&line);
        last.push('\n');
    }
    parts
}

/// A rule the engine enforced, told with names and card symbols.
pub fn rule_error(t: &Table, e: &doko_engine::ActionError) -> String {
    let phase = t.current_game().map(|g| g.phase());
    rule_text(t.lang(), &|s| t.name_of(s).into_owned(), phase, e)
}

/// A rule the engine enforced, with seats named by `n` and the deal in
/// `phase`.
fn rule_text(
    l: Lang,
    n: &dyn Fn(doko_engine::Seat) -> String,
    phase: Option<Phase>,
    e: &doko_engine::ActionError,
) -> String {
    use doko_engine::ActionError as A;
    match e {
        A::DealOver => tr!(l, "rule-deal-over"),
        A::WrongPhase { .. } => {
            tr!(l, "rule-wrong-phase", phase = phase.map_or("over", phase_key))
        }
        A::NotYourTurn { turn, .. } => tr!(l, "rule-not-your-turn", name = n(*turn)),
        A::NotInHand { card, .. } => tr!(l, "rule-not-in-hand", card = l.card(*card)),
        A::MustFollow { class, holds, .. } => {
            let class = match class {
                doko_engine::Class::Trump => "trump",
                doko_engine::Class::Clubs => "clubs",
                doko_engine::Class::Spades => "spades",
                doko_engine::Class::Hearts => "hearts",
                doko_engine::Class::Diamonds => "diamonds",
            };
            tr!(l, "rule-must-follow", class = class, card = l.card(*holds))
        }
        A::MustAnnounce { points, .. } => tr!(l, "rule-must-announce", points = points),
        A::WeddingNeedsQueens { .. } => tr!(l, "rule-wedding-needs-queens"),
        A::RuleOff { what, .. } => {
            use doko_engine::SwitchedOff as Off;
            let what = match what {
                Off::Poverty => "poverty",
                Off::ThrowIn => "throw-in",
                Off::CompulsorySolo => "duty-solo",
                Off::WeddingTrick => "other",
            };
            tr!(l, "rule-off", what = what)
        }
        A::TooManyTrumps { trumps, max, .. } => tr!(l, "rule-too-many-trumps", trumps = trumps, max = max),
        A::CannotThrowIn { nines, kings, trumps, points, .. } => {
            tr!(l, "rule-cannot-throw-in", nines = nines, kings = kings, trumps = trumps, points = points)
        }
        A::SoloNotAllowed { kind, .. } => {
            tr!(l, "rule-solo-not-allowed", solo = l.solo(*kind).into_owned())
        }
        A::ExchangeCount { expected, got, .. } => tr!(l, "rule-exchange-count", expected = expected, got = got),
        A::MustGiveTrumps { keeps, .. } => tr!(l, "rule-must-give-trumps", card = l.card(*keeps)),
        A::MustReturnOtherCards { trump, .. } => tr!(l, "rule-must-return-other-cards", card = l.card(*trump)),
        A::BeforeClarification { .. } => tr!(l, "rule-before-clarification"),
        A::BeforeSowSolo { .. } => tr!(l, "rule-before-sow-solo"),
        A::MustChooseSolo { .. } => tr!(l, "rule-must-choose-solo"),
        A::WrongParty { party, call, .. } => {
            tr!(l, "rule-wrong-party", party = l.party(*party), call = l.call(*call))
        }
        A::AlreadyAnnounced { party, call, .. } => {
            tr!(l, "rule-already-announced", party = l.party(*party), call = l.call(*call))
        }
        A::TooLate { call, cards, needed, .. } => {
            tr!(l, "rule-too-late", call = l.call(*call), cards = cards, needed = needed)
        }
        A::AfterLateReply { call, .. } => tr!(l, "rule-after-late-reply", call = l.call(*call)),
        A::MustAnnouncePiglets { .. } => tr!(l, "rule-must-announce-piglets"),
        A::CannotGenscher { .. } => tr!(l, "rule-cannot-genscher"),
        A::SayNotInRules { what } => tr!(l, "rule-say-not-in-rules", what = what.name()),
        A::CannotSay { what, .. } => tr!(l, "rule-cannot-say", what = what.name()),
        A::AlreadySaid { what } => tr!(l, "rule-already-said", what = what.name()),
    }
}

/// A house-rule error (an unknown key or value), in the language.
pub fn rules_error(l: Lang, e: &doko_engine::RuleError) -> String {
    use doko_engine::RuleError as R;
    match e {
        R::UnknownKey { key } => {
            let keys: Vec<&str> = doko_engine::KEYS.iter().map(|k| k.name).collect();
            tr!(l, "rules-unknown-key", key = short(key), keys = keys.join(", "))
        }
        R::BadValue { key, value, allowed } => {
            tr!(l, "rules-bad-value", key = *key, value = short(value), allowed = *allowed)
        }
        R::UnknownPreset(name) => {
            let presets: Vec<&str> = doko_engine::Preset::ALL.iter().map(|p| p.name()).collect();
            tr!(l, "rules-unknown-preset", name = short(name), presets = presets.join(", "))
        }
    }
}

/// A refused command.
pub fn error(l: Lang, e: &CommandError) -> String {
    match e {
        CommandError::NotSeated => tr!(l, "error-not-seated"),
        CommandError::AlreadySeated => tr!(l, "error-already-seated"),
        CommandError::TableFull => tr!(l, "error-table-full"),
        CommandError::NotEnoughPlayers(n) => tr!(l, "error-not-enough-players", n = n),
        CommandError::DealRunning => tr!(l, "error-deal-running"),
        CommandError::NoDeal => tr!(l, "error-no-deal"),
        CommandError::SittingOut => tr!(l, "error-sitting-out"),
        CommandError::NotAdmin => tr!(l, "error-not-admin"),
        CommandError::NotAtTable => tr!(l, "error-not-at-table"),
        CommandError::InChannel => tr!(l, "error-in-channel"),
        CommandError::SessionOpen => tr!(l, "error-session-open"),
        CommandError::NoSession => tr!(l, "error-no-session"),
        // (what was typed, cut short: never a long echo)
        CommandError::NoSuchPlayer(who) => tr!(l, "error-no-such-player", name = short(who)),
        CommandError::NoComputer => tr!(l, "error-no-computer"),
        CommandError::ComputerPlays => tr!(l, "error-computer-plays"),
        CommandError::NotAway => tr!(l, "error-not-away"),
        CommandError::Rule(r) => rule_text(l, &|s| format!("{s}"), None, r),
        CommandError::Rules(r) => rules_error(l, r),
        CommandError::Session(SessionError::MustBidSolo { .. }) => tr!(l, "error-forced", why = "you-must-bid-solo"),
        CommandError::Session(SessionError::OnlyForcedBids { .. }) => {
            tr!(l, "error-forced", why = "only-forced-bids")
        }
        CommandError::Session(SessionError::Over) => tr!(l, "error-session-over"),
        CommandError::Session(e) => tr!(l, "error-damaged", why = e.to_string()),
        CommandError::NoRecord(n) => tr!(l, "error-no-record", n = n),
        CommandError::NoAnalysis(n) => tr!(l, "error-no-analysis", n = n, kept = crate::table::PLAYED_KEPT),
        CommandError::NoList(n) => tr!(l, "error-no-list", n = n),
        CommandError::NoServer => tr!(l, "error-no-server"),
        CommandError::NotServerAdmin => tr!(l, "error-not-server-admin"),
        CommandError::AlreadyWatching => tr!(l, "error-already-watching"),
        CommandError::NotWatching => tr!(l, "error-not-watching"),
        CommandError::TooManySpectators => tr!(l, "error-too-many-spectators", n = crate::table::MAX_SPECTATORS),
        CommandError::NoSuchSpectator(who) => tr!(l, "error-no-such-spectator", name = short(who)),
        CommandError::AmbiguousSpectator(who) => tr!(l, "error-ambiguous-spectator", name = short(who)),
        CommandError::KiebitzTaken(who) => tr!(l, "error-kiebitz-taken", name = who.as_str()),
        CommandError::NoKiebitz => tr!(l, "error-no-kiebitz"),
        CommandError::NoLinkCode => tr!(l, "error-no-link-code"),
        CommandError::LinkSamePlatform => tr!(l, "error-link-same-platform"),
        CommandError::LinkedElsewhere => tr!(l, "error-linked-elsewhere"),
        CommandError::NotLinked => tr!(l, "error-not-linked"),
        CommandError::Damaged(why) => tr!(l, "error-damaged", why = why),
    }
}

/// A parse error.
pub fn parse_error(l: Lang, e: &ParseError) -> String {
    e.message(l)
}

/// Help, in the style of a platform: Discord's slash commands, Matrix's
/// `!doko` prefix (the default; a server may configure another), plain
/// words on a terminal.
pub fn help_text(l: Lang, topic: Option<&str>, platform: crate::ids::Platform) -> String {
    use crate::command::{HelpStyle, help_styled};
    use crate::ids::Platform;
    let style = match platform {
        Platform::Discord => HelpStyle::Slash { public: "doko", lists: "doko-lists", admin: "doko-rules" },
        Platform::Matrix => HelpStyle::Text("!doko"),
        Platform::Terminal => HelpStyle::Text(""),
    };
    help_styled(l, topic, style)
}

/// Whether a contract is public knowledge yet (for adapters' titles).
pub fn contract_name(l: Lang, c: Option<Contract>) -> String {
    c.map(|c| l.contract(c).into_owned()).unwrap_or_else(|| tr!(l, "reservations"))
}

/// The party word (for adapters).
pub fn party_name(l: Lang, p: Party) -> String {
    l.party(p).into_owned()
}

/// A hand as data for platforms with buttons: the cards (a pair once, in
/// the contract's order, playable ones marked) and the choices legal now.
pub fn hand_model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &HandView,
    stamp: String,
) -> crate::outbox::HandModel {
    model(l, channel, view, stamp, &view.sorted_hand(), view.legal_cards())
}

/// [`hand_model`] of a hand sorted and its playable cards.
fn model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &HandView,
    stamp: String,
    sorted: &[Card],
    playable: Cards,
) -> crate::outbox::HandModel {
    use crate::command::{Command, PovertyStep};
    use crate::outbox::{CardChoice, Choice, HandModel};
    let mut cards: Vec<CardChoice> = Vec::with_capacity(view.hand.distinct().len());
    let mut shown = doko_engine::Cards::EMPTY;
    for &c in sorted {
        if shown.contains(c) {
            continue; // a pair plays the same
        }
        shown.insert(c);
        cards.push(CardChoice {
            label: Cow::Borrowed(l.card_str(c)),
            playable: playable.contains(c),
            command: Command::Play(c),
        });
    }
    let mut choices: Vec<Choice> = Vec::new();
    for a in &view.legal {
        let (label, command) = match *a {
            Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => {
                (l.solo(kind), Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false })))
            }
            Action::Bid(Bid::Healthy) => (l.bid_said(false), Command::Bid(Bid::Healthy)),
            Action::Bid(b @ Bid::Reserve(r)) => (l.reservation(r), Command::Bid(b)),
            Action::Announce(c) => (l.call(c), Command::Announce(c)),
            Action::Say(d) => (cached_tr!(l, "declaration", what = d.name()), Command::Say(d)),
            Action::Answer(true) => (cached_tr!(l, "choice-accept"), Command::Poverty(PovertyStep::Accept)),
            Action::Answer(false) => (cached_tr!(l, "choice-decline"), Command::Poverty(PovertyStep::Decline)),
            _ => continue,
        };
        if !choices.iter().any(|c| c.command == command) {
            choices.push(Choice { label, command });
        }
    }
    HandModel {
        channel: channel.clone(),
        cards,
        choices,
        refresh: Choice { label: cached_tr!(l, "button-refresh"), command: Command::Hand },
        stamp,
    }
}

/// Said in the channel when a person cannot be reached privately (nothing
/// secret in it).
pub fn unreachable(l: Lang) -> String {
    tr!(l, "unreachable")
}

/// The answer when the table cannot be reached (the store is down); the
/// table's language is unknown then, so both.
pub fn unavailable() -> String {
    format!("{} / {}", tr!(Lang::En, "unavailable"), tr!(Lang::De, "unavailable"))
}

/// The label of the button that opens one's hand.
pub fn hand_label(l: Lang) -> String {
    cached_tr!(l, "button-my-hand").into_owned()
}

/// The words of a mention of the person to act.
pub fn your_turn(l: Lang) -> String {
    cached_tr!(l, "your-turn").into_owned()
}

/// The answer to a delivery that was handled before.
pub fn already_done(l: Lang) -> String {
    tr!(l, "already-done")
}

/// The answer to a click on a hand the deal has moved past.
pub fn stale(l: Lang) -> String {
    tr!(l, "stale-hand")
}

/// The faces of a language's cards in pictures.
fn faces(l: Lang) -> crate::picture::Faces {
    match l {
        Lang::De => crate::picture::Faces::German,
        Lang::En => crate::picture::Faces::English,
    }
}

/// A picture from the renderer, or none when it fails (logged without
/// cards: the text carries the same).
fn picture(name: &str, alt: String, png: Result<Vec<u8>, crate::picture::PictureError>) -> Option<Picture> {
    match png {
        Ok(png) => Some(Picture { name: name.to_string(), png: png.into(), alt }),
        Err(e) => {
            tracing::warn!(error = %e, picture = name, "a card picture could not be drawn");
            None
        }
    }
}

/// A hand as a picture, at a table that shows cards as pictures: sorted by
/// the contract's order; when the seat must play, the cards it may play
/// marked and the others dimmed.
pub fn hand_picture(t: &Table, view: &HandView) -> Option<Picture> {
    use crate::picture::{Mark, hand};
    if t.card_style() != CardStyle::Images {
        return None;
    }
    let playable = view.legal_cards();
    let playing = !playable.is_empty();
    let cards: Vec<_> = view
        .sorted_hand()
        .into_iter()
        .map(|c| {
            let mark = match (playing, playable.contains(c)) {
                (false, _) => Mark::Normal,
                (true, true) => Mark::Playable,
                (true, false) => Mark::Dimmed,
            };
            (c, mark)
        })
        .collect();
    let l = t.lang();
    picture("hand.png", tr!(l, "picture-hand", n = cards.len()), hand(&cards, faces(l)))
}

/// The whole deal as a picture (every hand as dealt, in the deal's
/// order), with its result, at a table that shows cards as pictures.
pub fn deal_picture(t: &Table, s: &Summary) -> Option<Picture> {
    if t.card_style() != CardStyle::Images || s.hands.len() != 4 {
        return None;
    }
    let l = t.lang();
    let hands: [Vec<doko_engine::Card>; 4] = std::array::from_fn(|i| s.hands[i].1.clone());
    picture("deal.png", tr!(l, "picture-deal"), crate::picture::deal(&hands, faces(l)))
}

/// The table's picture, at a table that shows cards as pictures: the
/// trick on the table and the last one (its winner's card marked).
pub fn table_picture(t: &Table) -> Option<Picture> {
    if t.card_style() != CardStyle::Images {
        return None;
    }
    let l = t.lang();
    let g = t.game().ok().flatten()?;
    let pv = g.public_view();
    let current = pv.trick.played();
    let last = pv.tricks.last().map(|tr| {
        let winner = (0..4).find(|i| tr.leader.plus(*i) == tr.winner).unwrap_or(0);
        (tr.cards, winner)
    });
    if current.is_empty() && last.is_none() {
        return None;
    }
    let last_ref = last.as_ref().map(|(c, w)| (&c[..], *w));
    picture("trick.png", tr!(l, "picture-trick"), crate::picture::trick(current, last_ref, faces(l)))
}
