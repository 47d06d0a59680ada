//! What the tests on the faulty store share: the four people, the table as
//! stored, how an answer is read and who is to act.

use doko_bot::{Actor, ChannelId, Kind, Outbox, Platform, Store, Table, UserId};

use crate::store::Faulty;

/// The four people at the table, the first an admin.
pub(crate) fn people() -> Vec<Actor> {
    (1..=4).map(|i| Actor::new(UserId::new(Platform::TERMINAL, format!("p{i}")), format!("P{i}"), i == 1)).collect()
}

/// The table as stored, read past the faults.
pub(crate) async fn truth(store: &Faulty, ch: &ChannelId) -> Result<Table, String> {
    match store.inner.load(ch).await.map_err(|e| e.to_string())? {
        Some(s) => serde_json::from_str(&s.json).map_err(|e| format!("the table does not load: {e}")),
        None => Ok(Table::default()),
    }
}

/// Game actions taken by people (at a table of four people under the
/// abort policy nobody else acts): the table's moves less its deals.
pub(crate) fn actions(t: &Table) -> u64 {
    t.moves() - u64::from(t.epoch())
}

/// The short answer when the table cannot be reached.
pub(crate) fn unavailable(out: &Outbox) -> bool {
    out.private.iter().any(|p| p.kind == Kind::Error && p.text == doko_bot::render::unavailable())
}

/// What an answer says happened to a delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Applied now.
    Applied,
    /// Refused, with the refusal.
    Refused(String),
    /// Handled before (with the refusal it got, if refused).
    Duplicate(Option<String>),
}

/// What an answer says happened to its delivery.
pub(crate) fn classify(out: &Outbox) -> Answer {
    let err = out.private.iter().find(|p| p.kind == Kind::Error).map(|p| p.text.clone());
    match (out.duplicate, err) {
        (true, e) => Answer::Duplicate(e),
        (false, Some(e)) => Answer::Refused(e),
        (false, None) => Answer::Applied,
    }
}

/// Who must act at a table, as an index into `people`, and the seat's view.
pub(crate) fn to_act(t: &Table, ps: &[Actor]) -> Option<(usize, doko_engine::SeatView)> {
    let g = t.game().ok()??;
    let seat = g.mandatory_announcement().or(g.to_act())?;
    let ts = t.table_seat(seat)?;
    let who = ps.iter().position(|a| t.seat_of(&a.user) == Some(ts))?;
    Some((who, g.view(seat)))
}
