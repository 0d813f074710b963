//! Opening a match with every agent's files in the page, in headless Chromium through the web
//! build: the `.rcg` chosen together with the `.rcl` and every `.log` and `.dcl` of a folder.
//! Prints when the match's first frame was drawn, when every agent file was indexed (in the
//! page's worker), what the indexes hold, and the browser's memory (proportional set size of
//! every Chromium process, sampled every 100 ms) before, at its peak and after.
//!
//! ```sh
//! scripts/build-web.sh
//! cargo run --release -p pitchside-tests --bin agents-bench -- DIR   # DIR: the .rcg, the .rcl, agent-logs/
//! ```
//! Without DIR it opens the 100-cycle fixture (`tests/fixtures/agents/agents-100`).

use fantoccini::Locator;
use pitchside_tests::browser::{chromium_pss, Browser, PssPeak};
use pitchside_tests::{fixtures, relay_harness};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("the folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_in(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[tokio::main]
async fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| fixtures::path(fixtures::AGENTS_DIR));
    let files = files_in(&dir);
    let agent_files = files
        .iter()
        .filter(|f| {
            let n = f.to_string_lossy();
            let n = n.strip_suffix(".gz").unwrap_or(&n);
            n.ends_with(".log") || n.ends_with(".dcl") || n.ends_with(".rcl")
        })
        .count();
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .sum();
    let relay = relay_harness::start_bundled_replay().await;
    let b = Browser::start().await;
    b.client
        .goto(&format!("http://{}/", relay.addr))
        .await
        .expect("page");
    b.wait_text("#source", "the replay", |t| t.starts_with("Replay"))
        .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = chromium_pss();
    let sampler = PssPeak::start();
    let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let started = Instant::now();
    b.client
        .find(Locator::Css("#file-input"))
        .await
        .expect("file input")
        .send_keys(&list.join("\n"))
        .await
        .expect("files");
    let mut first_frame = None;
    let mut indexed = None;
    while started.elapsed() < Duration::from_secs(1200) {
        if first_frame.is_none() {
            let f = b
                .eval("return document.getElementById('timings').dataset.firstFrameMs || ''")
                .await;
            if f.as_str().is_some_and(|s| !s.is_empty()) {
                first_frame = Some(f.as_str().unwrap_or("").to_string());
            }
        }
        let ix = b
            .eval("const d = document.getElementById('agent-index').dataset; return [d.files || '', d.ms || '', d.indexBytes || '', d.bytes || '']")
            .await;
        if ix[1].as_str().is_some_and(|s| !s.is_empty()) {
            indexed = Some(ix);
            break;
        }
        // Only a game log (the baseline): done when it is read.
        if agent_files == 0 && b.text("#progress").await.contains(" frames, log ") {
            indexed = Some(serde_json::json!(["0", "", "0", "0"]));
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let wall = started.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let peak = sampler.stop();
    let after = chromium_pss();
    let problems = b.text("#agent-problems").await;
    b.screenshot("agents-bench").await;
    println!("| files | on disk | first frame | all indexed (page) | wall | index held | Chromium before / peak / after |");
    println!("|---:|---:|---:|---:|---:|---:|---|");
    match indexed {
        Some(ix) => println!(
            "| {} | {:.1} MB | {} ms | {} ms | {:.1} s | {:.2} MB | {:.0} / {:.0} / {:.0} MB |",
            files.len(),
            bytes as f64 / 1e6,
            first_frame.unwrap_or_default(),
            ix[1].as_str().unwrap_or(""),
            wall.as_secs_f64(),
            ix[2].as_str().unwrap_or("0").parse::<f64>().unwrap_or(0.0) / 1e6,
            before as f64 / 1e6,
            peak as f64 / 1e6,
            after as f64 / 1e6
        ),
        None => println!("indexing did not finish in 20 minutes"),
    }
    if !problems.is_empty() {
        println!("problems: {}", problems.replace('\n', " / "));
    }
    b.close().await;
}
