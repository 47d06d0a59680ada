//! Discord's interactions endpoint: instead of the gateway, Discord sends
//! every interaction as a signed HTTP POST to a URL of the application's
//! (its "Interactions Endpoint URL"), and takes the first answer from the
//! HTTP response. Nothing is kept in the process between requests, so
//! several `doko` processes on one Redis can serve one application behind
//! any load balancer.
//!
//! Every request is checked with the application's Ed25519 public key
//! (serenity's `Verifier`): a missing or bad signature, a timestamp more
//! than five minutes off, or a signature this process has seen before is
//! refused with 401, as Discord requires. PING is answered with PONG.

use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use serenity::interactions_endpoint::Verifier;
use tracing::{Instrument, info_span};

use crate::handler::{Adapter, Responder};

/// The largest request body accepted (interactions are a few KiB).
const MAX_BODY: usize = 256 * 1024;
/// How far a request's timestamp may be from the clock.
const MAX_SKEW_SECS: u64 = 300;
/// At most this many signatures are remembered to refuse replays (those of
/// the last five minutes, the time a request is taken at all; 16 bytes and
/// a timestamp each). Beyond it, the oldest are forgotten first.
const SEEN_KEPT: usize = 1 << 20;

/// The endpoint's state: the adapter, the key, the signatures seen.
pub struct Endpoint {
    adapter: Arc<Adapter>,
    verifier: Verifier,
    seen: Mutex<Seen>,
}

/// The signatures of the requests taken in the last five minutes: the
/// first 16 bytes of each (a valid signature cannot be chosen, so they do
/// not collide), in arrival order with their timestamps, and as a set.
#[derive(Default)]
struct Seen {
    order: VecDeque<(u64, u128)>,
    set: HashSet<u128>,
}

impl Seen {
    /// Remembers a verified signature made at `timestamp`; false when it was
    /// there already (a replay). Forgets those too old to be taken anyway.
    fn first(&mut self, signature: &str, timestamp: u64, now: u64) -> bool {
        let Some(key) = signature.get(..32).and_then(|h| u128::from_str_radix(h, 16).ok()) else { return false };
        while let Some(&(t, old)) = self.order.front() {
            if t.saturating_add(MAX_SKEW_SECS) >= now && self.order.len() < SEEN_KEPT {
                break;
            }
            self.order.pop_front();
            self.set.remove(&old);
        }
        if !self.set.insert(key) {
            return false;
        }
        self.order.push_back((timestamp, key));
        true
    }
}

/// A response with a JSON or text body.
fn reply(status: StatusCode, json: bool, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    let kind = if json { "application/json" } else { "text/plain; charset=utf-8" };
    r.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static(kind));
    r
}

impl Endpoint {
    /// An endpoint for an adapter and the application's public key (64 hex
    /// digits, as the developer portal shows it).
    pub fn new(adapter: Arc<Adapter>, public_key: &str) -> Result<Endpoint, String> {
        let bytes: Vec<u8> = (0..public_key.len())
            .step_by(2)
            .map(|i| public_key.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
            .collect::<Option<_>>()
            .ok_or("the public key must be 64 hex digits")?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| "the public key must be 64 hex digits")?;
        let verifier = Verifier::try_new(key).map_err(|_| "the public key is not a valid Ed25519 key")?;
        Ok(Endpoint { adapter, verifier, seen: Mutex::new(Seen::default()) })
    }

    /// Checks a request's signature and timestamp; remembers the signature.
    fn verified(&self, signature: &str, timestamp: &str, body: &[u8]) -> bool {
        if self.verifier.verify(signature, timestamp, body).is_err() {
            return false;
        }
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let t = match timestamp.parse::<u64>() {
            Ok(t) if t.abs_diff(now) <= MAX_SKEW_SECS => t,
            _ => return false,
        };
        // a replay is refused
        self.seen.lock().expect("seen lock").first(signature, t, now)
    }

    /// Answers one HTTP request.
    pub async fn answer(self: Arc<Self>, req: Request<Incoming>) -> Response<Full<Bytes>> {
        if req.method() != hyper::Method::POST {
            return reply(StatusCode::METHOD_NOT_ALLOWED, false, "POST interactions here");
        }
        let header =
            |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string).unwrap_or_default();
        let (signature, timestamp) = (header("x-signature-ed25519"), header("x-signature-timestamp"));
        let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
            Ok(b) => b.to_bytes(),
            Err(_) => return reply(StatusCode::PAYLOAD_TOO_LARGE, false, "too large"),
        };
        if !self.verified(&signature, &timestamp, &body) {
            tracing::info!("an interaction request with a bad signature was refused");
            return reply(StatusCode::UNAUTHORIZED, false, "invalid request signature");
        }
        let value: serde_json::Value = match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(_) => return reply(StatusCode::BAD_REQUEST, false, "not JSON"),
        };
        if value["type"] == 1 {
            return reply(StatusCode::OK, true, r#"{"type":1}"#);
        }
        let Some(interaction) = crate::decode(&String::from_utf8_lossy(&body)) else {
            return reply(StatusCode::BAD_REQUEST, false, "not an interaction");
        };
        let (responder, first) = Responder::body();
        let adapter = self.adapter.clone();
        let span = info_span!("discord_endpoint", id = %interaction.id());
        tokio::spawn(
            async move {
                if let Err(e) = adapter.handle_with(&interaction, &responder).await {
                    tracing::warn!(error = %e, "answering an interaction failed");
                }
            }
            .instrument(span),
        );
        // the adapter defers after 1.5 s, well inside Discord's 3 s
        match tokio::time::timeout(Duration::from_secs(3), first).await {
            Ok(Ok(r)) => match serde_json::to_vec(&r) {
                Ok(json) => reply(StatusCode::OK, true, json),
                Err(_) => reply(StatusCode::INTERNAL_SERVER_ERROR, false, "unserialisable answer"),
            },
            _ => reply(StatusCode::INTERNAL_SERVER_ERROR, false, "no answer"),
        }
    }
}

/// Serves the endpoint on a listener until the process ends.
pub async fn serve(endpoint: Arc<Endpoint>, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let addr: Option<SocketAddr> = listener.local_addr().ok();
    tracing::info!(listen = ?addr, "serving Discord's interactions endpoint");
    loop {
        let (stream, _) = listener.accept().await?;
        let endpoint = endpoint.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let e = endpoint.clone();
                async move { Ok::<_, std::convert::Infallible>(e.answer(req).await) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await {
                tracing::debug!(error = %e, "an endpoint connection ended");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(n: u8) -> String {
        format!("{n:02x}").repeat(64)
    }

    #[test]
    fn a_signature_is_taken_once_for_as_long_as_its_timestamp_is_taken() {
        let mut seen = Seen::default();
        let now = 1_800_000_000;
        assert!(seen.first(&sig(1), now, now));
        assert!(!seen.first(&sig(1), now, now), "a replay");
        assert!(!seen.first(&sig(1), now, now + MAX_SKEW_SECS), "a replay within the window");
        assert!(seen.first(&sig(2), now + 1, now + 1));
        // the first is forgotten once its timestamp is refused anyway
        assert!(seen.first(&sig(3), now + MAX_SKEW_SECS + 1, now + MAX_SKEW_SECS + 1));
        assert!(!seen.set.contains(&u128::from_str_radix(&sig(1)[..32], 16).unwrap()));
        assert!(!seen.first(&sig(2), now + 1, now + MAX_SKEW_SECS + 1), "still remembered");
        assert!(!seen.first("not hex", now, now));
    }
}
