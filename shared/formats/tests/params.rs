//! The rcssserver 19 defaults in `params` are what the real server wrote with default
//! settings, and typed parameters read the same from text, JSON and binary logs.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::params::{
    default_player_param, default_player_type, default_server_param, MatchParams, ServerParams,
};
use rcss_formats::{parse_log, Params};

fn differing(a: &Params, b: &Params) -> Vec<String> {
    assert_eq!(a.entries.len(), b.entries.len());
    a.entries
        .iter()
        .zip(&b.entries)
        .filter(|(x, y)| x != y)
        .map(|(x, _)| x.0.clone())
        .collect()
}

#[test]
fn defaults_equal_the_full_games_parameters_but_its_own_settings() {
    let m = parse_log(&common::read(common::FULL_GAME));
    let sp = m.server_param.as_ref().unwrap();
    assert_eq!(
        differing(default_server_param(), sp),
        ["auto_mode", "game_log_dir", "text_logging"],
        "the full game ran with defaults plus auto_mode, no text log, and its own log folder"
    );
    let pp = m.player_param.as_ref().unwrap();
    assert_eq!(differing(default_player_param(), pp), ["random_seed"]);
    assert_eq!(default_player_type(), &m.player_types[0]);
}

#[test]
fn type_zero_is_the_same_in_every_text_and_json_log() {
    for (name, rel) in &common::SHORT[3..] {
        let m = parse_log(&common::read(rel));
        assert_eq!(
            default_player_type(),
            &m.player_types[0],
            "{name}: player type 0"
        );
    }
}

#[test]
fn typed_parameters_agree_across_text_json_and_binary_logs() {
    let text = MatchParams::of_match(&parse_log(&common::read(common::SHORT[5].1)));
    assert_eq!(
        text.server.half_time_cycles, 300,
        "short games: half_time 30 s"
    );
    assert_eq!(text.player_types.len(), 18);
    for (name, rel) in [common::SHORT[2], common::SHORT[3], common::SHORT[6]] {
        let m = parse_log(&common::read(rel));
        let p = MatchParams::of_match(&m);
        assert_eq!(p.server, text.server, "{name}: server params");
        assert_eq!(p.player_types.len(), 18, "{name}: player types");
    }
    // v1 and v2 logs carry no parameters: every value is rcssserver 19's default.
    for (name, rel) in &common::SHORT[..2] {
        let m = parse_log(&common::read(rel));
        assert!(m.server_param.is_none(), "{name}");
        let p = MatchParams::of_match(&m);
        assert_eq!(p.server, ServerParams::defaults(), "{name}");
        assert!(p.player_types.is_empty(), "{name}");
    }
}
