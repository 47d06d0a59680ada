//! The seat protocol (`docs/seat-protocol.md`, version 1): a line protocol
//! between a table manager (here `doko arena`) and a program playing one
//! seat (here `doko seat`), after the bridge table-manager protocol and
//! chess's UCI.
//!
//! The manager tells the program the rules, its seat, its hand and every
//! public event as it happens; when the seat is to decide, it sends the
//! seat's whole view as JSON and the legal choices as tokens, and reads one
//! token back. Both sides are here: [`events`] and [`Program`] /
//! [`ProgramPlayer`] for the manager, [`serve`] and [`Tracker`] for the
//! program.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use doko_engine::wire::{bid_text, cards_of_text, cards_text, contract_of, party_of, phase_token, seat_of_text};
use doko_engine::{Action, Card, Cards, Contract, Party, Phase, Rules, Score, Seat, SeatView, SeenBid};

use crate::player::Player;

/// The protocol's name, the first word of the first line each side sends.
pub const PROTOCOL: &str = "doko-seat";
/// The protocol version this build speaks.
pub const VERSION: u32 = 1;

/// What went wrong between a manager and a program.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// The program could not be started or written to, or closed its output.
    #[error("the program {0}")]
    Io(String),
    /// The program did not answer within the time allowed.
    #[error("the program gave no answer within {0} ms")]
    Timeout(u128),
    /// A line broke the protocol.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The events disagree with the view (`doko seat --strict`).
    #[error("the events disagree with the view: {0}")]
    Mismatch(String),
}

/// Cards as an event writes them: `-` for none.
fn cards_word(c: Cards) -> String {
    if c.is_empty() { "-".into() } else { cards_text(c) }
}

fn cards_of_word(w: &str) -> Result<Cards, String> {
    if w == "-" { Ok(Cards::EMPTY) } else { cards_of_text(w).map_err(|e| e.to_string()) }
}

fn party_word(p: Option<Party>) -> &'static str {
    p.map_or("?", |p| p.name())
}

fn seen_bid_word(b: SeenBid) -> String {
    match b {
        SeenBid::Healthy => "healthy".into(),
        SeenBid::Reserved => "reserved".into(),
        SeenBid::Decided(r) => bid_text(doko_engine::Bid::Reserve(r)),
    }
}

/// The public history as event lines: plays, announcements, declarations,
/// Genschers, each completed trick after its fourth card.
fn history_lines(v: &SeatView, from: usize, out: &mut Vec<String>) {
    let hist = v.public.history();
    let mut plays =
        hist[..from.min(hist.len())].iter().filter(|(_, a)| matches!(a, Action::Play(_) | Action::Genscher(_))).count();
    for (s, a) in hist.iter().skip(from) {
        let s = s.index();
        match a {
            Action::Play(c) => out.push(format!("play {s} {c}")),
            Action::Genscher(p) => out.push(format!("genscher {s} {}", p.index())),
            Action::Announce(c) => out.push(format!("announce {s} {}", c.name())),
            Action::Say(d) => out.push(format!("say {s} {}", d.name())),
            _ => {}
        }
        if matches!(a, Action::Play(_) | Action::Genscher(_)) {
            plays += 1;
            if plays % 4 == 0
                && let Some(t) = v.public.tricks.get(plays / 4 - 1)
            {
                out.push(format!("trick {} {}", t.winner.index(), t.points));
            }
        }
    }
}

