//! The HTTP side: the page, the spectator WebSockets, the match list, downloads, metrics.
//!
//! URL scheme (book, "URLs"):
//! - `/` the page (one match: that match; several: the lobby), `/m/NAME` the page for a match
//! - `/ws` the first match's WebSocket, `/m/NAME/ws` any match's
//! - `/m/NAME/embed` the embed view, `/m/NAME/broadcast` the broadcast view (the page)
//! - `/m/NAME/match.rcg` the match so far as a ULG6 log
//! - `/m/NAME/control`: `POST` an operator's command, `GET` whether the token is right
//!   ([`crate::control`])
//! - `/api/matches`, `/api/matches/NAME/broadcast`, `/api/matches/NAME/captions`,
//!   `/api/archive`, `/api/series`, `/api/tournaments[/NAME]` JSON,
//!   `/metrics` Prometheus text, `/healthz`
//! - anything else: the built web app (`dist/`), compressed, trunk's hashed files cached
//!   for a year.

use crate::hub::Hub;
use crate::recorder::LogWriter;
use crate::spectator::{self, CLOSE_FULL};
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::fmt::Write as _;
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

pub use crate::app::{control_answer, AppState, ControlAnswer, EdgeLink, Shared};

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
        .route("/m/{name}/agents", get(agents_poll))
        .route(
            "/m/{name}",
            get(move |s: State<AppState>, p: Path<String>, req: Request| {
                page_for_match(s, p, req, index_for_match.clone(), page_ok)
            }),
        )
        .route("/m/{name}/embed", {
            let index = index.clone();
            get(move |s: State<AppState>, p: Path<String>, req: Request| {
                page_for_match(s, p, req, index.clone(), page_ok)
            })
        })
        // The broadcast view is the page too. Like the full page it may not be framed by
        // another site (`frame-ancestors 'none'`, not the embed view's exception): a
        // streaming program's browser source loads it as a page of its own, not in a frame.
        .route("/m/{name}/broadcast", {
            let index = index.clone();
            get(move |s: State<AppState>, p: Path<String>, req: Request| {
                page_for_match(s, p, req, index.clone(), page_ok)
            })
        })
        .route("/api/matches", get(matches))
        .route("/api/matches/{name}/broadcast", get(broadcast))
        .route("/api/matches/{name}/captions", get(captions))
        .route("/api/archive", get(archive_list))
        .route("/api/series", get(series))
        .route("/api/runs", get(runs_list))
        .route("/api/runs/{name}/{action}", axum::routing::post(run_action))
        .route("/api/tournaments", get(tournaments))
        .route("/api/tournaments/{name}", get(tournament))
        .route("/archive/files/{*id}", get(archive_file))
        .route("/metrics", get(metrics))
        .route("/csp-report", axum::routing::post(csp_report))
        .route("/healthz", get(|| async { "ok" }));
    // An edge forwards operator commands to the origin, which checks the token.
    let router = if state.edge.is_some() {
        router.route("/m/{name}/control", get(edge_control).post(edge_control))
    } else {
        router.route(
            "/m/{name}/control",
            get(control_status).post(control_command),
        )
    };
    let policy = state.policy.clone();
    let router = router.with_state(state);
    let router = if page_ok {
        router.fallback_service(ServeDir::new(&dist).fallback(ServeFile::new(index)))
    } else {
        router.fallback(|| async { Html(NOT_BUILT) })
    };
    router
        .layer(axum::middleware::from_fn(cache_headers))
        .layer(axum::middleware::from_fn_with_state(
            policy,
            crate::headers::protect,
        ))
        .layer(CompressionLayer::new())
}

/// `GET /api/archive`: the archive's logs, searched, filtered, sorted and paged.
async fn archive_list(
    State(app): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<crate::archive::Query>,
) -> Response {
    if let Err(e) = q.check() {
        return (StatusCode::BAD_REQUEST, e).into_response();
    }
    let entries = app.archive.entries();
    json_reply(&crate::archive::answer(&entries, app.archive.pending(), &q))
}

