//! `doko store inspect`: the tables set aside because they could not be
//! read, for the store's operator.

use anyhow::Context;

use crate::args::Cli;
use crate::{config, stores};

/// `doko store inspect`: what was set aside, for the operator.
pub async fn inspect(cli: &Cli, set: &config::Settings, id: Option<&str>, state: bool) -> anyhow::Result<()> {
    use doko_bot::Store;
    let s = stores::open_store(cli, set).await?;
    let all = s.quarantined().await.context("reading the tables set aside")?;
    let chosen: Vec<_> = all.iter().filter(|q| id.is_none_or(|id| q.id() == id)).collect();
    if let Some(id) = id
        && chosen.is_empty()
    {
        anyhow::bail!("no table set aside as {id} ({} set aside in all)", all.len());
    }
    if id.is_none() {
        println!("{} table(s) set aside", all.len());
    }
    for q in chosen {
        println!("{}  set aside {}", q.id(), utc(q.at_ms));
        println!("  error: {}", q.error);
        if state || id.is_some() {
            println!("  state ({} bytes):", q.state.len());
            if state {
                println!("{}", q.state);
            }
        }
    }
    Ok(())
}

/// A time in milliseconds since the Unix epoch as an HTTP date
/// (`Wed, 25 Nov 2026 14:22:02 GMT`; `httpdate`, already in the binary
/// through hyper).
fn utc(ms: u64) -> String {
    httpdate::fmt_http_date(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc() {
        assert_eq!(utc(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(utc(951_782_400_000), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(utc(1_795_616_522_999), "Wed, 25 Nov 2026 14:22:02 GMT");
    }
}
