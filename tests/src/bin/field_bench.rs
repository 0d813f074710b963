//! What one frame of the field costs to draw: the scene built and painted at 1920×1080 with
//! every overlay on (all view cones, trails, flags, grid, stamina figures, the selected
//! goalie's areas, halfway through smooth motion), timed in the page with performance.now
//! around the draw call, in headless Chromium (software canvas), on the full game.
//! `cargo run --release -p pitchside-tests --bin field-bench` (after scripts/build-web.sh).
//! With `--by-tag`: where the time goes, each kind of shape painted alone over the pitch.
//! `--chrome-flag FLAG` (repeatable) hands FLAG to Chromium.

use fantoccini::key::Key;
use fantoccini::Locator;
use pitchside_tests::browser::{self, Browser};
use pitchside_tests::{fixtures, relay_harness};
use std::time::Duration;

/// Frames drawn per round, and rounds (each from another part of the match).
const FRAMES: u32 = 300;
const ROUNDS: usize = 5;

/// What is measured: every overlay (the target), and two others that show where the time goes.
const VARIANTS: [(&str, Option<&str>); 3] = [
    ("every overlay on", None),
    (
        "every overlay but the view cones",
        Some(
            r#"{"flags":true,"grid":true,"view_cones":"off","stamina_details":true,"player_types":true,"trails":"all"}"#,
        ),
    ),
    ("default settings", Some("{}")),
];

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let relay = relay_harness::start_bundled_replay_every(Duration::from_secs(1)).await;
    let args: Vec<String> = std::env::args().collect();
    let b = Browser::start_with_args(&browser::chrome_flags(&args)).await;
    b.open_replay(relay.addr).await;
    b.choose(&fixtures::path(fixtures::FULL_V6).display().to_string())
        .await;
    b.wait_text("#frames", "all 6489 shows", |t| t.ends_with("/ 6489"))
        .await;
    let body = b.client.find(Locator::Css("body")).await.expect("body");
    // The file starts playing when opened: stop it, so every variant draws the same frames.
    b.wait_text("#play", "playback to start", |t| t.contains("❚❚"))
        .await;
    b.click("#play").await;
    if args.iter().any(|a| a == "--by-tag") {
        by_tag(&b, &body).await;
        b.close().await;
        return;
    }
    let mut tables = Vec::new();
    for (name, field) in VARIANTS {
        body.send_keys(&Key::Home.to_string()).await.expect("keys");
        let mut build = Vec::new();
        let mut paint = Vec::new();
        let mut flush = Vec::new();
        let mut total = Vec::new();
        let mut shapes = Vec::new();
        for round in 0..ROUNDS {
            next_round(&body, round).await;
            let arg = match field {
                Some(json) => format!("'{json}'"),
                None => "undefined".into(),
            };
            let v = b
                .client
                .execute(
                    &format!("return window.__pitchside_bench({FRAMES}, 1920, 1080, {arg})"),
                    vec![],
                )
                .await
                .expect("bench hook");
            let times: Vec<[f64; 4]> =
                serde_json::from_str(v.as_str().expect("a JSON string")).expect("times");
            for [b_ms, p_ms, f_ms, n] in times {
                build.push(b_ms);
                paint.push(p_ms);
                flush.push(f_ms);
                total.push(b_ms + p_ms + f_ms);
                shapes.push(n);
            }
        }
        tables.push((name, [build, paint, flush, total, shapes]));
    }
    b.close().await;
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        (at(0.5), at(0.95), v[v.len() - 1])
    };
    for (name, mut columns) in tables {
        println!(
            "| full game at 1920×1080, {name}, {} frames (ms) | median | p95 | max |",
            columns[0].len()
        );
        println!("|---|---:|---:|---:|");
        for (row, v) in [
            "scene build (wasm)",
            "paint calls",
            "canvas finishing the pixels",
            "total per frame",
            "shapes per frame (count)",
        ]
        .iter()
        .zip(columns.iter_mut())
        {
            let (m, p95, max) = stats(v);
            println!("| {row} | {m:.1} | {p95:.1} | {max:.1} |");
        }
        println!();
    }
}

/// Moves the page on to where `round` starts (the first starts where the page is): rounds
/// start 1200 cycles apart, at kick-off, in play, at set pieces, in the second half.
async fn next_round(body: &fantoccini::elements::Element, round: usize) {
    if round > 0 {
        for _ in 0..12 {
            body.send_keys(&format!("{}{}", Key::Shift, Key::Right))
                .await
                .expect("keys");
        }
    }
}

/// Each kind of shape painted alone over the pitch, from five parts of the match: the median
/// per round, then the median of those.
async fn by_tag(b: &Browser, body: &fantoccini::elements::Element) {
    body.send_keys(&Key::Home.to_string()).await.expect("keys");
    let mut rows: Vec<(String, Vec<f64>, Vec<f64>)> = Vec::new();
    for round in 0..ROUNDS {
        next_round(body, round).await;
        let v = b
            .client
            .execute(
                &format!("return window.__pitchside_bench_tags({FRAMES}, 1920, 1080)"),
                vec![],
            )
            .await
            .expect("bench hook");
        let got: Vec<(String, (f64, f64))> =
            serde_json::from_str(v.as_str().expect("a JSON string")).expect("times");
        for (tag, (ms, count)) in got {
            match rows.iter_mut().find(|r| r.0 == tag) {
                Some(r) => {
                    r.1.push(ms);
                    r.2.push(count);
                }
                None => rows.push((tag, vec![ms], vec![count])),
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut pitch = 0.0;
    println!("| shapes painted over the pitch, 1920×1080, every overlay on | ms per frame (median) | beyond the pitch alone | shapes per frame |");
    println!("|---|---:|---:|---:|");
    for (tag, mut ms, mut n) in rows {
        let m = median(&mut ms);
        if tag == "pitch" {
            pitch = m;
        }
        println!(
            "| {tag} | {m:.2} | {:.2} | {:.0} |",
            m - pitch,
            median(&mut n)
        );
    }
}
