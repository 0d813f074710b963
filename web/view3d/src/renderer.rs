//! The renderer: the scene's message in, a frame of WebGL2 out (three-d), and the pitch,
//! goals, stands and figures it is drawn from.

use crate::ground;
use crate::paint::{Batch, Look, Painter, Part, Placed, Shape};
use pitchside_scene3d::camera::{FAR, NEAR};
use pitchside_scene3d::figures::Card;
use pitchside_scene3d::{decode, Figure, Lens, Scene3d};
use three_d::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

const BALL_RADIUS: f32 = 0.2;
const SKIN: Srgba = Srgba::new(222, 176, 140, 255);

/// The shapes everything is made of.
struct Shapes {
    cylinder: Shape,
    cube: Shape,
    sphere: Shape,
    square: Shape,
    circle: Shape,
}

/// A frame's three draw calls.
struct Parts {
    /// The figures and the ball, lit.
    figures: Part,
    /// The grass, the lines, the stands and the goals' frames.
    ground: Part,
    /// The nets, the ball's shadow and the kick and tackle flashes.
    see_through: Part,
}

/// A frame's figures by part, before they are placed.
#[derive(Default)]
struct Batches {
    legs: Batch,
    shorts: Batch,
    torso: Batch,
    arms: Batch,
    head: Batch,
    face: Batch,
    gloves: Batch,
    cards: Batch,
    flashes: Batch,
    ball: Batch,
    shadow: Batch,
}

/// What is placed on the CPU for the parts, kept so that a frame allocates nothing once the
/// vectors have grown.
struct Scratch {
    batches: Batches,
    figures: Placed,
    see_through: Placed,
    /// The nets, placed with the goals.
    nets: Placed,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            batches: Batches::default(),
            figures: Placed::new(Look::Lit),
            see_through: Placed::new(Look::SeeThrough),
            nets: Placed::new(Look::SeeThrough),
        }
    }
}

#[wasm_bindgen]
pub struct Renderer {
    canvas: web_sys::OffscreenCanvas,
    context: Context,
    painter: Painter,
    shapes: Shapes,
    parts: Parts,
    scratch: Scratch,
    goal_width: f32,
    /// The last frame's message, painted again for [`Renderer::pixels`].
    last: Vec<f32>,
    /// What draws: the GPU's name, or SwiftShader's.
    renderer: String,
    /// The texture and depth [`Renderer::draw_offscreen`] paints into, made at the first call.
    offscreen: Option<(Texture2D, DepthTexture2D)>,
}

