//! Fake rcssserver (replaying real captures) -> relay -> WebSocket spectators decoding the
//! wire with `shared`, as the page does: every protocol and compression end to end, trust
//! rules, refusals, restarts, late joiners, several matches, downloads.

use pitchside_tests::fake_server::{self, FakeServer, Script};
use pitchside_tests::spectator::{assert_has_all, http_get, Spectator};
use pitchside_tests::{capture, fixtures, relay_harness};
use pitchside_wire::feed::FeedSource;
use pitchside_wire::Notice;
use rcss_formats::datagram::{is_zlib, parse_datagram, Datagram};
use rcss_formats::{PlayMode, Record};
use relay::config::Settings;
use relay::monitor::{MonitorConfig, Protocol};
use relay::Source;
use std::time::Duration;

fn monitor(server: &FakeServer, protocol: Protocol, compression: Option<i32>) -> MonitorConfig {
    let mut mc = MonitorConfig::new(server.addr);
    mc.protocol = protocol;
    mc.compression = compression;
    mc.retry = Duration::from_millis(300);
    mc
}

fn same_records(got: &[Record], want: &[Record], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: number of records");
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        assert!(a == b, "{what}: record {i} differs:\n{a:?}\n{b:?}");
    }
}

/// One capture through the relay: a spectator decodes exactly the capture's records, the
/// server heard the right init (and compression request), and the goodbye at shutdown comes
/// zlib-compressed when compression is on.
async fn end_to_end(file: &str, protocol: &str, compression: Option<i32>) {
    let datagrams = capture::split(&fixtures::read(file)).unwrap();
    let want = capture::records(&datagrams);
    let mut script = Script::new(datagrams, Duration::from_millis(1));
    script.burst = 4;
    let server = FakeServer::start(script).await;
    let protocol: Protocol = protocol.parse().unwrap();
    let relay = relay_harness::start(Source::Server(monitor(&server, protocol, compression))).await;
    let mut s = Spectator::connect(relay.addr, "/ws").await;
    s.until(60, "every record of the capture", |s| {
        s.records().len() >= want.len()
    })
    .await;
    same_records(&s.records(), &want, file);
    assert!(
        s.notices().iter().any(|n| matches!(
            n,
            Notice::Feed {
                source: FeedSource::Live,
                ..
            }
        )),
        "{file}: the feed is announced live: {:?}",
        s.notices()
    );
    relay.stop().await;
    // The goodbye left before the relay stopped; give the fake server a moment to read it.
    for _ in 0..100 {
        if server.commands_plain().last().map(Vec::as_slice) == Some(&b"(dispbye)\0"[..]) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let received = server.received.lock().unwrap().clone();
    let init = format!("{}\0", protocol.init());
    assert_eq!(
        received[0].bytes,
        init.as_bytes(),
        "{file}: the init, NUL-terminated, to the player port"
    );
    assert!(received[0].on_player_port);
    let commands = server.commands_plain();
    if let Some(n) = compression {
        assert_eq!(
            commands.first().map(Vec::as_slice),
            Some(format!("(compression {n})\0").as_bytes()),
            "{file}: compression is asked for on the monitor port: {commands:?}"
        );
    }
    assert_eq!(
        commands.last().map(Vec::as_slice),
        Some(&b"(dispbye)\0"[..]),
        "{file}: goodbye at shutdown"
    );
    let raw_bye = server.commands.lock().unwrap().last().cloned().unwrap();
    assert_eq!(
        is_zlib(&raw_bye),
        compression.is_some(),
        "{file}: commands are compressed exactly when compression is on"
    );
}

macro_rules! protocol_tests {
    ($($name:ident: $i:expr;)*) => {$(
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let (file, protocol, compression) = fixtures::PROTOCOL_CAPTURES[$i];
            end_to_end(file, protocol, compression).await;
        }
    )*};
}

