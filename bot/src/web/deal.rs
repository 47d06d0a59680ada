//! A finished deal's page: the four hands as dealt, in the card pictures
//! the bot draws, and every card in play order, trick by trick, with the
//! announcements where they fell, to step through one card at a time
//! (`deal.js`; without it every trick shows). Built only from a deal's
//! record once the deal is over.

use askama::Template;
use doko_engine::{Action, Game, Party, Record, Seat};

use super::{Head, render};
use crate::lang::Lang;
use crate::table::PageLink;
use crate::tr;

/// Who sat where in a deal, and where it is on its list.
pub struct DealSeats {
    /// The names in seats 1 to 4.
    pub names: [String; 4],
    /// The list's number and the deal's number on it, when known.
    pub on_list: Option<(u32, u32)>,
}

struct CardShown {
    code: String,
    text: String,
}

struct Hand {
    seat: usize,
    name: String,
    dealer: bool,
    cards: Vec<CardShown>,
}

struct Step {
    seat: usize,
    name: String,
    /// The card's code; empty for an announcement.
    card: String,
    text: String,
}

struct TrickLine {
    name: String,
    steps: Vec<Step>,
    won: String,
}

#[derive(Template)]
#[template(path = "deal.html")]
struct DealPage {
    head: Head,
    heading: String,
    result: String,
    hands_title: String,
    dealer_label: String,
    faces: &'static str,
    hands: Vec<Hand>,
    tricks_title: String,
    step_help: String,
    buttons: (String, String, String, String),
    tricks: Vec<TrickLine>,
}

/// The page of deal `record` (its record and the game it replays to,
/// finished), in language `l`.
pub fn deal_page(l: Lang, record: u32, rec: &Record, g: &Game, seats: &DealSeats, link: &PageLink) -> String {
    let link = &super::local(link);
    let contract = l.contract(g.contract()).into_owned();
    let heading = match seats.on_list {
        Some((list, deal)) => tr!(l, "web-deal-heading", deal = deal, list = list, contract = contract.as_str()),
        None => tr!(l, "web-deal-plain", record = record, contract = contract.as_str()),
    };
    let hands = Seat::ALL
        .iter()
        .map(|s| Hand {
            seat: s.index() + 1,
            name: seats.names[s.index()].clone(),
            dealer: *s == rec.dealer,
            cards: g
                .order()
                .sorted(rec.hands[s.index()])
                .into_iter()
                .map(|c| CardShown { code: c.to_string(), text: l.card(c) })
                .collect(),
        })
        .collect();
    let page = DealPage {
        head: Head::new(l, tr!(l, "web-deal-title", record = record), link),
        heading,
        result: result(l, g),
        hands_title: tr!(l, "web-hands"),
        dealer_label: tr!(l, "web-dealer"),
        faces: l.code(),
        hands,
        tricks_title: tr!(l, "web-tricks"),
        step_help: tr!(l, "web-step-help"),
        buttons: (tr!(l, "web-step-first"), tr!(l, "web-step-prev"), tr!(l, "web-step-next"), tr!(l, "web-step-last")),
        tricks: tricks(l, rec, g, &seats.names),
    };
    render(page, "deal")
}

/// Every card and announcement in play order, trick by trick (an
/// announcement with the trick of the card played after it).
fn tricks(l: Lang, rec: &Record, g: &Game, names: &[String; 4]) -> Vec<TrickLine> {
    let mut lines: Vec<TrickLine> = Vec::new();
    let mut plays = 0usize;
    for (s, a) in &rec.actions {
        let name = names[s.index()].clone();
        let (card, text) = match a {
            Action::Play(c) => (c.to_string(), format!("{name}: {}", l.card(*c))),
            Action::Announce(c) => (String::new(), tr!(l, "web-announced", name = name.as_str(), call = l.call(*c))),
            _ => continue,
        };
        let n = plays / 4;
        while lines.len() <= n {
            let i = lines.len();
            let won = g.tricks().get(i).map_or(String::new(), |t| {
                tr!(l, "web-trick-won", name = names[t.winner.index()].as_str(), points = t.points)
            });
            lines.push(TrickLine { name: tr!(l, "web-trick", n = i + 1), steps: Vec::new(), won });
        }
        lines[n].steps.push(Step { seat: s.index() + 1, name, card: card.clone(), text });
        plays += usize::from(!card.is_empty());
    }
    lines
}

/// The deal's outcome in a line: who won, the card points, the value.
fn result(l: Lang, g: &Game) -> String {
    let Some(sc) = g.score() else { return String::new() };
    let winner = match sc.winner {
        Some(Party::Re) => tr!(l, "web-winner-re"),
        Some(Party::Kontra) => tr!(l, "web-winner-kontra"),
        None => tr!(l, "web-winner-none"),
    };
    tr!(l, "web-result", winner = winner, re = sc.card_points[0], kontra = sc.card_points[1], value = sc.game_value)
}
