//! The fake's Ed25519 test key: signing what it POSTs to an interactions
//! endpoint, and the public key it tells the application.

use std::time::SystemTime;

use ed25519_dalek::{Signer, SigningKey};
use serde_json::Value;

/// The seed of the fake application's Ed25519 key (a test key, not a
/// secret).
pub const SIGNING_SEED: [u8; 32] = *b"the fake Discord's test key 2026";

/// Lower-case hex of bytes.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The public key of a seed, as the developer portal shows it (64 hex
/// digits).
pub fn public_key_of(seed: &[u8; 32]) -> String {
    hex(SigningKey::from_bytes(seed).verifying_key().as_bytes())
}

/// Seconds since the epoch, now.
pub fn unix_now() -> u64 {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_secs()
}

/// A request to an interactions endpoint as Discord sends it: the body and
/// the two signature headers. Sending the same value twice is an exact
/// replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedRequest {
    /// The JSON body, byte for byte.
    pub body: Vec<u8>,
    /// `X-Signature-Timestamp`, if sent.
    pub timestamp: Option<String>,
    /// `X-Signature-Ed25519`, if sent.
    pub signature: Option<String>,
}

impl SignedRequest {
    /// A body signed at `timestamp` (unix seconds) with the key of `seed`:
    /// the signature of the timestamp's digits followed by the body.
    pub fn sign(seed: &[u8; 32], body: Vec<u8>, timestamp: u64) -> SignedRequest {
        let timestamp = timestamp.to_string();
        let message = [timestamp.as_bytes(), &body].concat();
        let signature = hex(&SigningKey::from_bytes(seed).sign(&message).to_bytes());
        SignedRequest { body, timestamp: Some(timestamp), signature: Some(signature) }
    }

    /// A body without the signature headers.
    pub fn unsigned(body: Vec<u8>) -> SignedRequest {
        SignedRequest { body, timestamp: None, signature: None }
    }

    /// The body as JSON (`null` when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}
