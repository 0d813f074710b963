//! The field canvas: builds the scene for the frame on screen and paints it, once per display
//! frame (requestAnimationFrame) while players glide between cycles, and only when something
//! changed otherwise. Handles zoom (wheel, pinch, keys), pan (drag), follow, flip, selection by
//! click, and the display's pixel ratio.
//!
//! The canvas fills the stage, which the page layout sizes (everything else keeps its natural
//! height), so the pitch always uses the room left on screen, an error banner or not.
//!
//! For the browser tests and the draw-cost benchmark the page exposes two functions:
//! `window.__pitchside_scene()` (a JSON summary of the last scene drawn, see
//! [`crate::scene::Summary`]) and `window.__pitchside_bench(n, width, height)` (draws `n`
//! frames with every overlay on into a canvas of that size and returns the times).

use crate::field::{Camera, Follow, View};
use crate::paint::{self, context};
use crate::scene::{self, motion, FieldParams};
use crate::settings::{Camera3d, FieldSettings, Settings};
use crate::state::Monitor;
use crate::ui::drawn::{self, last_view, pick, run, FieldAction, PICK_SLOP_PX, ZOOM_STEP};
use crate::ui::stage3d;
use leptos::prelude::*;
use rcss_formats::{Frame, Side};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A press that moves less than this (CSS pixels) before release is a click, not a drag.
const CLICK_SLOP_PX: f64 = 5.0;
/// A tap reaches further: a fingertip covers about 40 px and hides what it touches, and on a
/// phone the whole field is under 400 px wide.
const TAP_SLOP_PX: f64 = 20.0;

