//! Saving what is on screen: the current frame as a PNG, a range of cycles as a WebM video.
//!
//! A clip is recorded the way a screen recorder would: the canvas's own stream
//! (`captureStream`) into a `MediaRecorder`, while the page plays the range at the chosen
//! speed. So the video shows exactly what the page draws, with every display setting, and
//! takes as long to record as the clip lasts at that speed. Pausing, seeking or reaching the
//! end of the range ends the recording; what was recorded is saved.
//!
//! A highlights reel ([`play_reel`]) is several ranges of frames played one after another,
//! watched on the page or recorded into one WebM the same way.

use crate::state::Monitor;
use crate::timeline::Direction;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/page.js")]
extern "C" {
    pub fn copy_text(text: &str) -> js_sys::Promise;
    fn download_blob(blob: &web_sys::Blob, name: &str);
    fn canvas_png(canvas: &web_sys::HtmlCanvasElement) -> js_sys::Promise;
    fn can_record() -> bool;
    type Recorder;
    #[wasm_bindgen(constructor, catch)]
    fn new(canvas: &web_sys::HtmlCanvasElement, fps: f64) -> Result<Recorder, JsValue>;
    #[wasm_bindgen(method)]
    fn stop(this: &Recorder) -> js_sys::Promise;
}

/// Saves `blob` as a download named `name`.
pub fn download(blob: &web_sys::Blob, name: &str) {
    download_blob(blob, name);
}

/// Frames per second the clip is captured at, at most: above the 10 cycles a second of 1×
/// play, and what most players show smoothly.
const CLIP_FPS: f64 = 30.0;

/// What the export panel reports.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum ExportState {
    #[default]
    Idle,
    /// Recording cycles `from..=to`.
    Recording {
        from: u32,
        to: u32,
    },
    /// A file was saved: its name and size in bytes.
    Saved {
        name: String,
        bytes: f64,
    },
    Failed(String),
}

thread_local! {
    static RECORDER: std::cell::RefCell<Option<Recorder>> = const { std::cell::RefCell::new(None) };
    /// Reference-counted rather than owned by a component, so no view's cleanup disposes it.
    static STATE: ArcRwSignal<ExportState> = ArcRwSignal::new(ExportState::Idle);
}

/// The export state the panel shows, shared by every export.
pub fn state() -> ArcRwSignal<ExportState> {
    STATE.with(Clone::clone)
}

fn canvas() -> Option<web_sys::HtmlCanvasElement> {
    web_sys::window()?
        .document()?
        .get_element_by_id("field")?
        .dyn_into()
        .ok()
}

/// A file name that says which match and where: `HELIOS_L-vs-HELIOS_R-cycle-2345.png`.
pub fn file_name(teams: [Option<&str>; 2], what: &str, ext: &str) -> String {
    let clean = |s: Option<&str>| {
        s.unwrap_or("team")
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect::<String>()
    };
    format!("{}-vs-{}-{what}.{ext}", clean(teams[0]), clean(teams[1]))
}

fn teams_of(m: Monitor) -> [Option<String>; 2] {
    m.with_frame(m.index.get_untracked(), |f| {
        [f.teams[0].name.clone(), f.teams[1].name.clone()]
    })
    .unwrap_or_default()
}

fn name_for(m: Monitor, what: &str, ext: &str) -> String {
    let t = teams_of(m);
    file_name([t[0].as_deref(), t[1].as_deref()], what, ext)
}

/// Saves the frame on screen as a PNG, at the canvas's resolution.
pub fn save_png(m: Monitor) {
    let Some(c) = canvas() else { return };
    let cycle = m.cycle_at(m.index.get_untracked()).unwrap_or(0);
    let name = name_for(m, &format!("cycle-{cycle}"), "png");
    wasm_bindgen_futures::spawn_local(async move {
        match JsFuture::from(canvas_png(&c)).await {
            Ok(blob) if !blob.is_null() => {
                let blob: web_sys::Blob = blob.unchecked_into();
                let bytes = blob.size();
                download_blob(&blob, &name);
                state().set(ExportState::Saved { name, bytes });
            }
            _ => state().set(ExportState::Failed(
                "the browser could not encode the picture".into(),
            )),
        }
    });
}

/// Whether this browser can record a clip.
pub fn clips_supported() -> bool {
    can_record()
}

/// Records cycles `from..=to` as a WebM: seeks to `from`, plays forward at the current speed,
/// and saves the video when the range ends or playback stops.
pub fn record_clip(m: Monitor, from: u32, to: u32) {
    if RECORDER.with(|r| r.borrow().is_some()) {
        return;
    }
    let (from, to) = (from.min(to), from.max(to));
    let Some(c) = canvas() else { return };
    m.seek_cycle(from);
    let Some(recorder) = recorder_for(&c) else {
        return;
    };
    RECORDER.with(|r| *r.borrow_mut() = Some(recorder));
    state().set(ExportState::Recording { from, to });
    let name = name_for(m, &format!("cycles-{from}-{to}"), "webm");
    CLIP.with(|c| *c.borrow_mut() = Some((to, name)));
    m.play(Direction::Forward);
}

/// A recorder of the canvas, or `None` with the browser's reason in the export state.
fn recorder_for(c: &web_sys::HtmlCanvasElement) -> Option<Recorder> {
    Recorder::new(c, CLIP_FPS)
        .map_err(|e| {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "this browser cannot record video".into());
            state().set(ExportState::Failed(why));
        })
        .ok()
}

