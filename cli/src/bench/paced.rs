//! The open loop's players on a thread of their own: each table's next
//! action decided as soon as its last is answered and sent when it is due.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::latency::{LATE, Late, RunResult, SILENCE};
use super::play::{BenchTable, Decided, Followed, command, decide, follow, over};

/// A run of [`drive`](super::drive::drive)'s players on their own thread: the service's
/// runtime to send to, the service, the driver's reader, the tables, and
/// how to play them.
pub struct Paced<S: doko_bot::Store> {
    /// The service's runtime, which the actions are sent to.
    pub rt: tokio::runtime::Handle,
    /// The service measured.
    pub svc: std::sync::Arc<doko_bot::Service<S>>,
    /// The driver's own service, to read the tables through.
    pub reader: std::sync::Arc<doko_bot::Service<doko_bot::RedisStore>>,
    /// The tables played.
    pub tables: Vec<BenchTable>,
    /// Actions per table.
    pub actions: usize,
    /// The offered rate over all tables (open loop); none: closed loop.
    pub rate: Option<f64>,
    /// With the durable outbox.
    pub durable: bool,
}

/// What the service's runtime tells the players' thread.
enum Event {
    /// A table's action was answered (with `refused`, its fallback was
    /// played after it, and the deal is read again).
    Answered { table: usize, answered: Instant, refused: bool },
    /// A table's deal as read through the driver's reader.
    Followed { table: usize, deal: Box<Followed> },
    /// A command or a read failed: the run stops.
    Failed(anyhow::Error),
}

/// Where a table of a [`paced`] run stands.
struct Driven {
    deal: Followed,
    /// The actions answered.
    k: usize,
    /// Its next action, decided; and, once sent, when.
    next: Option<(Decided, Option<Instant>)>,
    /// When its next action could be sent at the soonest: when its last
    /// was answered, or its deal read.
    ready: Instant,
}

/// [`drive`](super::drive::drive)'s timed run on the players' own thread.
/// Each table's next action is decided as soon as its last is answered (or
/// its deal read), and sent when due (open loop) or at once (closed loop)
/// as a task on the service's runtime, which reports back when it was
/// answered. The thread sleeps until the next action is due or an answer
/// comes (microseconds late, where a runtime's timer rounds to
/// milliseconds).
pub fn paced<S: doko_bot::Store + 'static>(run: Paced<S>, first: Vec<Followed>) -> anyhow::Result<RunResult> {
    let (tx, rx) = mpsc::channel::<Event>();
    let mut players = Players::new(Tasks { run, tx }, first);
    if players.tasks.run.actions > 0 {
        for i in 0..players.tables.len() {
            players.go_on(i);
        }
    }
    loop {
        players.send_due();
        if players.busy == 0 && players.waiting.is_empty() {
            break;
        }
        let wait =
            players.waiting.peek().map_or(SILENCE, |Reverse((at, _))| at.saturating_duration_since(Instant::now()));
        let event = match rx.recv_timeout(wait) {
            Ok(e) => e,
            Err(mpsc::RecvTimeoutError::Timeout) if !players.waiting.is_empty() => continue,
            Err(_) => anyhow::bail!("no answer from the service in {} s", SILENCE.as_secs()),
        };
        players.busy -= 1;
        match event {
            Event::Failed(e) => return Err(e),
            Event::Followed { table, deal } => players.followed(table, *deal),
            Event::Answered { table, answered, refused } => players.answered(table, answered, refused)?,
        }
    }
    Ok(players.result())
}

/// What the players' thread sends to the service's runtime: reads of a
/// table's deal and actions, each a task that reports back on `tx`.
struct Tasks<S: doko_bot::Store> {
    run: Paced<S>,
    tx: mpsc::Sender<Event>,
}

impl<S: doko_bot::Store + 'static> Tasks<S> {
    /// Reads table `i`'s deal through the driver's reader.
    fn read(&self, i: usize) {
        let (tx, reader) = (self.tx.clone(), self.run.reader.clone());
        let (ch, people) = self.run.tables[i].clone();
        self.run.rt.spawn(async move {
            let event = match follow(&reader, &ch, &people).await {
                Ok(deal) => Event::Followed { table: i, deal: Box::new(deal) },
                Err(e) => Event::Failed(e),
            };
            let _ = tx.send(event);
        });
    }

    /// Sends table `i`'s decided action (and its fallback when refused).
    fn send(&self, i: usize, d: &Decided) {
        let (tx, svc, durable) = (self.tx.clone(), self.run.svc.clone(), self.run.durable);
        let ch = self.run.tables[i].0.clone();
        let actor = self.run.tables[i].1[d.actor].clone();
        let (action, fallback) = (d.action, d.fallback);
        self.run.rt.spawn(async move {
            use doko_bot::Kind;
            let played = async {
                let msgs = command(&svc, &ch, &actor, action, durable).await?;
                let answered = Instant::now();
                let refused = msgs.private.iter().any(|m| m.kind == Kind::Error);
                if refused {
                    command(&svc, &ch, &actor, fallback, durable).await?;
                }
                Ok::<_, anyhow::Error>((answered, refused))
            };
            let event = match played.await {
                Ok((answered, refused)) => Event::Answered { table: i, answered, refused },
                Err(e) => Event::Failed(e),
            };
            let _ = tx.send(event);
        });
    }
}

