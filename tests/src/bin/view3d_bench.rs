//! What the 3D view costs: the time the worker takes to paint one frame of the full game from
//! the broadcast camera, 22 players, at 1280×720 and 1920×1080 (WebGL2 drawn by SwiftShader,
//! in software, unless `--chrome-flag` says otherwise), each frame finished (one pixel read
//! back) before it is timed: painted into a texture of the worker's own, which is the
//! renderer's cost, and onto the page's canvas, which adds the browser's compositing of it
//! into the page (and waits for it once the compositor is behind); and the time from opening a log's link with `view=3d` to the
//! first painted 3D frame.
//! `cargo run --release -p pitchside-tests --bin view3d-bench` (after scripts/build-web.sh).
//! `--chrome-flag FLAG` (repeatable) hands FLAG to Chromium in place of the SwiftShader ones.

use pitchside_tests::browser::{self, Browser};
use pitchside_tests::{fixtures, relay_harness};
use std::time::{Duration, Instant};

/// Frames painted per size and round, and rounds (each from another part of the match).
const FRAMES: u32 = 120;
const ROUNDS: u32 = 3;
const SIZES: [(f64, f64); 2] = [(1280.0, 720.0), (1920.0, 1080.0)];

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Has the worker paint `count` frames of the match from `first` on at `w × h`, finishing each,
/// on the canvas or in a texture of its own (`offscreen`); the milliseconds each took. The
/// frames are posted at once and painted one after another in the worker, so neither the page
/// nor this program's polling (every 100 ms) sits between two of them.
async fn paint(b: &Browser, first: u32, count: u32, w: f64, h: f64, offscreen: bool) -> Vec<f64> {
    b.eval("window.__pitchside_3d_drawn()").await;
    let posted = b
        .eval(&format!(
            "return window.__pitchside_3d_bench({first}, {count}, {w}, {h}, {offscreen})"
        ))
        .await;
    assert_eq!(posted, serde_json::json!(count), "frames from {first}");
    let deadline = Instant::now() + Duration::from_secs(u64::from(count) + 30);
    let mut times = Vec::new();
    while times.len() < count as usize {
        assert!(
            Instant::now() < deadline,
            "only {} frames painted",
            times.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        let d = b.eval("return window.__pitchside_3d_drawn()").await;
        times.extend(
            d.as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_f64()),
        );
    }
    times
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let relay =
        relay_harness::start_archive_of(fixtures::FULL_V6, "full.rcg.gz", "view3d-bench").await;
    let args: Vec<String> = std::env::args().collect();
    // `--quick`: 40 frames at 1280×720 only, for trying a change.
    let quick = args.iter().any(|a| a == "--quick");
    let (frames, rounds, sizes) = if quick {
        let n = std::env::var("VIEW3D_FRAMES")
            .ok()
            .and_then(|n| n.parse().ok());
        (n.unwrap_or(40), 1, &SIZES[..1])
    } else {
        (FRAMES, ROUNDS, &SIZES[..])
    };
    let mut flags = browser::chrome_flags(&args);
    if flags.is_empty() {
        flags = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
            .map(String::from)
            .to_vec();
    }
    let b = Browser::start_with_args(&flags).await;
    let url = format!(
        "http://{}/?log=/archive/files/0/full.rcg.gz&view=3d#t=1000",
        relay.addr
    );

    // The first 3D frame after opening the link, three times in fresh page loads.
    let mut first = Vec::new();
    for _ in 0..if quick { 1 } else { 3 } {
        b.goto("about:blank").await;
        b.goto(&url).await;
        let ms = b
            .wait_js(
                "return window.__pitchside_3d_first && window.__pitchside_3d_first()",
                "the first 3D frame",
                |v| v.as_f64().is_some(),
            )
            .await;
        first.push(ms.as_f64().unwrap_or(f64::NAN));
    }
    b.wait_text("#frames", "the whole game read", |t| t.ends_with("/ 6489"))
        .await;
    let renderer = b
        .eval("return window.__pitchside_3d_renderer && window.__pitchside_3d_renderer()")
        .await;
    println!("renderer: {renderer}\n");
    println!("| size | painted into | frames | median | p90 | p99 | slowest |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for &(w, h) in sizes {
        for offscreen in [true, false] {
            let mut times = Vec::new();
            for round in 0..rounds {
                times.extend(paint(&b, 500 + round * 2000, frames, w, h, offscreen).await);
            }
            if quick {
                eprintln!("in order: {times:.1?}");
            }
            times.sort_by(f64::total_cmp);
            println!(
                "| {w}×{h} | {} | {} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms |",
                if offscreen { "a texture" } else { "the canvas" },
                times.len(),
                percentile(&times, 0.5),
                percentile(&times, 0.9),
                percentile(&times, 0.99),
                times.last().copied().unwrap_or(f64::NAN)
            );
        }
    }
    // Playing: the frames the worker paints in a second while the page plays on at normal
    // speed (the page posts one scene per display frame while players glide; the worker
    // paints the newest at each of its animation frames), at the page's own canvas size.
    b.eval("window.__pitchside_3d_bench(0, 0, 0, 0, false)")
        .await;
    b.eval("window.__pitchside_3d_drawn()").await;
    b.click("#play").await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    b.eval("window.__pitchside_3d_drawn()").await;
    let seconds = 5;
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let painted = b.eval("return window.__pitchside_3d_drawn()").await;
    let painted = painted.as_array().map_or(0, Vec::len);
    let size = b
        .eval(
            "const c = document.querySelector('#field3d'); return [c.clientWidth, c.clientHeight]",
        )
        .await;
    println!(
        "\nplaying at 1×, the page's canvas {size}: {:.1} frames painted a second",
        painted as f64 / seconds as f64
    );
    first.sort_by(f64::total_cmp);
    println!(
        "\nfirst 3D frame after opening the link: {}",
        first
            .iter()
            .map(|ms| format!("{ms:.0} ms"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    b.close().await;
}
