//! The log: `DOKO_LOG`'s directives as text or JSON lines on standard
//! error, never with the wire-level DEBUG and TRACE of the network crates
//! (they would put cards and tokens in the log).

use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::config;

/// Starts logging for the process: `DOKO_LOG`'s directives (see
/// [`log_filter`]), as JSON lines with `json` or `DOKO_LOG_FORMAT=json`,
/// else as text; the settings are logged first.
pub fn init(json: bool, set: &config::Settings) {
    let directives = set.get("DOKO_LOG").unwrap_or_default();
    let json = json || set.get("DOKO_LOG_FORMAT").as_deref() == Some("json");
    let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let layer = if json { layer.json().boxed() } else { layer.boxed() };
    tracing_subscriber::registry().with(layer.with_filter(log_filter(&directives))).init();
    tracing::info!(settings = ?set, "configuration");
}

/// The crates whose DEBUG and TRACE events carry what goes over the wire:
/// request and response bodies, gateway and sync payloads, Redis commands
/// (hands in ephemeral messages, card buttons' ids, tokens in headers and
/// logins). A target is theirs when its first segment is one of these or
/// starts with `matrix_sdk` or `ruma`.
const WIRE_CRATES: &[&str] = &[
    "serenity",
    "matrix_sdk",
    "ruma",
    "hyper",
    "hyper_util",
    "reqwest",
    "h2",
    "tungstenite",
    "tokio_tungstenite",
    "async_tungstenite",
    "redis",
    "rustls",
    "tower",
    "tower_http",
    "eyeball",
];

/// Whether an event of `target` at `level` may be logged at all: at most
/// INFO for [`WIRE_CRATES`], whatever `DOKO_LOG` says.
fn wire_capped(target: &str, level: &tracing::Level) -> bool {
    let krate = target.split("::").next().unwrap_or(target);
    let wire = WIRE_CRATES.contains(&krate) || krate.starts_with("matrix_sdk") || krate.starts_with("ruma");
    wire && *level > tracing::Level::INFO
}

/// The log filter: the directives of `DOKO_LOG` (as
/// `tracing_subscriber::EnvFilter` reads them; empty: errors only), and
/// always at most INFO from [`WIRE_CRATES`], even where `DOKO_LOG` names
/// them (`DOKO_LOG=serenity=trace` gives serenity's INFO and above): their
/// DEBUG and TRACE would put cards and tokens in the log.
fn log_filter<S>(directives: &str) -> impl tracing_subscriber::layer::Filter<S> + use<S>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    use tracing_subscriber::filter::FilterExt;
    let user = tracing_subscriber::EnvFilter::builder().parse_lossy(quiet_sdk(directives));
    user.and(tracing_subscriber::filter::filter_fn(|meta| !wire_capped(meta.target(), meta.level())))
}

