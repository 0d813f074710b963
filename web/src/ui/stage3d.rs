//! The 3D view on the page: which camera the user chose (settings, or the link's `view=3d` and
//! `cam=…`), the worker that paints it (`web/view3d`, started only when the view is asked
//! for), and what the page itself draws over it.
//!
//! Each display frame the field canvas ([`crate::ui::canvas`]) hands this the frame it would
//! draw in 2D (already interpolated between cycles), and this builds the 3D scene from it
//! (`pitchside_scene3d`), posts it to the worker, and writes the shirt numbers on a
//! transparent canvas over the picture, where they stay sharp at any size. The camera's springs
//! live here, so they see every display frame.

use crate::field::View;
use crate::settings::{Camera3d, Colours, Picture};
use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_analysis::colour::Rgb;
use pitchside_scene3d::camera::{self, Director, Look, Orbit, TopView};
use pitchside_scene3d::figures::{self, Kits};
use pitchside_scene3d::{CameraKind, Scene3d, Shot};
use rcss_formats::{Frame, Side};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::CanvasRenderingContext2d as Ctx;

#[wasm_bindgen(module = "/view3d.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn start3d(
        canvas: &web_sys::HtmlCanvasElement,
        status: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    fn post3d(handle: &JsValue, frame: js_sys::Float32Array, finish: &str);
    fn stop3d(handle: &JsValue);
    fn drawn3d(handle: &JsValue) -> js_sys::Array;
    fn ask_pixels3d(handle: &JsValue);
    fn pixels3d(handle: &JsValue) -> JsValue;
}

/// The camera of the 3D view if the field shows it (tracked: a change redraws).
pub fn chosen(m: Monitor) -> Option<Camera3d> {
    if m.field.failed3d.with(Option::is_some) {
        return None;
    }
    let (picture, cam) = m.settings.with(|s| (s.field.picture, s.field.camera3d));
    let picture = m.field.link_picture.get().unwrap_or(picture);
    (picture == Picture::ThreeD).then(|| m.field.link_camera.get().unwrap_or(cam))
}

/// A choice in the settings wins over what the link asked for: each over its own part, so
/// that a camera picked on a `view=3d` link keeps the 3D view.
pub fn settings_override_the_link(m: Monitor) {
    Effect::new(move |before: Option<(Picture, Camera3d)>| {
        let now = m.settings.with(|s| (s.field.picture, s.field.camera3d));
        if let Some((picture, camera)) = before {
            if picture != now.0 {
                m.field.link_picture.set(None);
            }
            if camera != now.1 {
                m.field.link_camera.set(None);
            }
        }
        now
    });
}

/// What the field's picture is, for a screen reader: the 2D field, or the 3D view and from
/// where it is seen (the canvas the worker paints is hidden from them; the field's canvas,
/// under it, stays the one they meet).
pub fn description(m: Monitor) -> String {
    const REST: &str = "(the score bar and the events list say what happens)";
    match chosen(m) {
        None => format!("The field, players and ball {REST}"),
        Some(c) => format!("The match in 3D, {} {REST}", c.description()),
    }
}

/// Whether the 3D view shows its free camera.
pub fn free_camera(m: Monitor) -> bool {
    untrack(|| chosen(m)) == Some(Camera3d::Free)
}

/// Moves the free camera: `f` changes its orbit, and the field is drawn again.
pub fn orbit(m: Monitor, f: impl FnOnce(&mut Orbit)) {
    STAGE.with(|s| f(&mut s.borrow_mut().director.orbit));
    m.field.camera.update(|_| {});
}

/// The player a click at canvas point `at` (CSS pixels) hits in the 3D view's last frame:
/// within `slop` pixels of his figure, from his feet to his head, the nearest if several.
/// `None` when the 3D view is not shown (the 2D field picks); `Some(None)` for a click on
/// no one.
pub fn pick(m: Monitor, at: (f64, f64), slop: f64) -> Option<Option<(Side, u8)>> {
    untrack(|| chosen(m))?;
    STAGE.with(|s| {
        let s = s.borrow();
        let summary = s.summary.as_ref()?;
        let hit = summary
            .players
            .iter()
            .filter_map(|p| {
                let (feet, head) = (p.feet?, p.head?);
                let width = ((feet.1 - head.1).hypot(feet.0 - head.0) * 0.15).max(4.0);
                let d = distance_to_segment(at, feet, head) - width;
                let side = if p.team == "l" {
                    Side::Left
                } else {
                    Side::Right
                };
                (d <= slop).then_some((d, (side, p.unum)))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, who)| who);
        Some(hit)
    })
}