/// A reel under way: the frame its current range ends at, the ranges after it, and the file
/// name when it is being recorded.
struct Reel {
    /// The match it is of ([`Monitor::matches`]): a new one ends it.
    matches: u64,
    end: usize,
    rest: std::collections::VecDeque<(usize, usize)>,
    recording: Option<String>,
}

/// Plays `ranges` of frames (`from..=to` each) one after another at the current speed, and
/// records them into one WebM when `record` is set. Pausing ends the reel (and saves what was
/// recorded).
pub fn play_reel(m: Monitor, ranges: Vec<(usize, usize)>, record: bool) {
    if RECORDER.with(|r| r.borrow().is_some()) || REEL.with(|r| r.borrow().is_some()) {
        return;
    }
    let mut rest: std::collections::VecDeque<_> = ranges.into();
    let Some((from, end)) = rest.pop_front() else {
        return;
    };
    m.seek(from);
    let recording = if record {
        let Some(r) = canvas().and_then(|c| recorder_for(&c)) else {
            return;
        };
        RECORDER.with(|x| *x.borrow_mut() = Some(r));
        let first = m.cycle_at(from).unwrap_or(0);
        let last = m.cycle_at(rest.back().map_or(end, |r| r.1)).unwrap_or(0);
        state().set(ExportState::Recording {
            from: first,
            to: last,
        });
        Some(name_for(m, "highlights", "webm"))
    } else {
        None
    };
    REEL.with(|r| {
        *r.borrow_mut() = Some(Reel {
            matches: m.matches.get_value(),
            end,
            rest,
            recording,
        })
    });
    m.play(Direction::Forward);
}

/// Whether a reel is playing.
pub fn reel_playing() -> bool {
    REEL.with(|r| r.borrow().is_some())
}

/// Moves a reel on as playback goes: to its next range at the end of one, and stops it at
/// the end of the last or when playback stops.
fn follow_reel(m: Monitor, i: usize, playing: bool) {
    enum Next {
        Jump(usize),
        End(Option<String>),
        Nothing,
    }
    let next = REEL.with(|r| {
        let mut r = r.borrow_mut();
        let Some(reel) = r.as_mut() else {
            return Next::Nothing;
        };
        let same_match = reel.matches == m.matches.get_value();
        if playing && same_match && i < reel.end {
            return Next::Nothing;
        }
        match reel.rest.pop_front() {
            Some((from, to)) if playing && same_match => {
                reel.end = to;
                Next::Jump(from)
            }
            _ => Next::End(r.take().and_then(|reel| reel.recording)),
        }
    });
    match next {
        Next::Jump(from) => m.index.set(from),
        Next::End(recording) => {
            if m.playing.get_untracked() {
                m.pause();
            }
            // A live match is followed again once its highlights have played.
            if m.mode.get_untracked() == crate::state::Mode::Live {
                m.go_last();
            }
            if let Some(name) = recording {
                finish(name);
            }
        }
        Next::Nothing => {}
    }
}

thread_local! {
    static REEL: std::cell::RefCell<Option<Reel>> = const { std::cell::RefCell::new(None) };
    /// The clip being recorded: its last cycle and file name.
    static CLIP: std::cell::RefCell<Option<(u32, String)>> = const { std::cell::RefCell::new(None) };
}

/// Ends a recording when playback passes the clip's last cycle or stops for any reason (the
/// user paused, sought, or the match ended). Call once from the app, which owns the watcher.
pub fn watch(m: Monitor) {
    Effect::new(move |_| {
        let i = m.index.get();
        let playing = m.playing.get();
        follow_reel(m, i, playing);
        let Some(to) = CLIP.with(|c| c.borrow().as_ref().map(|c| c.0)) else {
            return;
        };
        let past = m.cycle_at(i).is_some_and(|c| c >= to);
        if past && playing {
            m.pause();
        }
        if past || !playing {
            if let Some((_, name)) = CLIP.with(|c| c.borrow_mut().take()) {
                finish(name);
            }
        }
    });
}

/// Stops recording and saves what was recorded.
pub fn finish(name: String) {
    let Some(recorder) = RECORDER.with(|r| r.borrow_mut().take()) else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        match JsFuture::from(recorder.stop()).await {
            Ok(blob) => {
                let blob: web_sys::Blob = blob.unchecked_into();
                let bytes = blob.size();
                if bytes > 0.0 {
                    download_blob(&blob, &name);
                    state().set(ExportState::Saved { name, bytes });
                } else {
                    state().set(ExportState::Failed(
                        "nothing was recorded (was the tab hidden?)".into(),
                    ));
                }
            }
            Err(e) => state().set(ExportState::Failed(
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| "recording failed".into()),
            )),
        }
    });
}

/// Whether a clip is being recorded.
pub fn recording() -> bool {
    matches!(state().get_untracked(), ExportState::Recording { .. })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_say_which_match_and_where() {
        assert_eq!(
            file_name([Some("HELIOS_L"), Some("HELIOS_R")], "cycle-2345", "png"),
            "HELIOS_L-vs-HELIOS_R-cycle-2345.png"
        );
        assert_eq!(
            file_name([Some("a/b c"), None], "cycles-1-100", "webm"),
            "a_b_c-vs-team-cycles-1-100.webm"
        );
    }
}
