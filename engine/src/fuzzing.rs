//! The bodies of the engine's fuzz targets (`fuzz/`, run by `cargo fuzz`),
//! here so that the workspace tests can replay the committed corpus
//! through the very same code (`engine/tests/fuzz_corpus.rs`).
//!
//! Each function takes any bytes and panics only when the engine breaks a
//! promise: a panic inside the engine, an action accepted that
//! `legal_actions` does not list (or the other way round), a refused step
//! that changed something, an error message that is not one line, a
//! record or stored session that does not read back as written.
//!
//! Not part of the engine's API: hidden from the documentation and free to
//! change with the fuzz targets.

use serde_json::Value;

use crate::{
    Action, Bid, Call, Card, Cards, Declaration, Game, KEYS, Phase, Preset, Record, RecordError, Reservation, Rules,
    Seat, Session, SoloKind, record::replay_str,
};

/// The most steps one input takes (a deal is about 60): keeps every run
/// short, whatever the input.
const MAX_STEPS: usize = 400;

/// The input, read a byte at a time; zeros once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        if n <= 256 { self.byte() as usize % n } else { (self.byte() as usize | (self.byte() as usize) << 8) % n }
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |acc, _| acc << 8 | u64::from(self.byte()))
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An error message: one line, not empty.
fn one_line(what: &str, msg: &str) {
    assert!(!msg.trim().is_empty(), "{what}: empty error message");
    assert!(!msg.contains(['\n', '\r']), "{what}: error message is not one line: {msg:?}");
}

// ---------------------------------------------------------------------
// record: the record reader and the stored session
// ---------------------------------------------------------------------

/// The `record` target: the bytes (as text, invalid UTF-8 replaced) go to
/// the record reader the way `doko replay` reads a file, to the reader of a
/// partial record (a stored deal in progress), and to the reader of a
/// stored session.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let n_actions =
        serde_json::from_str::<Value>(text).ok().and_then(|v| v.get("actions").and_then(Value::as_array).map(Vec::len));

    // `doko replay`
    match replay_str(text) {
        Ok(r) => {
            assert!(r.game.is_over() || r.aborted.is_some(), "a replay that is neither over nor aborted");
            let _ = r.to_json();
            let _ = r.to_text();
        }
        Err(e) => record_error(&e, n_actions),
    }

    // a partial record, as a stored deal: what is read is written back the
    // same
    if let Ok(rec) = Record::from_json(text) {
        let again = Record::from_json(&rec.to_json()).expect("a record written is read back");
        match (rec.to_game(), again.to_game()) {
            (Ok(g), Ok(h)) => {
                assert!(g == h, "a record read back plays to another game");
                game_round_trip(&g);
                touch(&g);
            }
            (Err(e), Err(_)) => record_error(&e, n_actions),
            (a, b) => panic!("a record read back plays otherwise: {:?} then {:?}", a.is_ok(), b.is_ok()),
        }
    }

    // a stored session
    match serde_json::from_str::<Session>(text) {
        Ok(s) => session_round_trip(&s),
        Err(e) => one_line("session", &e.to_string()),
    }
}

/// A record error: one line, `record: ...` or `action <n>: ...` with `n`
/// an index into the actions.
fn record_error(e: &RecordError, n_actions: Option<usize>) {
    let msg = e.to_string();
    one_line("record", &msg);
    match e {
        RecordError::Record(_) => assert!(msg.starts_with("record: "), "bad record message {msg:?}"),
        RecordError::Refused { index, .. } | RecordError::Malformed { index, .. } => {
            assert!(msg.starts_with(&format!("action {index}: ")), "bad action message {msg:?}");
            if let Some(n) = n_actions {
                assert!(*index < n, "action index {index} of {n} actions: {msg:?}");
            }
        }
    }
}

/// A game's record reads back into the same game.
fn game_round_trip(g: &Game) {
    let rec = Record::from_game(g);
    let back = Record::from_json(&rec.to_json()).expect("a game's record is read back");
    let h = back.to_game().expect("a game's record plays back");
    assert!(&h == g, "a game's record plays to another game");
    if g.is_over() {
        let h = rec.replay().expect("a finished game's record replays");
        assert!(&h == g, "a finished game's record replays to another game");
    }
}

/// A session is stored and read back the same.
fn session_round_trip(s: &Session) {
    let text = serde_json::to_string(s).expect("a session is written");
    let back: Session = serde_json::from_str(&text).expect("a session written is read back");
    assert!(&back == s, "a session read back is another session");
}