/// How far point `p` is from the segment `a`–`b`.
fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - (a.0 + t * dx)).hypot(p.1 - (a.1 + t * dy))
}

/// The 3D view's camera, chosen on the field itself (the same setting as in the settings).
#[component]
pub fn CameraMenu() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let name = |c: Camera3d| c.name();
    view! {
        {move || {
            (chosen(m) == Some(Camera3d::Follow) && m.field.selected.get().is_none())
                .then(|| {
                    view! {
                        <span class="camera3d-hint" role="status">
                            "Following the ball: click a player to follow him"
                        </span>
                    }
                })
        }}
        <label class="camera3d">
            <span class="sr-only">"3D camera"</span>
            <select
                id="camera3d"
                prop:value=move || chosen(m).map_or("", name)
                on:change=move |ev| {
                    let picked = event_target_value(&ev);
                    if let Some(c) = Camera3d::from_name(&picked) {
                        m.settings.update(|s| s.field.camera3d = c);
                        m.field.link_camera.set(None);
                    }
                }
            >
                {Camera3d::ALL
                    .into_iter()
                    .map(|c| view! { <option value=name(c)>{c.label()}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}

/// What the page keeps of the 3D view between display frames.
#[derive(Default)]
struct Stage {
    /// The worker's handle (`view3d.js`), while the 3D canvas is on the page.
    worker: Option<JsValue>,
    /// The canvas the worker paints (handed over to it).
    canvas: Option<web_sys::HtmlCanvasElement>,
    ready: bool,
    director: Director,
    /// When the last frame was built (performance.now), for the springs' time step.
    last: Option<f64>,
    /// Which match and camera the springs followed, and whether in an instant replay: a change
    /// cuts to the new shot.
    following: Option<(usize, Camera3d, bool)>,
    /// The broadcast view is showing an instant replay: seen from another angle than live.
    replaying: bool,
    /// What the last frame showed, for the tests.
    summary: Option<Summary>,
    /// The frame drawn last, encoded, to post again once the worker is ready.
    pending: Option<Vec<f32>>,
    /// What the worker draws with (WebGL's renderer name: a GPU, or SwiftShader).
    renderer: Option<String>,
    /// When the worker reported its first painted frame (performance.now: milliseconds since
    /// the page was opened).
    first_painted: Option<f64>,
    /// The benchmark's own broadcast camera.
    bench: Director,
    /// The benchmark has begun: the page's own frames are no longer posted, so that each
    /// frame timed is the benchmark's (a page frame posted after it would take its place).
    benching: bool,
}

thread_local! {
    static STAGE: RefCell<Stage> = RefCell::new(Stage::default());
}

/// The broadcast view starts (with the end of the goal it leads up to, -1 left, +1 right, 0
/// not known) or ends (`None`) an instant replay: the 3D view shows it from behind that goal
/// instead of the stand.
pub fn set_replaying(end: Option<f64>) {
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        s.replaying = end.is_some();
        s.director.goal_at = end.filter(|e| *e != 0.0);
    });
}

/// Starts the worker on the 3D canvas, just put on the page. A canvas already handed to the
/// worker keeps it: a canvas can be handed over only once.
pub fn start(m: Monitor, canvas: &web_sys::HtmlCanvasElement) {
    let same = STAGE.with(|s| {
        let s = s.borrow();
        s.worker.is_some() && s.canvas.as_ref().is_some_and(|c| c == canvas)
    });
    if same {
        return;
    }
    stop();
    STAGE.with(|s| s.borrow_mut().canvas = Some(canvas.clone()));
    let status = Closure::<dyn Fn(String, String)>::new(move |kind: String, value: String| {
        match kind.as_str() {
            "ready" => {
                let pending = STAGE.with(|s| {
                    let mut s = s.borrow_mut();
                    s.ready = true;
                    s.renderer = Some(value.clone());
                    s.pending.take()
                });
                if let Some(p) = pending {
                    post(&p, Finish::No);
                }
                // Draws the frame on screen now that someone paints it.
                m.revision.update(|r| *r += 1);
            }
            "error" => {
                stop();
                m.field.failed3d.set(Some(value));
            }
            "drawn" => STAGE.with(|s| {
                let mut s = s.borrow_mut();
                if s.first_painted.is_none() {
                    s.first_painted = Some(now());
                }
            }),
            _ => {}
        }
    });
    match start3d(canvas, status.as_ref().unchecked_ref()) {
        Ok(handle) => STAGE.with(|s| {
            let mut s = s.borrow_mut();
            s.worker = Some(handle);
            s.ready = false;
        }),
        Err(e) => {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "the 3D view could not start".into());
            m.field.failed3d.set(Some(why));
        }
    }
    // Lives as long as the page: the worker may call it until it is stopped.
    status.forget();
}

