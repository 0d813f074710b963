//! The real page in headless Chromium: the live feed advances, a dropped logfile replays with
//! the right teams and final score, bad files get a clear message, and a file chosen while
//! another is being parsed replaces it. Screenshots go to `tests/artifacts/`.
//!
//! Needs the web app built into `dist/` (scripts/test.sh does it) and Debian's chromium and
//! chromium-driver.

use fantoccini::key::Key;
use pitchside_tests::browser::Browser;
use pitchside_tests::{capture, fake_server, fixtures, relay_harness};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_page_shows_the_cycle_advancing() {
    relay_harness::need_web_app();
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let server = fake_server::FakeServer::start(fake_server::Script {
        datagrams,
        pace: Duration::from_millis(40),
        garbage_at: vec![],
        spoof_at: vec![],
        ..fake_server::Script::default()
    })
    .await;
    let relay = relay_harness::start_following(server.addr, Duration::from_millis(200)).await;
    let b = Browser::start().await;
    b.open_home(relay.addr).await;
    b.wait_text("#source", "the live badge", |t| t.starts_with("Live"))
        .await;
    let first: u32 = b
        .wait_text("#cycle", "a cycle of the capture", |t| {
            t.parse::<u32>().is_ok_and(|c| c >= 1032)
        })
        .await
        .parse()
        .unwrap();
    let later: u32 = b
        .wait_text("#cycle", "the cycle to advance", |t| {
            t.parse::<u32>().is_ok_and(|c| c > first + 5)
        })
        .await
        .parse()
        .unwrap();
    assert!(later > first);
    assert_eq!(b.text("#team-l").await, "HELIOS_L");
    assert_eq!(b.text("#team-r").await, "HELIOS_R");
    let shot = b.screenshot("live").await;
    eprintln!("screenshot: {}", shot.display());
    b.close().await;
}

