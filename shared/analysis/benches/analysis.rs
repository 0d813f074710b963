//! Match events and statistics on real logs, printed as a table (no harness: `cargo bench -p
//! pitchside-analysis --bench analysis`). From decoded frames in memory; decoding is timed by
//! the `parse` bench. Each figure is the fastest of several runs, the median in brackets.

use pitchside_fixtures as common;

use common::{bench_cases, read as fixture, time};

use pitchside_analysis::events::Events;
use pitchside_analysis::stats::{HeatFilter, Stats};
use rcss_formats::log::parse_log;
use std::time::Duration;

fn ms((fast, median): (Duration, Duration)) -> String {
    format!(
        "{:.2} ms ({:.2})",
        fast.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3
    )
}

fn us((fast, median): (Duration, Duration), per: usize) -> String {
    let f = |d: Duration| d.as_secs_f64() * 1e6 / per as f64;
    format!("{:.2} µs ({:.2})", f(fast), f(median))
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
            "short game v1 binary (600 cycles)",
            "logs/short-v1/20261122132514-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz",
        ),
    ];
    let columns = [
        "log",
        "frames",
        "events",
        "events + statistics",
        "frames/s (both)",
        "summary at a frame",
        "heat map",
    ];
    for (name, rel) in bench_cases(&columns, &cases) {
        let m = parse_log(&fixture(rel));
        assert!(m.error.is_none(), "{name}: {:?}", m.error);
        let frames = m.frames.len();
        let events = time(21, || Events::of_match(&m));
        let stats = time(21, || Stats::of_match(&m));
        let s = Stats::of_match(&m);
        // Seeks all over the match, as a page asks on every seek.
        let seeks: Vec<usize> = (0..1000).map(|i| (i * 7919) % frames).collect();
        let summary = time(21, || {
            seeks
                .iter()
                .map(|&f| s.summary_at_frame(f).teams[0].kicks)
                .sum::<u32>()
        });
        let heat = time(21, || s.heat_map(Some(frames / 2), HeatFilter::All));
        println!(
            "| {name} | {frames} | {} | {} | {:.0} | {} | {} |",
            ms(events),
            ms(stats),
            frames as f64 / stats.0.as_secs_f64(),
            us(summary, seeks.len()),
            us(heat, 1),
        );
    }
}
