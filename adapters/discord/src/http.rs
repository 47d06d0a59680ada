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

use std::collections::VecDeque;
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
/// How many signatures a process remembers to refuse replays.
const SEEN_KEPT: usize = 4096;

/// The endpoint's state: the adapter, the key, the signatures seen.
pub struct Endpoint {
    adapter: Arc<Adapter>,
    verifier: Verifier,
    seen: Mutex<VecDeque<String>>,
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
        Ok(Endpoint { adapter, verifier, seen: Mutex::new(VecDeque::new()) })
    }

    /// Checks a request's signature and timestamp; remembers the signature.
    fn verified(&self, signature: &str, timestamp: &str, body: &[u8]) -> bool {
        if self.verifier.verify(signature, timestamp, body).is_err() {
            return false;
        }
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        match timestamp.parse::<u64>() {
            Ok(t) if t.abs_diff(now) <= MAX_SKEW_SECS => {}
            _ => return false,
        }
        let mut seen = self.seen.lock().expect("seen lock");
        if seen.iter().any(|s| s == signature) {
            return false; // a replay
        }
        seen.push_back(signature.to_string());
        while seen.len() > SEEN_KEPT {
            seen.pop_front();
        }
        true
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
