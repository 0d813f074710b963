//! Opening a match with every agent's files in the page, in headless Chromium through the web
//! build: the game log chosen together with the `.rcl` and every `.log` and `.dcl` of a folder.
//! For each folder given (plain files, gzipped ones: one browser each) it prints when the
//! match's first frame was drawn, when every agent file was indexed (in the page's workers),
//! what the indexes hold, the browser's memory (proportional set size of every Chromium
//! process, sampled every 100 ms) before, at its peak and after; how long every agent's lines
//! of a cycle take to show after a jump; and how long *Find* takes over every debug log, for a
//! text found nowhere (the whole text read), a rare one and a common one, with the cycles
//! found (the same for plain and gzipped files, or the figures are not of the same thing).
//!
//! ```sh
//! scripts/build-web.sh
//! cargo run --release -p pitchside-tests --bin agents-bench -- --make DIR    # DIR/match, plain, gz
//! cargo run --release -p pitchside-tests --bin agents-bench -- DIR/match DIR/plain DIR/gz
//! ```
//! `--make DIR` writes a full game's agent files made from the 100-cycle fixture
//! (`tests/fixtures/agents/agents-100`): its cycles 1-100 sixty times over, the cycle numbers
//! moved on by 100 each time (6,000 cycles, 1.3 GB), beside the full 6000-cycle JSON game of
//! the same two teams (`logs/full-json`), as written (`DIR/plain`) and gzipped at gzip's
//! default level (`DIR/gz`), and the game alone (`DIR/match`, the baseline). Without a folder
//! it opens the 100-cycle fixture.

