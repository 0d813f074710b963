//! Push decoding: feeding a real log one byte at a time, or in random slices, gives exactly
//! what a one-shot decode gives.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::{LogDecoder, Record};

fn decode_in(bytes: &[u8], mut next_len: impl FnMut() -> usize) -> (Vec<Record>, Option<String>) {
    let mut d = LogDecoder::new();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let n = next_len().clamp(1, bytes.len() - pos);
        if let Err(e) = d.feed(&bytes[pos..pos + n], &mut out) {
            return (out, Some(e.to_string()));
        }
        pos += n;
    }
    let err = d.finish(&mut out).err().map(|e| e.to_string());
    (out, err)
}

fn one_shot(bytes: &[u8]) -> (Vec<Record>, Option<String>) {
    decode_in(bytes, || usize::MAX)
}

/// xorshift: reproducible slice sizes without a dependency.
fn rng(mut seed: u64) -> impl FnMut() -> usize {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 70_000) as usize + 1
    }
}

#[test]
fn byte_at_a_time_equals_one_shot_on_every_short_log() {
    for (name, rel) in common::SHORT {
        let bytes = common::read(rel);
        let whole = one_shot(&bytes);
        assert!(whole.1.is_none(), "{name}: {:?}", whole.1);
        assert!(whole.0.len() > 600, "{name}: {} records", whole.0.len());
        let bytewise = decode_in(&bytes, || 1);
        assert!(bytewise == whole, "{name}: byte-at-a-time decode differs");
    }
}

#[test]
fn byte_at_a_time_through_gzip() {
    let raw = std::fs::read(common::path(common::SHORT[5].1)).unwrap();
    let whole = one_shot(&raw);
    assert!(whole.1.is_none());
    assert!(decode_in(&raw, || 1) == whole);
}

#[test]
fn random_slices_of_the_full_game_equal_one_shot() {
    let raw = std::fs::read(common::path(common::FULL_GAME)).unwrap();
    let bytes = common::read(common::FULL_GAME);
    let whole = one_shot(&bytes);
    assert!(whole.1.is_none(), "{:?}", whole.1);
    let shows = whole
        .0
        .iter()
        .filter(|r| matches!(r, Record::Show(_)))
        .count();
    assert_eq!(shows, 6489);
    for seed in [1, 2] {
        assert!(decode_in(&bytes, rng(seed)) == whole, "seed {seed}");
    }
    assert!(
        decode_in(&raw, rng(3)) == whole,
        "compressed, random slices"
    );
}

#[test]
fn a_truncated_log_keeps_every_earlier_frame() {
    for (name, rel) in common::SHORT {
        let bytes = common::read(rel);
        let (whole, _) = one_shot(&bytes);
        let cut = bytes.len() * 2 / 3 + 7;
        let (part, err) = one_shot(&bytes[..cut]);
        let err = err.unwrap_or_else(|| panic!("{name}: a cut at {cut} is an error"));
        // A JSON log cut anywhere was never closed: it is incomplete, not damaged.
        let expected = if name == "json" {
            err.starts_with("incomplete: the log stops at cycle")
        } else {
            err.contains("ends inside") || err.contains("expected")
        };
        assert!(expected, "{name}: {err}");
        assert!(!part.is_empty() && part.len() < whole.len(), "{name}");
        assert_eq!(
            &whole[..part.len()],
            &part[..],
            "{name}: records before the cut are intact"
        );
    }
}

#[test]
fn a_truncated_gzip_keeps_every_earlier_frame() {
    let raw = std::fs::read(common::path(common::SHORT[5].1)).unwrap();
    let (whole, _) = one_shot(&raw);
    let (part, err) = one_shot(&raw[..raw.len() / 2]);
    let err = err.expect("a cut gzip is an error");
    assert!(err.contains("compressed stream stops after"), "{err}");
    assert!(part.len() > 100);
    assert_eq!(&whole[..part.len()], &part[..]);
}

#[test]
fn garbage_in_the_middle_is_reported_with_its_line() {
    let mut bytes = common::read(common::SHORT[5].1);
    let line_start = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(399)
        .map(|(i, _)| i + 1)
        .unwrap();
    bytes.splice(
        line_start..line_start,
        b"(show 77 ((b) 1 2 zz\n".iter().copied(),
    );
    let (part, err) = one_shot(&bytes);
    let err = err.unwrap();
    assert!(
        err.starts_with("line 401: show record: expected ball vx"),
        "{err}"
    );
    assert!(
        err.contains("\"zz\""),
        "the offending bytes are shown: {err}"
    );
    assert!(part.len() > 300);
}

