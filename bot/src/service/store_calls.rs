//! Every store call the service makes goes through [`Service::timed`]: it
//! is given a deadline, counted in the metrics, and its outcome kept as the
//! store's health.

use std::future::Future;
use std::time::Duration;

use super::Service;
use super::error::ServiceError;
use super::health::StoreHealth;
use crate::store::{Store, StoreError};

/// How long the service waits for one store call (a load or a commit):
/// 3 s, longer than Redis's own response timeout
/// ([`crate::store::REDIS_RESPONSE_TIMEOUT`], so Redis reports its error
/// first) and far longer than a durable commit of the embedded store. A
/// commit that took longer may still land: its outcome is unclear, and the
/// service reads the table again to find out (see [`Service::transact`]).
pub const STORE_TIMEOUT: Duration = Duration::from_secs(3);

impl<S: Store> Service<S> {
    /// What the service knows of its store now.
    pub fn store_health(&self) -> StoreHealth {
        self.health.lock().expect("health lock").clone()
    }

    /// Asks the store one cheap question (its format) and returns what is
    /// known of it then: the background check a platform runs every few
    /// seconds, so an outage is noticed (and logged once) also when nobody
    /// plays.
    pub async fn check_store(&self) -> StoreHealth {
        let _ = self.timed(self.store.format_version()).await;
        self.store_health()
    }

    /// A store call, given at most [`STORE_TIMEOUT`].
    pub(super) async fn timed<T>(&self, call: impl Future<Output = Result<T, StoreError>>) -> Result<T, ServiceError> {
        let started = std::time::Instant::now();
        let r = match tokio::time::timeout(STORE_TIMEOUT, call).await {
            Ok(r) => r.map_err(ServiceError::from),
            Err(_) => Err(ServiceError::Timeout),
        };
        crate::metrics::store_call(started.elapsed().as_secs_f64(), r.is_ok());
        let now = self.now_ms();
        self.health.lock().expect("health lock").note(now, r.as_ref().err().map(|e| e.to_string()));
        r
    }
}
