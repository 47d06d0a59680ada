//! Nothing lost, nothing doubled: the service on a store that fails.
//!
//! [`Faulty`] wraps the in-memory store through the [`Store`] trait and,
//! driven by a seeded generator (or a script), fails a call before making
//! it, delays it (beyond the service's limit: the service stops waiting
//! and the call is never made), makes a commit and then reports an error
//! ("commit happened, outcome unclear"), or makes a commit and answers only
//! after the service stopped waiting. Four people play through the
//! service as a platform drives it, each re-sending an unanswered or
//! errored command with the same delivery id; the table as stored (read
//! past the faults) is the judge.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use doko_bot::command::{RulesCmd, TimeoutPolicy};
use doko_bot::service::STORE_TIMEOUT;
use doko_bot::{
    Actor, App, ChannelId, Command, Commit, Input, Keep, Kind, MemoryStore, Outbox, Platform, Service, Store,
    StoreError, Stored, Table, UserId,
};
use doko_engine::{Action, Bid, Card, Rng};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

// ---------------------------------------------------------------- the store

/// What the faulty store does to one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// The call is made as asked.
    None,
    /// It fails before doing anything.
    Fail,
    /// It waits this long, then is made (when longer than the service's
    /// limit, the service stops waiting first and it is never made).
    Delay(Duration),
    /// (commits) The commit is made, then an error is reported.
    Unclear,
    /// (commits) The commit is made, and answered after the service
    /// stopped waiting.
    Late,
}

/// Per mille of calls that get each fault (loads get failures and delays
/// only).
#[derive(Clone, Copy, Debug)]
struct Rates {
    fail: usize,
    delay: usize,
    unclear: usize,
    late: usize,
}

/// Where the faults come from.
enum Plan {
    /// Drawn from a seeded generator.
    Random(Rng, Rates),
    /// The next loads and commits get these; then commits get `then`.
    Script { loads: VecDeque<Fault>, commits: VecDeque<Fault>, then: Fault },
}

/// Faults injected, by kind, and the calls made.
#[derive(Default, Debug)]
struct Counts {
    calls: AtomicU64,
    fail: AtomicU64,
    delay: AtomicU64,
    timeout: AtomicU64,
    unclear: AtomicU64,
    late: AtomicU64,
    /// Unclear and late commits that were made (not conflicts).
    made: AtomicU64,
}

fn bump(c: &AtomicU64) {
    c.fetch_add(1, Ordering::SeqCst);
}

fn get(c: &AtomicU64) -> u64 {
    c.load(Ordering::SeqCst)
}

/// The in-memory store with faults.
#[derive(Clone)]
struct Faulty {
    inner: MemoryStore,
    plan: Arc<Mutex<Plan>>,
    counts: Arc<Counts>,
}

/// A delay past the service's limit on a store call.
const LONG: Duration = Duration::from_millis(STORE_TIMEOUT.as_millis() as u64 + 1_000);

impl Faulty {
    fn new(plan: Plan) -> Faulty {
        Faulty { inner: MemoryStore::default(), plan: Arc::new(Mutex::new(plan)), counts: Arc::default() }
    }

    fn random(seed: u64, rates: Rates) -> Faulty {
        Faulty::new(Plan::Random(Rng::new(seed), rates))
    }

    fn script(commits: &[Fault], then: Fault) -> Faulty {
        Faulty::new(Plan::Script { loads: VecDeque::new(), commits: commits.iter().copied().collect(), then })
    }

    fn set(&self, plan: Plan) {
        *self.plan.lock().unwrap() = plan;
    }

