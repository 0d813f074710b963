//! A bad network between rcssserver and the relay, with the real capture of a match: lost,
//! copied and swapped datagrams; a server that goes silent, is killed and restarted ten times
//! during one recording session; a forger flooding the relay's port. A spectator must never
//! get a frame older than the one before it or from another match, and every recording must
//! be a log that reads to its end.
//!
//! The silences here are scaled to the relay's `--silence` (0.3 s instead of 5 s, a pause of
//! 2 s instead of 30 s): the same behaviour in seconds of test time. The real-time run is
//! `a_thirty_second_silence_in_real_time`, ignored by default (see RELIABILITY.md).

use pitchside_tests::fake_server::{FakeServer, Script};
use pitchside_tests::spectator::{http_get, Spectator};
use pitchside_tests::{capture, fixtures, relay_harness};
use pitchside_wire::{Event, Notice};
use rcss_formats::{Frame, Record};
use relay::config::Settings;
use relay::monitor::{MonitorConfig, Protocol};
use relay::Source;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A small deterministic generator: the same faults at every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The capture with `percent` % of datagrams lost, as many copied and as many swapped with
/// the next (after the first 20, the server's parameters, which a real relay asks for
/// again if it misses them).
fn lossy(datagrams: &[Vec<u8>], percent: u64, seed: u64) -> (Vec<Vec<u8>>, [usize; 3]) {
    let mut rng = Rng(seed);
    let mut out = datagrams[..20].to_vec();
    let mut counts = [0; 3];
    let mut i = 20;
    while i < datagrams.len() {
        let roll = rng.below(100);
        if roll < percent {
            counts[0] += 1;
            i += 1;
        } else if roll < 2 * percent {
            counts[1] += 1;
            out.push(datagrams[i].clone());
            out.push(datagrams[i].clone());
            i += 1;
        } else if roll < 3 * percent && i + 1 < datagrams.len() {
            counts[2] += 1;
            out.push(datagrams[i + 1].clone());
            out.push(datagrams[i].clone());
            i += 2;
        } else {
            out.push(datagrams[i].clone());
            i += 1;
        }
    }
    (out, counts)
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitchside-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A relay following the server `mc` names in protocol 5 (the captures'), recording into a
/// fresh folder named after `what`, and a spectator of it: (relay, folder, spectator).
async fn recorded_and_watched(
    mut mc: MonitorConfig,
    what: &str,
) -> (relay_harness::RunningRelay, PathBuf, Spectator) {
    mc.protocol = Protocol::V5;
    let dir = temp_dir(what);
    let mut settings = Settings::new(vec![Source::Server(mc).into_spec()]);
    settings.record = Some(dir.clone());
    let relay = relay_harness::start_with(settings).await;
    let s = Spectator::connect(relay.addr, "/ws").await;
    (relay, dir, s)
}

/// The frames of each match a spectator saw, split at the `NewMatch` notices.
fn matches(s: &Spectator) -> Vec<Vec<Frame>> {
    let mut out = vec![Vec::new()];
    for e in &s.events {
        match e {
            Event::Notice(Notice::NewMatch { .. }) => out.push(Vec::new()),
            Event::Record(Record::Show(f)) => {
                if let Some(last) = out.last_mut() {
                    last.push(f.clone());
                }
            }
            _ => {}
        }
    }
    out.retain(|m| !m.is_empty());
    out
}

/// Waits up to `secs` for the `n`th match announced and the one now playing seen whole (all
/// but 5 of its `whole` records): the match after the silence.
async fn until_whole_after(s: &mut Spectator, secs: u64, n: usize, whole: usize) {
    s.until(secs, "the match after the silence, whole", |s| {
        s.notices()
            .iter()
            .filter(|notice| matches!(notice, Notice::NewMatch { .. }))
            .count()
            >= n
            && s.current_match().len() >= whole - 5
    })
    .await;
}

/// Reads until nothing came for half a second (the server's script is over), 20 s at most.
async fn drain(s: &mut Spectator) {
    let end = tokio::time::Instant::now() + Duration::from_secs(20);
    while tokio::time::Instant::now() < end {
        match tokio::time::timeout(Duration::from_millis(500), s.step()).await {
            Ok(true) => {}
            _ => break,
        }
    }
}

fn assert_in_order(frames: &[Frame], what: &str) {
    for (i, w) in frames.windows(2).enumerate() {
        assert!(
            w[0].time <= w[1].time,
            "{what}: frame {} (cycle {}) after cycle {}",
            i + 1,
            w[1].time,
            w[0].time
        );
    }
}

/// Every recording in `dir`, read to its end: (file name, shows) for each.
fn recordings(dir: &Path) -> Vec<(String, usize)> {
    // Logs only: the archive keeps its index beside them.
    relay_harness::written(dir, "rcg")
        .iter()
        .map(|f| {
            let report = relay::inspect::inspect_reader(std::fs::File::open(f).unwrap()).unwrap();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                report.error.is_none(),
                "{name} does not read to its end: {:?}",
                report.error
            );
            assert!(report.anything, "{name} holds nothing");
            (name, report.shows)
        })
        .collect()
}

fn metric(body: &str, name: &str) -> u64 {
    body.lines()
        .filter(|l| l.starts_with(&format!("pitchside_{name}")))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lossy_network_never_shows_a_frame_out_of_order_or_one_it_did_not_send() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let (faulty, [lost, copied, swapped]) = lossy(&datagrams, 5, 42);
    assert!(
        lost > 5 && copied > 5 && swapped > 5,
        "{lost} {copied} {swapped}"
    );
    let last_time = datagrams
        .iter()
        .filter_map(|d| match rcss_formats::datagram::parse_datagram(d) {
            Ok(rcss_formats::datagram::Datagram::Records(r)) => r.into_iter().last(),
            _ => None,
        })
        .filter_map(|r| match r {
            Record::Show(f) => Some(f.time),
            _ => None,
        })
        .max()
        .unwrap();
    let mut script = Script::new(faulty, Duration::from_millis(1));
    script.burst = 4;
    let server = FakeServer::start(script).await;
    let mut mc = MonitorConfig::new(server.addr);
    mc.retry = Duration::from_millis(300);
    let (relay, dir, mut s) = recorded_and_watched(mc, "lossy").await;
    s.until(60, "the last cycles", |s| {
        s.frames().last().is_some_and(|f| f.time + 3 >= last_time)
    })
    .await;
    drain(&mut s).await;
    let seen = matches(&s);
    assert_eq!(seen.len(), 1, "one match, never restarted by a late copy");
    assert_in_order(&seen[0], "lossy");
    // A copied datagram is let through (the server repeats shows itself, see relay::order),
    // but nothing is shown that the server did not send.
    let sent: Vec<Frame> = capture::shows(capture::records(&datagrams));
    assert!(
        seen[0].iter().all(|f| sent.contains(f)),
        "a frame the server never sent"
    );
    let (_, _, body) = http_get(relay.addr, "/metrics").await;
    let body = String::from_utf8_lossy(&body).into_owned();
    assert!(
        metric(&body, "records_dropped_total") >= swapped as u64 / 2,
        "late datagrams counted:\n{body}"
    );
    relay.stop().await;
    let recorded = recordings(&dir);
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(
        recorded[0].1,
        seen[0].len(),
        "the recording holds what the spectator saw"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ten kills and restarts in a row, then a silence in the middle of a match, within one
/// recording session: every match in order and apart, every recording readable to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_restarts_and_a_silence_during_one_recording_session() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let mut scripts = Vec::new();
    // Killed after a varying number of shows, each time.
    for k in 0..10 {
        let mut s = Script::new(datagrams[..60 + 9 * k].to_vec(), Duration::from_millis(1));
        s.burst = 4;
        scripts.push(s);
    }
    // Then a whole match, silent for a while in its middle: the relay takes the server as
    // gone, registers again, and what the old registration sends after the silence is not
    // believed.
    let mut s = Script::new(datagrams.clone(), Duration::from_millis(1));
    s.burst = 4;
    s.pause_at = vec![(150, Duration::from_secs(2))];
    scripts.push(s);
    let mut s = Script::new(datagrams.clone(), Duration::from_millis(1));
    s.burst = 4;
    scripts.push(s);
    // And no more: the server is full from then on.
    scripts.push(Script {
        refuse: Some(b"(error no_more_monitor)\0".to_vec()),
        ..Script::default()
    });
    let whole = capture::records(&datagrams).len();
    let first = capture::records(&datagrams)
        .iter()
        .find_map(|r| match r {
            Record::Show(f) => Some(f.time),
            _ => None,
        })
        .unwrap();
    let server = FakeServer::start_sessions(scripts).await;
    let mut mc = MonitorConfig::new(server.addr);
    mc.retry = Duration::from_millis(200);
    // Shorter than the 2 s pause, long enough that a busy machine's stall is not taken for
    // a server gone.
    mc.silence = Duration::from_secs(1);
    let (relay, dir, mut s) = recorded_and_watched(mc, "restarts").await;
    until_whole_after(&mut s, 120, 12, whole).await;
    drain(&mut s).await;
    let seen = matches(&s);
    assert_eq!(seen.len(), 12, "ten killed, one silent, one whole");
    for (i, m) in seen.iter().enumerate() {
        assert_in_order(m, &format!("match {}", i + 1));
        assert_eq!(
            m[0].time,
            first,
            "match {} starts where the server did",
            i + 1
        );
    }
    relay.stop().await;
    let recorded = recordings(&dir);
    assert_eq!(recorded.len(), 12, "a recording per match: {recorded:?}");
    let shows: usize = recorded.iter().map(|r| r.1).sum();
    let seen_shows: usize = seen.iter().map(Vec::len).sum();
    assert_eq!(shows, seen_shows, "{recorded:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// 10,000 forged datagrams a second from another port of the server's host for 3 s, during
/// a match: the spectator gets exactly the capture's records, every forgery is counted, and
/// the log says so a few times, not ten thousand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_forged_datagrams_changes_nothing() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let want = capture::records(&datagrams);
    // A show from the same capture, as a forger would replay it.
    let forged = datagrams[100].clone();
    let mut script = Script::new(datagrams, Duration::from_millis(10));
    script.burst = 1;
    script.flood = Some((forged, 10_000, Duration::from_secs(3)));
    let server = FakeServer::start(script).await;
    let mut mc = MonitorConfig::new(server.addr);
    mc.retry = Duration::from_millis(300);
    let (relay, dir, mut s) = recorded_and_watched(mc, "flood").await;
    s.until(60, "every record", |s| s.records().len() >= want.len())
        .await;
    assert!(s.records() == want, "the forgeries changed what was shown");
    let (_, _, body) = http_get(relay.addr, "/metrics").await;
    let body = String::from_utf8_lossy(&body).into_owned();
    assert!(
        metric(&body, "datagrams_ignored_total") >= 10_000,
        "forgeries counted:\n{body}"
    );
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same as the silence above in real time: rcssserver silent for 30 s with the relay's
/// default `--silence` of 5 s. About 40 s; run with `--ignored`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn a_thirty_second_silence_in_real_time() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    let mut a = Script::new(datagrams.clone(), Duration::from_millis(1));
    a.burst = 4;
    a.pause_at = vec![(150, Duration::from_secs(30))];
    let mut b = Script::new(datagrams.clone(), Duration::from_millis(1));
    b.burst = 4;
    let server = FakeServer::start_sessions(vec![a, b]).await;
    let mc = MonitorConfig::new(server.addr);
    let (relay, dir, mut s) = recorded_and_watched(mc, "silence30").await;
    let whole = capture::records(&datagrams).len();
    until_whole_after(&mut s, 90, 2, whole).await;
    for (i, m) in matches(&s).iter().enumerate() {
        assert_in_order(m, &format!("match {}", i + 1));
    }
    relay.stop().await;
    assert_eq!(recordings(&dir).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
