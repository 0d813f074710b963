//! Hostile logfiles made from the real fixtures, through the streaming inspector that
//! `pitchside-inspect` and the relay use and the decoder the page runs: every fixture cut at
//! 100 points, bytes flipped, headers swapped, a file of zeros, a gzip bomb, absurd numbers.
//! Nothing panics, every error says where, and what came before the damage is kept.

use pitchside_tests::fixtures;
use rcss_formats::error::LogError;
use rcss_formats::log::LogDecoder;
use rcss_formats::Record;
use relay::inspect::{inspect_bytes, Report};
use std::io::{Read, Write};

/// Every fixture log, decompressed: (name, bytes).
fn logs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures::dir().join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for d in dirs {
        for f in std::fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            let raw = std::fs::read(&f).unwrap();
            let mut plain = Vec::new();
            if raw.starts_with(&[0x1f, 0x8b]) {
                flate2::read::GzDecoder::new(&raw[..])
                    .read_to_end(&mut plain)
                    .unwrap();
            } else {
                plain = raw;
            }
            out.push((d.file_name().unwrap().to_string_lossy().into_owned(), plain));
        }
    }
    assert!(out.len() >= 11, "the fixtures are there");
    out
}

/// The page's way: the decoder fed in 64 KB steps, records kept until the first error.
fn decode(bytes: &[u8]) -> (Vec<Record>, Option<LogError>) {
    let mut d = LogDecoder::new();
    let mut out = Vec::new();
    for chunk in bytes.chunks(65536) {
        if let Err(e) = d.feed(chunk, &mut out) {
            return (out, Some(e));
        }
    }
    let e = d.finish(&mut out).err();
    (out, e)
}

fn says_where(e: &LogError, what: &str) {
    let text = e.to_string();
    let located = e.location().is_some()
        || matches!(
            e,
            LogError::UnknownFormat { .. }
                | LogError::Empty
                | LogError::Gzip { .. }
                | LogError::GzipCut { .. }
        );
    assert!(located, "{what}: the error does not say where: {text}");
    assert!(!text.is_empty());
}

fn shows(r: &[Record]) -> usize {
    r.iter().filter(|r| matches!(r, Record::Show(_))).count()
}

#[test]
fn cut_anywhere_a_log_plays_up_to_the_cut_and_says_where_it_ends() {
    for (name, bytes) in logs() {
        let whole = inspect_bytes(&bytes);
        assert!(whole.error.is_none(), "{name}: {:?}", whole.error);
        let mut before = 0;
        for k in 1..=100 {
            let cut = bytes.len() * k / 101;
            let what = format!("{name} cut at byte {cut}");
            let r: Report = inspect_bytes(&bytes[..cut]);
            // What came before plays: never fewer shows for a longer prefix, never more than
            // the whole log.
            assert!(
                r.shows >= before,
                "{what}: {} shows after {before}",
                r.shows
            );
            assert!(r.shows <= whole.shows, "{what}");
            before = r.shows;
            if let Some(e) = &r.error {
                says_where(e, &what);
            }
            // The page's decoder agrees on what plays.
            let (records, e) = decode(&bytes[..cut]);
            assert_eq!(
                shows(&records),
                r.shows,
                "{what}: the page and the inspector"
            );
            if let Some(e) = e {
                says_where(&e, &what);
            }
        }
        assert!(before > 0, "{name}: most cuts play something");
    }
}

#[test]
fn flipped_bytes_and_swapped_headers_are_errors_or_play_never_panics() {
    let mut rng = fixtures::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let logs = logs();
    for (name, bytes) in &logs {
        for round in 0..60 {
            let mut b = bytes.clone();
            for _ in 0..(1 + round % 10) {
                let at = (next() % b.len() as u64) as usize;
                b[at] ^= (next() % 255 + 1) as u8;
            }
            let what = format!("{name}, flip round {round}");
            let r = inspect_bytes(&b);
            if let Some(e) = &r.error {
                says_where(e, &what);
            }
            let (records, e) = decode(&b);
            if let Some(e) = &e {
                says_where(e, &what);
            }
            // The inspector keeps only what a summary needs (a light decode) but reads every
            // field as the page does: damage anywhere gives both the same answer.
            assert_eq!(
                (r.shows, &r.error),
                (shows(&records), &e),
                "{what}: the inspector and the page differ"
            );
        }
    }
    // Each log's body under every other log's header.
    let header = |b: &[u8]| -> usize {
        if b.starts_with(b"ULG") {
            if b.get(3).is_some_and(|v| *v >= b'4') {
                5
            } else {
                4
            }
        } else {
            0
        }
    };
    for (a, ab) in &logs {
        for (b, bb) in &logs {
            if a == b {
                continue;
            }
            let mut mixed = ab[..header(ab)].to_vec();
            mixed.extend_from_slice(&bb[header(bb)..bb.len().min(header(bb) + 200_000)]);
            let what = format!("{a}'s header on {b}");
            let r = inspect_bytes(&mixed);
            if let Some(e) = &r.error {
                says_where(e, &what);
            }
            let (_, e) = decode(&mixed);
            if let Some(e) = e {
                says_where(&e, &what);
            }
        }
    }
}

