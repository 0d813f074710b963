//! Load benchmark: N WebSocket spectators against a `pitchside-relay` process that follows a
//! fake rcssserver playing the full real game at 10 cycles a second.
//!
//! ```sh
//! cargo build --release -p pitchside-relay --bin pitchside-relay
//! cargo run --release -p pitchside-tests --bin load-bench -- --spectators 10000 --seconds 30
//! ```
//!
//! This process is the fake server and the load generator; the relay runs apart, so its CPU
//! and memory are measured on their own (from /proc). Latency is from the fake server sending
//! a show's datagram (the relay receives it microseconds later on loopback) to a spectator
//! receiving the relay's frame, matched by the frame number the wire carries. Spectators do
//! not decode frames (that would measure this process, not the relay): they read the frame
//! number from each packet's first bytes. The soft RLIMIT_NOFILE is raised to the hard limit
//! first; the relay inherits it.
//!
//! To keep the relay and the load generator off each other's core:
//!
//! ```sh
//! taskset -c 1 target/release/load-bench --relay-cpu 0 --spectators 10000 --seconds 30
//! ```
//!
//! `--max-delay MS` is passed to the relay. Frames the relay did not send to a spectator
//! because they waited longer than that are counted from its `Skipped` notices, per spectator:
//! the table says how many were skipped in all and how evenly (the least, median, 99th
//! percentile and most any one spectator skipped); the latency figures are those of the frames
//! delivered. Above ~19,000 spectators raise the open-files limit first (as root:
//! `ulimit -n 65536`).

