//! The log writers of every version ([`rcss_formats::write::LogWriter`]): a real log read
//! and written again in its own version is the file rcssserver wrote, byte for byte (text and
//! JSON), or the same records (binary, whose files hold the server's uninitialised bytes);
//! written in any other version and read back, it is the same match within what that
//! version keeps.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::log::LogDecoder;
use rcss_formats::write::{write_log_with_header, JsonHeader};
use rcss_formats::{parse_log, LogVersion, Record};

/// librcsc's `rcgverconv` output in the binary versions.
const CONVERTED_BINARY: [(&str, &str); 3] = [
    (
        "rcgverconv v3",
        "logs/rcgverconv-v6-to-v3/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.v3.rcg.gz",
    ),
    (
        "rcgverconv v2",
        "logs/rcgverconv-v6-to-v2/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.v2.rcg.gz",
    ),
    (
        "rcgverconv v1",
        "logs/rcgverconv-v6-to-v1/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.v1.rcg.gz",
    ),
];

fn records(bytes: &[u8]) -> (Vec<Record>, JsonHeader) {
    let mut d = LogDecoder::new();
    let mut out = Vec::new();
    d.feed(bytes, &mut out).unwrap();
    d.finish(&mut out).unwrap();
    (out, d.json_header().clone())
}

/// The log's version, its records, and the log written from them again in that version.
fn written_again(original: &[u8]) -> (LogVersion, Vec<Record>, Vec<u8>) {
    let (recs, header) = records(original);
    let version = parse_log(original).version.unwrap();
    let written = write_log_with_header(version, header, &recs);
    (version, recs, written)
}

/// Fails, showing the first line that differs, unless `ours` is `orig` byte for byte.
fn assert_same_bytes(ours: &[u8], orig: &[u8], what: &str) {
    assert!(ours == orig, "{what}: {}", first_difference(ours, orig));
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let line = a
        .split(|b| *b == b'\n')
        .zip(b.split(|b| *b == b'\n'))
        .position(|(x, y)| x != y);
    match line {
        Some(n) => {
            let show = |bytes: &[u8]| {
                bytes
                    .split(|b| *b == b'\n')
                    .nth(n)
                    .map(|l| String::from_utf8_lossy(&l[..l.len().min(400)]).into_owned())
                    .unwrap_or_default()
            };
            format!("line {}:\n ours: {}\n orig: {}", n + 1, show(a), show(b))
        }
        None => format!("lengths {} vs {}", a.len(), b.len()),
    }
}

#[test]
fn text_and_json_logs_are_rewritten_byte_for_byte() {
    let mut files: Vec<(&str, &str)> = common::SHORT
        .iter()
        .filter(|(n, _)| *n >= "v4" || *n == "json")
        .copied()
        .collect();
    for rel in common::V6_OTHERS {
        files.push(("v6", rel));
    }
    for (name, rel) in files {
        let original = common::read(rel);
        let (_, _, written) = written_again(&original);
        assert_same_bytes(&written, &original, &format!("{name} {rel}"));
    }
}

