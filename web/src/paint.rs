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
    ratio: f64,
    state: State,
    sprites: Option<&'a mut Sprites>,
}

/// What the painter keeps from one frame of a canvas to the next.
#[derive(Default)]
pub struct Cache {
    pitch: PitchLayer,
    sprites: Sprites,
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
struct PitchLayer {
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
/// device pixels each. With a `cache`, the pitch comes from its layer (repainted only when the
/// pitch or the view changed) and short labels from its sprites.
pub fn scene(ctx: &Ctx, view: &View, ratio: f64, scene: &Scene, cache: Option<&mut Cache>) {
    let split = scene
        .shapes
        .iter()
        .position(|s| !is_pitch(s.tag))
        .unwrap_or(scene.shapes.len());
    let (pitch, rest) = scene.shapes.split_at(split);
    let (copied, sprites) = match cache {
        Some(c) => (c.pitch.copy(ctx, view, ratio, pitch), Some(&mut c.sprites)),
        None => (false, None),
    };
    prepare(ctx, ratio);
    let mut p = Painter::new(ctx, view, ratio, sprites);
    if !copied {
        p.shapes(pitch);
    }
    p.shapes(rest);
}

/// Shapes of one kind drawn in a row with the same colours may go into one path, filled and
/// stroked once. A software canvas blends every pixel of every translucent fill, so the view
/// cones (up to 22 wide translucent wedges, the costliest overlay) cost far less as one union
/// per team; and each fill or stroke has its own cost of setting up. Only kinds whose look
/// does not depend on the order within the run: not the bodies, whose fills cover the outline
/// of a neighbour they overlap.
fn merges(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::ViewCone
            | Tag::Trail
            | Tag::BallPath
            | Tag::RealBody
            | Tag::BodyDirection
            | Tag::FaceDirection
            | Tag::StaminaBar
    )
}

/// Whether `b` can go into the same path as `a`.
fn same_run(a: &Shape, b: &Shape) -> bool {
    let traced = |s: &Shape| {
        matches!(
            s.geom,
            Geom::Line { .. }
                | Geom::Path { .. }
                | Geom::Circle { .. }
                | Geom::Arc { .. }
                | Geom::Sector { .. }
        )
    };
    a.tag == b.tag
        && merges(a.tag)
        && a.fill == b.fill
        && a.stroke == b.stroke
        && traced(a)
        && traced(b)
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
            Painter::new(&lctx, view, ratio, None).shapes(pitch);
            self.painted = Some((pitch.to_vec(), *view, ratio));
        }
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        ctx.draw_image_with_html_canvas_element(c, 0.0, 0.0).is_ok()
    }
}

impl<'a> Painter<'a> {
    fn new(ctx: &'a Ctx, view: &'a View, ratio: f64, sprites: Option<&'a mut Sprites>) -> Self {
        Painter {
            ctx,
            view,
            ratio,
            state: State {
                width: -1.0,
                ..State::default()
            },
            sprites,
        }
    }

    /// Paints `shapes` in order, runs that [`same_run`] allows as one path.
    fn shapes(&mut self, shapes: &[Shape]) {
        let mut i = 0;
        while i < shapes.len() {
            let first = &shapes[i];
            let run = 1 + shapes[i + 1..]
                .iter()
                .take_while(|s| same_run(first, s))
                .count();
            if run > 1 {
                self.ctx.begin_path();
                for s in &shapes[i..i + run] {
                    self.trace(&s.geom);
                }
                self.finish(first);
            } else {
                self.shape(first);
            }
            i += run;
        }
    }

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

