//! The process's HTTP listener (`[metrics] listen`), served with axum:
//! `GET /metrics` in Prometheus's text format (the `metrics` facade the
//! service counts through, rendered by `metrics-exporter-prometheus`),
//! `GET /healthz` (the process serves; with what it knows of the store and
//! each front end) and `GET /readyz` (200 only while the store answers
//! and every front end is connected, else 503); with `[web] url` set, the
//! tables' web pages too ([`doko_bot::web`]), each client's requests
//! bounded (`[web] rate`).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use axum::routing::get;
use doko_bot::web::{Cache, Page};
use doko_bot::{AnyStore, Limits, Rate, Service};
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
    metrics::describe_counter!("doko_web_pages_total", "web pages served, by status");
    Ok(handle)
}

fn reply(status: StatusCode, kind: &'static str, body: String) -> Response {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
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

/// The web pages: the service that builds them and each client's bucket.
pub struct Web {
    service: Arc<Service<AnyStore>>,
    limits: Limits,
    limiter: doko_bot::limits::RateLimiter,
}

impl Web {
    /// The pages of `service`, at most `rate` requests per client (`None`:
    /// no bound).
    pub fn new(service: Arc<Service<AnyStore>>, rate: Option<Rate>) -> Web {
        Web { service, limits: Limits { user: rate, channel: None, records_kept: 0 }, limiter: Default::default() }
    }
}

/// The routes: the health checks and the metrics, and, with `web`, the
/// pages; every other request gets the one 404.
pub fn router(handle: PrometheusHandle, store_up: StoreUp, web: Option<Arc<Web>>) -> Router {
    let up = store_up.clone();
    let metrics = move || {
        let (handle, up) = (handle.clone(), up.clone());
        async move {
            doko_bot::metrics::active_tables();
            metrics::gauge!("doko_store_up").set(if up() { 1.0 } else { 0.0 });
            reply(StatusCode::OK, "text/plain; version=0.0.4", handle.render())
        }
    };
    let up = store_up.clone();
    let healthz = move || {
        let up = up.clone();
        async move { reply(StatusCode::OK, "application/json", report(up()).1) }
    };
    let readyz = move || {
        let up = store_up.clone();
        async move {
            let (ready, body) = report(up());
            reply(if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE }, "application/json", body)
        }
    };
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .fallback(move |ConnectInfo(peer): ConnectInfo<SocketAddr>, req: Request| {
            let web = web.clone();
            async move {
                match web {
                    Some(web) => page(&web, peer, req).await,
                    None => serve_page(Page::not_found(), &HeaderMap::new(), false),
                }
            }
        })
}

/// A web page asked for: GET or HEAD within the client's bound, else the
/// 404 every miss gets (or 429).
async fn page(web: &Web, peer: SocketAddr, req: Request) -> Response {
    let head = req.method() == Method::HEAD;
    if req.method() != Method::GET && !head {
        return serve_page(Page::not_found(), &HeaderMap::new(), false);
    }
    let client = client(peer, req.headers());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    if web.limiter.admit(&web.limits, &client.to_string(), "web", now) != doko_bot::limits::Admit::Yes {
        metrics::counter!("doko_web_pages_total", "status" => "429").increment(1);
        let mut r = reply(StatusCode::TOO_MANY_REQUESTS, "text/plain; charset=utf-8", "Too many requests\n".into());
        r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        return r;
    }
    // (the path only: a query changes nothing)
    let span = tracing::info_span!("web page");
    let p = tracing::Instrument::instrument(web.service.web_page(req.uri().path()), span).await;
    serve_page(p, req.headers(), head)
}

/// Who asks: the peer, or behind a reverse proxy on this machine or the
/// private network, the address the proxy saw (the last of
/// `X-Forwarded-For`, which the proxy appends).
fn client(peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    let ip = peer.ip().to_canonical();
    let proxied = match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private(),
        IpAddr::V6(v6) => v6.is_loopback() || (v6.segments()[0] & 0xfe00) == 0xfc00,
    };
    if !proxied {
        return ip;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<IpAddr>().ok())
        .next_back()
        .unwrap_or(ip)
}

/// The headers every page gets: no referrer leaves with the token, no
/// search engine keeps it, nothing but the page's own files runs or shows.
const CSP: &str = "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; \
                   form-action 'none'; frame-ancestors 'none'";

/// A page as the response: its caching, its validator (a list's page is
/// asked again each time and answered 304 when unchanged), the headers.
fn serve_page(p: Page, asked: &HeaderMap, head: bool) -> Response {
    metrics::counter!("doko_web_pages_total", "status" => p.status.to_string()).increment(1);
    let etag = (p.cache == Cache::Revalidate).then(|| format!("\"{:016x}\"", xxhash_rust::xxh3::xxh3_64(&p.body)));
    let unchanged = etag.as_deref().is_some_and(|e| {
        asked
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|x| x.trim() == e))
    });
    let body =
        if head || unchanged { Body::empty() } else { Body::from(axum::body::Bytes::from_owner(p.body.clone())) };
    let mut r = Response::new(body);
    *r.status_mut() = if unchanged {
        StatusCode::NOT_MODIFIED
    } else {
        StatusCode::from_u16(p.status).unwrap_or(StatusCode::NOT_FOUND)
    };
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(p.content_type));
    let cache = match p.cache {
        Cache::NoStore => "no-store",
        Cache::Revalidate => "no-cache",
        Cache::Private => "private, max-age=86400",
        Cache::Immutable => "public, max-age=31536000, immutable",
    };
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Some(e) = etag.and_then(|e| HeaderValue::from_str(&e).ok()) {
        h.insert(header::ETAG, e);
    }
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex, nofollow"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    r
}

/// Serves the listener until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, router: Router) {
    let addr: Option<SocketAddr> = listener.local_addr().ok();
    tracing::info!(listen = ?addr, "serving /metrics, /healthz, /readyz and any web pages");
    let app = router.into_make_service_with_connect_info::<SocketAddr>();
    if let Err(e) = axum::serve(listener, app).await {
        tracing::error!(error = %e, "the HTTP listener ended");
    }
}
