//! Links in the real page (headless Chromium): every fixture log opened by address (`?log=`)
//! lands on its final score; a log the browser may not read is explained; `#t=CYCLE` opens that
//! cycle, paused, and survives a reload; the address follows the page without ever holding the
//! operator's `control=` key, and so does a copied link.
//!
//! One browser for the file. Needs `dist/` built (scripts/test.sh builds it).

use fantoccini::key::Key;
use pitchside_tests::browser::Browser;
use pitchside_tests::static_server::StaticServer;
use pitchside_tests::{fixtures, relay_harness};
use std::path::Path;
use std::time::Duration;

/// Every log fixture, as `logs/DIR/FILE`, with its checked-in summary (`tests/golden/DIR.json`).
fn log_fixtures() -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(fixtures::dir().join("logs")).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let file = f.file_name().unwrap().to_string_lossy().into_owned();
            let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("golden")
                .join(format!("{name}.json"));
            let summary = serde_json::from_str(&std::fs::read_to_string(golden).unwrap()).unwrap();
            out.push((format!("logs/{name}/{file}"), summary));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

async fn wait_loaded(b: &Browser, what: &str) {
    b.wait_text("#progress", &format!("{what} read to the end"), |t| {
        t.contains(" frames, log ")
    })
    .await;
}