/// The event lines that tell a seat what happened between two of its
/// views (`prev`: none at the start of a deal, after the `deal` line).
pub fn events(prev: Option<&SeatView>, now: &SeatView) -> Vec<String> {
    let mut out = Vec::new();
    let p = &now.public;
    let pp = prev.map(|v| &v.public);
    if pp.map(|x| x.phase) != Some(p.phase) {
        out.push(format!("phase {}", phase_token(p.phase)));
    }
    // the hand, when it changed other than by the seat's own cards
    let played_now: Cards = played_by(now, now.seat);
    let expected = prev.and_then(|v| v.hand.checked_sub(played_now.checked_sub(played_by(v, v.seat))?));
    if expected != Some(now.hand) {
        out.push(format!("hand {}", cards_word(now.hand)));
    }
    for s in p.dealer.next().clockwise() {
        let i = s.index();
        let before = pp.and_then(|x| x.bids[i]);
        match (before, p.bids[i]) {
            (None, Some(b @ SeenBid::Healthy)) | (None, Some(b @ SeenBid::Reserved)) => {
                out.push(format!("bid {i} {}", seen_bid_word(b)))
            }
            (None, Some(b @ SeenBid::Decided(_))) => {
                out.push(format!("bid {i} reserved"));
                out.push(format!("reservation {i} {}", seen_bid_word(b)));
            }
            (Some(x), Some(b @ SeenBid::Decided(_))) if x != b => {
                out.push(format!("reservation {i} {}", seen_bid_word(b)))
            }
            _ => {}
        }
    }
    if let Some(c) = p.contract
        && pp.map(|x| (x.contract, x.declarer)) != Some((p.contract, p.declarer))
    {
        out.push(format!("contract {} {}", c.name(), p.declarer.map_or("-".into(), |d| d.index().to_string())));
    }
    if let Some(pv) = p.poverty {
        let old = pp.and_then(|x| x.poverty);
        if pv.given > 0 && old.is_none_or(|o| o.given == 0) {
            out.push(format!("poverty give {} {}", pv.pauper.index(), pv.given));
        }
        for d in old.map_or(0, |o| o.declined)..pv.declined {
            out.push(format!("poverty decline {}", pv.pauper.plus(d as usize + 1).index()));
        }
        if let Some(a) = pv.acceptor
            && old.and_then(|o| o.acceptor).is_none()
        {
            out.push(format!("poverty accept {}", a.index()));
        }
        if pv.returned > 0 && old.is_none_or(|o| o.returned == 0) {
            out.push(format!("poverty return {} {}", pv.acceptor.map_or(0, |a| a.index()), pv.returned));
        }
    }
    if let Some((g, r)) = now.poverty_cards
        && prev.and_then(|v| v.poverty_cards) != Some((g, r))
    {
        out.push(format!("exchange {} {}", cards_word(g), cards_word(r)));
    }
    let from = pp.map_or(0, |x| x.history().len());
    history_lines(now, from, &mut out);
    if pp.map(|x| x.parties) != Some(p.parties) && (pp.is_some() || p.parties.iter().any(Option::is_some)) {
        out.push(format!("parties {}", p.parties.map(party_word).join(" ")));
    }
    if prev.map(|v| v.own_party) != Some(now.own_party)
        && let Some(o) = now.own_party
    {
        out.push(format!("party {}", o.name()));
    }
    if pp.map(|x| x.mandatory) != Some(p.mandatory)
        && let Some(m) = p.mandatory
    {
        out.push(format!("mandatory {}", m.index()));
    }
    out
}

fn played_by(v: &SeatView, seat: Seat) -> Cards {
    let mut c = Cards::EMPTY;
    for (s, card) in doko_engine::record::plays_of(&v.public.tricks, &v.public.trick) {
        if s == seat {
            c.insert(card);
        }
    }
    c
}

/// The line that ends a deal: `end` and the four scores of a scored deal,
/// `end redeal REASON` for a void one, `end aborted` otherwise.
pub fn end_line(phase: Phase, score: Option<&Score>) -> String {
    match (phase, score) {
        (_, Some(s)) => format!("end {}", s.scores.map(|x| x.to_string()).join(" ")),
        (Phase::Redeal(r), None) => format!("end redeal {}", r.name()),
        _ => "end aborted".into(),
    }
}

/// What a program knows from the event lines alone: kept by `doko seat`
/// to check, with `--strict`, that the events tell the same as the view.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    seat: Option<Seat>,
    hand: Cards,
    phase: String,
    history: Vec<(Seat, Action)>,
    tricks: Vec<(Seat, u8)>,
    bids: [Option<String>; 4],
    contract: Option<(Contract, Option<Seat>)>,
    parties: Option<[Option<Party>; 4]>,
    own_party: Option<Party>,
    mandatory: Option<Seat>,
}

fn seat_word(w: Option<&str>) -> Result<Seat, String> {
    seat_of_text(w.unwrap_or("")).map_err(|e| e.to_string())
}

