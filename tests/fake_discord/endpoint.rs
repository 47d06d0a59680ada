//! Discord's side of an application's interactions endpoint (the
//! "Interactions Endpoint URL", `interactions/receiving-and-responding.mdx`,
//! Receiving an Interaction, Security and Authorization): instead of
//! dispatching an interaction over the gateway, Discord POSTs it as JSON to
//! the application's URL with two headers,
//!
//! - `X-Signature-Ed25519`: hex of the Ed25519 signature of the timestamp
//!   followed by the body, with the application's key, and
//! - `X-Signature-Timestamp`: the timestamp (unix seconds),
//!
//! and takes the HTTP response's body as the interaction's first response
//! (the same `{"type": ..., "data": ...}` the callback route takes); it must
//! come within 3 s. A request with a bad signature must be answered 401;
//! Discord checks that with PINGs (type 1), which are answered
//! `{"type": 1}` (PONG).
//!
//! The fake signs with a fixed test key ([`SIGNING_SEED`]; its public key
//! is what `GET /oauth2/applications/@me` says as `verify_key`), registers
//! the interaction as it does for the gateway, so later followups and edits
//! of `@original` work, and applies a 200 response as a callback: it is
//! recorded in [`FakeDiscord::callbacks`] like one sent to the callback
//! route, with Discord's checks (one response per interaction, 3 s).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::signing::{SIGNING_SEED, SignedRequest, public_key_of, unix_now};
use super::{FakeDiscord, InteractionHandle, Pending, WaitError, hex_id, id_of};

/// What an interactions endpoint answered.
#[derive(Clone, Debug)]
pub struct EndpointReply {
    /// The HTTP status.
    pub status: u16,
    /// The body as JSON (`null` when it is not JSON).
    pub body: Value,
    /// The body as text.
    pub text: String,
    /// From sending the request to having the whole response.
    pub elapsed: Duration,
}

impl EndpointReply {
    /// The response type (`body.type`): 1 PONG, 4 message, 5 deferred
    /// message, 6 deferred update, 7 update, 8 autocomplete result.
    pub fn kind(&self) -> Option<u64> {
        self.body["type"].as_u64()
    }

    /// `data.flags` has `EPHEMERAL`.
    pub fn ephemeral(&self) -> bool {
        self.body["data"]["flags"].as_u64().is_some_and(|f| f & super::EPHEMERAL != 0)
    }

    /// `data.content`.
    pub fn content(&self) -> Option<&str> {
        self.body["data"]["content"].as_str()
    }

    /// A 200 with a response Discord accepts for an interaction of this
    /// type (2 command, 3 component, 4 autocomplete; 1 PING).
    pub fn valid_for(&self, interaction_kind: u64) -> bool {
        let Some(kind) = self.kind() else { return false };
        self.status == 200
            && match kind {
                1 => interaction_kind == 1,
                4 | 5 => interaction_kind == 2 || interaction_kind == 3,
                6 | 7 => interaction_kind == 3,
                8 => interaction_kind == 4,
                9 => interaction_kind == 2 || interaction_kind == 3,
                _ => false,
            }
    }
}

impl FakeDiscord {
    /// The application's public key (64 hex digits): the endpoint's
    /// `DOKO_DISCORD_PUBLIC_KEY`.
    pub fn public_key(&self) -> String {
        public_key_of(&SIGNING_SEED)
    }

    /// How many REST requests the fake has received (cheaper than
    /// [`requests`](Self::requests) for waiting until the bot is quiet).
    pub fn request_count(&self) -> usize {
        self.inner.lock().requests.len()
    }

    /// An interaction signed now with the application's key.
    pub fn sign(&self, interaction: &Value) -> SignedRequest {
        self.sign_at(interaction, unix_now())
    }

    /// An interaction signed with the application's key at a given time
    /// (unix seconds; an old one is a stale request).
    pub fn sign_at(&self, interaction: &Value, timestamp: u64) -> SignedRequest {
        SignedRequest::sign(&SIGNING_SEED, interaction.to_string().into_bytes(), timestamp)
    }