// ---------------------------------------------------------------------
// actions: a deal (or a session) driven by the bytes
// ---------------------------------------------------------------------

/// Values the house-rule keys take, valid and not.
const VALUES: &[&str] = &[
    "true",
    "false",
    "on",
    "off",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "30",
    "35",
    "40",
    "41",
    "100",
    "101",
    "86400",
    "86401",
    "-1",
    "18446744073709551616",
    "10",
    "60",
    "61",
    "first-wins",
    "second-wins",
    "second-wins-except-last",
    "first-foreign",
    "first-fail",
    "first-trump",
    "plus-two",
    "doubles",
    "first",
    "last",
    "before-first-card",
    "before-second-card",
    "deal",
    "play",
    "extend",
    "stack",
    "tie lost-re lost-kontra heart-trick lost-solo",
    "lost-solo lost-solo",
    "none",
    "diamonds hearts spades clubs queens jacks aces kings",
    "queens,jacks",
    "queens queens",
    "against-the-elders doppelkopf fox charlie fox-last-trick charlie-caught",
    "fox-first-trick dulle-caught heart-trick lizzie-miller",
    "charlie-caught lizzie-miller",
    "fox, charlie",
    "",
    " ",
    "x",
    "ddv",
];

/// A rule set from the bytes: a preset and a few keys set (a refused
/// value changes nothing; a value set reads back).
fn rules(b: &mut Bytes<'_>) -> Rules {
    let head = b.byte();
    let mut r = Rules::preset(Preset::ALL[usize::from(head & 1)]);
    for _ in 0..(head >> 1) % 5 {
        let key = KEYS[b.below(KEYS.len())].name;
        let value = VALUES[b.below(VALUES.len())];
        let before = r;
        match r.set(key, value) {
            Ok(()) => {
                let shown = r.get(key).expect("a key set is read");
                let mut again = before;
                again.set(key, &shown).expect("a value shown is accepted");
                assert!(again == r, "rule {key} shown as {shown:?} sets another value");
            }
            Err(e) => {
                assert!(r == before, "a refused rule {key} = {value:?} changed the rules");
                one_line("rules", &e.to_string());
            }
        }
    }
    r
}

/// Some cards for a poverty step: raw bits, or cards of the seat's hand
/// (sometimes with a stranger).
fn cards(b: &mut Bytes<'_>, g: &Game, seat: Seat) -> Cards {
    let how = b.byte();
    if how & 3 == 0 {
        return Cards::from_bits(b.u64());
    }
    let hand: Vec<Card> = g.hand(seat).iter().collect();
    let pick = b.u64();
    let mut out = Cards::EMPTY;
    for (i, c) in hand.iter().enumerate().take(64) {
        if pick >> i & 1 == 1 {
            out.insert(*c);
        }
    }
    if how & 4 != 0 {
        out.insert(Card::from_index(b.below(24)));
    }
    out
}

/// Any action at all, by any seat.
fn any_action(b: &mut Bytes<'_>, g: &Game) -> (Seat, Action) {
    let op = b.byte();
    let seat = Seat::ALL[usize::from(op & 3)];
    let action = match (op >> 2) % 8 {
        0 => Action::Bid(match b.below(5) {
            0 => Bid::Healthy,
            1 => Bid::Reserve(Reservation::Wedding(None)),
            2 => Bid::Reserve(Reservation::Poverty),
            3 => Bid::Reserve(Reservation::ThrowIn),
            _ => {
                let k = b.byte();
                Bid::Reserve(Reservation::Solo { kind: SoloKind::ALL[usize::from(k & 7)], duty: k & 8 != 0 })
            }
        }),
        1 => Action::Give(cards(b, g, seat)),
        2 => Action::Answer(b.byte() & 1 == 0),
        3 => Action::Return(cards(b, g, seat)),
        4 => Action::Play(Card::from_index(b.below(24))),
        5 => Action::Say(Declaration::ALL[b.below(Declaration::ALL.len())]),
        6 => Action::Genscher(Seat::ALL[b.below(4)]),
        _ => Action::Announce(Call::ALL[b.below(Call::ALL.len())]),
    };
    (seat, action)
}

