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

use futures_util::StreamExt;
use pitchside_shared::{parse_log, write, Record};
use pitchside_tests::fixtures;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;
use tokio_tungstenite::tungstenite::Message;

/// Latency histogram: 100 µs buckets up to 10 s.
struct Histogram {
    buckets: Vec<AtomicU64>,
}

const BUCKET_US: u64 = 100;

impl Histogram {
    fn new() -> Self {
        Histogram {
            buckets: (0..100_000).map(|_| AtomicU64::new(0)).collect(),
        }
    }
    fn add(&self, d: Duration) {
        let i = (d.as_micros() as u64 / BUCKET_US).min(self.buckets.len() as u64 - 1);
        self.buckets[i as usize].fetch_add(1, Ordering::Relaxed);
    }
    fn clear(&self) {
        for b in &self.buckets {
            b.store(0, Ordering::Relaxed);
        }
    }
    fn quantile(&self, q: f64) -> Duration {
        let total: u64 = self.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum();
        let want = (total as f64 * q).ceil() as u64;
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            seen += b.load(Ordering::Relaxed);
            if seen >= want && want > 0 {
                return Duration::from_micros((i as u64 + 1) * BUCKET_US);
            }
        }
        Duration::ZERO
    }
}

struct Shared {
    /// When the fake server sent the show with each frame number.
    sent: Mutex<Vec<Option<Instant>>>,
    hist: Histogram,
    frames: AtomicU64,
    frame_bytes: AtomicU64,
    skips: AtomicU64,
    connected: AtomicUsize,
    closed: AtomicUsize,
    measuring: AtomicBool,
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// (user + system CPU seconds, resident bytes) of a process.
fn proc_usage(pid: u32) -> (f64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let tick = 100.0; // CLK_TCK on Linux
    let cpu = f.get(11).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kb = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    (cpu / tick, rss_kb * 1024)
}

/// The frame number of a live frame packet: `[3][6 or 7][varint]`.
fn frame_number(p: &[u8]) -> Option<u32> {
    if p.len() < 3 || p[0] != 3 || !(p[1] == 6 || p[1] == 7) {
        return None;
    }
    let mut v = 0u32;
    for (i, &b) in p[2..].iter().take(5).enumerate() {
        v |= u32::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

async fn spectator(addr: SocketAddr, shared: Arc<Shared>) {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let url = format!("ws://{addr}/ws");
    let mut ws = loop {
        match tokio_tungstenite::connect_async_with_config(&url, Some(config), true).await {
            Ok((ws, _)) => break ws,
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    shared.connected.fetch_add(1, Ordering::Relaxed);
    while let Some(msg) = ws.next().await {
        let Ok(msg) = msg else { break };
        if let Message::Binary(b) = msg {
            let now = Instant::now();
            if let Some(n) = frame_number(&b) {
                if shared.measuring.load(Ordering::Relaxed) {
                    let sent = shared
                        .sent
                        .lock()
                        .ok()
                        .and_then(|s| s.get(n as usize).copied().flatten());
                    if let Some(t) = sent {
                        shared.hist.add(now.saturating_duration_since(t));
                    }
                    shared.frames.fetch_add(1, Ordering::Relaxed);
                    shared
                        .frame_bytes
                        .fetch_add(b.len() as u64, Ordering::Relaxed);
                }
            } else if b.len() >= 2 && b[0] == 2 && b[1] == 7 {
                shared.skips.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    shared.closed.fetch_add(1, Ordering::Relaxed);
}

/// The full game as v5 monitor datagrams, and which of them are shows.
fn game() -> Vec<(bool, Vec<u8>)> {
    let m = parse_log(&fixtures::read(fixtures::FULL_V6));
    let mut records = Vec::new();
    records.extend(m.server_param.clone().map(Record::ServerParam));
    records.extend(m.player_param.clone().map(Record::PlayerParam));
    records.extend(m.player_types.iter().cloned().map(Record::PlayerType));
    records.extend(m.frames.iter().cloned().map(Record::Show));
    records
        .iter()
        .filter_map(|r| {
            let mut d = write::monitor_datagram(r)?;
            d.push(0);
            Some((matches!(r, Record::Show(_)), d))
        })
        .collect()
}

async fn fake_server(shared: Arc<Shared>, step: Duration) -> SocketAddr {
    let game = game();
    let init = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    let addr = init.local_addr().expect("address");
    tokio::spawn(async move {
        let mut buf = vec![0u8; 4096];
        // One session: the relay registers once.
        let Ok((_, peer)) = init.recv_from(&mut buf).await else {
            return;
        };
        let s = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
        let mut ticker = tokio::time::interval(step);
        let mut n = 0usize;
        for (is_show, d) in game.iter().cycle() {
            if *is_show {
                ticker.tick().await;
                if let Ok(mut sent) = shared.sent.lock() {
                    if sent.len() <= n {
                        sent.resize(n + 1, None);
                    }
                    sent[n] = Some(Instant::now());
                }
                n += 1;
            }
            if s.send_to(d, peer).await.is_err() {
                return;
            }
        }
    });
    addr
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = arg(&args, "--spectators")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let seconds: u64 = arg(&args, "--seconds")
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let hz: f64 = arg(&args, "--hz")
        .and_then(|v| v.parse().ok())
        .unwrap_or(10.0);
    let relay_bin = arg(&args, "--relay").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("own path");
        exe.with_file_name("pitchside-relay")
    });
    let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(0);
    println!("open files limit: {limit}");
    let shared = Arc::new(Shared {
        sent: Mutex::new(Vec::new()),
        hist: Histogram::new(),
        frames: AtomicU64::new(0),
        frame_bytes: AtomicU64::new(0),
        skips: AtomicU64::new(0),
        connected: AtomicUsize::new(0),
        closed: AtomicUsize::new(0),
        measuring: AtomicBool::new(false),
    });
    let server = fake_server(shared.clone(), Duration::from_secs_f64(1.0 / hz)).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr: SocketAddr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut relay = Command::new(&relay_bin)
        .args([
            "--listen",
            &addr.to_string(),
            "--server",
            &format!("bench={server}"),
            "--max-spectators",
            "20000",
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {} (build it first): {e}", relay_bin.display()));
    let pid = relay.id();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, rss_idle) = proc_usage(pid);
    println!("relay idle: {:.1} MB resident", rss_idle as f64 / 1e6);

    let started = Instant::now();
    for i in 0..n {
        tokio::spawn(spectator(addr, shared.clone()));
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
    shared.hist.clear();
    shared.frames.store(0, Ordering::Relaxed);
    shared.frame_bytes.store(0, Ordering::Relaxed);
    shared.skips.store(0, Ordering::Relaxed);
    let (relay_cpu0, _) = proc_usage(pid);
    let (own_cpu0, _) = proc_usage(std::process::id());
    shared.measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    let mut rss_peak = 0;
    while t0.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        rss_peak = rss_peak.max(proc_usage(pid).1);
    }
    shared.measuring.store(false, Ordering::Relaxed);
    let wall = t0.elapsed().as_secs_f64();
    let (relay_cpu1, rss) = proc_usage(pid);
    let (own_cpu1, own_rss) = proc_usage(std::process::id());
    let frames = shared.frames.load(Ordering::Relaxed);
    let connected = shared.connected.load(Ordering::Relaxed);
    let per = (rss_peak.max(rss).saturating_sub(rss_idle)) as f64 / connected.max(1) as f64;
    println!();
    println!("| spectators | frames/s delivered (of {:.0}) | p50 | p99 | relay CPU | relay RSS | relay memory per spectator | bytes per frame | lag skips | closed | load generator CPU |", connected as f64 * hz);
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {connected} | {:.0} | {:.1} ms | {:.1} ms | {:.0} % | {:.0} MB | {:.1} KB | {:.0} | {} | {} | {:.0} % |",
        frames as f64 / wall,
        shared.hist.quantile(0.5).as_secs_f64() * 1e3,
        shared.hist.quantile(0.99).as_secs_f64() * 1e3,
        (relay_cpu1 - relay_cpu0) / wall * 100.0,
        rss_peak.max(rss) as f64 / 1e6,
        per / 1e3,
        shared.frame_bytes.load(Ordering::Relaxed) as f64 / frames.max(1) as f64,
        shared.skips.load(Ordering::Relaxed),
        shared.closed.load(Ordering::Relaxed),
        (own_cpu1 - own_cpu0) / wall * 100.0,
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
