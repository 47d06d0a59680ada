//! `doko bench-pages`: the web pages served over loopback HTTP by the
//! listener the binary runs (axum, the service on the memory store, one
//! worker thread): a 24-deal list's page and a finished deal's page, their
//! time from request to the last byte and their size.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use doko_bot::{Actor, AnyStore, ChannelId, Command, MemoryStore, Platform, Service, UserId};

/// Plays a list of 24 deals (the person away: computers play every
/// seat), then asks for its page and its first deal's page `runs` times
/// each over loopback HTTP, and prints the median and p99 time and the
/// size of each (the target: under 5 ms median on one core).
pub fn pages(runs: usize) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (service, token) = rt.block_on(played_list())?;
    let handle = crate::observe::install()?;
    let web = Arc::new(crate::observe::Web::new(service.clone(), None));
    let router = crate::observe::router(handle, Arc::new(|| true), Some(web));
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let port = listener.local_addr()?.port();
    // the listener on this thread's runtime (one core), the client on
    // another thread
    let client = std::thread::spawn(move || -> anyhow::Result<Vec<(String, Vec<Duration>, usize)>> {
        let mut out = Vec::new();
        for (name, path) in [("list of 24 deals", format!("/t/{token}/list/1")), ("deal", format!("/t/{token}/deal/1"))]
        {
            let mut times = Vec::with_capacity(runs);
            let mut size = 0;
            for _ in 0..runs.max(1) + 5 {
                let start = Instant::now();
                let (status, body) = get(port, &path)?;
                times.push(start.elapsed());
                anyhow::ensure!(status == 200, "{path}: {status}");
                size = body;
            }
            // (the first five warm up)
            out.push((name.to_string(), times.split_off(5), size));
        }
        Ok(out)
    });
    let measured = rt.block_on(async {
        let server = tokio::spawn(crate::observe::serve(listener, router));
        let done = tokio::task::spawn_blocking(move || client.join()).await;
        server.abort();
        done
    })?;
    let measured = measured.map_err(|_| anyhow::anyhow!("the client thread panicked"))??;
    println!("{:<20} {:>10} {:>10} {:>10}", "page", "median ms", "p99 ms", "KB");
    for (name, mut times, size) in measured {
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
        println!("{name:<20} {:>10.3} {:>10.3} {:>10.1}", ms(times[times.len() / 2]), ms(p99), size as f64 / 1024.0);
    }
    Ok(())
}

/// A table on the memory store whose first list of 24 deals was played
/// out by computers, and its page token.
async fn played_list() -> anyhow::Result<(Arc<Service<AnyStore>>, String)> {
    let service = Arc::new(Service::new(AnyStore::Memory(MemoryStore::default()), 7).with_web("http://127.0.0.1"));
    let ch = ChannelId::new(Platform::TERMINAL, "bench-pages");
    let me = Actor::new(UserId::new(Platform::TERMINAL, "anna"), "Anna", true);
    service.open_with_computers_checked(&ch, &me).await?;
    service.execute(&ch, &me, Command::Away).await?;
    let mut played = false;
    for _ in 0..100 {
        let out = service.execute(&ch, &me, Command::Score).await?;
        if out.notices.iter().any(|n| n.text.lines().any(|l| l.trim_start().starts_with("24 "))) {
            played = true;
            break;
        }
        service.execute(&ch, &me, Command::Start).await?;
    }
    anyhow::ensure!(played, "the list did not reach 24 deals");
    let out = service.execute(&ch, &me, Command::Web { renew: false }).await?;
    let text = out.notices.iter().map(|n| n.text.as_str()).collect::<String>();
    let token = text.rsplit("/t/").next().map(|t| t.trim().to_string()).context("no web address")?;
    Ok((service, token))
}

/// `GET path` over HTTP/1.0: the status and the body's size.
fn get(port: u16, path: &str) -> anyhow::Result<(u16, usize)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n")?;
    let mut all = Vec::new();
    s.read_to_end(&mut all)?;
    let split = all.windows(4).position(|w| w == b"\r\n\r\n").context("no header")?;
    let status = String::from_utf8_lossy(&all[..split]).split_whitespace().nth(1).unwrap_or("0").parse()?;
    Ok((status, all.len() - split - 4))
}
