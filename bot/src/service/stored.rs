//! A table as the store holds it, read and written: reading tells a
//! damaged table (or one of a newer doko) from a readable one, writing
//! sizes its buffer for a usual table.

use doko_engine::Rules;

use super::error::{Damage, ServiceError};
use crate::lang::Lang;
use crate::store::{STORE_FORMAT, Stored};
use crate::table::Table;

/// A stored table read (a new one when none is stored), or the damage.
pub(super) fn read_stored(stored: Option<Stored>, new: &(Rules, Lang)) -> Result<(Table, u64), ServiceError> {
    let Some(s) = stored else { return Ok((Table::new_with(new.0, new.1), 0)) };
    match serde_json::from_str::<Table>(&s.json) {
        Ok(mut t) => {
            t.upgrade();
            Ok((t, s.version))
        }
        Err(e) => {
            let probe = crate::table::stored_probe(&s.json);
            let newer = probe.is_some_and(|(f, _)| f > STORE_FORMAT);
            let what = format!("{:?} error at line {} column {}", e.classify(), e.line(), e.column());
            Err(ServiceError::Damaged(Box::new(Damage {
                version: s.version,
                newer,
                lang: probe.and_then(|(_, l)| l),
                fresh: false,
                what,
                error: e.to_string(),
                state: s.json,
            })))
        }
    }
}

/// A table's JSON, written into a buffer of a table's usual size (grown
/// from serde_json's 128 bytes, a table of two kilobytes was copied five
/// times).
pub(super) fn table_json(t: &Table) -> Result<String, serde_json::Error> {
    let mut buf = Vec::with_capacity(4096);
    serde_json::to_writer(&mut buf, t)?;
    // (serde_json writes UTF-8 only)
    Ok(String::from_utf8(buf).expect("serde_json writes UTF-8"))
}