/// A step: mostly a legal action of the seat on turn (or of anyone), else
/// any action.
fn step(b: &mut Bytes<'_>, g: &Game) -> (Seat, Action) {
    let op = b.byte();
    if op & 0xC0 != 0xC0 {
        let seat = match g.to_act() {
            Some(s) if op & 0x20 == 0 => s,
            _ => Seat::ALL[usize::from(op & 3)],
        };
        let legal = g.legal_actions(seat);
        if !legal.is_empty() {
            return (seat, legal[b.below(legal.len())]);
        }
    }
    any_action(b, g)
}

/// Everything that can be asked of a game.
fn touch(g: &Game) {
    let _ = g.score();
    let _ = g.public_view();
    let _ = g.mandatory_announcement();
    let _ = g.levels();
    for s in Seat::ALL {
        let _ = g.view(s);
        let _ = g.legal_cards(s);
        let _ = g.legal_calls(s);
        let _ = g.party(s);
    }
    if g.is_over() {
        assert!(g.to_act().is_none(), "a seat on turn in a game that is over");
    }
    if g.phase() == Phase::Finished {
        let score = g.score().expect("a finished game is scored");
        assert!(score.card_points[0] + score.card_points[1] == 240, "card points do not add up to 240");
        assert!(score.scores.iter().sum::<i32>() == 0, "scores do not add up to zero");
    }
}

/// The `actions` target: the bytes pick rules, a dealer and a seed, then
/// drive either one deal or a whole session (deals, actions, scoring,
/// aborts) with legal and illegal steps; where the input ends, the game or
/// session is stored and read back (an input cut anywhere stores any
/// state).
///
/// Every step must be a legal step or a typed error: an action is accepted
/// exactly when `legal_actions` lists it, a refused action changes nothing
/// and says why in one line, and the game's record reads back into the
/// same game.
pub fn actions(data: &[u8]) {
    let mut b = Bytes(data);
    let mode = b.byte();
    let rules = rules(&mut b);
    if mode & 1 == 0 {
        deal(&mut b, rules);
    } else {
        session(&mut b, rules, 4 + usize::from(mode >> 1 & 1));
    }
}

fn deal(b: &mut Bytes<'_>, rules: Rules) {
    let dealer = Seat::ALL[b.below(4)];
    let mut g = Game::deal(rules, dealer, b.u64());
    for _ in 0..MAX_STEPS {
        if b.is_empty() {
            break;
        }
        let (seat, action) = step(b, &g);
        let legal = g.legal_actions(seat).contains(&action);
        let before = g.clone();
        match g.act(seat, action) {
            Ok(()) => {
                assert!(legal, "{action:?} by {seat} accepted but not listed as legal");
                touch(&g);
            }
            Err(e) => {
                assert!(!legal, "{action:?} by {seat} listed as legal but refused: {e}");
                assert!(g == before, "the refused {action:?} by {seat} changed the game");
                one_line("action", &e.to_string());
            }
        }
    }
    game_round_trip(&g);
}

fn session(b: &mut Bytes<'_>, mut rules: Rules, players: usize) {
    let mut s = Session::new(players, &rules).expect("a session of 4 or 5");
    let mut record = 0u32;
    for _ in 0..MAX_STEPS {
        if b.is_empty() {
            break;
        }
        let op = b.byte();
        let before = s.clone();
        let result = match op % 16 {
            0 => {
                // new rules between deals (the next deal takes them)
                if op & 0x10 != 0 {
                    rules = self::rules(b);
                }
                let seed = b.u64();
                s.next_deal(&rules, || seed).map(|_| ())
            }
            1 => {
                record += 1;
                s.finish(record).map(|_| ())
            }
            2 => s.abort().map(|_| ()),
            3 => s.end().map(|_| ()),
            _ => match s.game() {
                Some(g) => {
                    let (seat, action) = step(b, g);
                    if let Action::Bid(bid) = action {
                        let _ = s.computer_bid(seat, bid);
                    }
                    s.act(seat, action).map(|_| ())
                }
                None => s.act(Seat::ALL[usize::from(op >> 4 & 3)], Action::Bid(Bid::Healthy)).map(|_| ()),
            },
        };
        match result {
            Ok(()) => {
                if let Some(g) = s.game() {
                    touch(g);
                }
                let sum: i64 = s.totals().iter().sum();
                assert!(sum == 0, "session totals add up to {sum}");
            }
            Err(e) => {
                assert!(s == before, "a refused session step changed the session: {e}");
                one_line("session", &e.to_string());
            }
        }
    }
    session_round_trip(&s);
}