fn js(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

#[wasm_bindgen]
impl Renderer {
    /// Takes the canvas the page handed over; fails, saying so, where WebGL2 is missing.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: web_sys::OffscreenCanvas) -> Result<Renderer, JsValue> {
        let renderer = renderer_name();
        // Multisampling costs a software renderer (SwiftShader) thirty times the frame
        // (BENCHMARKS.md, "The 3D view"); a GPU does it for almost nothing.
        let software = renderer.contains("SwiftShader") || renderer.contains("llvmpipe");
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"antialias".into(), &(!software).into())?;
        let gl = canvas
            .get_context_with_context_options("webgl2", &options)?
            .ok_or_else(|| js("this browser has no WebGL2"))?
            .dyn_into::<web_sys::WebGl2RenderingContext>()?;
        let gl = three_d::context::Context::from_webgl2_context(gl);
        // three-d takes the GL context in an `Arc`; a worker has the one thread anyway.
        #[allow(clippy::arc_with_non_send_sync)]
        let gl = std::sync::Arc::new(gl);
        let context = Context::from_gl_context(gl).map_err(js)?;
        let painter = Painter::new(&context).map_err(js)?;
        // Heads and gloves are a few pixels across from the stand: fewer triangles cost a
        // software renderer less and show no difference.
        let shapes = Shapes {
            cylinder: Shape::of(&CpuMesh::cylinder(10)),
            cube: Shape::of(&CpuMesh::cube()),
            sphere: Shape::of(&CpuMesh::sphere(6)),
            square: Shape::of(&CpuMesh::square()),
            circle: Shape::of(&CpuMesh::circle(24)),
        };
        let parts = Parts {
            figures: Part::new(&context, Look::Lit),
            ground: Part::new(&context, Look::Ground),
            see_through: Part::new(&context, Look::SeeThrough),
        };
        let mut r = Renderer {
            canvas,
            context,
            painter,
            shapes,
            parts,
            scratch: Scratch::default(),
            goal_width: 0.0,
            last: Vec::new(),
            renderer,
            offscreen: None,
        };
        r.set_goals(14.02);
        Ok(r)
    }

    /// Paints one frame: `message` is what `pitchside_scene3d::encode` made of the scene.
    pub fn draw(&mut self, message: &[f32]) -> Result<(), JsValue> {
        let (w, h, camera) = self.prepare(message)?;
        if self.canvas.width() != w || self.canvas.height() != h {
            self.canvas.set_width(w);
            self.canvas.set_height(h);
        }
        let target = RenderTarget::screen(&self.context, w, h);
        self.render(&target, &camera);
        Ok(())
    }

    /// Paints one frame into a texture of the frame's size, not the canvas, and reads one
    /// pixel of it back: the renderer's own cost, without the browser's compositing of the
    /// canvas (the benchmark).
    pub fn draw_offscreen(&mut self, message: &[f32]) -> Result<(), JsValue> {
        let (w, h, camera) = self.prepare(message)?;
        if self
            .offscreen
            .as_ref()
            .map(|(c, _)| (c.width(), c.height()))
            != Some((w, h))
        {
            let color = Texture2D::new_empty::<[u8; 4]>(
                &self.context,
                w,
                h,
                Interpolation::Nearest,
                Interpolation::Nearest,
                None,
                Wrapping::ClampToEdge,
                Wrapping::ClampToEdge,
            );
            let depth = DepthTexture2D::new::<f32>(
                &self.context,
                w,
                h,
                Wrapping::ClampToEdge,
                Wrapping::ClampToEdge,
            );
            self.offscreen = Some((color, depth));
        }
        let Some((color, depth)) = &self.offscreen else {
            return Ok(());
        };
        let target = RenderTarget::new(color.as_color_target(None), depth.as_depth_target());
        self.render(&target, &camera);
        let one = ScissorBox {
            x: 0,
            y: 0,
            width: 1,
            height: 1,
        };
        let _: Vec<[u8; 4]> = target.read_color_partially(one);
        Ok(())
    }

    /// Reads the scene and sets every instance for it; the canvas size and the camera.
    fn prepare(&mut self, message: &[f32]) -> Result<(u32, u32, Camera), JsValue> {
        let scene = decode(message).map_err(js)?;
        self.last.clear();
        self.last.extend_from_slice(message);
        let (w, h) = (
            (scene.width * scene.ratio).round().max(1.0) as u32,
            (scene.height * scene.ratio).round().max(1.0) as u32,
        );
        if (scene.goal_width as f32 - self.goal_width).abs() > 1e-3 {
            self.set_goals(scene.goal_width as f32);
        }
        self.set_figures(&scene);
        Ok((w, h, camera_of(&scene, w, h)))
    }

    fn render(&self, target: &RenderTarget<'_>, camera: &Camera) {
        let p = &self.parts;
        // Nearest first, so that the depth test spares a software renderer the grass behind
        // the figures; what is seen through last.
        let order = [&p.figures, &p.ground, &p.see_through];
        let _ = target
            .clear(ClearState::color_and_depth(0.13, 0.2, 0.16, 1.0, 1.0))
            .write::<CoreError>(|| {
                for part in order {
                    self.painter.draw(camera, part);
                }
                Ok(())
            });
    }

    /// What draws the 3D view, as WebGL names it (a GPU, or SwiftShader in software).
    pub fn renderer(&self) -> String {
        self.renderer.clone()
    }

    /// Waits until the pixels of what was drawn are there (for timing a frame): reading one
    /// pixel back makes the GPU, or SwiftShader, finish the frame. (WebGL's own `finish`
    /// returned after about a millisecond at any canvas size in SwiftShader, before the
    /// pixels were there: BENCHMARKS.md, "The 3D view".)
    pub fn finish(&self) {
        let one = ScissorBox {
            x: 0,
            y: 0,
            width: 1,
            height: 1,
        };
        let (w, h) = (self.canvas.width(), self.canvas.height());
        let _: Vec<[u8; 4]> = RenderTarget::screen(&self.context, w, h).read_color_partially(one);
    }

    /// The last frame painted again and read back: its width and height (little-endian `u32`
    /// each), then its RGBA pixels, top row first. For the browser tests.
    pub fn pixels(&mut self) -> Result<Vec<u8>, JsValue> {
        let last = std::mem::take(&mut self.last);
        self.draw(&last)?;
        let (w, h) = (self.canvas.width(), self.canvas.height());
        let rgba: Vec<[u8; 4]> = RenderTarget::screen(&self.context, w, h).read_color();
        let mut out = Vec::with_capacity(8 + rgba.len() * 4);
        out.extend(w.to_le_bytes());
        out.extend(h.to_le_bytes());
        out.extend(rgba.into_iter().flatten());
        Ok(out)
    }
}