protocol_tests! {
    protocol_1_binary: 0;
    protocol_2_binary: 1;
    protocol_3_text: 2;
    protocol_4_text: 3;
    protocol_4_with_v3_and_v5_shows_mixed_in: 4;
    protocol_5_text: 5;
    protocol_json: 6;
    protocol_5_compression_6: 7;
    protocol_json_compression_6: 8;
    protocol_1_compression_1: 9;
    protocol_5_compression_0_is_still_zlib: 10;
}

/// Refusals from the player port reach the page with what to do about them, and the relay
/// keeps asking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_refusals_are_shown_with_a_hint() {
    for (file, error, hint) in [
        (
            "captures/edge/maxmon2-third.dgrams.gz",
            "no_more_monitor",
            "max_monitors",
        ),
        (
            "captures/edge/dispinit-version-6.dgrams.gz",
            "illegal_client_version",
            "--protocol",
        ),
    ] {
        let answer = capture::split(&fixtures::read(file)).unwrap().remove(0);
        let server = FakeServer::start(Script {
            refuse: Some(answer),
            ..Script::default()
        })
        .await;
        let relay =
            relay_harness::start(Source::Server(monitor(&server, Protocol::V5, None))).await;
        let mut s = Spectator::connect(relay.addr, "/ws").await;
        s.until(10, "the server's error", |s| {
            s.notices()
                .iter()
                .any(|n| matches!(n, Notice::ServerError { text, hint: h } if text == error && h.contains(hint)))
        })
        .await;
        s.until(10, "the feed to say so", |s| {
            s.notices().iter().any(|n| matches!(n, Notice::Feed { source: FeedSource::Waiting, label } if label.contains(error)))
        })
        .await;
        // A page that opens now sees the error too.
        let mut late = Spectator::connect(relay.addr, "/ws").await;
        late.until(10, "the error for a new page", |s| {
            s.notices()
                .iter()
                .any(|n| matches!(n, Notice::ServerError { text, .. } if text == error))
        })
        .await;
        let asked = std::time::Instant::now();
        while server.inits.load(std::sync::atomic::Ordering::SeqCst) < 2
            && asked.elapsed() < Duration::from_secs(10)
        {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            server.inits.load(std::sync::atomic::Ordering::SeqCst) >= 2,
            "the relay keeps asking"
        );
    }
}

