//! Commits the store did not confirm (an error or a timeout on commit, the
//! change possibly made all the same), and the verdict on them once the
//! table is read again: a change is given its answer if it was made, tried
//! again if it was not, and never made twice.

use std::sync::Arc;

use super::error::ServiceError;
use crate::store::Stored;
use crate::table::Table;

/// How a change whose commit was not confirmed is judged once the table is
/// read again: what makes running it again safe.
#[derive(Clone, Debug)]
pub(super) enum Idempotence {
    /// By the command's delivery id: a table that remembers it has it
    /// handled (applied or refused), one that does not has not.
    ByDeliveryId(String),
    /// The work may run again on the fresh table: it looks at the table
    /// itself and does nothing twice (the turn clock, the table message's
    /// id).
    SafeToRepeat,
    /// A command without a delivery id: when the table has moved on past
    /// the unconfirmed commit, it cannot be told whether it was made, and
    /// the person is told the table is unavailable rather than risk doing
    /// it twice.
    NotIdempotent,
}

/// A try whose commit the store did not confirm: what it wrote, on which
/// version, and what it would answer.
pub(super) struct UnconfirmedCommit<W> {
    /// The version it was to replace.
    pub(super) expected: u64,
    /// The table it wrote, as JSON.
    pub(super) json: String,
    /// The table it wrote.
    pub(super) table: Arc<Table>,
    /// What the work answered.
    pub(super) result: W,
}

/// What reading the table again says about the unconfirmed tries.
pub(super) enum Verdict {
    /// This try's change was made.
    Made(usize),
    /// None was made (so far; a late one can only land on its own
    /// version, where a new try's compare-and-set meets it).
    NotMade,
    /// It cannot be told.
    CannotTell,
}

/// Judges unconfirmed tries against the table as stored now.
pub(super) fn settle<W>(
    stored: Option<&Stored>,
    unconfirmed: &[UnconfirmedCommit<W>],
    idempotence: &Idempotence,
) -> Result<Verdict, ServiceError> {
    let version = stored.map_or(0, |s| s.version);
    // a compare-and-set lands only on the version after the one it read
    if let Some(s) = stored
        && let Some(i) = unconfirmed.iter().rposition(|u| s.version == u.expected + 1 && s.json == u.json)
    {
        return Ok(Verdict::Made(i));
    }
    match idempotence {
        Idempotence::ByDeliveryId(id) => match stored {
            Some(s) if crate::table::stored_knows_delivery(&s.json, id)? => {
                // handled since: by a try of ours (the newest that could
                // have landed answers) or a twin delivery elsewhere
                let i = unconfirmed.iter().rposition(|u| u.expected < version).unwrap_or(unconfirmed.len() - 1);
                Ok(Verdict::Made(i))
            }
            _ => Ok(Verdict::NotMade),
        },
        Idempotence::SafeToRepeat => Ok(Verdict::NotMade),
        Idempotence::NotIdempotent => {
            // a try's version was overwritten: its change may be under it
            if unconfirmed.iter().any(|u| version > u.expected + 1) {
                Ok(Verdict::CannotTell)
            } else {
                Ok(Verdict::NotMade)
            }
        }
    }
}
