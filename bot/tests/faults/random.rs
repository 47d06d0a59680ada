//! Random commands on a faulty store (a property test): every delivery is
//! applied at most once and none acknowledged is lost.

use std::sync::Mutex;
use std::time::Duration;

use doko_bot::command::{RulesCmd, TimeoutPolicy};
use doko_bot::{Actor, App, ChannelId, Command, Input, Outbox, Platform, Service, Store, Table};
use doko_engine::{Bid, Card, Rng};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use crate::common::{Answer, actions, classify, people, to_act, truth, unavailable};
use crate::store::{Faulty, Rates, get};

/// One step of the property test.
#[derive(Clone, Debug)]
enum Op {
    /// The person to act takes a legal action (the pick chooses which, and
    /// whether by a click on their hand); no deal: the admin starts one.
    Legal(u16),
    /// Someone does something illegal (out of turn, a card not legal or not
    /// held, an old click, a line that does not parse).
    Illegal(u8, u16),
    /// An earlier delivery arrives again.
    Repeat(u16),
    /// The turn timer ticks.
    Tick,
    /// Time passes (seconds).
    Wait(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        60 => any::<u16>().prop_map(Op::Legal),
        12 => (0u8..4, any::<u16>()).prop_map(|(w, p)| Op::Illegal(w, p)),
        12 => any::<u16>().prop_map(Op::Repeat),
        10 => Just(Op::Tick),
        3 => (5u8..40).prop_map(Op::Wait),
    ]
}

/// A delivery as first answered.
#[derive(Clone, Debug)]
struct Sent {
    id: String,
    who: usize,
    input: Input,
    answer: Answer,
}

/// What one case did.
#[derive(Clone, Debug, Default)]
struct Figures {
    cases: u64,
    commands: u64,
    deliveries: u64,
    sends: u64,
    retried: u64,
    unavailable: u64,
    answers_lost: u64,
    repeats: u64,
    refusals_repeated: u64,
    applied: u64,
    refused: u64,
    ticks: u64,
    deals_scored: u64,
    applied_twice: u64,
    lost: u64,
    calls: u64,
    fail: u64,
    delay: u64,
    timeout: u64,
    unclear: u64,
    late: u64,
    made: u64,
}

impl Figures {
    fn add(&mut self, o: &Figures) {
        macro_rules! sum { ($($f:ident),*) => { $( self.$f += o.$f; )* } }
        sum!(
            cases,
            commands,
            deliveries,
            sends,
            retried,
            unavailable,
            answers_lost,
            repeats,
            refusals_repeated,
            applied,
            refused,
            ticks,
            deals_scored,
            applied_twice,
            lost,
            calls,
            fail,
            delay,
            timeout,
            unclear,
            late,
            made
        );
    }
}

/// The most times a person sends one delivery.
const MAX_SENDS: u32 = 60;

struct Run {
    svc: Service<Faulty>,
    store: Faulty,
    ch: ChannelId,
    ps: Vec<Actor>,
    /// Loses answers on their way back.
    rng: Rng,
    log: Vec<Sent>,
    /// Stamps of hands seen (for old clicks).
    stamps: Vec<String>,
    fig: Figures,
    n: u64,
}

impl Run {
    /// Sends a delivery until it is answered (neither lost nor "table
    /// unavailable"): a person re-sends with the same id.
    async fn send(&mut self, id: &str, who: usize, input: &Input) -> Result<(Outbox, u32), String> {
        for attempt in 0..MAX_SENDS {
            self.fig.sends += 1;
            if attempt > 0 {
                self.fig.retried += 1;
            }
            let out = App::handle(&self.svc, &self.ch, &self.ps[who], input.clone(), Some(id)).await;
            if out.actor.as_ref() != Some(&self.ps[who].user) || (out.is_empty() && !out.duplicate) {
                return Err(format!("delivery {id}: no answer for its sender: {out:?}"));
            }
            if unavailable(&out) {
                self.fig.unavailable += 1;
                continue;
            }
            if self.rng.below(10) == 0 {
                self.fig.answers_lost += 1;
                continue;
            }
            return Ok((out, attempt));
        }
        Err(format!("delivery {id} was never answered"))
    }