/// Before registration only the server's host speaking the requested protocol is believed;
/// after, only the monitor port. Garbage never stops the relay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_datagrams_before_and_after_registration_are_ignored() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let want = capture::records(&datagrams);
    // A well-formed show nobody sent: time 4242.
    let forged_show = {
        let mut d = datagrams[200].clone();
        let text = String::from_utf8(d.clone()).unwrap();
        let time = text.split_whitespace().nth(1).unwrap().to_owned();
        d = text.replacen(&time, "4242", 1).into_bytes();
        d
    };
    let json_show = capture::split(&fixtures::read("captures/F1/json.dgrams.gz"))
        .unwrap()
        .into_iter()
        .find(|d| d.starts_with(b"{\"show\""))
        .unwrap();
    let mut script = Script::new(datagrams.clone(), Duration::from_millis(1));
    script.burst = 4;
    script.delay = Duration::from_millis(300);
    script.before_answer = vec![
        // From another host, in the right protocol.
        ("127.0.0.2".parse().unwrap(), forged_show.clone()),
        // From the server's host, but not what a v3 answer looks like.
        ("127.0.0.1".parse().unwrap(), json_show),
    ];
    script.garbage_at = vec![
        (30, b"\x01\x02garbage that is no datagram".to_vec()),
        (31, b"(show 12 (pm 3) truncated".to_vec()),
        (32, vec![0x78, 0x9c, 0xff, 0x00]),
    ];
    // After registration, from a port that is not the monitor's.
    script.spoof_at = vec![(40, forged_show), (41, datagrams[0].clone())];
    let server = FakeServer::start(script).await;
    let mut mc = monitor(&server, Protocol::V3, None);
    mc.retry = Duration::from_secs(2);
    let relay = relay_harness::start(Source::Server(mc)).await;
    let mut s = Spectator::connect(relay.addr, "/ws").await;
    s.until(60, "every record of the capture", |s| {
        s.records().len() >= want.len()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    same_records(&s.records(), &want, "v5 capture with forgeries");
    assert!(s.frames().iter().all(|f| f.time != 4242));
    let (status, _, body) = http_get(relay.addr, "/metrics").await;
    assert_eq!(status, 200);
    let metrics = String::from_utf8(body).unwrap();
    let ignored: f64 = metrics
        .lines()
        .find(|l| l.starts_with("pitchside_datagrams_ignored_total{"))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(
        ignored >= 7.0,
        "2 forgeries before, 3 garbage, 2 after: {ignored}\n{metrics}"
    );
    let (status, _, body) = http_get(relay.addr, "/healthz").await;
    assert_eq!((status, &body[..]), (200, &b"ok"[..]));
}

/// The server goes quiet mid-match and comes back with another: spectators stay connected,
/// are told "new match", and get the new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_is_a_new_match_for_connected_spectators() {
    let first = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap()[..150].to_vec();
    // The server sends its parameters first on every registration; the game-end fixture keeps
    // only the last datagrams, so the same server's parameters go in front.
    let mut second = first[..20].to_vec();
    second.extend(capture::split(&fixtures::read(fixtures::V5_GAME_END)).unwrap());
    let want_second = capture::records(&second);
    let mut a = Script::new(first.clone(), Duration::from_millis(1));
    a.burst = 4;
    let mut b = Script::new(second, Duration::from_millis(1));
    b.burst = 4;
    let server = FakeServer::start_sessions(vec![a, b]).await;
    let mut mc = monitor(&server, Protocol::V5, None);
    mc.silence = Duration::from_millis(500);
    let relay = relay_harness::start(Source::Server(mc)).await;
    let mut s = Spectator::connect(relay.addr, "/ws").await;
    s.until(30, "the first match", |s| {
        s.records().len() >= capture::records(&first).len()
    })
    .await;
    s.until(30, "the second match, whole", |s| {
        s.notices()
            .iter()
            .any(|n| matches!(n, Notice::NewMatch { number: 2 }))
            && s.current_match().len() >= want_second.len()
    })
    .await;
    same_records(&s.current_match(), &want_second, "second match");
    assert!(s.closed.is_none());
    assert!(
        s.notices().iter().any(|n| matches!(n, Notice::Feed { source: FeedSource::Waiting, label } if label.contains("quiet"))),
        "{:?}",
        s.notices()
    );
    // Two registrations at least (the NewMatch above proves the second); the relay may
    // already have asked again after the second match's end went quiet.
    assert!(server.inits.load(std::sync::atomic::Ordering::SeqCst) >= 2);
}

