//! The series page in headless Chromium, as a team developer uses it during a night's batch:
//! the series of half a batch, the rest of the batch arriving while the page is open (no
//! reload), an invalid game listed with why and opened at its first goal, and the batch
//! compared with last week's; the figures are the relay's `/api/series`, axe-core clean.
//!
//! Needs the web app built into `dist/`, Chromium and axe-core (scripts/test.sh).

use pitchside_tests::browser::Browser;
use pitchside_tests::spectator::http_get;
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use serde_json::Value;
use std::time::Duration;

async fn api(addr: std::net::SocketAddr, query: &str) -> Value {
    let (status, _, body) = http_get(addr, &format!("/api/series{query}")).await;
    assert_eq!(status, 200);
    serde_json::from_slice(&body).expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_developer_watches_a_batch_converge_and_compares_it_with_last_week() {
    assert!(
        relay_harness::dist().join("index.html").is_file(),
        "build the web app first (scripts/build-web.sh)"
    );
    let tmp = std::env::temp_dir().join(format!("pitchside-series-page-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let night = tmp.join("archive/night");
    let a = fixtures::series_logs("A");
    fixtures::copy_into(&a[..12], &night);
    fixtures::copy_into(
        &[fixtures::series("invalid").join("20261126140749-ALPHA_1-vs-BRAVO_0.rcg.gz")],
        &night,
    );
    fixtures::copy_into(&fixtures::series_logs("B"), &tmp.join("archive/last-week"));
    let mut settings = Settings::new(vec![relay_harness::replay(
        fixtures::SHORT_V6,
        "field-a",
        Duration::from_millis(100),
    )]);
    settings.archive = vec![tmp.join("archive")];
    let relay = relay_harness::start_with(settings).await;
    let b = Browser::start().await;

    let page = format!("http://{}/series?team=ALPHA&dir=0/night", relay.addr);
    b.client.goto(&page).await.expect("the series page");
    b.wait_text("#series-status", "half the batch", |t| {
        t.contains("12 games counted")
    })
    .await;
    let doc = api(relay.addr, "?team=ALPHA&dir=0/night").await;
    let rate = &doc["win_rate"];
    let shown = b.text("dd.win-rate").await;
    let want = format!(
        "{:.1} % (95 % CI {:.1}–{:.1} %)",
        rate["value"].as_f64().unwrap() * 100.0,
        rate["ci"][0].as_f64().unwrap() * 100.0,
        rate["ci"][1].as_f64().unwrap() * 100.0
    );
    assert_eq!(shown, want);
    // The invalid game: listed with why, out of the figures, watched from its first goal.
    let why = b.text("#series-invalid .why").await;
    assert_eq!(why, "BRAVO had 10 players at kick-off");
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the series page: {violations:#?}");
    b.screenshot("series-half").await;

    // The rest of the batch lands while the page is open: it follows without a reload.
    fixtures::copy_into(&a[12..], &night);
    b.wait_text("#series-status", "the whole batch", |t| {
        t.contains("24 games counted")
    })
    .await;
    let points = b
        .eval("return document.querySelector('.series-curve .a .rate').getAttribute('points').trim().split(' ').length")
        .await;
    assert_eq!(points, 24, "one point of the curve a game");
    b.screenshot("series-whole").await;

    b.click("#series-invalid .watch").await;
    let first_goal = doc["invalid"][0]["first_goal"].as_u64().expect("a goal");
    b.wait_text("#cycle", "the first goal's cycle", |t| {
        t == first_goal.to_string()
    })
    .await;
    b.wait_text("#team-l", "the match", |t| t == "ALPHA").await;

    // A/B: tonight against last week.
    let ab = format!(
        "http://{}/series?team=ALPHA&dir=0/night&b_dir=0/last-week",
        relay.addr
    );
    b.client.goto(&ab).await.expect("the comparison");
    let api_ab = api(relay.addr, "?team=ALPHA&dir=0/night&b_dir=0/last-week").await;
    let verdict = api_ab["comparison"]["verdict"].as_str().unwrap().to_owned();
    b.wait_text("#series-verdict", "the verdict", |t| t == verdict)
        .await;
    let diff = b.text("#series-diff-win").await;
    assert!(diff.contains("Newcombe") && diff.contains("p = "), "{diff}");
    let curves = b
        .eval("return document.querySelectorAll('.series-curve .rate').length")
        .await;
    assert_eq!(curves, 2);
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the comparison: {violations:#?}");
    b.screenshot("series-ab").await;
    b.close().await;
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