thread_local! {
    /// What the page covered the canvas with in the last drawing (see [`covered`]).
    static COVERED: RefCell<Vec<[f64; 4]>> = const { RefCell::new(Vec::new()) };
    /// What the field canvas's painter keeps between frames (the pitch, painted once per view).
    static LAYER: RefCell<paint::Cache> = RefCell::new(paint::Cache::default());
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The requestAnimationFrame callback, shared by whoever asks for a drawing; dropped (so the
/// loop stops) when the canvas goes.
type FrameCallback = Rc<RefCell<Option<Closure<dyn FnMut()>>>>;

/// The pointers pressed on the canvas: id and last canvas position.
type Pointers = Rc<RefCell<Vec<(i32, (f64, f64))>>>;

/// Smooth motion between two frames on screen.
#[derive(Clone, Copy, Debug, Default)]
struct Glide {
    /// The frame index drawn last, and the one before it when they are neighbours.
    index: Option<usize>,
    from: Option<usize>,
    /// When the index changed (performance.now), and how long the move should take: the time
    /// between the last two changes, so faster playback glides faster.
    since: f64,
    duration: f64,
}

impl Glide {
    /// Notes that frame `index` is now on screen.
    fn moved_to(&mut self, index: usize, at: f64, smooth: bool) {
        let previous = self.index.replace(index);
        let gap = at - self.since;
        self.duration = if (5.0..400.0).contains(&gap) {
            gap
        } else {
            100.0
        };
        self.since = at;
        self.from = match previous {
            Some(p) if smooth && p.abs_diff(index) == 1 => Some(p),
            _ => None,
        };
    }

    /// `(frame moved from, share of the way done)` at time `at`.
    fn progress(&self, at: f64) -> (Option<usize>, f64) {
        match self.from {
            Some(f) => {
                let a = ((at - self.since) / self.duration).clamp(0.0, 1.0);
                if a >= 1.0 {
                    (None, 1.0)
                } else {
                    (Some(f), a)
                }
            }
            None => (None, 1.0),
        }
    }
}

/// Everything a drawing needs besides the match.
struct DrawCtx {
    canvas: web_sys::HtmlCanvasElement,
    /// The 3D view's canvas for the shirt numbers, while the 3D view shows.
    labels: Option<web_sys::HtmlCanvasElement>,
    size: (f64, f64),
    ratio: f64,
}

/// A canvas sized to `w × h` CSS pixels at `ratio`.
fn fit_canvas(c: &web_sys::HtmlCanvasElement, w: f64, h: f64, ratio: f64) {
    let (pw, ph) = ((w * ratio).round() as u32, (h * ratio).round() as u32);
    if c.width() != pw || c.height() != ph {
        c.set_width(pw);
        c.set_height(ph);
    }
}

/// Builds and paints one frame; returns whether motion is still under way.
fn draw(m: Monitor, params: &FieldParams, glide: &Glide, target: &DrawCtx) -> bool {
    let (w, h) = target.size;
    if w <= 0.0 || h <= 0.0 {
        return false;
    }
    let ratio = target.ratio;
    let c = &target.canvas;
    let three_d = untrack(|| stage3d::chosen(m));
    if three_d.is_none() {
        fit_canvas(c, w, h, ratio);
    }
    let labels = three_d.and(target.labels.as_ref()).and_then(|l| {
        fit_canvas(l, w, h, ratio);
        l.get_context("2d").ok().flatten()?.dyn_into().ok()
    });
    let ctx = if three_d.is_none() { context(c) } else { None };
    if three_d.is_none() && ctx.is_none() {
        return false;
    }
    let index = m.index.get_untracked();
    let (from, alpha) = glide.progress(now());
    let camera = m.field.camera.get_untracked();
    let selected = m.field.selected.get_untracked();
    // Read before the match is borrowed: it asks the match for team names and times.
    let agent = selected.and_then(|(side, unum)| m.agents.overlay(m, index, side, unum));
    // An action picked in the analysis panel, while its frames show.
    let action = m
        .field
        .action
        .get_untracked()
        .filter(|a| scene::action::shows_at(a, index));
    let colours = m.colours_untracked();
    let tools = covered(c);
    let matches = m.matches.get_value() as usize;
    let moving3d = m.settings.with_untracked(|settings| {
        m.game.with_value(|g| {
            let frame = g.frames.get(index);
            let previous = from.and_then(|f| g.frames.get(f));
            let shown = frame.map(|f| motion::shown(previous, f, alpha));
            let view = View::of_camera(
                &camera,
                w,
                h,
                follow_target(&camera, shown.as_ref(), selected),
            );
            if let Some(camera) = three_d {
                // The field's own tools (zoom, pan) keep working on the view the top camera
                // shows; nothing 2D is there to click.
                drawn::remember(scene::Scene::default(), view);
                return stage3d::draw(
                    &stage3d::Frame3d {
                        frame: shown.as_ref(),
                        camera,
                        view,
                        ratio,
                        colours: &colours,
                        selected,
                        goal_width: params.goal_width,
                        matches,
                    },
                    labels.as_ref(),
                );
            }
            let Some(ctx) = &ctx else { return false };
            let history = &g.frames[..index.min(g.frames.len())];
            let mut scene = scene::build(&scene::Input {
                frame: shown.as_ref(),
                previous: None,
                alpha: 1.0,
                history,
                params,
                settings: &settings.field,
                colours: &colours,
                selected,
                view: &view,
                agent: agent.as_ref(),
                covered: &tools,
            });
            if let Some(a) = &action {
                scene::action::build(&mut scene.shapes, a, view.metres(1.0));
            }
            // Last, over everything: a blank screen hides even the overlays above.
            if settings.field.server_drawings {
                scene::drawings::build(&mut scene, &g.drawings, view.metres(1.0));
            }
            LAYER.with(|l| paint::scene(ctx, &view, ratio, &scene, Some(&mut l.borrow_mut())));
            drawn::remember(scene, view);
            false
        })
    });
    COVERED.with(|l| *l.borrow_mut() = tools);
    from.is_some() || moving3d
}

/// What the page lays over the canvas, in canvas pixels (`[left, top, right, bottom]`): the
/// field's tools (zoom, follow, flip) where they sit on the field, so that labels keep out
/// from under them. Empty where they are beside or under the field (phones) or hidden (the
/// embed and broadcast views). Read at each drawing: two rectangles of a laid-out page.
fn covered(canvas: &web_sys::HtmlCanvasElement) -> Vec<[f64; 4]> {
    let Some(tools) = canvas
        .parent_element()
        .and_then(|stage| stage.query_selector(".field-tools").ok().flatten())
    else {
        return Vec::new();
    };
    let (c, t) = (
        canvas.get_bounding_client_rect(),
        tools.get_bounding_client_rect(),
    );
    let r = [
        t.left() - c.left(),
        t.top() - c.top(),
        t.right() - c.left(),
        t.bottom() - c.top(),
    ];
    let over = r[0] < c.width() && r[2] > 0.0 && r[1] < c.height() && r[3] > 0.0;
    if t.width() > 0.0 && t.height() > 0.0 && over {
        vec![r]
    } else {
        Vec::new()
    }
}

/// What a following camera centres on: the ball, or the selected player (the ball when he is
/// not on the field).
fn follow_target(
    camera: &Camera,
    frame: Option<&Frame>,
    selected: Option<(Side, u8)>,
) -> Option<(f64, f64)> {
    let f = frame?;
    let ball = (f64::from(f.ball.x), f64::from(f.ball.y));
    match camera.follow {
        Follow::Off => None,
        Follow::Ball => Some(ball),
        Follow::Selected => Some(
            selected
                .and_then(|(side, unum)| {
                    f.players
                        .iter()
                        .find(|p| p.side == Some(side) && p.unum == unum && scene::style::drawn(p))
                })
                .map_or(ball, |p| (f64::from(p.x), f64::from(p.y))),
        ),
    }
}

/// The 3D view's canvases, under the field canvas (which stays on top, see-through, for the
/// pointer): the picture the worker paints, and the shirt numbers over it. The worker starts
/// when they come onto the page and stops when they leave it.
#[component]
fn Canvases3d(labels: NodeRef<leptos::html::Canvas>) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let picture = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        if let Some(c) = picture.get() {
            stage3d::start(m, &c);
        }
    });
    on_cleanup(stage3d::stop);
    view! {
        <canvas id="field3d" aria-hidden="true" node_ref=picture></canvas>
        <canvas id="labels3d" aria-hidden="true" node_ref=labels></canvas>
    }
}

