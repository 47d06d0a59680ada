//! The gateway: a WebSocket server speaking v10 JSON (`events/gateway.mdx`,
//! `events/gateway-events.mdx`, close codes in
//! `topics/opcodes-and-status-codes.mdx`).

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::{ConnCmd, ConnectionRecord, GatewayOp, Inner, Session, hex_id, payloads};

/// Accepts connections until the task is aborted.
pub(crate) async fn serve(listener: tokio::net::TcpListener, inner: Arc<Inner>) {
    loop {
        let Ok((sock, _)) = listener.accept().await else { continue };
        let inner = inner.clone();
        tokio::spawn(async move { connection(sock, inner).await });
    }
}

/// What a payload from the client asks of the connection.
enum Next {
    Continue,
    Close(u16, &'static str),
}

/// One client connection, from the handshake to its end.
async fn connection(sock: tokio::net::TcpStream, inner: Arc<Inner>) {
    let mut query = String::new();
    #[allow(clippy::result_large_err)] // tungstenite's own signature
    let callback = |req: &Request, resp: Response| {
        query = req.uri().query().unwrap_or_default().to_string();
        Ok(resp)
    };
    let Ok(ws) = tokio_tungstenite::accept_hdr_async(sock, callback).await else { return };
    let conn = register(&inner, &query);
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<ConnCmd>();
    let (interval, timeout) = {
        let st = inner.lock();
        (st.config.heartbeat_interval, st.config.heartbeat_timeout)
    };
    hello_or_refuse(&query, interval, &tx);
    let mut identified = false;
    let mut last_heartbeat = tokio::time::Instant::now();
    loop {
        let deadline = last_heartbeat + timeout.unwrap_or(Duration::from_secs(86_400));
        let next = tokio::select! {
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(t))) => {
                    let (op, n) = on_payload(&inner, conn, &tx, &t, &mut identified);
                    if op == Some(1) {
                        last_heartbeat = tokio::time::Instant::now();
                    }
                    n
                }
                Some(Ok(Message::Binary(_))) => Next::Close(4002, "Decode error"),
                Some(Ok(Message::Close(frame))) => {
                    // a proper close: the client's frame (1000 without one)
                    let code = frame.map_or(1000, |f| u16::from(f.code));
                    if let Some(c) = inner.lock().connections.iter_mut().find(|c| c.id == conn) {
                        c.closed_by_client = Some(code);
                    }
                    inner.bump();
                    break;
                }
                Some(Err(_)) | None => break,
                Some(Ok(_)) => Next::Continue,
            },
            cmd = rx.recv() => match cmd {
                Some(ConnCmd::Send(frame)) => {
                    if sink.send(Message::Text(frame)).await.is_err() {
                        break;
                    }
                    Next::Continue
                }
                Some(ConnCmd::Close(code, reason)) => {
                    let _ = close(&mut sink, code, &reason).await;
                    mark_closed(&inner, conn, code);
                    break;
                }
                Some(ConnCmd::Drop) | None => break,
            },
            _ = tokio::time::sleep_until(deadline), if timeout.is_some() => {
                // no heartbeat in time: closed, the session stays resumable
                Next::Close(4000, "heartbeat timed out")
            }
        };
        if let Next::Close(code, reason) = next {
            // what was queued before goes out first
            while let Ok(ConnCmd::Send(frame)) = rx.try_recv() {
                let _ = sink.send(Message::Text(frame)).await;
            }
            let _ = close(&mut sink, code, reason).await;
            mark_closed(&inner, conn, code);
            if matches!(code, 4003 | 4004 | 4007 | 4009) {
                inner.lock().sessions.retain(|_, s| s.conn.as_ref().is_none_or(|(c, _)| *c != conn));
            }
            break;
        }
    }
    ended(&inner, conn);
}

