//! Hostile files opened in the page, in headless Chromium through the web build: a file of
//! zeros, a gzip bomb, a gigabyte of shows (plain and gzipped), and the full game cut in half.
//! For each: what the page says, how many shows it kept, how long it took, and the browser's
//! memory (proportional set size of every Chromium process, sampled every 100 ms) at its peak
//! and after. The files are made in a temporary directory from the real full game and removed.
//!
//! ```sh
//! scripts/build-web.sh
//! cargo run --release -p pitchside-tests --bin hostile-bench
//! ```

use pitchside_tests::browser::{chromium_pss, Browser, PssPeak};
use pitchside_tests::{fixtures, relay_harness};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn make_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let full = fixtures::read(fixtures::FULL_V6);
    let mut files = Vec::new();
    let zeros = dir.join("zeros.rcg");
    std::fs::write(&zeros, vec![0u8; 100 << 20]).expect("zeros");
    files.push(("100 MB of zeros".to_string(), zeros));

    let bomb = dir.join("bomb.rcg.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(b"ULG5\n").expect("bomb");
    let mb = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        gz.write_all(&mb).expect("bomb");
    }
    let bomb_bytes = gz.finish().expect("bomb");
    std::fs::write(&bomb, &bomb_bytes).expect("bomb");
    files.push((
        format!(
            "gzip bomb: a header and 1 GB of zeros in {:.1} MB",
            bomb_bytes.len() as f64 / 1e6
        ),
        bomb,
    ));

    files.push((
        "the full game, whole (a baseline)".to_string(),
        fixtures::path(fixtures::FULL_V6),
    ));
    let half = dir.join("half.rcg");
    std::fs::write(&half, &full[..full.len() / 2]).expect("half");
    files.push(("the full game cut in half".to_string(), half));

    // A gigabyte of shows: the full game's header, then its shows again and again.
    let text = String::from_utf8_lossy(&full).into_owned();
    let first_show = text.find("\n(show ").map_or(0, |i| i + 1);
    let shows: String = text[first_show..]
        .lines()
        .filter(|l| l.starts_with("(show "))
        .map(|l| format!("{l}\n"))
        .collect();
    let big = dir.join("big.rcg");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&big).expect("big"));
        f.write_all(&text.as_bytes()[..first_show]).expect("big");
        let mut n = first_show;
        while n < 1 << 30 {
            f.write_all(shows.as_bytes()).expect("big");
            n += shows.len();
        }
    }
    files.push(("1 GB of shows (.rcg)".to_string(), big.clone()));
    let big_gz = dir.join("big.rcg.gz");
    {
        let mut gz = flate2::write::GzEncoder::new(
            std::io::BufWriter::new(std::fs::File::create(&big_gz).expect("big.gz")),
            flate2::Compression::fast(),
        );
        std::io::copy(&mut std::fs::File::open(&big).expect("big"), &mut gz).expect("big.gz");
        gz.finish().expect("big.gz");
    }
    let mb = std::fs::metadata(&big_gz).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    files.push((format!("the same gzipped ({mb:.0} MB)"), big_gz));
    files
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = std::env::temp_dir().join(format!("pitchside-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let files = make_files(&dir);
    let relay = relay_harness::start_bundled_replay_every(Duration::from_secs(1)).await;
    println!("| file | the page says | shows kept | time | browser memory before | peak | after |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for (name, path) in &files {
        // A fresh browser for each file, so that one's memory does not count for the next.
        let b = Browser::start().await;
        b.open_replay(relay.addr).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let before = chromium_pss();
        let sampler = PssPeak::start();
        let started = Instant::now();
        b.choose(&path.display().to_string()).await;
        let mut error = String::new();
        while started.elapsed() < Duration::from_secs(120) {
            error = b.text("#error").await;
            if !error.is_empty() || b.text("#frames").await.ends_with("/ 6489") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let took = started.elapsed();
        tokio::time::sleep(Duration::from_secs(1)).await;
        let peak = sampler.stop();
        let after = chromium_pss();
        let frames = b.text("#frames").await;
        if name.starts_with("1 GB") {
            b.screenshot("hostile-1gb").await;
        }
        // The banner's text ends with its close button's "×".
        let short = error.trim_end_matches('×').trim().replace('\n', " ");
        println!(
            "| {name} | {} | {} | {:.1} s | {:.0} MB | {:.0} MB | {:.0} MB |",
            short.replace('|', "/"),
            frames.rsplit('/').next().unwrap_or("").trim(),
            took.as_secs_f64(),
            before as f64 / 1e6,
            peak as f64 / 1e6,
            after as f64 / 1e6
        );
        b.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
