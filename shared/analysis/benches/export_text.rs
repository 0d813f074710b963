//! The tracking table straight from a text log's lines, stage by stage on one thread, as a
//! table (no harness: `cargo bench -p pitchside-analysis --bench export_text`): reading the
//! lines in order (`TextTracking::lines`, which the export does on one core) and writing the
//! shows' rows (`show_body`, which it shares between two). Each figure is the fastest and
//! the median of several runs.

use pitchside_fixtures as common;

use common::time;

use pitchside_analysis::export::text::{show_body, ShowLine, TextTracking};

const LOG: &str = "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz";

/// Bytes a batch of lines holds, as in the export.
const BATCH: usize = 512 << 10;

/// The log cut into batches of whole lines.
fn batches(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + BATCH).min(bytes.len());
        let cut = match bytes[at..end].iter().rposition(|&b| b == b'\n') {
            Some(n) if end < bytes.len() => at + n + 1,
            _ => end,
        };
        out.push(&bytes[at..cut]);
        at = cut;
    }
    out
}

fn main() {
    let bytes = common::read(LOG);
    let parts = batches(&bytes);
    let read_lines = || {
        let mut t = TextTracking::new();
        let (mut prefixes, mut shows) = (Vec::new(), Vec::new());
        let mut all: Vec<Vec<ShowLine>> = Vec::new();
        for part in &parts {
            prefixes.clear();
            shows.clear();
            assert!(t.lines(part, &mut prefixes, &mut shows), "plain text");
            all.push(shows.clone());
        }
        all
    };
    let shows = read_lines();
    let n: usize = shows.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(BATCH);
    let mut bodies = || {
        let mut written = 0;
        for (part, shows) in parts.iter().zip(&shows) {
            out.clear();
            for s in shows {
                show_body(&part[s.start..s.end], &mut out).expect("plain show");
            }
            written += out.len();
        }
        written
    };
    let written = bodies();
    let lines = time(21, read_lines);
    let rows = time(21, &mut bodies);
    println!(
        "full game, {:.1} MB of text, {n} shows, {:.1} MB of rows",
        bytes.len() as f64 / 1e6,
        written as f64 / 1e6
    );
    println!("| stage (one thread) | fastest | median | MB/s of text |");
    println!("|---|---:|---:|---:|");
    for (name, (fast, median)) in [("lines in order", lines), ("shows' rows", rows)] {
        println!(
            "| {name} | {:.2} ms | {:.2} ms | {:.0} |",
            fast.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            bytes.len() as f64 / 1e6 / fast.as_secs_f64()
        );
    }
}
