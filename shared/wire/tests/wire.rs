//! The relay's wire on every real fixture: decode(encode(records)) == records, frame for frame
//! and field for field, for every log and every monitor capture; encoded as live (one packet
//! per record), as history (deflated chunks that each start with a keyframe), and with a
//! spectator that joins at a keyframe. Also the size of the full game on the wire.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use pitchside_wire::{
    chunk_packet, decode_records, hello_packet, notice_packet, records_packet, Decoder, Encoder,
    Event, Notice,
};
use rcss_formats::datagram::{parse_datagram, Datagram};
use rcss_formats::{LogDecoder, Record};
use std::path::Path;

fn log_records(rel: &str) -> Vec<Record> {
    let bytes = common::read(rel);
    let mut d = LogDecoder::new();
    let mut out = Vec::new();
    d.feed(&bytes, &mut out).unwrap();
    d.finish(&mut out).unwrap();
    out
}

fn capture_records(rel: &str) -> Vec<Record> {
    let mut out = Vec::new();
    for d in common::capture(rel) {
        if let Ok(Datagram::Records(r)) = parse_datagram(&d) {
            out.extend(r);
        }
    }
    out
}

fn all_captures() -> Vec<String> {
    let mut out = Vec::new();
    let root = common::path("captures");
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".dgrams.gz") {
                let d = dir.file_name().unwrap().to_string_lossy().into_owned();
                out.push(format!("captures/{d}/{name}"));
            }
        }
    }
    out.sort();
    assert!(out.len() >= 20, "{out:?}");
    out
}

fn all_logs() -> Vec<String> {
    let mut out: Vec<String> = common::SHORT.iter().map(|(_, p)| p.to_string()).collect();
    out.extend(common::V6_OTHERS.iter().map(|p| p.to_string()));
    out.push(common::FULL_GAME.to_string());
    out
}

fn same(a: &[Record], b: &[Record], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: record count");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(x == y, "{what}: record {i} differs:\n{x:?}\n{y:?}");
    }
}

/// As live: one records packet per record, frames as changes.
fn live(records: &[Record]) -> Vec<Vec<u8>> {
    let mut enc = Encoder::new();
    records
        .iter()
        .map(|r| records_packet(&enc.encode(r).item))
        .collect()
}

/// As history: chunks of at most `frames` frames, each starting with a keyframe.
fn chunked(records: &[Record], frames: usize) -> Vec<Vec<u8>> {
    let mut enc = Encoder::new();
    let mut packets = Vec::new();
    let mut items = Vec::new();
    let mut in_chunk = 0;
    for r in records {
        let e = enc.encode(r);
        if let Some(key) = &e.key {
            if in_chunk == frames {
                packets.push(chunk_packet(&items, 6));
                items.clear();
                in_chunk = 0;
            }
            items.extend_from_slice(if in_chunk == 0 { key } else { &e.item });
            in_chunk += 1;
        } else {
            items.extend_from_slice(&e.item);
        }
    }
    packets.push(chunk_packet(&items, 6));
    packets
}

fn check(rel: &str, records: &[Record]) {
    assert!(!records.is_empty(), "{rel}");
    let packets = live(records);
    let back = decode_records(packets.iter().map(Vec::as_slice)).unwrap();
    same(&back, records, &format!("{rel} live"));
    let chunks = chunked(records, 100);
    let back = decode_records(chunks.iter().map(Vec::as_slice)).unwrap();
    same(&back, records, &format!("{rel} chunked"));

    // A spectator that joins at the 7th frame gets its keyframe, then the changes.
    let mut enc = Encoder::new();
    let mut d = Decoder::new();
    let mut events = Vec::new();
    let mut frames = 0;
    let mut expected = Vec::new();
    for r in records {
        let e = enc.encode(r);
        if e.is_frame() {
            frames += 1;
            if frames == 7 {
                d.decode(&records_packet(e.key.as_ref().unwrap()), &mut events)
                    .unwrap();
                expected.push(r.clone());
                continue;
            }
        }
        if frames >= 7 {
            d.decode(&records_packet(&e.item), &mut events).unwrap();
            expected.push(r.clone());
        }
    }
    let got: Vec<Record> = events
        .into_iter()
        .filter_map(|e| match e {
            Event::Record(r) => Some(r),
            _ => None,
        })
        .collect();
    same(&got, &expected, &format!("{rel} joined late"));
}

#[test]
fn every_log_round_trips() {
    for rel in all_logs() {
        check(&rel, &log_records(&rel));
    }
}

