//! Edge benchmark: N WebSocket spectators spread over three edge relays, fed through a real
//! `nats-server` with JetStream by an origin relay that follows a fake rcssserver playing the
//! full real game at 10 cycles a second.
//!
//! ```sh
//! cargo build --release -p pitchside-relay --bin pitchside-relay
//! cargo run --release -p pitchside-tests --bin edge-bench -- --spectators 3000 --seconds 20
//! ```
//!
//! The origin, the edges and NATS are separate processes (their CPU and memory from /proc);
//! this process is the fake server and the spectators. First the origin, the edges and NATS
//! are measured with no spectator at all, then with N. Latency is end to end: from the fake
//! server sending a show (the origin receives it microseconds later on loopback) to an edge's
//! spectator receiving that frame, matched by the frame number the wire carries.

use pitchside_tests::bench::{
    arg_or, fake_server, free_addr, proc_usage, spawn_relay, spectator, spectator_options, Shared,
};
use pitchside_tests::nats_server::NatsServer;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn relay(bin: &PathBuf, args: &[String]) -> Child {
    spawn_relay(
        Command::new(bin)
            .args(args)
            .args(["--max-spectators", "20000"])
            // Every spectator comes from 127.0.0.1: lift the per-address cap.
            .args(["--max-per-address", "100000"]),
        bin,
        Stdio::inherit(),
    )
}

/// CPU seconds and resident bytes of each process, now.
fn usage(pids: &[u32]) -> Vec<(f64, u64)> {
    pids.iter().map(|&p| proc_usage(p)).collect()
}

struct Window {
    wall: f64,
    cpu: Vec<f64>,
    rss: Vec<u64>,
}

/// Measures every process for `seconds`: CPU as a share of one core, peak resident memory.
async fn measure(pids: &[u32], seconds: u64) -> Window {
    let before = usage(pids);
    let t0 = Instant::now();
    let mut peak = vec![0u64; pids.len()];
    while t0.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        for (p, (_, rss)) in peak.iter_mut().zip(usage(pids)) {
            *p = (*p).max(rss);
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    let after = usage(pids);
    Window {
        wall,
        cpu: before
            .iter()
            .zip(&after)
            .map(|(b, a)| (a.0 - b.0) / wall * 100.0)
            .collect(),
        rss: peak,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (n, seconds, bin) = spectator_options(&args, 3000, 20);
    let edges: usize = arg_or(&args, "--edges", 3);

    let nats = NatsServer::start().await;
    let shared = Arc::new(Shared::default());
    let server = fake_server(shared.clone(), Duration::from_millis(100)).await;
    let origin_addr = free_addr();
    let mut origin = relay(
        &bin,
        &[
            "--listen".into(),
            origin_addr.to_string(),
            "--server".into(),
            format!("bench={server}"),
            "--publish".into(),
            nats.url(),
        ],
    );
    let mut edge_procs = Vec::new();
    let mut edge_addrs = Vec::new();
    for _ in 0..edges {
        let addr = free_addr();
        edge_procs.push(relay(
            &bin,
            &[
                "--listen".into(),
                addr.to_string(),
                "--edge".into(),
                nats.url(),
            ],
        ));
        edge_addrs.push(addr);
    }
    // The edges find the match and catch up.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut pids = vec![origin.id(), nats.pid().expect("nats-server runs")];
    pids.extend(edge_procs.iter().map(Child::id));

    let idle = measure(&pids, seconds).await;
    println!(
        "no spectators, {:.0} s: origin CPU {:.1} %, NATS CPU {:.1} % and {:.0} MB, edges CPU {} ",
        idle.wall,
        idle.cpu[0],
        idle.cpu[1],
        idle.rss[1] as f64 / 1e6,
        idle.cpu[2..]
            .iter()
            .map(|c| format!("{c:.1} %"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let rss_idle: Vec<u64> = usage(&pids).into_iter().map(|u| u.1).collect();

    let started = Instant::now();
    for i in 0..n {
        let addr = edge_addrs[i % edges];
        tokio::spawn(spectator(addr, "/m/bench/ws".into(), shared.clone()));
        if i % 200 == 199 {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    while shared.connected.load(Ordering::Relaxed) < n
        && started.elapsed() < Duration::from_secs(120)
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let connected = shared.connected.load(Ordering::Relaxed);
    println!(
        "{connected} spectators connected in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    shared.reset();
    let own0 = proc_usage(std::process::id()).0;
    shared.measuring.store(true, Ordering::Relaxed);
    let busy = measure(&pids, seconds).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let own = (proc_usage(std::process::id()).0 - own0) / busy.wall * 100.0;
    let frames = shared.frames.load(Ordering::Relaxed);
    let edge_cpu: f64 = busy.cpu[2..].iter().sum::<f64>() / edges as f64;
    let edge_rss: u64 = busy.rss[2..].iter().sum::<u64>() / edges as u64;
    let edge_idle: u64 = rss_idle[2..].iter().sum::<u64>() / edges as u64;
    println!();
    println!("| spectators (over {edges} edges) | frames/s delivered (of N × 10) | p50 | p99 | origin CPU, 0 spectators | origin CPU, N | NATS CPU, 0 / N | NATS RSS | edge CPU (each, avg) | edge RSS (each) | edge memory per spectator | lag skips | load generator CPU |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {connected} | {:.0} | {:.1} ms | {:.1} ms | {:.1} % | {:.1} % | {:.1} % / {:.1} % | {:.0} MB | {:.0} % | {:.0} MB | {:.1} KB | {} | {:.0} % |",
        frames as f64 / busy.wall,
        shared.hist.quantile(0.5).as_secs_f64() * 1e3,
        shared.hist.quantile(0.99).as_secs_f64() * 1e3,
        idle.cpu[0],
        busy.cpu[0],
        idle.cpu[1],
        busy.cpu[1],
        busy.rss[1].max(idle.rss[1]) as f64 / 1e6,
        edge_cpu,
        edge_rss as f64 / 1e6,
        edge_rss.saturating_sub(edge_idle) as f64 / (connected.max(1) as f64 / edges as f64) / 1e3,
        shared.skips.load(Ordering::Relaxed),
        own,
    );
    println!(
        "(origin resident {:.0} MB; closed connections {})",
        busy.rss[0] as f64 / 1e6,
        shared.closed.load(Ordering::Relaxed)
    );
    let _ = origin.kill();
    let _ = origin.wait();
    for mut e in edge_procs {
        let _ = e.kill();
        let _ = e.wait();
    }
    drop(nats);
    std::process::exit(0);
}