#[component]
pub fn FieldCanvas() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let stage = NodeRef::<leptos::html::Div>::new();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let labels3d = NodeRef::<leptos::html::Canvas>::new();
    stage3d::settings_override_the_link(m);
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
        let on_resize = Closure::<dyn FnMut()>::new(measure);
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

    // The parameters the field is drawn with, when the match's change.
    let params = StoredValue::new(FieldParams::default());
    Effect::new(move |_| {
        m.revision.track();
        params.set_value(m.game.with_value(FieldParams::of_match));
    });

    // One drawing per display frame at most: changes only ask for one.
    let glide = Rc::new(RefCell::new(Glide::default()));
    let pending = Rc::new(std::cell::Cell::new(false));
    let frame_cb: FrameCallback = Rc::new(RefCell::new(None));
    let request: Rc<dyn Fn()> = {
        let pending = pending.clone();
        let frame_cb = frame_cb.clone();
        Rc::new(move || {
            if pending.replace(true) {
                return;
            }
            if let (Some(w), Some(cb)) = (web_sys::window(), frame_cb.borrow().as_ref()) {
                if w.request_animation_frame(cb.as_ref().unchecked_ref())
                    .is_err()
                {
                    pending.set(false);
                }
            }
        })
    };
    {
        let glide = glide.clone();
        let pending = pending.clone();
        let request = request.clone();
        *frame_cb.borrow_mut() = Some(Closure::<dyn FnMut()>::new(move || {
            pending.set(false);
            let Some(c) = canvas.get_untracked() else {
                return;
            };
            let mut sz = size.get_untracked();
            if sz.0 == 0.0 {
                measure();
                sz = size.get_untracked();
            }
            let target = DrawCtx {
                canvas: c.clone(),
                labels: labels3d.get_untracked(),
                size: sz,
                ratio: web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()),
            };
            let moving = params.with_value(|p| draw(m, p, &glide.borrow(), &target));
            if moving {
                request();
            }
        }));
    }
    // Dropping the callback when the canvas goes stops the drawing loop.
    let frame_cb_cleanup = StoredValue::new_local(frame_cb.clone());

    // The frame on screen changed: glide to it from its neighbour.
    {
        let glide = glide.clone();
        let request = request.clone();
        Effect::new(move |_| {
            let i = m.index.get();
            let smooth = m.settings.with_untracked(|s| s.field.interpolate) && !reduced_motion();
            glide.borrow_mut().moved_to(i, now(), smooth);
            request();
        });
    }
    // Anything else that changes the picture.
    {
        let request = request.clone();
        Effect::new(move |_| {
            m.revision.track();
            m.settings.track();
            m.kits.track();
            m.field.camera.track();
            m.field.selected.track();
            m.field.action.track();
            let _ = stage3d::chosen(m);
            m.agents.loaded.track();
            m.agents.revision.track();
            m.agents.hidden_levels.track();
            m.agents.show_drawings.track();
            m.agents.show_beliefs.track();
            size.track();
            // A file still loading adds frames behind the one on screen: only the frame on
            // screen appearing matters.
            let _ = m.count.get() > m.index.get_untracked();
            request();
        });
    }

    // Pointer input: drag pans, two fingers pinch, a click selects.
    let pointers: Pointers = Rc::new(RefCell::new(Vec::new()));
    let dragged = Rc::new(std::cell::Cell::new(0.0f64));
    let local = move |ev: &web_sys::MouseEvent| -> (f64, f64) {
        let Some(c) = canvas.get_untracked() else {
            return (0.0, 0.0);
        };
        let r = c.get_bounding_client_rect();
        (
            f64::from(ev.client_x()) - r.left(),
            f64::from(ev.client_y()) - r.top(),
        )
    };
    let on_down = {
        let pointers = pointers.clone();
        let dragged = dragged.clone();
        move |ev: web_sys::PointerEvent| {
            if ev.button() != 0 && ev.pointer_type() == "mouse" {
                return;
            }
            if let Some(c) = canvas.get_untracked() {
                let _ = c.set_pointer_capture(ev.pointer_id());
            }
            let mut p = pointers.borrow_mut();
            p.retain(|(id, _)| *id != ev.pointer_id());
            p.push((ev.pointer_id(), local(&ev)));
            if p.len() == 1 {
                dragged.set(0.0);
            }
        }
    };
    let on_move = {
        let pointers = pointers.clone();
        let dragged = dragged.clone();
        move |ev: web_sys::PointerEvent| {
            let at = local(&ev);
            let mut p = pointers.borrow_mut();
            let Some(k) = p.iter().position(|(id, _)| *id == ev.pointer_id()) else {
                return;
            };
            let Some(view) = last_view() else {
                p[k].1 = at;
                return;
            };
            if p.len() == 1 {
                let before = p[0].1;
                let (dx, dy) = (at.0 - before.0, at.1 - before.1);
                dragged.set(dragged.get() + dx.hypot(dy));
                p[0].1 = at;
                if stage3d::free_camera(m) {
                    // The free 3D camera: a drag turns it round its point (Shift: moves it).
                    if ev.shift_key() {
                        stage3d::orbit(m, |o| o.pan(-dx * 0.15, dy * 0.15));
                    } else {
                        stage3d::orbit(m, |o| o.turn(dx * 0.3, dy * 0.2));
                    }
                } else if dragged.get() >= CLICK_SLOP_PX {
                    m.field.camera.update(|c| c.pan_by(dx, dy, &view));
                }
            } else if p.len() >= 2 {
                let other = if k == 0 { p[1].1 } else { p[0].1 };
                let before = p[k].1;
                let d0 = (before.0 - other.0).hypot(before.1 - other.1);
                let d1 = (at.0 - other.0).hypot(at.1 - other.1);
                let mid0 = ((before.0 + other.0) / 2.0, (before.1 + other.1) / 2.0);
                let mid1 = ((at.0 + other.0) / 2.0, (at.1 + other.1) / 2.0);
                p[k].1 = at;
                dragged.set(CLICK_SLOP_PX);
                if stage3d::free_camera(m) {
                    if d0 > 1.0 && d1 > 1.0 {
                        stage3d::orbit(m, |o| o.zoom(d0 / d1));
                    }
                    return;
                }
                m.field.camera.update(|c| {
                    if d0 > 1.0 && d1 > 1.0 {
                        c.zoom_at(d1 / d0, mid0, &view);
                    }
                    let v = View::of_camera(c, view.width, view.height, Some(view.centre));
                    c.pan_by(mid1.0 - mid0.0, mid1.1 - mid0.1, &v);
                });
            }
        }
    };
    let on_up = {
        let pointers = pointers.clone();
        let dragged = dragged.clone();
        move |ev: web_sys::PointerEvent| {
            let at = local(&ev);
            let mut p = pointers.borrow_mut();
            let was_alone = p.len() == 1;
            p.retain(|(id, _)| *id != ev.pointer_id());
            if was_alone && dragged.get() < CLICK_SLOP_PX {
                let slop = if ev.pointer_type() == "mouse" {
                    PICK_SLOP_PX
                } else {
                    TAP_SLOP_PX
                };
                // In 3D a click picks among the figures as drawn; else on the 2D field.
                match stage3d::pick(m, at, slop) {
                    Some(hit) => m.field.selected.set(hit),
                    None => pick(m, at, slop),
                }
            }
        }
    };
    let on_cancel = {
        let pointers = pointers.clone();
        move |ev: web_sys::PointerEvent| {
            pointers
                .borrow_mut()
                .retain(|(id, _)| *id != ev.pointer_id());
        }
    };

    // The wheel zooms at the pointer. Registered by hand: the page must not scroll, which
    // needs a listener that is not passive.
    let wheel = StoredValue::new_local(None::<Closure<dyn FnMut(web_sys::WheelEvent)>>);
    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        // Embedded in another site's page, the wheel scrolls that page as it would anywhere.
        if crate::link::embed_mode() {
            return;
        }
        let target: web_sys::EventTarget = c.clone().into();
        let cb = Closure::<dyn FnMut(web_sys::WheelEvent)>::new(move |ev: web_sys::WheelEvent| {
            ev.prevent_default();
            let Some(view) = last_view() else { return };
            let r = c.get_bounding_client_rect();
            let at = (
                f64::from(ev.client_x()) - r.left(),
                f64::from(ev.client_y()) - r.top(),
            );
            // Lines or pages (deltaMode 1, 2) count as notches; pixels are scaled.
            let notches = match ev.delta_mode() {
                0 => ev.delta_y() / 100.0,
                _ => ev.delta_y() / 3.0,
            };
            let factor = ZOOM_STEP.powf(-notches.clamp(-5.0, 5.0));
            if stage3d::free_camera(m) {
                stage3d::orbit(m, |o| o.zoom(1.0 / factor));
                return;
            }
            m.field.camera.update(|cam| cam.zoom_at(factor, at, &view));
        });
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_passive(false);
        let _ = target.add_event_listener_with_callback_and_add_event_listener_options(
            "wheel",
            cb.as_ref().unchecked_ref(),
            &opts,
        );
        wheel.set_value(Some(cb));
    });

    // Embedded, a finger on the whole field scrolls the other site's page (`touch_action`
    // below); two fingers are a pinch for the field, never a scroll of that page, which the
    // page can only refuse from a touch listener that is not passive. Pointer events come
    // before the touch events they belong to, so `pointers` already counts the fingers.
    let touch = StoredValue::new_local(None::<Closure<dyn FnMut(web_sys::Event)>>);
    {
        let pointers = pointers.clone();
        Effect::new(move |_| {
            let Some(c) = canvas.get() else { return };
            if !crate::link::embed_mode() {
                return;
            }
            let pointers = pointers.clone();
            let cb = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
                if pointers.borrow().len() >= 2 {
                    ev.prevent_default();
                }
            });
            let opts = web_sys::AddEventListenerOptions::new();
            opts.set_passive(false);
            let target: web_sys::EventTarget = c.into();
            for kind in ["touchstart", "touchmove"] {
                let _ = target.add_event_listener_with_callback_and_add_event_listener_options(
                    kind,
                    cb.as_ref().unchecked_ref(),
                    &opts,
                );
            }
            touch.set_value(Some(cb));
        });
    }

    install_test_hooks(m);
    stage3d::install_test_hooks(m);
    on_cleanup(move || {
        on_resize.remove();
        if let Some(obs) = observer.get_value() {
            obs.disconnect();
        }
        frame_cb_cleanup.with_value(|cb| cb.borrow_mut().take());
    });

    // Embedded in another site's page, a finger on the whole field scrolls that page as it
    // would anywhere (as the wheel does); two fingers zoom (see `touch` above), and zoomed
    // in, one finger moves the field.
    let embedded = crate::link::embed_mode();
    let touch_action = move || {
        if embedded && m.field.camera.with(|c| c.zoom <= 1.0 + 1e-6) {
            "pan-x pan-y"
        } else {
            "none"
        }
    };
    let follow_label = move || match m.field.camera.get().follow {
        Follow::Off => "",
        Follow::Ball => "following the ball",
        Follow::Selected => "following the selected player",
    };
    // A memo, so that what depends on it runs again only when the picture changes between 2D
    // and 3D: a change of camera rebuilt the 3D canvases in place, and a canvas already
    // handed to the worker cannot be handed over again (the page fell back to 2D).
    let in3d_memo = Memo::new(move |_| stage3d::chosen(m).is_some());
    let in3d = move || in3d_memo.get();
    view! {
        <div class="stage" class:in3d=in3d node_ref=stage>
            {move || in3d().then(|| view! { <Canvases3d labels=labels3d/> })}
            {move || {
                m.field.failed3d.get().map(|why| {
                    view! {
                        <p class="notice3d" role="status">
                            "The 3D view cannot be shown here (" {why} "): this is the 2D field."
                        </p>
                    }
                })
            }}
            <canvas
                id="field"
                role="img"
                aria-label=move || stage3d::description(m)
                node_ref=canvas
                style:touch-action=touch_action
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=on_cancel
                on:dblclick=move |_| m.field.camera.update(Camera::fit)
            ></canvas>
            // Referee mode (issue 11) lays its own layer over the canvas; the tools stay on top.
            <crate::ui::operator::RefereeLayer/>
            <div class="field-tools" class:flat-only=move || !matches!(stage3d::chosen(m), None | Some(Camera3d::Top))>
                {move || in3d().then(|| view! { <crate::ui::stage3d::CameraMenu/> })}
                <span class="follow-note">{follow_label}</span>
                <button title="Zoom in (+)" aria-label="Zoom in" on:click=move |_| run(m, FieldAction::ZoomIn)>"+"</button>
                <button title="Zoom out (−)" aria-label="Zoom out" on:click=move |_| run(m, FieldAction::ZoomOut)>"−"</button>
                <button title="Whole field (0)" aria-label="Whole field" id="fit" on:click=move |_| run(m, FieldAction::Fit)>"⤢"</button>
                <button
                    title="Follow the ball (F)"
                    aria-label="Follow the ball"
                    aria-pressed=move || (m.field.camera.get().follow == Follow::Ball).to_string()
                    id="follow-ball"
                    class:on=move || m.field.camera.get().follow == Follow::Ball
                    on:click=move |_| run(m, FieldAction::FollowBall)
                >"◎"</button>
                <button
                    title="View from the other side (Shift+R)"
                    aria-label="View from the other side"
                    aria-pressed=move || m.field.camera.get().flipped.to_string()
                    id="flip"
                    class:on=move || m.field.camera.get().flipped
                    on:click=move |_| run(m, FieldAction::Flip)
                >"⇄"</button>
            </div>
        </div>
    }
}

