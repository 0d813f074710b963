//! Opening a log in the page, from the disk (dropped or chosen) or from the web (`?log=URL`,
//! the URL field): read or download it, decode it progressively with the shared push decoder
//! (so the first frame shows early, playback starts with it, and a progress bar moves), and
//! report what went wrong in words a user can act on.
//!
//! A gzip-compressed log is inflated by the browser's own `DecompressionStream` where there is
//! one: native inflation is several times faster than inflating in WebAssembly. It runs in a
//! small worker (`web/inflate.js`), so that inflating the next batch overlaps decoding this one
//! on the page's thread. Elsewhere, and when the browser's inflater fails part-way, the shared
//! decoder inflates it.
//!
//! A log on the web is downloaded as a stream in the same worker, inflated on the way, and
//! decoded batch by batch as it arrives.
//!
//! Records go into the page's match as they are decoded, so playback can start with the first
//! frames while the rest is still being read.

use super::now;
use super::opened;
use crate::state::{Mode, Monitor, Timings};
use crate::timeline::Direction;
use leptos::prelude::*;
use rcss_formats::log::Ending;
use rcss_formats::{Location, LogDecoder, LogError, Record};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Input decoded between two yields to the browser. The first slice is small so the first
/// frame is drawn at once; later ones are large so yields cost little in total.
const FIRST_SLICE: usize = 64 << 10;
const SLICE: usize = 1 << 20;
/// Decompressed bytes decoded between two yields on the streaming path.
const STREAM_SLICE: usize = 2 << 20;
/// Bytes handed to the decoder per call.
const CALL_SLICE: usize = 256 << 10;
/// Shows a page holds from one file: over four whole games with extra time and penalties
/// (a game is about 6,500). A 1 GB file of shows would take gigabytes of the browser's
/// memory; beyond this the page stops reading and says so (RELIABILITY.md, "Hostile files").
const MAX_SHOWS: usize = 30_000;
/// Longest stretch of decoding before the browser gets a turn to paint the progress line and
/// handle input. Yielding after every batch instead cost 20-50 ms per full game.
const YIELD_EVERY_MS: f64 = 50.0;

thread_local! {
    /// The file from the disk on screen, kept so that *Save as…* can read it again (the page
    /// keeps the match it decoded, not the file's bytes). `None` for a log on the web.
    static FILE: std::cell::RefCell<Option<web_sys::File>> = const { std::cell::RefCell::new(None) };
}

/// The file from the disk the log on screen was opened from, if it was.
pub fn opened_file() -> Option<web_sys::File> {
    FILE.with(|f| f.borrow().clone())
}

/// Gets ready to open a file, so that opening the first one is as quick as the later ones.
pub fn prepare() {
    warm_inflater();
}

/// Starts opening a log: the page leaves the live feed and forgets the match on screen.
/// Returns the number of this opening, which a later one supersedes.
fn begin(m: Monitor, name: &str, log_url: Option<String>) -> u64 {
    let generation = opened::next();
    // The page holds no live socket while it shows a file.
    super::live::disconnect();
    m.playing.set(false);
    m.direction.set(Direction::Forward);
    m.mode.set(Mode::File);
    m.follow.set(false);
    m.error.set(None);
    m.notice.set(None);
    m.timings.set(None);
    m.clear();
    // Agent files belong to the match they were opened with.
    m.agents.clear();
    m.log_url.set(log_url);
    m.loading.set(true);
    m.load_fraction.set(Some(0.0));
    m.source.set(format!("File: {name}"));
    m.progress.set(Some(format!("reading {name}…")));
    FILE.with(|f| f.borrow_mut().take());
    generation
}

/// Opens a file from the disk.
pub fn open(m: Monitor, file: web_sys::File) {
    let handed = now();
    let name = file.name();
    let generation = begin(m, &name, None);
    FILE.with(|f| *f.borrow_mut() = Some(file.clone()));
    wasm_bindgen_futures::spawn_local(async move {
        let mut run = Run::new(m, name.clone(), handed, generation);
        let mut outcome = None;
        if let Some(batches) = file_batches(&file, FIRST_SLICE as u32, STREAM_SLICE as u32) {
            match run.stream(batches).await {
                _ if run.superseded() => return,
                Err(LogError::Gzip { .. }) => {
                    // On damage the browser's inflater discards what it inflated but had not
                    // handed out yet; the shared decoder keeps every record before the
                    // damage, so a damaged file is decoded again with it.
                    m.clear();
                    run = Run::new(m, name.clone(), handed, generation);
                }
                done => outcome = Some(done),
            }
        }
        let outcome = match outcome {
            Some(done) => done,
            None => match read_all(&file).await {
                Some(bytes) => run.slices(&bytes).await,
                None => {
                    if !run.superseded() {
                        m.loading.set(false);
                        m.load_fraction.set(None);
                        m.progress.set(None);
                        m.error.set(Some(format!("Cannot read {name}.")));
                    }
                    return;
                }
            },
        };
        if !run.superseded() {
            run.report(outcome);
        }
    });
}

