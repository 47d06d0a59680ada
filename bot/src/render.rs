//! Messages as platform-neutral values. Public text is built only from the
//! engine's [`PublicView`](doko_engine::PublicView) and the table's names
//! and sheet; a private hand only from that seat's
//! [`SeatView`](doko_engine::SeatView). Nothing here can reach another
//! seat's hand.

use std::fmt::Write;

use doko_engine::{
    Action, Bid, Contract, Party, Phase, RedealReason, Reservation, Rules, SeatView, SeenBid, SessionError,
};

use crate::command::{ParseError, help};
use crate::ids::UserId;
use crate::lang::Lang;
use crate::table::{CommandError, Event, PovertyMove, Summary, Table};

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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
            Event::Joined(n) => format!("{n} {}", l.t("joins the table.", "nimmt Platz.")),
            Event::Left(n) => format!("{n} {}", l.t("leaves the table.", "verlässt den Tisch.")),
            Event::ComputerJoined(n) => {
                format!("{n} {}", l.t("(computer) joins the table.", "(Computer) nimmt Platz."))
            }
            Event::Away(n) => {
                format!("{n} {}", l.t("is away; a computer plays the seat.", "ist weg; ein Computer spielt den Platz."))
            }
            Event::Back(n) => format!("{n} {}", l.t("is back.", "ist zurück.")),
            Event::Dealt { number, dealer, bock, forced } => {
                let mut s = format!("{} {number}: {dealer} {}", l.t("Deal", "Spiel"), l.t("deals.", "gibt."));
                if *bock {
                    s.push_str(l.t(" Bock: counts double.", " Bock: zählt doppelt."));
                }
                if let Some(f) = forced {
                    let _ = write!(
                        s,
                        " {f} {}",
                        l.t("must play a solo (vorführen).", "muss ein Solo spielen (Vorführen).")
                    );
                }
                s
            }
            Event::Bid { name, reserved } => {
                format!(
                    "{name}: {}",
                    if *reserved {
                        l.t("reservation (Vorbehalt)", "Vorbehalt")
                    } else {
                        l.t("healthy (gesund)", "gesund")
                    }
                )
            }
            Event::Played { name, card } => format!("{name} {} {}", l.t("plays", "spielt"), l.card(*card)),
            Event::TrickWon { name, points } => {
                format!("{} {name} ({points} {})", l.t("Trick to", "Stich an"), l.t("points", "Augen"))
            }
            Event::Announced { name, call } => format!("{name}: {}!", l.call(*call)),
            Event::Poverty { name, step } => {
                let w = match (l, *step) {
                    (Lang::De, PovertyMove::Gave) => "legt die Armut ab",
                    (Lang::De, PovertyMove::Accepted) => "nimmt die Armut",
                    (Lang::De, PovertyMove::Declined) => "lehnt die Armut ab",
                    (Lang::De, PovertyMove::Returned) => "gibt Karten zurück",
                    (_, PovertyMove::Gave) => "puts the poverty down",
                    (_, PovertyMove::Accepted) => "takes the poverty",
                    (_, PovertyMove::Declined) => "declines the poverty",
                    (_, PovertyMove::Returned) => "returns cards",
                };
                format!("{name} {w}.")
            }
            Event::Scored(s) => summary(l, s),
            Event::Redeal(r) => match r {
                RedealReason::ThrowIn => {
                    l.t("Thrown in: the same dealer deals again.", "Eingeworfen: derselbe Geber gibt neu.").into()
                }
                RedealReason::PovertyDeclined => l
                    .t(
                        "Nobody takes the poverty: the same dealer deals again.",
                        "Niemand nimmt die Armut: derselbe Geber gibt neu.",
                    )
                    .into(),
            },
            Event::SessionOver => {
                let mut s = l.t("The session is over.", "Die Runde ist zu Ende.").to_string();
                s.push('\n');
                s.push_str(&score(t));
                s
            }
            Event::RulesChanged => l
                .t(
                    "House rules changed; they apply from the next deal.",
                    "Hausregeln geändert; sie gelten ab dem nächsten Spiel.",
                )
                .into(),
            Event::LangChanged => l.t("Language: English.", "Sprache: Deutsch.").into(),
            Event::Reminder(n) => format!("{n}: {}", l.t("your time is running out.", "deine Zeit läuft ab.")),
            Event::TimedOut(n) => format!(
                "{n}: {}",
                l.t(
                    "time is up; a computer plays the seat until you say back.",
                    "Zeit abgelaufen; ein Computer spielt den Platz, bis du back sagst."
                )
            ),
            Event::Aborted(n) => format!(
                "{n}: {}",
                l.t(
                    "time is up; the deal is aborted. Say start to deal again.",
                    "Zeit abgelaufen; das Spiel ist abgebrochen. Mit start wird neu gegeben."
                )
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

fn summary(l: Lang, s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}: {}{}",
        l.t("Result of deal", "Ergebnis von Spiel"),
        s.number,
        l.contract(s.contract),
        s.declarer.as_ref().map(|d| format!(" ({d})")).unwrap_or_default()
    );
    let _ = writeln!(out, "Re: {} - {} {}", s.re.join(", "), s.card_points[0], l.t("points", "Augen"));
    let _ = writeln!(out, "Kontra: {} - {} {}", s.kontra.join(", "), s.card_points[1], l.t("points", "Augen"));
    match s.winner {
        Some(w) => {
            let _ = writeln!(
                out,
                "{} {}, {} {}",
                l.t("Winner:", "Gewinner:"),
                l.party(w),
                l.t("game value", "Spielwert"),
                s.value
            );
        }
        None => {
            let _ = writeln!(
                out,
                "{} {}",
                l.t(
                    "No winner: neither party reached its target; each is credited what it achieved, value for Re",
                    "Kein Gewinner: keine Partei hat ihr Ziel erreicht; jede erhält, was sie erreicht hat, Wert für Re"
                ),
                s.value
            );
        }
    }
    for it in &s.items {
        let _ = writeln!(out, "  {} {} {:+}", reason(l, it.reason), l.party(it.party), it.points);
    }
    if s.bock {
        let _ = writeln!(out, "{}", l.t("Bock: counts double.", "Bock: zählt doppelt."));
    }
    let scores: Vec<String> = s.scores.iter().map(|(n, p)| format!("{n} {p:+}")).collect();
    let _ = write!(
        out,
        "{} {}  ({} {})",
        l.t("Points:", "Punkte:"),
        scores.join(", "),
        l.t("record", "Protokoll"),
        s.record
    );
    out
}

