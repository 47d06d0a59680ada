//! The work a table room's worker does: a command, the turn timer, or
//! what a command on another platform owes the room.

use doko_bot::Actor;
use matrix_sdk::Room;

use crate::inbox::Received;

/// One unit of work for a table's worker.
pub enum Job {
    /// A command from a person.
    Command {
        /// Who sent it.
        actor: Actor,
        /// Its text, without the prefix.
        text: String,
        /// Its event id.
        delivery: String,
        /// The direct room it came from (else the table's room).
        from_direct: Option<Box<Room>>,
        /// The command as written down on arrival (see [`Received`]).
        received: Box<Received>,
    },
    /// The turn timer.
    Tick,
    /// What a command on another platform owes this room (a table shared
    /// across platforms).
    Deliver(Box<doko_bot::Outbox>),
}
