//! The gate commands pass to be applied: it counts the commands in
//! progress, so that a graceful shutdown can close it and wait until the
//! last one has ended.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::sync::Notify;

/// Whether commands are let in, and how many are being applied now.
#[derive(Default)]
pub(super) struct Gate {
    /// Shutting down: new commands are answered, not applied.
    closing: AtomicBool,
    /// Commands being applied now.
    in_flight: AtomicUsize,
    /// Told when the last command in progress ends.
    idle: Notify,
}

/// A command in progress, counted while it lives.
pub(super) struct InFlight<'a> {
    gate: &'a Gate,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if self.gate.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.gate.idle.notify_waiters();
        }
    }
}

impl Gate {
    /// Lets no command in from now on.
    pub(super) fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
    }

    /// Whether [`close`](Self::close) was called.
    pub(super) fn is_closing(&self) -> bool {
        self.closing.load(Ordering::SeqCst)
    }

    /// Waits until no command is in progress.
    pub(super) async fn drain(&self) {
        loop {
            let idle = self.idle.notified();
            if self.in_flight.load(Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }

    /// Counts a command in progress, or `None` when closing (then it is
    /// not to be applied).
    pub(super) fn enter(&self) -> Option<InFlight<'_>> {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let in_flight = InFlight { gate: self };
        (!self.is_closing()).then_some(in_flight)
    }
}
