//! # doko-terminal
//!
//! The terminal adapter: a local table on standard input and output. You
//! and three computer players; the whole command set; your hand is shown
//! privately (it is your terminal). The table lives in the service's store,
//! so quitting (or killing) the program and starting it again resumes the
//! session where it stood.

use doko_bot::render::Audience;
use doko_bot::{Actor, ChannelId, Command, Message, Platform, Service, Store, UserId};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tracing::info_span;

/// The terminal's channel.
pub fn channel() -> ChannelId {
    ChannelId::new(Platform::Terminal, "local")
}

/// The person at the terminal (the admin of their own table).
pub fn you(name: &str) -> Actor {
    Actor::new(UserId::new(Platform::Terminal, "you"), name, true)
}

async fn show<W: AsyncWrite + Unpin>(out: &mut W, msgs: &[Message]) -> std::io::Result<()> {
    for m in msgs {
        let text = m.text.trim_end();
        match &m.to {
            Audience::Public => out.write_all(format!("{text}\n").as_bytes()).await?,
            Audience::Private(_) => {
                let indented: Vec<String> = text.lines().map(|l| format!("  | {l}")).collect();
                out.write_all(format!("{}\n", indented.join("\n")).as_bytes()).await?
            }
        }
    }
    out.write_all(b"> ").await?;
    out.flush().await
}

/// Runs the terminal table until end of input or `quit`.
pub async fn run<S, R, W>(service: &Service<S>, input: R, mut out: W, name: &str) -> anyhow::Result<()>
where
    S: Store,
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let _span = info_span!("terminal").entered();
    let ch = channel();
    let me = you(name);
    let (table, _) = service.table(&ch).await?;
    let running = table.deal_running();
    let mut first: Vec<Message> = Vec::new();
    if running {
        out.write_all(b"Resuming the session.\n").await?;
        first.extend(service.execute(&ch, &me, Command::Table).await?);
        first.extend(service.execute(&ch, &me, Command::Hand).await?);
    } else {
        out.write_all(b"A Doppelkopf table in your terminal: you and three computer players. Type help for the commands, quit to stop.\n").await?;
        if table.seat_of(&me.user).is_none() {
            service.execute(&ch, &me, Command::Join).await?;
        }
        let (t, _) = service.table(&ch).await?;
        for _ in t.seats().len()..4 {
            service.execute(&ch, &me, Command::AddBot(Default::default())).await?;
        }
        first.extend(service.execute(&ch, &me, Command::Start).await?);
    }
    show(&mut out, &first).await?;
    let mut lines = input.lines();
    while let Some(line) = lines.next_line().await? {
        let line = line.trim();
        if line.is_empty() {
            out.write_all(b"> ").await?;
            out.flush().await?;
            continue;
        }
        if matches!(line, "quit" | "exit" | "ende" | "q") {
            break;
        }
        let msgs = service.handle(&ch, &me, line).await?;
        show(&mut out, &msgs).await?;
    }
    out.write_all(b"\nBye. The table is saved; start doko again to go on.\n").await?;
    out.flush().await?;
    Ok(())
}
