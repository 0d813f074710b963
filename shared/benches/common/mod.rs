//! What the benches share: timing a closure, and reading a fixture.
// Each bench is its own crate and uses some of these only.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// (fastest, median) of `n` runs after a warm-up. The fastest run is the steadier figure on
/// a shared virtual machine, where neighbours slow single runs by up to half; both are
/// printed.
pub fn time<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, Duration) {
    let _ = f();
    let mut runs: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect();
    runs.sort();
    (runs[0], runs[runs.len() / 2])
}

/// A fixture's bytes as stored (`tests/fixtures/REL`).
pub fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A gzipped fixture, inflated.
pub fn gunzipped(rel: &str) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&fixture(rel)[..])
        .read_to_end(&mut out)
        .expect("gunzip");
    out
}
