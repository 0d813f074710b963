//! Soak: a `pitchside-relay` process following three fake rcssservers that play the full real
//! game over and over at 10 cycles a second, recording every match, while spectators join and
//! leave at random for hours. Prints one row per window and a summary: resident memory (and
//! its slope), descriptors, CPU, latency quantiles, unexpected disconnects, and whether every
//! recording reads to its end with `pitchside-inspect`.
//!
//! ```sh
//! cargo build --release -p pitchside-relay --bins
//! cargo run --release -p pitchside-tests --bin soak-bench -- --minutes 120 --spectators 1000
//! ```
//!
//! Spectators come from eight loopback addresses (127.0.1.1-8), so the relay's default
//! per-address cap stays in force, as it would be for a venue behind a few NAT addresses.
//! A spectator stays for a random time (exponential, mean `--stay` seconds, 60 by default),
//! then closes the connection itself and another takes its place. Any other end of a
//! connection (a close from the relay, an error) counts as unexpected. Latency is from the
//! fake server sending a show to a spectator receiving it, matched by the frame number.

use futures_util::{SinkExt, StreamExt};
use pitchside_tests::bench::{
    arg, arg_or, frame_number, free_addr, game, play_game, proc_usage, relay_bin, Histogram,
    MissedTickBehavior,
};
use pitchside_tests::fixtures::Rng;
use pitchside_tests::relay_harness;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::Message;

/// When each show of the current pass through the game was sent, by frame number: the relay
/// numbers a match's frames from 0, and each pass is a new match (it starts with the server's
/// parameters).
#[derive(Default)]
struct Sent {
    times: Mutex<Vec<Option<Instant>>>,
}

#[derive(Default)]
struct Counters {
    connected: AtomicUsize,
    joins: AtomicU64,
    leaves: AtomicU64,
    unexpected: AtomicU64,
    refused: AtomicU64,
    frames: AtomicU64,
    skips: AtomicU64,
}

/// Plays the game for one registration, looping; a new pass restarts the frame numbers.
async fn fake_server(sent: Arc<Sent>, step: Duration) -> SocketAddr {
    let shows = game().iter().filter(|(s, _)| *s).count();
    play_game(step, MissedTickBehavior::Delay, move |n| {
        if let Ok(mut t) = sent.times.lock() {
            if n == 0 {
                *t = vec![None; shows];
            }
            t[n] = Some(Instant::now());
        }
    })
    .await
}

struct Window {
    hist: Histogram,
}

