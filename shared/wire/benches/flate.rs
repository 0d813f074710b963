//! Which inflater/deflater the native build should use, measured on what the relay does with
//! them: gunzip the full real game (reading a `--replay` log), deflate it back (writing a
//! `.rcg.gz`), and deflate and inflate the full game's history chunks (the wire's backlog).
//! Run it twice and compare:
//!
//! ```sh
//! cargo bench -p pitchside-wire --bench flate                       # miniz_oxide
//! cargo bench -p pitchside-wire --bench flate --features zlib-rs    # zlib-rs
//! ```

use pitchside_fixtures as common;

use common::time;

use pitchside_wire::{chunk_packet, decode_records, Encoder};
use rcss_formats::LogDecoder;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::Duration;

fn main() {
    let backend = if cfg!(feature = "zlib-rs") {
        "zlib-rs"
    } else {
        "miniz_oxide"
    };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/fixtures/logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
    );
    let gz = std::fs::read(&path).expect("the full game fixture");
    let gunzip = || {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut out)
            .expect("gunzip");
        out
    };
    let plain = gunzip();
    let mut dec = LogDecoder::new();
    let mut records = Vec::new();
    dec.feed(&plain, &mut records).expect("log");
    dec.finish(&mut records).expect("log");
    // The history as the relay keeps it: items of 250 frames per chunk, first one a keyframe.
    let mut enc = Encoder::new();
    let mut chunks_items: Vec<Vec<u8>> = vec![Vec::new()];
    let mut frames = 0;
    for r in &records {
        let e = enc.encode(r);
        match &e.key {
            Some(k) => {
                if frames == 250 {
                    chunks_items.push(Vec::new());
                    frames = 0;
                }
                let last = chunks_items.last_mut().expect("one chunk");
                last.extend_from_slice(if frames == 0 { k } else { &e.item });
                frames += 1;
            }
            None => chunks_items
                .last_mut()
                .expect("one chunk")
                .extend_from_slice(&e.item),
        }
    }
    let items_len: usize = chunks_items.iter().map(Vec::len).sum();
    let n = 11;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mbs = |bytes: usize, d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();

    let (f, m) = time(n, gunzip);
    println!(
        "{backend}: gunzip full game {:.1} ms (median {:.1}), {:.0} MB/s out",
        ms(f),
        ms(m),
        mbs(plain.len(), f)
    );
    let (f, m) = time(5, || {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        z.write_all(&plain).expect("gzip");
        z.finish().expect("gzip").len()
    });
    println!(
        "{backend}: gzip -6 full game {:.1} ms (median {:.1}), {:.0} MB/s in",
        ms(f),
        ms(m),
        mbs(plain.len(), f)
    );
    let (f, m) = time(n, || {
        chunks_items
            .iter()
            .map(|c| chunk_packet(c, 6).len())
            .sum::<usize>()
    });
    let chunks: Vec<Vec<u8>> = chunks_items.iter().map(|c| chunk_packet(c, 6)).collect();
    let packed: usize = chunks.iter().map(Vec::len).sum();
    println!(
        "{backend}: deflate history ({} chunks, {items_len} B -> {packed} B) {:.1} ms (median {:.1})",
        chunks.len(),
        ms(f),
        ms(m)
    );
    let (f, m) = time(n, || {
        decode_records(chunks.iter().map(Vec::as_slice))
            .expect("history")
            .len()
    });
    println!(
        "{backend}: inflate + decode history {:.1} ms (median {:.1})",
        ms(f),
        ms(m)
    );
}