    fn draw(&self, commit: bool) -> Fault {
        bump(&self.counts.calls);
        let f = match &mut *self.plan.lock().unwrap() {
            Plan::Random(rng, r) => {
                let x = rng.below(1000);
                let delay = |rng: &mut Rng| {
                    if rng.below(2) == 0 { LONG } else { Duration::from_millis(1 + rng.below(500) as u64) }
                };
                if x < r.fail {
                    Fault::Fail
                } else if x < r.fail + r.delay {
                    Fault::Delay(delay(rng))
                } else if commit && x < r.fail + r.delay + r.unclear {
                    Fault::Unclear
                } else if commit && x < r.fail + r.delay + r.unclear + r.late {
                    Fault::Late
                } else {
                    Fault::None
                }
            }
            Plan::Script { loads, commits, then } => {
                if commit {
                    commits.pop_front().unwrap_or(*then)
                } else {
                    loads.pop_front().unwrap_or(Fault::None)
                }
            }
        };
        match f {
            Fault::None => {}
            Fault::Fail => bump(&self.counts.fail),
            Fault::Delay(d) if d > STORE_TIMEOUT => bump(&self.counts.timeout),
            Fault::Delay(_) => bump(&self.counts.delay),
            Fault::Unclear => bump(&self.counts.unclear),
            Fault::Late => bump(&self.counts.late),
        }
        f
    }
}

fn injected() -> StoreError {
    StoreError::Embedded("injected fault".into())
}

impl Store for Faulty {
    async fn load(&self, ch: &ChannelId) -> Result<Option<Stored>, StoreError> {
        match self.draw(false) {
            Fault::Fail => Err(injected()),
            Fault::Delay(d) => {
                tokio::time::sleep(d).await;
                self.inner.load(ch).await
            }
            _ => self.inner.load(ch).await,
        }
    }

    async fn commit(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
    ) -> Result<Commit, StoreError> {
        self.commit_kept(ch, expected, json, records, Keep::default()).await
    }

    async fn commit_kept(
        &self,
        ch: &ChannelId,
        expected: u64,
        json: &str,
        records: &[String],
        keep: Keep,
    ) -> Result<Commit, StoreError> {
        match self.draw(true) {
            Fault::None => self.inner.commit_kept(ch, expected, json, records, keep).await,
            Fault::Fail => Err(injected()),
            Fault::Delay(d) => {
                tokio::time::sleep(d).await;
                self.inner.commit_kept(ch, expected, json, records, keep).await
            }
            Fault::Unclear => {
                if let Commit::Done(_) = self.inner.commit_kept(ch, expected, json, records, keep).await? {
                    bump(&self.counts.made);
                }
                Err(injected())
            }
            Fault::Late => {
                let r = self.inner.commit_kept(ch, expected, json, records, keep).await;
                if let Ok(Commit::Done(_)) = r {
                    bump(&self.counts.made);
                }
                tokio::time::sleep(LONG).await;
                r
            }
        }
    }

    async fn record(&self, ch: &ChannelId, n: u32) -> Result<Option<String>, StoreError> {
        self.inner.record(ch, n).await
    }

    async fn channels(&self) -> Result<Vec<ChannelId>, StoreError> {
        self.inner.channels().await
    }

    async fn quarantine(&self, q: &doko_bot::Quarantined) -> Result<bool, StoreError> {
        self.inner.quarantine(q).await
    }

    async fn quarantined(&self) -> Result<Vec<doko_bot::Quarantined>, StoreError> {
        self.inner.quarantined().await
    }

    async fn format_version(&self) -> Result<Option<u32>, StoreError> {
        // a read, faulted as loads are (the service's health check)
        match self.draw(false) {
            Fault::Fail => Err(injected()),
            Fault::Delay(d) => {
                tokio::time::sleep(d).await;
                self.inner.format_version().await
            }
            _ => self.inner.format_version().await,
        }
    }

    async fn set_format_version(&self, v: u32) -> Result<(), StoreError> {
        self.inner.set_format_version(v).await
    }
}

// ---------------------------------------------------------------- helpers

fn people() -> Vec<Actor> {
    (1..=4).map(|i| Actor::new(UserId::new(Platform::Terminal, format!("p{i}")), format!("P{i}"), i == 1)).collect()
}

