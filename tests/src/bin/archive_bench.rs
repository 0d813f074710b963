//! The archive at scale: a relay process with `--archive` over N logs (10,000 by default):
//! how fast the index is built, how fast a restart finds it again, how long `/api/archive`
//! takes for the first page and for a search, how long `/api/series` takes over every log,
//! and the relay's memory with and without the archive. The logs are made in a temporary directory from the real short v6 game (its
//! first 40 KB, cut at a line, with team names varied so searches have something to find)
//! and removed afterwards.
//!
//! ```sh
//! cargo build --release -p pitchside-relay --bins
//! cargo run --release -p pitchside-tests --bin archive-bench -- --logs 10000
//! cargo run --release -p pitchside-tests --bin archive-bench -- --logs 200 --full
//! scripts/build-web.sh && cargo run --release -p pitchside-tests --bin archive-bench -- --browser
//! ```
//!
//! `--full` makes every log a copy of the real full game as rcssserver wrote it (6000 cycles,
//! gzipped, 4.7 MB): what reading a real tournament's logs costs.

use pitchside_tests::bench::{arg_or, free_addr, proc_usage, sibling};
use pitchside_tests::fixtures;
use pitchside_tests::spectator::http_get;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start(relay: &Path, addr: SocketAddr, archive: Option<&Path>) -> Child {
    let mut c = Command::new(relay);
    c.args(["--listen", &addr.to_string()])
        .arg("--dist")
        .arg(pitchside_tests::relay_harness::dist());
    if let Some(dir) = archive {
        c.arg("--archive").arg(dir);
    }
    c.stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the relay (cargo build --release -p pitchside-relay --bins)")
}

async fn json(addr: SocketAddr, path: &str) -> Option<serde_json::Value> {
    let (status, _, body) = http_get(addr, path).await;
    (status == 200).then(|| serde_json::from_slice(&body).ok())?
}