/// The full real game from a fake server at high speed; a spectator that joins at cycle
/// ~1000 gets every frame since registration exactly once, in order, then live: the same
/// frames as one that watched from the start. The backlog comes in a few large messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_joiner_gets_every_frame_once_in_order_then_live() {
    let log = fixtures::read(fixtures::FULL_V6);
    let m = rcss_formats::parse_log(&log);
    let datagrams: Vec<Vec<u8>> = fake_server::monitor_datagrams(&m)
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    let want = capture::records(&datagrams);
    let shows = m.frames.len();
    let mut script = Script::new(datagrams, Duration::from_millis(1));
    script.burst = 3;
    let server = FakeServer::start(script).await;
    let mut settings = Settings::new(vec![
        Source::Server(monitor(&server, Protocol::V5, None)).into_spec()
    ]);
    // Nobody here is slow: a skip would be a bug.
    settings.lag = 100_000;
    let relay = relay_harness::start_with(settings).await;
    let mut early = Spectator::connect(relay.addr, "/ws").await;
    early
        .until(60, "cycle 1000", |s| {
            s.frames().last().is_some_and(|f| f.time >= 1000)
        })
        .await;
    let joined = std::time::Instant::now();
    let mut late = Spectator::connect(relay.addr, "/ws").await;
    late.until(30, "the backlog", |s| s.backlog.is_some()).await;
    let caught_up = joined.elapsed();
    let (messages, bytes) = late.backlog.unwrap();
    let backlog_frames = late.frames().len();
    eprintln!(
        "late joiner: {backlog_frames} frames of backlog in {messages} messages, {bytes} bytes, live after {caught_up:?}"
    );
    assert!(backlog_frames >= 1000);
    assert!(messages < 40, "{messages} messages of backlog");
    // How soon it is live is a speed figure (printed above; BENCHMARKS.md), not a test's.
    assert!(bytes < 5_000_000);
    let (early_task, late_task) = tokio::join!(
        early.until(120, "the whole game", |s| s.frames().len() >= shows),
        late.until(120, "the whole game", |s| s.frames().len() >= shows),
    );
    let _ = (early_task, late_task);
    same_records(&early.records(), &want, "early spectator");
    same_records(&late.records(), &want, "late joiner");
    assert!(late
        .notices()
        .iter()
        .all(|n| !matches!(n, Notice::Skipped { .. })));
}

/// Three matches on one relay: their URLs, `/ws` for the first, `/api/matches`, metrics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_matches_have_their_own_urls_and_api_entries() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let mut script = Script::new(datagrams, Duration::from_millis(5));
    script.burst = 2;
    let server = FakeServer::start(script).await;
    let short =
        relay::replay::Script::from_log("short.rcg", &fixtures::read(fixtures::SHORT_V6)).unwrap();
    let v2 =
        relay::replay::Script::from_log("v2.rcg", &fixtures::read(fixtures::SHORT_V2)).unwrap();
    let mut specs = vec![
        Source::Replay {
            script: short,
            step: Duration::from_millis(20),
        }
        .into_spec(),
        Source::Replay {
            script: v2,
            step: Duration::from_millis(20),
        }
        .into_spec(),
        Source::Server(monitor(&server, Protocol::V5, None)).into_spec(),
    ];
    specs[0].name = "field-a".into();
    specs[1].name = "field-b".into();
    specs[2].name = "field-c".into();
    let relay = relay_harness::start_with(Settings::new(specs)).await;

    let mut b = Spectator::connect(relay.addr, "/m/field-b/ws").await;
    b.until(10, "frames of field-b", |s| s.frames().len() > 5)
        .await;
    assert!(b
        .events
        .iter()
        .any(|e| matches!(e, pitchside_wire::Event::Hello(h) if h.match_name == "field-b")));
    assert_eq!(
        b.frames()[0].teams[0].name.as_deref(),
        Some("SHORT_L_a"),
        "the v2 log's teams"
    );
    let mut first = Spectator::connect(relay.addr, "/ws").await;
    first
        .until(10, "frames of field-a", |s| s.frames().len() > 5)
        .await;
    assert!(first
        .events
        .iter()
        .any(|e| matches!(e, pitchside_wire::Event::Hello(h) if h.match_name == "field-a")));
    let mut c = Spectator::connect(relay.addr, "/m/field-c/ws").await;
    c.until(20, "frames of field-c", |s| {
        s.frames().last().is_some_and(|f| f.time > 1040)
    })
    .await;

    let (status, head, body) = http_get(relay.addr, "/api/matches").await;
    assert_eq!(status, 200, "{head}");
    assert!(head.to_ascii_lowercase().contains("application/json"));
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3);
    let names: Vec<_> = list.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["field-a", "field-b", "field-c"]);
    assert_eq!(list[0]["source"], "replay");
    assert_eq!(list[2]["source"], "live");
    assert_eq!(
        list[2]["teams"],
        serde_json::json!(["HELIOS_L", "HELIOS_R"])
    );
    assert_eq!(list[2]["score"], serde_json::json!([0, 1]));
    assert!(list[2]["cycle"].as_u64().unwrap() > 1040);
    assert!(list[2]["playmode"].is_string());
    assert_eq!(list[1]["spectators"], 1);
    assert_eq!(list[0]["url"], "/m/field-a");

    assert_eq!(http_get(relay.addr, "/m/field-b").await.0, 200);
    assert_eq!(http_get(relay.addr, "/m/nope").await.0, 404);
    assert_eq!(http_get(relay.addr, "/m/nope/ws").await.0, 404);
    let (_, _, metrics) = http_get(relay.addr, "/metrics").await;
    let metrics = String::from_utf8(metrics).unwrap();
    assert_has_all(
        &metrics,
        &[
            "pitchside_spectators{match=\"field-c\"} 1",
            "pitchside_frames_in_total{match=\"field-b\"}",
            "pitchside_bytes_out_total{match=\"field-a\"}",
            "pitchside_refused_total 0",
        ],
        "/metrics",
    );
}

