//! Opening the full 6000-cycle game in headless Chromium through the release web build: time
//! from the file being handed to the page to the first frame drawn, and to all frames parsed.
//! `cargo run --release -p pitchside-tests --bin browser-bench` (after scripts/build-web.sh).
//!
//! `--json` measures the full JSON game instead, alternating, run by run, with the same match
//! written as a ULG6 text log by this project's writer (both gzipped, as users keep them).
//! `--chrome-flag FLAG` (repeatable) hands FLAG to Chromium.

use fantoccini::Locator;
use pitchside_tests::browser::{self, Browser};
use pitchside_tests::{fixtures, relay_harness};
use std::time::Duration;

/// Runs per file, unless `--runs N` says otherwise.
const RUNS: usize = 11;

fn runs() -> usize {
    let args: Vec<String> = std::env::args().collect();
    pitchside_tests::bench::arg_or(&args, "--runs", RUNS)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let relay = relay_harness::start_bundled_replay_every(Duration::from_secs(1)).await;
    // `--chrome-flag FLAG` (repeatable) passes FLAG to Chromium, e.g.
    // `--js-flags=--no-wasm-tier-up` to run the page's wasm in V8's baseline compiler only.
    let args: Vec<String> = std::env::args().collect();
    let b = Browser::start_with_args(&browser::chrome_flags(&args)).await;
    if args.iter().any(|a| a == "--json") {
        json_against_text(&b, relay.addr).await;
        b.close().await;
        return;
    }
    let path = fixtures::path(fixtures::FULL_V6);
    let mut first = Vec::new();
    let mut all = Vec::new();
    let mut decode = Vec::new();
    let mut wait = Vec::new();
    for _ in 0..runs() {
        let [f, a, d, w] = open(&b, relay.addr, &path, 6489).await;
        first.push(f);
        all.push(a);
        decode.push(d);
        wait.push(w);
    }
    b.close().await;
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!("| full game ULG6 .rcg.gz (4.9 MB, 22.2 MB unpacked), headless Chromium, {} runs | median | min | max |", runs());
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

/// Hands `path` to a freshly loaded page and returns its timings: (first frame, all frames,
/// in the decoder, waiting for the browser).
async fn open(
    b: &Browser,
    addr: std::net::SocketAddr,
    path: &std::path::Path,
    shows: usize,
) -> [f64; 4] {
    b.open_replay(addr).await;
    b.choose(&path.display().to_string()).await;
    let want = format!("/ {shows}");
    b.wait_text("#frames", "every show", |t| t.ends_with(&want))
        .await;
    let t = b
        .client
        .find(Locator::Css("#timings"))
        .await
        .expect("timings");
    let mut out = [0.0; 4];
    for (i, attr) in [
        "data-first-frame-ms",
        "data-all-frames-ms",
        "data-decode-ms",
        "data-wait-ms",
    ]
    .iter()
    .enumerate()
    {
        out[i] = t
            .attr(attr)
            .await
            .expect("attr")
            .and_then(|v| v.parse::<f64>().ok())
            .expect("a timing");
    }
    out
}

/// How long the browser takes to read and inflate `path` with nothing else to do: the file
/// handed to a file input of its own and read through a `DecompressionStream` on the page's
/// thread, counting bytes: the least a gzip log can take to open in the page. And the same
/// through the page's own inflating worker (`web/inflate.js`), batches taken as they come.
async fn inflate_alone(b: &Browser, path: &std::path::Path) -> [f64; 2] {
    b.client
        .execute(
            "if (!document.getElementById('bench-file')) {
               const i = document.createElement('input');
               i.type = 'file'; i.id = 'bench-file';
               document.body.append(i);
             }
             document.getElementById('bench-file').value = '';",
            vec![],
        )
        .await
        .expect("a file input");
    b.client
        .find(Locator::Css("#bench-file"))
        .await
        .expect("file input")
        .send_keys(&path.display().to_string())
        .await
        .expect("upload");
    let v = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             (async () => {
               const f = document.getElementById('bench-file').files[0];
               const t0 = performance.now();
               const r = f.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
               let n = 0;
               for (;;) { const { done, value } = await r.read(); if (done) break; n += value.length; }
               const alone = performance.now() - t0;
               // The page's own worker, batches taken as fast as they come.
               const src = [...document.scripts].map(s => s.src).concat(
                 performance.getEntriesByType('resource').map(e => e.name)).find(u => u.includes('/snippets/') && u.endsWith('/inflate.js'));
               const m = await import(src);
               m.warm_inflater();
               await new Promise(r => setTimeout(r, 200));
               const t1 = performance.now();
               const batches = m.file_batches(f, 65536, 2 << 20);
               for (;;) { const x = await batches.next(); if (x.done) break; }
               return [alone, performance.now() - t1];
             })().then(done, e => done([-1, -1]));",
            vec![],
        )
        .await
        .expect("inflate");
    let f = |i: usize| v.get(i).and_then(|x| x.as_f64()).unwrap_or(-1.0);
    [f(0), f(1)]
}

async fn json_against_text(b: &Browser, addr: std::net::SocketAddr) {
    use std::io::Write;
    let json = fixtures::path(fixtures::FULL_JSON);
    let m = rcss_formats::parse_log(&fixtures::read(fixtures::FULL_JSON));
    let shows = m.frames.len();
    let text = std::env::temp_dir().join(format!("pitchside-bench-{}.rcg.gz", std::process::id()));
    {
        let f = std::fs::File::create(&text).expect("temporary file");
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::new(6));
        gz.write_all(&rcss_formats::write::ulg6(&m))
            .and_then(|()| gz.finish().map(|_| ()))
            .expect("write the text log");
    }
    let mut rows: Vec<(&str, Vec<[f64; 6]>)> =
        vec![("JSON", Vec::new()), ("ULG6 text", Vec::new())];
    for _ in 0..runs() {
        for (path, row) in [(&json, 0), (&text, 1)] {
            let [a, b_, c, d] = open(b, addr, path, shows).await;
            let [alone, worker] = inflate_alone(b, path).await;
            rows[row].1.push([a, b_, c, d, alone, worker]);
        }
    }
    let size =
        |p: &std::path::Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    println!(
        "| the full JSON game ({:.1} MB gzipped) and the same match as ULG6 ({:.1} MB gzipped), {} runs each, alternated | JSON median | text median | JSON / text |",
        size(&json),
        size(&text),
        runs()
    );
    let _ = std::fs::remove_file(&text);
    println!("|---|---:|---:|---:|");
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, name) in [
        "file handed -> first frame drawn",
        "file handed -> all frames parsed",
        "of which in the decoder (wasm)",
        "of which waiting for the browser to read and inflate",
        "the browser reading and inflating the file alone (no decoding)",
        "the same through the page's inflating worker (no decoding)",
    ]
    .iter()
    .enumerate()
    {
        let mut j: Vec<f64> = rows[0].1.iter().map(|r| r[i]).collect();
        let mut t: Vec<f64> = rows[1].1.iter().map(|r| r[i]).collect();
        let (mj, mt) = (median(&mut j), median(&mut t));
        println!("| {name} | {mj:.0} ms | {mt:.0} ms | {:.2} |", mj / mt);
    }
}