/// `window.__pitchside_scene()` and `window.__pitchside_bench(n, width, height)`.
fn install_test_hooks(m: Monitor) {
    let Some(w) = web_sys::window() else { return };
    let summary = Closure::<dyn Fn() -> JsValue>::new(move || {
        let selected = m.field.selected.get_untracked();
        drawn::with_last(|l| {
            l.as_ref()
                .and_then(|(s, v)| {
                    let mut summary = s.summary(v, selected);
                    summary.offside_labels = s
                        .with_tag(scene::Tag::OffsideLine)
                        .filter_map(|shape| {
                            let team = match shape.owner {
                                scene::Owner::Team(Side::Left) => "l",
                                scene::Owner::Team(_) => "r",
                                _ => return None,
                            };
                            let rect = paint::text_box(v, shape)?;
                            Some(scene::LabelSummary { team, rect })
                        })
                        .collect();
                    summary.covered = COVERED.with(|c| c.borrow().clone());
                    serde_json::to_string(&summary).ok()
                })
                .map_or(JsValue::NULL, |s| JsValue::from_str(&s))
        })
    });
    let _ = js_sys::Reflect::set(&w, &"__pitchside_scene".into(), summary.as_ref());
    summary.forget();
    let bench = Closure::<dyn Fn(u32, f64, f64, Option<String>) -> JsValue>::new(
        move |n: u32, width: f64, height: f64, field: Option<String>| {
            JsValue::from_str(&bench(m, n, width, height, field.as_deref()))
        },
    );
    let _ = js_sys::Reflect::set(&w, &"__pitchside_bench".into(), bench.as_ref());
    bench.forget();
    let by_tag =
        Closure::<dyn Fn(u32, f64, f64) -> JsValue>::new(move |n: u32, width: f64, height: f64| {
            JsValue::from_str(&bench_tags(m, n, width, height))
        });
    let _ = js_sys::Reflect::set(&w, &"__pitchside_bench_tags".into(), by_tag.as_ref());
    by_tag.forget();
}