/// Stops the worker (the 3D canvas left the page).
pub fn stop() {
    let worker = STAGE.with(|s| {
        let mut s = s.borrow_mut();
        s.ready = false;
        s.pending = None;
        s.following = None;
        s.director.cut();
        s.canvas = None;
        s.worker.take()
    });
    if let Some(w) = worker {
        stop3d(&w);
    }
}

/// How the worker ends a frame it paints: as a page frame, or for the benchmark, waiting until
/// its pixels are there, on the canvas or in a texture of its own.
#[derive(Clone, Copy)]
enum Finish {
    No,
    Canvas,
    Offscreen,
}

fn post(frame: &[f32], finish: Finish) {
    let finish = match finish {
        Finish::No => "",
        Finish::Canvas => "canvas",
        Finish::Offscreen => "offscreen",
    };
    STAGE.with(|s| {
        let s = s.borrow();
        if let (Some(w), true) = (&s.worker, s.ready) {
            post3d(w, js_sys::Float32Array::from(frame), finish);
        }
    });
}

/// The kits as the 3D figures wear them: the page's colours (the relay's kits in a live
/// match, else the user's).
fn kits(colours: &Colours) -> Kits {
    let c = |css: &str, fallback: [u8; 3]| Rgb::parse(css).map_or(fallback, |c| c.0);
    [
        c(&colours.left, [245, 217, 10]),
        c(&colours.left_goalie, [124, 223, 90]),
        c(&colours.right, [58, 160, 255]),
        c(&colours.right_goalie, [208, 112, 255]),
    ]
}

/// One display frame of the 3D view.
pub struct Frame3d<'a> {
    pub frame: Option<&'a Frame>,
    pub camera: Camera3d,
    /// The 2D field's view (the top camera shows exactly it).
    pub view: View,
    pub ratio: f64,
    pub colours: &'a Colours,
    pub selected: Option<(Side, u8)>,
    pub goal_width: f64,
    /// Which match is on screen (a new one cuts the camera).
    pub matches: usize,
}

/// Builds and posts the 3D scene of this display frame and writes the shirt numbers on
/// `labels`; returns whether the camera is still moving (the page then draws again at the next
/// display frame).
pub fn draw(f: &Frame3d<'_>, labels: Option<&Ctx>) -> bool {
    let (w, h) = (f.view.width, f.view.height);
    let now = now();
    let Some(frame) = f.frame else {
        if let Some(ctx) = labels {
            clear(ctx, w, h, f.ratio);
        }
        return false;
    };
    let chosen = f.camera;
    let replaying = STAGE.with(|s| s.borrow().replaying);
    // Penalties, and the broadcast view's instant replays, are seen from behind the goal.
    let kind = if (camera::is_penalty(frame) || replaying) && chosen == CameraKind::Broadcast {
        CameraKind::Goal
    } else {
        chosen
    };
    let ball = figures::ball(frame);
    let look = Look {
        frame,
        ball,
        selected: f.selected,
        top: TopView {
            centre: f.view.centre,
            scale: f.view.scale,
            flipped: f.view.flipped,
        },
        width: w,
        height: h,
    };
    let (shot, moving) = STAGE.with(|s| {
        let mut s = s.borrow_mut();
        if s.following != Some((f.matches, f.camera, replaying)) {
            s.director.cut();
            s.following = Some((f.matches, f.camera, replaying));
            s.last = None;
        }
        let dt = s.last.map_or(0.0, |t| (now - t) / 1000.0);
        s.last = Some(now);
        let shot = s.director.shot(kind, &look, dt);
        (shot, !s.director.settled())
    });
    let scene = Scene3d {
        figures: figures::figures(frame, &kits(f.colours)),
        ball,
        shot,
        width: w,
        height: h,
        ratio: f.ratio,
        goal_width: f.goal_width,
    };
    let message = pitchside_scene3d::encode(&scene);
    let (ready, benching) = STAGE.with(|s| {
        let s = s.borrow();
        (s.ready, s.benching)
    });
    if ready && !benching {
        post(&message, Finish::No);
    }
    let summary = summarise(&scene, kind, frame.time);
    if let Some(ctx) = labels {
        numbers(ctx, &summary, w, h, f.ratio);
    }
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        s.summary = Some(summary);
        if !ready {
            s.pending = Some(message);
        }
    });
    moving
}