/// `DOKO_LOG`'s directives with the Matrix SDK at sensible levels unless
/// they name it: its WARN and ERROR (at most WARN: its INFO is its own
/// bookkeeping), except targets that log what the SDK or the bot handles
/// itself: `matrix_sdk::http_client` logs every refused request at ERROR
/// (a 404 for the account data it probes, which the bot reports again with
/// its own context where it matters: "sync failed", "sending failed"),
/// `matrix_sdk::sync` an event for a room it has not stored (one the bot
/// left), and `matrix_sdk_base::room::room_info` warns when a room's
/// version is not known yet (an invitation before its create event; it
/// goes on with the current rules) - ERROR only there.
/// `DOKO_LOG=matrix_sdk=debug` (or any directive naming `matrix_sdk`) sets
/// them as it says. Empty: errors only, as before.
fn quiet_sdk(directives: &str) -> String {
    let d = directives.trim();
    if d.contains("matrix_sdk") {
        return d.to_string();
    }
    // a directive's target matches every target it begins: matrix_sdk_base,
    // matrix_sdk_crypto, ... too
    let (d, sdk) = match d {
        "" | "error" => ("error", "error"),
        _ => (d, "warn"),
    };
    format!(
        "{d},matrix_sdk={sdk},matrix_sdk::http_client=off,matrix_sdk::sync=off,matrix_sdk_base::room::room_info=error"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What reaches the log under `directives` from one event at each
    /// level of each target: `target LEVEL` lines.
    fn logged(directives: &str) -> Vec<String> {
        let buf = Captured::default();
        let w = buf.clone();
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .without_time()
            .with_target(false)
            .with_level(false)
            .with_writer(move || w.clone())
            .with_filter(log_filter(directives));
        tracing::subscriber::with_default(tracing_subscriber::registry().with(layer), || {
            macro_rules! each_level {
                ($t:literal) => {
                    tracing::trace!(target: $t, "{} TRACE", $t);
                    tracing::debug!(target: $t, "{} DEBUG", $t);
                    tracing::info!(target: $t, "{} INFO", $t);
                    tracing::warn!(target: $t, "{} WARN", $t);
                };
            }
            each_level!("doko_bot::service");
            each_level!("serenity::http::client");
            each_level!("serenity");
            each_level!("matrix_sdk_crypto::machine");
            each_level!("matrix_sdk::http_client");
            each_level!("matrix_sdk::sync");
            each_level!("matrix_sdk_base::room::room_info");
            each_level!("hyper_util::client");
            each_level!("redis::aio");
            each_level!("h2::codec");
            each_level!("tungstenite::protocol");
            each_level!("reqwest::connect");
            each_level!("serenity_like_but_not");
        });
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text.lines().map(|l| l.trim().to_string()).collect()
    }

    #[test]
    fn wire_crates_log_at_most_info_whatever_doko_log_says() {
        let wire = [
            "serenity::http::client",
            "serenity",
            "matrix_sdk_crypto::machine",
            "hyper_util::client",
            "redis::aio",
            "h2::codec",
            "tungstenite::protocol",
            "reqwest::connect",
        ];
        for directives in [
            "trace",
            "debug",
            "trace,serenity=trace",
            "serenity::http=trace,matrix_sdk_crypto=trace,hyper_util=trace,redis=trace,h2=trace",
            "info,tungstenite::protocol=trace,reqwest[connect]=trace,[{x}]=trace",
        ] {
            let lines = logged(directives);
            for t in wire {
                assert!(
                    !lines.iter().any(|l| l == &format!("{t} DEBUG") || l == &format!("{t} TRACE")),
                    "{directives}: {t}: {lines:?}"
                );
            }
            // their INFO and WARN still come through where asked for
            assert!(lines.contains(&"serenity::http::client INFO".to_string()), "{directives}: {lines:?}");
            assert!(lines.contains(&"redis::aio WARN".to_string()), "{directives}: {lines:?}");
        }
        // everything else as DOKO_LOG says
        let lines = logged("trace");
        assert!(lines.contains(&"doko_bot::service TRACE".to_string()), "{lines:?}");
        assert!(lines.contains(&"serenity_like_but_not TRACE".to_string()), "{lines:?}");
        let lines = logged("doko_bot=debug");
        assert!(lines.contains(&"doko_bot::service DEBUG".to_string()), "{lines:?}");
        assert!(!lines.contains(&"doko_bot::service TRACE".to_string()), "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("serenity")), "{lines:?}");
        // unset: errors only, as before
        assert!(logged("").is_empty());
        // the Matrix SDK at most at WARN where DOKO_LOG does not name it,
        // and nothing from its request and sync targets
        assert!(!logged("").iter().any(|l| l.starts_with("matrix_sdk")), "{:?}", logged(""));
        for d in ["info", "trace", "warn,doko_bot=debug"] {
            let lines = logged(d);
            assert!(lines.contains(&"matrix_sdk_crypto::machine WARN".to_string()), "{d}: {lines:?}");
            assert!(!lines.contains(&"matrix_sdk_crypto::machine INFO".to_string()), "{d}: {lines:?}");
            assert!(
                !lines.iter().any(|l| l.starts_with("matrix_sdk::http_client")
                    || l.starts_with("matrix_sdk::sync")
                    || l.starts_with("matrix_sdk_base::room::room_info")),
                "{d}: {lines:?}"
            );
        }
        let lines = logged("info,matrix_sdk_crypto=info");
        assert!(lines.contains(&"matrix_sdk_crypto::machine INFO".to_string()), "{lines:?}");
        assert!(!lines.contains(&"matrix_sdk_crypto::machine DEBUG".to_string()), "{lines:?}");
    }
}
