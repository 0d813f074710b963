//! What a whole real game costs the relay: the full 6000-cycle game published into a match's
//! hub as a live server would send it, then the history's memory and what a late joiner is
//! sent. Figures go to BENCHMARKS.md (`cargo test --release -p pitchside-relay --test
//! history_memory -- --nocapture`).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use relay::hub::Hub;
use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

#[test]
fn a_full_game_fits_in_a_few_megabytes() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../tests/fixtures/logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
    );
    let raw = std::fs::read(path).unwrap();
    let mut log = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut log)
        .unwrap();
    let mut dec = rcss_formats::LogDecoder::new();
    let mut records = Vec::new();
    dec.feed(&log, &mut records).unwrap();
    dec.finish(&mut records).unwrap();

    let hub = Hub::new("m", 64 << 20, 100);
    let t = Instant::now();
    for r in &records {
        hub.publish(std::slice::from_ref(r));
    }
    let publish = t.elapsed();
    let (memory, dropped) = hub.history_memory();
    let t = Instant::now();
    let sub = hub.subscribe();
    let join = t.elapsed();
    let bytes: usize = sub.packets.iter().map(|p| p.len()).sum();
    eprintln!(
        "full game: {} records published in {publish:?} ({:.1} µs each); history {memory} bytes \
         ({:.2} MB), {dropped} frames dropped; a late joiner gets {} packets, {bytes} bytes \
         (snapshot in {join:?})",
        records.len(),
        publish.as_secs_f64() * 1e6 / records.len() as f64,
        memory as f64 / 1e6,
        sub.packets.len()
    );
    assert_eq!(dropped, 0);
    assert!(memory < 40 << 20, "{memory} bytes");
    assert!(bytes < 5_000_000, "{bytes} bytes of backlog");
    assert!(sub.packets.len() < 40, "{} packets", sub.packets.len());
}
