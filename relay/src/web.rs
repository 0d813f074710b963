//! The HTTP side: the page, the spectator WebSockets, the match list, downloads, metrics.
//!
//! URL scheme (README, "URLs"):
//! - `/` the page (one match: that match; several: the lobby), `/m/NAME` the page for a match
//! - `/ws` the first match's WebSocket, `/m/NAME/ws` any match's
//! - `/m/NAME/match.rcg` the match so far as a ULG6 log
//! - `/m/NAME/control`: `POST` an operator's command, `GET` whether the token is right
//!   ([`crate::control`])
//! - `/api/matches` JSON, `/metrics` Prometheus text, `/healthz`
//! - anything else: the built web app (`dist/`), compressed, trunk's hashed files cached
//!   for a year.

use crate::hub::Hub;
use crate::recorder::LogWriter;
use crate::spectator::{self, CLOSE_FULL};
use crate::MatchHandle;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::fmt::Write as _;
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::watch;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

pub struct Shared {
    pub matches: Vec<MatchHandle>,
    pub max_spectators: usize,
    pub spectator: spectator::Options,
    /// Turns true when the relay shuts down: spectators are told goodbye.
    pub stop: watch::Receiver<bool>,
    pub spectators: AtomicUsize,
    pub refused: AtomicU64,
    /// The operator's token and the failed attempts to give it.
    pub gate: crate::control::Gate,
}

impl Shared {
    fn find(&self, name: &str) -> Option<&MatchHandle> {
        self.matches.iter().find(|m| m.hub.name == name)
    }
}

pub type AppState = Arc<Shared>;

/// The whole HTTP application; `dist` is the directory `trunk build` wrote.
pub fn app(state: AppState, dist: PathBuf) -> Router {
    let index = dist.join("index.html");
    let page_ok = index.is_file();
    if !page_ok {
        tracing::warn!(
            "no web app in {} (run scripts/run.sh, which builds it); serving a notice instead",
            dist.display()
        );
    }
    let index_for_match = index.clone();
    let router = Router::new()
        .route("/ws", get(first_ws))
        .route("/m/{name}/ws", get(match_ws))
        .route("/m/{name}/match.rcg", get(download))
        .route(
            "/m/{name}/control",
            get(control_status).post(control_command),
        )
        .route(
            "/m/{name}",
            get(move |s: State<AppState>, p: Path<String>, req: Request| {
                page_for_match(s, p, req, index_for_match.clone(), page_ok)
            }),
        )
        .route("/api/matches", get(matches))
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { "ok" }))
        .with_state(state);
    let router = if page_ok {
        router.fallback_service(ServeDir::new(&dist).fallback(ServeFile::new(index)))
    } else {
        router.fallback(|| async { Html(NOT_BUILT) })
    };
    router
        .layer(axum::middleware::from_fn(cache_headers))
        .layer(CompressionLayer::new())
}

const NOT_BUILT: &str = "<h1>pitchside</h1><p>The web app is not built. Run <code>scripts/run.sh</code>, which builds it with trunk and starts the relay.</p>";

/// True for trunk's content-hashed file names (`web-0123456789abcdef_bg.wasm`,
/// `style-0123456789abcdef.css`): their content never changes under that name.
fn is_hashed(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or("");
    let stem = file.split('.').next().unwrap_or("");
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    match stem.rsplit_once('-') {
        Some((_, hash)) => hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        None => false,
    }
}

async fn cache_headers(req: Request, next: axum::middleware::Next) -> Response {
    let path = req.uri().path().to_owned();
    let mut res = next.run(req).await;
    if !res.status().is_success() {
        return res;
    }
    let value = if is_hashed(&path) {
        "public, max-age=31536000, immutable"
    } else {
        // The page, the API and downloads must always be fresh.
        "no-cache"
    };
    res.headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static(value));
    res
}