/// Opens a log on the web, downloading it as a stream; `url` may be relative to the page.
pub fn open_url(m: Monitor, url: String) {
    let handed = now();
    let name = super::url::file_name(&url);
    let generation = begin(m, &name, Some(url.clone()));
    m.source.set(format!("Web: {name}"));
    m.progress.set(Some(format!("downloading {name}…")));
    wasm_bindgen_futures::spawn_local(async move {
        let mut run = Run::new(m, name.clone(), handed, generation);
        run.url = Some(url.clone());
        let batches = url_batches(&url, FIRST_SLICE as u32, STREAM_SLICE as u32);
        let outcome = run.stream(batches).await;
        if !run.superseded() {
            run.report(outcome);
        }
    });
}

/// One file being opened: the decoder and what it produced so far.
struct Run {
    m: Monitor,
    name: String,
    started: f64,
    generation: u64,
    decoder: LogDecoder,
    records: Vec<Record>,
    /// Frames handed to the page so far.
    frames: usize,
    first_shown: bool,
    decode_ms: f64,
    /// When the browser last had a turn (`now()`).
    yielded: f64,
    /// The inflated batch being decoded, reused from one batch to the next.
    input: Vec<u8>,
    /// Time spent waiting for input: reading the file and, for gzip, the browser inflating it.
    wait_ms: f64,
    /// Where the log is downloaded from, for a log on the web.
    url: Option<String>,
    /// Why a download could not start, in words for the user.
    download_error: Option<String>,
}

impl Run {
    fn new(m: Monitor, name: String, started: f64, generation: u64) -> Self {
        Run {
            m,
            name,
            started,
            generation,
            decoder: LogDecoder::new(),
            records: Vec::new(),
            frames: 0,
            first_shown: false,
            decode_ms: 0.0,
            yielded: started,
            input: Vec::new(),
            wait_ms: 0.0,
            url: None,
            download_error: None,
        }
    }

    /// Decodes bytes already in memory, in slices.
    async fn slices(&mut self, bytes: &[u8]) -> Result<(), LogError> {
        let (head, tail) = bytes.split_at(bytes.len().min(FIRST_SLICE));
        for chunk in std::iter::once(head).chain(tail.chunks(SLICE)) {
            if self.superseded() {
                return Ok(());
            }
            let result = self.feed(chunk).await;
            let fraction = self.decoder.bytes_fed() as f64 / (bytes.len().max(1) as f64);
            self.m.load_fraction.set(Some(fraction));
            self.m.progress.set(Some(format!(
                "parsing {}: {:.0}%",
                self.name,
                fraction * 100.0
            )));
            result?;
            if now() - self.yielded >= YIELD_EVERY_MS {
                self.pause().await;
            }
        }
        self.finish()
    }

    /// Decodes what the browser inflates, in batches as it arrives.
    async fn stream(&mut self, batches: Batches) -> Result<(), LogError> {
        let result = self.batches(&batches).await;
        batches.close();
        result
    }

