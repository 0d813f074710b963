//! Puts a [`Scene`] on a canvas: converts field coordinates to canvas pixels through the
//! [`View`] and issues the 2D-context calls. No game logic lives here.
//!
//! Canvas state (colours, widths, dashes, fonts) is only set when it changes from one shape to
//! the next: every setter is a call into JavaScript with a string built for it, and most
//! neighbouring shapes share their style.

use crate::field::View;
use crate::scene::{Align, Dash, Geom, Rgba, Scene, Shape, Stroke, Tag};
use std::f64::consts::PI;
use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d as Ctx;

/// The font of every label.
const FONT_FAMILY: &str = "system-ui, -apple-system, \"Segoe UI\", sans-serif";

/// What the context is set to, so unchanged state is not set again.
#[derive(Default)]
struct State {
    fill: Option<Rgba>,
    stroke: Option<Rgba>,
    width: f64,
    dash: Option<Dash>,
    font: (f64, bool),
    align: Option<Align>,
}

pub struct Painter<'a> {
    ctx: &'a Ctx,
    view: &'a View,
    state: State,
}

/// The pitch (grass, lines, goals, flags, grid): what does not move while the view stays.
fn is_pitch(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Grass | Tag::PitchLine | Tag::Goal | Tag::Flag | Tag::Grid
    )
}

/// The pitch painted once into a canvas of its own and copied onto the field each frame: a
/// software canvas spends most of a frame filling pixels, and one copy of the pitch costs
/// less than filling its grass, stripes and lines again.
#[derive(Default)]
pub struct PitchLayer {
    canvas: Option<web_sys::HtmlCanvasElement>,
    /// What the layer holds: the pitch shapes, for this view and pixel ratio.
    painted: Option<(Vec<Shape>, View, f64)>,
    /// The pitch of the last frame painted without the layer: once a pitch shows twice in a
    /// row it goes into the layer. While the view moves (following the ball) every frame has
    /// its own pitch, and filling the layer as well would cost more than it saves.
    seen: Option<(Vec<Shape>, View, f64)>,
}

fn prepare(ctx: &Ctx, ratio: f64) {
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    ctx.set_line_join("round");
    ctx.set_line_cap("butt");
    ctx.set_text_baseline("middle");
}

/// The 2D context of a canvas the field covers whole. Opaque (`alpha: false`): nothing shows
/// through the grass, and the browser need not blend the canvas with the page.
pub fn context(c: &web_sys::HtmlCanvasElement) -> Option<Ctx> {
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"alpha".into(), &false.into());
    c.get_context_with_context_options("2d", &opts)
        .ok()
        .flatten()?
        .dyn_into::<Ctx>()
        .ok()
}

/// Paints `scene` on `ctx`, whose canvas is `view.width × view.height` CSS pixels at `ratio`
/// device pixels each. With a `layer`, the pitch comes from it (repainted only when the pitch
/// or the view changed).
pub fn scene(ctx: &Ctx, view: &View, ratio: f64, scene: &Scene, layer: Option<&mut PitchLayer>) {
    let split = scene
        .shapes
        .iter()
        .position(|s| !is_pitch(s.tag))
        .unwrap_or(scene.shapes.len());
    let (pitch, rest) = scene.shapes.split_at(split);
    let copied = layer.is_some_and(|l| l.copy(ctx, view, ratio, pitch));
    prepare(ctx, ratio);
    let mut p = Painter {
        ctx,
        view,
        state: State {
            width: -1.0,
            ..State::default()
        },
    };
    if !copied {
        for s in pitch {
            p.shape(s);
        }
    }
    for s in rest {
        p.shape(s);
    }
}

impl PitchLayer {
    /// Copies the pitch onto `ctx`, painting it first if it changed; false if it cannot.
    fn copy(&mut self, ctx: &Ctx, view: &View, ratio: f64, pitch: &[Shape]) -> bool {
        let (w, h) = (
            (view.width * ratio).round() as u32,
            (view.height * ratio).round() as u32,
        );
        if self.canvas.is_none() {
            self.canvas = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.create_element("canvas").ok())
                .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        }
        let Some(c) = &self.canvas else { return false };
        let same = |k: &Option<(Vec<Shape>, View, f64)>| {
            k.as_ref()
                .is_some_and(|(shapes, v, r)| shapes == pitch && v == view && *r == ratio)
        };
        let fresh = same(&self.painted);
        if !fresh && !same(&self.seen) {
            self.seen = Some((pitch.to_vec(), *view, ratio));
            return false;
        }
        if !fresh || c.width() != w || c.height() != h {
            if c.width() != w || c.height() != h {
                c.set_width(w);
                c.set_height(h);
            }
            let Some(lctx) = context(c) else { return false };
            prepare(&lctx, ratio);
            let mut p = Painter {
                ctx: &lctx,
                view,
                state: State {
                    width: -1.0,
                    ..State::default()
                },
            };
            for s in pitch {
                p.shape(s);
            }
            self.painted = Some((pitch.to_vec(), *view, ratio));
        }
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        ctx.draw_image_with_html_canvas_element(c, 0.0, 0.0).is_ok()
    }
}

