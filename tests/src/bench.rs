//! What the load benchmarks share: a fake rcssserver playing the full real game at a fixed
//! rate that notes when it sent each show, WebSocket spectators that time each frame's arrival
//! by the frame number the wire carries (without decoding frames, which would measure the
//! benchmark rather than the relay), a latency histogram, and CPU and memory from `/proc`.

use crate::fixtures;
use futures_util::StreamExt;
use rcss_formats::parse_log;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;
pub use tokio::time::MissedTickBehavior;
use tokio_tungstenite::tungstenite::Message;

/// Latency histogram: 100 µs buckets up to 10 s.
pub struct Histogram {
    buckets: Vec<AtomicU64>,
}

const BUCKET_US: u64 = 100;

impl Histogram {
    pub fn new() -> Self {
        Histogram {
            buckets: (0..100_000).map(|_| AtomicU64::new(0)).collect(),
        }
    }
    pub fn add(&self, d: Duration) {
        let i = (d.as_micros() as u64 / BUCKET_US).min(self.buckets.len() as u64 - 1);
        self.buckets[i as usize].fetch_add(1, Ordering::Relaxed);
    }
    pub fn clear(&self) {
        for b in &self.buckets {
            b.store(0, Ordering::Relaxed);
        }
    }
    pub fn quantile(&self, q: f64) -> Duration {
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

/// When the fake server sent each show, by frame number, lock-free: every spectator looks
/// up each frame it gets (100,000 a second at 10,000 spectators), and a lock shared by them
/// all made the load generator's own waiting part of the latency it measured.
pub struct SentTimes {
    start: Instant,
    /// Per slot (frame number modulo the length): the frame number + 1 (0: none yet) and the
    /// nanoseconds since `start` it was sent at.
    slots: Vec<(AtomicU64, AtomicU64)>,
}

impl SentTimes {
    fn new() -> SentTimes {
        SentTimes {
            start: Instant::now(),
            slots: (0..1 << 16)
                .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
                .collect(),
        }
    }

    /// Notes that frame `n` is sent now.
    pub fn mark(&self, n: usize) {
        let (frame, at) = &self.slots[n % self.slots.len()];
        at.store(self.start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        frame.store(n as u64 + 1, Ordering::Release);
    }

    /// When frame `n` was sent, if it was and its slot has not been reused since.
    pub fn get(&self, n: usize) -> Option<Instant> {
        let (frame, at) = &self.slots[n % self.slots.len()];
        (frame.load(Ordering::Acquire) == n as u64 + 1)
            .then(|| self.start + Duration::from_nanos(at.load(Ordering::Relaxed)))
    }
}

pub struct Shared {
    /// When the fake server sent the show with each frame number.
    pub sent: SentTimes,
    /// Shows the fake server sent while measuring.
    pub shows: AtomicU64,
    pub hist: Histogram,
    pub frames: AtomicU64,
    pub frame_bytes: AtomicU64,
    /// `Skipped` notices received, and the frames they said were left out.
    pub skips: AtomicU64,
    pub skipped: AtomicU64,
    pub connected: AtomicUsize,
    pub closed: AtomicUsize,
    pub measuring: AtomicBool,
    /// Each spectator's own counts, to see how evenly frames were skipped.
    pub each: std::sync::Mutex<Vec<Arc<Counts>>>,
}

/// One spectator's frames and skipped frames while measuring.
#[derive(Default)]
pub struct Counts {
    pub frames: AtomicU64,
    pub skipped: AtomicU64,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            sent: SentTimes::new(),
            shows: AtomicU64::new(0),
            hist: Histogram::new(),
            frames: AtomicU64::new(0),
            frame_bytes: AtomicU64::new(0),
            skips: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
            connected: AtomicUsize::new(0),
            closed: AtomicUsize::new(0),
            measuring: AtomicBool::new(false),
            each: std::sync::Mutex::new(Vec::new()),
        }
    }
}

impl Shared {
    /// Starts a measurement window.
    pub fn reset(&self) {
        self.hist.clear();
        self.shows.store(0, Ordering::Relaxed);
        self.frames.store(0, Ordering::Relaxed);
        self.frame_bytes.store(0, Ordering::Relaxed);
        self.skips.store(0, Ordering::Relaxed);
        self.skipped.store(0, Ordering::Relaxed);
        for c in self.each.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            c.frames.store(0, Ordering::Relaxed);
            c.skipped.store(0, Ordering::Relaxed);
        }
    }

    /// Every connected spectator's (frames, skipped frames) while measuring.
    pub fn each(&self) -> Vec<(u64, u64)> {
        self.each
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|c| {
                (
                    c.frames.load(Ordering::Relaxed),
                    c.skipped.load(Ordering::Relaxed),
                )
            })
            .collect()
    }
}

/// The `q` quantile of `v` (sorted here), 0 when empty.
pub fn quantile(v: &mut [u64], q: f64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1;
    v[i]
}

impl Default for Histogram {
    fn default() -> Self {
        Self::new()
    }
}

pub fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The value after `name` in `args` read as a `T` (a count, seconds, a rate), or `default`
/// when it is not there or does not read as one.
pub fn arg_or<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    arg(args, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A binary cargo built beside this bench's own (`pitchside-relay`, `pitchside-inspect`).
pub fn sibling(name: &str) -> std::path::PathBuf {
    std::env::current_exe()
        .expect("own path")
        .with_file_name(name)
}

/// An address on loopback that nothing listens on (now), for a relay to listen on.
pub fn free_addr() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], fixtures::free_port()))
}

/// Starts the relay `cmd` runs (the binary `bin`, maybe through taskset), logging warnings
/// only, its output to nowhere and its errors to `stderr`.
pub fn spawn_relay(
    cmd: &mut std::process::Command,
    bin: &std::path::Path,
    stderr: std::process::Stdio,
) -> std::process::Child {
    cmd.env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {} (build it first): {e}", bin.display()))
}

