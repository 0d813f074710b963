//! Time control in the real page (headless Chromium), on the full 6000-cycle game opened by
//! address: the cycle box, steps and jumps, the speed presets (checked against the page's own
//! clock), backward play, settings that survive a reload, and exports (a PNG and a WebM clip
//! saved as non-empty files).
//!
//! One browser for the file. Needs `dist/` built (scripts/test.sh builds it).

use fantoccini::key::Key;
use fantoccini::Locator;
use pitchside_tests::browser::Browser;
use pitchside_tests::static_server::StaticServer;
use pitchside_tests::{fixtures, relay_harness};
use relay::Source;
use std::time::Duration;

async fn cycle(b: &Browser) -> u32 {
    b.text("#cycle").await.parse().unwrap_or(0)
}

/// The index of the frame on screen, from the `#frames` readout ("12 / 6489").
const FRAME_JS: &str =
    "return parseInt(document.getElementById('frames').textContent.split(' / ')[0], 10)";

/// Frames played per second of the page's own clock, measured over at least `ms`.
async fn frames_per_second(b: &Browser, ms: f64) -> f64 {
    let f0 = b
        .eval(&format!("window.__t0 = performance.now(); {}", FRAME_JS))
        .await
        .as_f64()
        .unwrap();
    let v = b
        .wait_js(
            &format!(
                "const t = performance.now() - window.__t0; if (t < {ms}) return null; \
                 return [t, parseInt(document.getElementById('frames').textContent.split(' / ')[0], 10)];"
            ),
            "time to pass on the page's clock",
            |v| v.is_array(),
        )
        .await;
    let t = v[0].as_f64().unwrap();
    let f1 = v[1].as_f64().unwrap();
    (f1 - f0) / (t / 1000.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transport_moves_time_as_asked_settings_persist_and_exports_save() {
    relay_harness::need_web_app();
    let script =
        relay::replay::Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)
            .unwrap();
    let relay = relay_harness::start(Source::Replay {
        script,
        step: Duration::from_millis(100),
    })
    .await;
    let files = StaticServer::start().await;
    let full = files.url(fixtures::FULL_V6, true);
    let page = format!("http://{}/?log={full}", relay.addr);
    let b = Browser::start().await;
    b.goto(&format!("{page}#t=1000")).await;
    b.wait_text("#progress", "the full game read", |t| {
        t.contains(" frames, log ")
    })
    .await;
    b.wait_text("#cycle", "cycle 1000", |t| t == "1000").await;

    // The cycle box: T puts the cursor there, a number and Enter go to that cycle.
    b.keys("t").await;
    let boxed = b.client.active_element().await.unwrap();
    assert_eq!(
        boxed.attr("id").await.unwrap().as_deref(),
        Some("cycle-box")
    );
    boxed
        .send_keys(&format!("2345{}", Key::Enter))
        .await
        .unwrap();
    b.wait_text("#cycle", "cycle 2345", |t| t == "2345").await;
    // A cycle with no frame (half time) lands on the next one that exists.
    b.type_cycle(3000).await;
    b.wait_text("#cycle", "cycle 3001", |t| t == "3001").await;

    // Buttons: ±100 cycles, ±1 frame, first and last.
    b.click("#fwd-100").await;
    b.wait_text("#cycle", "cycle 3101", |t| t == "3101").await;
    b.click("#back-100").await;
    b.click("#back-100").await;
    b.wait_text("#cycle", "cycle 2901", |t| t == "2901").await;
    b.click("#fwd-1").await;
    b.wait_text("#cycle", "cycle 2902", |t| t == "2902").await;
    b.click("#back-1").await;
    b.wait_text("#cycle", "cycle 2901", |t| t == "2901").await;
    b.click("#last").await;
    b.wait_text("#cycle", "the last cycle", |t| t == "6000")
        .await;
    b.click("#first").await;
    b.wait_text("#cycle", "the first cycle", |t| t == "1").await;
    // Shift+→ from inside a stoppage: cycle 272 (a goal) repeats; 100 cycles on is 372.
    b.type_cycle(272).await;
    b.wait_text("#cycle", "cycle 272", |t| t == "272").await;
    b.keys(&Key::Right.to_string()).await;
    b.wait_js(FRAME_JS, "a step inside the stoppage", |v| {
        v.as_u64().is_some()
    })
    .await;
    assert_eq!(
        cycle(&b).await,
        272,
        "the goal's stoppage repeats cycle 272"
    );
    b.keys(&format!("{}{}", Key::Shift, Key::Right)).await;
    b.wait_text("#cycle", "cycle 372", |t| t == "372").await;

    // Speed presets: 1× plays ten frames a second of the page's clock, 4× forty.
    b.type_cycle(1000).await;
    b.wait_text("#cycle", "cycle 1000", |t| t == "1000").await;
    b.click("button.speed[data-speed='1']").await;
    assert_eq!(b.text("#speed").await, "1×");
    b.click("#play").await;
    let normal = frames_per_second(&b, 2000.0).await;
    b.click("button.speed[data-speed='4']").await;
    assert_eq!(b.text("#speed").await, "4×");
    let fast = frames_per_second(&b, 2000.0).await;
    eprintln!("1×: {normal:.1} frames/s, 4×: {fast:.1} frames/s");
    assert!(
        (7.0..=12.0).contains(&normal),
        "1× plays {normal:.1} frames/s"
    );
    assert!((28.0..=46.0).contains(&fast), "4× plays {fast:.1} frames/s");
    b.screenshot("transport-playing-4x").await;

    // Backward play: R turns playback around; time goes down.
    b.keys("r").await;
    b.wait_text("#speed", "the backward readout", |t| t.starts_with('◀'))
        .await;
    let back = frames_per_second(&b, 1000.0).await;
    assert!(back < -20.0, "backward at 4× plays {back:.1} frames/s");
    b.click("#play-back").await; // pause
    let paused_at = b.eval(FRAME_JS).await;
    let still = frames_per_second(&b, 500.0).await;
    assert_eq!(still, 0.0, "paused at frame {paused_at}");
    b.screenshot("transport-backward-paused").await;

    // Settings survive a reload: speed 8× and no autoplay.
    b.click("button.speed[data-speed='8']").await;
    b.click("#settings-toggle").await;
    b.click("#setting-autoplay").await;
    let saved = b
        .eval("return localStorage.getItem('pitchside.settings.v1')")
        .await;
    let saved: serde_json::Value = serde_json::from_str(saved.as_str().unwrap()).unwrap();
    assert_eq!(saved["playback"]["speed"], 8.0);
    assert_eq!(saved["playback"]["autoplay"], false);
    b.screenshot("settings-open").await;
    b.goto(&page).await;
    b.wait_text("#progress", "the full game read again", |t| {
        t.contains(" frames, log ")
    })
    .await;
    assert_eq!(b.text("#speed").await, "8×");
    assert_eq!(
        b.text("#cycle").await,
        "1",
        "without autoplay the log waits at its first frame"
    );
    b.click("#settings-toggle").await;
    let autoplay = b
        .client
        .find(Locator::Css("#setting-autoplay"))
        .await
        .unwrap()
        .prop("checked")
        .await
        .unwrap();
    assert_eq!(autoplay.as_deref(), Some("false"));
    b.click("#settings-toggle").await;

    // G visits every goal of the game on its first cycle; Shift+G goes back.
    let mut goals = Vec::new();
    for _ in 0..5 {
        let before = b.text("#cycle").await;
        b.keys("g").await;
        let now = b
            .wait_text("#cycle", "the next goal", |t| t != before)
            .await;
        assert_eq!(b.text("#playmode").await.split(' ').next(), Some("goal"));
        goals.push(now.parse::<u32>().unwrap());
    }
    assert_eq!(goals, [272, 1863, 3166, 3456, 4871]);
    b.keys(&format!("{}g", Key::Shift)).await;
    b.wait_text("#cycle", "the previous goal", |t| t == "3456")
        .await;
    // The events list: each goal is there, and a click goes to its cycle.
    let listed = b
        .eval(
            "return [...document.querySelectorAll('#events li.goal')].map(li => +li.dataset.cycle)",
        )
        .await;
    assert_eq!(listed, serde_json::json!([272, 1863, 3166, 3456, 4871]));
    b.click("#events li.goal[data-cycle='1863'] button").await;
    b.wait_text("#cycle", "the clicked goal", |t| t == "1863")
        .await;
    // N moves to the next event after the goal (its kick-off).
    b.keys("n").await;
    b.wait_text("#playmode", "the kick-off after the goal", |t| {
        t.starts_with("kick off")
    })
    .await;
    // Statistics up to the frame on screen, with the definitions.
    b.click("#stats-toggle").await;
    let possession = b
        .wait_text("#stat-possession", "possession figures", |t| {
            t.contains('%')
        })
        .await;
    eprintln!("possession at {}: {possession}", b.text("#cycle").await);
    assert_eq!(
        b.eval("return document.querySelectorAll('.definitions dt').length")
            .await,
        serde_json::json!(9)
    );
    b.screenshot("events-and-stats").await;
    b.click("#events-toggle").await;
    b.screenshot("stats").await;

    // Exports: the frame as a PNG, 30 cycles at 4× as a WebM, both saved as non-empty files.
    b.click("button.speed[data-speed='4']").await;
    b.click("#export-toggle").await;
    b.click("#export-png").await;
    let png = b.wait_download(".png").await;
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "{} is a PNG", png.display());
    assert!(
        bytes.len() > 10_000,
        "{} has a picture: {} bytes",
        png.display(),
        bytes.len()
    );
    let from = b.client.find(Locator::Css("#clip-from")).await.unwrap();
    from.clear().await.unwrap();
    from.send_keys("1200").await.unwrap();
    let to = b.client.find(Locator::Css("#clip-to")).await.unwrap();
    to.clear().await.unwrap();
    to.send_keys("1230").await.unwrap();
    b.screenshot("export-panel").await;
    b.click("#export-clip").await;
    let webm = b.wait_download(".webm").await;
    let bytes = std::fs::read(&webm).unwrap();
    assert!(
        bytes.starts_with(&[0x1a, 0x45, 0xdf, 0xa3]),
        "{} is a WebM (EBML header)",
        webm.display()
    );
    assert!(
        bytes.len() > 1000,
        "{}: {} bytes",
        webm.display(),
        bytes.len()
    );
    let status = b.text("#export-status").await;
    assert!(status.contains("cycles-1200-1230.webm"), "{status}");
    assert!(cycle(&b).await >= 1230, "the clip played to its end");
    eprintln!(
        "png {} bytes, webm {} bytes",
        std::fs::metadata(&png).unwrap().len(),
        bytes.len()
    );
    b.screenshot("export-saved").await;
    b.close().await;
}
