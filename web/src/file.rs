//! Opening a logfile in the page: read it, decode it progressively with the shared push
//! decoder (so the first frame shows early and a progress line moves), and report what went
//! wrong in words a user can act on.
//!
//! A gzip-compressed log is inflated by the browser's own `DecompressionStream` where there is
//! one: native inflation is several times faster than inflating in WebAssembly, and the file is
//! streamed instead of copied whole into memory. Elsewhere the shared decoder inflates it.

use crate::{Mode, Monitor};
use leptos::prelude::*;
use pitchside_shared::{Frame, LogDecoder, LogError, Record};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Input decoded between two yields to the browser. The first slice is small so the first
/// frame is drawn at once; later ones are large so yields cost little in total.
const FIRST_SLICE: usize = 64 << 10;
const SLICE: usize = 1 << 20;
/// Decompressed bytes decoded between two yields on the streaming path.
const STREAM_SLICE: usize = 2 << 20;

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
        let mut run = Run::new(m, name.clone(), handed);
        let mut outcome = None;
        if let Some(reader) = gzip_stream(&file).await {
            match run.stream(reader).await {
                Err(LogError::Gzip { .. }) => {
                    // On damage the browser's inflater discards what it inflated but had not
                    // handed out yet; the shared decoder keeps every record before the
                    // damage, so a damaged file is decoded again with it.
                    m.clear();
                    run = Run::new(m, name.clone(), handed);
                }
                done => outcome = Some(done),
            }
        }
        let outcome = match outcome {
            Some(done) => done,
            None => match read_all(&file).await {
                Some(bytes) => run.slices(&bytes).await,
                None => {
                    m.progress.set(None);
                    m.error.set(Some(format!("Cannot read {name}.")));
                    return;
                }
            },
        };
        run.report(outcome);
    });
}

/// One file being opened: the decoder and what it produced so far.
struct Run {
    m: Monitor,
    name: String,
    started: f64,
    decoder: LogDecoder,
    records: Vec<Record>,
    frames: Vec<Frame>,
    first_shown: bool,
    decode_ms: f64,
    /// Time spent waiting for input: reading the file and, for gzip, the browser inflating it.
    wait_ms: f64,
}

impl Run {
    fn new(m: Monitor, name: String, started: f64) -> Self {
        Run {
            m,
            name,
            started,
            decoder: LogDecoder::new(),
            records: Vec::new(),
            frames: Vec::new(),
            first_shown: false,
            decode_ms: 0.0,
            wait_ms: 0.0,
        }
    }

    /// Decodes bytes already in memory, in slices.
    async fn slices(&mut self, bytes: &[u8]) -> Result<(), LogError> {
        let (head, tail) = bytes.split_at(bytes.len().min(FIRST_SLICE));
        for chunk in std::iter::once(head).chain(tail.chunks(SLICE)) {
            let result = self.feed(chunk).await;
            let pct = (self.decoder.bytes_fed() * 100) / (bytes.len().max(1) as u64);
            self.m
                .progress
                .set(Some(format!("parsing {}: {pct}%", self.name)));
            result?;
            yield_to_browser().await;
        }
        self.finish()
    }

    /// Decodes what the browser inflates, in batches as it arrives.
    async fn stream(
        &mut self,
        reader: web_sys::ReadableStreamDefaultReader,
    ) -> Result<(), LogError> {
        let mut inflated: u64 = 0;
        let mut want = FIRST_SLICE;
        loop {
            let t = now();
            let batch = JsFuture::from(read_batch(&reader, want as u32)).await;
            self.wait_ms += now() - t;
            let batch = match batch {
                Ok(batch) => batch,
                Err(e) => {
                    return Err(LogError::Gzip {
                        decompressed: inflated,
                        reason: js_message(&e),
                    })
                }
            };
            let field = |k: &str| js_sys::Reflect::get(&batch, &JsValue::from_str(k)).ok();
            if let Some(data) = field("data").and_then(|d| d.dyn_into::<js_sys::Uint8Array>().ok())
            {
                let bytes = data.to_vec();
                inflated += bytes.len() as u64;
                self.feed(&bytes).await?;
            }
            if let Some(reason) = field("error").and_then(|e| e.as_string()) {
                // Records inflated before the damage are kept, as the decoder does.
                return Err(LogError::Gzip {
                    decompressed: inflated,
                    reason,
                });
            }
            if field("done").and_then(|d| d.as_bool()).unwrap_or(true) {
                break;
            }
            want = STREAM_SLICE;
            self.m.progress.set(Some(format!(
                "parsing {}: {:.0} MB",
                self.name,
                inflated as f64 / 1e6
            )));
            yield_to_browser().await;
        }
        self.finish()
    }