    fn set_font(&mut self, size: f64, bold: bool) {
        if self.state.font != (size, bold) {
            self.ctx.set_font(&font(size, bold));
            self.state.font = (size, bold);
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

    /// Adds `geom` to the current path as a subpath of its own; false for what is not a path
    /// (rectangles and text, drawn straight away by [`Painter::shape`]).
    fn trace(&mut self, geom: &Geom) -> bool {
        let v = self.view;
        let ctx = self.ctx;
        match geom {
            Geom::Line { from, to } => {
                let a = v.canvas_from_field(from.0, from.1);
                let b = v.canvas_from_field(to.0, to.1);
                ctx.move_to(a.0, a.1);
                ctx.line_to(b.0, b.1);
            }
            Geom::Path { points, closed } => {
                let mut it = points.iter();
                let Some(first) = it.next() else { return true };
                let a = v.canvas_from_field(first.0, first.1);
                ctx.move_to(a.0, a.1);
                for p in it {
                    let b = v.canvas_from_field(p.0, p.1);
                    ctx.line_to(b.0, b.1);
                }
                if *closed {
                    ctx.close_path();
                }
            }
            Geom::Circle { centre, radius } => {
                let c = v.canvas_from_field(centre.0, centre.1);
                let r = v.pixels(*radius);
                // Each circle its own subpath: no line joins it to the last point.
                ctx.move_to(c.0 + r, c.1);
                let _ = ctx.arc(c.0, c.1, r, 0.0, 2.0 * PI);
            }
            Geom::Arc {
                centre,
                radius,
                start,
                end,
            } => {
                let c = v.canvas_from_field(centre.0, centre.1);
                let (r, a0) = (v.pixels(*radius), v.canvas_angle(*start));
                ctx.move_to(c.0 + r * a0.cos(), c.1 + r * a0.sin());
                let _ = ctx.arc(c.0, c.1, r, a0, v.canvas_angle(*end));
            }
            Geom::Sector {
                centre,
                radius,
                start,
                end,
            } => {
                let c = v.canvas_from_field(centre.0, centre.1);
                ctx.move_to(c.0, c.1);
                let _ = ctx.arc(
                    c.0,
                    c.1,
                    v.pixels(*radius),
                    v.canvas_angle(*start),
                    v.canvas_angle(*end),
                );
                ctx.close_path();
            }
            Geom::Rect { .. } | Geom::PixelRect { .. } | Geom::Text { .. } => return false,
        }
        true
    }

    fn shape(&mut self, s: &Shape) {
        let v = self.view;
        let ctx = self.ctx;
        ctx.begin_path();
        if self.trace(&s.geom) {
            self.finish(s);
            return;
        }
        match &s.geom {
            Geom::Rect { min, max } => {
                let a = v.canvas_from_field(min.0, min.1);
                let b = v.canvas_from_field(max.0, max.1);
                let (x, y) = (a.0.min(b.0), a.1.min(b.1));
                let (w, h) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                self.rect(s, x, y, w, h);
            }
            Geom::PixelRect { at, offset, size } => {
                let a = v.canvas_from_field(at.0, at.1);
                self.rect(s, a.0 + offset.0, a.1 + offset.1, size.0, size.1);
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
                self.text(
                    s,
                    (a.0 + offset.0, a.1 + offset.1),
                    text,
                    *size,
                    *align,
                    *bold,
                );
            }
            _ => {}
        }
    }

    fn rect(&mut self, s: &Shape, x: f64, y: f64, w: f64, h: f64) {
        if let Some(f) = s.fill {
            self.set_fill(f);
            self.ctx.fill_rect(x, y, w, h);
        }
        if let Some(st) = &s.stroke {
            self.set_stroke(st);
            self.ctx.stroke_rect(x, y, w, h);
        }
    }

    fn text(
        &mut self,
        s: &Shape,
        (x, y): (f64, f64),
        text: &str,
        size: f64,
        align: Align,
        bold: bool,
    ) {
        let style = TextStyle {
            size,
            bold,
            fill: s.fill,
            halo: s.stroke,
        };
        let ratio = self.ratio;
        if let Some(sprite) = self
            .sprites
            .as_deref_mut()
            .and_then(|c| c.get(text, &style, ratio))
        {
            let Some((atlas, _)) = self.sprites.as_deref().and_then(|c| c.atlas.as_ref()) else {
                return;
            };
            let left = match align {
                Align::Left => x,
                Align::Centre => x - sprite.text_width / 2.0,
                Align::Right => x - sprite.text_width,
            };
            // Placed on whole device pixels, so the copy is exact.
            let dx = (left * ratio).round() - sprite.origin.0;
            let dy = (y * ratio).round() - sprite.origin.1;
            let _ = self
                .ctx
                .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                    atlas,
                    sprite.at.0,
                    sprite.at.1,
                    sprite.size.0,
                    sprite.size.1,
                    dx / ratio,
                    dy / ratio,
                    sprite.size.0 / ratio,
                    sprite.size.1 / ratio,
                );
            return;
        }
        self.set_font(size, bold);
        if self.state.align != Some(align) {
            self.ctx.set_text_align(match align {
                Align::Left => "left",
                Align::Centre => "center",
                Align::Right => "right",
            });
            self.state.align = Some(align);
        }
        // A dark halo first, so light text reads on grass, lines and other marks.
        if let Some(st) = &s.stroke {
            self.set_stroke(st);
            let _ = self.ctx.stroke_text(text, x, y);
        }
        if let Some(f) = s.fill {
            self.set_fill(f);
            let _ = self.ctx.fill_text(text, x, y);
        }
    }
}

/// The rectangle a text shape covers when painted on a canvas of `view` (CSS pixels, `[left,
/// top, right, bottom]`, its halo included), measured as the painter draws it: for the
/// page's test hook, which tells the browser tests what a label sits under. `None` for
/// other shapes, or without a canvas to measure with.
pub fn text_box(view: &View, s: &Shape) -> Option<[f64; 4]> {
    let Geom::Text {
        at,
        offset,
        text,
        size,
        align,
        bold,
    } = &s.geom
    else {
        return None;
    };
    let ctx = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .ok()?
        .get_context("2d")
        .ok()??
        .dyn_into::<Ctx>()
        .ok()?;
    ctx.set_font(&font(*size, *bold));
    ctx.set_text_baseline("middle");
    ctx.set_text_align(match align {
        Align::Left => "left",
        Align::Centre => "center",
        Align::Right => "right",
    });
    let m = ctx.measure_text(text).ok()?;
    let a = view.canvas_from_field(at.0, at.1);
    let (x, y) = (a.0 + offset.0, a.1 + offset.1);
    let halo = s.stroke.map_or(0.0, |h| h.width / 2.0);
    Some([
        x - m.actual_bounding_box_left() - halo,
        y - m.actual_bounding_box_ascent() - halo,
        x + m.actual_bounding_box_right() + halo,
        y + m.actual_bounding_box_descent() + halo,
    ])
}

fn font(size: f64, bold: bool) -> String {
    let weight = if bold { "bold " } else { "" };
    format!("{weight}{size:.0}px {FONT_FAMILY}")
}

/// How a label is drawn: what makes two sprites the same beside their text.
#[derive(Clone, Copy, PartialEq)]
struct TextStyle {
    size: f64,
    bold: bool,
    fill: Option<Rgba>,
    halo: Option<Stroke>,
}

/// Labels this short (shirt numbers, player types) are drawn from [`Sprites`]; longer ones
/// (stamina figures) change from frame to frame and are drawn as text.
const SPRITE_CHARS: usize = 4;
/// The atlas's side in device pixels; when it is full it starts again empty.
const ATLAS_SIDE: u32 = 512;

/// Short labels drawn once, halo and all, into an atlas and copied from it. A software canvas
/// strokes the outline of every glyph for the halo each time it draws text, which costs more
/// than copying the few hundred finished pixels of a label.
#[derive(Default)]
struct Sprites {
    atlas: Option<(web_sys::HtmlCanvasElement, Ctx)>,
    ratio: f64,
    placed: Vec<(String, TextStyle, Sprite)>,
    /// Where the next sprite goes (device pixels): the row's left and top, and its height.
    cursor: (f64, f64, f64),
}

/// A label in the atlas, in device pixels.
#[derive(Clone, Copy)]
struct Sprite {
    at: (f64, f64),
    size: (f64, f64),
    /// Where the text's start on its middle line is within the sprite.
    origin: (f64, f64),
    /// The text's width in CSS pixels, for centred and right-aligned labels.
    text_width: f64,
}

impl Sprites {
    /// The sprite of `text` in `style` at `ratio`, drawn into the atlas first if it is not
    /// there; `None` for text too long to keep, or without an atlas.
    fn get(&mut self, text: &str, style: &TextStyle, ratio: f64) -> Option<Sprite> {
        if text.chars().count() > SPRITE_CHARS || text.is_empty() {
            return None;
        }
        if self.ratio != ratio {
            self.clear_atlas();
            self.ratio = ratio;
        }
        if let Some((_, _, s)) = self
            .placed
            .iter()
            .find(|(t, st, _)| t == text && st == style)
        {
            return Some(*s);
        }
        if self.atlas.is_none() {
            let c = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.create_element("canvas").ok())
                .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())?;
            c.set_width(ATLAS_SIDE);
            c.set_height(ATLAS_SIDE);
            let ctx = c.get_context("2d").ok().flatten()?.dyn_into::<Ctx>().ok()?;
            ctx.set_text_baseline("middle");
            ctx.set_text_align("left");
            ctx.set_line_join("round");
            self.atlas = Some((c, ctx));
        }
        let (_, ctx) = self.atlas.as_ref()?;
        let font_px = style.size * ratio;
        ctx.set_font(&font(font_px, style.bold));
        let text_w = ctx.measure_text(text).ok()?.width();
        let halo = style.halo.map_or(0.0, |h| h.width * ratio);
        let pad = (halo / 2.0 + 1.0).ceil();
        let w = (text_w + 2.0 * pad).ceil();
        let h = (font_px * 1.4 + 2.0 * pad).ceil();
        let side = f64::from(ATLAS_SIDE);
        if w > side || h > side {
            return None;
        }
        let (mut x, mut y, mut row) = self.cursor;
        if x + w > side {
            (x, y, row) = (0.0, y + row, 0.0);
        }
        if y + h > side {
            self.clear_atlas();
            (x, y, row) = (0.0, 0.0, 0.0);
        }
        let (_, ctx) = self.atlas.as_ref()?;
        let origin = (pad, (h / 2.0).round());
        if let Some(st) = style.halo {
            ctx.set_stroke_style_str(&st.colour.css());
            ctx.set_line_width(st.width * ratio);
            let _ = ctx.stroke_text(text, x + origin.0, y + origin.1);
        }
        if let Some(f) = style.fill {
            ctx.set_fill_style_str(&f.css());
            let _ = ctx.fill_text(text, x + origin.0, y + origin.1);
        }
        self.cursor = (x + w, y, row.max(h));
        let sprite = Sprite {
            at: (x, y),
            size: (w, h),
            origin,
            text_width: text_w / ratio,
        };
        self.placed.push((text.to_string(), *style, sprite));
        Some(sprite)
    }

    /// Empties the atlas: every sprite is drawn again when next asked for.
    fn clear_atlas(&mut self) {
        if let Some((_, ctx)) = &self.atlas {
            let side = f64::from(ATLAS_SIDE);
            ctx.clear_rect(0.0, 0.0, side, side);
        }
        self.placed.clear();
        self.cursor = (0.0, 0.0, 0.0);
    }
}
