//! What the Redis server tells of itself and of the tables: `INFO` fields
//! (its memory, its process id) and `MEMORY USAGE` of each table's keys.

use super::play::BenchTable;

/// Redis's `used_memory` (0 when it does not say).
pub async fn used_memory(url: &str) -> anyhow::Result<u64> {
    Ok(info_field(url, "memory", "used_memory").await?.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// One field of a section of the `INFO` of the Redis server at `url`.
async fn info_field(url: &str, section: &str, field: &str) -> anyhow::Result<Option<String>> {
    let client = redis::Client::open(url)?;
    let mut c = client.get_multiplexed_async_connection().await?;
    let info: String = redis::cmd("INFO").arg(section).query_async(&mut c).await?;
    Ok(info.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':')).map(|v| v.trim().to_string()))
}

/// The process id of the Redis server at `url` (`INFO server`), to tell
/// its CPU time from other processes'; None when it cannot be read or the
/// server is not on this machine (its id would name another process).
pub async fn redis_pid(url: &str) -> Option<u32> {
    let host = url.split_once("://")?.1;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    if !["127.", "localhost", "[::1]"].iter().any(|h| host.starts_with(h)) {
        return None;
    }
    info_field(url, "server", "process_id").await.ok()??.parse().ok()
}

/// What Redis says each table's keys take (`MEMORY USAGE`, averaged over
/// the tables: the table's hash and its records' list), and how many
/// tables have finished a deal.
pub async fn keys_memory<S: doko_bot::Store>(
    url: &str,
    reader: &doko_bot::Service<S>,
    tables: &[BenchTable],
) -> anyhow::Result<(f64, f64, usize)> {
    let client = redis::Client::open(url)?;
    let mut c = client.get_multiplexed_async_connection().await?;
    let (mut table, mut records, mut deals) = (0u64, 0u64, 0usize);
    for (ch, _) in tables {
        let (tk, rk) = doko_bot::RedisStore::keys(ch);
        let t: Option<u64> = redis::cmd("MEMORY").arg("USAGE").arg(tk).query_async(&mut c).await?;
        let r: Option<u64> = redis::cmd("MEMORY").arg("USAGE").arg(rk).query_async(&mut c).await?;
        table += t.unwrap_or(0);
        records += r.unwrap_or(0);
        deals += usize::from(reader.table(ch).await?.0.records() > 0);
    }
    let n = tables.len().max(1) as f64;
    Ok((table as f64 / n, records as f64 / n, deals))
}
