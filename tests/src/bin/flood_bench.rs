//! What forged datagrams cost the relay: a `pitchside-relay` process follows a fake
//! rcssserver playing a real capture (its shows) at 10 cycles a second while another port of the server's
//! host floods the relay's monitor socket with copies of a real show, at each rate in turn.
//! Prints, per rate, the relay's CPU (share of one core, and per forged datagram above the
//! run without a flood), its resident memory, and the forgeries it counted as ignored.
//! Traffic stays on 127.0.0.1; each flood is bounded by count and time.
//!
//! ```sh
//! cargo build --release -p pitchside-relay --bins
//! cargo run --release -p pitchside-tests --bin flood-bench -- --seconds 10 --rates 0,10000,50000
//! ```

use pitchside_tests::bench::{arg, arg_or, free_addr, proc_usage, relay_bin, spawn_relay};
use pitchside_tests::fake_server::{FakeServer, Script};
use pitchside_tests::spectator::http_get;
use pitchside_tests::{capture, fixtures};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn metric(body: &str, name: &str) -> f64 {
    body.lines()
        .filter(|l| l.starts_with(name))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

struct Run {
    rate: u32,
    cpu: f64,
    rss: u64,
    ignored: f64,
    frames_in: f64,
}

async fn run(relay_bin: &PathBuf, rate: u32, seconds: f64) -> Run {
    // Without the team-graphic tiles, which the server sends among the first shows: every
    // datagram after the parameters is then a show, a cycle apart.
    let datagrams: Vec<Vec<u8>> = capture::split(&fixtures::read(fixtures::V5_CAPTURE))
        .expect("capture")
        .into_iter()
        .filter(|d| !d.starts_with(b"(msg"))
        .collect();
    let forged = datagrams[100].clone();
    let span = Duration::from_secs_f64(seconds + 1.0);
    // The parameters and team-graphic tiles at once, then a show every 100 ms.
    let first_show = datagrams
        .iter()
        .position(|d| d.starts_with(b"(show"))
        .unwrap_or(0);
    let mut script = Script::new(datagrams, Duration::from_millis(1));
    script.burst = 4;
    script.slow_from = Some((first_show, Duration::from_millis(100)));
    if rate > 0 {
        script.flood = Some((forged, rate, span));
    }
    let server = FakeServer::start(script).await;
    let listen = free_addr();
    let mut child = spawn_relay(
        Command::new(relay_bin)
            .args(["--listen", &listen.to_string(), "--protocol", "5"])
            .args(["--server", &format!("flood={}", server.addr)]),
        relay_bin,
        Stdio::null(),
    );
    let pid = child.id();
    let start = Instant::now();
    while server.inits.load(Ordering::SeqCst) == 0 && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The flood starts with the session; measure once it is under way.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (cpu0, _) = proc_usage(pid);
    let (_, _, before) = http_get(listen, "/metrics").await;
    let before = String::from_utf8_lossy(&before).into_owned();
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    let (cpu1, rss) = proc_usage(pid);
    let (_, _, after) = http_get(listen, "/metrics").await;
    let after = String::from_utf8_lossy(&after).into_owned();
    let _ = child.kill();
    let _ = child.wait();
    let d = |name: &str| metric(&after, name) - metric(&before, name);
    Run {
        rate,
        cpu: (cpu1 - cpu0) / seconds,
        rss,
        ignored: d("pitchside_datagrams_ignored_total"),
        frames_in: d("pitchside_frames_in_total"),
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = arg_or(&args, "--seconds", 10.0);
    let rates: Vec<u32> = arg(&args, "--rates")
        .unwrap_or_else(|| "0,10000,50000".into())
        .split(',')
        .filter_map(|r| r.trim().parse().ok())
        .collect();
    let relay_bin = relay_bin(&args);
    println!("flood: {seconds} s per rate, a real v5 capture at 10 cycles a second");
    println!(
        "| forged/s | ignored/s (counted) | frames in/s | relay CPU (% of a core) | CPU per forgery above no flood | RSS MB |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    let mut base = None;
    for rate in rates {
        let r = run(&relay_bin, rate, seconds).await;
        let base_cpu = *base.get_or_insert(if r.rate == 0 { r.cpu } else { 0.0 });
        let per = if r.ignored > 0.0 {
            format!(
                "{:.2} µs",
                (r.cpu - base_cpu).max(0.0) * seconds / r.ignored * 1e6
            )
        } else {
            "-".into()
        };
        println!(
            "| {} | {:.0} | {:.1} | {:.1} | {} | {:.1} |",
            r.rate,
            r.ignored / seconds,
            r.frames_in / seconds,
            r.cpu * 100.0,
            per,
            r.rss as f64 / 1e6
        );
    }
}
