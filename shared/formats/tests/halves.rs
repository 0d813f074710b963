//! `parse_log` splits large text and JSON logs into two halves decoded at once; it must give
//! exactly what one pass (`parse_sequential`) gives, damage included.
#![allow(clippy::unwrap_used)]

use pitchside_fixtures as common;

use rcss_formats::log::{parse_log, parse_sequential, Match};

fn assert_same(a: &Match, b: &Match, what: &str) {
    assert_eq!(a.version, b.version, "{what}: version");
    assert_eq!(a.frames.len(), b.frames.len(), "{what}: frame count");
    assert!(a.frames == b.frames, "{what}: frames differ");
    assert_eq!(a.messages, b.messages, "{what}: messages");
    assert_eq!(
        a.message_positions, b.message_positions,
        "{what}: message positions"
    );
    assert_eq!(a.mode_changes, b.mode_changes, "{what}: play modes");
    assert_eq!(a.last_team, b.last_team, "{what}: teams");
    assert_eq!(a.team_graphics, b.team_graphics, "{what}: team graphics");
    assert_eq!(a.server_param, b.server_param, "{what}: server_param");
    assert_eq!(a.player_types, b.player_types, "{what}: player types");
    assert_eq!(a.error, b.error, "{what}: error");
}

#[test]
fn real_logs_decode_the_same_in_halves() {
    let full = common::read(common::FULL_GAME);
    let json = common::read(common::SHORT[6].1);
    for (what, bytes) in [("full ULG6 game", &full), ("short JSON game", &json)] {
        assert!(bytes.len() > 4 << 20, "{what} is too small to be split");
        let whole = parse_sequential(bytes);
        assert!(whole.error.is_none());
        assert_same(&parse_log(bytes), &whole, what);
    }
}

#[test]
fn damage_in_either_half_is_reported_as_one_pass_reports_it() {
    let full = common::read(common::FULL_GAME);
    let line_after = |at: usize| at + full[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    for frac in [0.2, 0.49, 0.51, 0.8] {
        let at = line_after((full.len() as f64 * frac) as usize);
        let mut broken = full.clone();
        broken.splice(at..at, b"(show 12 ((b) 1 2 x\n".iter().copied());
        let what = format!("garbage at {:.0}%", frac * 100.0);
        let one = parse_sequential(&broken);
        assert!(one.error.is_some(), "{what}");
        assert_same(&parse_log(&broken), &one, &what);

        let cut = &full[..(full.len() as f64 * frac) as usize + 1000];
        let what = format!("cut at {:.0}%", frac * 100.0);
        assert_same(&parse_log(cut), &parse_sequential(cut), &what);
    }
}