    /// A new delivery: sent until answered, checked against the table.
    async fn deliver(&mut self, who: usize, input: Input) -> Result<(), String> {
        self.n += 1;
        let id = format!("d{}", self.n);
        self.fig.commands += 1;
        self.fig.deliveries += 1;
        let before = actions(&truth(&self.store, &self.ch).await?);
        let (out, attempt) = self.send(&id, who, &input).await?;
        let after = actions(&truth(&self.store, &self.ch).await?);
        let answer = classify(&out);
        // the first send of a new delivery is answered as what it did (an
        // unclear commit that was made too), never as a duplicate
        if attempt == 0 && matches!(answer, Answer::Duplicate(_)) {
            return Err(format!("delivery {id}: its first send answered as a duplicate: {out:?}"));
        }
        let is_move = matches!(
            input,
            Input::Command(Command::Play(_) | Command::Bid(_) | Command::Announce(_) | Command::Poverty(_))
                | Input::Clicked { .. }
        );
        // applied now, or by an earlier send whose answer did not arrive
        let expect = match &answer {
            Answer::Applied | Answer::Duplicate(None) if is_move => 1,
            _ => 0,
        };
        match &answer {
            Answer::Applied | Answer::Duplicate(None) => self.fig.applied += 1,
            Answer::Refused(_) | Answer::Duplicate(Some(_)) => self.fig.refused += 1,
        }
        self.judge(&id, before, after, expect, &answer)?;
        self.log.push(Sent { id, who, input, answer });
        Ok(())
    }

    fn judge(&mut self, id: &str, before: u64, after: u64, expect: u64, answer: &Answer) -> Result<(), String> {
        let got = after.saturating_sub(before);
        if got > expect {
            self.fig.applied_twice += got - expect;
        }
        if got < expect || after < before {
            self.fig.lost += expect - got.min(expect);
        }
        if got != expect {
            return Err(format!("delivery {id} answered {answer:?}: {got} actions taken, {expect} expected"));
        }
        Ok(())
    }

    /// One step: the operation done, each delivery judged against the table.
    async fn step(&mut self, op: &Op) -> Result<(), String> {
        let t = truth(&self.store, &self.ch).await?;
        match op {
            Op::Legal(pick) => self.legal(&t, usize::from(*pick)).await?,
            Op::Illegal(who, pick) => {
                let who = usize::from(*who);
                let input = self.illegal_input(&t, who, usize::from(*pick));
                self.deliver(who, input).await?;
            }
            Op::Repeat(pick) => self.repeat(&t, usize::from(*pick)).await?,
            Op::Tick => {
                self.fig.ticks += 1;
                let before = actions(&t);
                App::tick(&self.svc, &self.ch).await;
                let after = actions(&truth(&self.store, &self.ch).await?);
                self.judge("tick", before, after, 0, &Answer::Applied)?;
            }
            Op::Wait(s) => tokio::time::sleep(Duration::from_secs(u64::from(*s))).await,
        }
        Ok(())
    }

    /// The person to act takes legal action `pick` (a click on their hand
    /// now and then); no deal: the admin starts one.
    async fn legal(&mut self, t: &Table, pick: usize) -> Result<(), String> {
        match to_act(t, &self.ps) {
            None => self.deliver(0, Input::Command(Command::Start)).await?,
            Some((who, view)) => {
                let cmd = Command::from_action(view.legal[pick % view.legal.len()]);
                let truth_svc = Service::new(self.store.inner.clone(), 0);
                let hand = App::hand(&truth_svc, &self.ch, &self.ps[who].user).await;
                let input = match hand {
                    Some(h) if pick.is_multiple_of(4) => {
                        self.stamps.push(h.stamp.clone());
                        Input::Clicked { command: cmd, stamp: h.stamp }
                    }
                    _ => Input::Command(cmd),
                };
                self.deliver(who, input).await?;
            }
        }
        Ok(())
    }