impl Tracker {
    /// A tracker for a new deal at a seat.
    pub fn new(seat: Seat) -> Tracker {
        Tracker { seat: Some(seat), ..Tracker::default() }
    }

    /// Takes in one event line (other lines are no events and change
    /// nothing).
    pub fn apply(&mut self, line: &str) -> Result<(), String> {
        let mut w = line.split_whitespace();
        let verb = w.next().unwrap_or("");
        let mut arg = || w.next();
        match verb {
            "phase" => self.phase = arg().unwrap_or("").to_string(),
            "hand" => self.hand = cards_of_word(arg().unwrap_or("-"))?,
            "bid" | "reservation" => {
                let s = seat_word(arg())?;
                self.bids[s.index()] = arg().map(str::to_string);
            }
            "contract" => {
                let c = contract_of(arg().unwrap_or("")).map_err(|e| e.to_string())?;
                let d = match arg() {
                    Some("-") | None => None,
                    x => Some(seat_word(x)?),
                };
                self.contract = Some((c, d));
            }
            "play" | "genscher" | "announce" | "say" => {
                let s = seat_word(arg())?;
                let a = arg().unwrap_or("");
                let action = Action::from_token(&format!("{verb}:{a}")).map_err(|e| e.to_string())?;
                if Some(s) == self.seat {
                    match action {
                        Action::Play(c) => _ = self.hand.remove(c),
                        Action::Genscher(_) => _ = self.hand.remove(Card::DK),
                        _ => {}
                    }
                }
                self.history.push((s, action));
            }
            "trick" => {
                let s = seat_word(arg())?;
                let pts = arg().and_then(|p| p.parse().ok()).ok_or("trick points expected")?;
                self.tricks.push((s, pts));
            }
            // `?` (unknown) reads as none
            "parties" => self.parties = Some(std::array::from_fn(|_| party_of(arg().unwrap_or("?")).ok())),
            "party" => self.own_party = party_of(arg().unwrap_or("?")).ok(),
            "mandatory" => self.mandatory = Some(seat_word(arg())?),
            _ => {}
        }
        Ok(())
    }

    /// Whether what the events told agrees with a view of the same seat.
    pub fn check(&self, v: &SeatView) -> Result<(), String> {
        let p = &v.public;
        if self.seat != Some(v.seat) {
            return Err(format!("the view is seat {}'s", v.seat.index()));
        }
        if self.phase != phase_token(p.phase) {
            return Err(format!("phase {} told, {} in the view", self.phase, phase_token(p.phase)));
        }
        if self.hand != v.hand {
            return Err(format!("hand {} told, {} in the view", cards_word(self.hand), cards_word(v.hand)));
        }
        if self.history != p.history() {
            return Err(format!("{} plays and calls told, {} in the view", self.history.len(), p.history().len()));
        }
        let tricks: Vec<(Seat, u8)> = p.tricks.iter().map(|t| (t.winner, t.points)).collect();
        if self.tricks != tricks {
            return Err("the tricks' winners or points differ".into());
        }
        let bids: [Option<String>; 4] = p.bids.map(|b| b.map(seen_bid_word));
        if self.bids != bids {
            return Err(format!("bids {:?} told, {:?} in the view", self.bids, bids));
        }
        if self.contract.map(|c| c.0) != p.contract
            || self.contract.and_then(|c| c.1) != p.declarer && p.contract.is_some()
        {
            return Err("the contract or declarer differs".into());
        }
        if self.parties.unwrap_or([None; 4]) != p.parties {
            return Err("the parties differ".into());
        }
        if self.own_party != v.own_party && v.own_party.is_some() {
            return Err("the seat's own party differs".into());
        }
        if p.mandatory.is_some() && self.mandatory != p.mandatory {
            return Err("the seat owing an announcement differs".into());
        }
        Ok(())
    }
}