/// A canvas of the benches' own, off the page, and its context.
fn bench_context(width: f64, height: f64) -> Option<web_sys::CanvasRenderingContext2d> {
    let c = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .ok()?;
    c.set_width(width as u32);
    c.set_height(height as u32);
    context(&c)
}

/// The scenes of `n` consecutive frames from the one on screen, each halfway through the
/// glide from the previous frame, the left goalie selected (so that his areas and cone show
/// too). `each` gets the time the frame's building began, its view and its scene.
fn bench_scenes(
    m: Monitor,
    n: u32,
    (width, height): (f64, f64),
    settings: &Settings,
    mut each: impl FnMut(f64, &View, scene::Scene),
) {
    let camera = Camera::default();
    m.game.with_value(|g| {
        let params = FieldParams::of_match(g);
        let start = m.index.get_untracked().max(1);
        for i in start..(start + n as usize).min(g.frames.len()) {
            let t0 = now();
            let shown = motion::shown(g.frames.get(i - 1), &g.frames[i], 0.5);
            let view = View::of_camera(&camera, width, height, None);
            let scene = scene::build(&scene::Input {
                frame: Some(&shown),
                previous: None,
                alpha: 1.0,
                history: &g.frames[..i],
                params: &params,
                settings: &settings.field,
                colours: &settings.colours,
                selected: Some((Side::Left, 1)),
                view: &view,
                agent: None,
                covered: &[],
            });
            each(t0, &view, scene);
        }
    });
}