/// The table as stored, read past the faults.
async fn truth(store: &Faulty, ch: &ChannelId) -> Result<Table, String> {
    match store.inner.load(ch).await.map_err(|e| e.to_string())? {
        Some(s) => serde_json::from_str(&s.json).map_err(|e| format!("the table does not load: {e}")),
        None => Ok(Table::default()),
    }
}

/// Game actions taken by people (at a table of four people under the
/// abort policy nobody else acts): the table's moves less its deals.
fn actions(t: &Table) -> u64 {
    t.moves() - u64::from(t.epoch())
}

/// The short answer when the table cannot be reached.
fn unavailable(out: &Outbox) -> bool {
    out.private.iter().any(|p| p.kind == Kind::Error && p.text == doko_bot::render::unavailable())
}

/// What an answer says happened to a delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    /// Applied now.
    Applied,
    /// Refused, with the refusal.
    Refused(String),
    /// Handled before (with the refusal it got, if refused).
    Duplicate(Option<String>),
}

fn classify(out: &Outbox) -> Answer {
    let err = out.private.iter().find(|p| p.kind == Kind::Error).map(|p| p.text.clone());
    match (out.duplicate, err) {
        (true, e) => Answer::Duplicate(e),
        (false, Some(e)) => Answer::Refused(e),
        (false, None) => Answer::Applied,
    }
}

/// Who must act at a table, as an index into `people`, and the seat's view.
fn to_act(t: &Table, ps: &[Actor]) -> Option<(usize, doko_engine::SeatView)> {
    let g = t.game().ok()??;
    let seat = g.mandatory_announcement().or(g.to_act())?;
    let ts = t.table_seat(seat)?;
    let who = ps.iter().position(|a| t.seat_of(&a.user) == Some(ts))?;
    Some((who, g.view(seat)))
}

// ---------------------------------------------------------------- scripted faults

/// Four people seated, the deal dealt, on a store without faults yet.
async fn dealt(store: &Faulty, seed: u64) -> (Service<Faulty>, ChannelId, Vec<Actor>) {
    let plan = std::mem::replace(
        &mut *store.plan.lock().unwrap(),
        Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::None },
    );
    let svc = Service::new(store.clone(), seed);
    let ch = ChannelId::new(Platform::Terminal, "faults");
    let ps = people();
    for (i, p) in ps.iter().enumerate() {
        let out = App::handle(&svc, &ch, p, Input::Command(Command::Join), Some(&format!("join-{i}"))).await;
        assert_eq!(classify(&out), Answer::Applied);
    }
    let out = App::handle(&svc, &ch, &ps[0], Input::Command(Command::Start), Some("start")).await;
    assert_eq!(classify(&out), Answer::Applied);
    store.set(plan);
    (svc, ch, ps)
}

/// The person to act takes their first legal action with delivery `id`.
async fn first_legal(svc: &Service<Faulty>, store: &Faulty, ch: &ChannelId, ps: &[Actor], id: &str) -> Outbox {
    let t = truth(store, ch).await.unwrap();
    let (who, view) = to_act(&t, ps).expect("someone acts");
    let cmd = Command::from_action(view.legal[0]);
    App::handle(svc, ch, &ps[who], Input::Command(cmd), Some(id)).await
}

/// A commit that was made but reported an error (or answered too late) is
/// answered as the applied command, not as an error, and made once.
#[tokio::test(start_paused = true)]
async fn a_commit_made_but_not_confirmed_is_answered_as_applied() {
    for fault in [Fault::Unclear, Fault::Late] {
        let store = Faulty::script(&[fault], Fault::None);
        let (svc, ch, ps) = dealt(&store, 3).await;
        let before = actions(&truth(&store, &ch).await.unwrap());
        let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
        assert_eq!(get(&store.counts.made), 1, "{fault:?}: the commit was made");
        assert_eq!(classify(&out), Answer::Applied, "{fault:?}: {out:?}");
        assert!(out.table.is_some(), "{fault:?}: the table message of the applied move");
        assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1, "{fault:?}: made once");
        // and the platform's re-delivery changes nothing
        let t = truth(&store, &ch).await.unwrap();
        let who = ps.iter().position(|p| t.seat_of(&p.user).is_some()).unwrap();
        let again = App::handle(&svc, &ch, &ps[who], Input::Command(Command::Table), Some("move-1")).await;
        assert_eq!(classify(&again), Answer::Duplicate(None));
        assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
    }
}

