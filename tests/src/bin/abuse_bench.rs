//! Spectator abuse: a `pitchside-relay` process replaying the full real game as if live, with
//! well-behaved spectators watching throughout, while other clients misbehave in turn:
//!
//! 1. a burst of connection attempts far beyond `--max-spectators`, all at once;
//! 2. clients that send garbage after the handshake, one huge message, a message that never
//!    ends, a flood of small messages, or that stop reading;
//! 3. the relay killed and started again: every page reconnects at once, each after the delay
//!    the page itself uses (`pitchside_wire::reconnect`).
//!
//! For each phase it prints the well-behaved spectators' frame rate and frame gaps, the
//! relay's memory and CPU, and what became of the misbehaving clients. Traffic stays on
//! loopback (127.0.3.x well-behaved, 127.0.4.x the rest); every phase is bounded in count and
//! time.
//!
//! ```sh
//! cargo build --release -p pitchside-relay --bins
//! cargo run --release -p pitchside-tests --bin abuse-bench -- --good 800 --max-spectators 1000 --burst 10000
//! ```

use futures_util::{SinkExt, StreamExt};
use pitchside_tests::bench::{
    arg_or, frame_number, free_addr, proc_usage, relay_bin, spawn_relay, Histogram,
};
use pitchside_tests::fixtures;
use pitchside_tests::spectator::http_get;
use pitchside_wire::reconnect::retry_delay;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

/// The well-behaved spectators, together.
#[derive(Default)]
struct Good {
    frames: AtomicU64,
    gaps: Histogram,
    max_gap_us: AtomicU64,
    connected: AtomicUsize,
    /// When each reconnected after the restart, from the kill.
    back: Mutex<Vec<Duration>>,
    killed_at: Mutex<Option<Instant>>,
    stop: AtomicBool,
}

async fn tcp_from(from: IpAddr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let sock = TcpSocket::new_v4()?;
    sock.bind(SocketAddr::new(from, 0))?;
    sock.connect(to).await
}