/// A new connection recorded with its query string; its id.
fn register(inner: &Inner, query: &str) -> u64 {
    let conn = {
        let mut st = inner.lock();
        let id = st.connections.len() as u64 + 1;
        st.connections.push(ConnectionRecord {
            id,
            query: query.to_string(),
            closed_by_fake: None,
            closed_by_client: None,
            ended: false,
        });
        id
    };
    inner.bump();
    conn
}

/// Hello with the heartbeat interval, or a close when the query string
/// (gateway.mdx, Gateway URL Query String Params) asks for what this fake
/// does not speak.
fn hello_or_refuse(query: &str, interval: Duration, tx: &mpsc::UnboundedSender<ConnCmd>) {
    let param = |k: &str| query.split('&').filter_map(|kv| kv.split_once('=')).find(|(n, _)| *n == k).map(|(_, v)| v);
    let refused = match (param("v"), param("encoding"), param("compress")) {
        (Some(v), _, _) if v != "10" => Some((4012, "Invalid API version")),
        (_, Some(e), _) if e != "json" => Some((4002, "this fake speaks JSON only")),
        (_, _, Some(_)) => Some((4000, "this fake has no transport compression")),
        _ => None,
    };
    if let Some((code, reason)) = refused {
        let _ = tx.send(ConnCmd::Close(code, reason.into()));
    } else {
        let hello = json!({"op": 10, "d": {"heartbeat_interval": interval.as_millis() as u64}, "s": null, "t": null});
        let _ = tx.send(ConnCmd::Send(hello.to_string()));
    }
}

/// A connection gone: its sessions keep no connection, its record says it
/// ended.
fn ended(inner: &Inner, conn: u64) {
    {
        let mut st = inner.lock();
        for s in st.sessions.values_mut() {
            if s.conn.as_ref().is_some_and(|(c, _)| *c == conn) {
                s.conn = None;
            }
        }
        if let Some(c) = st.connections.iter_mut().find(|c| c.id == conn) {
            c.ended = true;
        }
    }
    inner.bump();
}

async fn close<S>(sink: &mut S, code: u16, reason: &str) -> Result<(), S::Error>
where
    S: futures_util::Sink<Message> + Unpin,
{
    let frame = CloseFrame { code: CloseCode::from(code), reason: reason.to_string().into() };
    sink.send(Message::Close(Some(frame))).await?;
    sink.close().await
}

fn mark_closed(inner: &Inner, conn: u64, code: u16) {
    if let Some(c) = inner.lock().connections.iter_mut().find(|c| c.id == conn) {
        c.closed_by_fake = Some(code);
    }
    inner.bump();
}

/// The token as the client sent it, `Bot ` prefix or not.
fn token_ok(expected: &str, d: &Value) -> bool {
    d["token"].as_str().is_some_and(|t| t.strip_prefix("Bot ").unwrap_or(t) == expected)
}

/// Handles one payload from the client: its opcode, and what next.
fn on_payload(
    inner: &Inner,
    conn: u64,
    tx: &mpsc::UnboundedSender<ConnCmd>,
    text: &str,
    identified: &mut bool,
) -> (Option<u64>, Next) {
    // gateway.mdx, Sending Events: at most 4096 bytes
    if text.len() > 4096 {
        return (None, Next::Close(4002, "Decode error"));
    }
    let Ok(payload) = serde_json::from_str::<Value>(text) else { return (None, Next::Close(4002, "Decode error")) };
    let Some(op) = payload["op"].as_u64() else { return (None, Next::Close(4002, "Decode error")) };
    (Some(op), on_op(inner, conn, tx, op, payload, identified))
}

