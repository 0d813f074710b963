//! `Detail::Light` decoding keeps, for every real log, exactly the fields match events and
//! summaries read, and every other record as the full decode gives it.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::log::{Detail, LogDecoder};
use rcss_formats::{Frame, Record};

fn decode(bytes: &[u8], detail: Detail) -> Vec<Record> {
    let mut d = LogDecoder::new();
    d.set_detail(detail);
    let mut out = Vec::new();
    for piece in bytes.chunks(100_003) {
        d.feed(piece, &mut out).unwrap();
    }
    d.finish(&mut out).unwrap();
    out
}

/// A frame reduced to what `Detail::Light` keeps.
fn light(f: &Frame) -> Frame {
    let mut f = f.clone();
    for p in &mut f.players {
        *p = rcss_formats::Player {
            side: p.side,
            unum: p.unum,
            player_type: p.player_type,
            state: p.state,
            x: p.x,
            y: p.y,
            ..Default::default()
        };
    }
    f
}

#[test]
fn light_decoding_keeps_the_fields_it_promises_on_every_log() {
    for (_, rel) in common::named_games() {
        let bytes = common::read(rel);
        let full = decode(&bytes, Detail::Full);
        let lite = decode(&bytes, Detail::Light);
        assert_eq!(full.len(), lite.len(), "{rel}");
        // Text and JSON shows are read light; binary ones in full (their records are fixed
        // structs, as cheap to read whole).
        let light_read = bytes.starts_with(b"ULG4")
            || bytes.starts_with(b"ULG5")
            || bytes.starts_with(b"ULG6")
            || bytes.starts_with(b"[");
        for (i, (a, b)) in full.iter().zip(&lite).enumerate() {
            match (a, b) {
                (Record::Show(a), Record::Show(b)) if light_read => {
                    assert_eq!(&light(a), b, "{rel}: record {i}")
                }
                _ => assert_eq!(a, b, "{rel}: record {i}"),
            }
        }
    }
}