/// What the page says of the short game (679 shows) cut off: its notice says where the log
/// stops, and more than `min` whole frames before the cut are `kept`.
async fn kept_before_the_cut(b: &Browser, note: &str, min: usize, kept: &str) {
    assert!(note.contains("the log stops at cycle"), "{note}");
    let frames = b.text("#frames").await;
    let n: usize = frames.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n > min && n < 679, "{kept}: {frames}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploaded_log_replays_to_the_final_score_and_bad_files_are_explained() {
    // The relay's own feed is a slow replay; opening a file must take over the view.
    let (_relay, b) = Browser::on_bundled_replay().await;

    let path = fixtures::path(fixtures::SHORT_V6);
    b.choose(&path.display().to_string()).await;
    b.wait_text("#frames", "all 679 shows", |t| t.ends_with("/ 679"))
        .await;
    assert!(b
        .text("#source")
        .await
        .contains("20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"));
    // Jump to the end with the keyboard, as a user would.
    b.keys(&Key::End.to_string()).await;
    b.wait_text("#cycle", "the last cycle", |t| t == "600")
        .await;
    assert_eq!(b.text("#team-l").await, "SHORT_L_a");
    assert_eq!(b.text("#team-r").await, "SHORT_R_a");
    assert_eq!(b.text("#score-l").await, "0");
    assert_eq!(b.text("#score-r").await, "1");
    assert_eq!(b.text("#playmode").await, "time over");
    assert_eq!(b.text("#error").await, "", "a good file shows no error");
    b.screenshot("file-final").await;

    // Not a log at all.
    let not_a_log = fixtures::dir().join("README.md");
    b.choose(&not_a_log.display().to_string()).await;
    let err = b
        .wait_text("#error", "an error about the format", |t| !t.is_empty())
        .await;
    assert!(
        err.contains("Cannot open README.md") && err.contains("not an rcssserver game log"),
        "{err}"
    );
    b.screenshot("file-not-a-log").await;

    // A log cut off in the middle of a show line, as a killed server leaves it: incomplete,
    // every whole frame before the cut kept, said as for every version.
    let full = fixtures::read(fixtures::SHORT_V6);
    let cut = full.len() / 2;
    let truncated =
        std::env::temp_dir().join(format!("pitchside-truncated-{}.rcg", std::process::id()));
    std::fs::write(&truncated, &full[..cut]).unwrap();
    b.choose(&truncated.display().to_string()).await;
    let note = b
        .wait_text("#notice", "the cut log said to be incomplete", |t| {
            t.contains("pitchside-truncated-") && t.contains("incomplete")
        })
        .await;
    assert_eq!(b.text("#error").await, "", "a cut log is no damage");
    kept_before_the_cut(&b, &note, 200, "frames before the cut are kept").await;
    b.screenshot("file-truncated").await;
    let _ = std::fs::remove_file(truncated);

    // Damage in the middle: the frames before it play, and the error says where.
    let mut damaged = full.clone();
    let mid = damaged.len() / 2;
    let line_start = mid
        - damaged[..mid]
            .iter()
            .rev()
            .position(|c| *c == b'\n')
            .unwrap();
    damaged[line_start..line_start + 6].copy_from_slice(b"(shxw ");
    let damaged_path =
        std::env::temp_dir().join(format!("pitchside-damaged-{}.rcg", std::process::id()));
    std::fs::write(&damaged_path, &damaged).unwrap();
    b.choose(&damaged_path.display().to_string()).await;
    let err = b
        .wait_text("#error", "an error about the damage", |t| {
            t.contains("damaged")
        })
        .await;
    assert!(err.contains("line"), "the error says where: {err}");
    b.screenshot("file-damaged").await;
    let _ = std::fs::remove_file(damaged_path);

    // A compressed log cut off half-way: the browser's inflater stops at the cut, and the
    // frames inflated before it stay; incomplete too.
    let gz = std::fs::read(fixtures::path(fixtures::SHORT_V6)).unwrap();
    let cut_gz =
        std::env::temp_dir().join(format!("pitchside-truncated-{}.rcg.gz", std::process::id()));
    std::fs::write(&cut_gz, &gz[..gz.len() / 2]).unwrap();
    b.choose(&cut_gz.display().to_string()).await;
    let note = b
        .wait_text("#notice", "the cut archive said to be incomplete", |t| {
            t.contains(".rcg.gz") && t.contains("incomplete")
        })
        .await;
    kept_before_the_cut(&b, &note, 100, "frames inflated before the cut are kept").await;
    b.screenshot("file-truncated-gz").await;
    let _ = std::fs::remove_file(cut_gz);

    // A small file chosen while the full game is still being parsed replaces it: the first
    // parse stops and nothing of it shows up later.
    let full = fixtures::path(fixtures::FULL_V6);
    b.choose(&full.display().to_string()).await;
    b.choose(&path.display().to_string()).await;
    b.wait_text("#frames", "the short game's 679 shows", |t| {
        t.ends_with("/ 679")
    })
    .await;
    // Parsing the full game takes well under this; had it gone on, its 6489 frames would show.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let frames = b.text("#frames").await;
    assert!(
        frames.ends_with("/ 679"),
        "the replaced parse came back: {frames}"
    );
    assert_eq!(b.text("#team-l").await, "SHORT_L_a");
    assert_eq!(b.text("#error").await, "");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_links_pause_on_their_cycle_files_outlive_the_relay_and_the_page_works_offline() {
    // Two matches, so the relay has a lobby at `/` and each match its own page.
    let relay = relay_harness::start_two_bundled(Duration::from_millis(50)).await;
    let page = format!("http://{}/m/field-b", relay.addr);
    let b = Browser::start().await;

    // A link to a cycle of the live match: it opens there, paused, while the match goes on.
    b.goto(&format!("{page}#t=40")).await;
    // The page is the match's own: its cycle 40, paused, while the match goes on.
    b.wait_text("#cycle", "cycle 40 of the live match", |t| t == "40")
        .await;
    b.wait_text("#live-badge", "the badge to say how far behind", |t| {
        t.starts_with("LIVE −")
    })
    .await;
    assert_eq!(b.text("#cycle").await, "40", "a live link opens paused");
    b.screenshot("live-link-paused").await;
    // End follows the match again; the address then names no cycle.
    b.keys(&Key::End.to_string()).await;
    b.wait_text("#live-badge", "following live", |t| t == "LIVE")
        .await;
    b.wait_js(
        "return location.hash",
        "the cycle to leave the address",
        |v| v.as_str() == Some(""),
    )
    .await;

    // The service worker takes the page (127.0.0.1 is a secure context).
    b.wait_service_worker().await;

    // A file opened in the page stays when the relay goes away: the page holds no socket.
    let path = fixtures::path(fixtures::SHORT_V6);
    b.choose(&path.display().to_string()).await;
    b.wait_text("#frames", "all 679 shows", |t| t.ends_with("/ 679"))
        .await;
    relay.stop().await;
    // Longer than the first reconnect delays (0.5-1 s, then 1-2 s): a reconnect attempt
    // would have replaced the file's badge by now.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        b.text("#source").await.starts_with("File: "),
        "the file is still shown"
    );
    assert!(b.text("#frames").await.ends_with("/ 679"));
    assert_eq!(b.text("#team-l").await, "SHORT_L_a");
    assert_eq!(b.text("#error").await, "");

    // With the relay gone, the page still opens (from the service worker) and opens logs.
    b.client.refresh().await.unwrap();
    b.wait_text("#source", "the page to run without its relay", |t| {
        t.contains("relay")
    })
    .await;
    b.choose(&path.display().to_string()).await;
    b.wait_text("#frames", "all 679 shows, offline", |t| {
        t.ends_with("/ 679")
    })
    .await;
    b.keys(&Key::End.to_string()).await;
    b.wait_text("#cycle", "the last cycle", |t| t == "600")
        .await;
    assert_eq!(b.text("#score-r").await, "1");
    b.screenshot("offline-file").await;
    b.close().await;
}