/// Watches the match, reconnecting as the page does, until told to stop.
async fn good(relay: SocketAddr, from: IpAddr, g: Arc<Good>, seed: u64) {
    // Spread the seed's bits: xorshift's first draws from small seeds are all near zero.
    let mut rng = fixtures::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for _ in 0..4 {
        rng.unit();
    }
    let mut failures = 0u32;
    let url = format!("ws://{relay}/ws");
    while !g.stop.load(Ordering::Relaxed) {
        let ws = match tcp_from(from, relay).await {
            Ok(s) => tokio_tungstenite::client_async(url.as_str(), s).await.ok(),
            Err(_) => None,
        };
        let Some((mut ws, _)) = ws else {
            failures += 1;
            let d = retry_delay(failures, rng.unit());
            tokio::time::sleep(Duration::from_secs_f64(d / 1000.0)).await;
            continue;
        };
        if let Some(killed) = *g.killed_at.lock().unwrap_or_else(|e| e.into_inner()) {
            if let Ok(mut b) = g.back.lock() {
                b.push(killed.elapsed());
            }
        }
        g.connected.fetch_add(1, Ordering::Relaxed);
        let mut last: Option<Instant> = None;
        loop {
            let msg = tokio::select! {
                m = ws.next() => m,
                () = tokio::time::sleep(Duration::from_millis(500)) => {
                    if g.stop.load(Ordering::Relaxed) { break; }
                    continue;
                }
            };
            let Some(Ok(msg)) = msg else { break };
            if let Message::Binary(b) = msg {
                if frame_number(&b).is_some() {
                    let now = Instant::now();
                    if let Some(l) = last {
                        let gap = now - l;
                        g.gaps.add(gap);
                        g.max_gap_us
                            .fetch_max(gap.as_micros() as u64, Ordering::Relaxed);
                    }
                    last = Some(now);
                    g.frames.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        g.connected.fetch_sub(1, Ordering::Relaxed);
        if g.stop.load(Ordering::Relaxed) {
            let _ = ws.send(Message::Close(None)).await;
            return;
        }
        // The page waits before its first attempt too.
        failures = 1;
        let d = retry_delay(failures, rng.unit());
        tokio::time::sleep(Duration::from_secs_f64(d / 1000.0)).await;
    }
}

/// How a burst connection ended.
#[derive(Default)]
struct Burst {
    admitted: AtomicUsize,
    full: AtomicUsize,
    other: AtomicUsize,
    answer: Histogram,
}

async fn burst_one(relay: SocketAddr, from: IpAddr, b: Arc<Burst>, hold: Duration) {
    let start = Instant::now();
    let ws = match tcp_from(from, relay).await {
        Ok(s) => tokio_tungstenite::client_async(format!("ws://{relay}/ws"), s)
            .await
            .ok(),
        Err(_) => None,
    };
    let Some((mut ws, _)) = ws else {
        b.other.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let until = tokio::time::sleep(hold);
    tokio::pin!(until);
    let mut counted = false;
    loop {
        tokio::select! {
            () = &mut until => break,
            m = ws.next() => match m {
                Some(Ok(Message::Close(Some(c)))) if c.code == CloseCode::Again => {
                    b.answer.add(start.elapsed());
                    b.full.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                Some(Ok(Message::Binary(p))) if !counted && frame_number(&p).is_some() => {
                    counted = true;
                    b.answer.add(start.elapsed());
                    b.admitted.fetch_add(1, Ordering::Relaxed);
                }
                Some(Ok(_)) => {}
                _ => {
                    if !counted {
                        b.other.fetch_add(1, Ordering::Relaxed);
                    }
                    return;
                }
            }
        }
    }
    let _ = ws.send(Message::Close(None)).await;
}

/// A WebSocket by hand, to misbehave below the library's manners.
async fn raw_ws(relay: SocketAddr, from: IpAddr, recv_buffer: Option<u32>) -> Option<TcpStream> {
    let sock = TcpSocket::new_v4().ok()?;
    if let Some(n) = recv_buffer {
        let _ = sock.set_recv_buffer_size(n);
    }
    sock.bind(SocketAddr::new(from, 0)).ok()?;
    let mut s = sock.connect(relay).await.ok()?;
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {relay}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.ok()?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 4096 {
        if s.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    head.starts_with(b"HTTP/1.1 101").then_some(s)
}

/// A masked client frame.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0x80 | opcode];
    let n = payload.len();
    if n < 126 {
        f.push(0x80 | n as u8);
    } else if n < 65536 {
        f.push(0x80 | 126);
        f.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        f.push(0x80 | 127);
        f.extend_from_slice(&(n as u64).to_be_bytes());
    }
    let mask = [1u8, 2, 3, 4];
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// Reads what the relay sends until it closes the connection or `limit` passes: the close
/// code it sent, if any, and whether the connection ended.
async fn outcome(s: &mut TcpStream, limit: Duration) -> (Option<u16>, bool) {
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 65536];
    let end = Instant::now() + limit;
    let mut code = None;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (code, true),
            Ok(Ok(n)) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => return (code, false),
        }
        // Server frames are unmasked.
        loop {
            if buf.len() < 2 {
                break;
            }
            let (len, at) = match buf[1] & 0x7f {
                126 if buf.len() >= 4 => (u16::from_be_bytes([buf[2], buf[3]]) as usize, 4),
                127 if buf.len() >= 10 => {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&buf[2..10]);
                    (u64::from_be_bytes(b) as usize, 10)
                }
                126 | 127 => break,
                n => (n as usize, 2),
            };
            if buf.len() < at + len {
                break;
            }
            if buf[0] & 0x0f == 8 && len >= 2 {
                code = Some(u16::from_be_bytes([buf[at], buf[at + 1]]));
            }
            buf.drain(..at + len);
        }
    }
}

#[derive(Default)]
struct Hostile {
    /// (kind, close code or none, ended by the relay within the phase)
    ends: Mutex<Vec<(&'static str, Option<u16>, bool)>>,
}

async fn hostile(
    relay: SocketAddr,
    from: IpAddr,
    kind: &'static str,
    h: Arc<Hostile>,
    phase: Duration,
) {
    let buffer = (kind == "stops reading").then_some(4096);
    let Some(mut s) = raw_ws(relay, from, buffer).await else {
        if let Ok(mut e) = h.ends.lock() {
            e.push((kind, None, true));
        }
        return;
    };
    match kind {
        "garbage" => {
            let junk: Vec<u8> = (0..4096u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect();
            let _ = s.write_all(&junk).await;
        }
        "huge" => {
            let _ = s.write_all(&frame(2, &vec![7u8; 1 << 20])).await;
        }
        "endless" => {
            let mut head = vec![0x82, 0x80 | 127];
            head.extend_from_slice(&(1u64 << 40).to_be_bytes());
            head.extend_from_slice(&[1, 2, 3, 4]);
            let _ = s.write_all(&head).await;
            // Then a byte now and then, for at most the phase.
            let end = Instant::now() + phase;
            while Instant::now() < end {
                if s.write_all(&[0]).await.is_err() {
                    break;
                }
                let (code, ended) = outcome(&mut s, Duration::from_millis(200)).await;
                if ended || code.is_some() {
                    if let Ok(mut e) = h.ends.lock() {
                        e.push((kind, code, true));
                    }
                    return;
                }
            }
        }
        "flood" => {
            let one = frame(1, b"x");
            for _ in 0..10_000 {
                if s.write_all(&one).await.is_err() {
                    break;
                }
            }
        }
        _ => {
            // Stops reading: holds the connection for the phase, reads nothing.
            tokio::time::sleep(phase).await;
        }
    }
    let (code, ended) = outcome(&mut s, phase).await;
    if let Ok(mut e) = h.ends.lock() {
        e.push((kind, code, ended));
    }
}

fn start_relay(bin: &PathBuf, listen: SocketAddr, max: usize) -> Child {
    spawn_relay(
        Command::new(bin)
            .args(["--listen", &listen.to_string()])
            .args(["--max-spectators", &max.to_string()])
            .args(["--max-per-address", "100000"])
            .arg("--replay")
            .arg(format!(
                "abuse={}",
                fixtures::path(fixtures::FULL_V6).display()
            )),
        bin,
        Stdio::null(),
    )
}

async fn wait_up(relay: SocketAddr) {
    for _ in 0..100 {
        if TcpStream::connect(relay).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs every one of `clients` at once, each a task of its own, until the last is done.
async fn all_at_once<F>(clients: impl IntoIterator<Item = F>)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let mut set = tokio::task::JoinSet::new();
    for c in clients {
        set.spawn(c);
    }
    while set.join_next().await.is_some() {}
}

/// One row: the well-behaved spectators over a phase, and the relay's resources.
async fn phase<F: std::future::Future<Output = ()>>(
    name: &str,
    g: &Good,
    pid: Arc<dyn Fn() -> u32 + Send + Sync>,
    seconds: f64,
    work: F,
) {
    g.gaps.clear();
    g.max_gap_us.store(0, Ordering::Relaxed);
    let f0 = g.frames.load(Ordering::Relaxed);
    let p0 = pid();
    let (c0, _) = proc_usage(p0);
    let peak = Arc::new(AtomicU64::new(0));
    let sampler = {
        let peak = peak.clone();
        let pid = pid.clone();
        tokio::spawn(async move {
            loop {
                let (_, rss) = proc_usage(pid());
                peak.fetch_max(rss, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    };
    let t0 = Instant::now();
    work.await;
    let left = Duration::from_secs_f64(seconds).saturating_sub(t0.elapsed());
    tokio::time::sleep(left).await;
    let secs = t0.elapsed().as_secs_f64();
    sampler.abort();
    let (c1, _) = proc_usage(pid());
    // A restarted relay is a new process: its CPU from its start.
    let c0 = if pid() == p0 { c0 } else { 0.0 };
    let n = g.connected.load(Ordering::Relaxed).max(1);
    println!(
        "| {name} | {} | {:.1} | {:.0} | {:.0} | {:.0} | {:.1} | {:.0} |",
        g.connected.load(Ordering::Relaxed),
        (g.frames.load(Ordering::Relaxed) - f0) as f64 / secs / n as f64,
        g.gaps.quantile(0.5).as_secs_f64() * 1000.0,
        g.gaps.quantile(0.99).as_secs_f64() * 1000.0,
        g.max_gap_us.load(Ordering::Relaxed) as f64 / 1000.0,
        peak.load(Ordering::Relaxed) as f64 / 1e6,
        (c1 - c0).max(0.0) / secs * 100.0,
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n_good: usize = arg_or(&args, "--good", 800);
    let max: usize = arg_or(&args, "--max-spectators", 1000);
    let n_burst: usize = arg_or(&args, "--burst", 10_000);
    let n_hostile: usize = arg_or(&args, "--hostile", 50);
    let relay_bin = relay_bin(&args);
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let relay = free_addr();
    let child = Arc::new(Mutex::new(start_relay(&relay_bin, relay, max)));
    let pid: Arc<dyn Fn() -> u32 + Send + Sync> = {
        let child = child.clone();
        Arc::new(move || child.lock().map(|c| c.id()).unwrap_or(0))
    };
    wait_up(relay).await;
    let g = Arc::new(Good::default());
    let mut goods = Vec::new();
    for i in 0..n_good {
        let from: IpAddr = [127, 0, 3, (i % 250) as u8 + 1].into();
        goods.push(tokio::spawn(good(relay, from, g.clone(), i as u64 + 1)));
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    for _ in 0..200 {
        if g.connected.load(Ordering::Relaxed) >= n_good {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "abuse: {n_good} well-behaved spectators of the full game replayed at 10 Hz, --max-spectators {max}"
    );
    println!();
    println!("| phase | well-behaved connected | frames/s each | gap p50 ms | gap p99 ms | gap max ms | relay RSS peak MB | relay CPU % |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    phase("quiet", &g, pid.clone(), 10.0, async {}).await;

    let b = Arc::new(Burst::default());
    let hold = Duration::from_secs(10);
    phase(
        &format!("{n_burst} attempts at once"),
        &g,
        pid.clone(),
        12.0,
        {
            let b = b.clone();
            all_at_once((0..n_burst).map(move |i| {
                let from: IpAddr = [127, 0, 4, (i % 250) as u8 + 1].into();
                burst_one(relay, from, b.clone(), hold)
            }))
        },
    )
    .await;

    let h = Arc::new(Hostile::default());
    let kinds = ["garbage", "huge", "endless", "flood", "stops reading"];
    phase(
        &format!("{} misbehaving clients", n_hostile * kinds.len()),
        &g,
        pid.clone(),
        20.0,
        {
            let h = h.clone();
            all_at_once(kinds.into_iter().enumerate().flat_map(move |(k, kind)| {
                let h = h.clone();
                (0..n_hostile).map(move |i| {
                    let from: IpAddr = [127, 0, 5 + k as u8, (i % 250) as u8 + 1].into();
                    hostile(relay, from, kind, h.clone(), Duration::from_secs(15))
                })
            }))
        },
    )
    .await;

    let (_, _, body) = http_get(relay, "/metrics").await;
    let metrics: Vec<String> = String::from_utf8_lossy(&body)
        .lines()
        .filter(|l| {
            l.starts_with("pitchside_refused_total")
                || l.starts_with("pitchside_closed_slow")
                || l.starts_with("pitchside_connections_open")
        })
        .map(str::to_owned)
        .collect();
    // The restart: killed, started again at once on the same port.
    phase("relay killed and restarted", &g, pid.clone(), 30.0, {
        let child = child.clone();
        let g = g.clone();
        let bin = relay_bin.clone();
        async move {
            if let Ok(mut c) = child.lock() {
                let _ = c.kill();
                let _ = c.wait();
            }
            if let Ok(mut k) = g.killed_at.lock() {
                *k = Some(Instant::now());
            }
            if let Ok(mut c) = child.lock() {
                *c = start_relay(&bin, relay, max);
            }
            wait_up(relay).await;
        }
    })
    .await;

    println!();
    println!(
        "burst: {} admitted (frames flowing), {} refused with 1013 (the relay is full), {} otherwise; answer p50 {:.0} ms, p99 {:.0} ms",
        b.admitted.load(Ordering::Relaxed),
        b.full.load(Ordering::Relaxed),
        b.other.load(Ordering::Relaxed),
        b.answer.quantile(0.5).as_secs_f64() * 1000.0,
        b.answer.quantile(0.99).as_secs_f64() * 1000.0
    );
    println!();
    println!("| misbehaving client | count | closed by the relay | close codes |");
    println!("|---|---:|---:|---|");
    let ends = h.ends.lock().map(|e| e.clone()).unwrap_or_default();
    for kind in kinds {
        let mine: Vec<_> = ends.iter().filter(|e| e.0 == kind).collect();
        let mut codes: Vec<String> = Vec::new();
        for e in &mine {
            let c = e.1.map_or("none".to_string(), |c| c.to_string());
            if !codes.contains(&c) {
                codes.push(c);
            }
        }
        println!(
            "| {kind} | {} | {} | {} |",
            mine.len(),
            mine.iter().filter(|e| e.2).count(),
            codes.join(", ")
        );
    }
    let mut back = g.back.lock().map(|b| b.clone()).unwrap_or_default();
    back.sort();
    if !back.is_empty() {
        let q = |f: f64| back[((back.len() - 1) as f64 * f) as usize].as_secs_f64();
        let mut per = std::collections::BTreeMap::new();
        for d in &back {
            *per.entry(d.as_millis() / 100).or_insert(0usize) += 1;
        }
        let busiest = per.values().max().copied().unwrap_or(0);
        println!();
        println!(
            "restart: {} of {n_good} back; from the kill: first {:.2} s, median {:.2} s, p90 {:.2} s, last {:.2} s; busiest 100 ms: {busiest} reconnections",
            back.len(),
            q(0.0),
            q(0.5),
            q(0.9),
            q(1.0)
        );
    }
    println!();
    for l in metrics {
        println!("before the restart: {l}");
    }
    g.stop.store(true, Ordering::Relaxed);
    for t in goods {
        t.abort();
    }
    if let Ok(mut c) = child.lock() {
        let _ = c.kill();
        let _ = c.wait();
    };
}