/// Where a frame's drawing time goes: for `n` frames with every overlay on (as
/// [`bench`]), the pitch alone and then the pitch with the shapes of one kind, each painted
/// and finished on its own. Returns JSON: `[tag, median ms, shapes per frame]` per kind, the
/// pitch alone first (as `"pitch"`).
fn bench_tags(m: Monitor, n: u32, width: f64, height: f64) -> String {
    let Some(ctx) = bench_context(width, height) else {
        return "null".into();
    };
    let settings = Settings {
        field: FieldSettings::everything(),
        ..m.settings.get_untracked()
    };
    let mut scenes = Vec::new();
    let mut view = None;
    bench_scenes(m, n, (width, height), &settings, |_, v, scene| {
        view = Some(*v);
        scenes.push(scene);
    });
    let Some(view) = view else {
        return "null".into();
    };
    let pitch = |t: scene::Tag| {
        use scene::Tag::*;
        matches!(t, Grass | PitchLine | Goal | Flag | Grid)
    };
    let mut tags: Vec<scene::Tag> = Vec::new();
    for s in scenes.iter().flat_map(|s| s.shapes.iter()) {
        if !pitch(s.tag) && !tags.contains(&s.tag) {
            tags.push(s.tag);
        }
    }
    let mut layer = paint::Cache::default();
    let mut time = |keep: &dyn Fn(scene::Tag) -> bool| {
        let mut ms = Vec::new();
        let mut count = 0;
        for sc in &scenes {
            let only = scene::Scene {
                shapes: sc.shapes.iter().filter(|s| keep(s.tag)).cloned().collect(),
                ..sc.clone()
            };
            count += only.shapes.iter().filter(|s| !pitch(s.tag)).count();
            let t0 = now();
            paint::scene(&ctx, &view, 1.0, &only, Some(&mut layer));
            let _ = ctx.get_image_data(0.0, 0.0, 1.0, 1.0);
            ms.push(now() - t0);
        }
        ms.sort_by(f64::total_cmp);
        let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
        (median, count as f64 / scenes.len().max(1) as f64)
    };
    let mut out = vec![("pitch".to_string(), time(&|t| pitch(t)))];
    for t in tags {
        let name = serde_json::to_string(&t).unwrap_or_default();
        out.push((
            name.trim_matches('"').to_string(),
            time(&|x| pitch(x) || x == t),
        ));
    }
    serde_json::to_string(&out).unwrap_or_else(|_| "null".into())
}