async fn page_for_match(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
    index: PathBuf,
    page_ok: bool,
) -> Response {
    if app.find(&name).is_none() {
        return (
            StatusCode::NOT_FOUND,
            Html(format!(
                "<h1>No match called {}</h1><p><a href=\"/\">All matches</a></p>",
                html_escape(&name)
            )),
        )
            .into_response();
    }
    if !page_ok {
        return Html(NOT_BUILT).into_response();
    }
    use tower::ServiceExt;
    match ServeFile::new(index).oneshot(req).await {
        Ok(r) => r.map(Body::new),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

async fn first_ws(State(app): State<AppState>, req: Request) -> Response {
    match app.matches.first() {
        Some(m) => {
            let hub = m.hub.clone();
            spectate(app, hub, req)
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn match_ws(State(app): State<AppState>, Path(name): Path<String>, req: Request) -> Response {
    match app.find(&name) {
        Some(m) => {
            let hub = m.hub.clone();
            spectate(app, hub, req)
        }
        None => (StatusCode::NOT_FOUND, format!("no match called {name}")).into_response(),
    }
}

/// Decrements the spectator counts when a spectator's task ends, however it ends.
struct Count(AppState, Arc<Hub>);

impl Drop for Count {
    fn drop(&mut self) {
        self.0.spectators.fetch_sub(1, Ordering::Relaxed);
        self.1.stats.spectators.fetch_sub(1, Ordering::Relaxed);
    }
}

fn spectate(app: AppState, hub: Arc<Hub>, req: Request) -> Response {
    let before = app.spectators.fetch_add(1, Ordering::Relaxed);
    if before >= app.max_spectators {
        app.spectators.fetch_sub(1, Ordering::Relaxed);
        app.refused.fetch_add(1, Ordering::Relaxed);
        let reason = format!(
            "the relay is full ({} spectators); try again later",
            app.max_spectators
        );
        return upgrade(req, move |ws| async move {
            spectator::refuse(ws, CLOSE_FULL, &reason).await
        });
    }
    hub.stats.spectators.fetch_add(1, Ordering::Relaxed);
    let count = Count(app.clone(), hub.clone());
    let opts = app.spectator.clone();
    let stop = app.stop.clone();
    upgrade(req, move |ws| async move {
        let _count = count;
        spectator::serve(ws, hub, opts, stop).await;
    })
}

fn header_has(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|v| {
        v.to_str().is_ok_and(|s| {
            s.split(',')
                .any(|part| part.trim().eq_ignore_ascii_case(token))
        })
    })
}

/// The WebSocket handshake (RFC 6455, HTTP/1.1); `serve` runs on the upgraded connection.
fn upgrade<F, Fut>(mut req: Request, serve: F) -> Response
where
    F: FnOnce(spectator::Socket) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let headers = req.headers();
    let key = match headers.get(header::SEC_WEBSOCKET_KEY) {
        Some(k)
            if header_has(headers, header::CONNECTION, "upgrade")
                && header_has(headers, header::UPGRADE, "websocket")
                && headers
                    .get(header::SEC_WEBSOCKET_VERSION)
                    .is_some_and(|v| v == "13") =>
        {
            k.clone()
        }
        _ => {
            return (
                StatusCode::BAD_REQUEST,
                "this is a WebSocket endpoint: open the page instead",
            )
                .into_response()
        }
    };
    let Some(on_upgrade) = req.extensions_mut().remove::<hyper::upgrade::OnUpgrade>() else {
        return (StatusCode::BAD_REQUEST, "connection cannot be upgraded").into_response();
    };
    tokio::spawn(async move {
        match on_upgrade.await {
            Ok(upgraded) => serve(spectator::accept(upgraded).await).await,
            Err(e) => tracing::debug!("a WebSocket upgrade failed: {e}"),
        }
    });
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
    let mut res = Response::new(Body::empty());
    *res.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = res.headers_mut();
    h.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    if let Ok(v) = HeaderValue::from_str(&accept) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
    }
    res
}

// ---- Refereeing ----

/// Longest command body read: a command is a few dozen bytes.
const MAX_CONTROL_BODY: usize = 4096;

/// The client's address as the connection gave it (a reverse proxy in front makes every
/// client its address: failed attempts then count together).
fn client_ip(req: &Request) -> std::net::IpAddr {
    req.extensions()
        .get::<axum::extract::ConnectInfo<crate::ClientAddr>>()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |c| c.0 .0.ip())
}

fn control_reply(status: u16, body: serde_json::Value, retry_after: Option<u64>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut res = (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response();
    if let Some(s) = retry_after {
        if let Ok(v) = HeaderValue::from_str(&s.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
    }
    res
}

fn refusal(r: &crate::control::Refusal) -> Response {
    control_reply(
        r.status(),
        serde_json::json!({ "error": r.to_string() }),
        r.retry_after(),
    )
}

/// Checks the token of a request to `/m/NAME/control`: the match, or the refusal to send.
fn authorised<'a>(
    app: &'a Shared,
    name: &str,
    req: &Request,
) -> Result<&'a MatchHandle, crate::control::Refusal> {
    let auth = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    app.gate
        .check(client_ip(req), auth, std::time::Instant::now())?;
    app.find(name)
        .ok_or_else(|| crate::control::Refusal::UnknownMatch(name.to_owned()))
}

/// `GET /m/NAME/control`: 200 with what the operator may do (the page shows its panel only
/// then), 401 for no or a wrong token.
async fn control_status(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    let m = match authorised(&app, &name, &req) {
        Ok(m) => m,
        Err(r) => return refusal(&r),
    };
    let view = m.hub.control_view();
    let kickoff = view
        .now
        .is_none_or(|(t, mode)| pitchside_shared::command::kick_off_acts(t, mode, &view.params));
    control_reply(
        200,
        serde_json::json!({
            "match": name,
            "live": m.kind == "live",
            "coach": view.coach,
            "kickoff": kickoff,
        }),
        None,
    )
}

/// `POST /m/NAME/control`: one operator command ([`crate::control::handle`]).
async fn control_command(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    let m = match authorised(&app, &name, &req) {
        Ok(m) => m,
        Err(r) => return refusal(&r),
    };
    let client = client_ip(&req).to_string();
    let body = match axum::body::to_bytes(req.into_body(), MAX_CONTROL_BODY).await {
        Ok(b) => b,
        Err(_) => {
            return refusal(&crate::control::Refusal::Malformed(format!(
                "the body is longer than {MAX_CONTROL_BODY} bytes"
            )))
        }
    };
    match crate::control::handle(m, true, &body, &client).await {
        Ok(sent) => control_reply(200, serde_json::to_value(&sent).unwrap_or_default(), None),
        Err(r) => refusal(&r),
    }
}

async fn matches(State(app): State<AppState>) -> Response {
    let list: Vec<_> = app
        .matches
        .iter()
        .map(|m| {
            let mut s = serde_json::to_value(m.hub.summary()).unwrap_or_default();
            if let Some(o) = s.as_object_mut() {
                // `source` says what feeds the match now; `kind` what was configured.
                o.insert("kind".into(), m.kind.into());
                o.insert("url".into(), format!("/m/{}", m.hub.name).into());
            }
            s
        })
        .collect();
    let body = serde_json::to_string(&list).unwrap_or_else(|_| "[]".into());
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn download(State(app): State<AppState>, Path(name): Path<String>) -> Response {
    let Some(m) = app.find(&name) else {
        return (StatusCode::NOT_FOUND, format!("no match called {name}")).into_response();
    };
    let packets = m.hub.history_packets();
    let started = m.hub.started().unwrap_or_else(chrono::Local::now);
    let built = tokio::task::spawn_blocking(move || {
        let records = pitchside_shared::wire::decode_records(packets.iter().map(|b| &b[..]))?;
        let mut w = LogWriter::new(started);
        for r in &records {
            w.record(r);
        }
        Ok::<_, pitchside_shared::wire::WireError>((w.take(), w.file_name()))
    })
    .await;
    match built {
        Ok(Ok((bytes, file))) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/octet-stream"),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    HeaderValue::from_str(&format!("attachment; filename=\"{file}\""))
                        .unwrap_or(HeaderValue::from_static("attachment")),
                ),
            ],
            bytes,
        )
            .into_response(),
        Ok(Err(e)) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