use fantoccini::Locator;
use pitchside_tests::browser::{chromium_pss, Browser, PssPeak};
use pitchside_tests::fixtures;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What *Find* looks for: found nowhere, in a few hundred cycles, in nearly every cycle (the
/// words of each debug log answer these alone); words with punctuation in a few cycles (only
/// the cycles whose words fit are read again); no letters at all, found in every cycle and
/// found nowhere (every debug log read again, but for the cycles already found in another).
const NEEDLES: [&str; 6] = [
    "no such text anywhere",
    "updateTheirDefenseLine",
    "pass",
    "heard stamina. sender=",
    "0.000000, 0.000000",
    "9.999999, 9.999999",
];
/// The cycle jumped to, to time reading every agent's lines of a cycle.
const JUMP_TO: u32 = 4321;
/// Copies of the fixture's 100 cycles in a made game.
const COPIES: u32 = 60;

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

/// Writes `dir/plain` and `dir/gz`: a full game's agent files made from the fixture's.
fn make(dir: &Path) {
    let src = fixtures::path(fixtures::AGENTS_DIR);
    for sub in ["plain/agent-logs", "gz/agent-logs"] {
        std::fs::create_dir_all(dir.join(sub)).expect("the folder");
    }
    let game = fixtures::path(fixtures::FULL_JSON);
    let game_name = game.file_name().expect("a name").to_owned();
    // `DIR/match`: the game alone, the baseline the agents' files' cost is measured from.
    std::fs::create_dir_all(dir.join("match")).expect("the folder");
    for sub in ["plain", "gz", "match"] {
        std::fs::copy(&game, dir.join(sub).join(&game_name)).expect("the game");
    }
    let mut agent_files: Vec<PathBuf> = files_in(&src.join("agent-logs"));
    agent_files.push(fixtures::path(fixtures::AGENTS_RCL));
    let mut total = 0u64;
    for f in agent_files {
        let rel = f.strip_prefix(&src).expect("inside the fixture");
        let rel = rel.with_extension(""); // drops .gz
        let name = rel.to_string_lossy().to_string();
        let text = fixtures::read(
            &f.strip_prefix(fixtures::dir())
                .expect("a fixture")
                .to_string_lossy(),
        );
        let plain = fixtures::repeated_agent_file(&text, name.ends_with(".dcl"), COPIES);
        total += plain.len() as u64;
        std::fs::write(dir.join("plain").join(&rel), &plain).expect("write");
        let gz = std::fs::File::create(dir.join("gz").join(format!("{name}.gz"))).expect("write");
        let mut z = flate2::write::GzEncoder::new(gz, flate2::Compression::new(6));
        z.write_all(&plain).expect("write");
        z.finish().expect("write");
    }
    println!(
        "made {} and {}: {:.2} GB of agent files",
        dir.join("plain").display(),
        dir.join("gz").display(),
        total as f64 / 1e9
    );
}

struct Row {
    label: String,
    files: usize,
    on_disk: u64,
    first_frame: String,
    indexed_ms: String,
    wall: f64,
    index_bytes: f64,
    text_bytes: f64,
    pss: (u64, u64, u64),
    stall: Duration,
    jump_ms: Option<f64>,
    searches: Vec<(String, String, f64)>,
    problems: String,
}

async fn bench(dir: &Path) -> Row {
    let files = files_in(dir);
    let agent_files = files
        .iter()
        .filter(|f| {
            let n = f.to_string_lossy();
            let n = n.strip_suffix(".gz").unwrap_or(&n);
            n.ends_with(".log") || n.ends_with(".dcl") || n.ends_with(".rcl")
        })
        .count();
    let on_disk: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .sum();
    let (relay, b) = Browser::on_bundled_replay().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = chromium_pss();
    let sampler = PssPeak::start();
    let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let started = Instant::now();
    b.choose(&list.join("\n")).await;
    let mut first_frame = None;
    let mut indexed = None;
    // The longest the page took to answer while the files were indexed, once the match was
    // read: how long its thread was kept from playing the match.
    let mut stall = Duration::ZERO;
    let eval = |js: &'static str| {
        let b = &b;
        async move {
            let asked = Instant::now();
            let v = b.client.execute(js, vec![]).await.unwrap_or_default();
            (v, asked.elapsed())
        }
    };
    while started.elapsed() < Duration::from_secs(1200) {
        if first_frame.is_none() {
            let (f, _) =
                eval("return document.getElementById('timings').dataset.firstFrameMs || ''").await;
            if f.as_str().is_some_and(|s| !s.is_empty()) {
                first_frame = Some(f.as_str().unwrap_or("").to_string());
            }
        }
        let (ix, took) = eval("const d = document.getElementById('agent-index'), p = document.getElementById('progress'); if (!d) return ['', '', '', '', '']; return [d.dataset.files || '', d.dataset.ms || '', d.dataset.indexBytes || '', d.dataset.bytes || '', p ? p.textContent : '']").await;
        // Counted once the match's log is read (reading it keeps the page busy by itself).
        if ix[4].as_str().is_some_and(|p| p.contains(" read in ")) {
            stall = stall.max(took);
        }
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
    let wall = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let peak = sampler.stop();
    let after = chromium_pss();
    let problems = b.text("#agent-problems").await;
    let ix = indexed.unwrap_or_else(|| serde_json::json!(["", "did not finish", "0", "0"]));
    let num = |i: usize| ix[i].as_str().unwrap_or("0").parse::<f64>().unwrap_or(0.0);
    let mut row = Row {
        label: dir.display().to_string(),
        files: files.len(),
        on_disk,
        first_frame: first_frame.unwrap_or_default(),
        indexed_ms: ix[1].as_str().unwrap_or("").to_string(),
        wall,
        index_bytes: num(2),
        text_bytes: num(3),
        pss: (before, peak, after),
        stall,
        jump_ms: None,
        searches: Vec::new(),
        problems,
    };
    if agent_files > 0 {
        // Every agent's lines at a cycle far into the game (nobody selected: every file).
        if b.text("#play").await.contains("❚❚") {
            b.click("#play").await;
        }
        b.keys("t").await;
        let boxed = b.client.active_element().await.expect("the cycle box");
        let asked = Instant::now();
        boxed
            .send_keys(&format!("{JUMP_TO}{}", fantoccini::key::Key::Enter))
            .await
            .expect("a cycle");
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let done = b
                .client
                .execute("const m = document.getElementById('agent-messages'); return [document.getElementById('cycle').textContent, m ? m.dataset.pending : '']", vec![])
                .await
                .unwrap_or_default();
            if done[0].as_str() == Some(JUMP_TO.to_string().as_str())
                && done[1].as_str() == Some("false")
            {
                row.jump_ms = Some(asked.elapsed().as_secs_f64() * 1e3);
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        b.screenshot(&format!(
            "agents-bench-{}",
            dir.file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default()
        ))
        .await;
        for needle in NEEDLES {
            let field = b
                .client
                .find(Locator::Css("#agent-search-text"))
                .await
                .expect("the search field");
            field.clear().await.expect("clear");
            field.send_keys(needle).await.expect("type");
            let asked = Instant::now();
            b.click(".agent-search button").await;
            // Polled for up to two minutes: a search of the page before this one took 20 s.
            let mut found = String::new();
            while asked.elapsed() < Duration::from_secs(120) {
                found = b.text(".agent-found").await;
                if found.starts_with(&format!("\"{needle}\": ")) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let wall = asked.elapsed().as_secs_f64() * 1e3;
            let ms = b
                .client
                .execute(
                    "return document.getElementById('agent-index').dataset.searchMs || ''",
                    vec![],
                )
                .await
                .unwrap_or_default();
            let page: f64 = ms.as_str().and_then(|s| s.parse().ok()).unwrap_or(wall);
            row.searches.push((needle.to_string(), found, page));
        }
    }
    b.close().await;
    relay.stop().await;
    row
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--make") {
        let dir = args.get(i + 1).map(PathBuf::from).expect("--make DIR");
        make(&dir);
        return;
    }
    let dirs: Vec<PathBuf> = if args.is_empty() {
        vec![fixtures::path(fixtures::AGENTS_DIR)]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let mut rows = Vec::new();
    for d in &dirs {
        rows.push(bench(d).await);
    }
    println!("| files | on disk | text | first frame | all indexed (page) | wall | longest wait for the page | index held | Chromium before / peak / after | every agent's lines after a jump |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|");
    for r in &rows {
        println!(
            "| {} ({}) | {:.1} MB | {:.1} MB | {} ms | {} ms | {:.1} s | {} ms | {:.2} MB | {:.0} / {:.0} / {:.0} MB | {} |",
            r.label,
            r.files,
            r.on_disk as f64 / 1e6,
            r.text_bytes / 1e6,
            r.first_frame,
            r.indexed_ms,
            r.wall,
            r.stall.as_millis(),
            r.index_bytes / 1e6,
            r.pss.0 as f64 / 1e6,
            r.pss.1 as f64 / 1e6,
            r.pss.2 as f64 / 1e6,
            r.jump_ms.map(|ms| format!("{ms:.0} ms")).unwrap_or_else(|| "—".into()),
        );
    }
    println!();
    println!("| files | search | found | time (page) |");
    println!("|---|---|---|---:|");
    for r in &rows {
        for (needle, found, ms) in &r.searches {
            println!(
                "| {} | \"{needle}\" | {} | {ms:.0} ms |",
                r.label,
                found.split(": ").nth(1).unwrap_or(found)
            );
        }
    }
    for r in &rows {
        if !r.problems.is_empty() {
            println!(
                "problems ({}): {}",
                r.label,
                r.problems.replace('\n', " / ")
            );
        }
    }
}
