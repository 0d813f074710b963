//! The renderer: the scene's message in, a frame of WebGL2 out (three-d), and the pitch,
//! goals, stands and figures it is drawn from.

use pitchside_scene3d::camera::{FAR, NEAR};
use pitchside_scene3d::figures::Card;
use pitchside_scene3d::{decode, Figure, Lens, Scene3d};
use three_d::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

const LINE_WIDTH: f32 = 0.2;
const POST_RADIUS: f32 = 0.07;
const GOAL_HEIGHT: f32 = 2.44;
const GOAL_DEPTH: f32 = 2.0;
const HALF_LENGTH: f32 = 52.5;
const HALF_WIDTH: f32 = 34.0;
const BALL_RADIUS: f32 = 0.2;
const SKIN: Srgba = Srgba::new(222, 176, 140, 255);

/// A figure's parts, each an instanced mesh holding that part of every player.
struct Parts {
    legs: Gm<InstancedMesh, PhysicalMaterial>,
    shorts: Gm<InstancedMesh, PhysicalMaterial>,
    torso: Gm<InstancedMesh, PhysicalMaterial>,
    arms: Gm<InstancedMesh, PhysicalMaterial>,
    head: Gm<InstancedMesh, PhysicalMaterial>,
    face: Gm<InstancedMesh, PhysicalMaterial>,
    gloves: Gm<InstancedMesh, PhysicalMaterial>,
    cards: Gm<InstancedMesh, ColorMaterial>,
    flashes: Gm<InstancedMesh, ColorMaterial>,
    ball: Gm<InstancedMesh, PhysicalMaterial>,
    shadow: Gm<InstancedMesh, ColorMaterial>,
}

/// Parts of this frame: each part's transformations and colours.
#[derive(Default)]
struct Batch {
    t: Vec<Mat4>,
    c: Vec<Srgba>,
}

impl Batch {
    fn push(&mut self, t: Mat4, c: Srgba) {
        self.t.push(t);
        self.c.push(c);
    }

    fn instances(self) -> Instances {
        Instances {
            transformations: self.t,
            texture_transformations: None,
            colors: Some(self.c),
        }
    }
}

