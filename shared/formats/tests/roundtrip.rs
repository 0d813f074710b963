//! The ULG6 writer: text logs read, written and read again give the same match; a ULG6 log
//! comes out byte for byte as rcssserver wrote it; binary and JSON logs survive within the
//! quantisation of their source.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::write::ulg6;
use rcss_formats::{parse_log, Frame, Match, Player};

fn reparse(m: &Match) -> Match {
    let out = parse_log(&ulg6(m));
    assert!(out.error.is_none(), "{:?}", out.error);
    out
}

/// Compares the fields both carry; `tol` is the source's quantisation.
fn same_player(a: &Player, b: &Player, tol: f32, ctx: &str) {
    let near = |x: f32, y: f32, what: &str| {
        assert!((x - y).abs() <= tol, "{ctx} {what}: {x} vs {y}");
    };
    assert_eq!(
        (a.side, a.unum, a.player_type, a.state),
        (b.side, b.unum, b.player_type, b.state),
        "{ctx}"
    );
    near(a.x, b.x, "x");
    near(a.y, b.y, "y");
    near(a.vx, b.vx, "vx");
    near(a.vy, b.vy, "vy");
    near(a.body, b.body, "body");
    near(a.neck, b.neck, "neck");
    assert_eq!(a.point, b.point, "{ctx}");
    if let Some(v) = a.view {
        assert_eq!(Some(v.0), b.view.map(|v| v.0), "{ctx}");
        near(v.1, b.view.unwrap().1, "view width");
    }
    if a.focus.is_some() {
        assert_eq!(a.focus, b.focus, "{ctx}");
    }
    if let Some(s) = a.stamina {
        let t = b.stamina.unwrap();
        // Stamina values print with 6 significant digits.
        let rel = |x: f32, y: f32| (x - y).abs() <= x.abs().max(1.0) * 1e-5;
        assert!(
            rel(s.stamina, t.stamina) && rel(s.effort, t.effort) && rel(s.recovery, t.recovery),
            "{ctx}: {s:?} vs {t:?}"
        );
        if s.capacity.is_some() {
            assert_eq!(s.capacity, t.capacity, "{ctx}");
        }
    }
    assert_eq!(a.attention, b.attention, "{ctx}");
    if let Some(c) = a.counts {
        let d = b.counts.unwrap();
        assert_eq!(
            &c.values[..c.len as usize],
            &d.values[..c.len as usize],
            "{ctx}"
        );
    }
}

fn same_frames(a: &[Frame], b: &[Frame], tol: f32, name: &str) {
    assert_eq!(a.len(), b.len(), "{name}: frame count");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let ctx = format!("{name} frame {i} (time {})", x.time);
        assert_eq!((x.time, x.mode), (y.time, y.mode), "{ctx}");
        assert_eq!(x.teams, y.teams, "{ctx}");
        for (u, v) in [
            (x.ball.x, y.ball.x),
            (x.ball.y, y.ball.y),
            (x.ball.vx, y.ball.vx),
            (x.ball.vy, y.ball.vy),
        ] {
            assert!((u - v).abs() <= tol, "{ctx} ball {u} vs {v}");
        }
        for (p, q) in x.players.iter().zip(&y.players) {
            same_player(p, q, tol, &ctx);
        }
    }
}

#[test]
fn text_logs_round_trip_through_ulg6() {
    for (name, rel) in common::SHORT
        .iter()
        .filter(|(n, _)| n.starts_with('v') && *n >= "v4")
    {
        let m = parse_log(&common::read(rel));
        assert!(m.error.is_none(), "{name}");
        let again = reparse(&m);
        same_frames(&m.frames, &again.frames, 0.0, name);
        assert_eq!(m.mode_changes, again.mode_changes, "{name}");
        assert_eq!(m.final_teams(), again.final_teams(), "{name}");
        assert_eq!(m.messages, again.messages, "{name}");
        assert_eq!(m.server_param, again.server_param, "{name}");
        assert_eq!(m.player_types, again.player_types, "{name}");
    }
}

#[test]
fn ulg6_logs_are_rewritten_byte_for_byte() {
    let mut files: Vec<&str> = common::V6_OTHERS.to_vec();
    files.push(common::SHORT[5].1);
    for rel in files {
        let original = common::read(rel);
        let written = ulg6(&parse_log(&original));
        if written != original {
            let line = original
                .split(|b| *b == b'\n')
                .zip(written.split(|b| *b == b'\n'))
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            let show = |bytes: &[u8]| {
                bytes
                    .split(|b| *b == b'\n')
                    .nth(line)
                    .map(|l| String::from_utf8_lossy(&l[..l.len().min(300)]).into_owned())
            };
            panic!(
                "{rel}: first difference on line {}:\n  server: {:?}\n  ours:   {:?}",
                line + 1,
                show(&original),
                show(&written)
            );
        }
    }
}

#[test]
fn binary_and_json_logs_survive_ulg6_within_their_quantisation() {
    for (name, rel, tol) in [
        ("v1", common::SHORT[0].1, 1.0 / 16.0),
        ("v2", common::SHORT[1].1, 0.0001),
        ("v3", common::SHORT[2].1, 0.0001),
        ("json", common::SHORT[6].1, 0.0001),
    ] {
        let m = parse_log(&common::read(rel));
        assert!(m.error.is_none(), "{name}: {:?}", m.error);
        let again = reparse(&m);
        // ULG6 logs nothing before kick-off, so compare the frames it keeps.
        let kept: Vec<Frame> = m
            .frames
            .iter()
            .filter(|f| f.mode.index() > 1)
            .cloned()
            .collect();
        same_frames(&kept, &again.frames, tol, name);
        assert_eq!(m.messages.len(), again.messages.len(), "{name}");
        assert_eq!(m.final_teams(), again.final_teams(), "{name}");
    }
}