/// The page's `note` on a log that stops early says where, and it shows no error: stopping
/// early is no damage.
async fn stops_early_undamaged(b: &Browser, note: &str) {
    assert!(
        note.contains("incomplete: the log stops at cycle "),
        "{note}"
    );
    assert_eq!(b.text("#error").await, "", "stopping early is no damage");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_open_logs_and_cycles_and_keep_the_operator_key_out() {
    // Two matches: the relay's `/` is a lobby, which a `?log=` link must go past.
    let relay = relay_harness::start_two_bundled(Duration::from_millis(100)).await;
    let files = StaticServer::start().await;
    let page = format!("http://{}/", relay.addr);
    let b = Browser::start().await;

    // Every log version by address, from another site that allows it: the final score.
    let logs = log_fixtures();
    assert!(logs.len() >= 11, "{logs:?}");
    for (fixture, golden) in &logs {
        let url = files.url(fixture, true);
        b.goto(&format!("{page}?log={url}")).await;
        wait_loaded(&b, fixture).await;
        assert_eq!(b.text("#error").await, "", "{fixture} opens without error");
        b.keys(&Key::End.to_string()).await;
        let last = golden["cycles"].as_u64().unwrap();
        let teams = &golden["teams"];
        let score = &golden["score"];
        b.wait_text("#cycle", "the last cycle", |t| {
            t.parse::<u64>().is_ok_and(|c| c >= last)
        })
        .await;
        // A side no team played (the 2.5D fork's one-player game) shows a dash.
        let name = |k: usize| teams[k].as_str().unwrap_or("—").to_owned();
        assert_eq!(b.text("#team-l").await, name(0), "{fixture}");
        assert_eq!(b.text("#team-r").await, name(1), "{fixture}");
        assert_eq!(b.text("#score-l").await, score[0].to_string(), "{fixture}");
        assert_eq!(b.text("#score-r").await, score[1].to_string(), "{fixture}");
        if let Some(p) = golden["penalties"].as_array() {
            let p: Vec<u64> = p.iter().map(|v| v.as_u64().unwrap()).collect();
            // The tally and one dot per kick taken (● scored, ○ missed).
            for (css, scored, missed) in [("#pen-l", p[0], p[1]), ("#pen-r", p[2], p[3])] {
                let text = b.text(css).await;
                // The right team's dots stand on its outer side: before the tally.
                let tally = text.split(' ').find(|w| w.contains('/')).unwrap_or("");
                let dots = text.as_str();
                assert_eq!(
                    tally,
                    format!("{scored}/{}", scored + missed),
                    "{fixture} {css}: {text}"
                );
                assert_eq!(
                    dots.matches('●').count() as u64,
                    scored,
                    "{fixture} {css}: {text}"
                );
                assert_eq!(
                    dots.matches('○').count() as u64,
                    missed,
                    "{fixture} {css}: {text}"
                );
            }
        }
        assert!(
            b.text("#source").await.starts_with("Web: "),
            "{fixture}: the badge names the log"
        );
        eprintln!("{fixture}: {} {}-{}", teams, score[0], score[1]);
    }
    b.screenshot("link-log-final").await;

    // A site that does not allow other pages to read its files: the page says why.
    let refused = files.url(fixtures::SHORT_V6, false);
    b.goto(&format!("{page}?log={refused}")).await;
    let err = b
        .wait_text("#error", "an explanation of the refused download", |t| {
            !t.is_empty()
        })
        .await;
    assert!(
        err.contains("Cannot download") && err.contains("CORS"),
        "{err}"
    );
    assert!(err.contains("drop it on the page"), "{err}");
    b.screenshot("link-log-cors").await;

    // Logs that stop early say so the same way whatever their version. A JSON log whose
    // array is never closed (the server was killed), here a gzip file cut too: every
    // complete frame plays and the page says where it stops.
    let json = fixtures::read(fixtures::SHORT_JSON);
    let cut = std::env::temp_dir().join(format!("pitchside-incomplete-{}.rcg", std::process::id()));
    std::fs::write(&cut, &json[..json.len() / 2]).unwrap();
    b.choose(&cut.display().to_string()).await;
    let note = b
        .wait_text("#notice", "the incomplete log explained", |t| {
            t.contains("incomplete")
        })
        .await;
    stops_early_undamaged(&b, &note).await;
    b.screenshot("file-incomplete-json").await;
    // A text log that stops at a line before time over: the same words.
    let text = fixtures::read(fixtures::SHORT_V6);
    let mut end = text.len() / 2;
    while text[end - 1] != b'\n' {
        end -= 1;
    }
    let early = std::env::temp_dir().join(format!("pitchside-early-{}.rcg", std::process::id()));
    std::fs::write(&early, &text[..end]).unwrap();
    b.choose(&early.display().to_string()).await;
    let note = b
        .wait_text("#notice", "the early end noted", |t| {
            t.contains("pitchside-early") && t.contains("incomplete")
        })
        .await;
    stops_early_undamaged(&b, &note).await;
    b.screenshot("file-ends-early").await;
    let _ = std::fs::remove_file(cut);
    let _ = std::fs::remove_file(early);

    // A link to a cycle: the full game opens there, paused, with the operator's key in the
    // fragment, which the page reads but never writes back.
    let full = files.url(fixtures::FULL_V6, true);
    let link = format!("{page}?log={full}#control=op%20secret&view=wide&t=2345");
    b.goto(&link).await;
    b.wait_text("#cycle", "cycle 2345", |t| t == "2345").await;
    wait_loaded(&b, "the full game").await;
    assert_eq!(b.text("#cycle").await, "2345", "a link opens paused");
    assert_eq!(b.text("#playmode").await, "play on");
    let url = b.url().await;
    assert!(!url.contains("control") && !url.contains("secret"), "{url}");
    assert!(url.contains("view=wide") && url.contains("t=2345"), "{url}");
    assert!(url.contains(&format!("log={full}")), "{url}");
    b.screenshot("link-cycle-2345").await;

    // No frame for cycle 3000 (half time) in a text log: the next cycle that exists.
    b.goto(&format!("{page}?log={full}#t=3000")).await;
    b.wait_text("#cycle", "cycle 3001", |t| t == "3001").await;

    // The address follows the page (throttled), and a reload opens the same moment.
    b.keys(&format!("{}{}", Key::Shift, Key::Right)).await;
    b.wait_text("#cycle", "cycle 3101", |t| t == "3101").await;
    b.wait_js("return location.hash", "the address to follow", |v| {
        v.as_str() == Some("#t=3101")
    })
    .await;
    b.client.refresh().await.unwrap();
    b.wait_text("#cycle", "cycle 3101 after a reload", |t| t == "3101")
        .await;
    wait_loaded(&b, "the full game again").await;
    assert_eq!(b.text("#cycle").await, "3101");

    // Copy link: the same moment, never the operator's key.
    b.goto(&format!("{page}?log={full}#t=1863&control=k3y"))
        .await;
    b.wait_text("#cycle", "cycle 1863", |t| t == "1863").await;
    b.click("#copy-link").await;
    let copied = b
        .wait_text("#copied-link", "the copied link", |t| !t.is_empty())
        .await;
    assert!(copied.contains("#t=1863"), "{copied}");
    assert!(copied.contains(&format!("?log={full}")), "{copied}");
    assert!(
        !copied.contains("control") && !copied.contains("k3y"),
        "{copied}"
    );
    b.screenshot("link-copied").await;
    // The copied link opens the same moment.
    b.goto(&copied).await;
    b.wait_text("#cycle", "cycle 1863 from the copied link", |t| t == "1863")
        .await;
    b.close().await;
}
