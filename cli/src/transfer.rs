//! `doko export` and `doko import`: every table and record of a store to
//! one file and back, so the embedded store moves to Redis and a backup is
//! one command.
//!
//! The file is JSON lines: a header (`{"format": "doko-export/1", ...}`),
//! then one line per channel with its table as stored and its records with
//! their numbers. Import writes each table new (version 1) with its records
//! under the same numbers (records trimmed before the export stay gaps, as
//! they were), into a store that has none of those channels yet.

use std::io::{BufRead, Write};

use anyhow::{Context, bail};
use doko_bot::{ChannelId, Commit, Keep, Store, Table};
use serde_json::{Value, json};

use crate::args::Cli;
use crate::{config, stores};

/// The export format's name.
pub const FORMAT: &str = "doko-export/1";

/// What an export or import moved.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Moved {
    /// Tables.
    pub tables: usize,
    /// Records.
    pub records: usize,
}

/// Writes every table and record of `store` to `out`.
pub async fn export<S: Store>(store: &S, out: &mut dyn Write) -> anyhow::Result<Moved> {
    let mut channels = store.channels().await.context("listing the tables")?;
    channels.sort();
    let format = store.format_version().await.context("reading the store's format")?;
    writeln!(out, "{}", json!({"format": FORMAT, "store_format": format, "tables": channels.len()}))?;
    let mut moved = Moved::default();
    for ch in channels {
        let Some(stored) = store.load(&ch).await.with_context(|| format!("reading the table of {}", ch.key()))? else {
            continue; // expired between the listing and now
        };
        // the records it has: numbers up to the table's count (the oldest
        // may have been trimmed); a table that cannot be read keeps none
        let last = serde_json::from_str::<Table>(&stored.json).map_or(0, |t| t.records());
        let mut records = Vec::new();
        for n in 1..=last {
            if let Some(r) =
                store.record(&ch, n).await.with_context(|| format!("reading record {n} of {}", ch.key()))?
            {
                records.push(json!([n, r]));
            }
        }
        moved.tables += 1;
        moved.records += records.len();
        writeln!(out, "{}", json!({"channel": ch.key(), "table": stored.json, "records": records}))?;
    }
    out.flush()?;
    Ok(moved)
}

/// One channel of an export file.
struct Entry {
    channel: ChannelId,
    table: String,
    records: Vec<(u32, String)>,
}

fn entry(line: &str, at: usize) -> anyhow::Result<Entry> {
    let v: Value = serde_json::from_str(line).with_context(|| format!("line {at}: not JSON"))?;
    let key = v["channel"].as_str().with_context(|| format!("line {at}: no channel"))?;
    let channel = ChannelId::from_key(key).with_context(|| format!("line {at}: {key:?} is not a channel"))?;
    let table = v["table"].as_str().with_context(|| format!("line {at}: no table"))?.to_string();
    let mut records = Vec::new();
    for r in v["records"].as_array().with_context(|| format!("line {at}: no records"))? {
        let n = r[0].as_u64().and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0);
        let (Some(n), Some(text)) = (n, r[1].as_str()) else { bail!("line {at}: a record is not [NUMBER, TEXT]") };
        if records.last().is_some_and(|(m, _)| *m >= n) {
            bail!("line {at}: record numbers must rise");
        }
        records.push((n, text.to_string()));
    }
    Ok(Entry { channel, table, records })
}

/// Reads an export and writes its tables and records into `store`, which
/// must hold none of its channels (nothing is written then).
pub async fn import<S: Store>(store: &S, input: &mut dyn BufRead) -> anyhow::Result<Moved> {
    let mut lines = input.lines();
    let header = lines.next().context("the file is empty")??;
    let h: Value = serde_json::from_str(&header).context("line 1: not JSON")?;
    if h["format"] != FORMAT {
        bail!("line 1: not a doko export (format {FORMAT} expected)");
    }
    if let (Some(theirs), Some(ours)) = (h["store_format"].as_u64(), store.format_version().await?)
        && theirs > u64::from(ours)
    {
        bail!("the export was written by a newer doko (store format {theirs}, this one {ours})");
    }
    let mut entries = Vec::new();
    for (i, line) in lines.enumerate() {
        let line = line?;
        if !line.trim().is_empty() {
            entries.push(entry(&line, i + 2)?);
        }
    }
    if let Some(n) = h["tables"].as_u64()
        && n as usize != entries.len()
    {
        bail!("the export is cut short: {} of {n} tables", entries.len());
    }
    for e in &entries {
        if store.load(&e.channel).await?.is_some() {
            bail!("{} already has a table in this store; nothing imported", e.channel.key());
        }
    }
    let mut moved = Moved::default();
    for e in entries {
        // records under their numbers: the ones trimmed before the export
        // are written as placeholders and trimmed again in the same step
        let first = e.records.first().map_or(1, |(n, _)| *n);
        let gap = first - 1;
        let mut texts: Vec<String> = vec![String::new(); gap as usize];
        for (expect, (n, text)) in (first..).zip(&e.records) {
            if *n != expect {
                bail!("{}: record {expect} is missing between kept ones", e.channel.key());
            }
            texts.push(text.clone());
        }
        let durable = serde_json::from_str::<Table>(&e.table).map_or(true, |t| t.durable());
        let keep = Keep { durable, records: if gap > 0 { e.records.len() as u32 } else { 0 } };
        match store.commit_kept(&e.channel, 0, &e.table, &texts, keep).await? {
            Commit::Done(_) => {}
            Commit::Conflict => bail!("{} got a table while importing", e.channel.key()),
        }
        moved.tables += 1;
        moved.records += e.records.len();
    }
    Ok(moved)
}

/// `doko export FILE` or `doko import FILE` on the configured store.
pub async fn command(cli: &Cli, set: &config::Settings, file: &str, exporting: bool) -> anyhow::Result<Moved> {
    let s = stores::store(cli, set).await?;
    if exporting {
        if file == "-" {
            return export(&s, &mut std::io::stdout().lock()).await;
        }
        let tmp = format!("{file}.part");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp).with_context(|| format!("creating {tmp}"))?);
        let moved = export(&s, &mut out).await?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, file).with_context(|| format!("writing {file}"))?;
        return Ok(moved);
    }
    if file == "-" {
        return import(&s, &mut std::io::stdin().lock()).await;
    }
    let f = std::fs::File::open(file).with_context(|| format!("reading {file}"))?;
    import(&s, &mut std::io::BufReader::new(f)).await
}