/// A commit that failed before it was made (or took too long and was never
/// made) is tried again: the move is made once, and answered.
#[tokio::test(start_paused = true)]
async fn a_commit_not_made_is_tried_again() {
    // (two failures; one timeout, half the budget)
    for faults in [&[Fault::Fail, Fault::Fail][..], &[Fault::Delay(LONG)]] {
        let fault = faults[0];
        let store = Faulty::script(faults, Fault::None);
        let (svc, ch, ps) = dealt(&store, 4).await;
        let before = actions(&truth(&store, &ch).await.unwrap());
        let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
        assert_eq!(classify(&out), Answer::Applied, "{fault:?}: {out:?}");
        assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1, "{fault:?}: made once");
    }
}

/// A store that never makes a commit: after the budget the person gets the
/// short "table unavailable" and nothing changed; the platform's re-delivery
/// with the same id, once the store is back, is made once.
#[tokio::test(start_paused = true)]
async fn a_store_that_keeps_failing_changes_nothing_and_says_so() {
    let store = Faulty::script(&[], Fault::Fail);
    let (svc, ch, ps) = dealt(&store, 5).await;
    store.set(Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::Fail });
    let t0 = tokio::time::Instant::now();
    let before = actions(&truth(&store, &ch).await.unwrap());
    let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
    assert!(unavailable(&out), "{out:?}");
    assert_eq!(out.private.len(), 1);
    assert!(t0.elapsed() <= doko_bot::service::STORE_BUDGET + STORE_TIMEOUT, "{:?}", t0.elapsed());
    assert!(get(&store.counts.fail) > 1, "tried again before giving up");
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before, "nothing changed");
    store.set(Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::None });
    let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
    assert_eq!(classify(&out), Answer::Applied);
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
}

/// A store that makes every commit but never confirms one: the first is
/// made, found by reading the table again, and answered as applied; no
/// second try doubles it.
#[tokio::test(start_paused = true)]
async fn a_store_that_never_confirms_makes_the_move_once() {
    let store = Faulty::script(&[], Fault::None);
    let (svc, ch, ps) = dealt(&store, 6).await;
    store.set(Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::Unclear });
    let before = actions(&truth(&store, &ch).await.unwrap());
    let out = first_legal(&svc, &store, &ch, &ps, "move-1").await;
    assert_eq!(classify(&out), Answer::Applied, "{out:?}");
    assert_eq!(get(&store.counts.unclear), 1, "one commit, settled by reading the table again");
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
}