/// Draws `n` consecutive frames from the one on screen with every overlay on (or the field
/// settings given as JSON) into a `width × height` canvas at pixel ratio 1, as
/// [`bench_scenes`] builds them. Returns JSON: per frame, the milliseconds to build the
/// scene, to issue the paint calls, and to the canvas holding the pixels (a 1×1
/// `getImageData` makes the browser finish drawing), and the number of shapes.
fn bench(m: Monitor, n: u32, width: f64, height: f64, field: Option<&str>) -> String {
    let Some(ctx) = bench_context(width, height) else {
        return "null".into();
    };
    let field = field
        .and_then(|f| serde_json::from_str(f).ok())
        .unwrap_or_else(FieldSettings::everything);
    let settings = Settings {
        field,
        ..m.settings.get_untracked()
    };
    let mut times = Vec::new();
    let mut layer = paint::Cache::default();
    bench_scenes(m, n, (width, height), &settings, |t0, view, scene| {
        let t1 = now();
        paint::scene(&ctx, view, 1.0, &scene, Some(&mut layer));
        let t2 = now();
        let _ = ctx.get_image_data(0.0, 0.0, 1.0, 1.0);
        let t3 = now();
        times.push([t1 - t0, t2 - t1, t3 - t2, scene.shapes.len() as f64]);
    });
    serde_json::to_string(&times).unwrap_or_else(|_| "null".into())
}

