//! Opening a logfile in the page: read it, decode it in slices with the shared push decoder
//! (so the first frame shows early and a progress line moves), and report what went wrong in
//! words a user can act on.

use crate::{Mode, Monitor};
use leptos::prelude::*;
use pitchside_shared::{LogDecoder, LogError, Record};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Input bytes decoded between two yields to the browser. The first slice is small so the
/// first frame is drawn at once; later ones are larger so yields cost little in total.
const FIRST_SLICE: usize = 64 << 10;
const SLICE: usize = 1 << 20;

pub fn open(m: Monitor, file: web_sys::File) {
    let handed = now();
    wasm_bindgen_futures::spawn_local(async move {
        let name = file.name();
        m.playing.set(false);
        m.mode.set(Mode::File);
        m.follow.set(false);
        m.error.set(None);
        m.timings.set(None);
        m.clear();
        m.source.set(format!("File: {name}"));
        m.progress.set(Some(format!("reading {name}…")));
        let bytes = match JsFuture::from(file.array_buffer()).await {
            Ok(buf) => js_sys::Uint8Array::new(&buf).to_vec(),
            Err(_) => {
                m.progress.set(None);
                m.error.set(Some(format!("Cannot read {name}.")));
                return;
            }
        };
        decode(m, &name, &bytes, handed).await;
    });
}

async fn decode(m: Monitor, name: &str, bytes: &[u8], started: f64) {
    let mut decoder = LogDecoder::new();
    let mut records = Vec::new();
    let mut frames = Vec::new();
    let mut result = Ok(());
    let mut first_shown = false;
    let (head, tail) = bytes.split_at(bytes.len().min(FIRST_SLICE));
    for chunk in std::iter::once(head).chain(tail.chunks(SLICE)) {
        result = decoder.feed(chunk, &mut records);
        take_frames(&mut records, &mut frames, m);
        if !first_shown && !frames.is_empty() {
            // Show the first frame as soon as it exists.
            m.set_frames(frames.clone());
            m.index.set(0);
            first_shown = true;
            yield_to_browser().await;
            m.timings.set(Some((now() - started, None)));
        }
        let pct = (decoder.bytes_fed() * 100) / (bytes.len().max(1) as u64);
        m.progress.set(Some(format!("parsing {name}: {pct}%")));
        if result.is_err() {
            break;
        }
        yield_to_browser().await;
    }
    if result.is_ok() {
        result = decoder.finish(&mut records);
        take_frames(&mut records, &mut frames, m);
    }
    let n = frames.len();
    m.set_frames(frames);
    let ms = now() - started;
    m.timings
        .update(|t| *t = Some((t.map_or(ms, |t| t.0), Some(ms))));
    let version = decoder
        .version()
        .map(|v| format!("v{v}"))
        .unwrap_or_default();
    match result {
        Ok(()) => {
            m.progress.set(Some(format!(
                "{n} frames, log {version}, parsed in {ms:.0} ms"
            )));
        }
        Err(e) if n == 0 => {
            m.progress.set(None);
            m.error
                .set(Some(format!("Cannot open {name}: {}", explain(&e))));
        }
        Err(e) => {
            m.progress.set(Some(format!("{n} frames, log {version}")));
            m.error.set(Some(format!(
                "{name} is damaged: showing the {n} frames before the problem. {}",
                explain(&e)
            )));
        }
    }
    if n > 0 {
        m.index.set(0);
        m.playing.set(true);
    }
}

fn take_frames(records: &mut Vec<Record>, frames: &mut Vec<pitchside_shared::Frame>, m: Monitor) {
    for r in records.drain(..) {
        match r {
            Record::Show(f) => frames.push(f),
            Record::ServerParam(p) => {
                if let Some(g) = p.get_f64("goal_width") {
                    m.goal_width.set(g);
                }
            }
            _ => {}
        }
    }
}

fn explain(e: &LogError) -> String {
    match e {
        LogError::UnknownFormat { .. } => format!(
            "{e}. Expected an rcssserver game log (.rcg, .rcg.gz: ULG text, binary or JSON)."
        ),
        LogError::Empty => "the file is empty.".into(),
        _ => format!("{e}."),
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Lets the browser paint and handle input between two slices of work.
async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ =
                w.set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), 0);
        }
    });
    let _ = JsFuture::from(promise).await;
}