/// Binary files hold bytes the server never set (after a name's NUL, in a msg's tail): the
/// records, not the bytes, come back.
#[test]
fn binary_logs_are_rewritten_record_for_record() {
    let mut files: Vec<(&str, &str)> = common::SHORT
        .iter()
        .filter(|(n, _)| ["v1", "v2", "v3"].contains(n))
        .copied()
        .collect();
    files.extend(CONVERTED_BINARY);
    for (name, rel) in files {
        let original = common::read(rel);
        let (version, recs, written) = written_again(&original);
        let (again, _) = records(&written);
        assert_eq!(again.len(), recs.len(), "{name}");
        for (i, (a, b)) in again.iter().zip(&recs).enumerate() {
            assert_eq!(a, b, "{name} record {i}");
        }
        if version != LogVersion::V1 && !name.starts_with("rcgverconv") {
            // Without garbage the sizes agree record for record (librcsc ends each msg with
            // a NUL the server does not write).
            assert_eq!(written.len(), original.len(), "{name}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The tools: round trips

use rcss_formats::tools::{rewrite, Edits};
use rcss_formats::{Frame, Match, Player};

fn all_fixtures() -> Vec<(&'static str, &'static str)> {
    let mut files: Vec<(&str, &str)> = common::SHORT.to_vec();
    for rel in common::V6_OTHERS {
        files.push(("v6", rel));
    }
    files.extend(CONVERTED_BINARY);
    files
}

fn edit(bytes: &[u8], edits: Edits) -> Vec<u8> {
    let (out, done) = rewrite(bytes, edits);
    assert_eq!(done.error, None);
    out
}

fn reverse() -> Edits {
    Edits {
        reverse: true,
        ..Edits::default()
    }
}

fn to(v: LogVersion) -> Edits {
    Edits {
        to: Some(v),
        ..Edits::default()
    }
}

/// A body angle of -180° is 180° (the same direction; turned twice it comes back as 180°).
fn canonical(mut records: Vec<rcss_formats::Record>) -> Vec<rcss_formats::Record> {
    for r in &mut records {
        if let rcss_formats::Record::Show(f) = r {
            for p in &mut f.players {
                if p.body == -180.0 {
                    p.body = 180.0;
                }
            }
        }
    }
    records
}

/// What pitchside writes for a log it does not change: the log itself for text and JSON, the
/// same records for binary logs.
fn same_log(name: &str, a: &[u8], b: &[u8]) {
    if a == b {
        return;
    }
    let ra = canonical(records(a).0);
    let rb = canonical(records(b).0);
    assert_eq!(ra.len(), rb.len(), "{name}: records");
    for (i, (x, y)) in ra.iter().zip(&rb).enumerate() {
        assert_eq!(x, y, "{name}: record {i}");
    }
}

#[test]
fn reversing_twice_gives_the_original() {
    for (name, rel) in all_fixtures() {
        let original = common::read(rel);
        let once = edit(&original, reverse());
        assert_ne!(once, original, "{name}");
        let twice = edit(&once, reverse());
        // Binary logs hold the server's stray bytes: against pitchside's rewrite of them.
        let same = edit(&original, Edits::default());
        same_log(name, &twice, &same);
        let has_minus_180 = String::from_utf8_lossy(&original).contains(" -180 ");
        if parse_log(&original).version.unwrap().is_line_based() && !has_minus_180 {
            assert_same_bytes(&twice, &original, name);
        }
    }
}

#[test]
fn a_reversed_match_is_the_same_match_seen_from_the_other_side() {
    let m = parse_log(&common::read(common::SHORT[5].1));
    let r = parse_log(&edit(&common::read(common::SHORT[5].1), reverse()));
    assert_eq!(m.frames.len(), r.frames.len());
    assert_eq!(
        m.goals()
            .iter()
            .map(|(t, s)| (*t, s.other()))
            .collect::<Vec<_>>(),
        r.goals()
    );
    let (a, b) = (m.final_teams(), r.final_teams());
    assert_eq!((&a[0], &a[1]), (&b[1], &b[0]));
    for (f, g) in m.frames.iter().zip(&r.frames) {
        assert_eq!(f.mode.mirrored(), g.mode);
        assert_eq!((f.ball.x, f.ball.vy), (-g.ball.x, -g.ball.vy));
        for (i, p) in f.players.iter().enumerate() {
            let q = &g.players[(i + 11) % 22];
            assert_eq!((p.unum, p.side.map(|s| s.other())), (q.unum, q.side));
            if p.state != 0 {
                assert_eq!((p.x, p.y), (-q.x, -q.y));
                let turned = (f64::from(p.body) - f64::from(q.body)).rem_euclid(360.0);
                assert!((turned - 180.0).abs() < 1e-3, "{} {}", p.body, q.body);
                assert_eq!(p.attention.map(|(s, n)| (s.other(), n)), q.attention);
            }
        }
    }
    // The tiles change sides, and so do the result and (in a v1 log, which has them) the
    // referee's msgs.
    assert!(m
        .team_graphics
        .iter()
        .all(|t| t.side == rcss_formats::Side::Left));
    assert!(r
        .team_graphics
        .iter()
        .all(|t| t.side == rcss_formats::Side::Right));
    let texts = |m: &Match| -> Vec<String> { m.messages.iter().map(|m| m.text_lossy()).collect() };
    assert!(texts(&r)
        .iter()
        .any(|t| t.ends_with(" SHORT_R_a_1-vs-SHORT_L_a_0)")));
    let v1 = common::read(common::SHORT[0].1);
    let (m, r) = (parse_log(&v1), parse_log(&edit(&v1, reverse())));
    for (a, b) in [
        ("(referee kick_off_l)", "(referee kick_off_r)"),
        ("(referee foul_charge_r)", "(referee foul_charge_l)"),
    ] {
        let n = |m: &Match, t: &str| texts(m).iter().filter(|x| x.starts_with(t)).count();
        assert!(n(&m, a) > 0 && n(&m, a) == n(&r, b), "{a}");
    }
}

/// Which parts of the model a version keeps: the rest is not compared.
fn keeps(v: LogVersion) -> (bool, bool, bool) {
    // (velocities, stamina and view, the rest of a player beyond them)
    match v {
        LogVersion::V1 | LogVersion::V2 => (false, false, false),
        LogVersion::V3 => (true, true, false),
        _ => (true, true, true),
    }
}

fn same_players(a: &Player, b: &Player, v: LogVersion, ctx: &str) {
    let (vel, stamina, rest) = keeps(v);
    let binary_pos = !vel;
    let (tol, angle) = if binary_pos {
        (1.0 / 32.0 + 1e-6, 0.5 + 1e-3)
    } else {
        (0.0, 0.0)
    };
    let near = |x: f32, y: f32, t: f64, what: &str| {
        assert!(
            (f64::from(x) - f64::from(y)).abs() <= t,
            "{ctx} {what}: {x} vs {y}"
        );
    };
    assert_eq!(
        (a.side, a.unum, a.state & 0xffff),
        (b.side, b.unum, b.state & 0xffff),
        "{ctx}"
    );
    near(a.x, b.x, tol, "x");
    near(a.y, b.y, tol, "y");
    if a.state != 0 {
        let turn = (f64::from(a.body) - f64::from(b.body) + 180.0).rem_euclid(360.0) - 180.0;
        assert!(turn.abs() <= angle, "{ctx} body {} vs {}", a.body, b.body);
    }
    if vel {
        near(a.vx, b.vx, tol, "vx");
        near(a.vy, b.vy, tol, "vy");
        near(a.neck, b.neck, angle, "neck");
        assert_eq!(a.player_type, b.player_type, "{ctx}");
    }
    if stamina {
        assert_eq!(a.view, b.view, "{ctx}: view (quality kept)");
        let (s, t) = (a.stamina.unwrap(), b.stamina.unwrap());
        let rel = |x: f32, y: f32| (x - y).abs() <= x.abs().max(1.0) * 2e-5;
        assert!(
            rel(s.stamina, t.stamina) && rel(s.effort, t.effort) && rel(s.recovery, t.recovery),
            "{ctx}: {s:?} {t:?}"
        );
        let (c, d) = (a.counts.unwrap(), b.counts.unwrap());
        for k in [0, 1, 2, 3, 4, 5, 6, 7] {
            assert_eq!(c.values[k], d.values[k], "{ctx}: count {k}");
        }
    }
    if rest {
        assert_eq!(a.point, b.point, "{ctx}");
        assert_eq!(a.attention, b.attention, "{ctx}");
    }
}

fn same_match(a: &Match, b: &Match, v: LogVersion, name: &str) {
    assert_eq!(a.frames.len(), b.frames.len(), "{name}: frames");
    for (i, (f, g)) in a.frames.iter().zip(&b.frames).enumerate() {
        let ctx = format!("{name} frame {i} (cycle {})", f.time);
        assert_eq!((f.time, f.mode), (g.time, g.mode), "{ctx}");
        for (s, t) in f.teams.iter().zip(&g.teams) {
            assert_eq!((&s.name, s.score), (&t.name, t.score), "{ctx}");
        }
        same_frame_ball(f, g, v, &ctx);
        for (p, q) in f.players.iter().zip(&g.players) {
            same_players(p, q, v, &ctx);
        }
    }
    // Tiles are compared as tiles: a JSON log writes them as team_graphic records, and a
    // binary log's stray bytes after a tile's text do not survive that.
    let texts = |m: &Match| -> Vec<(i32, Vec<u8>)> {
        m.messages
            .iter()
            .filter(|m| !m.text.starts_with(b"(team_graphic_"))
            .map(|m| (m.board, m.text.clone()))
            .collect()
    };
    assert_eq!(texts(a), texts(b), "{name}: msgs");
    assert_eq!(a.team_graphics, b.team_graphics, "{name}: tiles");
    if !matches!(v, LogVersion::V1 | LogVersion::V2 | LogVersion::V3) {
        assert_eq!(a.player_types, b.player_types, "{name}: player types");
        assert_eq!(a.final_teams(), b.final_teams(), "{name}");
    }
}

fn same_frame_ball(f: &Frame, g: &Frame, v: LogVersion, ctx: &str) {
    let (vel, _, _) = keeps(v);
    let tol = if vel { 0.0 } else { 1.0 / 32.0 + 1e-6 };
    assert!(
        (f.ball.x - g.ball.x).abs() as f64 <= tol && (f.ball.y - g.ball.y).abs() as f64 <= tol,
        "{ctx} ball"
    );
    if vel {
        assert_eq!((f.ball.vx, f.ball.vy), (g.ball.vx, g.ball.vy), "{ctx} ball");
    }
}

/// Every text and JSON fixture converted to every version and back reads as the same match,
/// within what that version keeps; JSON and ULG6 go both ways byte for byte.
#[test]
fn converting_to_any_version_and_back_keeps_the_match() {
    let targets = LogVersion::WRITTEN;
    for (name, rel) in common::SHORT
        .iter()
        .filter(|(n, _)| n.starts_with('v') && *n >= "v4" || *n == "json")
    {
        let original = common::read(rel);
        let source = parse_log(&original);
        let own = source.version.unwrap();
        for v in targets {
            let there = edit(&original, to(v));
            assert_eq!(parse_log(&there).version, Some(v), "{name} → {v}");
            let back = edit(&there, to(own));
            let m = parse_log(&back);
            assert_eq!(m.error, None, "{name} → {v} → {own}");
            same_match(&source, &m, v, &format!("{name} → {v} → {own}"));
        }
    }
    // JSON → ULG6 → JSON loses nothing but the timestamp record, which ULG6 has no place for.
    let json = common::read(common::SHORT[6].1);
    let back = edit(&edit(&json, to(LogVersion::V6)), to(LogVersion::Json));
    let without_timestamp: Vec<u8> = String::from_utf8_lossy(&json)
        .replacen("{\"timestamp\":\"2026-11-22T13:27:46+0000\"},\n", "", 1)
        .into_bytes();
    assert_same_bytes(&back, &without_timestamp, "JSON → ULG6 → JSON");
}

/// Binary sources through every version and back.
#[test]
fn binary_logs_convert_and_come_back() {
    for (name, rel) in common::SHORT
        .iter()
        .filter(|(n, _)| ["v1", "v2", "v3"].contains(n))
    {
        let original = common::read(rel);
        let own = parse_log(&original).version.unwrap();
        let source = parse_log(&edit(&original, Edits::default()));
        for v in [
            LogVersion::V3,
            LogVersion::V4,
            LogVersion::V5,
            LogVersion::V6,
            LogVersion::Json,
        ] {
            let back = edit(&edit(&original, to(v)), to(own));
            same_match(
                &source,
                &parse_log(&back),
                own,
                &format!("{name} → {v} → {own}"),
            );
        }
    }
}

#[test]
fn a_clip_of_the_whole_is_the_whole() {
    for (name, rel) in all_fixtures() {
        let original = common::read(rel);
        let whole = edit(
            &original,
            Edits {
                clip: Some((0, u32::MAX)),
                ..Edits::default()
            },
        );
        same_log(name, &whole, &edit(&original, Edits::default()));
        if parse_log(&original).version.unwrap().is_line_based() {
            assert_same_bytes(&whole, &original, name);
        }
    }
}

/// A clip starts with the parameters, player types, tiles, and the mode and score in force.
#[test]
fn a_clip_stands_on_its_own() {
    let original = common::read(common::SHORT[5].1);
    let clip = edit(
        &original,
        Edits {
            clip: Some((300, 320)),
            ..Edits::default()
        },
    );
    let m = parse_log(&clip);
    let whole = parse_log(&original);
    assert_eq!(m.error, None);
    assert_eq!(m.server_param, whole.server_param);
    assert_eq!(m.player_types, whole.player_types);
    assert_eq!(m.team_graphics, whole.team_graphics);
    let want: Vec<&Frame> = whole
        .frames
        .iter()
        .filter(|f| (300..=320).contains(&f.time))
        .collect();
    assert_eq!(m.frames.iter().collect::<Vec<_>>(), want);
    // The goal at 271 counts: the score in force is 0-1.
    assert_eq!(
        (m.frames[0].teams[0].score, m.frames[0].teams[1].score),
        (0, 1)
    );
    let text = String::from_utf8_lossy(&clip);
    let lines: Vec<&str> = text.lines().collect();
    let first_show = lines.iter().position(|l| l.starts_with("(show ")).unwrap();
    assert!(
        lines[first_show - 2].starts_with("(playmode 301 "),
        "{}",
        lines[first_show - 2]
    );
    assert!(lines[first_show - 1].starts_with("(team 301 SHORT_L_a SHORT_R_a 0 1)"));
}

/// The tools stream: fed in pieces of any size, they write the same bytes.
#[test]
fn rewriting_streams() {
    use rcss_formats::tools::Rewriter;
    let gz = std::fs::read(common::path(common::SHORT[2].1)).unwrap();
    let (whole, _) = rewrite(&gz, to(LogVersion::Json));
    for step in [1usize, 7, 4096, 100_000] {
        let mut r = Rewriter::new(to(LogVersion::Json));
        let mut out = Vec::new();
        for chunk in gz.chunks(step) {
            out.extend(r.feed(chunk));
        }
        let (rest, done) = r.finish();
        out.extend(rest);
        assert_eq!(done.error, None);
        assert!(out == whole, "in pieces of {step}");
    }
    let v = rcss_formats::tools::validate::validate(&gz);
    let mut s = rcss_formats::tools::validate::Streaming::new();
    for chunk in gz.chunks(333) {
        s.feed(chunk);
    }
    assert_eq!(s.finish(), v);
}