/// Found by fuzzing: a gzip stream that is corrupt part-way lost, when fed whole, the records
/// inflated before the corruption.
#[test]
fn corrupt_gzip_keeps_what_came_before_whatever_the_slicing() {
    let mut raw = std::fs::read(common::path(common::SHORT[5].1)).unwrap();
    let mid = raw.len() / 2;
    for b in &mut raw[mid..mid + 64] {
        *b ^= 0x5a;
    }
    let whole = one_shot(&raw);
    // Deflate may inflate damage into garbage before it notices: either way it is an error.
    assert!(whole.1.is_some(), "a corrupt gzip is an error");
    assert!(whole.0.len() > 100, "records before the damage are kept");
    for step in [1, 33, 4096] {
        assert!(decode_in(&raw, || step) == whole, "slices of {step}");
    }
}

#[test]
fn every_short_log_reads_the_same_gzipped_and_keeps_its_frames_when_the_gzip_is_cut() {
    for (name, rel) in common::SHORT {
        let gz = std::fs::read(common::path(rel)).unwrap();
        let (plain, err) = one_shot(&common::read(rel));
        assert!(err.is_none(), "{name}: {err:?}");
        let (zipped, err) = one_shot(&gz);
        assert!(err.is_none(), "{name}.gz: {err:?}");
        assert!(zipped == plain, "{name}: gzip decodes to the same records");
        let (part, err) = one_shot(&gz[..gz.len() * 3 / 5]);
        let err = err.unwrap_or_else(|| panic!("{name}: a cut gzip is an error"));
        assert!(
            err.contains("the compressed stream stops after"),
            "{name}: {err}"
        );
        assert!(
            !part.is_empty() && part.len() < plain.len(),
            "{name}: {} records",
            part.len()
        );
        assert_eq!(
            &plain[..part.len()],
            &part[..],
            "{name}: records before the cut"
        );
    }
}

#[test]
fn a_garbage_tail_is_an_error_after_every_record() {
    for (name, rel) in common::SHORT {
        let mut bytes = common::read(rel);
        let (whole, _) = one_shot(&bytes);
        // Bytes that are no record in any format: not a known binary mode, not a text line.
        bytes.extend_from_slice(&[0xfe; 40]);
        bytes.extend_from_slice(b"\n");
        let (part, err) = one_shot(&bytes);
        let err = err.unwrap_or_else(|| panic!("{name}: a garbage tail is an error"));
        // Text logs show the line as text with escapes, binary ones the bytes in hex.
        assert!(
            err.contains("\\xfe") || err.contains("bytes fe fe"),
            "{name}: the bad bytes are shown: {err}"
        );
        assert!(
            part == whole,
            "{name}: every record before the garbage is kept"
        );
    }
}

/// Found by fuzzing: bytes that start like a binary v1 message (mode 2) but go on with a board
/// no server writes were taken for a v1 log when they came two bytes at a time, and refused
/// when they came whole. Now both refuse them, and a real v1 log still reads either way.
#[test]
fn a_v1_look_alike_is_judged_the_same_whatever_the_slicing() {
    let mut bytes = vec![0u8, 2, 0x80, 0x57];
    bytes.resize(2052 * 2, 7);
    let whole = one_shot(&bytes);
    assert!(whole.0.is_empty() && whole.1.is_some(), "{whole:?}");
    for step in [1, 2, 3, 5] {
        let (records, err) = decode_in(&bytes, || step);
        assert!(records.is_empty(), "slices of {step}: {records:?}");
        assert!(
            err.as_deref()
                .is_some_and(|e| e.starts_with("not an rcssserver game log")),
            "slices of {step}: {err:?}"
        );
    }
    let v1 = common::read("logs/short-v1/20261122132514-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz");
    let whole = one_shot(&v1);
    assert!(whole.1.is_none() && whole.0.len() > 600);
    for step in [1, 2, 3] {
        assert!(decode_in(&v1, || step) == whole, "v1 in slices of {step}");
    }
}

/// Found by fuzzing: a ULG header ended by CR LF (a log saved on Windows) was refused as an
/// unknown format when the CR came without its LF, byte by byte, and read when it came whole.
#[test]
fn a_crlf_header_reads_the_same_whatever_the_slicing() {
    let short = common::read("logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
    let body = short.strip_prefix(b"ULG6\n").expect("a ULG6 log");
    let mut crlf = b"ULG6\r\n".to_vec();
    crlf.extend_from_slice(body);
    let whole = one_shot(&crlf);
    assert!(whole.1.is_none() && whole.0.len() > 100, "{:?}", whole.1);
    for step in [1, 2, 5, 6] {
        assert!(decode_in(&crlf, || step) == whole, "slices of {step}");
    }
    // The header alone, fed byte by byte, is a log with nothing in it, as it is whole.
    assert_eq!(decode_in(b"ULG6\r\n", || 1), one_shot(b"ULG6\r\n"));
}
