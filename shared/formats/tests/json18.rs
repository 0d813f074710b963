//! rcssserver 18 JSON logs: a first line `JSON`, then records. No 18.x log exists among the
//! fixtures, so these tests build both kinds the reader must tell apart from the real 19 log:
//! one whose records match the 19 format, and one shaped the way the 18.1.3 source writes
//! (`{"type":"header",…}`, flat `{"type":"show",…}` records).
#![allow(clippy::unwrap_used)]

use pitchside_fixtures as common;

use rcss_formats::error::{Location, LogError};
use rcss_formats::log::{parse_log, LogVersion};

fn json19() -> Vec<u8> {
    common::read(common::SHORT[6].1)
}

#[test]
fn an_18_header_over_19_records_is_read_completely() {
    let v19 = json19();
    let mut v18 = b"JSON\n".to_vec();
    v18.extend_from_slice(&v19);
    let a = parse_log(&v19);
    let b = parse_log(&v18);
    assert_eq!(b.version, Some(LogVersion::Json18));
    assert!(b.error.is_none(), "{:?}", b.error);
    assert_eq!(a.frames, b.frames);
    assert_eq!(a.messages, b.messages);
    assert_eq!(a.mode_changes, b.mode_changes);
    assert_eq!(a.last_team, b.last_team);
}

#[test]
fn an_18_log_in_its_own_format_is_named_as_such() {
    let v18 = concat!(
        "JSON\n[\n",
        r#"{"type":"header","version":"18.1.3","timestamp":"2024-05-01T10:00:00+0000"},"#,
        "\n",
        r#"{"type":"show","time":1,"ball":{"x":0,"y":0,"vx":0,"vy":0},"players":[]}"#,
        "\n]\n"
    );
    let m = parse_log(v18.as_bytes());
    assert_eq!(m.version, Some(LogVersion::Json18));
    assert!(m.frames.is_empty());
    let err = m.error.expect("an 18.x record must not pass silently");
    assert!(
        matches!(
            err,
            LogError::UnsupportedJson18 {
                at: Location::Line(3),
                ..
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.contains("rcssserver 18.x JSON log"), "{text}");
    assert!(text.starts_with("line 3"), "{text}");
}

#[test]
fn a_19_log_that_breaks_is_damage_not_an_18_log() {
    let mut v19 = json19();
    let cut = v19.len() / 2;
    let nl = cut + v19[cut..].iter().position(|&b| b == b'\n').unwrap();
    v19.splice(nl + 1..nl + 1, b"{\"type\":\"show\"},\n".iter().copied());
    let m = parse_log(&v19);
    assert!(
        matches!(m.error, Some(LogError::Malformed { .. })),
        "{:?}",
        m.error
    );
    assert!(!m.frames.is_empty());
}
