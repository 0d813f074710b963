//! The per-spectator policy under a fast replay: a stalled spectator is closed, a lagging one
//! is moved ahead but keeps every match boundary, and neither slows the others; the spectator
//! cap refuses with a reason.

use pitchside_tests::spectator::{http_get, Spectator};
use pitchside_tests::{fixtures, relay_harness};
use pitchside_wire::{Event, Notice};
use rcss_formats::Record;
use relay::config::Settings;
use relay::Source;
use std::time::Duration;

fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in\n{text}"))
}

/// Within each match a spectator sees, frames never go back in time.
fn check_in_order(events: &[Event]) {
    let mut last = None;
    for e in events {
        match e {
            Event::Notice(Notice::NewMatch { .. }) => last = None,
            Event::Record(Record::Show(f)) => {
                if let Some(t) = last {
                    assert!(f.time >= t, "time {} after {t}", f.time);
                }
                last = Some(f.time);
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_spectators_are_closed_and_lagging_ones_skip_but_see_every_new_match() {
    let script =
        relay::replay::Script::from_log("short.rcg", &fixtures::read(fixtures::SHORT_V6)).unwrap();
    let shows = script.shows();
    let mut settings = Settings::new(vec![Source::Replay {
        script,
        step: Duration::from_millis(2),
    }
    .into_spec()]);
    settings.lag = 32;
    // Long enough that a reader pacing itself is never mistaken for a stalled one on a busy
    // machine; the stalled one is still closed within seconds.
    settings.send_timeout = Duration::from_secs(3);
    let relay = relay_harness::start_with(settings).await;

    // A spectator that never reads, with a tiny receive buffer: it stalls at once.
    let stalled = {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.set_recv_buffer_size(4096).unwrap();
        let stream = sock.connect(relay.addr).await.unwrap();
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", relay.addr), stream)
            .await
            .unwrap();
        ws
    };
    let mut normal = Spectator::connect(relay.addr, "/ws").await;
    let mut lagging = Spectator::connect_small(relay.addr, "/ws", 4096).await;

    let started = std::time::Instant::now();
    let new_matches = |s: &Spectator| {
        s.notices()
            .iter()
            .filter(|n| matches!(n, Notice::NewMatch { .. }))
            .count()
    };
    let skipped = |s: &Spectator| -> u32 {
        s.notices()
            .iter()
            .filter_map(|n| match n {
                Notice::Skipped { frames } => Some(*frames),
                _ => None,
            })
            .sum()
    };
    // The lagging one reads a message every 15 ms while frames come every 2 ms, until it has
    // seen two more matches begin and been moved ahead at least once; the normal one reads as
    // fast as it can meanwhile. Its backlog grows by hundreds of frames a second while the
    // buffers between it and the relay hold a bounded number of bytes (the relay fixes its
    // send buffer), so it must be moved ahead within seconds; how soon depends on how much
    // the kernel buffered, which is why this waits for it rather than for a fixed time.
    let lag_done = std::cell::Cell::new(false);
    let lag = async {
        while new_matches(&lagging) < 3 || skipped(&lagging) == 0 {
            assert!(
                lagging.step().await && lagging.closed.is_none(),
                "the lagging spectator stays connected: {:?}",
                lagging.closed
            );
            tokio::time::sleep(Duration::from_millis(15)).await;
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the lagging spectator was moved ahead within 60 s: {:?}",
                lagging.notices()
            );
        }
        lag_done.set(true);
    };
    let keep_up = async {
        normal
            .until(60, "three matches", |s| {
                lag_done.get()
                    && new_matches(s) >= 3
                    && s.current_match()
                        .iter()
                        .filter(|r| matches!(r, Record::Show(_)))
                        .count()
                        >= 100
            })
            .await;
    };
    tokio::join!(lag, keep_up);

    // The lagging spectator was moved ahead, yet saw every match start and decoded every
    // frame it got (the decoder panics on a gap); the normal one missed nothing.
    assert!(skipped(&lagging) > 0, "{:?}", lagging.notices());
    assert!(lagging.frames().len() < normal.frames().len());
    check_in_order(&lagging.events);
    check_in_order(&normal.events);
    assert!(normal
        .notices()
        .iter()
        .all(|n| !matches!(n, Notice::Skipped { .. })));
    // A whole round reached the normal spectator, frame by frame.
    let rounds: Vec<usize> = {
        let mut counts = vec![0usize];
        for e in &normal.events {
            match e {
                Event::Notice(Notice::NewMatch { .. }) => counts.push(0),
                Event::Record(Record::Show(_)) => *counts.last_mut().unwrap() += 1,
                _ => {}
            }
        }
        counts
    };
    assert!(
        rounds.contains(&shows),
        "a full round of {shows} frames: {rounds:?}"
    );

    // The stalled one was closed, and counted.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, _, body) = http_get(relay.addr, "/metrics").await;
        let m = String::from_utf8(body).unwrap();
        // Counted when the relay gives up on it; the gauge follows once its task has ended.
        // The lagging one, no longer read from, may have been closed too by now.
        if metric(&m, "pitchside_closed_slow_total{") >= 1.0
            && metric(&m, "pitchside_spectators_connected ") <= 2.0
        {
            assert!(metric(&m, "pitchside_lag_skips_total{") >= 1.0);
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the stalled spectator is closed\n{m}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    drop(stalled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_spectator_cap_refuses_with_a_reason() {
    let script =
        relay::replay::Script::from_log("short.rcg", &fixtures::read(fixtures::SHORT_V6)).unwrap();
    let mut settings = Settings::new(vec![Source::Replay {
        script,
        step: Duration::from_millis(50),
    }
    .into_spec()]);
    settings.max_spectators = 2;
    let relay = relay_harness::start_with(settings).await;
    let mut a = Spectator::connect(relay.addr, "/ws").await;
    let mut b = Spectator::connect(relay.addr, "/ws").await;
    a.until(10, "a frame", |s| !s.frames().is_empty()).await;
    b.until(10, "a frame", |s| !s.frames().is_empty()).await;
    let mut c = Spectator::connect(relay.addr, "/ws").await;
    c.until(10, "a refusal", |s| s.closed.is_some()).await;
    let (code, reason) = c.closed.clone().unwrap();
    assert_eq!(code, 1013);
    assert!(reason.contains("full"), "{reason}");
    drop(a);
    // Once one leaves, a new one gets in.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let mut d = Spectator::connect(relay.addr, "/ws").await;
        let got = tokio::time::timeout(Duration::from_secs(2), async {
            while d.frames().is_empty() && d.closed.is_none() {
                if !d.step().await {
                    break;
                }
            }
        })
        .await;
        if got.is_ok() && !d.frames().is_empty() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "a place frees up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, _, body) = http_get(relay.addr, "/metrics").await;
    assert!(
        metric(
            &String::from_utf8(body).unwrap(),
            "pitchside_refused_total "
        ) >= 1.0
    );
}

/// What one spectator read: each message's arrival, with the frame number of a frame packet
/// and the frames a `Skipped` notice said were left out.
struct Arrival {
    at: std::time::Instant,
    frame: Option<u32>,
    skipped: Option<u64>,
}

/// Reads one message of `s` and notes its arrival; false once the connection is over.
async fn read_noting(s: &mut Spectator, log: &mut Vec<Arrival>) -> bool {
    let before = s.raw.len();
    if !s.step().await {
        return false;
    }
    if let Some(p) = s.raw.get(before) {
        log.push(Arrival {
            at: std::time::Instant::now(),
            frame: pitchside_tests::bench::frame_number(p),
            skipped: pitchside_tests::bench::skipped_frames(p),
        });
    }
    true
}

/// A live match stays live for a spectator that stops reading for a while: it is not queued
/// for. Once it reads again it gets what the kernel's buffers held, then a `Skipped` notice and
/// frames no later than the delay bound (it would otherwise get every frame of the pause, four
/// seconds late); the skipped frames are counted in `/metrics`. A spectator that keeps reading
/// meanwhile gets every frame, and the recording and the history keep every frame: a page
/// that connects afterwards gets them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_stops_reading_skips_to_live_frames_and_nothing_is_lost_for_the_others() {
    let log = fixtures::read(fixtures::FULL_V6);
    let fixture = rcss_formats::parse_log(&log);
    // 200 frames a second: four seconds without reading are 800 frames, far more than the
    // kernel's buffers between relay and spectator hold (tens of KB, ~100 frames).
    let (mut settings, dir) =
        relay_harness::recorded_replay("full", &log, Duration::from_millis(5), "skip");
    let bound = Duration::from_millis(500);
    settings.max_delay = bound;
    // The ring far beyond the pause and no stall: only the delay bound is at work.
    settings.lag = 10_000;
    settings.send_timeout = Duration::from_secs(60);
    let relay = relay_harness::start_with(settings).await;

    let mut normal = Spectator::connect(relay.addr, "/ws").await;
    let mut slow = Spectator::connect_small(relay.addr, "/ws", 4096).await;
    let (mut normal_log, mut slow_log) = (Vec::new(), Vec::new());
    let reading_done = std::cell::Cell::new(false);
    let resumed_at = std::cell::Cell::new(None);
    let keep_up = async {
        while !reading_done.get() {
            assert!(read_noting(&mut normal, &mut normal_log).await);
        }
    };
    let pause = async {
        let until = tokio::time::Instant::now() + Duration::from_secs(1);
        while tokio::time::Instant::now() < until {
            assert!(read_noting(&mut slow, &mut slow_log).await);
        }
        tokio::time::sleep(Duration::from_secs(4)).await;
        resumed_at.set(Some(slow_log.len()));
        let until = tokio::time::Instant::now() + Duration::from_secs(2);
        while tokio::time::Instant::now() < until {
            assert!(read_noting(&mut slow, &mut slow_log).await);
        }
        reading_done.set(true);
    };
    tokio::join!(keep_up, pause);

    // The one that kept reading got every frame, one after the other, and no notice of a skip.
    let numbers: Vec<u32> = normal_log.iter().filter_map(|a| a.frame).collect();
    assert!(numbers.len() > 1000, "{} frames", numbers.len());
    assert!(
        numbers.windows(2).all(|w| w[1] == w[0] + 1),
        "every frame, in order"
    );
    assert!(normal_log.iter().all(|a| a.skipped.is_none()));
    assert!(normal
        .notices()
        .iter()
        .all(|n| !matches!(n, Notice::Skipped { .. })));
    let seen: std::collections::HashMap<u32, std::time::Instant> = normal_log
        .iter()
        .filter_map(|a| a.frame.map(|f| (f, a.at)))
        .collect();

    // The one that paused: what the buffers held, then a skip to frames within the bound.
    let resumed = resumed_at.get().unwrap();
    let after = &slow_log[resumed..];
    let skip = after
        .iter()
        .position(|a| a.skipped.is_some())
        .unwrap_or_else(|| panic!("a skip after the pause: {:?}", slow.notices()));
    let held: usize = slow.raw[slow.raw.len() - after.len()..][..skip]
        .iter()
        .map(Vec::len)
        .sum();
    assert!(held < 256 << 10, "{held} bytes were queued for it");
    let late: Vec<Duration> = after[skip..]
        .iter()
        .filter_map(|a| Some(a.at.saturating_duration_since(*seen.get(&a.frame?)?)))
        .collect();
    assert!(late.len() > 100, "{} frames after the skip", late.len());
    let worst = late.iter().max().copied().unwrap_or_default();
    // Later than the one that kept reading by the bound at most, with room for a busy
    // machine; the pause was four seconds.
    assert!(
        worst < bound + Duration::from_secs(1),
        "a frame reached it {worst:?} after the other spectator"
    );
    let skipped: u64 = slow_log.iter().filter_map(|a| a.skipped).sum();
    assert!(skipped > 300, "{skipped} frames skipped");
    let slow_numbers: Vec<u32> = slow_log.iter().filter_map(|a| a.frame).collect();
    assert!(slow_numbers.windows(2).all(|w| w[1] > w[0]));
    assert!(slow_numbers.len() < numbers.len());
    check_in_order(&slow.events);

    // Counted in /metrics (what the relay skipped is at least what the spectator has read of).
    let (_, _, body) = http_get(relay.addr, "/metrics").await;
    let m = String::from_utf8(body).unwrap();
    assert!(metric(&m, "pitchside_late_frames_skipped_total{") >= skipped as f64);
    assert!(metric(&m, "pitchside_skipped_frames_total{") >= skipped as f64);
    assert!(metric(&m, "pitchside_lag_skips_total{") >= 1.0);

    // The history has every frame: a page that connects now gets them all, from the first.
    let mut late_joiner = Spectator::connect(relay.addr, "/ws").await;
    late_joiner
        .until(30, "the match so far", |s| s.backlog.is_some())
        .await;
    let history = late_joiner.frames();
    assert!(history.len() > *numbers.last().unwrap() as usize);
    assert!(
        history.iter().zip(&fixture.frames).all(|(a, b)| *a == b),
        "the history is the log's frames"
    );

    // So has the recording, from kick-off (nothing before it is recorded) on.
    relay.stop().await;
    let file = relay_harness::written(&dir, "rcg")
        .pop()
        .expect("a recording");
    let recorded = rcss_formats::parse_log(&std::fs::read(&file).unwrap());
    let first = fixture
        .frames
        .iter()
        .position(|f| Some(f) == recorded.frames.first())
        .expect("the recording starts with a frame of the log");
    assert!(recorded.frames.len() > *numbers.last().unwrap() as usize - first);
    assert!(
        recorded.frames[..] == fixture.frames[first..first + recorded.frames.len()],
        "the recording has every frame"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A spectator that stops reading until a match has ended, long enough for the fan-out to let
/// it go (more than the ring behind), still gets the match's last frame once it reads again:
/// no item comes after the end to move it on, so it goes on from the newest frame at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_let_go_after_the_last_frame_still_gets_the_end_of_the_match() {
    let log = fixtures::read(fixtures::SHORT_V6);
    let fixture = rcss_formats::parse_log(&log);
    let last = fixture.frames.last().expect("frames").time;
    let script = relay::replay::Script::from_log("short.rcg", &log).unwrap();
    let mut settings = Settings::new(vec![relay_harness::replay_once(
        "short",
        script,
        Duration::from_millis(5),
    )]);
    settings.lag = 8;
    settings.send_timeout = Duration::from_secs(60);
    let relay = relay_harness::start_with(settings).await;
    let mut s = Spectator::connect_small(relay.addr, "/ws", 4096).await;
    s.until(10, "the first frames", |s| !s.frames().is_empty())
        .await;
    assert!(
        s.frames().last().map(|f| f.time) < Some(last),
        "it stopped reading before the end"
    );
    // The replay ends (it does not loop) while nothing is read.
    let frames = fixture.frames.len() as u64;
    tokio::time::sleep(Duration::from_millis(5 * frames + 1500)).await;
    s.until(10, "the last frame of the match", |s| {
        s.frames().last().map(|f| f.time) == Some(last)
    })
    .await;
    assert!(
        s.notices()
            .iter()
            .any(|n| matches!(n, Notice::Skipped { .. })),
        "it was told what it skipped: {:?}",
        s.notices()
    );
}