#[test]
fn zeros_a_gzip_bomb_and_an_endless_line_are_refused_early() {
    // A megabyte of zeros: not a log.
    let r = inspect_bytes(&vec![0u8; 1 << 20]);
    assert!(
        matches!(r.error, Some(LogError::UnknownFormat { .. })),
        "{:?}",
        r.error
    );
    // A text log header, then 256 MB of zeros, gzipped (about 250 KB): a line that never
    // ends is refused at the line limit, long before the bomb is unpacked.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(b"ULG5\n").unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..256 {
        gz.write_all(&zeros).unwrap();
    }
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    let mut i = relay::inspect::Inspection::new();
    let mut fed = 0;
    for chunk in bomb.chunks(65536) {
        fed += chunk.len();
        if !i.feed(chunk) {
            break;
        }
    }
    let r = i.finish();
    assert!(
        matches!(r.error, Some(LogError::TooLarge { .. })),
        "{:?}",
        r.error
    );
    assert!(
        fed < bomb.len(),
        "stopped before the end of the bomb: {fed} of {}",
        bomb.len()
    );
}

#[test]
fn absurd_numbers_in_a_valid_log_are_read_or_refused_with_the_line() {
    let (_, v5) = logs().into_iter().find(|(n, _)| n == "short-v5").unwrap();
    let text = String::from_utf8_lossy(&v5).into_owned();
    // The damage starts at the eleventh show: the ten before it must play.
    let show = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("(show "))
        .nth(10)
        .unwrap()
        .0;
    for absurd in [
        "1e308",
        "-1e308",
        "nan",
        "inf",
        "99999999999999999999999",
        "-0",
    ] {
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i >= show && i < show + 50 && l.starts_with("(show ") {
                    // Every number after the cycle becomes the absurd one.
                    let mut parts = l.splitn(3, ' ');
                    let (a, b, rest) = (
                        parts.next().unwrap(),
                        parts.next().unwrap(),
                        parts.next().unwrap_or(""),
                    );
                    let rest: String = rest
                        .split(' ')
                        .map(|w| {
                            let t = w.trim_end_matches(')');
                            if t.parse::<f64>().is_ok() {
                                format!("{absurd}{}", &w[t.len()..])
                            } else {
                                w.to_owned()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" ");
                    format!("{a} {b} {rest}")
                } else {
                    l.to_owned()
                }
            })
            .collect();
        let bytes = lines.join("\n").into_bytes();
        let what = format!("short-v5 with {absurd}");
        let r = inspect_bytes(&bytes);
        if let Some(e) = &r.error {
            says_where(e, &what);
            assert!(
                matches!(e.location(), Some(rcss_formats::error::Location::Line(l)) if l as usize > show),
                "{what}: {e}"
            );
        }
        let (records, e) = decode(&bytes);
        if let Some(e) = e {
            says_where(&e, &what);
        }
        // The shows before the damage always play.
        assert!(shows(&records) >= 10, "{what}: {}", shows(&records));
        assert!(r.shows >= 10, "{what}: {}", r.shows);
    }
}

#[test]
fn a_gzipped_log_cut_anywhere_plays_up_to_the_cut() {
    for name in [
        fixtures::SHORT_V6,
        fixtures::SHORT_V2,
        "logs/short-json/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
    ] {
        let gz = std::fs::read(fixtures::path(name)).unwrap();
        let whole = inspect_bytes(&gz).shows;
        let mut before = 0;
        for k in 1..=100 {
            let cut = gz.len() * k / 101;
            let what = format!("{name} cut at compressed byte {cut}");
            let r = inspect_bytes(&gz[..cut]);
            assert!(r.shows >= before && r.shows <= whole, "{what}: {}", r.shows);
            before = r.shows;
            let e = r.error.unwrap_or_else(|| panic!("{what}: no error"));
            says_where(&e, &what);
            let (records, e) = decode(&gz[..cut]);
            assert!(e.is_some(), "{what}: the page saw no error");
            assert_eq!(shows(&records), r.shows, "{what}");
        }
        assert!(before > whole / 2, "{name}: {before} of {whole}");
    }
}
