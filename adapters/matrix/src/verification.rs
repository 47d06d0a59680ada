//! The account's security, set up once so nobody has to act on it:
//! cross-signing (the bot's device verified by its own identity) and key
//! backup with a recovery key kept in the bot's data directory.

use matrix_sdk::Client;
use tracing::{Instrument, info_span};

use crate::session::write_private;
use crate::{Auth, MatrixConfig};

/// The file in the bot's data directory that holds its account's recovery
/// key (readable by the bot's user only).
pub const RECOVERY_KEY_FILE: &str = "recovery-key";

/// What a careful Matrix client sets up once for its account, so that
/// nobody has to act on it: cross-signing (the bot's device signed by the
/// bot's own identity: clients show its messages without the warning for a
/// device its owner has not verified) and key backup with recovery (the
/// keys of its rooms kept on the homeserver, encrypted; secret storage
/// holding the backup and cross-signing keys under a recovery key, written
/// to [`RECOVERY_KEY_FILE`]). A later start of the same device finds it all
/// set up; a new device (its stores lost) recovers the secrets with that
/// file. Only what an operator must act on is a WARN.
pub async fn secure(client: &Client, cfg: &MatrixConfig) -> Secured {
    use matrix_sdk::encryption::recovery::RecoveryState;
    let enc = client.encryption();
    enc.wait_for_e2ee_initialization_tasks().await;
    let path = cfg.data.join(RECOVERY_KEY_FILE);
    let key = std::fs::read_to_string(&path).ok().map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
    let recovery = enc.recovery();
    if recovery.state() == RecoveryState::Incomplete {
        // secret storage exists, this device lacks its secrets: a new device
        return match &key {
            Some(k) => match recovery.recover(k).await {
                Ok(()) => {
                    tracing::info!("recovered the account's secrets with the recovery key");
                    Secured::SignAfterUpload
                }
                Err(e) => {
                    tracing::warn!(error = %e, file = %path.display(),
                        "the recovery key does not open the account's secret storage: this device stays \
                         unverified and its room keys are not backed up");
                    Secured::Done
                }
            },
            None => {
                tracing::warn!(file = %path.display(),
                    "the bot's account has secret storage but its recovery key is not in the file: this \
                     device stays unverified and its room keys are not backed up; put the recovery key there");
                Secured::Done
            }
        };
    }
    let status = enc.cross_signing_status().await;
    if !status.is_some_and(|s| s.has_master && s.has_self_signing && s.has_user_signing)
        && let Err(e) = cross_signing(client, cfg).await
    {
        tracing::warn!(error = %e, "could not set up cross-signing: clients will mark the bot's messages as sent by an unverified device");
        return Secured::Done;
    }
    match recovery.state() {
        RecoveryState::Enabled => tracing::info!("cross-signing and key backup are set up"),
        RecoveryState::Disabled => match recovery.enable().await {
            Ok(k) => match write_private(&path, &k) {
                Ok(()) => tracing::info!(file = %path.display(),
                    "set up cross-signing and key backup; the recovery key is in the file (keep a copy)"),
                Err(e) => tracing::warn!(error = %e, file = %path.display(),
                    "set up key backup but could not write its recovery key"),
            },
            Err(e) => tracing::warn!(error = %e, "could not set up key backup and recovery"),
        },
        other => tracing::debug!(state = ?other, "recovery left as it is"),
    }
    Secured::Done
}

/// What is left to do once the device keys are on the homeserver.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Secured {
    /// Nothing.
    Done,
    /// The device was recovered before its keys were uploaded (the first
    /// sync uploads them): its signature by the account's identity is
    /// uploaded again after that sync.
    SignAfterUpload,
}

impl Secured {
    /// After a sync (which uploads the device keys): what is left, done once.
    pub async fn after_sync(&mut self, client: &Client) {
        if std::mem::replace(self, Secured::Done) == Secured::SignAfterUpload {
            sign_own_device(client).instrument(info_span!("matrix_secure")).await;
        }
    }
}

/// Signs the bot's own device with the account's (recovered) self-signing
/// key, once its keys are on the homeserver.
async fn sign_own_device(client: &Client) {
    match client.encryption().get_own_device().await {
        Ok(Some(device)) => match device.verify().await {
            Ok(()) => tracing::info!("the bot's device is signed by its account's identity"),
            Err(e) => {
                tracing::warn!(error = %e, "could not sign the bot's device: clients will mark its messages as sent by an unverified device")
            }
        },
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "could not read the bot's own device"),
    }
}

/// Cross-signing for the bot's account (its device keys uploaded first):
/// the first upload needs no authentication on current homeservers, else
/// the password (a bot started with an access token cannot give it). No
/// key query before it: the device keys of a new device are not on the
/// homeserver yet. An identity made elsewhere without secret storage (so
/// without a way for this device to get its keys) is replaced.
async fn cross_signing(client: &Client, cfg: &MatrixConfig) -> Result<(), matrix_sdk::Error> {
    use matrix_sdk::ruma::api::client::uiaa;
    let enc = client.encryption();
    let Err(e) = enc.bootstrap_cross_signing(None).await else {
        return Ok(());
    };
    match (e.as_uiaa_response(), &cfg.auth) {
        (Some(info), Auth::Password(pw)) => {
            let id = uiaa::UserIdentifier::Matrix(uiaa::MatrixUserIdentifier::new(cfg.user.clone()));
            let mut password = uiaa::Password::new(id, pw.clone());
            password.session = info.session.clone();
            enc.bootstrap_cross_signing(Some(uiaa::AuthData::Password(password))).await
        }
        _ => Err(e),
    }
}