/// `GET /api/series`: a team's series over the archive, or two compared.
async fn series(
    State(app): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<crate::series::SeriesQuery>,
) -> Response {
    if let Err(e) = q.check() {
        return (StatusCode::BAD_REQUEST, e).into_response();
    }
    let mut entries = app.archive.entries();
    // A folder `pitchside-play` is filling: how far its run is (`pitchside.play.v1`), and the
    // logs of the games its fields are playing now, which are no results yet (not invalid
    // games cut short).
    let mut run = None;
    if let Some(dir) = q.dir.as_deref() {
        if let Some(folder) = app.archive.folder(dir) {
            let file = folder.join(crate::play::status::FILE);
            run = tokio::fs::read(&file).await.ok().and_then(|bytes| {
                serde_json::from_slice::<pitchside_wire::run::Run>(&bytes)
                    .ok()
                    .filter(|r| r.format == pitchside_wire::run::RUN_FORMAT)
            });
        }
        let dir = dir.trim_end_matches('/');
        let playing: Vec<String> = run
            .iter()
            .filter(|r| r.running)
            .flat_map(|r| r.fields.iter().filter_map(|f| f.game.clone()))
            .flat_map(|g| [format!("{dir}/{g}.rcg.gz"), format!("{dir}/{g}.rcg")])
            .collect();
        if !playing.is_empty() {
            let kept = entries.iter().filter(|e| !playing.contains(&e.id)).cloned();
            entries = std::sync::Arc::new(kept.collect());
        }
    }
    let mut doc = crate::series::answer(&entries, app.archive.pending(), &q);
    if let (Some(run), Some(obj)) = (run, doc.as_object_mut()) {
        obj.insert("run".into(), serde_json::to_value(run).unwrap_or_default());
    }
    json_reply(&doc)
}

/// The relayed matches as `/api/matches` describes them.
fn summaries(app: &Shared) -> Vec<crate::hub::Summary> {
    app.matches.list().iter().map(|m| m.hub.summary()).collect()
}

fn json_reply(body: &serde_json::Value) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// `GET /api/tournaments`: the tournaments served, with their counts.
async fn tournaments(State(app): State<AppState>) -> Response {
    let entries = app.archive.entries();
    json_reply(&app.tournaments.list(&entries, &summaries(&app)))
}

/// `GET /api/tournaments/NAME`: one tournament's standings, fixtures and bracket.
async fn tournament(State(app): State<AppState>, Path(name): Path<String>) -> Response {
    let entries = app.archive.entries();
    match app
        .tournaments
        .answer(&name, &entries, &summaries(&app), app.archive.pending())
    {
        Some(doc) => json_reply(&doc),
        None => (
            StatusCode::NOT_FOUND,
            format!("no tournament called {name}"),
        )
            .into_response(),
    }
}

/// `GET /api/matches/NAME/broadcast`: what the broadcast view needs besides the match: its
/// delay, the kits, the tournament, the last result ([`crate::broadcast`]).
async fn broadcast(State(app): State<AppState>, Path(name): Path<String>) -> Response {
    let Some(m) = app.find(&name) else {
        return (StatusCode::NOT_FOUND, format!("no match called {name}")).into_response();
    };
    let summary = m.hub.summary();
    let context = app.broadcast.context_cached(
        &name,
        |n| app.find(n).is_some(),
        || {
            app.broadcast.context(
                &summary,
                &app.tournaments,
                &app.archive.entries(),
                &summaries(&app),
                app.archive.pending(),
            )
        },
    );
    json_reply(&app.broadcast.answer(&summary, &context))
}

/// What `/api/matches/NAME/captions` is asked; both optional.
#[derive(serde::Deserialize)]
struct CaptionsQuery {
    lang: Option<String>,
    since: Option<String>,
}