fn reason(l: Lang, r: doko_engine::Reason) -> &'static str {
    use doko_engine::Reason::*;
    match (l, r) {
        (Lang::En, Won) => "won",
        (Lang::De, Won) => "gewonnen",
        (Lang::En, Under90) => "under 90",
        (Lang::De, Under90) => "keine 90 gespielt",
        (Lang::En, Under60) => "under 60",
        (Lang::De, Under60) => "keine 60 gespielt",
        (Lang::En, Under30) => "under 30",
        (Lang::De, Under30) => "keine 30 gespielt",
        (Lang::En, Schwarz) => "schwarz",
        (Lang::De, Schwarz) => "schwarz gespielt",
        (_, AnnouncedRe) => "Re",
        (_, AnnouncedKontra) => "Kontra",
        (Lang::En, ReDoubles) => "Re doubles",
        (Lang::De, ReDoubles) => "Re verdoppelt",
        (Lang::En, KontraDoubles) => "Kontra doubles",
        (Lang::De, KontraDoubles) => "Kontra verdoppelt",
        (Lang::En, AnnouncedNo90) => "no 90 announced",
        (Lang::De, AnnouncedNo90) => "keine 90 abgesagt",
        (Lang::En, AnnouncedNo60) => "no 60 announced",
        (Lang::De, AnnouncedNo60) => "keine 60 abgesagt",
        (Lang::En, AnnouncedNo30) => "no 30 announced",
        (Lang::De, AnnouncedNo30) => "keine 30 abgesagt",
        (Lang::En, AnnouncedSchwarz) => "schwarz announced",
        (Lang::De, AnnouncedSchwarz) => "schwarz abgesagt",
        (Lang::En, Reached120AgainstNo90) => "120 against no 90",
        (Lang::De, Reached120AgainstNo90) => "120 gegen keine 90",
        (Lang::En, Reached90AgainstNo60) => "90 against no 60",
        (Lang::De, Reached90AgainstNo60) => "90 gegen keine 60",
        (Lang::En, Reached60AgainstNo30) => "60 against no 30",
        (Lang::De, Reached60AgainstNo30) => "60 gegen keine 30",
        (Lang::En, Reached30AgainstSchwarz) => "30 against schwarz",
        (Lang::De, Reached30AgainstSchwarz) => "30 gegen schwarz",
        (Lang::En, AgainstTheElders) => "against the elders (gegen die Alten)",
        (Lang::De, AgainstTheElders) => "gegen die Alten",
        (_, Doppelkopf) => "Doppelkopf",
        (Lang::En, Fox) => "fox caught",
        (Lang::De, Fox) => "Fuchs gefangen",
        (Lang::En, FoxLastTrick) => "fox in the last trick",
        (Lang::De, FoxLastTrick) => "Fuchs im letzten Stich",
        (_, Charlie) => "Karlchen",
        (Lang::En, CharlieCaught) => "Karlchen caught",
        (Lang::De, CharlieCaught) => "Karlchen gefangen",
    }
}