/// Handles one opcode.
fn on_op(
    inner: &Inner,
    conn: u64,
    tx: &mpsc::UnboundedSender<ConnCmd>,
    op: u64,
    payload: Value,
    identified: &mut bool,
) -> Next {
    let d = payload.get("d").cloned().unwrap_or(Value::Null);
    let next = {
        let mut st = inner.lock();
        let mut recorded = d.clone();
        if recorded.get("token").is_some() {
            recorded["token"] = json!("<redacted>");
        }
        let at = st.elapsed();
        st.ops.push(GatewayOp { connection: conn, op, d: recorded, at });
        match op {
            1 => {
                let _ = tx.send(ConnCmd::Send(json!({"op": 11, "d": null, "s": null, "t": null}).to_string()));
                Next::Continue
            }
            2 => {
                if *identified {
                    return close_after(inner, Next::Close(4005, "Already authenticated"));
                }
                if !token_ok(&st.config.token, &d) {
                    return close_after(inner, Next::Close(4004, "Authentication failed"));
                }
                // gateway.mdx, Sharding: `[shard_id, num_shards]`
                let shard = match d.get("shard") {
                    None | Some(Value::Null) => [0, 1],
                    Some(s) => match (s[0].as_u64(), s[1].as_u64()) {
                        (Some(k), Some(n)) if k < n => [k, n],
                        _ => return close_after(inner, Next::Close(4010, "Invalid shard")),
                    },
                };
                st.sessions_started += 1;
                let id = hex_id(st.sessions_started ^ (st.elapsed().as_nanos() as u64))[..32].to_string();
                // a new session replaces the shard's old one; its
                // connection, if still open, is closed as Discord would on
                // its timeout
                if let Some((_, old)) = st.sessions.remove(&shard[0]).and_then(|s| s.conn) {
                    let _ = old.send(ConnCmd::Close(4009, "Session timed out".into()));
                }
                let session =
                    Session { id: id.clone(), shard, seq: 0, events: Vec::new(), conn: Some((conn, tx.clone())) };
                st.sessions.insert(shard[0], session);
                let guilds = st.guilds_on(shard);
                let ready = payloads::ready(&st, &id, d.get("shard"), &guilds);
                let _ = st.dispatch(shard[0], "READY", ready);
                for g in &guilds {
                    let guild = payloads::guild_create(&st, g);
                    let _ = st.dispatch(shard[0], "GUILD_CREATE", guild);
                }
                *identified = true;
                Next::Continue
            }
            6 => {
                if !token_ok(&st.config.token, &d) {
                    return close_after(inner, Next::Close(4004, "Authentication failed"));
                }
                let seq = d["seq"].as_u64().unwrap_or(0);
                let found = st.sessions.iter().find(|(_, s)| Some(s.id.as_str()) == d["session_id"].as_str());
                let Some(shard) = found.map(|(k, _)| *k) else {
                    // gateway.mdx, Resuming: too late to resume
                    let _ = tx.send(ConnCmd::Send(json!({"op": 9, "d": false, "s": null, "t": null}).to_string()));
                    return close_after(inner, Next::Continue);
                };
                let Some(s) = st.sessions.get_mut(&shard) else { return Next::Continue };
                if seq > s.seq {
                    return close_after(inner, Next::Close(4007, "Invalid seq"));
                }
                if let Some((old_id, old)) = s.conn.take()
                    && old_id != conn
                {
                    let _ = old.send(ConnCmd::Close(4000, "resumed elsewhere".into()));
                }
                for (_, frame) in s.events.iter().filter(|(n, _)| *n > seq) {
                    let _ = tx.send(ConnCmd::Send(frame.clone()));
                }
                s.conn = Some((conn, tx.clone()));
                let _ = st.dispatch(shard, "RESUMED", json!({}));
                *identified = true;
                Next::Continue
            }
            3 | 4 | 8 | 31 | 43 if *identified => Next::Continue,
            3 | 4 | 8 | 31 | 43 => Next::Close(4003, "Not authenticated"),
            _ => Next::Close(4001, "Unknown opcode"),
        }
    };
    inner.bump();
    next
}

/// Wakes the waiters (the lock is released by then) and passes `next` on.
fn close_after(inner: &Inner, next: Next) -> Next {
    inner.bump();
    next
}
