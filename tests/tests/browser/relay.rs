//! The page against the relay, in headless Chromium: the lobby lists several matches and opens
//! one at its own address; a server's refusal is explained in the page; a page opened at
//! cycle ~5000 of the full game shows the live frame quickly and can go back to cycle 1; a
//! page whose link stalls says the relay skips frames for it, and gets them back when rewound.
//!
//! Needs the web app built into `dist/` (scripts/test.sh does it) and Debian's chromium and
//! chromium-driver.

use fantoccini::key::Key;
use pitchside_tests::browser::Browser;
use pitchside_tests::fake_server::{self, FakeServer, Script};
use pitchside_tests::{capture, fixtures, relay_harness};
use relay::config::Settings;
use relay::monitor::MonitorConfig;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_the_matches_and_opens_one() {
    let relay = relay_harness::start_two_short_games(Duration::from_millis(100)).await;
    let b = Browser::start().await;
    b.open_home(relay.addr).await;
    b.wait_text("#matches", "two match cards", |t| {
        t.contains("field-a") && t.contains("field-b") && t.contains("SHORT_L_a")
    })
    .await;
    b.screenshot("lobby").await;
    b.click("li[data-match='field-b'] a").await;
    b.wait_text("#source", "the replay badge", |t| t.starts_with("Replay"))
        .await;
    let url = b.client.current_url().await.unwrap();
    assert!(url.path().ends_with("/m/field-b"), "{url}");
    b.wait_text("#team-l", "the left team", |t| t == "SHORT_L_a")
        .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_from_the_server_is_explained() {
    relay_harness::need_web_app();
    let answer = capture::split(&fixtures::read("captures/edge/maxmon2-third.dgrams.gz"))
        .unwrap()
        .remove(0);
    let server = FakeServer::start(Script {
        refuse: Some(answer),
        ..Script::default()
    })
    .await;
    let relay = relay_harness::start_following(server.addr, Duration::from_millis(300)).await;
    let b = Browser::start().await;
    b.open_home(relay.addr).await;
    b.wait_text("#error", "the refusal and what to do", |t| {
        t.contains("no_more_monitor") && t.contains("max_monitors")
    })
    .await;
    b.wait_text("#source", "a waiting badge", |t| t.starts_with("Waiting"))
        .await;
    b.screenshot("refused").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_opened_late_shows_live_at_once_and_can_seek_back() {
    relay_harness::need_web_app();
    let m = rcss_formats::parse_log(&fixtures::read(fixtures::FULL_V6));
    let served = fake_server::monitor_datagrams(&m);
    let header = served.iter().position(|(show, _)| *show).unwrap();
    let datagrams: Vec<Vec<u8>> = served.into_iter().map(|(_, d)| d).collect();
    // The first ~5000 cycles fast, then real time.
    let at_5000 = header + m.frames.iter().position(|f| f.time >= 5000).unwrap();
    let mut script = Script::new(datagrams, Duration::from_millis(1));
    script.burst = 3;
    script.slow_from = Some((at_5000, Duration::from_millis(100)));
    let server = FakeServer::start(script).await;
    let relay = relay_harness::start_following(server.addr, Duration::from_millis(200)).await;
    // Wait until the relay is at cycle 5000.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, _, body) = pitchside_tests::spectator::http_get(relay.addr, "/api/matches").await;
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        if v[0]["cycle"].as_u64().unwrap_or(0) >= 5000 {
            break;
        }
        assert!(Instant::now() < deadline, "the relay reaches cycle 5000");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let b = Browser::start().await;
    let opened = Instant::now();
    b.open_home(relay.addr).await;
    b.wait_text("#cycle", "the live cycle", |t| {
        t.parse::<u32>().is_ok_and(|c| c >= 5000)
    })
    .await;
    let live_after = opened.elapsed();
    b.wait_text("#frames", "the whole match so far", |t| {
        t.split('/')
            .nth(1)
            .and_then(|n| n.trim().parse::<usize>().ok())
            .is_some_and(|n| n >= 5400)
    })
    .await;
    let seek = Instant::now();
    b.keys(&Key::Home.to_string()).await;
    b.wait_text("#cycle", "cycle 1", |t| t == "1").await;
    let seek_after = seek.elapsed();
    eprintln!("page opened at cycle 5000: live frame after {live_after:?} (page load included), back at cycle 1 after {seek_after:?}");
    b.screenshot("late-join").await;
    // The page ran under the relay's Content-Security-Policy and broke none of it (browsers
    // report each violation to /csp-report at once; give a report a moment to arrive).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, _, metrics) = pitchside_tests::spectator::http_get(relay.addr, "/metrics").await;
    let metrics = String::from_utf8_lossy(&metrics);
    assert!(
        metrics
            .lines()
            .any(|l| l == "pitchside_csp_violations_total 0"),
        "the page broke its CSP:\n{metrics}"
    );
    // And the policy holds: a script slipped into the page does not run, and is reported.
    let blocked = b
        .client
        .execute(
            "const s = document.createElement('script'); s.textContent = 'window.slipped = 1'; \
             document.head.appendChild(s); return window.slipped === undefined;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        blocked,
        serde_json::Value::Bool(true),
        "an injected script ran"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (_, _, m) = pitchside_tests::spectator::http_get(relay.addr, "/metrics").await;
        if String::from_utf8_lossy(&m)
            .lines()
            .any(|l| l == "pitchside_csp_violations_total 1")
        {
            break;
        }
        assert!(Instant::now() < deadline, "the violation was not reported");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Bounds that tell "at once" from "after the match so far": 5,000 cycles played out at
    // the relay's pace would take minutes. How fast it really is belongs to the benches (a
    // loaded CI machine once took 5.9 s here).
    assert!(live_after < Duration::from_secs(20), "{live_after:?}");
    assert!(seek_after < Duration::from_secs(15), "{seek_after:?}");
    b.close().await;
}

/// An edge relay before any origin publishes: `/` is the lobby saying no match is relayed
/// yet; once an origin publishes, the match appears in the same page (it polls) and opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edge_lobby_waits_for_matches_and_lists_them_as_they_start() {
    use pitchside_tests::nats_server::NatsServer;
    use relay::config::{MatchSpec, SourceSpec};
    use relay::nats::NatsOptions;
    relay_harness::need_web_app();
    let nats = NatsServer::start().await;
    let mut settings = Settings::new(Vec::new());
    settings.edge = Some(NatsOptions::new(nats.url()));
    let edge = relay_harness::start_with(settings).await;
    let b = Browser::start().await;
    b.open_home(edge.addr).await;
    b.wait_text(".lobby", "the empty lobby", |t| {
        t.contains("No match is being relayed yet")
    })
    .await;
    b.screenshot("edge-lobby-empty").await;

    let script = Script::new(
        capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap(),
        Duration::from_millis(20),
    );
    let server = FakeServer::start(script).await;
    let mut mc = MonitorConfig::new(server.addr);
    mc.retry = Duration::from_millis(100);
    let mut origin_settings = Settings::new(vec![MatchSpec {
        name: "final".into(),
        source: SourceSpec::Server(mc),
    }]);
    origin_settings.publish = Some(NatsOptions::new(nats.url()));
    let origin = relay_harness::start_with(origin_settings).await;
    b.wait_text("#matches", "the origin's match in the lobby", |t| {
        t.contains("final")
    })
    .await;
    b.screenshot("edge-lobby").await;
    b.click("li[data-match='final'] a").await;
    b.wait_text("#source", "the live badge", |t| t.starts_with("Live"))
        .await;
    b.screenshot("edge-match").await;
    b.close().await;
    edge.stop().await;
    origin.stop().await;
}

/// A page the relay cannot send every frame to in time (its link stalls for two seconds)
/// says that frames are skipped to keep it live, and goes on from live frames; taken back in
/// time, it fetches the match again and has every frame, the skipped ones included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_falls_behind_says_frames_are_skipped_and_gets_them_back_when_rewound() {
    relay_harness::need_web_app();
    // The full game up to cycle 2900, 200 frames a second, once.
    let log = fixtures::read(fixtures::FULL_V6);
    let cut = log
        .windows(12)
        .position(|w| w == b"\n(show 2900 ")
        .expect("cycle 2900 in the log");
    let script = relay::replay::Script::from_log("cut.rcg", &log[..=cut]).unwrap();
    let total = script.shows();
    let mut settings = Settings::new(vec![relay_harness::replay_once(
        "cut",
        script,
        Duration::from_millis(5),
    )]);
    settings.max_delay = Duration::from_millis(300);
    settings.lag = 10_000;
    settings.send_timeout = Duration::from_secs(60);
    let relay = relay_harness::start_with(settings).await;
    let proxy = pitchside_tests::pause_proxy::PauseProxy::start(relay.addr).await;
    let b = Browser::start().await;
    b.open_home(proxy.addr).await;
    let count = |t: &str| {
        t.split('/')
            .nth(1)
            .and_then(|n| n.trim().parse::<usize>().ok())
    };
    b.wait_text("#frames", "live frames", |t| {
        count(t).is_some_and(|n| n > 0)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    proxy.pause();
    tokio::time::sleep(Duration::from_secs(2)).await;
    proxy.resume();
    let note = b
        .wait_text("#skipping", "the note that frames are skipped", |t| {
            !t.is_empty()
        })
        .await;
    assert_eq!(note, "skipping frames to stay live");
    b.screenshot("skipping-frames").await;
    // The match ends; the page has fewer frames than the relay, and still follows it.
    let deadline = Instant::now() + Duration::from_secs(60);
    while relay_frames(relay.addr).await < total {
        assert!(Instant::now() < deadline, "the replay ends");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = count(&b.text("#frames").await).unwrap();
    assert!(
        before + 100 < total,
        "{before} of {total} frames: hundreds were skipped"
    );
    let cycle = b.text("#cycle").await;
    assert!(
        cycle.parse::<u32>().unwrap() >= 2899,
        "live at the end: {cycle}"
    );
    // Back in time: the page fetches the match again, and has every frame.
    b.keys(&Key::Home.to_string()).await;
    b.wait_text("#frames", "every frame", |t| count(t) == Some(total))
        .await;
    assert_eq!(b.text("#frames").await, format!("1 / {total}"));
    b.screenshot("skipped-frames-filled-in").await;
    b.close().await;
}

/// Frames of its first match the relay holds.
async fn relay_frames(relay: std::net::SocketAddr) -> usize {
    let (_, _, body) = pitchside_tests::spectator::http_get(relay, "/api/matches").await;
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    v[0]["frames"].as_u64().unwrap_or(0) as usize
}
