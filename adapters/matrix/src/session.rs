//! Logging in: the client on its SQLite stores, the session stored in a
//! file only the bot's user can read and reused at later starts (the same
//! device and crypto keys).

use std::path::Path;

use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::{Client, SessionMeta, SessionTokens};

use crate::error::AdapterError;
use crate::{Auth, MatrixConfig};

fn session_error(path: &Path, why: impl std::fmt::Display) -> AdapterError {
    AdapterError::Session { path: path.display().to_string(), why: why.to_string() }
}

/// Builds the client on the SQLite stores and logs in once; later starts
/// reuse the stored session (and so the same device and crypto keys).
pub async fn login(cfg: &MatrixConfig) -> Result<Client, AdapterError> {
    let store = cfg.data.join("store");
    let session_file = cfg.data.join("session.json");
    // the session (an access token) and the crypto stores: the bot's user only
    doko_bot::create_private_dir(&cfg.data).map_err(|e| session_error(&cfg.data, e))?;
    make_private(&cfg.data).map_err(|e| session_error(&cfg.data, e))?;
    let stored = match std::fs::read_to_string(&session_file) {
        Ok(text) => Some(serde_json::from_str::<MatrixSession>(&text).map_err(|e| session_error(&session_file, e))?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(session_error(&session_file, e)),
    };
    if let Some(session) = stored {
        let client = build(cfg, &store).await?;
        client.restore_session(session).await?;
        match client.whoami().await {
            Ok(_) => {
                tracing::info!("restored the stored Matrix session");
                return Ok(client);
            }
            Err(e) if refused(&e) => {
                // logged out elsewhere: start over as a new device
                tracing::warn!("the stored Matrix session was refused; logging in again (a new device)");
                drop(client);
                std::fs::remove_file(&session_file).map_err(|e| session_error(&session_file, e))?;
            }
            Err(e) => {
                // the homeserver may be down: keep the session, sync retries
                tracing::warn!(error = %e, "could not check the stored session; going on with it");
                return Ok(client);
            }
        }
    }
    if store.exists() {
        // stores of a device we no longer have the session for
        std::fs::remove_dir_all(&store).map_err(|e| session_error(&store, e))?;
    }
    let client = build(cfg, &store).await?;
    match &cfg.auth {
        Auth::Password(pw) => {
            client.matrix_auth().login_username(&cfg.user, pw).initial_device_display_name("doko bot").send().await?;
        }
        Auth::Token { token, device } => {
            let session = MatrixSession {
                meta: SessionMeta { user_id: cfg.user.as_str().try_into()?, device_id: device.as_str().into() },
                tokens: SessionTokens { access_token: token.clone(), refresh_token: None },
            };
            client.restore_session(session).await?;
            // check the token before keeping it
            client.whoami().await?;
        }
    }
    let session = client.matrix_auth().session().ok_or(matrix_sdk::Error::AuthenticationRequired)?;
    let text = serde_json::to_string(&session).map_err(|e| session_error(&session_file, e))?;
    write_private(&session_file, &text).map_err(|e| session_error(&session_file, e))?;
    tracing::info!("logged in; session stored");
    Ok(client)
}

async fn build(cfg: &MatrixConfig, store: &Path) -> Result<Client, AdapterError> {
    doko_bot::create_private_dir(store).map_err(|e| session_error(store, e))?;
    let client = Client::builder()
        .homeserver_url(&cfg.homeserver)
        .sqlite_store(store, cfg.store_passphrase.as_deref())
        .build()
        .await?;
    make_private(store).map_err(|e| session_error(store, e))?;
    Ok(client)
}

/// Makes the bot's own directory readable by its user only (a directory
/// an earlier version created readable by others included).
fn make_private(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    let _ = dir;
    Ok(())
}

/// The homeserver does not know the access token (logged out, deleted).
fn refused(e: &matrix_sdk::HttpError) -> bool {
    use matrix_sdk::ruma::api::error::ErrorKind;
    matches!(e.client_api_error_kind(), Some(ErrorKind::UnknownToken { .. } | ErrorKind::MissingToken))
}

/// Writes a file only its owner can read (it holds the access token).
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}