/// The relay a bench starts: the one `--relay PATH` names in `args`, or the one built beside
/// the bench.
pub fn relay_bin(args: &[String]) -> std::path::PathBuf {
    arg(args, "--relay")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| sibling("pitchside-relay"))
}

/// What a bench that puts spectators on relay processes is asked first: `--spectators N` and
/// `--seconds S` (`spectators` and `seconds` when not given) and the relay binary
/// ([`relay_bin`]). The open-files limit, which the relays inherit, is raised as far as it
/// goes for that many sockets, and printed.
pub fn spectator_options(
    args: &[String],
    spectators: usize,
    seconds: u64,
) -> (usize, u64, std::path::PathBuf) {
    let n = arg_or(args, "--spectators", spectators);
    let seconds = arg_or(args, "--seconds", seconds);
    let bin = relay_bin(args);
    let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(0);
    println!("open files limit: {limit}");
    (n, seconds, bin)
}

/// (user, system) CPU seconds of a process: on loopback the system part includes the
/// receiving side's TCP work, done in the sender's system call.
pub fn proc_cpu_split(pid: u32) -> (f64, f64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) / 100.0;
    (field(11), field(12))
}

/// (user + system CPU seconds, resident bytes) of a process.
pub fn proc_usage(pid: u32) -> (f64, u64) {
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
pub fn frame_number(p: &[u8]) -> Option<u32> {
    if p.len() < 3 || p[0] != 3 || !(p[1] == 6 || p[1] == 7) {
        return None;
    }
    varint(&p[2..], 5).and_then(|v| u32::try_from(v).ok())
}

/// The frames a `Skipped` notice packet says were left out: `[2][7][varint]`.
pub fn skipped_frames(p: &[u8]) -> Option<u64> {
    if p.len() < 3 || p[0] != 2 || p[1] != 7 {
        return None;
    }
    varint(&p[2..], 10)
}

/// The wire's varint at the start of `bytes`, of at most `max` bytes.
fn varint(bytes: &[u8], max: usize) -> Option<u64> {
    let mut v = 0u64;
    for (i, &b) in bytes.iter().take(max).enumerate() {
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// One spectator of `ws://ADDR/PATH`, until the connection ends.
pub async fn spectator(addr: SocketAddr, path: String, shared: Arc<Shared>) {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let url = format!("ws://{addr}{path}");
    let mut ws = loop {
        match tokio_tungstenite::connect_async_with_config(&url, Some(config), true).await {
            Ok((ws, _)) => break ws,
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    let mine = Arc::new(Counts::default());
    shared
        .each
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(mine.clone());
    shared.connected.fetch_add(1, Ordering::Relaxed);
    while let Some(msg) = ws.next().await {
        let Ok(msg) = msg else { break };
        if let Message::Binary(b) = msg {
            let now = Instant::now();
            if let Some(n) = frame_number(&b) {
                if shared.measuring.load(Ordering::Relaxed) {
                    if let Some(t) = shared.sent.get(n as usize) {
                        shared.hist.add(now.saturating_duration_since(t));
                    }
                    shared.frames.fetch_add(1, Ordering::Relaxed);
                    mine.frames.fetch_add(1, Ordering::Relaxed);
                    shared
                        .frame_bytes
                        .fetch_add(b.len() as u64, Ordering::Relaxed);
                }
            } else if let Some(k) = skipped_frames(&b) {
                shared.skips.fetch_add(1, Ordering::Relaxed);
                if shared.measuring.load(Ordering::Relaxed) {
                    shared.skipped.fetch_add(k, Ordering::Relaxed);
                    mine.skipped.fetch_add(k, Ordering::Relaxed);
                }
            }
        }
    }
    shared.closed.fetch_add(1, Ordering::Relaxed);
}

/// The full game as v5 monitor datagrams, and which of them are shows.
pub fn game() -> Vec<(bool, Vec<u8>)> {
    crate::fake_server::monitor_datagrams(&parse_log(&fixtures::read(fixtures::FULL_V6)))
}

/// Answers one `(dispinit …)` and plays the game, looping, one show per `step`.
pub async fn fake_server(shared: Arc<Shared>, step: Duration) -> SocketAddr {
    let mut n = 0usize;
    play_game(step, MissedTickBehavior::Burst, move |_| {
        shared.sent.mark(n);
        if shared.measuring.load(Ordering::Relaxed) {
            shared.shows.fetch_add(1, Ordering::Relaxed);
        }
        n += 1;
    })
    .await
}

/// A fake rcssserver for one session (the relay registers once): answers its
/// `(dispinit …)` and plays it the full game ([`game`]) over and over, a show every `step`
/// (`missed` says what the ticker does when the machine falls behind). `shown(i)` hears of
/// each show, the `i`th of its pass through the game, just before it is sent.
pub async fn play_game(
    step: Duration,
    missed: MissedTickBehavior,
    mut shown: impl FnMut(usize) + Send + 'static,
) -> SocketAddr {
    let game = game();
    let init = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    let addr = init.local_addr().expect("address");
    tokio::spawn(async move {
        let mut buf = vec![0u8; 4096];
        let Ok((_, peer)) = init.recv_from(&mut buf).await else {
            return;
        };
        let s = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
        let mut ticker = tokio::time::interval(step);
        ticker.set_missed_tick_behavior(missed);
        loop {
            let mut i = 0usize;
            for (is_show, d) in &game {
                if *is_show {
                    ticker.tick().await;
                    shown(i);
                    i += 1;
                }
                if s.send_to(d, peer).await.is_err() {
                    return;
                }
            }
        }
    });
    addr
}