#[wasm_bindgen]
pub struct Renderer {
    canvas: web_sys::OffscreenCanvas,
    context: Context,
    pitch: Vec<Gm<InstancedMesh, ColorMaterial>>,
    goals: Gm<InstancedMesh, ColorMaterial>,
    nets: Gm<InstancedMesh, ColorMaterial>,
    stands: Gm<InstancedMesh, ColorMaterial>,
    goal_width: f32,
    parts: Parts,
    sun: DirectionalLight,
    sky: AmbientLight,
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
        // Lit with Blinn-Phong, not three-d's default Cook-Torrance: the figures need shape,
        // not physically based light, and a software renderer pays for every instruction.
        let physical = |c: &Context| {
            let mut m = PhysicalMaterial::new_opaque(
                c,
                &CpuMaterial {
                    albedo: Srgba::WHITE,
                    roughness: 0.8,
                    metallic: 0.0,
                    ..Default::default()
                },
            );
            m.lighting_model = LightingModel::Blinn;
            m
        };
        let unlit = || ColorMaterial {
            color: Srgba::WHITE,
            ..Default::default()
        };
        let see_through = || ColorMaterial {
            color: Srgba::WHITE,
            is_transparent: true,
            render_states: RenderStates {
                write_mask: WriteMask::COLOR,
                blend: Blend::TRANSPARENCY,
                ..Default::default()
            },
            ..unlit()
        };
        let mesh = |m: &CpuMesh| InstancedMesh::new(&context, &Instances::default(), m);
        let cylinder = CpuMesh::cylinder(12);
        let cube = CpuMesh::cube();
        // Heads and gloves are a few pixels across from the stand: fewer triangles cost a
        // software renderer less and show no difference.
        let sphere = CpuMesh::sphere(8);
        let square = CpuMesh::square();
        let circle = CpuMesh::circle(24);
        let parts = Parts {
            legs: Gm::new(mesh(&cylinder), physical(&context)),
            shorts: Gm::new(mesh(&cube), physical(&context)),
            torso: Gm::new(mesh(&cube), physical(&context)),
            arms: Gm::new(mesh(&cube), physical(&context)),
            head: Gm::new(mesh(&sphere), physical(&context)),
            face: Gm::new(mesh(&cube), physical(&context)),
            gloves: Gm::new(mesh(&sphere), physical(&context)),
            cards: Gm::new(mesh(&cube), unlit()),
            flashes: Gm::new(mesh(&circle), see_through()),
            ball: Gm::new(mesh(&CpuMesh::sphere(10)), physical(&context)),
            shadow: Gm::new(mesh(&circle), see_through()),
        };
        let mut grass = Gm::new(mesh(&square), unlit());
        grass.set_instances(&grass_instances());
        let mut lines = Gm::new(mesh(&square), unlit());
        lines.set_instances(&line_instances());
        // The goals, boards and stands unlit: large on screen behind play, where lighting
        // would cost a software renderer most and show least (the tiers' greys are their own).
        let goals = Gm::new(mesh(&cylinder), unlit());
        let mut stands = Gm::new(mesh(&cube), unlit());
        stands.set_instances(&stand_instances());
        let nets = Gm::new(mesh(&square), see_through());
        let sun = DirectionalLight::new(&context, 2.2, Srgba::WHITE, vec3(-0.35, -1.0, -0.45));
        let sky = AmbientLight::new(&context, 0.55, Srgba::WHITE);
        let mut r = Renderer {
            canvas,
            context,
            pitch: vec![grass, lines],
            goals,
            nets,
            stands,
            goal_width: 0.0,
            parts,
            sun,
            sky,
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
        let mut objects: Vec<&dyn Object> = Vec::new();
        for g in &self.pitch {
            objects.push(g);
        }
        objects.push(&self.goals);
        objects.push(&self.stands);
        for part in [
            &p.legs, &p.shorts, &p.torso, &p.arms, &p.head, &p.face, &p.gloves, &p.ball,
        ] {
            if part.instance_count() > 0 {
                objects.push(part);
            }
        }
        for part in [&p.cards, &p.shadow, &p.flashes] {
            if part.instance_count() > 0 {
                objects.push(part);
            }
        }
        objects.push(&self.nets);
        target
            .clear(ClearState::color_and_depth(0.13, 0.2, 0.16, 1.0, 1.0))
            .render(camera, objects, &[&self.sun, &self.sky]);
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
    fn set_goals(&mut self, goal_width: f32) {
        self.goal_width = goal_width;
        let half = goal_width / 2.0;
        let mut posts = Batch::default();
        let mut nets = Batch::default();
        let white = Srgba::WHITE;
        let net = Srgba::new(240, 240, 240, 45);
        for s in [-1.0f32, 1.0] {
            let x = s * HALF_LENGTH;
            for z in [-half, half] {
                posts.push(upright(x, z, GOAL_HEIGHT, POST_RADIUS), white);
            }
            // The crossbar, from post to post.
            posts.push(
                Mat4::from_translation(vec3(x, GOAL_HEIGHT, -half))
                    * Mat4::from_angle_y(degrees(-90.0))
                    * Mat4::from_nonuniform_scale(goal_width, POST_RADIUS, POST_RADIUS),
                white,
            );
            let back = x + s * GOAL_DEPTH;
            let mid = x + s * GOAL_DEPTH / 2.0;
            // Back, roof and sides of the net.
            nets.push(
                Mat4::from_translation(vec3(back, GOAL_HEIGHT / 2.0, 0.0))
                    * Mat4::from_angle_y(degrees(90.0))
                    * Mat4::from_nonuniform_scale(half, GOAL_HEIGHT / 2.0, 1.0),
                net,
            );
            nets.push(
                Mat4::from_translation(vec3(mid, GOAL_HEIGHT, 0.0))
                    * Mat4::from_angle_x(degrees(-90.0))
                    * Mat4::from_nonuniform_scale(GOAL_DEPTH / 2.0, half, 1.0),
                net,
            );
            for z in [-half, half] {
                nets.push(
                    Mat4::from_translation(vec3(mid, GOAL_HEIGHT / 2.0, z))
                        * Mat4::from_nonuniform_scale(GOAL_DEPTH / 2.0, GOAL_HEIGHT / 2.0, 1.0),
                    net,
                );
            }
        }
        self.goals.set_instances(&posts.instances());
        self.nets.set_instances(&nets.instances());
    }

    fn set_figures(&mut self, scene: &Scene3d) {
        let mut legs = Batch::default();
        let mut shorts = Batch::default();
        let mut torso = Batch::default();
        let mut arms = Batch::default();
        let mut head = Batch::default();
        let mut face = Batch::default();
        let mut gloves = Batch::default();
        let mut cards = Batch::default();
        let mut flashes = Batch::default();
        for f in &scene.figures {
            let kit = Srgba::new(f.kit[0], f.kit[1], f.kit[2], 255);
            let dark = shade(f.kit, 0.3);
            let base = body_frame(f);
            for side in [-1.0f32, 1.0] {
                legs.push(
                    base * Mat4::from_translation(vec3(0.0, 0.0, side * 0.11))
                        * Mat4::from_angle_z(degrees(90.0))
                        * Mat4::from_nonuniform_scale(0.86, 0.075, 0.075),
                    shade(f.kit, 0.75),
                );
                arms.push(
                    base * Mat4::from_translation(vec3(0.0, 1.3, side * 0.29))
                        * Mat4::from_nonuniform_scale(0.06, 0.26, 0.06),
                    kit,
                );
                if f.goalie {
                    gloves.push(
                        base * Mat4::from_translation(vec3(0.0, 1.02, side * 0.29))
                            * Mat4::from_scale(0.08),
                        Srgba::WHITE,
                    );
                }
            }
            shorts.push(
                base * Mat4::from_translation(vec3(0.0, 0.98, 0.0))
                    * Mat4::from_nonuniform_scale(0.13, 0.13, 0.2),
                dark,
            );
            torso.push(
                base * Mat4::from_translation(vec3(0.0, 1.34, 0.0))
                    * Mat4::from_nonuniform_scale(0.13, 0.24, 0.23),
                kit,
            );
            // The head turned by the neck; the visor shows where he looks.
            let neck = base
                * Mat4::from_translation(vec3(0.0, 1.74, 0.0))
                * Mat4::from_angle_y(degrees(-f.neck as f32));
            head.push(neck * Mat4::from_scale(0.13), SKIN);
            face.push(
                neck * Mat4::from_translation(vec3(0.11, 0.02, 0.0))
                    * Mat4::from_nonuniform_scale(0.04, 0.035, 0.09),
                Srgba::new(30, 30, 30, 255),
            );
            if let Some(card) = f.card {
                let colour = match card {
                    Card::Yellow => Srgba::new(250, 220, 20, 255),
                    Card::Red => Srgba::new(230, 30, 30, 255),
                };
                cards.push(
                    Mat4::from_translation(vec3(f.x as f32, 2.35, f.y as f32))
                        * Mat4::from_nonuniform_scale(0.16, 0.22, 0.03),
                    colour,
                );
            }
            if f.kick || f.tackle {
                flashes.push(
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
        let b = scene.ball;
        let lift = b.height as f32;
        let mut ball = Batch::default();
        ball.push(
            Mat4::from_translation(vec3(b.x as f32, BALL_RADIUS + lift, b.y as f32))
                * Mat4::from_scale(BALL_RADIUS),
            Srgba::WHITE,
        );
        let mut shadow = Batch::default();
        shadow.push(
            Mat4::from_translation(vec3(
                b.x as f32 + lift * 0.35,
                0.02,
                b.y as f32 + lift * 0.45,
            )) * Mat4::from_angle_x(degrees(-90.0))
                * Mat4::from_scale(BALL_RADIUS * (1.1 + lift * 0.05)),
            Srgba::new(0, 0, 0, 110),
        );
        let p = &mut self.parts;
        p.legs.set_instances(&legs.instances());
        p.shorts.set_instances(&shorts.instances());
        p.torso.set_instances(&torso.instances());
        p.arms.set_instances(&arms.instances());
        p.head.set_instances(&head.instances());
        p.face.set_instances(&face.instances());
        p.gloves.set_instances(&gloves.instances());
        p.cards.set_instances(&cards.instances());
        p.flashes.set_instances(&flashes.instances());
        p.ball.set_instances(&ball.instances());
        p.shadow.set_instances(&shadow.instances());
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

/// A vertical cylinder standing at `(x, z)`.
fn upright(x: f32, z: f32, height: f32, radius: f32) -> Mat4 {
    Mat4::from_translation(vec3(x, 0.0, z))
        * Mat4::from_angle_z(degrees(90.0))
        * Mat4::from_nonuniform_scale(height, radius, radius)
}

/// A flat rectangle on the ground (just above it, `lift`), centred at `(x, z)`, `half_x` by
/// `half_z` metres, turned by `angle` degrees.
fn flat(x: f32, z: f32, half_x: f32, half_z: f32, angle: f32, lift: f32) -> Mat4 {
    Mat4::from_translation(vec3(x, lift, z))
        * Mat4::from_angle_y(degrees(-angle))
        * Mat4::from_angle_x(degrees(-90.0))
        * Mat4::from_nonuniform_scale(half_x, half_z, 1.0)
}

/// Advertising boards round three sides (the main stand's side stays open for its camera) and
/// three tiers of the far stand: what tells a viewer where the pitch ends.
fn stand_instances() -> Instances {
    let mut b = Batch::default();
    let boards = [Srgba::new(30, 60, 120, 255), Srgba::new(20, 110, 120, 255)];
    for i in 0..12 {
        let x = -60.0 + 10.0 * i as f32 + 5.0;
        b.push(
            Mat4::from_translation(vec3(x, 0.45, -(HALF_WIDTH + 4.5)))
                * Mat4::from_nonuniform_scale(4.9, 0.45, 0.05),
            boards[i % 2],
        );
    }
    for s in [-1.0f32, 1.0] {
        for i in 0..7 {
            let z = -35.0 + 10.0 * i as f32 + 5.0;
            b.push(
                Mat4::from_translation(vec3(s * (HALF_LENGTH + 6.0), 0.45, z))
                    * Mat4::from_nonuniform_scale(0.05, 0.45, 4.9),
                boards[i % 2],
            );
        }
    }
    for (k, (z, h)) in [(-46.0f32, 2.0f32), (-52.0, 5.0), (-58.0, 8.0)]
        .into_iter()
        .enumerate()
    {
        let grey = 52 + 10 * k as u8;
        b.push(
            Mat4::from_translation(vec3(0.0, h / 2.0, z))
                * Mat4::from_nonuniform_scale(75.0, h / 2.0, 3.0),
            Srgba::new(grey, grey + 6, grey + 14, 255),
        );
    }
    b.instances()
}

/// The grass: a dark surround and the pitch mown in twelve stripes.
fn grass_instances() -> Instances {
    let mut b = Batch::default();
    // The mown stripes over the field and its run-off, and the plain grass around them in four
    // pieces that do not overlap them: a software renderer pays for every pixel drawn twice.
    let stripes = 12;
    let (half_x, half_z) = (HALF_LENGTH + 5.0, HALF_WIDTH + 4.0);
    let (outer_x, outer_z) = (80.0, 56.0);
    let w = half_x * 2.0 / stripes as f32;
    for i in 0..stripes {
        let x = -half_x + w * (i as f32 + 0.5);
        let colour = if i % 2 == 0 {
            Srgba::new(58, 138, 66, 255)
        } else {
            Srgba::new(51, 126, 59, 255)
        };
        b.push(flat(x, 0.0, w / 2.0, half_z, 0.0, 0.0), colour);
    }
    let plain = Srgba::new(38, 96, 48, 255);
    let band = (outer_z - half_z) / 2.0;
    for side in [-1.0, 1.0] {
        // Beyond the touch lines, the whole length; beyond the goal lines, between those.
        b.push(
            flat(0.0, side * (half_z + band), outer_x, band, 0.0, 0.0),
            plain,
        );
        let end = (outer_x - half_x) / 2.0;
        b.push(
            flat(side * (half_x + end), 0.0, end, half_z, 0.0, 0.0),
            plain,
        );
    }
    b.instances()
}

/// The pitch's lines: touch and goal lines, halfway line, areas, centre circle, penalty
/// arcs, penalty and centre spots.
fn line_instances() -> Instances {
    let mut b = Batch::default();
    let white = Srgba::new(245, 245, 245, 255);
    let lw = LINE_WIDTH / 2.0;
    let lift = 0.01;
    let segment = |b: &mut Batch, (x0, z0): (f32, f32), (x1, z1): (f32, f32)| {
        let (dx, dz) = (x1 - x0, z1 - z0);
        let len = (dx * dx + dz * dz).sqrt();
        let angle = dz.atan2(dx).to_degrees();
        b.push(
            flat(
                (x0 + x1) / 2.0,
                (z0 + z1) / 2.0,
                len / 2.0 + lw,
                lw,
                angle,
                lift,
            ),
            white,
        );
    };
    let (hl, hw) = (HALF_LENGTH, HALF_WIDTH);
    segment(&mut b, (-hl, -hw), (hl, -hw));
    segment(&mut b, (-hl, hw), (hl, hw));
    segment(&mut b, (-hl, -hw), (-hl, hw));
    segment(&mut b, (hl, -hw), (hl, hw));
    segment(&mut b, (0.0, -hw), (0.0, hw));
    for s in [-1.0f32, 1.0] {
        // Penalty area (16.5 m, 40.32 m wide) and goal area (5.5 m, 18.32 m wide).
        for (depth, half) in [(16.5f32, 20.16f32), (5.5, 9.16)] {
            let inner = s * (hl - depth);
            segment(&mut b, (s * hl, -half), (inner, -half));
            segment(&mut b, (s * hl, half), (inner, half));
            segment(&mut b, (inner, -half), (inner, half));
        }
        // The arc of the penalty area: the part of the 9.15 m circle round the spot outside.
        let spot = s * (hl - 11.0);
        let steps = 16;
        let reach = (5.5f32 / 9.15).acos();
        for i in 0..steps {
            let a0 = -reach + 2.0 * reach * i as f32 / steps as f32;
            let a1 = -reach + 2.0 * reach * (i + 1) as f32 / steps as f32;
            let p = |a: f32| (spot - s * 9.15 * a.cos(), 9.15 * a.sin());
            segment(&mut b, p(a0), p(a1));
        }
        b.push(flat(spot, 0.0, 0.15, 0.15, 0.0, lift), white);
    }
    let steps = 48;
    for i in 0..steps {
        let a0 = std::f32::consts::TAU * i as f32 / steps as f32;
        let a1 = std::f32::consts::TAU * (i + 1) as f32 / steps as f32;
        let p = |a: f32| (9.15 * a.cos(), 9.15 * a.sin());
        segment(&mut b, p(a0), p(a1));
    }
    b.push(flat(0.0, 0.0, 0.15, 0.15, 0.0, lift), white);
    b.instances()
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