/// The table as everybody sees it.
pub fn table(t: &Table) -> String {
    let l = t.lang();
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", l.t("Rules:", "Regeln:"), rules_line(t.rules()));
    let g = match t.game() {
        Ok(Some(g)) => g,
        _ => {
            let names: Vec<&str> = t.seats().iter().map(|s| s.name()).collect();
            let _ = writeln!(out, "{} ({}/4): {}", l.t("Seats", "Plätze"), t.seats().len(), names.join(", "));
            if t.seats().len() >= 4 {
                let _ = writeln!(out, "{}", l.t("Say start to deal.", "Mit start wird gegeben."));
            }
            return out;
        }
    };
    let pv = g.public_view();
    if let Some(c) = pv.contract {
        let _ = writeln!(
            out,
            "{} {}{}",
            l.t("Game:", "Spiel:"),
            l.contract(c),
            pv.declarer.map(|d| format!(" ({})", t.name_of(d))).unwrap_or_default()
        );
    }
    for s in doko_engine::Seat::ALL {
        let mut line = t.name_of(s);
        if let Some(p) = pv.parties[s.index()] {
            let _ = write!(line, " [{}]", l.party(p));
        }
        if let Some(b) = pv.bids[s.index()] {
            let _ = write!(
                line,
                " - {}",
                match b {
                    SeenBid::Healthy => l.t("healthy", "gesund").to_string(),
                    SeenBid::Reserved => l.t("reservation", "Vorbehalt").to_string(),
                    SeenBid::Decided(r) => reservation(l, r),
                }
            );
        }
        let anns: Vec<&str> = pv.announcements.iter().filter(|a| a.seat == s).map(|a| l.call(a.call())).collect();
        if !anns.is_empty() {
            let _ = write!(line, " - {}", anns.join(", "));
        }
        let _ = write!(line, " ({} {})", pv.hand_sizes[s.index()], l.t("cards", "Karten"));
        let _ = writeln!(out, "{line}");
    }
    if let Some(last) = pv.tricks.last() {
        let cards: Vec<String> = last.cards.iter().map(|c| l.card(*c)).collect();
        let _ =
            writeln!(out, "{} {} -> {}", l.t("Last trick:", "Letzter Stich:"), cards.join(" "), t.name_of(last.winner));
    }
    if pv.trick.len > 0 {
        let cards: Vec<String> = pv.trick.played().iter().map(|c| l.card(*c)).collect();
        let _ = writeln!(out, "{} {}", l.t("Trick:", "Stich:"), cards.join(" "));
    }
    if let Some(s) = pv.to_act {
        let what = match pv.phase {
            Phase::Bidding => l.t("to bid", "ist mit dem Vorbehalt dran"),
            Phase::PovertyGive => l.t("to put down the poverty", "legt die Armut ab"),
            Phase::PovertyOffer => l.t("to accept or decline the poverty", "nimmt die Armut oder lehnt ab"),
            Phase::PovertyReturn => l.t("to return cards", "gibt Karten zurück"),
            _ => l.t("to play", "ist am Zug"),
        };
        let _ = writeln!(out, "{} {what}.", t.name_of(s));
    }
    if let Some(m) = pv.mandatory {
        let _ = writeln!(
            out,
            "{} {}",
            t.name_of(m),
            l.t("must announce first (Pflichtansage).", "muss zuerst ansagen (Pflichtansage).")
        );
    }
    out
}

