//! What can be read of a stored table without reading it whole: whether
//! it remembers a delivery, its format and its language.

use serde::Deserialize;

use super::deliveries::Deliveries;
use crate::lang::Lang;

/// The deliveries of a stored table, read without the rest of it.
#[derive(Deserialize)]
struct DeliveriesOnly {
    #[serde(default, alias = "delivered")]
    deliveries: Deliveries,
}

/// Whether a stored table (its JSON) remembers a delivery id, applied or
/// refused; reads only the deliveries, not the deal.
pub fn stored_knows_delivery(json: &str, id: &str) -> Result<bool, serde_json::Error> {
    let d: DeliveriesOnly = serde_json::from_str(json)?;
    Ok(d.deliveries.contains(id))
}

/// What can be read of a stored table that cannot be read whole.
#[derive(Deserialize)]
struct Probe {
    #[serde(default = "super::skip::first_format")]
    format: u32,
    #[serde(default)]
    lang: Option<Lang>,
}

/// The format a stored table says it is in, and its language, where they
/// can be read (a table that cannot be read whole may still say these).
pub fn stored_probe(json: &str) -> Option<(u32, Option<Lang>)> {
    let p: Probe = serde_json::from_str(json).ok()?;
    Some((p.format, p.lang))
}
