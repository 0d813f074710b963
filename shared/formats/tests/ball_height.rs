//! The ball's height, which only the 2.5D fork of rcssserver gives: its monitor protocol 6 and
//! its ULG7 logs write it as a fifth number of the ball (`((b) x y vx vy z)`), its JSON shows
//! as `"z"`. A real match, its ball lifted, is written in those forms and read back with the
//! height; the versions without one keep the ball on the ground; a damaged height is refused.
//! And the fork's own output, a real game of it played with lofted kicks: its ULG7 log and
//! what a protocol-6 and a JSON monitor received, read with the heights the fork wrote.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::log::LogDecoder;
use rcss_formats::write::write_log;
use rcss_formats::{parse_log, LogVersion, Record};

fn records(bytes: &[u8]) -> Vec<Record> {
    let mut d = LogDecoder::new();
    let mut out = Vec::new();
    d.feed(bytes, &mut out).unwrap();
    d.finish(&mut out).unwrap();
    out
}

/// A height for cycle `t`: a ball chipped up and down every 9 cycles, in the server's four
/// decimals.
fn height(t: u32) -> f32 {
    let k = (t % 9) as f32;
    (k * (8.0 - k) * 0.0625 * 10_000.0).round() / 10_000.0
}

/// The real short match with its ball lifted.
fn lifted() -> Vec<Record> {
    let mut recs = records(&common::read(common::SHORT_V6));
    for r in &mut recs {
        if let Record::Show(f) = r {
            f.ball.z = height(f.time);
        }
    }
    recs
}