/// A spectator who watched the `records` of the whole capture `server` plays arrive through
/// `relay`, and the match's `.rcg` download then, which must succeed: (spectator, head, body).
async fn download_whole(
    relay: &relay_harness::RunningRelay,
    server: &FakeServer,
    records: usize,
) -> (Spectator, String, Vec<u8>) {
    let mut s = Spectator::connect(relay.addr, "/ws").await;
    s.until(60, "the whole capture", |s| s.records().len() >= records)
        .await;
    let name = server.addr.to_string().replace(':', "-");
    let (status, head, body) = http_get(relay.addr, &format!("/m/{name}/match.rcg")).await;
    assert_eq!(status, 200, "{head}");
    (s, head, body)
}

/// The `.rcg` download parses with `shared` to the frames the spectators got (outside
/// before_kick_off, which the server's own logs leave out too), under rcssserver's file name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_downloaded_log_holds_what_spectators_saw() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_OPERATOR)).unwrap();
    let want = capture::records(&datagrams);
    let mut script = Script::new(datagrams, Duration::from_millis(1));
    script.burst = 4;
    let server = FakeServer::start(script).await;
    let relay = relay_harness::start(Source::Server(monitor(&server, Protocol::V5, None))).await;
    let (s, head, body) = download_whole(&relay, &server, want.len()).await;
    let file = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("content-disposition"))
        .unwrap()
        .to_owned();
    let m = rcss_formats::parse_log(&body);
    assert!(m.error.is_none(), "{:?}", m.error);
    let seen: Vec<_> = s
        .frames()
        .into_iter()
        .filter(|f| f.mode != PlayMode::BEFORE_KICK_OFF)
        .cloned()
        .collect();
    assert!(seen.len() > 300);
    assert_eq!(m.frames.len(), seen.len());
    for (i, (a, b)) in m.frames.iter().zip(&seen).enumerate() {
        assert!(a == b, "frame {i} differs:\n{a:?}\n{b:?}");
    }
    let teams = m.final_teams();
    let expect = format!(
        "-{}_{}-vs-{}_{}.rcg\"",
        teams[0].name.as_deref().unwrap(),
        teams[0].score,
        teams[1].name.as_deref().unwrap(),
        teams[1].score
    );
    assert!(file.ends_with(&expect), "{file} ends with {expect}");
}

