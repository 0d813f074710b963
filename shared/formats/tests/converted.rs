//! Logs converted by librcsc's `rcgverconv`, the tool teams use to move logs between versions,
//! read as the match they were made from: its quirks (the view quality written as the byte
//! 1, attention as `(fl 1)`) are read, never refused.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::log::{parse_log, Ending};
use rcss_formats::{Match, ViewQuality};

const JSON_TO_V5: &str =
    "logs/rcgverconv-json-to-v5/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.v5.rcg.gz";
const JSON_TO_V6: &str =
    "logs/rcgverconv-json-to-v6/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.v6.rcg.gz";

/// Every frame of `a` against `b`: same time, mode, score, ball and players (positions to the
/// precision both formats write).
fn same_match(a: &Match, b: &Match, what: &str) {
    assert_eq!(a.frames.len(), b.frames.len(), "{what}: frames");
    for (i, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
        assert_eq!(
            (fa.time, fa.mode, &fa.teams),
            (fb.time, fb.mode, &fb.teams),
            "{what}: frame {i}"
        );
        assert!((fa.ball.x - fb.ball.x).abs() < 1e-3, "{what}: frame {i}");
        for (pa, pb) in fa.players.iter().zip(&fb.players) {
            assert_eq!(
                (pa.side, pa.unum, pa.state),
                (pb.side, pb.unum, pb.state),
                "{what}: frame {i}"
            );
            assert!((pa.x - pb.x).abs() < 1e-3 && (pa.y - pb.y).abs() < 1e-3);
            assert_eq!(pa.attention, pb.attention, "{what}: frame {i}");
        }
    }
}

#[test]
fn a_json_log_converted_to_text_reads_as_the_match_it_came_from() {
    let source = parse_log(&common::read(common::SHORT[6].1));
    assert_eq!(source.ending(), Ending::Whole);
    for rel in [JSON_TO_V5, JSON_TO_V6] {
        let bytes = common::read(rel);
        // The quirk is there: `(v \x01 180)`.
        assert!(bytes.windows(6).any(|w| w == b"(v \x01 1"), "{rel}");
        let converted = parse_log(&bytes);
        assert_eq!(
            converted.ending(),
            Ending::Whole,
            "{rel}: {:?}",
            converted.error
        );
        same_match(&source, &converted, rel);
        // The byte 1 is the `h` the source had.
        for (fa, fb) in source.frames.iter().zip(&converted.frames) {
            for (pa, pb) in fa.players.iter().zip(&fb.players) {
                if pb.is_enabled() {
                    assert_eq!(pb.view.map(|v| v.0), Some(ViewQuality::High), "{rel}");
                    assert_eq!(pa.view.map(|v| v.1), pb.view.map(|v| v.1), "{rel}");
                }
            }
        }
    }
}

#[test]
fn every_direction_of_the_converter_reads_whole() {
    let converted: Vec<String> = common::all_logs()
        .into_iter()
        .filter(|r| r.contains("rcgverconv-"))
        .collect();
    assert!(converted.len() >= 7, "{converted:?}");
    for rel in &converted {
        let m = parse_log(&common::read(rel));
        assert_eq!(m.ending(), Ending::Whole, "{rel}: {:?}", m.error);
        assert!(m.frames.len() > 600, "{rel}");
    }
    // The text one converted from ULG6 holds the same match as its source.
    let source = parse_log(&common::read(common::SHORT[5].1));
    let json = converted.iter().find(|r| r.contains("v6-to-json")).unwrap();
    same_match(&source, &parse_log(&common::read(json)), json);
}