async fn metrics(State(app): State<AppState>) -> Response {
    let mut out = String::new();
    let mut metric = |name: &str, kind: &str, help: &str, values: Vec<(Option<&str>, f64)>| {
        let _ = writeln!(out, "# HELP pitchside_{name} {help}");
        let _ = writeln!(out, "# TYPE pitchside_{name} {kind}");
        for (m, v) in values {
            match m {
                Some(m) => {
                    let _ = writeln!(out, "pitchside_{name}{{match=\"{m}\"}} {v}");
                }
                None => {
                    let _ = writeln!(out, "pitchside_{name} {v}");
                }
            }
        }
    };
    let per = |f: &dyn Fn(&Hub) -> f64| -> Vec<(Option<&str>, f64)> {
        app.matches
            .iter()
            .map(|m| (Some(m.hub.name.as_str()), f(&m.hub)))
            .collect()
    };
    let load = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64;
    metric(
        "spectators_connected",
        "gauge",
        "Spectators connected to the relay.",
        vec![(None, app.spectators.load(Ordering::Relaxed) as f64)],
    );
    metric(
        "refused_total",
        "counter",
        "Spectators refused because the relay was full.",
        vec![(None, app.refused.load(Ordering::Relaxed) as f64)],
    );
    metric(
        "spectators",
        "gauge",
        "Spectators connected, per match.",
        per(&|h| h.stats.spectators.load(Ordering::Relaxed) as f64),
    );
    metric(
        "joins_total",
        "counter",
        "Spectator connections accepted.",
        per(&|h| load(&h.stats.joins)),
    );
    metric(
        "datagrams_in_total",
        "counter",
        "UDP datagrams received from rcssserver.",
        per(&|h| load(&h.stats.datagrams_in)),
    );
    metric(
        "datagrams_ignored_total",
        "counter",
        "UDP datagrams ignored (not from the server, or malformed).",
        per(&|h| load(&h.stats.ignored_in)),
    );
    metric(
        "frames_in_total",
        "counter",
        "Frames received (from the server or the replayed log).",
        per(&|h| load(&h.stats.frames_in)),
    );
    metric(
        "frames_out_total",
        "counter",
        "Live frames sent, summed over spectators.",
        per(&|h| load(&h.stats.frames_out)),
    );
    metric(
        "bytes_out_total",
        "counter",
        "WebSocket payload bytes sent, summed over spectators.",
        per(&|h| load(&h.stats.bytes_out)),
    );
    metric(
        "lag_skips_total",
        "counter",
        "Times a lagging spectator was moved ahead.",
        per(&|h| load(&h.stats.lag_skips)),
    );
    metric(
        "skipped_frames_total",
        "counter",
        "Frames not sent to lagging spectators.",
        per(&|h| load(&h.stats.skipped_frames)),
    );
    metric(
        "closed_slow_total",
        "counter",
        "Spectators closed for stalling or falling too far behind.",
        per(&|h| load(&h.stats.closed_slow)),
    );
    metric(
        "history_bytes",
        "gauge",
        "Memory held by the match history.",
        per(&|h| h.history_memory().0 as f64),
    );
    metric(
        "history_frames",
        "gauge",
        "Frames in the match history.",
        per(&|h| h.summary().frames as f64),
    );
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], out).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_hashed_names_are_recognised() {
        assert!(is_hashed("/web-0123456789abcdef.js"));
        assert!(is_hashed("/web-0123456789abcdef_bg.wasm"));
        assert!(is_hashed("/style-fedcba9876543210.css"));
        assert!(!is_hashed("/index.html"));
        assert!(!is_hashed("/"));
        assert!(!is_hashed("/favicon.svg"));
        assert!(!is_hashed("/m/field-1"));
    }
}
