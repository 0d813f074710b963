//! The embed view inside another site's page, in headless Chromium: a page on another origin
//! frames a live match at 320×180 and hears the goal through `postMessage`; the embed view
//! passes axe-core; the relay lets any site frame the embed view and none the full page, or
//! only the sites `--embed-origins` lists.
//!
//! Needs the web app built into `dist/` and Chromium (scripts/test.sh).

use axum::response::Html;
use pitchside_tests::browser::Browser;
use pitchside_tests::spectator::http_get;
use pitchside_tests::static_server::StaticServer;
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use std::time::Duration;

fn field_a(step_ms: u64) -> Settings {
    Settings::new(vec![relay_harness::replay(
        fixtures::SHORT_V6,
        "field-a",
        Duration::from_millis(step_ms),
    )])
}

async fn frame_ancestors(addr: std::net::SocketAddr, path: &str) -> String {
    let (status, head, _) = http_get(addr, path).await;
    assert_eq!(status, 200, "{path}");
    head.to_ascii_lowercase()
        .lines()
        .find(|l| l.starts_with("content-security-policy:"))
        .and_then(|l| l.split("frame-ancestors ").nth(1))
        .and_then(|l| l.split(';').next())
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("{path}: no frame-ancestors in {head}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_another_site_embeds_a_live_match_and_hears_the_goal() {
    relay_harness::need_web_app();
    // 20 ms a cycle: the goal at cycle 271 comes about 5 s after the start.
    // A finished log to embed too, from the relay's archive (a live match's download would
    // depend on how far the replay has got).
    let archive = fixtures::scratch("embed");
    std::fs::copy(
        fixtures::path(fixtures::SHORT_V6),
        archive.join("short.rcg.gz"),
    )
    .expect("copy");
    let mut settings = field_a(20);
    settings.archive = vec![archive.clone()];
    let relay = relay_harness::start_with(settings).await;
    assert_eq!(frame_ancestors(relay.addr, "/m/field-a/embed").await, "*");
    assert_eq!(frame_ancestors(relay.addr, "/?embed").await, "*");
    assert_eq!(frame_ancestors(relay.addr, "/m/field-a").await, "'none'");

    // The other site: another origin (another port), a page with the iframe and a listener.
    let embed = format!("http://{}/m/field-a/embed", relay.addr);
    let page = format!(
        "<!doctype html><html lang=en><title>A team's site</title><main><h1>Our match</h1>\
         <iframe id=live src=\"{embed}\" width=320 height=180 style=\"border:0\" \
         title=\"Live match\"></iframe></main><script>window.got = [];\
         addEventListener('message', e => window.got.push({{origin: e.origin, data: e.data}}));\
         </script></html>"
    );
    let site =
        axum::Router::new().route("/", axum::routing::get(move || async move { Html(page) }));
    let server = StaticServer::serve(site).await;

    let b = Browser::start().await;
    b.open_home(server.addr).await;
    let goal = b
        .wait_js(
            "return (window.got || []).filter(m => m.data && m.data.type === 'goal')",
            "the goal message",
            |v| v.as_array().is_some_and(|a| !a.is_empty()),
        )
        .await;
    let goal = &goal[0];
    assert_eq!(goal["origin"], format!("http://{}", relay.addr));
    let d = &goal["data"];
    assert_eq!(d["source"], "pitchside");
    assert_eq!(d["version"], 1);
    assert_eq!(d["side"], "r");
    assert_eq!(d["score"], serde_json::json!([0, 1]));
    assert_eq!(d["teams"], serde_json::json!(["SHORT_L_a", "SHORT_R_a"]));
    assert_eq!(d["cycle"], 271);
    let kinds = b.eval("return window.got.map(m => m.data.type)").await;
    let kinds: Vec<&str> = kinds
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(kinds.first(), Some(&"state"), "{kinds:?}");
    assert!(kinds.contains(&"playmode"), "{kinds:?}");
    b.screenshot("embed-320x180").await;

    // The embed view on its own: only the score bar and the field, and no accessibility
    // violation.
    b.goto(&embed).await;
    b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    let parts = b
        .eval(
            "return ['#transport', '#settings-toggle', '.panels', '#embed-toggle', '.field-tools']\
             .map(s => { const e = document.querySelector(s); \
               return e ? getComputedStyle(e).display !== 'none' : false; })",
        )
        .await;
    assert_eq!(
        parts,
        serde_json::json!([false, false, false, false, false]),
        "controls in the embed view"
    );
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the embed view: {violations:#?}");

    // A log link with `&embed`, at a cycle: the same view, paused there, with play/pause.
    b.goto(&format!(
        "http://{}/?log=/archive/files/0/short.rcg.gz&embed#t=100",
        relay.addr
    ))
    .await;
    b.wait_text("#cycle", "cycle 100", |t| t == "100").await;
    assert_eq!(b.text("#play").await, "▶");
    b.click("#play").await;
    b.wait_text("#cycle", "playing on", |t| {
        t.parse::<u32>().is_ok_and(|c| c > 100)
    })
    .await;
    assert_eq!(b.text("#play").await, "❚❚");
    assert_eq!(
        b.text("#transport").await,
        "",
        "no transport in the embed view"
    );

    // Any other page asked for with `embed` is the embed view too, never the full page.
    b.goto(&format!("http://{}/archive?embed", relay.addr))
        .await;
    b.wait_text("#team-l", "the embed view", |t| t == "SHORT_L_a")
        .await;
    let parts = b
        .eval("return [!!document.querySelector('.app.embed'), !!document.querySelector('#archive-table')]")
        .await;
    assert_eq!(parts, serde_json::json!([true, false]));

    // The full page's Embed… panel gives the snippet for this match.
    b.goto(&format!("http://{}/m/field-a", relay.addr)).await;
    b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    b.click("#embed-toggle").await;
    let snippet = b
        .wait_js(
            "const t = document.querySelector('#embed-snippet'); return t ? t.value : ''",
            "the snippet",
            |v| v.as_str().is_some_and(|s| !s.is_empty()),
        )
        .await;
    assert_eq!(
        snippet.as_str().unwrap_or_default(),
        format!(
            "<iframe src=\"{embed}\" width=\"640\" height=\"400\" style=\"border:0\" \
             title=\"Live match\" allow=\"fullscreen\"></iframe>"
        )
    );
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the Embed panel: {violations:?}");
    b.screenshot("embed-panel").await;
    b.close().await;
    drop(server);
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&archive);

    // A relay that names who may embed says so, and still nobody frames the full page.
    let mut only = field_a(100);
    only.embed_origins = vec!["https://team.example".into(), "https://cup.example".into()];
    let relay = relay_harness::start_with(only).await;
    assert_eq!(
        frame_ancestors(relay.addr, "/m/field-a/embed").await,
        "https://team.example https://cup.example"
    );
    assert_eq!(frame_ancestors(relay.addr, "/m/field-a").await, "'none'");
    relay.stop().await;
}