/// The players' thread over a [`paced`] run: where each table stands,
/// what waits to be sent, and the latencies so far.
struct Players<S: doko_bot::Store> {
    tasks: Tasks<S>,
    /// When the run's clock started.
    start: Instant,
    /// The interval between a table's actions (open loop; none: closed).
    every: Option<Duration>,
    /// The tables, at least one (each table's actions are spread evenly:
    /// table i starts at its share of the first interval).
    n: f64,
    tables: Vec<Driven>,
    /// The tables whose next action is decided and not yet due.
    waiting: BinaryHeap<Reverse<(Instant, usize)>>,
    /// The tasks sent to the runtime that have not reported back.
    busy: usize,
    lat: Vec<Duration>,
    late: Vec<Late>,
}

impl<S: doko_bot::Store + 'static> Players<S> {
    fn new(tasks: Tasks<S>, first: Vec<Followed>) -> Players<S> {
        let n = tasks.run.tables.len().max(1) as f64;
        let every = tasks.run.rate.map(|r| Duration::from_secs_f64(n / r));
        let start = Instant::now();
        let tables = first.into_iter().map(|deal| Driven { deal, k: 0, next: None, ready: start }).collect();
        // (room for every latency and late action up front: a vector that
        // doubles mid-run copies megabytes into fresh pages on this thread)
        let total = tasks.run.tables.len() * tasks.run.actions;
        let (lat, late) = (Vec::with_capacity(total), Vec::with_capacity(total));
        Players { tasks, start, every, n, tables, waiting: BinaryHeap::new(), busy: 0, lat, late }
    }

    /// When table `i`'s `k`-th action is due (open loop).
    fn due(&self, i: usize, k: usize) -> Option<Instant> {
        self.every.map(|e| self.start + e.mul_f64(i as f64 / self.n) + e * k as u32)
    }

    /// Table `i`'s deal read again when nobody is to act in it, else its
    /// next action planned.
    fn go_on(&mut self, i: usize) {
        if over(&self.tables[i].deal) {
            self.busy += 1;
            self.tasks.read(i);
        } else {
            self.plan(i);
        }
    }

    /// Table `i`'s next action decided and sent when due (none when its
    /// deal has nobody the driver seated to act: the table stops).
    fn plan(&mut self, i: usize) {
        let Some(d) = decide(&self.tables[i].deal) else { return };
        let sent = match self.due(i, self.tables[i].k) {
            Some(at) if at > Instant::now() => {
                self.waiting.push(Reverse((at, i)));
                None
            }
            _ => {
                // (when sent: taken before the task can run and answer)
                let sent = Instant::now();
                self.busy += 1;
                self.tasks.send(i, &d);
                Some(sent)
            }
        };
        self.tables[i].next = Some((d, sent));
    }

    /// What is due is sent.
    fn send_due(&mut self) {
        while let Some(&Reverse((at, i))) = self.waiting.peek() {
            if at > Instant::now() {
                break;
            }
            self.waiting.pop();
            if let Some((d, sent)) = self.tables[i].next.as_mut() {
                *sent = Some(Instant::now());
                self.busy += 1;
                self.tasks.send(i, d);
            }
        }
    }

    /// Table `i`'s deal as read: its next action planned.
    fn followed(&mut self, i: usize, deal: Followed) {
        let t = &mut self.tables[i];
        t.deal = deal;
        t.ready = Instant::now();
        if !over(&t.deal) {
            self.plan(i);
        }
    }

    /// Table `i`'s action answered: its latency (from when it was due, in
    /// the open loop), whether it was late, and the table's next step.
    fn answered(&mut self, i: usize, answered: Instant, refused: bool) -> anyhow::Result<()> {
        let due = self.due(i, self.tables[i].k);
        let t = &mut self.tables[i];
        let Some((d, Some(sent))) = t.next.take() else { anyhow::bail!("an answer to nothing sent") };
        self.lat.push(answered - due.unwrap_or(sent));
        if let Some(due) = due
            && answered - due > LATE
        {
            let ready = t.ready.max(due);
            self.late.push(Late {
                due: due - self.start,
                waited: ready - due,
                sent_late: sent.saturating_duration_since(ready),
                answer: answered - sent,
            });
        }
        t.ready = answered;
        t.k += 1;
        let played = !refused && t.deal.as_mut().is_some_and(|(g, _)| g.act(d.seat, d.action).is_ok());
        if !played {
            t.deal = None;
        }
        if t.k < self.tasks.run.actions {
            self.go_on(i);
        }
        Ok(())
    }

    /// The run's latencies and late actions, sorted.
    fn result(mut self) -> RunResult {
        let secs = self.start.elapsed().as_secs_f64();
        self.lat.sort();
        self.late.sort_by_key(|l| l.due);
        RunResult { lat: self.lat, secs, late: self.late, start: self.start }
    }
}