impl Painter<'_> {
    fn set_fill(&mut self, c: Rgba) {
        if self.state.fill != Some(c) {
            self.ctx.set_fill_style_str(&c.css());
            self.state.fill = Some(c);
        }
    }

    fn set_stroke(&mut self, s: &Stroke) {
        if self.state.stroke != Some(s.colour) {
            self.ctx.set_stroke_style_str(&s.colour.css());
            self.state.stroke = Some(s.colour);
        }
        if self.state.width != s.width {
            self.ctx.set_line_width(s.width);
            self.state.width = s.width;
        }
        if self.state.dash != Some(s.dash) {
            let pattern: &[f64] = match s.dash {
                Dash::Solid => &[],
                Dash::Dashed => &[6.0, 4.0],
                Dash::Dotted => &[1.5, 3.0],
            };
            let array = js_sys::Array::new();
            for v in pattern {
                array.push(&(*v).into());
            }
            let _ = self.ctx.set_line_dash(&array);
            self.state.dash = Some(s.dash);
        }
    }

    /// Fills and strokes the current path as the shape asks.
    fn finish(&mut self, s: &Shape) {
        if let Some(f) = s.fill {
            self.set_fill(f);
            self.ctx.fill();
        }
        if let Some(st) = &s.stroke {
            self.set_stroke(st);
            self.ctx.stroke();
        }
    }

    fn shape(&mut self, s: &Shape) {
        let v = self.view;
        let ctx = self.ctx;
        match &s.geom {
            Geom::Line { from, to } => {
                let a = v.canvas_from_field(from.0, from.1);
                let b = v.canvas_from_field(to.0, to.1);
                ctx.begin_path();
                ctx.move_to(a.0, a.1);
                ctx.line_to(b.0, b.1);
                self.finish(s);
            }
            Geom::Path { points, closed } => {
                let mut it = points.iter();
                let Some(first) = it.next() else { return };
                ctx.begin_path();
                let a = v.canvas_from_field(first.0, first.1);
                ctx.move_to(a.0, a.1);
                for p in it {
                    let b = v.canvas_from_field(p.0, p.1);
                    ctx.line_to(b.0, b.1);
                }
                if *closed {
                    ctx.close_path();
                }
                self.finish(s);
            }
            Geom::Circle { centre, radius } => {
                let c = v.canvas_from_field(centre.0, centre.1);
                ctx.begin_path();
                let _ = ctx.arc(c.0, c.1, v.pixels(*radius), 0.0, 2.0 * PI);
                self.finish(s);
            }
            Geom::Arc {
                centre,
                radius,
                start,
                end,
            } => {
                let c = v.canvas_from_field(centre.0, centre.1);
                ctx.begin_path();
                let _ = ctx.arc(
                    c.0,
                    c.1,
                    v.pixels(*radius),
                    v.canvas_angle(*start),
                    v.canvas_angle(*end),
                );
                self.finish(s);
            }
            Geom::Sector {
                centre,
                radius,
                start,
                end,
            } => {
                let c = v.canvas_from_field(centre.0, centre.1);
                ctx.begin_path();
                ctx.move_to(c.0, c.1);
                let _ = ctx.arc(
                    c.0,
                    c.1,
                    v.pixels(*radius),
                    v.canvas_angle(*start),
                    v.canvas_angle(*end),
                );
                ctx.close_path();
                self.finish(s);
            }
            Geom::Rect { min, max } => {
                let a = v.canvas_from_field(min.0, min.1);
                let b = v.canvas_from_field(max.0, max.1);
                let (x, y) = (a.0.min(b.0), a.1.min(b.1));
                let (w, h) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                if let Some(f) = s.fill {
                    self.set_fill(f);
                    ctx.fill_rect(x, y, w, h);
                }
                if let Some(st) = &s.stroke {
                    self.set_stroke(st);
                    ctx.stroke_rect(x, y, w, h);
                }
            }
            Geom::PixelRect { at, offset, size } => {
                let a = v.canvas_from_field(at.0, at.1);
                let (x, y) = (a.0 + offset.0, a.1 + offset.1);
                if let Some(f) = s.fill {
                    self.set_fill(f);
                    ctx.fill_rect(x, y, size.0, size.1);
                }
                if let Some(st) = &s.stroke {
                    self.set_stroke(st);
                    ctx.stroke_rect(x, y, size.0, size.1);
                }
            }
            Geom::Text {
                at,
                offset,
                text,
                size,
                align,
                bold,
            } => {
                let a = v.canvas_from_field(at.0, at.1);
                let (x, y) = (a.0 + offset.0, a.1 + offset.1);
                if self.state.font != (*size, *bold) {
                    let weight = if *bold { "bold " } else { "" };
                    ctx.set_font(&format!("{weight}{size:.0}px {FONT_FAMILY}"));
                    self.state.font = (*size, *bold);
                }
                if self.state.align != Some(*align) {
                    ctx.set_text_align(match align {
                        Align::Left => "left",
                        Align::Centre => "center",
                        Align::Right => "right",
                    });
                    self.state.align = Some(*align);
                }
                // A dark halo first, so light text reads on grass, lines and other marks.
                if let Some(st) = &s.stroke {
                    self.set_stroke(st);
                    let _ = ctx.stroke_text(text, x, y);
                }
                if let Some(f) = s.fill {
                    self.set_fill(f);
                    let _ = ctx.fill_text(text, x, y);
                }
            }
        }
    }
}