use pitchside_tests::bench::{
    arg, arg_or, fake_server, free_addr, proc_cpu_split, proc_usage, quantile, spawn_relay,
    spectator, spectator_options, Shared,
};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (n, seconds, relay_bin) = spectator_options(&args, 1000, 30);
    let hz: f64 = arg_or(&args, "--hz", 10.0);
    let shared = Arc::new(Shared::default());
    let server = fake_server(shared.clone(), Duration::from_secs_f64(1.0 / hz)).await;
    let addr = free_addr();
    // `--relay-cpu N` runs the relay on core N alone (through taskset).
    let mut relay = match arg(&args, "--relay-cpu") {
        Some(cpu) => {
            let mut c = Command::new("taskset");
            c.args(["-c", &cpu]).arg(&relay_bin);
            c
        }
        None => Command::new(&relay_bin),
    };
    let max_spectators = (n + 100).max(20_000).to_string();
    relay.args([
        "--listen",
        &addr.to_string(),
        "--server",
        &format!("bench={server}"),
        "--max-spectators",
        &max_spectators,
        // Every spectator comes from 127.0.0.1: lift the per-address cap.
        "--max-per-address",
        "100000",
    ]);
    if let Some(ms) = arg(&args, "--max-delay") {
        relay.args(["--max-delay", &ms]);
    }
    let mut relay = spawn_relay(&mut relay, &relay_bin, Stdio::inherit());
    let pid = relay.id();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, rss_idle) = proc_usage(pid);
    println!("relay idle: {:.1} MB resident", rss_idle as f64 / 1e6);

    let started = Instant::now();
    for i in 0..n {
        tokio::spawn(spectator(addr, "/ws".into(), shared.clone()));
        // Ramp up: a relay restart is also answered with backoff, not all at once.
        if i % 200 == 199 {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    while shared.connected.load(Ordering::Relaxed) < n {
        if started.elapsed() > Duration::from_secs(120) {
            println!(
                "only {} of {n} connected after 120 s",
                shared.connected.load(Ordering::Relaxed)
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "{} spectators connected in {:.1} s",
        shared.connected.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    // Let backlogs drain before measuring.
    tokio::time::sleep(Duration::from_secs(3)).await;
    shared.reset();
    let metrics0 = relay_metrics(addr).await;
    let (relay_cpu0, _) = proc_usage(pid);
    let (user0, sys0) = proc_cpu_split(pid);
    let (own_cpu0, _) = proc_usage(std::process::id());
    shared.measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    let mut rss_peak = 0;
    // The fan-out's round time now and then: how far behind the relay's side of the delay is.
    let mut rounds = Vec::new();
    while t0.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        rss_peak = rss_peak.max(proc_usage(pid).1);
        let r = metric(
            &relay_metrics(addr).await,
            "pitchside_fanout_round_seconds{",
        );
        if r.is_finite() {
            rounds.push((r * 1e6) as u64);
        }
    }
    shared.measuring.store(false, Ordering::Relaxed);
    let wall = t0.elapsed().as_secs_f64();
    let (relay_cpu1, rss) = proc_usage(pid);
    let (user1, sys1) = proc_cpu_split(pid);
    let (own_cpu1, own_rss) = proc_usage(std::process::id());
    let metrics1 = relay_metrics(addr).await;
    let frames = shared.frames.load(Ordering::Relaxed);
    let shows = shared.shows.load(Ordering::Relaxed);
    let skipped = shared.skipped.load(Ordering::Relaxed);
    let connected = shared.connected.load(Ordering::Relaxed);
    let per = (rss_peak.max(rss).saturating_sub(rss_idle)) as f64 / connected.max(1) as f64;
    let each = shared.each();
    let mut skipped_each: Vec<u64> = each.iter().map(|e| e.1).collect();
    let mut frames_each: Vec<u64> = each.iter().map(|e| e.0).collect();
    let skipping = skipped_each.iter().filter(|&&k| k > 0).count();
    println!();
    println!("| spectators | frames/s delivered (of N × shows/s = {:.0}) | p50 | p99 | frames skipped | skipped per spectator (min / median / p99 / max) | spectators that skipped | relay CPU | relay RSS | relay memory per spectator | bytes per frame | closed | load generator CPU |", connected as f64 * shows as f64 / wall);
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {connected} | {:.0} | {:.1} ms | {:.1} ms | {skipped} ({:.1} %) | {} / {} / {} / {} | {skipping} | {:.0} % | {:.0} MB | {:.1} KB | {:.0} | {} | {:.0} % |",
        frames as f64 / wall,
        shared.hist.quantile(0.5).as_secs_f64() * 1e3,
        shared.hist.quantile(0.99).as_secs_f64() * 1e3,
        skipped as f64 / (connected as f64 * shows as f64).max(1.0) * 100.0,
        quantile(&mut skipped_each, 0.0),
        quantile(&mut skipped_each, 0.5),
        quantile(&mut skipped_each, 0.99),
        quantile(&mut skipped_each, 1.0),
        (relay_cpu1 - relay_cpu0) / wall * 100.0,
        rss_peak.max(rss) as f64 / 1e6,
        per / 1e3,
        shared.frame_bytes.load(Ordering::Relaxed) as f64 / frames.max(1) as f64,
        shared.closed.load(Ordering::Relaxed),
        (own_cpu1 - own_cpu0) / wall * 100.0,
    );
    println!(
        "shows sent {shows} in {wall:.1} s; frames received per spectator (min / median / max): {} / {} / {}; skip notices {}",
        quantile(&mut frames_each, 0.0),
        quantile(&mut frames_each, 0.5),
        quantile(&mut frames_each, 1.0),
        shared.skips.load(Ordering::Relaxed),
    );
    let delta = |name: &str| metric(&metrics1, name) - metric(&metrics0, name);
    println!(
        "relay /metrics over the window: skipped_frames_total +{:.0}, late_frames_skipped_total +{:.0}, lag_skips_total +{:.0}; fan-out round (median / max of {} samples) {:.1} / {:.1} ms; spectators_skipping at the end {:.0}",
        delta("pitchside_skipped_frames_total{"),
        delta("pitchside_late_frames_skipped_total{"),
        delta("pitchside_lag_skips_total{"),
        rounds.len(),
        quantile(&mut rounds, 0.5) as f64 / 1e3,
        quantile(&mut rounds, 1.0) as f64 / 1e3,
        metric(&metrics1, "pitchside_spectators_skipping{"),
    );
    let per_frame = |cpu: f64| cpu / frames.max(1) as f64 * 1e6;
    println!(
        "relay CPU per frame per spectator: {:.2} µs ({:.2} µs user, {:.2} µs system)",
        per_frame(relay_cpu1 - relay_cpu0),
        per_frame(user1 - user0),
        per_frame(sys1 - sys0),
    );
    println!(
        "(load generator resident: {:.0} MB; relay idle {:.1} MB)",
        own_rss as f64 / 1e6,
        rss_idle as f64 / 1e6
    );
    let _ = relay.kill();
    let _ = relay.wait();
    std::process::exit(0);
}

/// The relay's `/metrics` text (empty if it does not answer within 5 s).
async fn relay_metrics(addr: SocketAddr) -> String {
    let get = pitchside_tests::spectator::http_get(addr, "/metrics");
    match tokio::time::timeout(Duration::from_secs(5), get).await {
        Ok((_, _, body)) => String::from_utf8_lossy(&body).into_owned(),
        Err(_) => String::new(),
    }
}

/// The value of the first line starting with `name` (NaN if there is none).
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN)
}