impl Renderer {
    /// Places the ground again for a goal `goal_width` wide (and the nets).
    fn set_goals(&mut self, goal_width: f32) {
        self.goal_width = goal_width;
        let (posts, nets) = ground::goals(goal_width);
        let sh = &self.shapes;
        let mut placed = Placed::new(Look::Ground);
        placed.add(&sh.square, &ground::grass());
        placed.add_lines(&sh.square, &ground::lines());
        placed.add(&sh.cube, &ground::stands());
        placed.add(&sh.cylinder, &posts);
        self.parts.ground.set(&placed);
        self.scratch.nets.clear();
        self.scratch.nets.add(&sh.square, &nets);
    }

    fn set_figures(&mut self, scene: &Scene3d) {
        let b = &mut self.scratch.batches;
        for batch in [
            &mut b.legs,
            &mut b.shorts,
            &mut b.torso,
            &mut b.arms,
            &mut b.head,
            &mut b.face,
            &mut b.gloves,
            &mut b.cards,
            &mut b.flashes,
            &mut b.ball,
            &mut b.shadow,
        ] {
            batch.clear();
        }
        for f in &scene.figures {
            let kit = Srgba::new(f.kit[0], f.kit[1], f.kit[2], 255);
            let dark = shade(f.kit, 0.3);
            let base = body_frame(f);
            for side in [-1.0f32, 1.0] {
                b.legs.push(
                    base * Mat4::from_translation(vec3(0.0, 0.0, side * 0.11))
                        * Mat4::from_angle_z(degrees(90.0))
                        * Mat4::from_nonuniform_scale(0.86, 0.075, 0.075),
                    shade(f.kit, 0.75),
                );
                b.arms.push(
                    base * Mat4::from_translation(vec3(0.0, 1.3, side * 0.29))
                        * Mat4::from_nonuniform_scale(0.06, 0.26, 0.06),
                    kit,
                );
                if f.goalie {
                    b.gloves.push(
                        base * Mat4::from_translation(vec3(0.0, 1.02, side * 0.29))
                            * Mat4::from_scale(0.08),
                        Srgba::WHITE,
                    );
                }
            }
            b.shorts.push(
                base * Mat4::from_translation(vec3(0.0, 0.98, 0.0))
                    * Mat4::from_nonuniform_scale(0.13, 0.13, 0.2),
                dark,
            );
            b.torso.push(
                base * Mat4::from_translation(vec3(0.0, 1.34, 0.0))
                    * Mat4::from_nonuniform_scale(0.13, 0.24, 0.23),
                kit,
            );
            // The head turned by the neck; the visor shows where he looks.
            let neck = base
                * Mat4::from_translation(vec3(0.0, 1.74, 0.0))
                * Mat4::from_angle_y(degrees(-f.neck as f32));
            b.head.push(neck * Mat4::from_scale(0.13), SKIN);
            b.face.push(
                neck * Mat4::from_translation(vec3(0.11, 0.02, 0.0))
                    * Mat4::from_nonuniform_scale(0.04, 0.035, 0.09),
                Srgba::new(30, 30, 30, 255),
            );
            if let Some(card) = f.card {
                let colour = match card {
                    Card::Yellow => Srgba::new(250, 220, 20, 255),
                    Card::Red => Srgba::new(230, 30, 30, 255),
                };
                b.cards.push(
                    Mat4::from_translation(vec3(f.x as f32, 2.35, f.y as f32))
                        * Mat4::from_nonuniform_scale(0.16, 0.22, 0.03),
                    colour,
                );
            }
            if f.kick || f.tackle {
                b.flashes.push(
                    Mat4::from_translation(vec3(f.x as f32, 0.03, f.y as f32))
                        * Mat4::from_angle_x(degrees(-90.0))
                        * Mat4::from_scale(if f.kick { 0.9 } else { 1.3 }),
                    if f.kick {
                        Srgba::new(255, 250, 190, 150)
                    } else {
                        Srgba::new(255, 140, 60, 130)
                    },
                );
            }
        }
        let ball = scene.ball;
        let lift = ball.height as f32;
        b.ball.push(
            Mat4::from_translation(vec3(ball.x as f32, BALL_RADIUS + lift, ball.y as f32))
                * Mat4::from_scale(BALL_RADIUS),
            Srgba::WHITE,
        );
        b.shadow.push(
            Mat4::from_translation(vec3(
                ball.x as f32 + lift * 0.35,
                0.02,
                ball.y as f32 + lift * 0.45,
            )) * Mat4::from_angle_x(degrees(-90.0))
                * Mat4::from_scale(BALL_RADIUS * (1.1 + lift * 0.05)),
            Srgba::new(0, 0, 0, 110),
        );
        let (sh, sc) = (&self.shapes, &mut self.scratch);
        let b = &sc.batches;
        sc.figures.clear();
        sc.figures.add(&sh.cylinder, &b.legs);
        for part in [&b.shorts, &b.torso, &b.arms, &b.face] {
            sc.figures.add(&sh.cube, part);
        }
        for part in [&b.head, &b.gloves, &b.ball] {
            sc.figures.add(&sh.sphere, part);
        }
        // The marks on the grass before the nets over them; the cards in their own colours,
        // not lit: a card must read as yellow or red from any side.
        sc.see_through.clear();
        sc.see_through.add(&sh.cube, &b.cards);
        sc.see_through.add(&sh.circle, &b.shadow);
        sc.see_through.add(&sh.circle, &b.flashes);
        sc.see_through.append(&sc.nets);
        self.parts.figures.set(&sc.figures);
        self.parts.see_through.set(&sc.see_through);
    }
}