    async fn batches(&mut self, batches: &Batches) -> Result<(), LogError> {
        let mut inflated: u64 = 0;
        loop {
            if self.superseded() {
                return Ok(());
            }
            let t = now();
            let batch = JsFuture::from(batches.next()).await;
            let waited = now() - t;
            self.wait_ms += waited;
            if waited >= 1.0 {
                // The page was idle while waiting: the browser had its turn.
                self.yielded = now();
            }
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
            let number = |k: &str| field(k).and_then(|v| v.as_f64()).unwrap_or(0.0);
            let (loaded, total) = (number("loaded"), number("total"));
            if let Some(url) = &self.url {
                let failed = field("fetchFailed").and_then(|v| v.as_bool()) == Some(true);
                let status = field("status").and_then(|v| v.as_f64());
                if failed || status.is_some() {
                    let reason = field("error")
                        .and_then(|e| e.as_string())
                        .unwrap_or_default();
                    self.download_error = Some(match status {
                        Some(code) => super::url::explain_status(url, code as u16, &reason),
                        None => super::url::explain_fetch_failure(&page_url(), url, &reason),
                    });
                    return Ok(());
                }
            }
            let data = field("data").and_then(|d| d.dyn_into::<js_sys::Uint8Array>().ok());
            if field("plain").and_then(|p| p.as_bool()).unwrap_or(false) {
                // Not gzip: the file as it is, decoded in slices like any bytes in memory.
                let bytes = data.map(|d| d.to_vec()).unwrap_or_default();
                return self.slices(&bytes).await;
            }
            if let Some(data) = data {
                // Copied into one buffer kept for the whole file: a fresh 2 MB allocation per
                // batch costs more than the copy.
                let mut input = std::mem::take(&mut self.input);
                input.clear();
                input.resize(data.length() as usize, 0);
                data.copy_to(&mut input);
                inflated += input.len() as u64;
                let fed = self.feed(&input).await;
                self.input = input;
                fed?;
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
            if now() - self.yielded >= YIELD_EVERY_MS {
                // The bar follows the input read (known size); the line says what was decoded.
                if total > 0.0 && loaded <= total {
                    self.m.load_fraction.set(Some(loaded / total));
                } else {
                    self.m.load_fraction.set(None);
                }
                let verb = if self.url.is_some() {
                    "downloading"
                } else {
                    "parsing"
                };
                let of = if total > 0.0 && loaded <= total {
                    format!("{:.1} of {:.1} MB", loaded / 1e6, total / 1e6)
                } else {
                    format!("{:.1} MB", inflated as f64 / 1e6)
                };
                self.m.progress.set(Some(format!(
                    "{verb} {}: {of}, {} frames",
                    self.name, self.frames
                )));
                self.pause().await;
            }
        }
        self.finish()
    }

    /// Gives the browser a turn.
    async fn pause(&mut self) {
        yield_to_browser().await;
        self.yielded = now();
    }

    /// A newer file was opened since this one.
    fn superseded(&self) -> bool {
        opened::current() != self.generation
    }

    async fn feed(&mut self, chunk: &[u8]) -> Result<(), LogError> {
        let t = now();
        // Fed in pieces: the browser swaps in its optimised compile of the decoder between
        // two calls, never inside one, and the first calls run on its quick baseline compile.
        let result = chunk
            .chunks(CALL_SLICE)
            .try_for_each(|piece| self.decoder.feed(piece, &mut self.records));
        self.take_frames();
        let result = result.and_then(|()| {
            if self.frames > MAX_SHOWS {
                Err(LogError::TooManyShows {
                    at: Location::Offset(self.decoder.bytes_decoded()),
                    limit: MAX_SHOWS,
                })
            } else {
                Ok(())
            }
        });
        self.decode_ms += now() - t;
        if !self.first_shown && self.frames > 0 && !self.superseded() {
            // Show the first frame as soon as it exists, and play from it unless a link asked
            // for a cycle (the page jumps there, paused, when it is read).
            self.m.index.set(0);
            self.first_shown = true;
            if self.m.pending_cycle.get_untracked().is_none()
                && self.m.settings.with_untracked(|s| s.playback.autoplay)
            {
                self.m.play(Direction::Forward);
            }
            self.pause().await;
            self.m.timings.set(Some(Timings {
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

    /// Moves decoded records into the page's match.
    fn take_frames(&mut self) {
        if self.records.is_empty() || self.superseded() {
            self.records.clear();
            return;
        }
        self.frames += self
            .records
            .iter()
            .filter(|r| matches!(r, Record::Show(_)))
            .count();
        self.m.push_records(self.records.drain(..));
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
            url,
            download_error,
            ..
        } = self;
        let n = frames;
        let ms = now() - started;
        m.loading.set(false);
        m.load_fraction.set(None);
        m.game.update_value(|g| {
            g.version = decoder.version();
            g.compressed = decoder.is_compressed();
            g.error = result.as_ref().err().cloned();
        });
        m.revision.update(|r| *r += 1);
        m.timings.update(|t| {
            *t = Some(Timings {
                first_frame_ms: t.map_or(ms, |t| t.first_frame_ms),
                all_frames_ms: Some(ms),
                decode_ms,
                wait_ms,
            })
        });
        m.settle_pending();
        if let Some(why) = download_error {
            m.progress.set(None);
            m.source.set(format!("Web: {name} (not opened)"));
            m.error.set(Some(why));
            return;
        }
        let version = decoder
            .version()
            .map(|v| match v.number() {
                Some(n) => format!("v{n}"),
                None => v.to_string().to_uppercase(),
            })
            .unwrap_or_default();
        let whence = url.as_deref().unwrap_or(&name);
        let ending = m
            .game
            .with_value(|g| Ending::of(&g.end, result.as_ref().err()));
        match result {
            // A log that stops before time over (the server was stopped or killed) is said
            // the same way whatever its version: a text or binary log that just ends, a JSON
            // log whose array was never closed, a record or gzip stream cut at the end.
            _ if n > 0 && ending.incomplete().is_some() => {
                m.progress.set(Some(format!(
                    "{n} frames, log {version}, read in {ms:.0} ms"
                )));
                m.notice.set(Some(format!(
                    "{name}: {ending}, before time over (the server stopped before the end \
                     of the match). Every frame before that is shown."
                )));
            }
            Ok(()) => {
                m.progress.set(Some(format!(
                    "{n} frames, log {version}, read in {ms:.0} ms"
                )));
            }
            Err(LogError::TooManyShows { at, limit }) => {
                m.progress.set(Some(format!("{n} frames, log {version}")));
                m.error.set(Some(format!(
                    "{name} holds more than {limit} shows, more than the page keeps (a whole \
                     game is about 6,500): showing the first {n}, read up to {at}."
                )));
            }
            Err(e) if n == 0 => {
                m.progress.set(None);
                m.error
                    .set(Some(format!("Cannot open {whence}: {}", explain(&e))));
            }
            Err(e) => {
                m.progress.set(Some(format!("{n} frames, log {version}")));
                m.error.set(Some(format!(
                    "{name} is damaged: showing the {n} frames before the problem. {}",
                    explain(&e)
                )));
            }
        }
    }
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/inflate.js")]
extern "C" {
    /// The file's bytes in batches: `next()` resolves to `{data, done, error, plain}`. A gzip
    /// file comes inflated, and the bytes inflated before a damaged part come with the error;
    /// any other file comes whole, in one batch marked `plain`. `None` where the browser has
    /// no `DecompressionStream`.
    type Batches;
    fn file_batches(file: &web_sys::File, first: u32, batch: u32) -> Option<Batches>;
    /// A log on the web, downloaded as a stream, in the same batches; each also says how many
    /// bytes were received (`loaded`) of how many announced (`total`, 0 if unknown). A
    /// download that cannot start comes as one batch with `fetchFailed` or `status`.
    fn url_batches(url: &str, first: u32, batch: u32) -> Batches;
    /// Starts the worker the next gzip log will be inflated in, ahead of time.
    fn warm_inflater();
    #[wasm_bindgen(method)]
    fn next(this: &Batches) -> js_sys::Promise;
    /// Stops inflating: the decoder gave up on the data.
    #[wasm_bindgen(method)]
    fn close(this: &Batches);
}

async fn read_all(file: &web_sys::File) -> Option<Vec<u8>> {
    let buf = JsFuture::from(file.array_buffer()).await.ok()?;
    Some(js_sys::Uint8Array::new(&buf).to_vec())
}

pub(crate) fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the compressed data is damaged".into())
}

fn explain(e: &LogError) -> String {
    match e {
        LogError::UnknownFormat { .. } => format!(
            "{e}. pitchside opens the game logs rcssserver writes (.rcg or .rcg.gz: text ULG4-6, binary v1-v3, or JSON)."
        ),
        LogError::Empty => "the file is empty.".into(),
        _ => format!("{e}."),
    }
}

pub(crate) fn page_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

thread_local! {
    /// The channel of the yield in progress, held so it is not collected before it delivers.
    static YIELD_CHANNEL: std::cell::RefCell<Option<web_sys::MessageChannel>> =
        const { std::cell::RefCell::new(None) };
}

/// Lets the browser paint and handle input between two slices of work. A message to ourselves
/// rather than a zero timeout: browsers clamp chained timeouts to 4 ms each.
pub(crate) async fn yield_to_browser() {
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
