//! Four service instances racing on one faulty store while all of them tick
//! the turn clock.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use doko_bot::command::{RulesCmd, TimeoutPolicy};
use doko_bot::{Actor, App, ChannelId, Command, Input, Service};
use doko_engine::Rng;

use crate::common::{Answer, actions, classify, to_act, truth, unavailable};
use crate::scripted::dealt;
use crate::store::{Fault, Faulty, Plan, Rates, get};

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
    let store = Faulty::random(0x4ace, Rates { fail: 40, delay: 40, unclear: 40, late: 20 });
    let (ch, ps) = deal_with_an_aborting_turn_clock(&store).await;
    let svcs: Vec<Arc<Service<Faulty>>> = (0..4).map(|i| Arc::new(Service::new(store.clone(), 100 + i))).collect();
    let tickers = Tickers::start(&svcs, &ch);
    let mut race = Race { store, ch, ps, svcs, rng: Rng::new(0x6ace), tally: Tally::default() };
    while race.tally.moves < 160 {
        race.one_move_delivered_twice().await;
    }
    let ticks = tickers.stop().await;
    race.check_the_sheet_and_report(ticks).await;
}

/// Four people, the deal dealt, a 30 s turn timeout that aborts the deal
/// (set up past the faults); the channel and the people.
async fn deal_with_an_aborting_turn_clock(store: &Faulty) -> (ChannelId, Vec<Actor>) {
    let (setup, ch, ps) = dealt(store, 3).await;
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
    (ch, ps)
}

/// Every instance ticking the turn clock every 2 s (staggered), counted.
struct Tickers {
    stop: Arc<AtomicBool>,
    ticks: Arc<AtomicU64>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Tickers {
    fn start(svcs: &[Arc<Service<Faulty>>], ch: &ChannelId) -> Tickers {
        let stop = Arc::new(AtomicBool::new(false));
        let ticks = Arc::new(AtomicU64::new(0));
        let mut tasks = Vec::new();
        for (i, svc) in svcs.iter().enumerate() {
            let (svc, ch, stop, ticks) = (svc.clone(), ch.clone(), stop.clone(), ticks.clone());
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(500 * i as u64)).await;
                while !stop.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_secs(2)).await;
                    App::tick(&*svc, &ch).await;
                    ticks.fetch_add(1, Ordering::SeqCst);
                }
            }));
        }
        Tickers { stop, ticks, tasks }
    }

    /// Stops them all; the ticks made.
    async fn stop(self) -> u64 {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.tasks {
            t.await.unwrap();
        }
        get(&self.ticks)
    }
}

/// What the race did.
#[derive(Default)]
struct Tally {
    moves: u64,
    applied: u64,
    refused: u64,
    sends: u64,
    unavailable_answers: u64,
    starts: u64,
    both_applied: u64,
}

/// The instances racing on one table.
struct Race {
    store: Faulty,
    ch: ChannelId,
    ps: Vec<Actor>,
    svcs: Vec<Arc<Service<Faulty>>>,
    rng: Rng,
    tally: Tally,
}

impl Race {
    /// The next move (or a start) delivered to two instances at once,
    /// re-sent while unanswered; the table holds it once when acknowledged,
    /// never when refused, and always loads.
    async fn one_move_delivered_twice(&mut self) {
        let (store, ch, ps) = (&self.store, &self.ch, &self.ps);
        let t = truth(store, ch).await.unwrap();
        let before = actions(&t);
        let id = format!("race-{}-{}", self.tally.moves, self.tally.starts);
        let (who, cmd, is_move) = match to_act(&t, ps) {
            Some((who, view)) => (who, Command::from_action(view.legal[self.rng.below(view.legal.len())]), true),
            None => {
                self.tally.starts += 1;
                (0, Command::Start, false)
            }
        };
        let answers = self.answers_of_two_then_one(who, &cmd, &id).await;
        let (store, ch) = (&self.store, &self.ch);
        // both instances may answer it as applied (one applied it, the
        // other's unclear commit was settled by finding the delivery in the
        // table): the table is the judge, it must hold the move once
        if answers.iter().filter(|a| **a == Answer::Applied).count() > 1 {
            self.tally.both_applied += 1;
        }
        let after = actions(&truth(store, ch).await.unwrap());
        let acknowledged = answers.iter().any(|a| matches!(a, Answer::Applied | Answer::Duplicate(None)));
        if is_move {
            let expect = u64::from(acknowledged);
            assert_eq!(after - before, expect, "{id}: {answers:?}");
            if acknowledged {
                self.tally.applied += 1;
            } else {
                self.tally.refused += 1;
            }
            self.tally.moves += 1;
        }
        // the table always loads, through a service too
        Service::new(store.inner.clone(), 0).table(ch).await.unwrap();
    }

    /// The same delivery to two instances at once, then re-sent to a random
    /// one while nobody got an answer; the answers that are not
    /// "unavailable".
    async fn answers_of_two_then_one(&mut self, who: usize, cmd: &Command, id: &str) -> Vec<Answer> {
        let a = self.rng.below(4);
        let b = (a + 1 + self.rng.below(3)) % 4;
        let send = |i: usize| {
            let (svc, ch, p, cmd, id) =
                (self.svcs[i].clone(), self.ch.clone(), self.ps[who].clone(), cmd.clone(), id.to_string());
            tokio::spawn(async move { App::handle(&*svc, &ch, &p, Input::Command(cmd), Some(&id)).await })
        };
        let (h1, h2) = (send(a), send(b));
        let mut answers = vec![h1.await.unwrap(), h2.await.unwrap()];
        self.tally.sends += 2;
        // re-sent while nobody got an answer
        while answers.iter().all(unavailable) {
            self.tally.unavailable_answers += answers.iter().filter(|o| unavailable(o)).count() as u64;
            answers = vec![send(self.rng.below(4)).await.unwrap()];
            self.tally.sends += 1;
            assert!(self.tally.sends < 100_000, "never answered");
        }
        answers.iter().filter(|o| !unavailable(o)).map(classify).collect()
    }

    /// Every deal's sheet sums to zero; the figures printed.
    async fn check_the_sheet_and_report(&self, ticks: u64) {
        let store = &self.store;
        let t = truth(store, &self.ch).await.unwrap();
        let sheet = t.session().map(|s| s.sheet().to_vec()).unwrap_or_default();
        for row in &sheet {
            assert_eq!(row.scores.iter().sum::<i64>(), 0, "{row:?}");
        }
        let Tally { moves, applied, refused, sends, unavailable_answers, starts, both_applied } = self.tally;
        println!(
            "four instances racing on one faulty store: {moves} moves ({applied} applied, {refused} refused after an abort), \
             {starts} deals started, {sends} sends ({unavailable_answers} answered \"unavailable\", {both_applied} moves answered \
             as applied by both instances), {} ticks, {} sheet rows; \
             {} store calls, {} failed, {} delayed, {} timed out, {} unclear, {} late; applied twice 0, lost 0",
            ticks,
            sheet.len(),
            get(&store.counts.calls),
            get(&store.counts.fail),
            get(&store.counts.delay),
            get(&store.counts.timeout),
            get(&store.counts.unclear),
            get(&store.counts.late),
        );
    }
}
