//! A tournament's page in headless Chromium, as an organiser runs a round robin and its
//! knockout: the lobby links to it; a group game being played shows live in its fixture with
//! its score and a link to watch; results arriving in the archive fill the standings, the
//! cross table and the bracket without a reload. Every figure on the page is checked against
//! `/api/tournaments/NAME`; axe-core clean.
//!
//! Real games: the round robin of `tests/fixtures/series/T` (rcssserver 19, helios-base).
//! Needs the web app built into `dist/`, Chromium and axe-core (scripts/test.sh).

use pitchside_tests::browser::Browser;
use pitchside_tests::spectator::http_get;
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use serde_json::Value;
use std::time::Duration;

async fn api(addr: std::net::SocketAddr) -> Value {
    let (status, _, body) = http_get(addr, "/api/tournaments/spring").await;
    assert_eq!(status, 200);
    serde_json::from_slice(&body).expect("JSON")
}

/// The standings as the page shows them: team, games, points per row.
async fn shown_standings(b: &Browser) -> Value {
    b.eval(
        "return [...document.querySelectorAll('.t-standings tbody tr')].map(r => \
         [r.dataset.team, +r.cells[2].textContent, +r.cells[8].textContent])",
    )
    .await
}

fn api_standings(doc: &Value) -> Value {
    let rows: Vec<Value> = doc["groups"][0]["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|s| serde_json::json!([s["team"], s["games"], s["points"]]))
        .collect();
    Value::Array(rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organiser_follows_a_round_robin_into_its_knockout() {
    relay_harness::need_web_app();
    let tmp =
        std::env::temp_dir().join(format!("pitchside-tournament-page-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let games = fixtures::series_logs("T");
    let archive = tmp.join("archive");
    fixtures::copy_into(&games[..5], &archive);
    let file = tmp.join("spring.toml");
    std::fs::copy(fixtures::path("tournaments/spring.toml"), &file).expect("the tournament file");
    // Field 1 plays the group's sixth game (BRAVO against CHARLIE) now; field 2 a friendly.
    let sixth = games[5]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        sixth.contains("BRAVO") && sixth.contains("CHARLIE"),
        "{sixth}"
    );
    let mut settings = Settings::new(vec![
        relay_harness::replay(
            &format!("series/T/{sixth}"),
            "field-1",
            Duration::from_millis(200),
        ),
        relay_harness::replay(fixtures::SHORT_V6, "field-2", Duration::from_millis(200)),
    ]);
    settings.archive = vec![archive.clone()];
    settings.tournaments = vec![file.clone()];
    let relay = relay_harness::start_with(settings).await;
    let b = Browser::start().await;

    // The lobby links to the tournament.
    b.open_home(relay.addr).await;
    b.wait_text("#tournaments a", "the tournament's link", |t| {
        t == "Spring cup"
    })
    .await;
    b.screenshot("tournament-lobby").await;
    b.click("#tournaments a[data-tournament='spring']").await;
    b.wait_text("#t-status", "the group under way", |t| {
        t.starts_with("5 of 9 games played") && t.contains("1 live now")
    })
    .await;
    assert!(b.url().await.ends_with("/t/spring"));

    // The live game in its fixture, its score the fixture's way round, linked to watch. (The
    // replay loops: at each time over it is not live for a moment.)
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let (doc, live) = loop {
        let doc = api(relay.addr).await;
        let live = doc["groups"][0]["fixtures"]
            .as_array()
            .expect("fixtures")
            .iter()
            .find(|f| f["status"] == "live")
            .cloned();
        if let Some(live) = live {
            break (doc, live);
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a live fixture: {doc}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(live["link"], "/m/field-1");
    let pair = [
        live["left"].as_str().unwrap(),
        live["right"].as_str().unwrap(),
    ];
    assert!(
        pair.contains(&"BRAVO") && pair.contains(&"CHARLIE"),
        "{live}"
    );
    b.wait_text(".t-fixtures tr.t-live a.t-live", "the live cell", |t| {
        t.contains("watch") && t.contains("cycle")
    })
    .await;
    assert_eq!(shown_standings(&b).await, api_standings(&doc));
    // Nothing of the knockout is known yet.
    assert_eq!(b.text("[data-tie='SF1'] .t-slot").await, "1st of group A");
    let violations = b.axe_violations().await;
    assert!(
        violations.is_empty(),
        "the tournament page: {violations:#?}"
    );
    b.screenshot("tournament-group-live").await;
    // Watching it is one click. (The audit and the screenshot take seconds: the replay may
    // be between its end and its new kick-off by now, its cell not live for a moment.)
    let href = b
        .wait_js(
            "const a = document.querySelector('.t-fixtures a.t-live'); \
             return a && a.getAttribute('href')",
            "the live cell's link",
            |v| !v.is_null(),
        )
        .await;
    assert_eq!(href, "/m/field-1");
    b.click(".t-fixtures a.t-live").await;
    b.wait_text("#team-l", "the live match", |t| t == "BRAVO")
        .await;
    assert!(b.url().await.ends_with("/m/field-1"));
    b.goto(&format!("http://{}/t/spring", relay.addr)).await;

    // The sixth game's log and the first semi-final's arrive: the group completes, the
    // bracket fills in, without a reload.
    fixtures::copy_into(&games[5..7], &archive);
    b.wait_text("#t-status", "the results", |t| {
        t.starts_with("7 of 9 games played")
    })
    .await;
    let doc = api(relay.addr).await;
    let group = &doc["groups"][0];
    assert_eq!(group["complete"], true);
    // Ranked as rclmtableprinter ranks these six results (the standings tests compare that
    // tool's tables row by row): ALPHA and DELTA on 6 points, ALPHA beat DELTA on penalties.
    let order: Vec<&str> = group["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["team"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["ALPHA", "DELTA", "BRAVO", "CHARLIE"]);
    b.wait_js(
        "return !!document.querySelector('.t-badge')",
        "the complete group",
        |v| v == true,
    )
    .await;
    assert_eq!(shown_standings(&b).await, api_standings(&doc));
    // SF1 was ALPHA (1st) against CHARLIE (4th), the seventh game: CHARLIE 0, ALPHA 1.
    let sf1 = &doc["knockout"][0]["ties"][0];
    assert_eq!(sf1["status"], "played");
    assert_eq!(sf1["score"], serde_json::json!([1, 0]));
    assert_eq!(sf1["winner"], "ALPHA");
    assert_eq!(b.text("[data-tie='SF1'] .t-side.won").await, "ALPHA");
    // SF2 waits for DELTA and BRAVO; the final knows one side.
    assert_eq!(doc["knockout"][0]["ties"][1]["status"], "to_play");
    assert_eq!(b.text("[data-tie='F'] .t-side:not(.t-slot)").await, "ALPHA");
    assert_eq!(b.text("[data-tie='F'] .t-slot").await, "winner of SF2");
    // The cross table: ALPHA's row against DELTA, the 0:0 won on penalties.
    let cross = b
        .eval("return document.querySelector('.t-cross tbody tr').cells[2].textContent")
        .await;
    assert_eq!(cross, "0:0 (3:2)");
    b.screenshot("tournament-bracket").await;

    b.close().await;
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