/// One spectator of match `name`, for `stay`; true if it ended as it meant to.
async fn spectator(
    relay: SocketAddr,
    from: IpAddr,
    name: String,
    sent: Arc<Sent>,
    stay: Duration,
    c: Arc<Counters>,
    w: Arc<Mutex<Arc<Window>>>,
) {
    let stream = async {
        let sock = TcpSocket::new_v4()?;
        sock.bind(SocketAddr::new(from, 0))?;
        sock.connect(relay).await
    }
    .await;
    let Ok(stream) = stream else {
        c.refused.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let url = format!("ws://{relay}/m/{name}/ws");
    let Ok((mut ws, _)) =
        tokio_tungstenite::client_async_with_config(url, stream, Some(config)).await
    else {
        c.refused.fetch_add(1, Ordering::Relaxed);
        return;
    };
    c.joins.fetch_add(1, Ordering::Relaxed);
    c.connected.fetch_add(1, Ordering::Relaxed);
    let leave = tokio::time::sleep(stay);
    tokio::pin!(leave);
    let mut meant = false;
    loop {
        tokio::select! {
            _ = &mut leave, if !meant => {
                meant = true;
                if ws.send(Message::Close(None)).await.is_err() {
                    break;
                }
            }
            msg = ws.next() => {
                let Some(Ok(msg)) = msg else { break };
                match msg {
                    Message::Binary(b) => {
                        let now = Instant::now();
                        if let Some(n) = frame_number(&b) {
                            let t = sent.times.lock().ok().and_then(|t| t.get(n as usize).copied().flatten());
                            if let Some(t) = t {
                                let win = w.lock().map(|w| w.clone());
                                if let Ok(win) = win {
                                    win.hist.add(now.saturating_duration_since(t));
                                }
                            }
                            c.frames.fetch_add(1, Ordering::Relaxed);
                        } else if b.len() >= 2 && b[0] == 2 && b[1] == 7 {
                            c.skips.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Message::Close(_) if !meant => break,
                    _ => {}
                }
            }
        }
    }
    c.connected.fetch_sub(1, Ordering::Relaxed);
    if meant {
        c.leaves.fetch_add(1, Ordering::Relaxed);
    } else {
        c.unexpected.fetch_add(1, Ordering::Relaxed);
    }
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// Least-squares slope of (seconds, bytes), in MB per hour.
fn slope_mb_per_hour(samples: &[(f64, u64)]) -> f64 {
    let n = samples.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mx = samples.iter().map(|s| s.0).sum::<f64>() / n;
    let my = samples.iter().map(|s| s.1 as f64).sum::<f64>() / n;
    let num: f64 = samples.iter().map(|s| (s.0 - mx) * (s.1 as f64 - my)).sum();
    let den: f64 = samples.iter().map(|s| (s.0 - mx).powi(2)).sum();
    if den == 0.0 {
        0.0
    } else {
        num / den * 3600.0 / 1e6
    }
}

/// Each recording read by `pitchside-inspect`: (file, exit code, last line of its summary).
fn check_recordings(inspect: &Path, dir: &Path) -> Vec<(String, i32, String)> {
    // Logs only: the archive keeps its index beside them.
    relay_harness::written(dir, "rcg")
        .iter()
        .map(|f| {
            let out = Command::new(inspect).arg(f).output();
            let (code, text) = match out {
                Ok(o) => (
                    o.status.code().unwrap_or(-1),
                    String::from_utf8_lossy(&o.stdout).into_owned()
                        + &String::from_utf8_lossy(&o.stderr),
                ),
                Err(e) => (-1, e.to_string()),
            };
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let summary = text
                .lines()
                .find(|l| l.contains("cycles") || l.contains("error") || l.contains("stops"))
                .unwrap_or("")
                .trim()
                .to_string();
            (name, code, summary)
        })
        .collect()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |name: &str, default: f64| -> f64 { arg_or(&args, name, default) };
    let minutes = num("--minutes", 120.0);
    let window = Duration::from_secs_f64(num("--window", 600.0));
    let n = num("--spectators", 1000.0) as usize;
    let stay = num("--stay", 60.0);
    let hz = num("--hz", 10.0);
    let mut rng = Rng(num("--seed", 7.0) as u64 | 1);
    let relay_bin = relay_bin(&args);
    let inspect_bin = relay_bin.with_file_name("pitchside-inspect");
    let record = arg(&args, "--record")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("pitchside-soak-{}", std::process::id()))
        });
    let _ = std::fs::remove_dir_all(&record);
    std::fs::create_dir_all(&record).expect("the recording directory");
    let _ = rlimit::increase_nofile_limit(u64::MAX);

    let names = ["a", "b", "c"];
    let mut sents = Vec::new();
    let mut server_args = Vec::new();
    for name in names {
        let sent = Arc::new(Sent::default());
        let addr = fake_server(sent.clone(), Duration::from_secs_f64(1.0 / hz)).await;
        server_args.push("--server".to_string());
        server_args.push(format!("{name}={addr}"));
        sents.push(sent);
    }
    let relay = free_addr();
    let log_path = record.with_extension("log");
    let log = std::fs::File::create(&log_path).expect("relay log");
    let mut child = Command::new(&relay_bin)
        .args(["--listen", &relay.to_string(), "--record"])
        .arg(&record)
        .args(&server_args)
        .env("RUST_LOG", "warn")
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {} (build it first): {e}", relay_bin.display()));
    let pid = child.id();
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!(
        "soak: {minutes} min, {n} spectators (mean stay {stay} s) over 3 matches at {hz} Hz, recording to {}; relay log {}",
        record.display(),
        log_path.display()
    );

    let c = Arc::new(Counters::default());
    let current = Arc::new(Mutex::new(Arc::new(Window {
        hist: Histogram::new(),
    })));
    let started = Instant::now();
    let end = started + Duration::from_secs_f64(minutes * 60.0);
    // Keeps `n` spectators, replacing each that leaves, until the end.
    let keeper = {
        let c = c.clone();
        let current = current.clone();
        let sents = sents.clone();
        tokio::spawn(async move {
            let mut tasks = tokio::task::JoinSet::new();
            let mut i = 0u64;
            while Instant::now() < end {
                while tasks.len() < n {
                    let m = (rng.next_u64() % 3) as usize;
                    let from: IpAddr = [127, 0, 1, (i % 8) as u8 + 1].into();
                    let s = Duration::from_secs_f64(-stay * (1.0 - rng.unit()).ln());
                    let s = s.min(end.saturating_duration_since(Instant::now()));
                    tasks.spawn(spectator(
                        relay,
                        from,
                        names[m].to_string(),
                        sents[m].clone(),
                        s,
                        c.clone(),
                        current.clone(),
                    ));
                    i += 1;
                    // Joins come spread out, at most 200 a second.
                    if i.is_multiple_of(20) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                let _ = tokio::time::timeout(Duration::from_millis(200), tasks.join_next()).await;
            }
            let _ = tokio::time::timeout(Duration::from_secs(30), async {
                while tasks.join_next().await.is_some() {}
            })
            .await;
        })
    };

    println!();
    println!("| window | minutes | spectators | joins | leaves | unexpected | refused | frames/s | p50 | p99 | max | lag skips | relay RSS | descriptors | relay CPU |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut rss_samples = Vec::new();
    let mut last = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut cpu0 = proc_usage(pid).0;
    let mut w0 = Instant::now();
    let mut index = 0;
    while Instant::now() < end {
        let next = (w0 + window).min(end);
        while Instant::now() < next {
            tokio::time::sleep(
                Duration::from_secs(10).min(next.saturating_duration_since(Instant::now())),
            )
            .await;
            rss_samples.push((started.elapsed().as_secs_f64(), proc_usage(pid).1));
        }
        let done = std::mem::replace(
            &mut *current.lock().expect("window"),
            Arc::new(Window {
                hist: Histogram::new(),
            }),
        );
        let wall = w0.elapsed().as_secs_f64();
        w0 = Instant::now();
        let (cpu, rss) = proc_usage(pid);
        let now = (
            c.joins.load(Ordering::Relaxed),
            c.leaves.load(Ordering::Relaxed),
            c.unexpected.load(Ordering::Relaxed),
            c.refused.load(Ordering::Relaxed),
            c.frames.load(Ordering::Relaxed),
            c.skips.load(Ordering::Relaxed),
        );
        index += 1;
        println!(
            "| {index} | {:.0} | {} | {} | {} | {} | {} | {:.0} | {:.1} ms | {:.1} ms | {:.1} ms | {} | {:.1} MB | {} | {:.1} % |",
            started.elapsed().as_secs_f64() / 60.0,
            c.connected.load(Ordering::Relaxed),
            now.0 - last.0,
            now.1 - last.1,
            now.2 - last.2,
            now.3 - last.3,
            (now.4 - last.4) as f64 / wall,
            done.hist.quantile(0.5).as_secs_f64() * 1e3,
            done.hist.quantile(0.99).as_secs_f64() * 1e3,
            done.hist.quantile(1.0).as_secs_f64() * 1e3,
            now.5 - last.5,
            rss as f64 / 1e6,
            open_fds(pid),
            (cpu - cpu0) / wall * 100.0,
        );
        cpu0 = cpu;
        last = now;
    }
    let _ = keeper.await;
    // The first window is warm-up (histories fill, allocator settles).
    let settled: Vec<(f64, u64)> = rss_samples
        .iter()
        .copied()
        .filter(|s| s.0 >= window.as_secs_f64().min(minutes * 30.0))
        .collect();
    println!();
    println!(
        "resident memory slope after the first window: {:+.2} MB/hour ({} samples, {:.1} to {:.1} MB)",
        slope_mb_per_hour(&settled),
        settled.len(),
        settled.iter().map(|s| s.1).min().unwrap_or(0) as f64 / 1e6,
        settled.iter().map(|s| s.1).max().unwrap_or(0) as f64 / 1e6,
    );
    println!(
        "spectators: {} joined, {} left as they meant to, {} cut off unexpectedly, {} could not connect",
        c.joins.load(Ordering::Relaxed),
        c.leaves.load(Ordering::Relaxed),
        c.unexpected.load(Ordering::Relaxed),
        c.refused.load(Ordering::Relaxed)
    );
    // Stop as an operator would (SIGTERM): the match in progress is closed as it stands.
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    let checked = check_recordings(&inspect_bin, &record);
    let good = checked.iter().filter(|c| c.1 == 0).count();
    println!();
    println!(
        "recordings: {} files, {good} read to their end by pitchside-inspect (exit 0)",
        checked.len()
    );
    for (name, code, summary) in &checked {
        println!("  {code} {name}: {summary}");
    }
    std::process::exit(0);
}