#[test]
fn ulg7_and_json_keep_the_height_and_the_others_leave_the_ball_on_the_ground() {
    let recs = lifted();
    let shows = recs.iter().filter(|r| matches!(r, Record::Show(_))).count();
    assert!(shows > 500, "{shows}");
    for v in [
        LogVersion::V7,
        LogVersion::Json,
        LogVersion::V6,
        LogVersion::V3,
    ] {
        let bytes = write_log(v, &recs);
        let m = parse_log(&bytes);
        assert!(m.error.is_none(), "{v}: {:?}", m.error);
        assert_eq!(m.version, Some(v), "{v}");
        assert_eq!(m.frames.len(), shows, "{v}");
        let keeps = matches!(v, LogVersion::V7 | LogVersion::Json);
        let mut up = 0;
        for f in &m.frames {
            let want = if keeps { height(f.time) } else { 0.0 };
            assert_eq!(f.ball.z, want, "{v} at {}", f.time);
            up += usize::from(f.ball.z > 0.0);
        }
        assert_eq!(up > 0, keeps, "{v}: {up} frames in the air");
    }
    // ULG7 is ULG6 with one number more: the rest of each line is the same.
    let ulg6 = String::from_utf8(write_log(LogVersion::V6, &recs)).unwrap();
    let ulg7 = String::from_utf8(write_log(LogVersion::V7, &recs)).unwrap();
    assert!(ulg7.starts_with("ULG7\n") && ulg6.starts_with("ULG6\n"));
    let (mut same, mut lifted_lines) = (0, 0);
    for (a, b) in ulg6.lines().zip(ulg7.lines()).skip(1) {
        if a == b {
            same += 1;
            continue;
        }
        let t: u32 = a["(show ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let at = a.find(") ((l").unwrap();
        let z = format!("{}", height(t));
        assert_eq!(b, format!("{} {z}{}", &a[..at], &a[at..]), "cycle {t}");
        lifted_lines += 1;
    }
    assert!(same > 0 && lifted_lines == shows, "{same} {lifted_lines}");
}

#[test]
fn a_show_as_the_2_5d_forks_monitor_sends_it_is_read_with_its_height() {
    // A real show of rcssserver 19 (monitor protocol 5), and the same with the height that
    // the fork's protocol 6 writes after the ball's velocity.
    let log = String::from_utf8(write_log(
        LogVersion::V6,
        &records(&common::read(common::SHORT_V6)),
    ))
    .unwrap();
    let line = log.lines().find(|l| l.starts_with("(show 100 ")).unwrap();
    let at = line.find(") ((l").unwrap();
    let forked = format!("{} 1.2345{}", &line[..at], &line[at..]);
    let plain = parse_log(format!("ULG6\n{line}\n").as_bytes());
    let lifted = parse_log(format!("ULG7\n{forked}\n").as_bytes());
    assert!(lifted.error.is_none(), "{:?}", lifted.error);
    let (a, b) = (&plain.frames[0], &lifted.frames[0]);
    assert_eq!((a.ball.z, b.ball.z), (0.0, 1.2345));
    assert_eq!(
        (a.ball.x, a.ball.y, a.players.len()),
        (b.ball.x, b.ball.y, b.players.len())
    );
    assert_eq!(a.players, b.players);
    // A height that is not a number is refused, saying where.
    let broken = format!("{} up{}", &line[..at], &line[at..]);
    let m = parse_log(format!("ULG7\n{broken}\n").as_bytes());
    let e = m.error.expect("refused");
    assert!(e.to_string().contains("ball height"), "{e}");
    // In JSON, "z" after the velocity.
    let json = String::from_utf8(write_log(LogVersion::Json, &lifted_shows(&lifted))).unwrap();
    assert!(json.contains(",\"z\":1.2345}"), "{json:.300}");
}

fn lifted_shows(m: &rcss_formats::Match) -> Vec<Record> {
    m.frames.iter().cloned().map(Record::Show).collect()
}

/// The ball's numbers of each show line of a ULG7 log, split out of the text by hand (not by
/// the library): `(time, [x, y, vx, vy, z])`.
fn balls_in_text(text: &str) -> Vec<(u32, Vec<f32>)> {
    text.lines()
        .filter(|l| l.starts_with("(show "))
        .map(|l| {
            let time = l[6..].split(' ').next().unwrap().parse().unwrap();
            let at = l.find("((b) ").unwrap() + 5;
            let end = at + l[at..].find(')').unwrap();
            let numbers = l[at..end].split(' ').map(|n| n.parse().unwrap()).collect();
            (time, numbers)
        })
        .collect()
}

#[test]
fn the_forks_own_ulg7_log_is_read_with_every_height_it_wrote() {
    let bytes = common::read(common::FORK_ULG7);
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.starts_with("ULG7\n"));
    let balls = balls_in_text(&text);
    let m = parse_log(&bytes);
    assert!(m.error.is_none(), "{:?}", m.error);
    assert_eq!(m.version, Some(LogVersion::V7));
    assert_eq!(m.frames.len(), balls.len());
    for (f, (time, b)) in m.frames.iter().zip(&balls) {
        assert_eq!(b.len(), 5, "cycle {time}: {b:?}");
        assert_eq!(f.time, *time);
        assert_eq!(
            [f.ball.x, f.ball.y, f.ball.z],
            [b[0], b[1], b[4]],
            "cycle {time}"
        );
    }
    // Two lofted kicks, each flying over two metres and bouncing before it rolls.
    let heights: Vec<f32> = m.frames.iter().map(|f| f.ball.z).collect();
    let flights = heights
        .windows(2)
        .filter(|w| w[0] == 0.0 && w[1] > 0.3)
        .count();
    assert!(flights >= 2, "{heights:?}");
    assert!(heights.iter().any(|z| *z > 2.0), "{heights:?}");
    let bounces = heights
        .windows(3)
        .filter(|w| w[1] < w[0] && w[1] < w[2] && w[1] > 0.0)
        .count();
    assert!(bounces >= 2, "{heights:?}");
    // Written again as ULG7, every show line is the fork's own, byte for byte.
    let again = String::from_utf8(write_log(LogVersion::V7, &records(&bytes))).unwrap();
    let shows = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("(show "))
            .map(str::to_owned)
            .collect()
    };
    let (ours, theirs) = (shows(&again), shows(&text));
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a, b);
    }
}

#[test]
fn the_forks_monitors_received_the_heights_its_log_wrote() {
    use rcss_formats::datagram::{parse_datagram, Datagram};
    // Every ball the log holds for a cycle (a stoppage shows a cycle more than once).
    let mut logged = std::collections::BTreeMap::<u32, Vec<[f32; 3]>>::new();
    for f in parse_log(&common::read(common::FORK_ULG7)).frames {
        logged
            .entry(f.time)
            .or_default()
            .push([f.ball.x, f.ball.y, f.ball.z]);
    }
    for capture in [common::FORK_V6_CAPTURE, common::FORK_JSON_CAPTURE] {
        let (mut compared, mut up) = (0, 0);
        for d in common::capture(capture) {
            let Datagram::Records(records) = parse_datagram(&d).unwrap() else {
                panic!("{capture}: an error from the server")
            };
            for r in records {
                let Record::Show(f) = r else { continue };
                let Some(balls) = logged.get(&f.time) else {
                    continue;
                };
                let ball = [f.ball.x, f.ball.y, f.ball.z];
                assert!(
                    balls.contains(&ball),
                    "{capture} {}: {ball:?} not in {balls:?}",
                    f.time
                );
                compared += 1;
                up += usize::from(f.ball.z > 0.0);
            }
        }
        assert!(compared >= 150, "{capture}: {compared}");
        assert!(up >= 30, "{capture}: {up} shows with the ball in the air");
    }
}