/// A refused delivery is remembered with its refusal in the stored table:
/// arriving again later, at another process, after it has become legal, it
/// gets the same refusal and is not applied; the same command with a new
/// delivery id is.
#[tokio::test(start_paused = true)]
async fn a_refused_delivery_stays_refused_when_it_becomes_legal() {
    let store = Faulty::script(&[], Fault::None);
    let (svc, ch, ps) = dealt(&store, 7).await;
    let other = Service::new(store.clone(), 8);
    let t = truth(&store, &ch).await.unwrap();
    let (first, view) = to_act(&t, &ps).unwrap();
    assert!(matches!(view.legal[0], Action::Bid(_)), "bidding");
    // the next bidder bids out of turn
    let next = (0..4).map(|i| (first + i) % 4).find(|&i| {
        let g = t.game().unwrap().unwrap();
        t.game_seat(t.seat_of(&ps[i].user).unwrap()) == Some(g.to_act().unwrap().plus(1))
    });
    let next = next.unwrap();
    let healthy = Input::Command(Command::Bid(Bid::Healthy));
    let out = App::handle(&svc, &ch, &ps[next], healthy.clone(), Some("early")).await;
    let Answer::Refused(refusal) = classify(&out) else { panic!("refused: {out:?}") };
    let t = truth(&store, &ch).await.unwrap();
    assert_eq!(t.refusal_of("early"), Some(refusal.as_str()));
    // the first bidder bids: now the same bid is legal for the next one
    let out = App::handle(&svc, &ch, &ps[first], healthy.clone(), Some("first")).await;
    assert_eq!(classify(&out), Answer::Applied);
    let t = truth(&store, &ch).await.unwrap();
    assert_eq!(to_act(&t, &ps).unwrap().0, next);
    let before = actions(&t);
    // the platform delivers the early bid again, to the other process
    let again = App::handle(&other, &ch, &ps[next], healthy.clone(), Some("early")).await;
    assert_eq!(classify(&again), Answer::Duplicate(Some(refusal)), "the same refusal");
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before, "not applied");
    // the same bid, newly given, is
    let out = App::handle(&other, &ch, &ps[next], healthy, Some("second")).await;
    assert_eq!(classify(&out), Answer::Applied);
    assert_eq!(actions(&truth(&store, &ch).await.unwrap()), before + 1);
}

/// The memory of deliveries is bounded: the newest 256 ids, the newest 32
/// refusals (each among the ids).
#[test]
fn the_memory_of_deliveries_is_bounded() {
    let mut t = Table::default();
    for i in 0..1_000 {
        if i % 3 == 0 {
            t.remember_refusal(&format!("r{i}"), "no");
        } else {
            assert!(t.remember_delivery(&format!("d{i}")));
        }
    }
    assert_eq!(t.deliveries().len(), doko_bot::table::DELIVERIES_KEPT);
    assert_eq!(t.refused().len(), doko_bot::table::REFUSALS_KEPT);
    assert!(t.refused().iter().all(|r| t.knows_delivery(&r.id)));
    assert_eq!(t.refusal_of("r999"), Some("no"));
    assert!(!t.knows_delivery("d1") && t.refusal_of("r0").is_none(), "the oldest forgotten");
    assert!(!t.remember_delivery("r999"), "a refused id is handled");
    // a refusal is forgotten with its delivery, also while fewer than the
    // refusals kept are remembered
    let mut t = Table::default();
    t.remember_refusal("old", "no");
    for i in 0..doko_bot::table::DELIVERIES_KEPT {
        assert_eq!(t.refusal_of("old"), Some("no"), "{i}");
        assert!(t.remember_delivery(&format!("d{i}")));
    }
    assert!(t.refusal_of("old").is_none() && t.refused().is_empty() && !t.knows_delivery("old"));
}