/// What the last 3D frame showed, in canvas pixels: for the tests, and for the shirt numbers.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The cycle shown.
    pub time: u32,
    pub camera: &'static str,
    /// Which end the camera stands at (-1 left, +1 right).
    pub end: f64,
    pub width: f64,
    pub height: f64,
    pub players: Vec<Placed>,
    pub ball: Option<(f64, f64)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Placed {
    pub team: &'static str,
    pub unum: u8,
    pub goalie: bool,
    /// Where his feet are, and the top of his head.
    pub feet: Option<(f64, f64)>,
    pub head: Option<(f64, f64)>,
    pub kit: [u8; 3],
}

fn summarise(scene: &Scene3d, kind: CameraKind, time: u32) -> Summary {
    let (w, h) = (scene.width, scene.height);
    let at = |p: [f64; 3]| scene.shot.project(p, w, h);
    Summary {
        time,
        camera: kind.name(),
        end: scene.shot.eye[0].signum(),
        width: w,
        height: h,
        players: scene
            .figures
            .iter()
            .map(|g| Placed {
                team: if g.side == Side::Left { "l" } else { "r" },
                unum: g.unum,
                goalie: g.goalie,
                feet: at(Shot::ground(g.x, g.y)),
                head: at([g.x, 1.95, g.y]),
                kit: g.kit,
            })
            .collect(),
        ball: at(Shot::ground(scene.ball.x, scene.ball.y)),
    }
}

fn clear(ctx: &Ctx, w: f64, h: f64, ratio: f64) {
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, w, h);
}