/// The renderer WebGL2 would use here, asked of a canvas of one pixel before the real one is
/// made (its multisampling must be chosen when it is made). Empty if it cannot say.
fn renderer_name() -> String {
    let probe = || -> Option<String> {
        let canvas = web_sys::OffscreenCanvas::new(1, 1).ok()?;
        let gl = canvas
            .get_context("webgl2")
            .ok()??
            .dyn_into::<web_sys::WebGl2RenderingContext>()
            .ok()?;
        // UNMASKED_RENDERER_WEBGL where the extension is offered, else RENDERER.
        let unmasked = gl
            .get_extension("WEBGL_debug_renderer_info")
            .ok()
            .flatten()
            .and_then(|_| gl.get_parameter(0x9246).ok())
            .and_then(|v| v.as_string());
        unmasked.or_else(|| {
            gl.get_parameter(web_sys::WebGl2RenderingContext::RENDERER)
                .ok()?
                .as_string()
        })
    };
    probe().unwrap_or_default()
}

/// A figure's own frame: at his feet, facing his body's direction along `+x` (the field's
/// angles turn toward `+y`, which is the world's `+z`), leaning into a tackle.
fn body_frame(f: &Figure) -> Mat4 {
    let place = Mat4::from_translation(vec3(f.x as f32, 0.0, f.y as f32))
        * Mat4::from_angle_y(degrees(-f.body as f32));
    if f.tackle {
        place * Mat4::from_angle_z(degrees(-35.0))
    } else {
        place
    }
}

/// `kit` darkened (`k` below 1) as sRGB.
fn shade(kit: [u8; 3], k: f32) -> Srgba {
    let c = |v: u8| (f32::from(v) * k).round().clamp(0.0, 255.0) as u8;
    Srgba::new(c(kit[0]), c(kit[1]), c(kit[2]), 255)
}

fn camera_of(scene: &Scene3d, w: u32, h: u32) -> Camera {
    let s = &scene.shot;
    let v = |p: [f64; 3]| vec3(p[0] as f32, p[1] as f32, p[2] as f32);
    let viewport = Viewport::new_at_origo(w, h);
    match s.lens {
        Lens::Perspective { fov_y } => Camera::new_perspective(
            viewport,
            v(s.eye),
            v(s.target),
            v(s.up),
            degrees(fov_y as f32),
            NEAR as f32,
            FAR as f32,
        ),
        // three-d's orthographic height is in units of the camera's distance to its target.
        Lens::Orthographic { height } => Camera::new_orthographic(
            viewport,
            v(s.eye),
            v(s.target),
            v(s.up),
            (height
                / pitchside_scene3d::math::length(pitchside_scene3d::math::sub(s.eye, s.target))
                    .max(1e-6)) as f32,
            NEAR as f32,
            FAR as f32,
        ),
    }
}