/// The program side: plays one seat for a manager over `input`/`output`
/// (stdin and stdout in `doko seat`). `player` makes the player for a deal
/// from the deal's seed; `name` is what the program calls itself. With
/// `strict`, a view that disagrees with the events ends the session with
/// [`SeatError::Mismatch`]; otherwise a warning goes to `warn`.
pub fn serve(
    mut player: impl FnMut(u64) -> Box<dyn Player>,
    name: &str,
    strict: bool,
    input: impl BufRead,
    mut output: impl Write,
    mut warn: impl Write,
) -> Result<(), SeatError> {
    let io = |e: std::io::Error| SeatError::Io(format!("could not answer: {e}"));
    let mut current: Option<Box<dyn Player>> = None;
    let mut tracker = Tracker::default();
    let mut view: Option<SeatView> = None;
    let mut deals = 0u64;
    let mut greeted = false;
    for line in input.lines() {
        let line = line.map_err(|e| SeatError::Io(format!("could not read: {e}")))?;
        let line = line.trim();
        let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
        match verb {
            PROTOCOL => {
                let versions: Vec<&str> = rest.split_whitespace().collect();
                if !versions.contains(&VERSION.to_string().as_str()) {
                    writeln!(output, "error {PROTOCOL} {VERSION} only").map_err(io)?;
                    output.flush().map_err(io)?;
                    return Err(SeatError::Protocol(format!(
                        "the manager offers version(s) {rest}, this is {VERSION}"
                    )));
                }
                writeln!(output, "{PROTOCOL} {VERSION} {name}").map_err(io)?;
                output.flush().map_err(io)?;
                greeted = true;
            }
            _ if !greeted && !line.is_empty() => {
                return Err(SeatError::Protocol(format!("'{PROTOCOL} {VERSION}' expected first, not '{verb}'")));
            }
            "deal" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let seat = seat_word(w.first().copied()).map_err(SeatError::Protocol)?;
                deals += 1;
                let seed = w.get(2).and_then(|s| s.parse().ok()).unwrap_or(deals);
                current = Some(player(seed));
                tracker = Tracker::new(seat);
                view = None;
            }
            "view" => {
                let v: serde_json::Value =
                    serde_json::from_str(rest).map_err(|e| SeatError::Protocol(format!("view: {e}")))?;
                view = Some(SeatView::from_json(&v).map_err(|e| SeatError::Protocol(format!("view: {e}")))?);
            }
            "ask" => {
                let choices: Vec<&str> = rest.split_whitespace().collect();
                let Some(first) = choices.first() else {
                    return Err(SeatError::Protocol("ask without choices".into()));
                };
                let (Some(v), Some(p)) = (view.as_ref(), current.as_mut()) else {
                    return Err(SeatError::Protocol("ask before deal and view".into()));
                };
                let told: Vec<String> = v.legal.iter().map(Action::token).collect();
                let checked = tracker.check(v).and_then(|()| {
                    if told.iter().map(String::as_str).eq(choices.iter().copied()) {
                        Ok(())
                    } else {
                        Err("the choices are not the view's legal actions".into())
                    }
                });
                if let Err(e) = checked {
                    if strict {
                        return Err(SeatError::Mismatch(e));
                    }
                    let _ = writeln!(warn, "doko seat: the events disagree with the view: {e}");
                }
                let token = p.decide(v).token();
                let answer = if choices.contains(&token.as_str()) { token } else { first.to_string() };
                writeln!(output, "{answer}").map_err(io)?;
                output.flush().map_err(io)?;
            }
            "quit" => return Ok(()),
            _ => tracker.apply(line).map_err(|e| SeatError::Protocol(format!("{verb}: {e}")))?,
        }
    }
    Ok(())
}

/// A program seated through the protocol (the manager's side): started
/// with `sh -c`, greeted, then told events and asked for decisions.
pub struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
    /// What the program called itself in its greeting.
    pub name: String,
    /// The first failure; later decisions fall back at once.
    pub failed: Option<String>,
}

