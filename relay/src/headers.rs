//! What every response says to protect the page and its visitors, and which other sites'
//! pages may call the control endpoint.
//!
//! - `Content-Security-Policy` on the page: scripts only from the relay (the one inline
//!   loader trunk writes is allowed by its hash, taken from the built `index.html` at start,
//!   so a rebuilt page is never blocked), WebAssembly compiled, workers from the relay or from
//!   blobs (the page's inflating worker), connections to the relay and to any site a user
//!   opens a log from (`?log=`), nothing embedded, and the page in no other site's frame,
//!   except the embed view (`/m/NAME/embed`, or any page address with `?embed`): that one
//!   may be framed by the sites `--embed-origins` lists, or by any site by default. A framed
//!   full page would let another site dress up the operator's controls (clickjacking); the
//!   embed view has none.
//!   Violations are reported to `/csp-report` and counted in `/metrics`, so a page change
//!   that breaks the policy shows in the browser tests.
//! - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` on everything.
//! - CORS: a browser page on another site may use the control endpoint only if its origin is
//!   listed (`--cors-origin`); otherwise its requests are refused before the token is looked
//!   at, and its preflights get no permission.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Longest CSP report read: a browser's is under 2 KB.
pub const MAX_REPORT: usize = 8 << 10;

/// The hashes of the page's inline scripts, as CSP source expressions.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find("<script") {
        let after = &rest[open..];
        let Some(tag_end) = after.find('>') else {
            break;
        };
        let tag = &after[..tag_end];
        let body = &after[tag_end + 1..];
        let Some(close) = body.find("</script>") else {
            break;
        };
        if !tag.contains(" src=") {
            let digest = ring::digest::digest(&ring::digest::SHA256, &body.as_bytes()[..close]);
            out.push(format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest.as_ref())
            ));
        }
        rest = &body[close..];
    }
    out
}

/// The page's policy. `frame_ancestors` says which sites may show it in a frame
/// (`'none'` for the full page).
pub fn content_security_policy(script_hashes: &[String], frame_ancestors: &str) -> String {
    let mut script = String::from("'self' 'wasm-unsafe-eval'");
    for h in script_hashes {
        script.push(' ');
        script.push_str(h);
    }
    format!(
        "default-src 'self'; script-src {script}; worker-src 'self' blob:; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; \
         connect-src 'self' ws: wss: http: https:; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors {frame_ancestors}; report-uri /csp-report"
    )
}

/// The book's policy (`/docs/`): its pages are static and the relay's own, built by mdbook,
/// whose pages set their theme and search path in small inline scripts that differ per page;
/// so inline scripts are allowed there, and nothing else beyond the page's own policy: no
/// WebAssembly, no connections elsewhere, never in a frame.
pub const DOCS_CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; \
     report-uri /csp-report";

/// Whether `path` is the book's.
fn is_docs(path: &str) -> bool {
    path == "/docs" || path.starts_with("/docs/")
}

/// Which policy an HTML response gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Page {
    Monitor,
    Embed,
    Docs,
}

/// What the middleware adds, made once at start.
pub struct Policy {
    page_csp: HeaderValue,
    embed_csp: HeaderValue,
    /// Origins allowed to call the control endpoint from their pages.
    cors: Vec<String>,
    /// CSP violations browsers reported.
    pub violations: AtomicU64,
    reported: std::sync::Mutex<Option<std::time::Instant>>,
}

impl Policy {
    /// `embed_origins` are checked origins (`scheme://host[:port]`); empty means any site.
    pub fn new(index_html: Option<&str>, cors: Vec<String>, embed_origins: &[String]) -> Policy {
        let hashes = index_html.map(inline_script_hashes).unwrap_or_default();
        let header = |ancestors: &str| {
            HeaderValue::from_str(&content_security_policy(&hashes, ancestors))
                .unwrap_or(HeaderValue::from_static("default-src 'self'"))
        };
        let embedders = if embed_origins.is_empty() {
            "*".to_owned()
        } else {
            embed_origins.join(" ")
        };
        Policy {
            page_csp: header("'none'"),
            embed_csp: header(&embedders),
            cors,
            violations: AtomicU64::new(0),
            reported: std::sync::Mutex::new(None),
        }
    }

    fn allows(&self, origin: &str) -> bool {
        self.cors.iter().any(|o| o == origin)
    }

    /// A violation report: counted; logged at most once a minute (a page can send many).
    pub fn report(&self, body: &[u8]) {
        self.violations.fetch_add(1, Ordering::Relaxed);
        let now = std::time::Instant::now();
        let mut last = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| now.saturating_duration_since(t) < Duration::from_secs(60)) {
            return;
        }
        *last = Some(now);
        let text = String::from_utf8_lossy(&body[..body.len().min(512)]);
        tracing::warn!("a page reported a Content-Security-Policy violation: {text}");
    }
}

/// The origin of a request made by a page on another site, or `None` for a request from
/// the relay's own page or from no browser at all.
fn foreign_origin(headers: &HeaderMap) -> Option<&str> {
    let origin = headers.get(header::ORIGIN)?.to_str().ok()?;
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let authority = origin.split_once("://").map_or(origin, |(_, a)| a);
    (authority != host).then_some(origin)
}

fn is_control(path: &str) -> bool {
    path.starts_with("/m/") && path.ends_with("/control")
}

fn is_embed(path: &str, query: Option<&str>) -> bool {
    pitchside_wire::link::is_embed(path, query.unwrap_or(""))
}

