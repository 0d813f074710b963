//! The archive page in headless Chromium: the relay's logs listed with their teams and score,
//! a search narrowing them, a log opened in the monitor from its row, a playlist of all of
//! them playing one after another, and no serious or critical accessibility violation
//! (axe-core).
//!
//! Needs the web app built into `dist/`, Chromium and axe-core (scripts/test.sh).

use pitchside_tests::browser::Browser;
use pitchside_tests::{fixtures, relay_harness};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_finds_a_past_match_and_watches_it() {
    relay_harness::need_web_app();
    let dir = fixtures::scratch("archive-page");
    for (rel, name) in [
        (
            fixtures::FULL_V6,
            "20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
        ),
        (
            fixtures::SHORT_V6,
            "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
        ),
        (
            fixtures::PENALTY_V6,
            "20261122132810-PEN_L_0_4-vs-PEN_R_0_2.rcg.gz",
        ),
    ] {
        std::fs::copy(fixtures::path(rel), dir.join(name)).expect("copy");
    }
    let relay = relay_harness::start_with_archive(fixtures::SHORT_V2, dir.clone()).await;
    let b = Browser::start().await;
    // The index is built at start, maybe not yet whole when the page opens: the page asks
    // again until it is.
    b.goto(&format!("http://{}/archive", relay.addr)).await;
    b.wait_text("#archive-count", "three logs", |t| t.starts_with("3 logs"))
        .await;
    let table = b.text("#archive-table").await;
    assert!(table.contains("HELIOS_L 2 – 3 HELIOS_R"), "{table}");
    assert!(table.contains("PEN_L 0 – 0 (pen. 4–2) PEN_R"), "{table}");
    assert_eq!(b.text("#archive-page").await, "page 1 of 1");
    assert_eq!(b.text("#archive-next").await, "Older →");
    let violations = b.axe_violations().await;
    assert!(violations.is_empty(), "the archive: {violations:?}");
    b.screenshot("archive").await;

    b.client
        .find(fantoccini::Locator::Css("#archive-q"))
        .await
        .expect("the search box")
        .send_keys("helios")
        .await
        .expect("type");
    b.wait_text("#archive-count", "one log", |t| t.starts_with("1 logs"))
        .await;
    b.click("#archive-table .watch").await;
    b.wait_text("#source", "the log from the archive", |t| {
        t.contains("20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz")
    })
    .await;
    b.wait_text("#team-r", "the right team", |t| t == "HELIOS_R")
        .await;

    // Play all: the three logs one after another, newest first. At the end of one (End
    // jumps there), the next opens by itself.
    b.goto(&format!("http://{}/archive", relay.addr)).await;
    b.wait_text("#archive-count", "three logs", |t| t.starts_with("3 logs"))
        .await;
    b.click("#archive-play-all").await;
    b.wait_text("#playlist", "the first of three", |t| {
        t == "Playlist: 1 of 3 · next: SHORT_L_a 0 – 1 SHORT_R_a"
    })
    .await;
    b.wait_text("#team-l", "the first log", |t| t == "PEN_L")
        .await;
    b.wait_text("#progress", "the whole log read", |t| {
        t.contains(" frames, log ")
    })
    .await;
    b.keys(&fantoccini::key::Key::End.to_string()).await;
    b.wait_text("#team-l", "the second log", |t| t == "SHORT_L_a")
        .await;
    let line = b.text("#playlist").await;
    assert_eq!(line, "Playlist: 2 of 3 · next: HELIOS_L 2 – 3 HELIOS_R");
    b.screenshot("playlist").await;
    b.close().await;
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
