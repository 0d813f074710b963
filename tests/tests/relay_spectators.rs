//! The per-spectator policy under a fast replay: a stalled spectator is closed, a lagging one
//! is moved ahead but keeps every match boundary, and neither slows the others; the spectator
//! cap refuses with a reason.

use pitchside_shared::wire::{Event, Notice};
use pitchside_shared::Record;
use pitchside_tests::spectator::{http_get, Spectator};
use pitchside_tests::{fixtures, relay_harness};
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
