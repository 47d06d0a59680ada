//! A server's settings (the defaults its admins set for all its tables):
//! read and changed with the store's compare-and-set, kept a few seconds by
//! this process, and handed to each table of the server.

use std::sync::Arc;

use super::Service;
use super::backoff::Backoff;
use super::error::ServiceError;
use super::unconfirmed::Idempotence;
use crate::command::{Command, ServerCmd};
use crate::ids::{Actor, ChannelId, ServerId};
use crate::server::ServerSettings;
use crate::store::{Commit, Keep, Store};
use crate::table::{CommandError, Event, ServerLayer, Table};

impl<S: Store> Service<S> {
    /// How long a process takes a server's defaults it read as current
    /// (a change made elsewhere reaches a table at the latest after this,
    /// should the change's own delivery to the table have failed).
    const SERVER_FRESH_MS: u64 = 5_000;

    /// A server's stored settings and their version (0: none yet).
    pub(super) async fn server_settings(&self, sid: &ServerId) -> Result<(ServerSettings, u64), ServiceError> {
        match self.timed(self.store.load(&sid.channel())).await? {
            None => Ok((ServerSettings::new(sid), 0)),
            Some(s) => match serde_json::from_str::<ServerSettings>(&s.json) {
                Ok(settings) => Ok((settings, s.version)),
                Err(e) => {
                    // the channels go on with their own settings; the
                    // server's next change writes them anew
                    tracing::error!(server = %sid, error = %e, "a server's settings cannot be read: no server defaults");
                    Ok((ServerSettings::new(sid), s.version))
                }
            },
        }
    }

    /// Changes a server's settings with the store's compare-and-set
    /// (again on a conflict, within the usual budget): `change` says
    /// whether it changed anything. Returns them as stored and their
    /// version.
    async fn update_server(
        &self,
        sid: &ServerId,
        change: impl Fn(&mut ServerSettings) -> Result<bool, CommandError>,
    ) -> Result<(ServerSettings, u64), ServiceError> {
        let mut backoff = Backoff::new(self.next_u64());
        loop {
            let (mut settings, version) = self.server_settings(sid).await?;
            if !change(&mut settings).map_err(|e| ServiceError::Failed(e.to_string()))? {
                return Ok((settings, version));
            }
            settings.revision += 1;
            let json = serde_json::to_string(&settings)?;
            let keep = Keep { durable: true, records: 0 };
            match self.timed(self.store.commit_kept(&sid.channel(), version, &json, &[], keep)).await? {
                Commit::Done(v) => return Ok((settings, v)),
                Commit::Conflict if backoff.wait().await => continue,
                Commit::Conflict => return Err(ServiceError::Contention),
            }
        }
    }

    /// Adds a channel to its server (once) and returns the server's
    /// defaults for its table.
    pub(super) async fn join_server(&self, ch: &ChannelId, sid: &ServerId) -> Result<ServerLayer, ServiceError> {
        let key = ch.key();
        let (settings, _) = self
            .update_server(sid, |s| {
                let new = s.channels.insert(key.clone());
                if new {
                    tracing::info!(channel = %ch, server = %sid, "a channel joined its server");
                }
                Ok(new)
            })
            .await?;
        let layer = settings.layer_for(sid);
        self.cache_layer(sid, &layer);
        Ok(layer)
    }

    /// Remembers a server's defaults as read now.
    fn cache_layer(&self, sid: &ServerId, layer: &ServerLayer) {
        let mut c = self.servers.lock().expect("lock");
        if c.get(sid).is_none_or(|(_, l)| l.version <= layer.version) {
            c.insert(sid.clone(), (self.now_ms(), layer.clone()));
        }
    }

    /// A server's defaults, read at most [`Self::SERVER_FRESH_MS`] ago
    /// (read now otherwise; `None` when they cannot be read: the table
    /// keeps its copy).
    pub(super) async fn fresh_layer(&self, sid: &ServerId) -> Option<ServerLayer> {
        let now = self.now_ms();
        if let Some((at, l)) = self.servers.lock().expect("lock").get(sid)
            && now.saturating_sub(*at) < Self::SERVER_FRESH_MS
        {
            return Some(l.clone());
        }
        match self.server_settings(sid).await {
            Ok((settings, _)) => {
                let layer = settings.layer_for(sid);
                self.cache_layer(sid, &layer);
                Some(layer)
            }
            Err(e) => {
                tracing::warn!(server = %sid, error = %e, "reading a server's settings failed");
                None
            }
        }
    }

    /// A server admin's change of the server's defaults: made on the
    /// server's settings, then taken by each of its tables (a table busy
    /// or unreadable now takes it with a later command, see
    /// [`Self::fresh_layer`]). Returns this channel's table and the event
    /// that says how many took it.
    pub(super) async fn server_command(
        &self,
        ch: &ChannelId,
        actor: &Actor,
        sc: &ServerCmd,
    ) -> Result<(Table, Event), ServiceError> {
        let sid = actor.server.clone().ok_or_else(|| ServiceError::Failed(CommandError::NoServer.to_string()))?;
        let key = ch.key();
        let (settings, _) = self
            .update_server(&sid, |s| {
                crate::table::server_change(&mut s.layer, sc)?;
                s.channels.insert(key.clone());
                Ok(true)
            })
            .await?;
        let layer = settings.layer_for(&sid);
        self.cache_layer(&sid, &layer);
        let (took, here) = self.hand_layer(ch, &settings, &layer).await;
        let t = match here {
            // (a server command is rare: a copy of the table is no cost)
            Some(t) => Arc::unwrap_or_clone(t),
            None => self.table(ch).await?.0,
        };
        let event = Event::ServerChanged {
            name: actor.name.clone(),
            change: Command::Server(sc.clone()).to_string(),
            channels: took,
        };
        Ok((t, event))
    }

    /// Hands a server's new defaults to each of its tables: how many hold
    /// them now, and `ch`'s table as it took them.
    async fn hand_layer(
        &self,
        ch: &ChannelId,
        settings: &ServerSettings,
        layer: &ServerLayer,
    ) -> (usize, Option<Arc<Table>>) {
        let mut took = 0;
        let mut here: Option<Arc<Table>> = None;
        for other in settings.channel_ids() {
            let l = layer.clone();
            // (a channel linked to another table keeps the server's
            // defaults on its own, for when it is unlinked)
            let r = self
                .transact_key(&other, Idempotence::SafeToRepeat, move |t, _, _| {
                    // a channel whose table is gone is not made again, and
                    // one that moved to another server is that one's now
                    if t.revision() == 0 || t.server().is_some_and(|s| s.id != l.id) {
                        return (false, false);
                    }
                    let changed = t.set_server(l.clone());
                    // it holds this change now (or a later one)
                    (t.server().is_some_and(|s| s.id == l.id && s.version >= l.version), changed)
                })
                .await;
            match r {
                Ok((t, kept)) => {
                    took += usize::from(kept);
                    if &other == ch {
                        here = Some(t);
                    }
                }
                Err(e) => tracing::warn!(channel = %other, error = %e, "a table did not take the server's defaults"),
            }
        }
        (took, here)
    }
}
