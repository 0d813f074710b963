//! The tracking table written straight from a text log's lines is, byte for byte, the one
//! the decoder's frames give, on every log in the fixtures: whole, converted by librcsc's
//! tools, cut and damaged. Logs in another form (binary, JSON, damage) are refused, never
//! written differently.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use pitchside_analysis::export::text::{show_body, TextTracking};
use pitchside_analysis::export::{tracking_header, Tracking};
use rcss_formats::log::{LogDecoder, LogEnd};
use rcss_formats::Record;

/// The table as the decoder's path writes it, and where the log's record stops.
fn by_frames(bytes: &[u8]) -> (String, LogEnd, bool) {
    let mut d = LogDecoder::new();
    let mut records = Vec::new();
    let ok = d.feed(bytes, &mut records).is_ok() && d.finish(&mut records).is_ok();
    let mut out = String::new();
    tracking_header(&mut out);
    let mut t = Tracking::new();
    let mut end = LogEnd::default();
    for r in &records {
        end.push(r);
        if let Record::Show(f) = r {
            t.row(f, &mut out);
        }
    }
    (out, end, ok)
}

/// The same straight from the lines, in batches of about `piece` bytes (cut after a
/// newline); `None` if refused.
fn by_lines(bytes: &[u8], piece: usize) -> Option<(String, LogEnd)> {
    let mut out = String::new();
    tracking_header(&mut out);
    let mut out = out.into_bytes();
    let mut t = TextTracking::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let cut = match rest
            .get(piece..)
            .and_then(|r| r.iter().position(|&b| b == b'\n'))
        {
            Some(n) => piece + n + 1,
            None if rest.ends_with(b"\n") => rest.len(),
            // A last line without its newline: the decoder says whether it was cut.
            None => return None,
        };
        let (batch, next) = rest.split_at(cut);
        rest = next;
        let (mut prefixes, mut shows) = (Vec::new(), Vec::new());
        if !t.lines(batch, &mut prefixes, &mut shows) {
            return None;
        }
        let mut from = 0;
        for s in shows {
            out.extend_from_slice(&prefixes[from..s.prefix_end]);
            from = s.prefix_end;
            show_body(&batch[s.start..s.end], &mut out)?;
        }
    }
    if !t.has_header() {
        return None;
    }
    String::from_utf8(out).ok().map(|o| (o, t.end()))
}

#[test]
fn every_text_log_gives_the_decoders_table_or_is_refused() {
    let mut taken = Vec::new();
    for rel in common::all_logs() {
        let bytes = common::read(&rel);
        let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
            common::read(&rel)
        } else {
            bytes
        };
        let (slow, slow_end, slow_ok) = by_frames(&bytes);
        for piece in [1 << 16, 4093] {
            match by_lines(&bytes, piece) {
                Some((fast, end)) => {
                    assert!(slow_ok, "{rel}: taken although the decoder stops on it");
                    assert_eq!(end, slow_end, "{rel}");
                    if fast != slow {
                        let line = fast
                            .lines()
                            .zip(slow.lines())
                            .position(|(a, b)| a != b)
                            .unwrap_or(0);
                        panic!(
                            "{rel}: row {line} differs:\n{}\n{}",
                            fast.lines().nth(line).unwrap_or(""),
                            slow.lines().nth(line).unwrap_or("")
                        );
                    }
                    if piece == 4093 {
                        taken.push(rel.clone());
                    }
                }
                None => assert!(
                    !bytes.starts_with(b"ULG4")
                        && !bytes.starts_with(b"ULG5")
                        && !bytes.starts_with(b"ULG6")
                        || !slow_ok,
                    "{rel}: a whole text log refused"
                ),
            }
        }
    }
    // The real games of every text version, and librcsc's conversions, are all taken.
    for must in [
        "full-v6-realtime",
        "short-v4",
        "short-v5",
        "short-v6",
        "rcgverconv-json-to-v5",
        "rcgverconv-json-to-v6",
        "penalty-shootout-v6",
    ] {
        assert!(
            taken.iter().any(|t| t.contains(must)),
            "{must} not taken: {taken:?}"
        );
    }
}

