//! The canvas, redrawn whenever the frame on screen, the settings or the space it has change.
//! The canvas fills the stage, which the page layout sizes (everything else keeps its natural
//! height), so the pitch always uses the room left on screen, an error banner or not.

use crate::field::DEFAULT_GOAL_WIDTH;
use crate::paint;
use crate::state::Monitor;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn FieldCanvas() -> impl IntoView {
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

    // Which frame is on screen, and whether it exists yet: appending frames behind the one on
    // screen (a file still loading) does not redraw.
    let shown = Memo::new(move |_| {
        let i = m.index.get();
        (i, i < m.count.get())
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
        let (i, _) = shown.get();
        m.revision.track();
        let goal_width = m.server_param("goal_width").unwrap_or(DEFAULT_GOAL_WIDTH);
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
        m.settings.with(|s| {
            m.game
                .with_value(|g| paint::frame(&ctx, w, h, g.frames.get(i), goal_width, &s.colours))
        });
    });

    // Referee mode (issue 11): a layer over the canvas, in the canvas's own coordinates.
    let view_now = move || {
        let (w, h) = size.get_untracked();
        crate::field::View::fit(w, h)
    };
    let to_field = Callback::new(move |(px, py): (f64, f64)| {
        let v = view_now();
        let s = v.scale.max(1e-6);
        (((px - v.origin_x) / s, (py - v.origin_y) / s), 1.0 / s)
    });
    let to_canvas = Callback::new(move |(x, y): (f64, f64)| {
        size.track();
        view_now().canvas_from_field(x, y)
    });

    view! {
        <div class="stage" node_ref=stage>
            <canvas id="field" node_ref=canvas></canvas>
            <crate::ui::operator::RefereeLayer to_field to_canvas/>
        </div>
    }
}
