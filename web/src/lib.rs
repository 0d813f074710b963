//! The pitchside monitor in the browser.
//!
//! Layout:
//! - this file: the [`App`] component and the state it shares ([`Monitor`]).
//! - [`live`]: the WebSocket feed from the relay.
//! - [`file`]: opening a dropped or chosen `.rcg` / `.rcg.gz` file.
//! - [`field`]: pitch geometry and the field-to-canvas conversion.
//! - [`draw`]: painting a frame on the canvas.

pub mod draw;
pub mod field;
pub mod file;
pub mod live;

use leptos::prelude::*;
use pitchside_shared::{Frame, PlayMode, Team};
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Where the frames on screen come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The relay's feed (a live server, or a log the relay replays as live).
    Live,
    /// A logfile opened in this page.
    File,
}

/// How long opening the last file took, read by the browser benchmark from `#timings`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// From the file being handed to the page to its first frame drawn.
    pub first_frame_ms: f64,
    /// To every frame parsed, once done.
    pub all_frames_ms: Option<f64>,
    /// Of that, the time spent in the decoder (the rest is reading, inflating, yielding).
    pub decode_ms: f64,
    /// Of that, the time spent waiting for input (reading, and inflating in the browser).
    pub wait_ms: f64,
}

/// The state every part of the page reads. Frames live in a [`StoredValue`] (not reactive, so
/// appending 6000 frames does not clone them); `count` and `index` are the reactive handles.
#[derive(Clone, Copy)]
pub struct Monitor {
    pub frames: StoredValue<Vec<Frame>>,
    pub count: RwSignal<usize>,
    pub index: RwSignal<usize>,
    /// Live: keep showing the newest frame. Turned off when the user seeks back.
    pub follow: RwSignal<bool>,
    /// File: advancing one frame per 100 ms.
    pub playing: RwSignal<bool>,
    pub mode: RwSignal<Mode>,
    /// What the badge says about the source, e.g. "Replay of … (no live server)".
    pub source: RwSignal<String>,
    pub error: RwSignal<Option<String>>,
    pub progress: RwSignal<Option<String>>,
    /// Opening a file: ms from the file being handed to the page to the first frame drawn,
    /// and to all frames parsed. Read by the browser benchmark.
    pub timings: RwSignal<Option<Timings>>,
    pub goal_width: RwSignal<f64>,
}

impl Monitor {
    fn new() -> Self {
        Monitor {
            frames: StoredValue::new(Vec::new()),
            count: RwSignal::new(0),
            index: RwSignal::new(0),
            follow: RwSignal::new(true),
            playing: RwSignal::new(false),
            mode: RwSignal::new(Mode::Live),
            source: RwSignal::new("connecting to the relay…".into()),
            error: RwSignal::new(None),
            progress: RwSignal::new(None),
            timings: RwSignal::new(None),
            goal_width: RwSignal::new(field::DEFAULT_GOAL_WIDTH),
        }
    }

    pub fn clear(&self) {
        self.frames.update_value(|f| f.clear());
        self.count.set(0);
        self.index.set(0);
    }

    pub fn push_frame(&self, frame: Frame) {
        let mut len = 0;
        self.frames.update_value(|f| {
            f.push(frame);
            len = f.len();
        });
        self.count.set(len);
        if self.follow.get_untracked() {
            self.index.set(len - 1);
        }
    }

    pub fn set_frames(&self, frames: Vec<Frame>) {
        let len = frames.len();
        self.frames.set_value(frames);
        self.count.set(len);
        if self.index.get_untracked() >= len {
            self.index.set(len.saturating_sub(1));
        }
    }

    fn step(&self, delta: i64) {
        let count = self.count.get_untracked();
        if count == 0 {
            return;
        }
        let i = self.index.get_untracked() as i64 + delta;
        let i = i.clamp(0, count as i64 - 1) as usize;
        self.index.set(i);
        self.follow
            .set(self.mode.get_untracked() == Mode::Live && i + 1 == count);
    }

    fn toggle_play(&self) {
        if self.mode.get_untracked() == Mode::Live {
            let follow = !self.follow.get_untracked();
            self.follow.set(follow);
            if follow {
                self.index.set(self.count.get_untracked().saturating_sub(1));
            }
        } else {
            if !self.playing.get_untracked()
                && self.index.get_untracked() + 1 >= self.count.get_untracked()
            {
                self.index.set(0);
            }
            self.playing.update(|p| *p = !*p);
        }
    }
}

