//! # doko-terminal
//!
//! The terminal adapter: a local table on standard input and output. You
//! and three computer players; the whole command set; your hand is shown
//! privately (it is your terminal). The table lives in the bot's store, so
//! quitting (or killing) the program and starting it again resumes the
//! session where it stood.
//!
//! Like every adapter it is a [`Transport`] (where messages go) plus its
//! command input; the bot's [`deliver`] decides what is sent.

use async_trait::async_trait;
use doko_bot::{
    Actor, App, ChannelId, Input, Notice, Platform, Private, TableMessage, Transport, TransportError, UserId, deliver,
};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;
use tracing::info_span;

/// The terminal's channel.
pub fn channel() -> ChannelId {
    ChannelId::new(Platform::Terminal, "local")
}

/// The person at the terminal (the admin of their own table).
pub fn you(name: &str) -> Actor {
    Actor::new(UserId::new(Platform::Terminal, "you"), name, true)
}

/// The terminal as a transport: public text as it is, private text
/// indented with a bar.
struct Terminal<W> {
    out: Mutex<W>,
}

impl<W: AsyncWrite + Unpin + Send> Terminal<W> {
    async fn write(&self, text: &str) -> Result<(), TransportError> {
        let mut out = self.out.lock().await;
        out.write_all(text.as_bytes()).await.map_err(|e| TransportError::Platform(e.to_string()))?;
        out.flush().await.map_err(|e| TransportError::Platform(e.to_string()))
    }

    async fn public(&self, text: &str) -> Result<(), TransportError> {
        self.write(&format!("{}\n", text.trim_end())).await
    }
}

#[async_trait]
impl<W: AsyncWrite + Unpin + Send> Transport for Terminal<W> {
    async fn post_table(&self, _: &ChannelId, msg: &TableMessage) -> Result<String, TransportError> {
        self.public(&msg.text()).await?;
        Ok("terminal".to_string())
    }

    async fn edit_table(&self, _: &ChannelId, _: &str, msg: &TableMessage) -> Result<(), TransportError> {
        // a terminal cannot edit what it printed: the table is printed again
        self.public(&msg.text()).await
    }

    async fn notice(&self, _: &ChannelId, notice: &Notice) -> Result<(), TransportError> {
        self.public(&notice.text).await
    }

    async fn private(&self, _: &ChannelId, _: &UserId, msgs: &[&Private]) -> Result<(), TransportError> {
        for m in msgs {
            let indented: Vec<String> = m.text.trim_end().lines().map(|l| format!("  | {l}")).collect();
            self.write(&format!("{}\n", indented.join("\n"))).await?;
        }
        Ok(())
    }
}

/// Runs the terminal table until end of input or `quit`.
pub async fn run<R, W>(app: &dyn App, input: R, out: W, name: &str) -> anyhow::Result<()>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send,
{
    let _span = info_span!("terminal").entered();
    let ch = channel();
    let me = you(name);
    let term = Terminal { out: Mutex::new(out) };
    term.write("doko in your terminal; quit (or end of input) stops, and the table is kept.\n").await?;
    let first = app.open_with_computers(&ch, &me).await;
    deliver(app, &term, &first).await;
    term.write("> ").await?;
    let mut lines = input.lines();
    let mut n = 0u64;
    // a delivery id per line, unique across restarts of the program
    let run_id = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    while let Some(line) = lines.next_line().await? {
        let line = line.trim();
        if line.is_empty() {
            term.write("> ").await?;
            continue;
        }
        if matches!(line, "quit" | "exit" | "ende" | "q") {
            break;
        }
        n += 1;
        let delivery = format!("terminal:{run_id}:{n}");
        let out = app.handle(&ch, &me, Input::Text(line.to_string()), Some(&delivery)).await;
        deliver(app, &term, &out).await;
        term.write("> ").await?;
    }
    term.write("\nBye. The table is saved; start doko again to go on.\n").await?;
    Ok(())
}