    /// Something illegal from `who`: out of turn, a card not legal or not
    /// held, an old click, a line that does not parse.
    fn illegal_input(&self, t: &Table, who: usize, pick: usize) -> Input {
        let acting = to_act(t, &self.ps);
        let own: Vec<Card> = t.view_for(&self.ps[who].user).map(|v| v.hand.iter().collect()).unwrap_or_default();
        match pick % 4 {
            0 => {
                // a card: one held out of turn, or not legal, or not held
                let legal: Vec<Card> = match &acting {
                    Some((w, v)) if *w == who => v.legal_cards().iter().collect(),
                    _ => Vec::new(),
                };
                let mut cards: Vec<Card> = own.iter().copied().filter(|c| !legal.contains(c)).collect();
                if cards.is_empty() {
                    let other = (who + 1) % 4;
                    cards = t
                        .view_for(&self.ps[other].user)
                        .map(|v| v.hand.iter().filter(|c| !own.contains(c)).collect())
                        .unwrap_or_default();
                }
                match cards.get(pick / 4 % cards.len().max(1)) {
                    Some(c) => Input::Command(Command::Play(*c)),
                    None => Input::Command(Command::Bid(Bid::Healthy)),
                }
            }
            1 => match self.stamps.get(pick / 4 % self.stamps.len().max(1)) {
                Some(s) => match own.first() {
                    Some(c) => Input::Clicked { command: Command::Play(*c), stamp: s.clone() },
                    None => Input::Command(Command::Join),
                },
                None => Input::Command(Command::Join),
            },
            2 => Input::Text("play the joker".into()),
            _ => Input::Command(Command::Bid(Bid::Healthy)),
        }
    }

    /// An earlier delivery arrives again: answered as it was first (or as a
    /// duplicate of it), and applied no second time.
    async fn repeat(&mut self, t: &Table, pick: usize) -> Result<(), String> {
        if self.log.is_empty() {
            return Ok(());
        }
        let d = self.log[pick % self.log.len()].clone();
        self.fig.commands += 1;
        self.fig.repeats += 1;
        let before = actions(t);
        let (out, _) = self.send(&d.id, d.who, &d.input).await?;
        let after = actions(&truth(&self.store, &self.ch).await?);
        let answer = classify(&out);
        let parse_error = matches!(d.input, Input::Text(_));
        let same = match (&d.answer, &answer) {
            // a line that does not parse never reaches the table
            (Answer::Refused(a), Answer::Refused(b)) if parse_error => a == b,
            (Answer::Refused(a) | Answer::Duplicate(Some(a)), Answer::Duplicate(Some(b))) => {
                self.fig.refusals_repeated += 1;
                a == b
            }
            // an old refusal forgotten (beyond the newest kept): still not applied
            (Answer::Refused(_) | Answer::Duplicate(Some(_)), Answer::Duplicate(None)) => {
                t.knows_delivery(&d.id) && t.refusal_of(&d.id).is_none()
            }
            (Answer::Applied | Answer::Duplicate(None), Answer::Duplicate(None)) => true,
            _ => false,
        };
        if !same {
            return Err(format!("delivery {} again: first {:?}, now {answer:?}", d.id, d.answer));
        }
        self.judge(&d.id, before, after, 0, &answer)
    }

    /// What must hold of the table at the end.
    async fn finish(&mut self) -> Result<(), String> {
        let t = truth(&self.store, &self.ch).await?;
        let applied_moves = self
            .log
            .iter()
            .filter(|d| {
                matches!(d.answer, Answer::Applied | Answer::Duplicate(None))
                    && matches!(
                        d.input,
                        Input::Command(Command::Play(_) | Command::Bid(_) | Command::Announce(_) | Command::Poverty(_))
                            | Input::Clicked { .. }
                    )
            })
            .count() as u64;
        if actions(&t) != applied_moves {
            return Err(format!("{} actions at the table, {applied_moves} acknowledged", actions(&t)));
        }
        for s in t.session().into_iter().chain(t.history()) {
            for row in s.sheet() {
                let sum: i64 = row.scores.iter().sum();
                if sum != 0 {
                    return Err(format!("deal {} of a score sheet sums to {sum}", row.deal));
                }
                self.fig.deals_scored += 1;
            }
        }
        for n in 1..=t.records() {
            let Some(r) = self.store.inner.record(&self.ch, n).await.map_err(|e| e.to_string())? else { continue };
            let rec = doko_engine::Record::from_stored(&r).map_err(|e| format!("record {n}: {e}"))?;
            rec.replay().map_err(|e| format!("record {n} does not replay: {e}"))?;
        }
        let c = &self.store.counts;
        self.fig.calls = get(&c.calls);
        self.fig.fail = get(&c.fail);
        self.fig.delay = get(&c.delay);
        self.fig.timeout = get(&c.timeout);
        self.fig.unclear = get(&c.unclear);
        self.fig.late = get(&c.late);
        self.fig.made = get(&c.made);
        self.fig.cases = 1;
        Ok(())
    }
}