/// The system asks for less motion (an accessibility setting): players then step from cycle
/// to cycle instead of gliding, whatever the smooth-motion setting says.
fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|q| q.matches())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glides_only_between_neighbouring_frames_and_at_the_playback_pace() {
        let mut g = Glide::default();
        g.moved_to(10, 1000.0, true);
        assert_eq!(
            g.progress(1000.0),
            (None, 1.0),
            "the first frame just shows"
        );
        g.moved_to(11, 1100.0, true);
        assert_eq!(g.progress(1150.0), (Some(10), 0.5));
        assert_eq!(g.progress(1300.0), (None, 1.0));
        // Twice as fast: 50 ms per cycle.
        g.moved_to(12, 1150.0, true);
        assert_eq!(g.progress(1175.0), (Some(11), 0.5));
        // Backwards is a neighbour too; a seek is not.
        g.moved_to(11, 1250.0, true);
        assert_eq!(g.progress(1250.0).0, Some(12));
        g.moved_to(500, 1350.0, true);
        assert_eq!(g.progress(1360.0), (None, 1.0));
        g.moved_to(501, 1450.0, false);
        assert_eq!(g.progress(1460.0), (None, 1.0), "smooth motion off");
        // Eight times as fast: each glide takes the 12.5 ms a frame stays.
        g.moved_to(502, 1462.5, true);
        assert_eq!(g.progress(1468.75), (Some(501), 0.5));
    }
}
