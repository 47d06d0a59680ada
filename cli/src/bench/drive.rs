//! Playing the bench tables for a timed run: the tables' first actions
//! untimed, then the closed loop on the service's runtime or the open loop
//! on a thread of its own.

use std::time::Instant;

use super::latency::RunResult;
use super::paced::{Paced, paced};
use super::play::{BenchTable, Followed, act, follow};

/// Plays the tables: closed loop (each table's next action as soon as the
/// last is answered) or open loop at `rate` actions per second over all
/// tables (each table's k-th action due at a fixed time; its latency
/// counts from then, so falling behind shows). With `skew`, table `i`
/// first plays `i % 50` actions before the clock starts, so that the
/// tables' deals do not all end and begin at the same moment (as real
/// tables' do not: a thousand deals scored and dealt in the same
/// interval were the open loop's tail).
///
/// The closed loop's players are tasks on the service's runtime
/// ([`closed`]), as Redis alone's loops are, so that the two rates are
/// measured alike. The open loop's are driven from a thread of their own
/// ([`paced`]), as people send from machines of their own: each table's
/// next action is decided as soon as the last is answered, before it is
/// due, and sent when it is due to the service's runtime, which runs
/// nothing else.
pub async fn drive<S: doko_bot::Store + 'static>(
    svc: &std::sync::Arc<doko_bot::Service<S>>,
    reader: &std::sync::Arc<doko_bot::Service<doko_bot::RedisStore>>,
    tables: &[BenchTable],
    actions: usize,
    rate: Option<f64>,
    durable: bool,
    skew: bool,
) -> anyhow::Result<RunResult> {
    // each table's deal as its players see it when the run begins: read
    // before the clock starts (the driver's reads are not doko's work; read
    // in the run, a thousand of them fell in its first interval and their
    // backlog was the open loop's tail)
    let mut first = Vec::with_capacity(tables.len());
    for (i, (ch, people)) in tables.iter().enumerate() {
        let mut deal = follow(reader, ch, people).await?;
        for _ in 0..if skew { i % 50 } else { 0 } {
            if act(svc, reader, ch, people, &mut deal, durable).await?.is_none() {
                break;
            }
        }
        first.push(deal);
    }
    if rate.is_none() {
        return closed(svc, reader, tables, actions, durable, first).await;
    }
    let run = Paced {
        rt: tokio::runtime::Handle::current(),
        svc: svc.clone(),
        reader: reader.clone(),
        tables: tables.to_vec(),
        actions,
        rate,
        durable,
    };
    tokio::task::spawn_blocking(move || paced(run, first)).await?
}

/// [`drive`]'s closed loop: each table's players as a task on the
/// service's runtime, sending its next action as soon as the last is
/// answered, as Redis alone's loops run on it (each action is decided by
/// the basic computer, as in the open loop; its latency is from sending
/// to the answer).
async fn closed<S: doko_bot::Store + 'static>(
    svc: &std::sync::Arc<doko_bot::Service<S>>,
    reader: &std::sync::Arc<doko_bot::Service<doko_bot::RedisStore>>,
    tables: &[BenchTable],
    actions: usize,
    durable: bool,
    first: Vec<Followed>,
) -> anyhow::Result<RunResult> {
    let start = Instant::now();
    let mut players = tokio::task::JoinSet::new();
    for ((ch, people), mut deal) in tables.iter().cloned().zip(first) {
        let (svc, reader) = (svc.clone(), reader.clone());
        players.spawn(async move {
            let mut lat = Vec::with_capacity(actions);
            while lat.len() < actions {
                let Some(answered) = act(&svc, &reader, &ch, &people, &mut deal, durable).await? else { break };
                lat.push(answered);
            }
            Ok::<_, anyhow::Error>(lat)
        });
    }
    let mut lat = Vec::with_capacity(tables.len() * actions);
    while let Some(done) = players.join_next().await {
        lat.extend(done??);
    }
    let secs = start.elapsed().as_secs_f64();
    lat.sort();
    Ok(RunResult { lat, secs, late: Vec::new(), start })
}