// ---------------------------------------------------------------- random commands

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

    async fn step(&mut self, op: &Op) -> Result<(), String> {
        let t = truth(&self.store, &self.ch).await?;
        match op {
            Op::Legal(pick) => {
                let pick = usize::from(*pick);
                match to_act(&t, &self.ps) {
                    None => self.deliver(0, Input::Command(Command::Start)).await?,
                    Some((who, view)) => {
                        let cmd = Command::from_action(view.legal[pick % view.legal.len()]);
                        let truth_svc = Service::new(self.store.inner.clone(), 0);
                        let hand = App::hand(&truth_svc, &self.ch, &self.ps[who].user).await;
                        let input = match hand {
                            Some(h) if pick % 4 == 0 => {
                                self.stamps.push(h.stamp.clone());
                                Input::Clicked { command: cmd, stamp: h.stamp }
                            }
                            _ => Input::Command(cmd),
                        };
                        self.deliver(who, input).await?;
                    }
                }
            }
            Op::Illegal(who, pick) => {
                let (who, pick) = (usize::from(*who), usize::from(*pick));
                let acting = to_act(&t, &self.ps);
                let own: Vec<Card> =
                    t.view_for(&self.ps[who].user).map(|v| v.hand.iter().collect()).unwrap_or_default();
                let input = match pick % 4 {
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
                };
                self.deliver(who, input).await?;
            }
            Op::Repeat(pick) => {
                if self.log.is_empty() {
                    return Ok(());
                }
                let d = self.log[usize::from(*pick) % self.log.len()].clone();
                self.fig.commands += 1;
                self.fig.repeats += 1;
                let before = actions(&t);
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
                self.judge(&d.id, before, after, 0, &answer)?;
            }
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
        ch: ChannelId::new(Platform::Terminal, "random"),
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

/// The service knows whether its store answers: a failed or timed-out call
/// marks it down (once, with the error), the next answered one up again;
/// the background check asks when nobody plays.
#[tokio::test(start_paused = true)]
async fn the_store_health_follows_the_store() {
    let store = Faulty::script(&[], Fault::None);
    let svc = Service::new(store.clone(), 1);
    let h = svc.check_store().await;
    assert!(h.up && h.failures == 0 && h.last_error.is_none(), "{h:?}");
    let loads =
        |f: &[Fault]| Plan::Script { loads: f.iter().copied().collect(), commits: VecDeque::new(), then: Fault::None };
    store.set(loads(&[Fault::Fail, Fault::Delay(LONG)]));
    let down = svc.check_store().await;
    assert!(!down.up && down.failures == 1, "{down:?}");
    assert!(down.last_error.as_deref().is_some_and(|e| e.contains("injected fault")), "{down:?}");
    tokio::time::advance(Duration::from_secs(5)).await;
    let still = svc.check_store().await;
    assert!(!still.up && still.failures == 2, "{still:?}");
    assert_eq!(still.since_ms, down.since_ms, "down since the first failure");
    assert_eq!(still.last_error.as_deref(), Some("the store did not answer in time"));
    tokio::time::advance(Duration::from_secs(5)).await;
    let up = svc.check_store().await;
    assert!(up.up && up.failures == 2 && up.since_ms > still.since_ms, "{up:?}");
    // a command's calls count too
    store.set(loads(&[Fault::Fail]));
    let ch = ChannelId::new(Platform::Terminal, "health");
    let ann = Actor::new(UserId::new(Platform::Terminal, "ann"), "Ann", false);
    let out = App::handle(&svc, &ch, &ann, Input::Command(Command::Join), Some("j")).await;
    assert!(!out.unavailable, "the load is tried again: {out:?}");
    let h = svc.store_health();
    assert!(h.up && h.failures == 3, "{h:?}");
}

/// Four service instances (as four bot processes) on one faulty store race
/// on one table: every move is delivered to two instances at once (a
/// platform delivering one interaction twice), and re-sent to a random
/// instance while it is answered "unavailable" (or its answer is lost);
/// meanwhile all four tick the turn clock (a 30 s timeout that aborts the
/// deal). Every move is in the table exactly once when answered as applied
/// (by either instance), never when refused; the table always loads; every
/// deal's sheet sums to zero.
#[tokio::test(start_paused = true)]
async fn four_instances_race_under_faults_with_ticks() {
    use std::sync::atomic::AtomicBool;
    let store = Faulty::random(0x4ace, Rates { fail: 40, delay: 40, unclear: 40, late: 20 });
    let (setup, ch, ps) = dealt(&store, 3).await;
    let timeout = RulesCmd::Set { key: "turn_timeout".into(), value: "30".into() };
    let plan = std::mem::replace(
        &mut *store.plan.lock().unwrap(),
        Plan::Script { loads: VecDeque::new(), commits: VecDeque::new(), then: Fault::None },
    );
    for (i, cmd) in [Command::Rules(timeout), Command::Policy(TimeoutPolicy::Abort)].into_iter().enumerate() {
        let out = App::handle(&setup, &ch, &ps[0], Input::Command(cmd), Some(&format!("setup-{i}"))).await;
        assert_eq!(classify(&out), Answer::Applied, "{out:?}");
    }
    store.set(plan);
    let svcs: Vec<Arc<Service<Faulty>>> = (0..4).map(|i| Arc::new(Service::new(store.clone(), 100 + i))).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let ticks = Arc::new(AtomicU64::new(0));
    let mut tickers = Vec::new();
    for (i, svc) in svcs.iter().enumerate() {
        let (svc, ch, stop, ticks) = (svc.clone(), ch.clone(), stop.clone(), ticks.clone());
        tickers.push(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(500 * i as u64)).await;
            while !stop.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_secs(2)).await;
                App::tick(&*svc, &ch).await;
                ticks.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    let mut rng = Rng::new(0x6ace);
    let (mut moves, mut applied, mut refused, mut sends, mut unavailable_answers) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut starts, mut both_applied) = (0u64, 0u64);
    while moves < 160 {
        let t = truth(&store, &ch).await.unwrap();
        let before = actions(&t);
        let id = format!("race-{moves}-{starts}");
        let (who, cmd, is_move) = match to_act(&t, &ps) {
            Some((who, view)) => (who, Command::from_action(view.legal[rng.below(view.legal.len())]), true),
            None => {
                starts += 1;
                (0, Command::Start, false)
            }
        };
        // the same delivery to two instances at once
        let a = rng.below(4);
        let b = (a + 1 + rng.below(3)) % 4;
        let send = |i: usize| {
            let (svc, ch, p, cmd, id) = (svcs[i].clone(), ch.clone(), ps[who].clone(), cmd.clone(), id.clone());
            tokio::spawn(async move { App::handle(&*svc, &ch, &p, Input::Command(cmd), Some(&id)).await })
        };
        let (h1, h2) = (send(a), send(b));
        let mut answers = vec![h1.await.unwrap(), h2.await.unwrap()];
        sends += 2;
        // re-sent while nobody got an answer
        while answers.iter().all(unavailable) {
            unavailable_answers += answers.iter().filter(|o| unavailable(o)).count() as u64;
            answers = vec![send(rng.below(4)).await.unwrap()];
            sends += 1;
            assert!(sends < 100_000, "never answered");
        }
        let answers: Vec<Answer> = answers.iter().filter(|o| !unavailable(o)).map(classify).collect();
        // both instances may answer it as applied (one applied it, the
        // other's unclear commit was settled by finding the delivery in the
        // table): the table is the judge, it must hold the move once
        if answers.iter().filter(|a| **a == Answer::Applied).count() > 1 {
            both_applied += 1;
        }
        let after = actions(&truth(&store, &ch).await.unwrap());
        let acknowledged = answers.iter().any(|a| matches!(a, Answer::Applied | Answer::Duplicate(None)));
        if is_move {
            let expect = u64::from(acknowledged);
            assert_eq!(after - before, expect, "{id}: {answers:?}");
            if acknowledged {
                applied += 1;
            } else {
                refused += 1;
            }
            moves += 1;
        }
        // the table always loads, through a service too
        Service::new(store.inner.clone(), 0).table(&ch).await.unwrap();
    }
    stop.store(true, Ordering::SeqCst);
    for t in tickers {
        t.await.unwrap();
    }
    let t = truth(&store, &ch).await.unwrap();
    let sheet = t.session().map(|s| s.sheet().to_vec()).unwrap_or_default();
    for row in &sheet {
        assert_eq!(row.scores.iter().sum::<i64>(), 0, "{row:?}");
    }
    println!(
        "four instances racing on one faulty store: {moves} moves ({applied} applied, {refused} refused after an abort), \
         {starts} deals started, {sends} sends ({unavailable_answers} answered \"unavailable\", {both_applied} moves answered \
         as applied by both instances), {} ticks, {} sheet rows; \
         {} store calls, {} failed, {} delayed, {} timed out, {} unclear, {} late; applied twice 0, lost 0",
        get(&ticks),
        sheet.len(),
        get(&store.counts.calls),
        get(&store.counts.fail),
        get(&store.counts.delay),
        get(&store.counts.timeout),
        get(&store.counts.unclear),
        get(&store.counts.late),
    );
}
