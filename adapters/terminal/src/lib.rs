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
    Actor, App, ChannelId, Input, Lang, Notice, Platform, Private, TableMessage, Transport, TransportError, UserId,
    deliver, tr,
};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;
use tracing::info_span;

/// The terminal's channel.
pub fn channel() -> ChannelId {
    ChannelId::new(Platform::TERMINAL, "local")
}

/// The person at the terminal (the admin of their own table).
pub fn you(name: &str) -> Actor {
    Actor::new(UserId::new(Platform::TERMINAL, "you"), name, true)
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

/// The most of one input line kept: enough for the service to see that a
/// longer line is too long for a command (whatever its characters), so a
/// line of any length costs no more memory than this.
const LINE_BYTES: usize = 4 * (doko_bot::command::MAX_COMMAND_CHARS + 1);

/// Reads one line (without its end), keeping at most `max` bytes of it; the
/// rest of the line is read and dropped. `None` at the end of input.
async fn read_line_bounded<R: AsyncBufRead + Unpin>(input: &mut R, max: usize) -> std::io::Result<Option<String>> {
    let mut kept = Vec::new();
    let mut any = false;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let end = buf.iter().position(|b| *b == b'\n');
        let line = &buf[..end.unwrap_or(buf.len())];
        let room = max.saturating_sub(kept.len());
        kept.extend_from_slice(&line[..line.len().min(room)]);
        let used = end.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    Ok(Some(String::from_utf8_lossy(&kept).into_owned()))
}

/// The longest pause between two tries while the table cannot be reached.
const RETRY_MAX: std::time::Duration = std::time::Duration::from_secs(5);

/// How soon the person hears something when the table does not answer
/// (the store is slow or away): what is typed is still applied, once.
pub const FIRST_WORD: std::time::Duration = std::time::Duration::from_millis(1_200);

/// Runs `attempt` until the table can be reached: when no answer has come
/// within [`FIRST_WORD`], or the store is away, the terminal says once that
/// it is waiting, waits (1 s, doubling up to [`RETRY_MAX`]) and tries
/// again, rather than give up on what was typed. `lang`: the table's
/// language as last known.
async fn until_available<W, F, Fut>(
    term: &Terminal<W>,
    lang: Lang,
    mut attempt: F,
) -> Result<doko_bot::Outbox, TransportError>
where
    W: AsyncWrite + Unpin + Send,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = doko_bot::Outbox>,
{
    let mut pause = std::time::Duration::from_secs(1);
    let mut told = false;
    let waiting = || format!("{} {}", doko_bot::render::unavailable(), tr!(lang, "terminal-waiting"));
    loop {
        let attempt = attempt();
        tokio::pin!(attempt);
        let out = tokio::select! {
            out = &mut attempt => out,
            _ = tokio::time::sleep(FIRST_WORD), if !told => {
                tracing::warn!("the table does not answer; waiting for the store");
                term.public(&waiting()).await?;
                told = true;
                attempt.await
            }
        };
        if !out.unavailable {
            if told {
                term.public(&tr!(out.lang, "terminal-store-back")).await?;
            }
            return Ok(out);
        }
        if !told {
            tracing::warn!("the table cannot be reached; waiting for the store");
            term.public(&waiting()).await?;
            told = true;
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(RETRY_MAX);
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
    // the table's language once it has one (a new table speaks English)
    let lang = app.seated(&ch, &me.user).await.unwrap_or_default();
    term.write(&format!("{}\n", tr!(lang, "terminal-welcome"))).await?;
    let first = until_available(&term, lang, || app.handle(&ch, &me, Input::Open, None)).await?;
    let mut lang = first.lang;
    deliver(app, &term, &first).await;
    term.write("> ").await?;
    let mut input = input;
    let mut n = 0u64;
    // a delivery id per line, unique across restarts of the program
    let run_id = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    while let Some(line) = read_line_bounded(&mut input, LINE_BYTES).await? {
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
        // the same delivery id on every try: applied at most once
        let out = until_available(&term, lang, || app.handle(&ch, &me, Input::Text(line.to_string()), Some(&delivery)))
            .await?;
        lang = out.lang;
        deliver(app, &term, &out).await;
        term.write("> ").await?;
    }
    let lang = app.seated(&ch, &me.user).await.unwrap_or(lang);
    term.write(&format!("\n{}\n", tr!(lang, "terminal-bye"))).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_ten_megabyte_line_gets_a_short_refusal() {
        let svc = doko_bot::Service::new(doko_bot::MemoryStore::default(), 3);
        // deal, then open the table again with the long line and without
        run(&svc, &b""[..], &mut Vec::new(), "Anna").await.unwrap();
        let mut input = "x".repeat(10_000_000).into_bytes();
        input.push(b'\n');
        let mut out = Vec::new();
        run(&svc, &input[..], &mut out, "Anna").await.unwrap();
        let mut without = Vec::new();
        run(&svc, &b""[..], &mut without, "Anna").await.unwrap();
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("too long for a command"), "{text}");
        assert!(!text.contains("xxxxxxxxxx"), "the line is not echoed");
        let extra = out.len() - without.len();
        println!("terminal: a 10 MB line adds {extra} bytes of output (the refusal and a prompt)");
        assert!(extra < 200, "{extra} bytes for the long line:\n{text}");
    }

    #[tokio::test]
    async fn lines_are_read_whole_up_to_the_bound() {
        let mut r = &b"play CQ\r\nabcdef\nlast"[..];
        assert_eq!(read_line_bounded(&mut r, 100).await.unwrap().as_deref(), Some("play CQ\r"));
        assert_eq!(read_line_bounded(&mut r, 3).await.unwrap().as_deref(), Some("abc"));
        assert_eq!(read_line_bounded(&mut r, 100).await.unwrap().as_deref(), Some("last"));
        assert_eq!(read_line_bounded(&mut r, 100).await.unwrap(), None);
    }
}