/// `GET /api/matches/NAME/captions?lang=en&since=CYCLE`: the match's captions after cycle
/// `since` (all without it), in `lang` (English without it), for a stream's own overlay.
async fn captions(
    State(app): State<AppState>,
    Path(name): Path<String>,
    axum::extract::Query(q): axum::extract::Query<CaptionsQuery>,
) -> Response {
    let Some(m) = app.find(&name) else {
        return (StatusCode::NOT_FOUND, format!("no match called {name}")).into_response();
    };
    let lang = match crate::broadcast::language(q.lang.as_deref().unwrap_or("en")) {
        Ok(l) => l,
        Err(e) => return (StatusCode::BAD_REQUEST, e).into_response(),
    };
    let since = match q.since.as_deref().map(str::parse::<u32>) {
        None => None,
        Some(Ok(c)) => Some(c),
        Some(Err(_)) => {
            return (
                StatusCode::BAD_REQUEST,
                "since is a cycle number: the last `cycle` the feed gave".to_owned(),
            )
                .into_response()
        }
    };
    let serving = |n: &str| app.find(n).is_some();
    match app.broadcast.captions(&m.hub, lang, &serving).await {
        Ok(c) => json_reply(&c.json(&name, lang, since)),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// `GET /archive/files/ID`: one listed log, with `Range` support (a page streams it, a
/// download resumes). Only ids the index lists are served.
async fn archive_file(
    State(app): State<AppState>,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    let Some(path) = app.archive.file(&id) else {
        return (StatusCode::NOT_FOUND, "no such log in the archive").into_response();
    };
    use tower::ServiceExt;
    match ServeFile::new(path).oneshot(req).await {
        Ok(r) => {
            let mut r = r.map(Body::new);
            // The bytes as stored: a .rcg.gz arrives gzipped, for the page to inflate.
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/octet-stream"),
            );
            // Never compressed on the way: ranges must count the file's own bytes.
            r.headers_mut().insert(
                header::CONTENT_ENCODING,
                axum::http::HeaderValue::from_static("identity"),
            );
            r
        }
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// `POST /csp-report`: a browser saying the page broke its Content-Security-Policy.
async fn csp_report(State(app): State<AppState>, req: Request) -> StatusCode {
    match axum::body::to_bytes(req.into_body(), crate::headers::MAX_REPORT).await {
        Ok(body) => {
            app.policy.report(&body);
            StatusCode::NO_CONTENT
        }
        Err(_) => StatusCode::PAYLOAD_TOO_LARGE,
    }
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
    // Archived logs keep their own names, which may look hashed: never cached as immutable.
    let value = if is_hashed(&path) && !path.starts_with("/archive/") {
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

/// `GET`/`POST /m/NAME/control` at an edge: carried to the origin, which checks the token
/// and decides ([`crate::nats::control`]); its answer is the response.
async fn edge_control(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    use crate::nats::control::{self, Method};
    let Some(edge) = &app.edge else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if app.find(&name).is_none() {
        return control_response(control::ControlReply::error(
            404,
            format!("no match called {name}"),
        ));
    }
    let (parts, body) = req.into_parts();
    let method = if parts.method == axum::http::Method::GET {
        Method::Get
    } else {
        Method::Post
    };
    let page = parts
        .extensions
        .get::<axum::extract::ConnectInfo<crate::ClientAddr>>()
        .map(|c| c.0 .0.ip());
    let text = |h: header::HeaderName| {
        parts
            .headers
            .get(h)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (authorization, content_type) = (text(header::AUTHORIZATION), text(header::CONTENT_TYPE));
    let body = match axum::body::to_bytes(body, control::MAX_BODY).await {
        Ok(b) => b,
        Err(_) => {
            return control_response(control::ControlReply::error(
                413,
                format!("the body is longer than {} bytes", control::MAX_BODY),
            ))
        }
    };
    let forwarded = control::ControlRequest {
        name,
        method,
        authorization,
        content_type,
        client: page,
        edge: format!("client {}", edge.client.server_info().client_id),
        body,
    };
    control_response(control::forward(&edge.client, forwarded).await)
}

fn control_response(reply: crate::nats::control::ControlReply) -> Response {
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::BAD_GATEWAY);
    let ct = HeaderValue::from_str(&reply.content_type)
        .unwrap_or(HeaderValue::from_static("text/plain"));
    let mut res = (status, [(header::CONTENT_TYPE, ct)], reply.body).into_response();
    if let Some(v) = reply
        .retry_after
        .and_then(|s| HeaderValue::from_str(&s.to_string()).ok())
    {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
}

async fn first_ws(State(app): State<AppState>, req: Request) -> Response {
    match app.matches.list().first() {
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
        return upgrade(req, move |upgraded| async move {
            spectator::refuse(spectator::accept(upgraded).await, CLOSE_FULL, &reason).await
        });
    }
    hub.stats.spectators.fetch_add(1, Ordering::Relaxed);
    let count = Count(app.clone(), hub.clone());
    let opts = app.spectator.clone();
    let stop = app.stop.clone();
    upgrade(req, move |upgraded| async move {
        let _count = count;
        // An edge that is still catching up with the match: a moment's wait gives the joiner
        // the history as chunks rather than thousands of items live.
        hub.wait_ready(std::time::Duration::from_secs(10)).await;
        spectator::serve(upgraded, hub, opts, stop).await;
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
    F: FnOnce(hyper::upgrade::Upgraded) -> Fut + Send + 'static,
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
            Ok(upgraded) => serve(upgraded).await,
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

fn answer(a: ControlAnswer) -> Response {
    control_reply(a.status, a.body, a.retry_after)
}

fn authorization(req: &Request) -> Option<&str> {
    req.headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
}

/// A run's series page, once the archive lists a game of its folder.
fn run_series(app: &Shared, folder: &std::path::Path) -> Option<String> {
    let dir = app.archive.dir_of(folder)?;
    Some(format!(
        "/series?dir={}",
        pitchside_wire::link::percent_encode_query(&dir)
    ))
}

/// `GET /api/runs`: the runs the operator may start, pause and stop, with where each is
/// (`pitchside.runs.v1`). Anyone may look; acting needs the token.
async fn runs_list(State(app): State<AppState>) -> Response {
    let doc = app.runs.list(|f| run_series(&app, f));
    let mut res = control_reply(200, serde_json::to_value(&doc).unwrap_or_default(), None);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// `POST /api/runs/NAME/ACTION` (`start`, `pause`, `stop`) with the operator's token: 200
/// with the run as it is now; 400 for another action, 401 without the token, 404 for a run
/// the relay was not given, 409 when the run is not in a state for it.
async fn run_action(
    State(app): State<AppState>,
    Path((name, action)): Path<(String, String)>,
    req: Request,
) -> Response {
    if let Err(r) = app.gate.check(
        client_ip(&req),
        authorization(&req),
        std::time::Instant::now(),
    ) {
        return refusal(&r);
    }
    let Some(action) = pitchside_wire::runs::Action::parse(&action) else {
        return control_reply(
            400,
            serde_json::json!({"error": format!("no action {action}: start, pause or stop")}),
            None,
        );
    };
    match app.runs.act(&name, action, |f| run_series(&app, f)) {
        Ok(entry) => control_reply(200, serde_json::to_value(&entry).unwrap_or_default(), None),
        Err(r) => control_reply(
            r.status(),
            serde_json::json!({"error": r.to_string()}),
            None,
        ),
    }
}

/// `GET /m/NAME/control`: 200 with what the operator may do (the page shows its panel only
/// then), 401 for no or a wrong token.
async fn control_status(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    answer(control_answer(&app, &name, client_ip(&req), authorization(&req), None, "").await)
}

/// `POST /m/NAME/control`: one operator command.
async fn control_command(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    let client = client_ip(&req);
    let auth = authorization(&req).map(str::to_owned);
    let body = match axum::body::to_bytes(req.into_body(), MAX_CONTROL_BODY).await {
        Ok(b) => b,
        Err(_) => {
            return refusal(&crate::control::Refusal::Malformed(format!(
                "the body is longer than {MAX_CONTROL_BODY} bytes"
            )))
        }
    };
    answer(control_answer(&app, &name, client, auth.as_deref(), Some(&body), "").await)
}

/// `GET /m/NAME/agents?from=SEQ[&wait=MS]` with a team's key (or the operator's token): that
/// team's agents' debug messages from `SEQ` on, waiting up to `MS` for one when there is none
/// yet (book, "The agents' debug stream"). 404 when the relay is not this match's debug
/// server; 401 and 429 as for the control endpoint.
async fn agents_poll(
    State(app): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    let Some(log) = app.debug.as_ref().filter(|l| l.hub.name == name) else {
        return control_reply(
            404,
            serde_json::json!({
                "error": format!("no agents' debug stream for {name}: the relay was not started with --debug-port for it")
            }),
            None,
        );
    };
    let grant = log.failures.check_with(
        client_ip(&req),
        authorization(&req),
        std::time::Instant::now(),
        |given| {
            if crate::control::same_token(app.gate.token().as_bytes(), given.as_bytes()) {
                return Some(crate::agents::Grant::All);
            }
            log.keys.team_of(given).map(crate::agents::Grant::Team)
        },
    );
    let grant = match grant {
        Ok(g) => g,
        Err(crate::control::Refusal::Unauthorized) => {
            return control_reply(
                401,
                serde_json::json!({
                    "error": "no team key, or not one of this relay's: open the team's link the relay printed"
                }),
                None,
            )
        }
        Err(r) => return refusal(&r),
    };
    let query = req.uri().query().unwrap_or_default().to_owned();
    drop(req);
    let param = |key: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let from = param("from").unwrap_or(0);
    // `wait=MS`: hold the answer until there is something new (a long poll).
    let wait = std::time::Duration::from_millis(param("wait").unwrap_or(0));
    let mut stop = app.stop.clone();
    let answer = log.poll_wait(&grant, from, wait, &mut stop).await;
    let mut res = control_reply(200, serde_json::to_value(&answer).unwrap_or_default(), None);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn matches(State(app): State<AppState>) -> Response {
    let runs = runs_playing(&app).await;
    let list: Vec<_> = app
        .matches
        .list()
        .iter()
        .map(|m| {
            let mut s = serde_json::to_value(m.hub.summary()).unwrap_or_default();
            if let Some(o) = s.as_object_mut() {
                // `source` says what feeds the match now; `kind` what was configured.
                o.insert("kind".into(), m.kind.into());
                o.insert("url".into(), format!("/m/{}", m.hub.name).into());
                // The run whose field this match follows: game k of N on the lobby's card.
                let run = m.port.and_then(|port| {
                    runs.iter().find_map(|r| {
                        let f = r.fields.iter().find(|f| f.port == port)?;
                        Some(serde_json::json!({
                            "kind": r.kind, "game": f.game, "played": r.played,
                            "games": r.games, "invalid": r.invalid,
                        }))
                    })
                });
                if let Some(run) = run {
                    o.insert("run".into(), run);
                }
            }
            s
        })
        .collect();
    let body = serde_json::to_string(&list).unwrap_or_else(|_| "[]".into());
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The runs of games under way in the relay's runs' folders and its archive's folders (their
/// `pitchside-play.json`, read afresh: a few small files).
async fn runs_playing(app: &Shared) -> Vec<pitchside_wire::run::Run> {
    let mut folders = app.runs.folders();
    folders.extend(app.archive.roots().iter().cloned());
    folders.dedup();
    let mut runs = Vec::new();
    for folder in folders {
        let file = folder.join(crate::play::status::FILE);
        if let Ok(bytes) = tokio::fs::read(&file).await {
            if let Ok(run) = serde_json::from_slice::<pitchside_wire::run::Run>(&bytes) {
                if run.running && run.format == pitchside_wire::run::RUN_FORMAT {
                    runs.push(run);
                }
            }
        }
    }
    runs
}

async fn download(State(app): State<AppState>, Path(name): Path<String>) -> Response {
    let Some(m) = app.find(&name) else {
        return (StatusCode::NOT_FOUND, format!("no match called {name}")).into_response();
    };
    let packets = m.hub.history_packets();
    let started = m.hub.started().unwrap_or_else(chrono::Local::now);
    let built = tokio::task::spawn_blocking(move || {
        let records = pitchside_wire::decode_records(packets.iter().map(|b| &b[..]))?;
        // A ball with a height (the 2.5D fork) is kept: written as its ULG7.
        let height = records
            .iter()
            .any(|r| matches!(r, rcss_formats::Record::Show(f) if f.ball.z != 0.0));
        let mut w = LogWriter::new(started, height);
        for r in &records {
            w.record(r);
        }
        Ok::<_, pitchside_wire::WireError>((w.take(), w.file_name()))
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
    let list = app.matches.list();
    let per = |f: &dyn Fn(&Hub) -> f64| -> Vec<(Option<&str>, f64)> {
        list.iter()
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
        "records_dropped_total",
        "counter",
        "Records from the server dropped as late or as copies (a lossy network).",
        per(&|h| load(&h.stats.out_of_order_in)),
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
        "Times a spectator was moved ahead to a newer frame (frames too old for --max-delay, or more than --lag messages behind).",
        per(&|h| load(&h.stats.lag_skips)),
    );
    metric(
        "skipped_frames_total",
        "counter",
        "Frames not sent to spectators that were behind, summed over spectators (the history and the recording keep them).",
        per(&|h| load(&h.stats.skipped_frames)),
    );
    metric(
        "late_frames_skipped_total",
        "counter",
        "Of skipped_frames_total, the frames that waited longer than --max-delay for a spectator.",
        per(&|h| load(&h.stats.late_frames)),
    );
    metric(
        "spectators_skipping",
        "gauge",
        "Spectators that skipped frames in the fan-out's last round.",
        per(&|h| load(&h.stats.skipping)),
    );
    metric(
        "fanout_round_seconds",
        "gauge",
        "How long the fan-out's last round over the spectators took; near --max-delay, spectators start skipping frames.",
        per(&|h| load(&h.stats.round_us) / 1e6),
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
    connection_metrics(&mut out, &app.connections);
    let _ = writeln!(
        out,
        "# HELP pitchside_csp_violations_total Content-Security-Policy violations pages reported.\n# TYPE pitchside_csp_violations_total counter\npitchside_csp_violations_total {}",
        app.policy.violations.load(Ordering::Relaxed)
    );
    if let Some(edge) = &app.edge {
        edge_metrics(&mut out, edge);
    }
    if let Some(debug) = &app.debug {
        let st = &debug.stats;
        let _ = writeln!(
            out,
            "# HELP pitchside_debug_datagrams_total The agents' debug-client datagrams, by what became of them.\n# TYPE pitchside_debug_datagrams_total counter"
        );
        for (result, v) in [
            ("kept", &st.kept),
            ("unreadable", &st.unreadable),
            ("no_team", &st.no_team),
            ("off_time", &st.off_time),
        ] {
            let _ = writeln!(
                out,
                "pitchside_debug_datagrams_total{{match=\"{}\",result=\"{result}\"}} {}",
                debug.hub.name,
                v.load(Ordering::Relaxed)
            );
        }
        let _ = writeln!(
            out,
            "# HELP pitchside_debug_dropped_total Debug messages let go to keep the history within its cap.\n# TYPE pitchside_debug_dropped_total counter\npitchside_debug_dropped_total{{match=\"{}\"}} {}",
            debug.hub.name,
            st.dropped_old.load(Ordering::Relaxed)
        );
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], out).into_response()
}

fn connection_metrics(out: &mut String, table: &crate::connections::Table) {
    use crate::connections::Reason;
    for (name, kind, help, v) in [
        (
            "connections_open",
            "gauge",
            "Client connections open (HTTP and WebSocket).",
            table.open() as u64,
        ),
        (
            "connections_limit",
            "gauge",
            "Client connections the relay admits (open-files limit less a reserve, or --max-connections).",
            table.capacity() as u64,
        ),
    ] {
        let _ = writeln!(out, "# HELP pitchside_{name} {help}");
        let _ = writeln!(out, "# TYPE pitchside_{name} {kind}");
        let _ = writeln!(out, "pitchside_{name} {v}");
    }
    for (name, help, refusal) in [
        (
            "connections_refused_total",
            "Connections refused at once: per_address (the address held --max-per-address), full (no idle connection to make room).",
            true,
        ),
        (
            "connections_closed_total",
            "Connections closed by the relay: header_timeout, tls_handshake, idle, evicted (idle longest when the table was full).",
            false,
        ),
    ] {
        let _ = writeln!(out, "# HELP pitchside_{name} {help}");
        let _ = writeln!(out, "# TYPE pitchside_{name} counter");
        for r in Reason::ALL.iter().filter(|r| r.is_refusal() == refusal) {
            let _ = writeln!(
                out,
                "pitchside_{name}{{reason=\"{}\"}} {}",
                r.label(),
                table.count(*r)
            );
        }
    }
}

fn edge_metrics(out: &mut String, edge: &EdgeLink) {
    use async_nats::connection::State;
    let s = &edge.stats;
    let connected = matches!(edge.client.connection_state(), State::Connected);
    for (name, kind, help, v) in [
        (
            "nats_connected",
            "gauge",
            "1 while this edge is connected to NATS.",
            u64::from(connected),
        ),
        (
            "nats_applied_total",
            "counter",
            "Items applied from NATS.",
            s.applied.load(Ordering::Relaxed),
        ),
        (
            "nats_duplicates_total",
            "counter",
            "Items from NATS seen twice and dropped.",
            s.duplicates.load(Ordering::Relaxed),
        ),
        (
            "nats_gaps_total",
            "counter",
            "Times items were missing and a match was started afresh.",
            s.gaps.load(Ordering::Relaxed),
        ),
        (
            "nats_damaged_total",
            "counter",
            "Messages from NATS that did not decode.",
            s.damaged.load(Ordering::Relaxed),
        ),
    ] {
        let _ = writeln!(out, "# HELP pitchside_{name} {help}");
        let _ = writeln!(out, "# TYPE pitchside_{name} {kind}");
        let _ = writeln!(out, "pitchside_{name} {v}");
    }
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
