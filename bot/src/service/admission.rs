//! Whether a command is let in: the rate limits per person and channel,
//! and the graceful shutdown that answers new commands without applying
//! them while the ones in progress finish.

use super::Service;
use super::error::ServiceError;
use super::replies::private;
use crate::ids::{Actor, ChannelId};
use crate::lang::Lang;
use crate::limits::Admit;
use crate::outbox::Outbox;
use crate::render::Kind;
use crate::store::Store;
use crate::tr;

impl<S: Store> Service<S> {
    /// Stops taking commands (a graceful shutdown): every command from now
    /// on is answered that the bot is restarting and is not applied; the
    /// ones in progress finish ([`Service::drain`] waits for them), and turn
    /// clocks stop.
    pub fn close(&self) {
        self.gate.close();
    }

    /// Whether [`Service::close`] was called.
    pub fn is_closing(&self) -> bool {
        self.gate.is_closing()
    }

    /// Waits until no command is in progress.
    pub async fn drain(&self) {
        self.gate.drain().await;
    }

    /// The rate limits: `None` when the command may go on, else the answer
    /// (a polite one once per burst, then an empty one: the person is
    /// still answered, with nothing, where a platform must answer).
    pub(super) async fn admit(&self, ch: &ChannelId, actor: &Actor) -> Result<Option<Outbox>, ServiceError> {
        let admit = self.limiter.admit(&self.limits, &actor.user.key(), &ch.key(), self.now_ms());
        let mut out = Outbox::new(ch.clone(), Lang::default());
        out.actor = Some(actor.user.clone());
        match admit {
            Admit::Yes => return Ok(None),
            Admit::Silent => {
                crate::metrics::command("any", "limited", 0.0);
                tracing::debug!(channel = %ch, user = %actor.user, "rate limited")
            }
            Admit::Tell => {
                crate::metrics::command("any", "limited", 0.0);
                tracing::info!(channel = %ch, user = %actor.user, "rate limited");
                let (t, _) = self.table(ch).await?;
                out.lang = t.lang();
                out.private.push(private(&t, &actor.user, Kind::Error, tr!(t.lang(), "rate-limited")));
            }
        }
        Ok(Some(out))
    }
}