    async fn feed(&mut self, chunk: &[u8]) -> Result<(), LogError> {
        let t = now();
        let result = self.decoder.feed(chunk, &mut self.records);
        self.take_frames();
        self.decode_ms += now() - t;
        if !self.first_shown && !self.frames.is_empty() {
            // Show the first frame as soon as it exists.
            self.m.set_frames(self.frames.clone());
            self.m.index.set(0);
            self.first_shown = true;
            yield_to_browser().await;
            self.m.timings.set(Some(crate::Timings {
                first_frame_ms: now() - self.started,
                ..Default::default()
            }));
        }
        result
    }

    fn finish(&mut self) -> Result<(), LogError> {
        let t = now();
        let result = self.decoder.finish(&mut self.records);
        self.take_frames();
        self.decode_ms += now() - t;
        result
    }

    fn take_frames(&mut self) {
        for r in self.records.drain(..) {
            match r {
                Record::Show(f) => self.frames.push(f),
                Record::ServerParam(p) => {
                    if let Some(g) = p.get_f64("goal_width") {
                        self.m.goal_width.set(g);
                    }
                }
                _ => {}
            }
        }
    }

    fn report(self, result: Result<(), LogError>) {
        let Run {
            m,
            name,
            started,
            decoder,
            frames,
            decode_ms,
            wait_ms,
            ..
        } = self;
        let n = frames.len();
        m.set_frames(frames);
        let ms = now() - started;
        m.timings.update(|t| {
            *t = Some(crate::Timings {
                first_frame_ms: t.map_or(ms, |t| t.first_frame_ms),
                all_frames_ms: Some(ms),
                decode_ms,
                wait_ms,
            })
        });
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
}

/// A reader of the file inflated by the browser, when the file is gzip and the browser has a
/// `DecompressionStream`; `None` sends the file down the in-memory path.
async fn gzip_stream(file: &web_sys::File) -> Option<web_sys::ReadableStreamDefaultReader> {
    let magic = file.slice_with_i32_and_i32(0, 2).ok()?;
    let magic = JsFuture::from(magic.array_buffer()).await.ok()?;
    if js_sys::Uint8Array::new(&magic).to_vec() != [0x1f, 0x8b] {
        return None;
    }
    let inflate = Inflater::new("gzip").ok()?;
    let pair = web_sys::ReadableWritablePair::new(&inflate.readable(), &inflate.writable());
    file.stream()
        .pipe_through(&pair)
        .get_reader()
        .dyn_into::<web_sys::ReadableStreamDefaultReader>()
        .ok()
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r#"
export async function read_batch(reader, min) {
  const parts = [];
  let n = 0;
  const join = () => {
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(n);
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  try {
    while (n < min) {
      const { done, value } = await reader.read();
      if (done) return { data: parts.length ? join() : null, done: true, error: null };
      parts.push(value);
      n += value.length;
    }
    return { data: join(), done: false, error: null };
  } catch (e) {
    return { data: parts.length ? join() : null, done: true, error: String((e && e.message) || e) };
  }
}
"#)]
extern "C" {
    /// Reads the inflated stream until `min` bytes or its end, so the decoder runs once per
    /// batch rather than once per small piece the browser hands out. Resolves to
    /// `{data, done, error}`; bytes read before a damaged part come with the error.
    fn read_batch(reader: &web_sys::ReadableStreamDefaultReader, min: u32) -> js_sys::Promise;
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `DecompressionStream`, bound here because web-sys only offers it behind
    /// its unstable-API flag. Throws (caught) where the browser has none.
    #[wasm_bindgen(js_name = DecompressionStream)]
    type Inflater;
    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn new(format: &str) -> Result<Inflater, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &Inflater) -> web_sys::ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &Inflater) -> web_sys::WritableStream;
}

async fn read_all(file: &web_sys::File) -> Option<Vec<u8>> {
    let buf = JsFuture::from(file.array_buffer()).await.ok()?;
    Some(js_sys::Uint8Array::new(&buf).to_vec())
}

fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the compressed data is damaged".into())
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

thread_local! {
    /// The channel of the yield in progress, held so it is not collected before it delivers.
    static YIELD_CHANNEL: std::cell::RefCell<Option<web_sys::MessageChannel>> =
        const { std::cell::RefCell::new(None) };
}

/// Lets the browser paint and handle input between two slices of work. A message to ourselves
/// rather than a zero timeout: browsers clamp chained timeouts to 4 ms each.
async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| match web_sys::MessageChannel::new() {
        Ok(channel) => {
            channel.port1().set_onmessage(Some(resolve.unchecked_ref()));
            let _ = channel.port2().post_message(&JsValue::NULL);
            YIELD_CHANNEL.with(|c| *c.borrow_mut() = Some(channel));
        }
        Err(_) => {
            if let Some(w) = web_sys::window() {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    resolve.unchecked_ref(),
                    0,
                );
            }
        }
    });
    let _ = JsFuture::from(promise).await;
}