/// The middleware: protective headers on every response; CORS for the control endpoint.
pub async fn protect(
    axum::extract::State(policy): axum::extract::State<Arc<Policy>>,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let path = req.uri().path().to_owned();
    let control = is_control(&path);
    let page = if is_docs(&path) {
        Page::Docs
    } else if is_embed(&path, req.uri().query()) {
        Page::Embed
    } else {
        Page::Monitor
    };
    let foreign = foreign_origin(req.headers()).map(str::to_owned);
    if control {
        if let Some(origin) = &foreign {
            if !policy.allows(origin) {
                tracing::debug!("control: refused a request from a page at {origin}");
                let body = serde_json::json!({
                    "error": format!("pages at {origin} may not use the control endpoint (the relay's --cors-origin lists the sites that may)")
                });
                return finish(
                    (
                        StatusCode::FORBIDDEN,
                        [(header::CONTENT_TYPE, "application/json")],
                        body.to_string(),
                    )
                        .into_response(),
                    &policy,
                    None,
                    Page::Monitor,
                );
            }
            if req.method() == Method::OPTIONS {
                let mut res = StatusCode::NO_CONTENT.into_response();
                set_all(
                    res.headers_mut(),
                    [
                        (header::ACCESS_CONTROL_ALLOW_METHODS, "GET, POST"),
                        (
                            header::ACCESS_CONTROL_ALLOW_HEADERS,
                            "authorization, content-type",
                        ),
                        (header::ACCESS_CONTROL_MAX_AGE, "600"),
                    ],
                );
                return finish(res, &policy, Some(origin), Page::Monitor);
            }
        }
    }
    let res = next.run(req).await;
    let allowed = if control { foreign.as_deref() } else { None };
    finish(res, &policy, allowed, page)
}

fn set_all<const N: usize>(h: &mut HeaderMap, headers: [(HeaderName, &'static str); N]) {
    for (name, value) in headers {
        h.insert(name, HeaderValue::from_static(value));
    }
}

fn finish(mut res: Response, policy: &Policy, cors_origin: Option<&str>, page: Page) -> Response {
    let is_html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/html"));
    let h = res.headers_mut();
    set_all(
        h,
        [
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
    );
    if is_html {
        let csp = match page {
            Page::Embed => policy.embed_csp.clone(),
            Page::Monitor => policy.page_csp.clone(),
            Page::Docs => HeaderValue::from_static(DOCS_CSP),
        };
        h.entry(header::CONTENT_SECURITY_POLICY).or_insert(csp);
    }
    if let Some(origin) = cors_origin.and_then(|o| HeaderValue::from_str(o).ok()) {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        h.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_are_hashed_and_external_ones_are_not() {
        let html = "<head><script type=\"module\">import init from '/a.js';</script>\
                    <script src=\"/b.js\"></script></head>";
        let hashes = inline_script_hashes(html);
        // sha256 of "import init from '/a.js';", base64.
        let want = base64::engine::general_purpose::STANDARD.encode(
            ring::digest::digest(&ring::digest::SHA256, b"import init from '/a.js';").as_ref(),
        );
        assert_eq!(hashes, vec![format!("'sha256-{want}'")]);
        let csp = content_security_policy(&hashes, "'none'");
        assert!(csp.contains(&format!(
            "script-src 'self' 'wasm-unsafe-eval' 'sha256-{want}'"
        )));
        assert!(csp.contains("frame-ancestors 'none'"));
        assert!(inline_script_hashes("<script>unclosed").is_empty());
    }

    #[test]
    fn only_other_sites_are_foreign() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("relay.example:8080"));
        assert_eq!(foreign_origin(&h), None);
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://relay.example:8080"),
        );
        assert_eq!(foreign_origin(&h), None);
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert_eq!(foreign_origin(&h), Some("https://evil.example"));
        assert!(is_control("/m/final/control"));
        assert!(!is_control("/m/final/ws"));
    }

    #[test]
    fn only_the_book_allows_inline_scripts_and_nothing_of_it_may_be_framed() {
        assert!(is_docs("/docs/"));
        assert!(is_docs("/docs/relay.html"));
        assert!(!is_docs("/docsx"));
        assert!(!is_docs("/m/docs"));
        assert!(DOCS_CSP.contains("script-src 'self' 'unsafe-inline';"));
        assert!(DOCS_CSP.contains("frame-ancestors 'none'"));
        assert!(!DOCS_CSP.contains("wasm"));
        assert!(!content_security_policy(&[], "'none'").contains("'unsafe-inline'; worker"));
        assert!(HeaderValue::from_str(DOCS_CSP).is_ok());
    }

    #[test]
    fn only_the_embed_view_may_be_framed_and_by_whom_the_relay_says() {
        assert!(is_embed("/m/final/embed", None));
        assert!(is_embed("/", Some("log=https://x/a.rcg&embed")));
        assert!(is_embed("/", Some("embed=1")));
        assert!(!is_embed("/m/final", None));
        assert!(!is_embed("/", Some("log=https://x/embed.rcg")));
        assert!(!is_embed("/", Some("embedded")));
        let csp = |p: &HeaderValue| p.to_str().unwrap_or_default().to_owned();
        let anyone = Policy::new(None, Vec::new(), &[]);
        assert!(csp(&anyone.page_csp).contains("frame-ancestors 'none'"));
        assert!(csp(&anyone.embed_csp).contains("frame-ancestors *;"));
        let listed = Policy::new(
            None,
            Vec::new(),
            &[
                "https://team.example".into(),
                "http://cup.example:8000".into(),
            ],
        );
        assert!(csp(&listed.embed_csp)
            .contains("frame-ancestors https://team.example http://cup.example:8000;"));
        assert!(csp(&listed.page_csp).contains("frame-ancestors 'none'"));
    }
}