impl Program {
    /// Starts `command` with `sh -c` and greets it; `timeout` bounds every
    /// answer.
    pub fn start(command: &str, timeout: Duration) -> Result<Program, SeatError> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| SeatError::Io(format!("'{command}' could not start: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Program { child, stdin: Some(stdin), lines: rx, timeout, name: String::new(), failed: None };
        p.send(&format!("{PROTOCOL} {VERSION}"))?;
        let hello = p.answer()?;
        let mut w = hello.split_whitespace();
        if w.next() != Some(PROTOCOL) || w.next() != Some(VERSION.to_string().as_str()) {
            return Err(SeatError::Protocol(format!("'{PROTOCOL} {VERSION} NAME' expected, got '{}'", cut(&hello))));
        }
        p.name = w.collect::<Vec<_>>().join(" ");
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), SeatError> {
        let Some(stdin) = self.stdin.as_mut() else { return Err(SeatError::Io("was stopped".into())) };
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| SeatError::Io(format!("stopped reading: {e}")))
    }

    /// The next line that is not a comment (`#`) or `info`.
    fn answer(&mut self) -> Result<String, SeatError> {
        loop {
            match self.lines.recv_timeout(self.timeout) {
                Ok(l) if l.starts_with('#') || l.starts_with("info") => continue,
                Ok(l) => return Ok(l.trim().to_string()),
                Err(RecvTimeoutError::Timeout) => return Err(SeatError::Timeout(self.timeout.as_millis())),
                Err(RecvTimeoutError::Disconnected) => return Err(SeatError::Io("closed its output".into())),
            }
        }
    }

    fn fail(&mut self, e: &SeatError) {
        if self.failed.is_none() {
            self.failed = Some(e.to_string());
            let _ = self.child.kill();
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
            let _ = stdin.flush();
        }
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cut(s: &str) -> String {
    s.chars().take(80).collect()
}

/// One deal's player behind a [`Program`]: tells it the deal, the events
/// as they happen and the view when it is to decide.
pub struct ProgramPlayer {
    program: Rc<RefCell<Program>>,
    rules: Rules,
    seed: u64,
    last: Option<SeatView>,
    faults: usize,
}

impl ProgramPlayer {
    /// The player for one deal, with the seed the deal's `deal` line
    /// hands the program.
    pub fn new(program: Rc<RefCell<Program>>, rules: Rules, seed: u64) -> ProgramPlayer {
        ProgramPlayer { program, rules, seed, last: None, faults: 0 }
    }

    fn tell(&mut self, view: &SeatView) -> Result<(), SeatError> {
        let mut prog = self.program.borrow_mut();
        if let Some(e) = &prog.failed {
            return Err(SeatError::Io(e.clone()));
        }
        if self.last.is_none() {
            prog.send(&format!("rules {}", doko_engine::record::rules_to_json(&self.rules)))?;
            prog.send(&format!("deal {} {} {}", view.seat.index(), view.public.dealer.index(), self.seed))?;
        }
        for l in events(self.last.as_ref(), view) {
            prog.send(&l)?;
        }
        self.last = Some(view.clone());
        Ok(())
    }

    fn ask(&mut self, view: &SeatView) -> Result<Action, SeatError> {
        self.tell(view)?;
        let mut prog = self.program.borrow_mut();
        prog.send(&format!("view {}", view.to_json()))?;
        let choices: Vec<String> = view.legal.iter().map(Action::token).collect();
        prog.send(&format!("ask {}", choices.join(" ")))?;
        let answer = prog.answer()?;
        Action::from_token(&answer).map_err(|e| SeatError::Protocol(format!("answer '{}': {e}", cut(&answer))))
    }
}

impl Player for ProgramPlayer {
    fn decide(&mut self, view: &SeatView) -> Action {
        match self.ask(view) {
            Ok(a) => a,
            Err(e) => {
                self.faults += 1;
                if !matches!(e, SeatError::Protocol(_)) {
                    self.program.borrow_mut().fail(&e);
                }
                view.legal[0]
            }
        }
    }

    fn observes(&self) -> bool {
        true
    }

    fn observe(&mut self, view: &SeatView) {
        if let Err(e) = self.tell(view) {
            self.program.borrow_mut().fail(&e);
        }
    }

    fn end(&mut self, view: &SeatView, score: Option<&Score>) {
        let r = self.tell(view).and_then(|()| self.program.borrow_mut().send(&end_line(view.public.phase, score)));
        if let Err(e) = r {
            self.program.borrow_mut().fail(&e);
        }
    }

    fn faults(&mut self) -> usize {
        std::mem::take(&mut self.faults)
    }
}
