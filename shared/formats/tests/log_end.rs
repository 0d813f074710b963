//! Logs that stop early. A JSON log whose array is never closed (the server was killed)
//! keeps every complete record and is an error, "incomplete: the log stops at cycle N"; a
//! text or binary log that stops before time over is not an error, but says so.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::log::{parse_log, parse_sequential, Ending, LogDecoder};
use rcss_formats::{Location, LogError, Record};

/// The offset just after the newline that follows `at`.
fn line_after(bytes: &[u8], at: usize) -> usize {
    at + bytes[at..].iter().position(|&b| b == b'\n').unwrap() + 1
}

fn last_show_time(bytes: &[u8]) -> u32 {
    parse_sequential(bytes).frames.last().unwrap().time
}

#[test]
fn every_whole_fixture_reaches_full_time() {
    for (_, rel) in common::named_games() {
        let m = parse_log(&common::read(rel));
        assert!(m.error.is_none(), "{rel}: {:?}", m.error);
        assert_eq!(m.ends_before_full_time(), None, "{rel}");
        assert_eq!(m.end.note(), None, "{rel}");
        assert_eq!(m.end.last_cycle(), m.frames.last().map(|f| f.time), "{rel}");
    }
}

#[test]
fn a_json_log_without_its_closing_bracket_is_incomplete_at_its_last_cycle() {
    let json = common::read(common::SHORT[6].1);
    // The server killed after some record: the file ends with "},\n" and no "]".
    for frac in [0.1, 0.5, 0.9] {
        let end = line_after(&json, (json.len() as f64 * frac) as usize);
        let cut = &json[..end];
        let m = parse_log(cut);
        let cycle = last_show_time(cut);
        let lines = cut.iter().filter(|&&b| b == b'\n').count() as u64;
        assert_eq!(
            m.error,
            Some(LogError::Incomplete {
                at: Location::Line(lines + 1),
                cycle
            }),
            "short-json cut after line {lines}"
        );
        assert_eq!(
            m.error.as_ref().unwrap().to_string(),
            format!("incomplete: the log stops at cycle {cycle}")
        );
        assert_eq!(m.ends_before_full_time(), Some(cycle));
        // Every complete record is kept: the same frames as the whole log up to there.
        let whole = parse_log(&json);
        assert_eq!(m.frames[..], whole.frames[..m.frames.len()]);
    }
    // Only the closing "]" missing: every frame of the game, still incomplete.
    let open = &json[..json.len() - 2];
    assert!(open.ends_with(b"}\n"));
    let m = parse_log(open);
    assert_eq!(m.frames.len(), 679);
    assert!(
        matches!(m.error, Some(LogError::Incomplete { cycle: 600, .. })),
        "{:?}",
        m.error
    );
}

#[test]
fn an_incomplete_json_log_reads_the_same_fed_in_pieces_or_split_in_halves() {
    let json = common::read(common::SHORT[6].1);
    let cut = &json[..json.len() * 3 / 4];
    let whole = parse_sequential(cut);
    assert!(matches!(whole.error, Some(LogError::Incomplete { .. })));
    assert_eq!(parse_log(cut).error, whole.error, "two halves");
    let mut d = LogDecoder::new();
    let mut records: Vec<Record> = Vec::new();
    let mut res = Ok(());
    for piece in cut.chunks(4093) {
        res = d.feed(piece, &mut records);
        if res.is_err() {
            break;
        }
    }
    if res.is_ok() {
        res = d.finish(&mut records);
    }
    assert_eq!(res.err(), whole.error, "fed in 4093-byte pieces");
    let frames = records
        .iter()
        .filter(|r| matches!(r, Record::Show(_)))
        .count();
    assert_eq!(frames, whole.frames.len());
}

#[test]
fn a_text_log_that_stops_before_time_over_is_no_error_but_says_so() {
    let full = common::read(common::FULL_GAME);
    let end = line_after(&full, full.len() / 3);
    let cut = &full[..end];
    let m = parse_log(cut);
    assert_eq!(m.error, None, "full game cut at a line boundary");
    let cycle = last_show_time(cut);
    assert_eq!(m.ends_before_full_time(), Some(cycle));
    assert_eq!(
        m.end.note().unwrap(),
        format!("incomplete: the log stops at cycle {cycle}")
    );
    assert_eq!(m.ending(), Ending::Incomplete { cycle });
}

/// A log cut short says the same whatever its version and wherever the cut falls: between
/// records, inside the last one, in a gzip stream. Damage before the end is damage.
#[test]
fn a_log_cut_short_is_incomplete_the_same_way_in_every_version() {
    let mut all: Vec<&str> = common::SHORT.iter().map(|(_, r)| *r).collect();
    all.push(common::FULL_JSON);
    for rel in all {
        let bytes = common::read(rel);
        assert_eq!(parse_log(&bytes).ending(), Ending::Whole, "{rel}");
        for frac in [0.3, 0.6, 0.9] {
            let at = (bytes.len() as f64 * frac) as usize;
            let m = parse_log(&bytes[..at]);
            let cycle = m.end.last_cycle().unwrap();
            assert_eq!(
                m.ending(),
                Ending::Incomplete { cycle },
                "{rel} cut at byte {at}: {:?}",
                m.error
            );
            assert_eq!(
                m.ending().to_string(),
                format!("incomplete: the log stops at cycle {cycle}")
            );
            // Gzipped as a server writing a compressed log leaves it when killed.
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &bytes).unwrap();
            let gz = gz.finish().unwrap();
            let gz_cut = &gz[..(gz.len() as f64 * frac) as usize];
            let m = parse_log(gz_cut);
            assert!(
                matches!(m.ending(), Ending::Incomplete { .. }),
                "{rel} gzipped, cut: {:?}",
                m.error
            );
        }
    }
    // Damage in the middle is damage, not an early end.
    let mut text = common::read(common::SHORT[5].1);
    let mid = text.len() / 2;
    text[mid..mid + 8].copy_from_slice(b"#garbage");
    assert!(matches!(parse_log(&text).ending(), Ending::Damaged(_)));
}

#[test]
fn a_binary_log_that_stops_before_time_over_is_no_error_but_says_so() {
    for (name, rel) in &common::SHORT[..3] {
        let bytes = common::read(rel);
        let whole = parse_log(&bytes);
        // Cut after the 300th show: binary records end where the next one starts.
        let m = (1..bytes.len())
            .rev()
            .step_by(97)
            .map(|n| parse_log(&bytes[..n]))
            .find(|m| m.error.is_none() && m.frames.len() < 400 && m.frames.len() > 200)
            .unwrap_or_else(|| panic!("{name}: no clean cut found"));
        let last = m.frames.last().unwrap().time;
        assert_eq!(m.ends_before_full_time(), Some(last), "{name}");
        assert_eq!(whole.ends_before_full_time(), None, "{name}");
    }
}