/// Shirt numbers over the heads, sized with the figures (a far player's number is small, but
/// never under 9 px).
fn numbers(ctx: &Ctx, s: &Summary, w: f64, h: f64, ratio: f64) {
    clear(ctx, w, h, ratio);
    ctx.set_text_align("center");
    ctx.set_text_baseline("bottom");
    ctx.set_line_width(3.0);
    ctx.set_stroke_style_str("rgba(0,0,0,0.75)");
    for p in &s.players {
        let (Some(head), Some(feet)) = (p.head, p.feet) else {
            continue;
        };
        if head.0 < 0.0 || head.0 > w || head.1 < 0.0 || head.1 > h {
            continue;
        }
        let tall = (feet.1 - head.1).abs().max((feet.0 - head.0).abs());
        let size = (tall * 0.45).clamp(9.0, 22.0);
        ctx.set_font(&format!("600 {size:.0}px system-ui, sans-serif"));
        let text = p.unum.to_string();
        let _ = ctx.stroke_text(&text, head.0, head.1 - 2.0);
        ctx.set_fill_style_str(if p.goalie { "#fff7c2" } else { "#ffffff" });
        let _ = ctx.fill_text(&text, head.0, head.1 - 2.0);
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The hooks the browser tests and the 3D benchmark use:
/// - `window.__pitchside_3d()`: JSON of the last frame's [`Summary`], or null;
/// - `window.__pitchside_3d_drawn()`: the worker's times for the frames drawn since the last
///   call (milliseconds, JSON);
/// - `window.__pitchside_3d_ask_pixels()`, then `window.__pitchside_3d_pixels(points)`: the
///   RGBA colour the worker painted at each `[x, y]` CSS pixel of the JSON list (null until
///   the pixels came).
/// - `window.__pitchside_3d_renderer()`: what the worker draws with (WebGL's renderer name);
/// - `window.__pitchside_3d_first()`: milliseconds from opening the page to the worker's first
///   painted frame, or null;
/// - `window.__pitchside_3d_bench(first, count, width, height, offscreen)`: posts `count`
///   frames of the match from `first` on, seen by a broadcast camera of its own on a
///   `width × height` canvas at pixel ratio 1, for the worker to paint one after another and
///   finish each, on the canvas or (`offscreen`) in a texture of its own (their times then
///   come through `__pitchside_3d_drawn`); the number posted. From then on, until it is called
///   with no frames, the page posts none of its own, which would take the place of the
///   benchmark's.
pub fn install_test_hooks(m: Monitor) {
    let Some(w) = web_sys::window() else { return };
    let renderer = Closure::<dyn Fn() -> JsValue>::new(|| {
        STAGE.with(|s| {
            s.borrow()
                .renderer
                .as_deref()
                .map_or(JsValue::NULL, JsValue::from_str)
        })
    });
    let first = Closure::<dyn Fn() -> JsValue>::new(|| {
        STAGE.with(|s| {
            s.borrow()
                .first_painted
                .map_or(JsValue::NULL, JsValue::from)
        })
    });
    let bench = Closure::<dyn Fn(u32, u32, f64, f64, bool) -> u32>::new(
        move |first: u32, count: u32, w: f64, h: f64, offscreen: bool| {
            let colours = m.colours_untracked();
            let finish = if offscreen {
                Finish::Offscreen
            } else {
                Finish::Canvas
            };
            // No frames: the benchmark is over, and the page posts its own again.
            STAGE.with(|s| s.borrow_mut().benching = count > 0);
            let mut posted = 0;
            for i in first..first.saturating_add(count) {
                let message = m.game.with_value(|g| {
                    let frame = g.frames.get(i as usize)?;
                    let ball = figures::ball(frame);
                    let look = Look {
                        frame,
                        ball,
                        selected: None,
                        top: TopView {
                            centre: (0.0, 0.0),
                            scale: 1.0,
                            flipped: false,
                        },
                        width: w,
                        height: h,
                    };
                    let shot = STAGE
                        .with(|s| s.borrow_mut().bench.shot(CameraKind::Broadcast, &look, 0.1));
                    Some(pitchside_scene3d::encode(&Scene3d {
                        figures: figures::figures(frame, &kits(&colours)),
                        ball,
                        shot,
                        width: w,
                        height: h,
                        ratio: 1.0,
                        goal_width: 14.02,
                    }))
                });
                let Some(msg) = message else { break };
                post(&msg, finish);
                posted += 1;
            }
            posted
        },
    );
    let _ = js_sys::Reflect::set(&w, &"__pitchside_3d_first".into(), first.as_ref());
    let _ = js_sys::Reflect::set(&w, &"__pitchside_3d_renderer".into(), renderer.as_ref());
    renderer.forget();
    let _ = js_sys::Reflect::set(&w, &"__pitchside_3d_bench".into(), bench.as_ref());
    first.forget();
    bench.forget();
    let summary = Closure::<dyn Fn() -> JsValue>::new(|| {
        STAGE.with(|s| {
            s.borrow()
                .summary
                .as_ref()
                .and_then(|x| serde_json::to_string(x).ok())
                .map_or(JsValue::NULL, |j| JsValue::from_str(&j))
        })
    });
    let drawn = Closure::<dyn Fn() -> JsValue>::new(|| {
        STAGE.with(|s| {
            s.borrow()
                .worker
                .as_ref()
                .map_or(JsValue::NULL, |w| drawn3d(w).into())
        })
    });
    let ask = Closure::<dyn Fn()>::new(|| {
        STAGE.with(|s| {
            if let Some(w) = &s.borrow().worker {
                ask_pixels3d(w);
            }
        })
    });
    let sample = Closure::<dyn Fn(String) -> JsValue>::new(|points: String| {
        let Ok(points) = serde_json::from_str::<Vec<(f64, f64)>>(&points) else {
            return JsValue::NULL;
        };
        let bytes = STAGE.with(|s| s.borrow().worker.as_ref().map(pixels3d));
        let Some(bytes) = bytes.filter(|b| !b.is_null() && !b.is_undefined()) else {
            return JsValue::NULL;
        };
        let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
        let word = |i: usize| {
            bytes
                .get(i..i + 4)
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map_or(0, u32::from_le_bytes) as usize
        };
        let (pw, ph) = (word(0), word(4));
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let out: Vec<Option<[u8; 4]>> = points
            .iter()
            .map(|&(x, y)| {
                let (px, py) = ((x * ratio).round(), (y * ratio).round());
                if px < 0.0 || py < 0.0 || px as usize >= pw || py as usize >= ph {
                    return None;
                }
                let i = 8 + 4 * (py as usize * pw + px as usize);
                bytes
                    .get(i..i + 4)
                    .and_then(|b| <[u8; 4]>::try_from(b).ok())
            })
            .collect();
        serde_json::to_string(&out).map_or(JsValue::NULL, |j| JsValue::from_str(&j))
    });
    for (name, f) in [
        ("__pitchside_3d", summary.as_ref()),
        ("__pitchside_3d_drawn", drawn.as_ref()),
        ("__pitchside_3d_ask_pixels", ask.as_ref()),
        ("__pitchside_3d_pixels", sample.as_ref()),
    ] {
        let _ = js_sys::Reflect::set(&w, &name.into(), f);
    }
    summary.forget();
    drawn.forget();
    ask.forget();
    sample.forget();
}