/// A replayed penalty shoot-out: the download ends at time over with the server's result
/// line, and is named with the penalty goals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shootout_download_is_named_with_penalties() {
    let script =
        relay::replay::Script::from_log("pen.rcg", &fixtures::read(fixtures::PENALTY_V6)).unwrap();
    let shows = script.shows();
    // Played once, so that the match is still there when the test asks for it.
    let relay = relay_harness::start_with(Settings::new(vec![relay_harness::replay_once(
        "pen",
        script,
        Duration::from_millis(1),
    )]))
    .await;
    let mut s = Spectator::connect(relay.addr, "/ws").await;
    s.until(60, "the whole shoot-out", |s| {
        s.current_match()
            .iter()
            .filter(|r| matches!(r, Record::Show(_)))
            .count()
            >= shows
    })
    .await;
    let (status, head, body) = http_get(relay.addr, "/m/pen/match.rcg").await;
    assert_eq!(status, 200);
    assert!(head.contains("-PEN_L_0_4-vs-PEN_R_0_2.rcg\""), "{head}");
    let text = String::from_utf8_lossy(&body);
    assert!(text.starts_with("ULG6\n(server_param "));
    assert!(
        text.contains("(msg 1109 1 \"(result ") && text.contains("PEN_L_0_4-vs-PEN_R_0_2)\")"),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
    assert!(text
        .trim_end()
        .ends_with("(team 1109 PEN_L PEN_R 0 0 4 1 2 2)"));
}

/// `--record` of a replayed ULG6 log writes it back line for line as rcssserver did (only the
/// `(result …)` line differs: it carries the relay's date), and renames the file at time over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recording_is_the_servers_log_line_for_line_and_renamed_at_time_over() {
    let original = fixtures::read(fixtures::SHORT_V6);
    let (settings, dir) =
        relay_harness::recorded_replay("short", &original, Duration::from_millis(1), "rec");
    let relay = relay_harness::start_with(settings).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let file = loop {
        // Logs only: the archive keeps its index (`.pitchside-index.json`) beside them.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| !n.starts_with('.'))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(n) = names.iter().find(|n| !n.starts_with("incomplete-")) {
            assert_eq!(names.len(), 1, "{names:?}");
            break dir.join(n);
        }
        assert!(
            std::time::Instant::now() < deadline,
            "renamed at time over: {names:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        file.to_string_lossy()
            .ends_with("-SHORT_L_a_0-vs-SHORT_R_a_1.rcg"),
        "{}",
        file.display()
    );
    let recorded = std::fs::read(&file).unwrap();
    let lines =
        |b: &[u8]| -> Vec<Vec<u8>> { b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect() };
    let (a, b) = (lines(&original), lines(&recorded));
    assert_eq!(a.len(), b.len(), "line count");
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x.starts_with(b"(msg 600 1 \"(result ") {
            assert!(
                y.starts_with(b"(msg 600 1 \"(result ")
                    && y.ends_with(b" SHORT_L_a_0-vs-SHORT_R_a_1)\")")
            );
            continue;
        }
        assert!(
            x == y,
            "line {}:\n{}\n{}",
            i + 1,
            String::from_utf8_lossy(x),
            String::from_utf8_lossy(y)
        );
    }
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server name that does not resolve is retried with a message in the page, not fatal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unresolvable_server_is_retried_with_a_message() {
    let mut mc = MonitorConfig::new("no-such-host.invalid:6000");
    mc.retry = Duration::from_millis(200);
    let relay = relay_harness::start(Source::Server(mc)).await;
    let mut s = Spectator::connect(relay.addr, "/ws").await;
    s.until(20, "a message about the name", |s| {
        s.notices().iter().any(|n| matches!(n, Notice::Feed { source: FeedSource::Waiting, label } if label.contains("cannot resolve") && label.contains("retrying")))
    })
    .await;
    let (status, _, _) = http_get(relay.addr, "/healthz").await;
    assert_eq!(status, 200);
}