#[test]
fn damage_anywhere_sends_the_log_to_the_decoder() {
    let bytes = common::read("logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert!(by_lines(text.as_bytes(), 1 << 16).is_some());
    // A number broken in a show, a player missing, a show with a second ball, a cut last
    // line, no header: each refused.
    let broken = text.replacen(" 0x1 -25 ", " 0x1 -2x5 ", 1);
    let missing = text.replacen(" ((r 11)", " ((r 12)", 1);
    let cut = &text[..text.len() - 40];
    for (what, t) in [
        ("a broken number", broken.as_str()),
        ("a player 12", missing.as_str()),
        ("a cut last line", cut),
        ("no header", &text[5..]),
    ] {
        assert_ne!(t, text, "{what}: the fixture has what is changed");
        assert!(by_lines(t.as_bytes(), 1 << 16).is_none(), "{what}");
    }
}

/// The page's tables: built from records as they are decoded, the tracking table is the
/// decoder path's, row for row, on every log of the fixtures read whole.
#[test]
fn a_table_from_records_is_the_decoders_table() {
    use pitchside_analysis::export::{Table, TableFromRecords};
    let mut checked = 0;
    for name in common::all_logs() {
        let bytes = common::read(&name);
        let (want, _, ok) = by_frames(&bytes);
        if !ok {
            continue;
        }
        let mut d = LogDecoder::new();
        d.set_detail(rcss_formats::log::Detail::Full);
        let mut t = TableFromRecords::new(Table::Tracking);
        let mut records = Vec::new();
        // In pieces, as the page reads a file.
        for piece in bytes.chunks(100_000) {
            d.feed(piece, &mut records).unwrap();
            t.push(&records);
            records.clear();
        }
        d.finish(&mut records).unwrap();
        t.push(&records);
        assert!(t.finish() == want, "{name}");
        checked += 1;
    }
    assert!(checked >= 5, "{checked} logs");
}

/// The player types table is one table whichever way it is made: from the decoder's records
/// (the inspector), from records as the page gets them in pieces, and from a text log's
/// lines; 18 rows for every log with types.
#[test]
fn the_player_types_table_is_the_same_every_way() {
    use pitchside_analysis::export::{PlayerTypes, Table, TableFromRecords};
    let (mut with_types, mut from_lines) = (0, 0);
    for name in common::all_logs() {
        let bytes = common::read(&name);
        let mut d = LogDecoder::new();
        d.set_detail(rcss_formats::log::Detail::Full);
        let mut records = Vec::new();
        let mut page = TableFromRecords::new(Table::PlayerTypes);
        for piece in bytes.chunks(100_000) {
            if d.feed(piece, &mut records).is_err() {
                break;
            }
            page.push(&records);
            records.clear();
        }
        let _ = d.finish(&mut records);
        page.push(&records);
        let mut whole = LogDecoder::new();
        let mut all = Vec::new();
        let _ = whole
            .feed(&bytes, &mut all)
            .and_then(|()| whole.finish(&mut all));
        let mut types = PlayerTypes::new();
        let mut want = String::new();
        for r in &all {
            if let Record::PlayerType(p) = r {
                types.row(p, &mut want);
            }
        }
        assert_eq!(page.player_types(), types.rows(), "{name}");
        assert!(page.finish() == want, "{name}: the page's table");
        let plain = if bytes.starts_with(&[0x1f, 0x8b]) {
            common::read(&name)
        } else {
            bytes
        };
        let mut lines = TextTracking::new();
        let (mut prefixes, mut shows) = (Vec::new(), Vec::new());
        if plain.ends_with(b"\n") && lines.lines(&plain, &mut prefixes, &mut shows) {
            assert!(lines.player_types() == want, "{name}: from the lines");
            assert_eq!(lines.player_type_rows(), types.rows(), "{name}");
            from_lines += 1;
        }
        if types.rows() > 0 {
            assert_eq!(types.rows(), 18, "{name}");
            with_types += 1;
        }
    }
    assert!(with_types >= 10, "{with_types} logs with types");
    assert!(from_lines >= 7, "{from_lines} logs from their lines");
}