const RATES: Rates = Rates { fail: 60, delay: 60, unclear: 60, late: 30 };

async fn scenario(seed: u64, ops: &[Op]) -> Result<Figures, String> {
    let store = Faulty::random(seed, RATES);
    let svc = Service::new(store.clone(), seed);
    let mut run = Run {
        svc,
        store,
        ch: ChannelId::new(Platform::TERMINAL, "random"),
        ps: people(),
        rng: Rng::new(seed ^ 0x5eed),
        log: Vec::new(),
        stamps: Vec::new(),
        fig: Figures::default(),
        n: 0,
    };
    // seated, a turn timeout that aborts the deal, dealt: under faults too
    for who in 0..4 {
        run.deliver(who, Input::Command(Command::Join)).await?;
    }
    let timeout = RulesCmd::Set { key: "turn_timeout".into(), value: "30".into() };
    run.deliver(0, Input::Command(Command::Rules(timeout))).await?;
    run.deliver(0, Input::Command(Command::Policy(TimeoutPolicy::Abort))).await?;
    run.deliver(0, Input::Command(Command::Start)).await?;
    if run.log.iter().any(|d| d.answer != Answer::Applied && d.answer != Answer::Duplicate(None)) {
        return Err(format!("the table was not set up: {:?}", run.log));
    }
    for op in ops {
        run.step(op).await?;
        // the table always loads
        truth(&run.store, &run.ch).await?;
        let (loaded, _) = Service::new(run.store.inner.clone(), 0).table(&run.ch).await.map_err(|e| e.to_string())?;
        if loaded.seats().len() != 4 {
            return Err("a seat went missing".into());
        }
    }
    run.finish().await?;
    Ok(run.fig)
}

/// Random commands from four people (legal moves mostly, illegal ones,
/// repeats of earlier deliveries, ticks of the turn timer, time passing)
/// on a store that fails, delays and leaves commits unclear; each person
/// re-sends an unanswered or errored command with the same delivery id.
/// Every delivery is applied at most once and none acknowledged is lost
/// (checked after each delivery and over the whole run against the
/// table's moves), every deal's score sheet sums to zero, every record
/// replays, the table always loads, every command gets an answer.
#[test]
fn random_commands_on_a_faulty_store_apply_each_delivery_once() {
    let cases = std::env::var("DOKO_FAULT_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let total = Mutex::new(Figures::default());
    let strategy = (any::<u64>(), proptest::collection::vec(op(), 80..200));
    runner
        .run(&strategy, |(seed, ops)| {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap();
            let fig = rt.block_on(scenario(seed, &ops)).map_err(TestCaseError::fail)?;
            prop_assert_eq!(fig.applied_twice, 0);
            prop_assert_eq!(fig.lost, 0);
            total.lock().unwrap().add(&fig);
            Ok(())
        })
        .unwrap();
    let f = total.into_inner().unwrap();
    // the faults were met: unclear commits made, deliveries re-sent, refusals repeated
    assert!(f.made > 0 && f.retried > 0 && f.refusals_repeated > 0, "{f:?}");
    println!(
        "faults: {} cases, {} store calls: {} failed before, {} delayed, {} delayed past the timeout (never made), \
         {} committed then an error, {} committed then answered late ({} of these commits made)",
        f.cases, f.calls, f.fail, f.delay, f.timeout, f.unclear, f.late, f.made
    );
    println!(
        "commands: {} ({} deliveries, {} repeats of an earlier delivery, {} ticks); {} sends, {} deliveries retried \
         ({} answered \"table unavailable\", {} answers lost); {} applied, {} refused, {} refusals repeated with the \
         same answer; {} deals scored; applied twice = {}, lost = {}",
        f.commands,
        f.deliveries,
        f.repeats,
        f.ticks,
        f.sends,
        f.retried,
        f.unavailable,
        f.answers_lost,
        f.applied,
        f.refused,
        f.refusals_repeated,
        f.deals_scored,
        f.applied_twice,
        f.lost
    );
}
