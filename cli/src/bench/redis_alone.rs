//! Redis alone with doko's commit script, on the same server in the same
//! run: closed loops for its rate, and an open loop at doko's offered rate
//! for its latency.

use std::time::{Duration, Instant};

use super::latency::{LATE, Late, RunResult, SILENCE};

/// Redis alone with doko's commit: `tasks` closed loops each running the
/// store's compare-and-set script (EVALSHA) on a key of its own with a
/// table of `bytes` bytes, on one multiplexed connection as the service
/// uses it. Returns script calls per second.
pub async fn script_baseline(url: &str, tasks: usize, calls: usize, bytes: usize) -> anyhow::Result<f64> {
    let client = redis::Client::open(url)?;
    let conn = client.get_multiplexed_async_connection().await?;
    let script = std::sync::Arc::new(redis::Script::new(doko_bot::store::CAS));
    let payload: std::sync::Arc<str> = "x".repeat(bytes).into();
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..tasks {
        let (mut c, script, payload) = (conn.clone(), script.clone(), payload.clone());
        handles.push(tokio::spawn(async move {
            let (key, recs) = (format!("bench-base:{{{t}}}:t"), format!("bench-base:{{{t}}}:r"));
            let mut v: i64 = 0;
            for _ in 0..calls {
                v = script.key(&key).key(&recs).arg(v).arg(&*payload).arg(0).arg(0).invoke_async(&mut c).await?;
                anyhow::ensure!(v > 0, "the compare-and-set failed");
            }
            Ok::<_, anyhow::Error>(())
        }));
    }
    for h in handles {
        h.await??;
    }
    let secs = start.elapsed().as_secs_f64();
    let mut c = conn.clone();
    let _: () = redis::cmd("FLUSHDB").query_async(&mut c).await.unwrap_or(());
    Ok((tasks * calls) as f64 / secs)
}

/// Redis alone in the open loop, beside doko's: `tasks` keys, each with
/// `calls` compare-and-set script calls (EVALSHA, a table of `bytes`
/// bytes) due at the same times as doko's open loop's actions at `rate`
/// (key `i`'s k-th call at its share of the first interval plus k
/// intervals), each sent when due once the key's last call was answered,
/// from a thread of its own as the open loop's players are. Latencies
/// count from when each call was due: what the machine gives Redis alone
/// at that rate, next to what doko gets.
pub fn script_open_loop(
    rt: tokio::runtime::Handle,
    url: &str,
    tasks: usize,
    calls: usize,
    bytes: usize,
    rate: f64,
) -> anyhow::Result<RunResult> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let client = redis::Client::open(url)?;
    let conn = rt.block_on(client.get_multiplexed_async_connection())?;
    let script = std::sync::Arc::new(redis::Script::new(doko_bot::store::CAS));
    // (loaded before the clock starts: the first calls are not a load)
    rt.block_on(script.load_async(&mut conn.clone()))?;
    let payload: std::sync::Arc<str> = "x".repeat(bytes).into();
    let (tx, rx) = std::sync::mpsc::channel::<anyhow::Result<(usize, Instant, i64)>>();
    let n = tasks.max(1) as f64;
    let every = Duration::from_secs_f64(n / rate);
    let start = Instant::now();
    let due = |i: usize, k: usize| start + every.mul_f64(i as f64 / n) + every * k as u32;
    // each key's calls answered, its version, when its last answer came
    // and when its call in flight was sent
    let mut keys: Vec<(usize, i64, Instant, Instant)> = vec![(0, 0, start, start); tasks];
    let mut waiting: BinaryHeap<Reverse<(Instant, usize)>> = (0..tasks).map(|i| Reverse((due(i, 0), i))).collect();
    let (mut lat, mut late) = (Vec::with_capacity(tasks * calls), Vec::new());
    let mut busy = 0usize;
    let send = |i: usize, v: i64, busy: &mut usize| {
        let (tx, mut c, script, payload) = (tx.clone(), conn.clone(), script.clone(), payload.clone());
        *busy += 1;
        rt.spawn(async move {
            let (key, recs) = (format!("bench-open:{{{i}}}:t"), format!("bench-open:{{{i}}}:r"));
            let r: redis::RedisResult<i64> =
                script.key(&key).key(&recs).arg(v).arg(&*payload).arg(0).arg(0).invoke_async(&mut c).await;
            let answered = Instant::now();
            let _ = tx.send(match r {
                Ok(v) if v > 0 => Ok((i, answered, v)),
                Ok(_) => Err(anyhow::anyhow!("the compare-and-set failed")),
                Err(e) => Err(e.into()),
            });
        });
    };
    loop {
        while let Some(&Reverse((at, i))) = waiting.peek() {
            if at > Instant::now() {
                break;
            }
            waiting.pop();
            keys[i].3 = Instant::now();
            send(i, keys[i].1, &mut busy);
        }
        if busy == 0 && waiting.is_empty() {
            break;
        }
        let wait = waiting.peek().map_or(SILENCE, |Reverse((at, _))| at.saturating_duration_since(Instant::now()));
        let (i, answered, version) = match rx.recv_timeout(wait) {
            Ok(r) => r?,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !waiting.is_empty() => continue,
            Err(_) => anyhow::bail!("no answer from Redis in {} s", SILENCE.as_secs()),
        };
        busy -= 1;
        let (k, _, ready, sent) = keys[i];
        let due_at = due(i, k);
        lat.push(answered - due_at);
        if answered - due_at > LATE {
            let ready = ready.max(due_at);
            late.push(Late {
                due: due_at - start,
                waited: ready - due_at,
                sent_late: sent.saturating_duration_since(ready),
                answer: answered - sent,
            });
        }
        keys[i] = (k + 1, version, answered, answered);
        if k + 1 < calls {
            let next = due(i, k + 1);
            if next <= Instant::now() {
                keys[i].3 = Instant::now();
                send(i, keys[i].1, &mut busy);
            } else {
                waiting.push(Reverse((next, i)));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let mut c = conn.clone();
    let _: () = rt.block_on(redis::cmd("FLUSHDB").query_async(&mut c)).unwrap_or(());
    lat.sort();
    late.sort_by_key(|l| l.due);
    Ok(RunResult { lat, secs, late, start })
}