/// What the score bar shows, taken from the current frame.
#[derive(Clone, Debug, PartialEq, Default)]
struct Header {
    time: u32,
    stime: Option<u32>,
    mode: PlayMode,
    teams: [Team; 2],
}

fn team_name(t: &Team) -> String {
    t.name.clone().unwrap_or_else(|| "—".into())
}

fn penalties(t: &Team) -> String {
    t.penalty
        .map(|p| format!("pen {}/{}", p.scored, p.scored + p.missed))
        .unwrap_or_default()
}

#[component]
pub fn App() -> impl IntoView {
    let m = Monitor::new();
    provide_context(m);
    live::connect(m);
    file::prepare();

    let header = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        m.frames.with_value(|f| {
            f.get(i).map(|fr| Header {
                time: fr.time,
                stime: fr.stime,
                mode: fr.mode,
                teams: fr.teams.clone(),
            })
        })
    });
    let h = move || header.get().unwrap_or_default();

    // Playback of an opened file: one frame per 100 ms, as the server's cycle.
    if let Ok(handle) = set_interval_with_handle(
        move || {
            if m.mode.get_untracked() == Mode::File && m.playing.get_untracked() {
                let next = m.index.get_untracked() + 1;
                if next < m.count.get_untracked() {
                    m.index.set(next);
                } else {
                    m.playing.set(false);
                }
            }
        },
        Duration::from_millis(100),
    ) {
        on_cleanup(move || handle.clear());
    }

    let on_key = window_event_listener(leptos::ev::keydown, move |ev| {
        let target_is_input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some_and(|i| i.type_() != "range");
        if target_is_input {
            return;
        }
        match ev.key().as_str() {
            " " => {
                ev.prevent_default();
                m.toggle_play();
            }
            "ArrowRight" => m.step(if ev.shift_key() { 100 } else { 1 }),
            "ArrowLeft" => m.step(if ev.shift_key() { -100 } else { -1 }),
            "Home" => m.step(i64::MIN / 2),
            "End" => m.step(i64::MAX / 2),
            _ => {}
        }
    });
    on_cleanup(move || on_key.remove());

    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_file_chosen = move |_| {
        if let Some(input) = file_input.get() {
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                file::open(m, f);
            }
            input.set_value("");
        }
    };
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let file = ev
            .data_transfer()
            .and_then(|dt| dt.files())
            .and_then(|l| l.get(0));
        match file {
            Some(f) => file::open(m, f),
            None => m
                .error
                .set(Some("Nothing to open: drop a .rcg or .rcg.gz file.".into())),
        }
    };

    let play_label = move || match (m.mode.get(), m.playing.get(), m.follow.get()) {
        (Mode::Live, _, true) => "❚❚ Pause",
        (Mode::Live, _, false) => "● Live",
        (Mode::File, true, _) => "❚❚ Pause",
        (Mode::File, false, _) => "▶ Play",
    };

    view! {
        <div
            class="app"
            class:dragging=move || dragging.get()
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <header class="scorebar">
                <div class="team left">
                    <span class="name" id="team-l">{move || team_name(&h().teams[0])}</span>
                    <span class="score" id="score-l">{move || h().teams[0].score}</span>
                    <span class="pen" id="pen-l">{move || penalties(&h().teams[0])}</span>
                </div>
                <div class="clock">
                    <span class="cycle" id="cycle">{move || h().time}</span>
                    <span class="stime">{move || h().stime.map(|s| format!("+{s}")).unwrap_or_default()}</span>
                    <span class="playmode" id="playmode">{move || h().mode.label()}</span>
                </div>
                <div class="team right">
                    <span class="pen" id="pen-r">{move || penalties(&h().teams[1])}</span>
                    <span class="score" id="score-r">{move || h().teams[1].score}</span>
                    <span class="name" id="team-r">{move || team_name(&h().teams[1])}</span>
                </div>
            </header>
            <div class="status">
                <span
                    id="source"
                    class="source"
                    class:live=move || m.source.get().starts_with("Live")
                >
                    {move || m.source.get()}
                </span>
                <span id="progress" class="progress">{move || m.progress.get().unwrap_or_default()}</span>
            </div>
            <Show when=move || m.error.get().is_some()>
                <div id="error" class="error" role="alert">
                    <span>{move || m.error.get().unwrap_or_default()}</span>
                    <button class="dismiss" on:click=move |_| m.error.set(None)>"×"</button>
                </div>
            </Show>
            <FieldCanvas/>
            <div class="controls">
                <button id="play" on:click=move |_| m.toggle_play()>{play_label}</button>
                <input
                    id="seek"
                    type="range"
                    min="0"
                    max=move || m.count.get().saturating_sub(1).to_string()
                    prop:value=move || m.index.get().to_string()
                    on:input=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            m.index.set(i);
                            m.follow.set(m.mode.get_untracked() == Mode::Live && i + 1 >= m.count.get_untracked());
                        }
                    }
                />
                <span class="frames" id="frames">
                    {move || format!("{} / {}", (m.index.get() + 1).min(m.count.get()), m.count.get())}
                </span>
                <label class="open">
                    "Open log…"
                    <input
                        id="file-input"
                        type="file"
                        accept=".rcg,.gz,.rcg.gz,.json"
                        node_ref=file_input
                        on:change=on_file_chosen
                    />
                </label>
                <Show when=move || m.mode.get() == Mode::File>
                    <button id="back-live" on:click=move |_| live::resume(m)>"Back to live"</button>
                </Show>
            </div>
            <span
                id="timings"
                hidden
                data-first-frame-ms=move || m.timings.get().map(|t| format!("{:.1}", t.first_frame_ms)).unwrap_or_default()
                data-all-frames-ms=move || m.timings.get().and_then(|t| t.all_frames_ms).map(|t| format!("{t:.1}")).unwrap_or_default()
                data-decode-ms=move || m.timings.get().map(|t| format!("{:.1}", t.decode_ms)).unwrap_or_default()
                data-wait-ms=move || m.timings.get().map(|t| format!("{:.1}", t.wait_ms)).unwrap_or_default()
            ></span>
            <p class="hint">"Drop a .rcg or .rcg.gz logfile anywhere on the page to replay it. Space: play/pause, ←/→: step, Shift+←/→: 100 cycles."</p>
        </div>
    }
}