fn reservation(l: Lang, r: Reservation) -> String {
    match r {
        Reservation::Wedding => l.t("wedding", "Hochzeit").into(),
        Reservation::Poverty => l.t("poverty", "Armut").into(),
        Reservation::ThrowIn => l.t("throw-in", "Schmeißen").into(),
        Reservation::Solo { kind, duty } => {
            let mut s = l.solo(kind).to_string();
            if duty {
                s.push_str(l.t(" (compulsory)", " (Pflicht)"));
            }
            s
        }
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

/// A player's hand and what they may do now, from their seat's view only.
pub fn hand(l: Lang, view: &SeatView) -> String {
    let mut out = String::new();
    let playable = view.legal_cards();
    let cards: Vec<String> = view
        .sorted_hand()
        .iter()
        .map(|c| if playable.contains(*c) { format!("[{}]", l.card(*c)) } else { l.card(*c) })
        .collect();
    let _ = writeln!(out, "{} {}", l.t("Your hand:", "Dein Blatt:"), cards.join(" "));
    if let Some(p) = view.own_party {
        let _ = writeln!(out, "{} {}", l.t("You play", "Du spielst"), l.party(p));
    }
    if let Some((given, returned)) = view.poverty_cards {
        let g: Vec<String> = given.iter().map(|c| l.card(c)).collect();
        let r: Vec<String> = returned.iter().map(|c| l.card(c)).collect();
        let _ = writeln!(
            out,
            "{} {} / {}",
            l.t("Poverty cards given/returned:", "Armut-Karten ab/zurück:"),
            g.join(" "),
            r.join(" ")
        );
    }
    let mut can: Vec<String> = Vec::new();
    for a in &view.legal {
        match a {
            Action::Bid(b) => can.push(bid_word(l, *b)),
            Action::Announce(c) => can.push(l.call(*c).to_string()),
            Action::Answer(true) => can.push(l.t("accept", "annehmen").into()),
            Action::Answer(false) => can.push(l.t("decline", "ablehnen").into()),
            Action::Give(c) => {
                if !can.iter().any(|s| s.starts_with("give") || s.starts_with("gib")) {
                    can.push(format!("{} ({})", l.t("give CARDS", "gib KARTEN"), c.len()));
                }
            }
            Action::Return(_) => {
                if !can.iter().any(|s| s.starts_with("return") || s.starts_with("zurück")) {
                    can.push(l.t("return CARDS", "zurück KARTEN").into());
                }
            }
            Action::Play(_) => {}
        }
    }
    let mut seen = std::collections::HashSet::new();
    can.retain(|c| seen.insert(c.clone()));
    if !can.is_empty() {
        let _ = writeln!(out, "{} {}", l.t("You can:", "Möglich:"), can.join(", "));
    }
    if !playable.is_empty() {
        let _ = writeln!(out, "{}", l.t("Your turn: play a [card].", "Du bist dran: spiele eine [Karte]."));
    }
    out
}

fn bid_word(l: Lang, b: Bid) -> String {
    match b {
        Bid::Healthy => l.t("healthy", "gesund").into(),
        Bid::Reserve(Reservation::Solo { kind, .. }) => format!("solo {}", kind.key()),
        Bid::Reserve(r) => reservation(l, r),
    }
}

/// The score sheet.
pub fn score(t: &Table) -> String {
    let l = t.lang();
    let Some(s) = t.session() else { return l.t("No session yet.", "Noch keine Runde.").into() };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<14} {}",
        "#",
        l.t("game", "Spiel"),
        s.names().iter().map(|n| format!("{n:>10}")).collect::<String>()
    );
    let mut running = vec![0i64; s.names().len()];
    for row in s.sheet() {
        for (r, d) in running.iter_mut().zip(&row.scores) {
            *r += d;
        }
        let cells: String = running.iter().map(|v| format!("{v:>10}")).collect();
        let _ = writeln!(out, "{:>4}  {:<14} {cells}{}", row.deal, row.contract, if row.bock { " (Bock)" } else { "" });
    }
    let sum: i64 = s.totals().iter().sum();
    let parity_ok = {
        let active: Vec<i64> = s.totals().as_slice().to_vec();
        active.len() != 4 || active.iter().all(|v| v.rem_euclid(2) == active[0].rem_euclid(2))
    };
    let _ = writeln!(
        out,
        "{}: {} {}{}",
        l.t("Check", "Kontrolle"),
        l.t("sum", "Summe"),
        sum,
        if parity_ok { l.t(", all even or all odd", ", alle gerade oder alle ungerade") } else { "" }
    );
    if t.rules().compulsory_solos > 0 {
        let owed: Vec<String> =
            s.names().iter().zip(s.duty_left()).filter(|(_, d)| **d > 0).map(|(n, d)| format!("{n} {d}")).collect();
        if !owed.is_empty() {
            let _ = writeln!(out, "{} {}", l.t("Compulsory solos owed:", "Offene Pflichtsoli:"), owed.join(", "));
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
        l.t("player", "Spieler"),
        l.t("deals", "Spiele"),
        l.t("won", "gew."),
        "solos",
        l.t("won", "gew."),
        l.t("points", "Punkte")
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
    let mut s = t.rules().to_string();
    if let Some(g) = t.game().ok().flatten()
        && g.rules() != t.rules()
    {
        s.push_str(t.lang().t(
            "(the deal being played uses the rules it was dealt with)\n",
            "(das laufende Spiel gilt mit den Regeln, mit denen es gegeben wurde)\n",
        ));
    }
    s
}

/// A rule the engine enforced, told with names and card symbols.
pub fn rule_error(t: &Table, e: &doko_engine::ActionError) -> String {
    use doko_engine::ActionError as A;
    let l = t.lang();
    let n = |s: doko_engine::Seat| t.name_of(s);
    match e {
        A::DealOver => l.t("the deal is over", "das Spiel ist vorbei").into(),
        A::WrongPhase { now, .. } => format!("{}: {now}", l.t("not now", "nicht jetzt")),
        A::NotYourTurn { turn, .. } => {
            format!("{} {}", l.t("it is not your turn; it is", "du bist nicht dran, sondern"), n(*turn))
        }
        A::NotInHand { card, .. } => format!("{} {}", l.t("you do not hold", "du hast kein"), l.card(*card)),
        A::MustFollow { class, holds, .. } => {
            let suit = match (l, class) {
                (Lang::De, doko_engine::Class::Trump) => "Trumpf",
                (Lang::De, doko_engine::Class::Clubs) => "Kreuz",
                (Lang::De, doko_engine::Class::Spades) => "Pik",
                (Lang::De, doko_engine::Class::Hearts) => "Herz",
                (Lang::De, doko_engine::Class::Diamonds) => "Karo",
                (_, c) => c.name(),
            };
            format!(
                "{} {suit} ({} {})",
                l.t("you must follow", "du musst bedienen:"),
                l.t("you hold", "du hast"),
                l.card(*holds)
            )
        }
        A::MustAnnounce { points, .. } => format!(
            "{points} {}",
            l.t(
                "points in the first trick: you must announce first (Pflichtansage)",
                "Augen im ersten Stich: du musst zuerst ansagen (Pflichtansage)"
            )
        ),
        A::WeddingNeedsQueens { .. } => {
            l.t("a wedding needs both queens of clubs", "eine Hochzeit braucht beide Kreuz-Damen").into()
        }
        A::RuleOff { what, .. } => {
            format!("{what}: {}", l.t("not allowed under these rules", "nach diesen Regeln nicht erlaubt"))
        }
        A::TooManyTrumps { trumps, max, .. } => format!(
            "{} {trumps} {}; {} {max}",
            l.t("you hold", "du hast"),
            l.t("trumps", "Trümpfe"),
            l.t("poverty allows at most", "Armut erlaubt höchstens")
        ),
        A::CannotThrowIn { nines, kings, .. } => format!(
            "{} ({nines} {}, {kings} {})",
            l.t("not enough to throw in", "zu wenig zum Schmeißen"),
            l.t("nines", "Neunen"),
            l.t("kings", "Könige")
        ),
        A::SoloNotAllowed { kind, .. } => {
            format!("solo {kind}: {}", l.t("not allowed under these rules", "nach diesen Regeln nicht erlaubt"))
        }
        A::ExchangeCount { expected, got, .. } => {
            format!("{} {expected} {} ({got})", l.t("pass exactly", "genau"), l.t("cards", "Karten abgeben"))
        }
        A::MustGiveTrumps { keeps, .. } => format!(
            "{} ({} {})",
            l.t("put down all your trumps", "lege alle Trümpfe ab"),
            l.t("you keep", "du behältst"),
            l.card(*keeps)
        ),
        A::BeforeClarification { .. } => l
            .t("no announcement before the wedding is clarified", "keine Ansage, bevor die Hochzeit geklärt ist")
            .into(),
        A::WrongParty { party, call, .. } => format!(
            "{} {}: {} {}",
            l.t("you play", "du spielst"),
            l.party(*party),
            l.t("you cannot announce", "du kannst nicht ansagen:"),
            l.call(*call)
        ),
        A::AlreadyAnnounced { party, call, .. } => {
            format!("{} {} {}", l.party(*party), l.t("has already announced", "hat schon angesagt:"), l.call(*call))
        }
        A::TooLate { call, cards, needed, .. } => format!(
            "{}: {} {cards} {}, {} {needed}",
            l.call(*call),
            l.t("too late - you hold", "zu spät - du hast"),
            l.t("cards", "Karten"),
            l.t("it needs", "nötig sind")
        ),
        A::AfterLateReply { call, .. } => format!(
            "{}: {}",
            l.call(*call),
            l.t("no further announcement after a late reply", "keine weitere Ansage nach einer späten Erwiderung")
        ),
    }
}

/// A refused command.
pub fn error(l: Lang, e: &CommandError) -> String {
    if l == Lang::En {
        return e.to_string();
    }
    match e {
        CommandError::NotSeated => "du sitzt nicht an diesem Tisch".into(),
        CommandError::AlreadySeated => "du sitzt schon".into(),
        CommandError::TableFull => "der Tisch ist voll".into(),
        CommandError::NotEnoughPlayers(n) => format!("{n} von 4 Plätzen besetzt; erst beitreten oder addbot"),
        CommandError::DealRunning => "ein Spiel läuft".into(),
        CommandError::NoDeal => "kein Spiel läuft; start gibt".into(),
        CommandError::SittingOut => "du setzt dieses Spiel aus (du gibst)".into(),
        CommandError::NotAdmin => "das dürfen nur die Admins des Kanals".into(),
        CommandError::ComputerPlays => "ein Computer spielt deinen Platz; mit back übernimmst du".into(),
        CommandError::NotAway => "du bist nicht weg".into(),
        CommandError::NoRecord(n) => format!("kein Protokoll Nummer {n}"),
        CommandError::Session(SessionError::MustBidSolo { .. }) => {
            "dieses Spiel ist ein Pflichtsolo (Vorführen): du musst ein Solo ansagen".into()
        }
        CommandError::Session(SessionError::OnlyForcedBids { .. }) => {
            "dieses Spiel ist ein Pflichtsolo (Vorführen): nur der Vorgeführte sagt an; sag gesund".into()
        }
        CommandError::Session(SessionError::Over) => "die Runde ist zu Ende".into(),
        other => other.to_string(),
    }
}

/// A parse error.
pub fn parse_error(l: Lang, e: &ParseError) -> String {
    e.message(l)
}

/// Help.
pub fn help_text(l: Lang, topic: Option<&str>) -> String {
    help(l, topic)
}

/// Whether a contract is public knowledge yet (for adapters' titles).
pub fn contract_name(l: Lang, c: Option<Contract>) -> String {
    c.map(|c| l.contract(c)).unwrap_or_else(|| l.t("reservations", "Vorbehalte").into())
}

/// The party word (for adapters).
pub fn party_name(l: Lang, p: Party) -> &'static str {
    l.party(p)
}

/// A hand as data for platforms with buttons: the cards (a pair once, in
/// the contract's order, playable ones marked) and the choices legal now.
pub fn hand_model(
    l: Lang,
    channel: &crate::ids::ChannelId,
    view: &SeatView,
    stamp: String,
) -> crate::outbox::HandModel {
    use crate::command::{Command, PovertyStep};
    use crate::outbox::{CardChoice, Choice, HandModel};
    let playable = view.legal_cards();
    let mut cards: Vec<CardChoice> = Vec::new();
    for c in view.sorted_hand() {
        if cards.iter().any(|x| x.command == Command::Play(c)) {
            continue; // a pair plays the same
        }
        cards.push(CardChoice { label: l.card(c), playable: playable.contains(c), command: Command::Play(c) });
    }
    let mut choices: Vec<Choice> = Vec::new();
    for a in &view.legal {
        let (label, command) = match *a {
            Action::Bid(Bid::Reserve(Reservation::Solo { kind, .. })) => {
                (l.solo(kind).to_string(), Command::Bid(Bid::Reserve(Reservation::Solo { kind, duty: false })))
            }
            Action::Bid(Bid::Healthy) => (l.t("healthy", "gesund").to_string(), Command::Bid(Bid::Healthy)),
            Action::Bid(b @ Bid::Reserve(r)) => (reservation(l, r), Command::Bid(b)),
            Action::Announce(c) => (l.call(c).to_string(), Command::Announce(c)),
            Action::Answer(true) => (l.t("accept", "annehmen").to_string(), Command::Poverty(PovertyStep::Accept)),
            Action::Answer(false) => (l.t("decline", "ablehnen").to_string(), Command::Poverty(PovertyStep::Decline)),
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
        refresh: Choice { label: l.t("refresh", "aktualisieren").to_string(), command: Command::Hand },
        stamp,
    }
}

/// Said in the channel when a person cannot be reached privately (nothing
/// secret in it).
pub fn unreachable(l: Lang) -> String {
    l.t(
        "I cannot send you private messages (direct messages closed or no direct room); use hand to see your cards.",
        "Ich kann dir keine privaten Nachrichten schicken (Direktnachrichten geschlossen oder kein Direktraum); mit hand siehst du deine Karten.",
    )
    .to_string()
}

/// The answer when the table cannot be reached (the store is down); the
/// table's language is unknown then, so both.
pub fn unavailable() -> String {
    "The table is unavailable right now; try again in a moment. / Der Tisch ist gerade nicht erreichbar; versuch es gleich noch einmal.".to_string()
}

/// The label of the button that opens one's hand.
pub fn hand_label(l: Lang) -> String {
    l.t("my hand", "mein Blatt").to_string()
}

/// The words of a mention of the person to act.
pub fn your_turn(l: Lang) -> String {
    l.t("your turn", "du bist dran").to_string()
}

/// The answer to a delivery that was handled before.
pub fn already_done(l: Lang) -> &'static str {
    l.t("already done", "schon erledigt")
}

/// The answer to a click on a hand the deal has moved past.
pub fn stale(l: Lang) -> String {
    l.t(
        "That hand was out of date (the deal has moved on); here is your current one.",
        "Dieses Blatt war veraltet (das Spiel ist weiter); hier ist dein aktuelles.",
    )
    .to_string()
}