/// Waits until the relay answers, then until the archive lists `n` logs with none pending.
async fn indexed(addr: SocketAddr, n: usize) -> Duration {
    let started = Instant::now();
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    loop {
        if let Some(v) = json(addr, "/api/archive?per_page=1").await {
            if v["total"] == n && v["indexing"] == 0 {
                return started.elapsed();
            }
        }
        assert!(started.elapsed() < Duration::from_secs(3600), "an hour");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn latency(addr: SocketAddr, path: &str, times: usize) -> (f64, f64) {
    let mut all = Vec::new();
    for _ in 0..times {
        let t = Instant::now();
        let (status, _, _) = http_get(addr, path).await;
        assert_eq!(status, 200, "{path}");
        all.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    all.sort_by(f64::total_cmp);
    (all[all.len() / 2], all[all.len() * 99 / 100])
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = arg_or(&args, "--logs", 10_000);
    let relay = sibling("pitchside-relay");
    let dir = fixtures::scratch("archive-bench");

    let text = String::from_utf8_lossy(&fixtures::read(fixtures::SHORT_V6)).into_owned();
    let cut = text[..40_000].rfind('\n').map_or(40_000, |i| i + 1);
    let head = &text[..cut];
    let made = Instant::now();
    let mut bytes = 0;
    let full = args.iter().any(|a| a == "--full");
    let full_game = std::fs::read(fixtures::path(fixtures::FULL_V6)).expect("the full game");
    for i in 0..n {
        let sub = dir.join(format!("day{:02}", i % 30));
        if i < 30 {
            std::fs::create_dir_all(&sub).expect("mkdir");
        }
        let (l, r) = (
            format!("TEAM{:03}", i % 97),
            format!("TEAM{:03}", (i / 97) % 97),
        );
        if full {
            let name = format!(
                "2026{:02}{:02}{:02}{:02}00-{l}_2-vs-{r}_3.rcg.gz",
                1 + i % 12,
                1 + i % 28,
                i % 24,
                i % 60
            );
            std::fs::write(sub.join(name), &full_game).expect("write a log");
            bytes += full_game.len();
            continue;
        }
        let log = head.replace("SHORT_L_a", &l).replace("SHORT_R_a", &r);
        bytes += log.len();
        let name = format!(
            "2026{:02}{:02}{:02}{:02}00-{l}_0-vs-{r}_1.rcg",
            1 + i % 12,
            1 + i % 28,
            i % 24,
            i % 60
        );
        std::fs::write(sub.join(name), log).expect("write a log");
    }
    println!(
        "archive: {n} logs of {:.0} KB ({:.0} MB) made in {:.1} s in {}\n",
        bytes as f64 / n as f64 / 1024.0,
        bytes as f64 / 1e6,
        made.elapsed().as_secs_f64(),
        dir.display()
    );

    let addr = free_addr();
    let mut bare = start(&relay, addr, None);
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (_, rss_bare) = proc_usage(bare.id());
    let _ = bare.kill();
    let _ = bare.wait();

    let addr = free_addr();
    let mut child = start(&relay, addr, Some(&dir));
    let built = indexed(addr, n).await;
    let (cpu, rss) = proc_usage(child.id());
    let first = latency(addr, "/api/archive", 50).await;
    let search = latency(addr, "/api/archive?q=team042&sort=duration", 50).await;
    let last_page = latency(addr, &format!("/api/archive?page={}", n / 50), 50).await;
    // Series from the index: every log (each seen from its left team), one team's games, and
    // one folder against another.
    let series_all = latency(addr, "/api/series", 21).await;
    let series_team = latency(addr, "/api/series?team=TEAM042", 21).await;
    let series_ab = latency(addr, "/api/series?dir=0/day01&b_dir=0/day02", 21).await;
    // The page itself in headless Chromium (needs scripts/build-web.sh): from asking for
    // /archive to its first page of rows on screen, the page's files cached by a first visit.
    let page = if args.iter().any(|a| a == "--browser") {
        let b = pitchside_tests::browser::Browser::start().await;
        let url = format!("http://{addr}/archive");
        b.goto(&url).await;
        b.wait_text("#archive-count", "the count", |t| t.ends_with("logs"))
            .await;
        let mut times = Vec::new();
        for _ in 0..10 {
            let t = Instant::now();
            b.goto(&url).await;
            b.wait_js(
                "return document.querySelectorAll('#archive-table tbody tr').length",
                "the first page of rows",
                |v| v.as_u64().is_some_and(|n| n > 0),
            )
            .await;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        b.close().await;
        times.sort_by(f64::total_cmp);
        Some((times[times.len() / 2], times[times.len() - 1]))
    } else {
        None
    };
    let _ = child.kill();
    let _ = child.wait();

    let addr = free_addr();
    let mut again = start(&relay, addr, Some(&dir));
    let restart = indexed(addr, n).await;
    let _ = again.kill();
    let _ = again.wait();
    let index_size = std::fs::metadata(dir.join(".pitchside-index.json")).map_or(0, |m| m.len());
    let _ = std::fs::remove_dir_all(&dir);

    println!("| what | figure |\n|---|---:|");
    println!(
        "| index built from nothing | {:.1} s ({:.0} logs/s, relay CPU {:.1} s) |",
        built.as_secs_f64(),
        n as f64 / built.as_secs_f64(),
        cpu
    );
    println!(
        "| index found again after a restart | {:.2} s |",
        restart.as_secs_f64()
    );
    println!("| index file | {:.1} MB |", index_size as f64 / 1e6);
    println!(
        "| relay resident memory without / with the archive | {:.1} MB / {:.1} MB |",
        rss_bare as f64 / 1e6,
        rss as f64 / 1e6
    );
    for (what, (p50, p99)) in [
        ("first page (50 newest)", first),
        ("a search, sorted by duration", search),
        ("the last page", last_page),
    ] {
        println!("| `/api/archive`: {what} | p50 {p50:.1} ms, p99 {p99:.1} ms |");
    }
    for (what, (p50, p99)) in [
        ("every log as one series", series_all),
        ("one team's series", series_team),
        ("one folder against another", series_ab),
    ] {
        println!("| `/api/series`: {what} | p50 {p50:.1} ms, p99 {p99:.1} ms |");
    }
    // What a series adds to each log's summary in the index: the first goal, both teams'
    // figures and the (usually empty) list of reasons a game is invalid.
    let extra = std::mem::size_of::<Option<u32>>()
        + std::mem::size_of::<[pitchside_competitions::series::Figures; 2]>()
        + std::mem::size_of::<Vec<pitchside_competitions::series::Invalid>>();
    println!("| a series' share of each log's summary in memory | {extra} bytes |");
    if let Some((median, worst)) = page {
        println!("| `/archive` in Chromium, asked to first rows shown (10 loads) | median {median:.0} ms, worst {worst:.0} ms |");
    }
}
