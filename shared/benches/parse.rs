//! Parse throughput on real logs, printed as a table (no harness: `cargo bench -p
//! pitchside-shared --bench parse`). Decompressed bytes in memory -> match model; gunzip is
//! timed on its own. Each figure is the median of several runs.

use pitchside_shared::parse_log;
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn gunzip(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(raw)
        .read_to_end(&mut out)
        .expect("gunzip");
    out
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(n: usize, mut f: impl FnMut() -> T) -> Duration {
    let _ = f();
    median(
        (0..n)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let cases = [
        (
            "full game ULG6 (6000 cycles)",
            "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
        ),
        (
            "short game JSON (600 cycles)",
            "logs/short-json/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
        ),
        (
            "short game ULG6 (600 cycles)",
            "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
        ),
        (
            "short game v2 binary",
            "logs/short-v2/20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz",
        ),
    ];
    println!("| log | size | gunzip | parse | parse MB/s | frames | frames/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, rel) in cases {
        let raw = fixture(rel);
        let bytes = gunzip(&raw);
        let gz = time(5, || gunzip(&raw));
        let m = parse_log(&bytes);
        assert!(m.error.is_none(), "{name}: {:?}", m.error);
        let frames = m.frames.len();
        let parse = time(11, || parse_log(&bytes));
        let secs = parse.as_secs_f64();
        println!(
            "| {name} | {:.1} MB | {:.1} ms | {:.1} ms | {:.0} | {frames} | {:.0} |",
            bytes.len() as f64 / 1e6,
            gz.as_secs_f64() * 1e3,
            secs * 1e3,
            bytes.len() as f64 / 1e6 / secs,
            frames as f64 / secs,
        );
    }
}