/// A live monitor gets msgs that rcssserver never writes to its log: the automatic
/// `(change_player_type …)` of every player and the replies to the monitor's own commands
/// (`(error illegal_command_form)` here). The real capture of a game with operator commands
/// through the relay, downloaded and recorded, is line for line the server's own log of that
/// game, as far as the capture goes. The server then goes quiet: the recording ends as
/// rcssserver's own log of a match stopped by a signal, with the result message and the team
/// line at the last cycle.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn download_and_recording_of_a_live_game_are_the_servers_log() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_OPERATOR)).unwrap();
    let want = capture::records(&datagrams);
    assert!(
        want.iter()
            .any(|r| matches!(r, Record::Msg(m) if m.text.starts_with(b"(change_player_type "))),
        "the capture has player type changes"
    );
    // The capture's last show.
    let last = datagrams
        .iter()
        .rev()
        .find_map(|d| match parse_datagram(d) {
            Ok(Datagram::Records(r)) => r.into_iter().find_map(|r| match r {
                Record::Show(f) => Some(f),
                _ => None,
            }),
            _ => None,
        })
        .unwrap();
    let (last_time, last_teams) = (last.time, last.teams);
    let server_log = fixtures::read(fixtures::OPERATOR_V6);
    let lines =
        |b: &[u8]| -> Vec<Vec<u8>> { b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect() };
    // The server's log up to the capture's last show.
    let mut expected = Vec::new();
    for l in lines(&server_log) {
        if l.starts_with(format!("(show {} ", last_time + 1).as_bytes())
            || l.starts_with(format!("(playmode {} ", last_time + 1).as_bytes())
        {
            break;
        }
        expected.push(l);
    }
    let compare = |got: &[u8], what: &str, extra: usize| {
        let got = lines(got);
        let got: Vec<_> = got.iter().filter(|l| !l.is_empty()).collect();
        assert_eq!(got.len(), expected.len() + extra, "{what}: line count");
        for (i, (a, b)) in got.iter().zip(&expected).enumerate() {
            assert!(
                a == &b,
                "{what}: line {}:\n{}\nthe server wrote:\n{}",
                i + 1,
                String::from_utf8_lossy(a),
                String::from_utf8_lossy(b)
            );
        }
    };

    let mut script = Script::new(datagrams, Duration::from_millis(1));
    script.burst = 4;
    // Then the server is gone: later registrations get no answer.
    let gone = Script::new(Vec::new(), Duration::from_millis(1));
    let server = FakeServer::start_sessions(vec![script, gone]).await;
    let dir = fixtures::scratch("live-rec");
    let mut mc = monitor(&server, Protocol::V5, None);
    mc.silence = Duration::from_millis(500);
    let mut settings = Settings::new(vec![Source::Server(mc).into_spec()]);
    settings.record = Some(dir.clone());
    let relay = relay_harness::start_with(settings).await;
    let (_s, _, body) = download_whole(&relay, &server, want.len()).await;
    compare(&body, "download", 0);
    // The server is gone once it has been quiet for `silence`: the recording is renamed.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let file = loop {
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect();
        if let [f] = &files[..] {
            if !f.to_string_lossy().contains("incomplete-") {
                break f.clone();
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "renamed when the server went quiet: {files:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    relay.stop().await;
    let recorded = std::fs::read(&file).unwrap();
    compare(&recorded, "recording", 2);
    let names = [0, 1].map(|i| last_teams[i].name.clone().unwrap());
    let scores = [0, 1].map(|i| last_teams[i].score);
    let got = lines(&recorded);
    let got: Vec<_> = got.iter().filter(|l| !l.is_empty()).collect();
    let result = String::from_utf8_lossy(got[expected.len()]);
    assert!(
        result.starts_with(&format!("(msg {last_time} 1 \"(result "))
            && result.ends_with(&format!(
                " {}_{}-vs-{}_{})\")",
                names[0], scores[0], names[1], scores[1]
            )),
        "{result}"
    );
    assert_eq!(
        String::from_utf8_lossy(got[expected.len() + 1]),
        format!(
            "(team {last_time} {} {} {} {})",
            names[0], names[1], scores[0], scores[1]
        )
    );
    assert!(file.to_string_lossy().ends_with(&format!(
        "-{}_{}-vs-{}_{}.rcg",
        names[0], scores[0], names[1], scores[1]
    )));
    let _ = std::fs::remove_dir_all(&dir);
}