    /// A PING (type 1), as Discord sends to check an endpoint URL.
    pub fn ping(&self) -> Value {
        let mut st = self.inner.lock();
        let id = st.snowflake();
        json!({
            "id": id.to_string(),
            "application_id": st.config.application_id.to_string(),
            "type": 1,
            "token": format!("cGluZw{}", hex_id(id)),
            "version": 1,
            "user": super::payloads::user(&st.config.bot, true),
        })
    }

    /// Sends an interaction built by [`slash`](Self::slash),
    /// [`click`](Self::click) or [`autocomplete`](Self::autocomplete) to an
    /// interactions endpoint (`http://host:port/path`), signed now, as
    /// Discord does instead of dispatching it on the gateway. Its 3 s start
    /// now; a 200 is applied as its first response. The handle serves
    /// [`wait_callback`](Self::wait_callback),
    /// [`original_message`](Self::original_message) and the others as for
    /// the gateway.
    pub async fn post_interaction(
        &self,
        url: &str,
        interaction: Value,
    ) -> Result<(InteractionHandle, EndpointReply), WaitError> {
        let handle = handle_of(&interaction)?;
        let reply = self.post_signed(url, &self.sign(&interaction)).await?;
        Ok((handle, reply))
    }

    /// Sends a request as it is (signed, forged, stale, unsigned or
    /// replayed) to an interactions endpoint. An interaction the fake has
    /// not dispatched before is registered first (its 3 s start now); a
    /// 200 with a response for an interaction is applied as a callback
    /// (to an interaction answered before: refused with 40060 and recorded
    /// as such, as the callback route does). Never retried: a request that
    /// may have reached the endpoint is not sent again.
    pub async fn post_signed(&self, url: &str, req: &SignedRequest) -> Result<EndpointReply, WaitError> {
        let interaction = req.json();
        let kind = interaction["type"].as_u64().unwrap_or(0);
        let registered = if kind >= 2 { Some(self.register(&interaction)?) } else { None };
        let mut headers = vec![("content-type", "application/json".to_string())];
        if let Some(s) = &req.signature {
            headers.push(("x-signature-ed25519", s.clone()));
        }
        if let Some(t) = &req.timestamp {
            headers.push(("x-signature-timestamp", t.clone()));
        }
        let start = Instant::now();
        let (status, body) = tokio::time::timeout(Duration::from_secs(15), self.client.post(url, &headers, &req.body))
            .await
            .map_err(|_| WaitError(format!("no answer from {url} in 15 s")))?
            .map_err(|e| WaitError(format!("POST {url}: {e}")))?;
        let reply = EndpointReply {
            status,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
            text: String::from_utf8_lossy(&body).to_string(),
            elapsed: start.elapsed(),
        };
        if let Some(h) = registered
            && status == 200
            && reply.body.is_object()
        {
            let empty = super::http::Request {
                method: "POST".into(),
                path: String::new(),
                query: String::new(),
                headers: Vec::new(),
                body: Vec::new(),
            };
            let id = h.id.to_string();
            {
                let mut st = self.inner.lock();
                super::rest::callback(&mut st, &empty, &id, &h.token, &reply.body, Vec::new());
            }
            self.inner.bump();
        }
        Ok(reply)
    }

    /// Registers an interaction (as the gateway's dispatch does) unless it
    /// is known already.
    fn register(&self, interaction: &Value) -> Result<InteractionHandle, WaitError> {
        let handle = handle_of(interaction)?;
        let mut st = self.inner.lock();
        st.interactions.entry(handle.id).or_insert_with(|| Pending {
            id: handle.id,
            token: handle.token.clone(),
            kind: handle.kind,
            created: Instant::now(),
            channel_id: id_of(&interaction["channel_id"]).unwrap_or(0),
            message_id: id_of(&interaction["message"]["id"]),
            acked: None,
            original: None,
        });
        Ok(handle)
    }
}

/// The handle of an interaction payload.
fn handle_of(interaction: &Value) -> Result<InteractionHandle, WaitError> {
    let id = id_of(&interaction["id"]).ok_or_else(|| WaitError("interaction without id".into()))?;
    let token = interaction["token"].as_str().unwrap_or_default().to_string();
    let kind = interaction["type"].as_u64().unwrap_or(0);
    Ok(InteractionHandle { id, token, kind })
}
