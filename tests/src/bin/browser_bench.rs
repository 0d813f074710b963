//! Opening the full 6000-cycle game in headless Chromium through the release web build: time
//! from the file being handed to the page to the first frame drawn, and to all frames parsed.
//! `cargo run --release -p pitchside-tests --bin browser-bench` (after scripts/build-web.sh).

use fantoccini::Locator;
use pitchside_tests::browser::Browser;
use pitchside_tests::{fixtures, relay_harness};
use std::time::Duration;

const RUNS: usize = 11;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let script =
        relay::replay::Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)
            .expect("bundled log");
    let relay = relay_harness::start(relay::Source::Replay {
        script,
        step: Duration::from_secs(1),
    })
    .await;
    let b = Browser::start().await;
    let path = fixtures::path(fixtures::FULL_V6);
    let mut first = Vec::new();
    let mut all = Vec::new();
    let mut decode = Vec::new();
    let mut wait = Vec::new();
    for _ in 0..RUNS {
        b.client
            .goto(&format!("http://{}/", relay.addr))
            .await
            .expect("page");
        b.wait_text("#source", "the page to start", |t| t.starts_with("Replay"))
            .await;
        let input = b
            .client
            .find(Locator::Css("#file-input"))
            .await
            .expect("file input");
        input
            .send_keys(&path.display().to_string())
            .await
            .expect("upload");
        b.wait_text("#frames", "all 6489 shows", |t| t.ends_with("/ 6489"))
            .await;
        let t = b
            .client
            .find(Locator::Css("#timings"))
            .await
            .expect("timings");
        let read = |a: Option<String>| a.and_then(|v| v.parse::<f64>().ok()).expect("a timing");
        first.push(read(t.attr("data-first-frame-ms").await.expect("attr")));
        all.push(read(t.attr("data-all-frames-ms").await.expect("attr")));
        decode.push(read(t.attr("data-decode-ms").await.expect("attr")));
        wait.push(read(t.attr("data-wait-ms").await.expect("attr")));
    }
    b.close().await;
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!("| full game ULG6 .rcg.gz (4.9 MB, 22.2 MB unpacked), headless Chromium, {RUNS} runs | median | min | max |");
    println!("|---|---:|---:|---:|");
    for (name, v) in [
        ("file handed -> first frame drawn", &mut first),
        ("file handed -> all 6489 frames parsed", &mut all),
        ("of which in the decoder (wasm)", &mut decode),
        (
            "of which waiting for the browser to read and inflate",
            &mut wait,
        ),
    ] {
        let m = median(v);
        println!(
            "| {name} | {m:.0} ms | {:.0} ms | {:.0} ms |",
            v[0],
            v[v.len() - 1]
        );
    }
}
