//! The metrics and health listener (`[metrics] listen`): `GET /metrics` in
//! Prometheus's text format (the `metrics` facade the service counts
//! through, rendered by `metrics-exporter-prometheus`), `GET /healthz`
//! (the process serves; with what it knows of the store and each front
//! end) and `GET /readyz` (200 only while the store answers and every front
//! end is connected, else 503). Served with hyper, as the Discord
//! interactions endpoint is.

use std::net::SocketAddr;
use std::sync::Arc;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// What the health checks read: the store's state now.
pub type StoreUp = Arc<dyn Fn() -> bool + Send + Sync>;

/// Installs the Prometheus recorder (once per process).
pub fn install() -> anyhow::Result<PrometheusHandle> {
    let handle = PrometheusBuilder::new()
        .set_buckets(&[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0])?
        .install_recorder()?;
    // the series exist from the start (a scrape before the first command
    // shows them at 0)
    metrics::gauge!("doko_tables_active").set(0.0);
    metrics::describe_counter!("doko_commands_total", "commands by kind and outcome");
    metrics::describe_histogram!("doko_command_seconds", metrics::Unit::Seconds, "a command's time to its answer");
    metrics::describe_counter!("doko_deals_total", "deals filed, by outcome (scored, aborted)");
    metrics::describe_counter!("doko_errors_total", "failures by kind");
    metrics::describe_histogram!("doko_store_seconds", metrics::Unit::Seconds, "each store call's time");
    metrics::describe_gauge!("doko_tables_active", "tables served a command in the last 10 minutes");
    metrics::describe_gauge!("doko_adapter_connected", "1 while a front end is connected");
    metrics::describe_gauge!("doko_store_up", "1 while the store answers");
    Ok(handle)
}

fn reply(status: StatusCode, kind: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static(kind));
    r
}

/// The health report: `{"store": "up"|"down", "adapters": {...}}`, and
/// whether everything is up.
fn report(store_up: bool) -> (bool, String) {
    let adapters = doko_bot::metrics::adapters();
    let all = store_up && adapters.iter().all(|(_, up)| *up);
    let list: serde_json::Map<String, serde_json::Value> = adapters
        .iter()
        .map(|(p, up)| (p.to_string(), serde_json::Value::from(if *up { "connected" } else { "disconnected" })))
        .collect();
    let body = serde_json::json!({
        "status": if all { "ready" } else { "not ready" },
        "store": if store_up { "up" } else { "down" },
        "adapters": list,
    });
    (all, format!("{body}\n"))
}

async fn answer(req: Request<Incoming>, handle: PrometheusHandle, store_up: StoreUp) -> Response<Full<Bytes>> {
    if req.method() != hyper::Method::GET {
        return reply(StatusCode::METHOD_NOT_ALLOWED, "text/plain", "GET only\n".into());
    }
    let up = store_up();
    match req.uri().path() {
        "/metrics" => {
            doko_bot::metrics::active_tables();
            metrics::gauge!("doko_store_up").set(if up { 1.0 } else { 0.0 });
            reply(StatusCode::OK, "text/plain; version=0.0.4", handle.render())
        }
        "/healthz" => reply(StatusCode::OK, "application/json", report(up).1),
        "/readyz" => {
            let (ready, body) = report(up);
            let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
            reply(status, "application/json", body)
        }
        _ => reply(StatusCode::NOT_FOUND, "text/plain", "/metrics, /healthz, /readyz\n".into()),
    }
}

/// Serves the listener until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, handle: PrometheusHandle, store_up: StoreUp) {
    let addr: Option<SocketAddr> = listener.local_addr().ok();
    tracing::info!(listen = ?addr, "serving /metrics, /healthz and /readyz");
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let (handle, store_up) = (handle.clone(), store_up.clone());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let (h, s) = (handle.clone(), store_up.clone());
                async move { Ok::<_, std::convert::Infallible>(answer(req, h, s).await) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await {
                tracing::debug!(error = %e, "a metrics connection ended");
            }
        });
    }
}