#[test]
fn a_ball_in_the_air_round_trips() {
    // The 2.5D fork's height (wire version 4): the real short match, its ball chipped up and
    // down, comes back with every height, live, as history and for a late joiner.
    let mut records = log_records(common::SHORT_V6);
    let mut lifted = 0;
    for r in &mut records {
        if let Record::Show(f) = r {
            f.ball.z = [0.0, 0.35, 1.2, 2.0625, 0.8][f.time as usize % 5];
            lifted += usize::from(f.ball.z > 0.0);
        }
    }
    assert!(lifted > 400, "{lifted}");
    check("short-v6 lifted", &records);
}

#[test]
fn every_capture_round_trips() {
    for rel in all_captures() {
        let records = capture_records(&rel);
        if records.is_empty() {
            // Refused inits: nothing but an error came back.
            assert!(
                Path::new(&rel)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .contains("dispinit")
                    || rel.contains("maxmon2-third"),
                "{rel}"
            );
            continue;
        }
        check(&rel, &records);
    }
}

#[test]
fn a_new_match_notice_resets_the_decoder() {
    let records = log_records(common::SHORT[5].1);
    let mut enc = Encoder::new();
    let mut packets = vec![hello_packet("test", "m")];
    packets.push(notice_packet(&Notice::NewMatch { number: 1 }));
    for r in &records[..100] {
        packets.push(records_packet(&enc.encode(r).item));
    }
    enc.reset();
    packets.push(notice_packet(&Notice::NewMatch { number: 2 }));
    for r in &records[..100] {
        packets.push(records_packet(&enc.encode(r).item));
    }
    let back = decode_records(packets.iter().map(Vec::as_slice)).unwrap();
    same(&back[..100], &records[..100], "first match");
    same(&back[100..], &records[..100], "second match");
}

/// The size target: under 1 KB per show on average over the whole real game, live; and the
/// whole game's history (deflated chunks) well under 5 MB.
#[test]
fn the_full_game_is_small_on_the_wire() {
    let records = log_records(common::FULL_GAME);
    let mut enc = Encoder::new();
    let (mut shows, mut show_bytes, mut key_bytes, mut other_bytes) = (0usize, 0, 0, 0);
    for r in &records {
        let e = enc.encode(r);
        match &e.key {
            Some(k) => {
                shows += 1;
                show_bytes += e.item.len() + 1;
                key_bytes += k.len() + 1;
            }
            None => other_bytes += e.item.len() + 1,
        }
    }
    let history: usize = chunked(&records, 250).iter().map(Vec::len).sum();
    let per_show = show_bytes / shows;
    eprintln!(
        "full game: {shows} shows, {per_show} B per show as a change, {} B per keyframe, \
         {other_bytes} B of other records, history {history} B in chunks of 250 frames",
        key_bytes / shows
    );
    assert!(per_show < 1000, "{per_show} B per show");
    assert!(history < 5_000_000, "{history} B of history");
}

/// Damaged packets are errors, never panics or runaway allocations: every packet of a short
/// game, with bytes flipped and cut at pseudo-random places.
#[test]
fn damaged_packets_are_errors_not_panics() {
    let records = log_records(common::SHORT[5].1);
    let mut packets = live(&records[..200]);
    packets.extend(chunked(&records, 50));
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    for p in &packets {
        for _ in 0..20 {
            let mut q = p.clone();
            let flips = 1 + next() % 4;
            for _ in 0..flips {
                let i = (next() % q.len() as u64) as usize;
                q[i] ^= 1 << (next() % 8);
            }
            if next() % 3 == 0 {
                q.truncate((next() % q.len() as u64) as usize);
            }
            let mut d = Decoder::new();
            let _ = d.decode(&q, &mut Vec::new());
        }
    }
}

/// With `PITCHSIDE_WIRE_SEEDS=DIR`, writes wire streams of every short log (packets framed as
/// the `wire` fuzz target reads them) into DIR as fuzzing seeds (`fuzz/seed.sh` does this).
#[test]
fn write_fuzz_seeds() {
    let Some(dir) = std::env::var_os("PITCHSIDE_WIRE_SEEDS") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, rel) in common::SHORT {
        let records = log_records(rel);
        let mut packets = vec![hello_packet("seed", name)];
        packets.extend(live(&records[..60]));
        packets.extend(chunked(&records[..300], 40).into_iter().take(2));
        let mut out = Vec::new();
        for p in packets.iter().filter(|p| p.len() < 65536) {
            out.extend_from_slice(&(p.len() as u16).to_be_bytes());
            out.extend_from_slice(p);
        }
        std::fs::write(dir.join(name), out).unwrap();
    }
}