/// The canvas, redrawn whenever the shown frame or the space it has changes. The canvas fills
/// the stage, which the page layout sizes (everything else keeps its natural height), so the
/// pitch always uses the room left on screen, an error banner or not.
#[component]
fn FieldCanvas() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let stage = NodeRef::<leptos::html::Div>::new();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let size = RwSignal::new((0.0f64, 0.0f64));

    let measure = move || {
        if let Some(el) = stage.get_untracked() {
            let el: &web_sys::Element = el.as_ref();
            let next = (f64::from(el.client_width()), f64::from(el.client_height()));
            if next != size.get_untracked() {
                size.set(next);
            }
        }
    };
    let observer = StoredValue::new_local(None::<web_sys::ResizeObserver>);
    Effect::new(move |_| {
        let Some(el) = stage.get() else { return };
        let on_resize = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(measure);
        match web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            Ok(obs) => {
                obs.observe(el.as_ref());
                observer.set_value(Some(obs));
                on_resize.forget();
            }
            Err(_) => measure(),
        }
    });
    // Browsers without ResizeObserver still follow the window.
    let on_resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || {
        on_resize.remove();
        if let Some(obs) = observer.get_value() {
            obs.disconnect();
        }
    });

    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        let (mut w, mut h) = size.get();
        if w == 0.0 {
            measure();
            (w, h) = size.get_untracked();
        }
        if w <= 0.0 || h <= 0.0 {
            return;
        }
        let i = m.index.get();
        m.count.track();
        let goal_width = m.goal_width.get();
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let (pw, ph) = ((w * ratio).round() as u32, (h * ratio).round() as u32);
        if c.width() != pw || c.height() != ph {
            c.set_width(pw);
            c.set_height(ph);
        }
        let Ok(Some(ctx)) = c.get_context("2d") else {
            return;
        };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
            return;
        };
        let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
        m.frames
            .with_value(|f| draw::frame(&ctx, w, h, f.get(i), goal_width));
    });

    view! {
        <div class="stage" node_ref=stage>
            <canvas id="field" node_ref=canvas></canvas>
        </div>
    }
}
