//! Parse throughput on real logs, printed as a table (no harness: `cargo bench -p
//! rcss-formats --bench parse`). Decompressed bytes in memory -> match model; gunzip is
//! timed on its own. Each figure is the median of several runs.

use pitchside_fixtures as common;

use common::{bench_cases, raw as fixture, time};

use rcss_formats::log::{parse_log, parse_sequential};
use std::io::Read;
use std::time::Duration;

fn gunzip(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(raw)
        .read_to_end(&mut out)
        .expect("gunzip");
    out
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let cases = [
        (
            "full game ULG6 (6000 cycles)",
            "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
        ),
        (
            "full game JSON (6000 cycles, synch)",
            "logs/full-json/20261125115357-HELIOS_A_3-vs-HELIOS_B_2.rcg.gz",
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
    let columns = [
        "log",
        "size",
        "gunzip fastest (median)",
        "parse fastest (median)",
        "parse MB/s",
        "frames",
        "frames/s",
    ];
    // `cargo bench --bench parse -- WORD` keeps only the logs whose name holds WORD.
    for (name, rel) in bench_cases(&columns, &cases) {
        let raw = fixture(rel);
        let bytes = gunzip(&raw);
        let (gz, gz_median) = time(11, || gunzip(&raw));
        let m = parse_log(&bytes);
        assert!(m.error.is_none(), "{name}: {:?}", m.error);
        let frames = m.frames.len();
        let (parse, parse_median) = time(21, || parse_log(&bytes));
        row(name, &bytes, frames, (gz, gz_median), (parse, parse_median));
        if bytes.len() >= 4 << 20 {
            // Large text/JSON logs are split over two threads; this is the one-thread figure.
            let one = time(21, || parse_sequential(&bytes));
            row(
                &format!("{name}, one thread"),
                &bytes,
                frames,
                (gz, gz_median),
                one,
            );
        }
    }
}

fn row(
    name: &str,
    bytes: &[u8],
    frames: usize,
    (gz, gz_median): (Duration, Duration),
    (parse, parse_median): (Duration, Duration),
) {
    {
        let secs = parse.as_secs_f64();
        println!(
            "| {name} | {:.1} MB | {:.1} ms ({:.1}) | {:.1} ms ({:.1}) | {:.0} | {frames} | {:.0} |",
            bytes.len() as f64 / 1e6,
            ms(gz),
            ms(gz_median),
            ms(parse),
            ms(parse_median),
            bytes.len() as f64 / 1e6 / secs,
            frames as f64 / secs,
        );
    }
}
