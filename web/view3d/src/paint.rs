//! What a frame is drawn with: three draw calls, of geometry placed on the CPU, by a small
//! shader of our own.
//!
//! A software renderer (SwiftShader, where a stream's viewer has no GPU to spare) pays most
//! for what a GPU does for nothing: about 0.8 ms for every draw call and more for every
//! instance of an instanced one, whatever its size on screen (BENCHMARKS.md, "The 3D view").
//! So the picture is not drawn part by part: every shape is placed and coloured here, and
//! the frame is three draws: the figures (lit), the ground (the grass, lines, stands and
//! goals, made once) and what is seen through (nets, the ball's shadow, kick and tackle
//! flashes). The light is worked out per vertex, so a pixel costs a copy of its colour.

use three_d::*;

/// The vertex shader. `LIT`: lit by the sun through the vertex's normal; `WIDEN`: lines
/// widened on screen where they are thinner than [`LINE_PIXELS`] (a vertex with no `along`
/// is not part of a line). Unlit, every triangle has one colour, and `flat` spares each pixel
/// the blending of its vertices' colours.
const VERTEX: &str = r#"
uniform mat4 viewProjection;
in vec3 position;
in vec4 colour;
#ifdef LIT
out vec4 shade;
#else
flat out vec4 shade;
#endif

#ifdef LIT
uniform vec3 sun;
in vec3 normal;
#endif

#ifdef WIDEN
uniform float minWidth;
uniform vec2 viewport;
in vec3 centre;
in vec3 along;

vec4 clip(vec3 world) {
    return viewProjection * vec4(world, 1.0);
}

vec2 pixels(vec4 c) {
    return c.xy / c.w * 0.5 * viewport;
}
#endif

void main() {
    vec3 world = position;
#ifdef WIDEN
    // A line far away, or seen at a slant, is narrower than a pixel on screen and would
    // break into dashes: it is widened across itself until it is minWidth pixels thick,
    // measured square to its direction on screen.
    vec4 c0 = clip(centre);
    vec4 c1 = clip(centre + along);
    vec4 c2 = clip(world);
    // Only in front of the camera: behind it the pixels mean nothing.
    if (dot(along, along) > 0.0 && min(c0.w, min(c1.w, c2.w)) > 1e-3) {
        vec2 at = pixels(c0);
        vec2 dir = pixels(c1) - at;
        vec2 across = pixels(c2) - at;
        float len = length(dir);
        float half_width = len > 0.0 ? abs(dir.x * across.y - dir.y * across.x) / len
                                     : length(across);
        float need = 0.5 * minWidth;
        if (half_width > 1e-3 && half_width < need) {
            world = centre + (world - centre) * min(need / half_width, 40.0);
        }
    }
#endif
#ifdef LIT
    float light = 0.6 + 0.55 * max(dot(normal, sun), 0.0);
    shade = vec4(min(colour.rgb * light, vec3(1.0)), colour.a);
#else
    shade = colour;
#endif
    gl_Position = viewProjection * vec4(world, 1.0);
}
"#;

const FRAGMENT: &str = r#"
#ifdef LIT
in vec4 shade;
#else
flat in vec4 shade;
#endif
layout (location = 0) out vec4 outColor;
void main() {
    outColor = shade;
}
"#;

/// Where the light comes from (towards the sun): high, from behind the main stand's left.
const SUN: [f32; 3] = [0.35, 1.0, 0.45];

/// The narrowest a line of the pitch is drawn: without multisampling a thinner one breaks
/// into dashes far from the camera.
const LINE_PIXELS: f32 = 1.5;

/// A shape's vertices, normals and triangles, in its own frame.
pub struct Shape {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    indices: Vec<u32>,
}

impl Shape {
    pub fn of(cpu: &CpuMesh) -> Shape {
        let mut cpu = cpu.clone();
        if cpu.normals.is_none() {
            cpu.compute_normals();
        }
        let positions = cpu.positions.to_f32();
        let normals = cpu
            .normals
            .clone()
            .unwrap_or_else(|| vec![vec3(0.0, 1.0, 0.0); positions.len()]);
        let indices = cpu
            .indices
            .to_u32()
            .unwrap_or_else(|| (0..positions.len() as u32).collect());
        Shape {
            positions,
            normals,
            indices,
        }
    }
}

/// Where each copy of a shape goes (a model matrix) and its colour (sRGB).
#[derive(Default)]
pub struct Batch {
    t: Vec<Mat4>,
    c: Vec<Srgba>,
}

impl Batch {
    pub fn clear(&mut self) {
        self.t.clear();
        self.c.clear();
    }

    pub fn push(&mut self, t: Mat4, c: Srgba) {
        self.t.push(t);
        self.c.push(c);
    }
}

/// Geometry placed in the world, as one draw call of a [`Look`] takes it: the normals only
/// for a lit part, the lines' centres and directions only for the ground.
pub struct Placed {
    look: Look,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    colours: Vec<Vec4>,
    centres: Vec<Vec3>,
    alongs: Vec<Vec3>,
    indices: Vec<u32>,
}

impl Placed {
    pub fn new(look: Look) -> Placed {
        Placed {
            look,
            positions: Vec::new(),
            normals: Vec::new(),
            colours: Vec::new(),
            centres: Vec::new(),
            alongs: Vec::new(),
            indices: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.positions.clear();
        self.normals.clear();
        self.colours.clear();
        self.centres.clear();
        self.alongs.clear();
        self.indices.clear();
    }

    /// `shape` at every place of `batch`. Every shape here is turned and scaled along its own
    /// axes (boxes, cylinders scaled alike round their axis, spheres), so the model matrix
    /// turns its normals as they are.
    pub fn add(&mut self, shape: &Shape, batch: &Batch) {
        self.add_as(shape, batch, false);
    }

    /// The same for lines of the pitch: squares whose local `x` runs along the line, each
    /// vertex keeping the point of the line's middle it widens from and the line's direction.
    pub fn add_lines(&mut self, shape: &Shape, batch: &Batch) {
        self.add_as(shape, batch, true);
    }

    fn add_as(&mut self, shape: &Shape, batch: &Batch, lines: bool) {
        for (m, c) in batch.t.iter().zip(&batch.c) {
            let base = self.positions.len() as u32;
            let f = |v: u8| f32::from(v) / 255.0;
            let colour = vec4(f(c.r), f(c.g), f(c.b), f(c.a));
            let turn = Mat3::from_cols(m.x.truncate(), m.y.truncate(), m.z.truncate());
            for (p, n) in shape.positions.iter().zip(&shape.normals) {
                let world = (m * p.extend(1.0)).truncate();
                self.positions.push(world);
                self.colours.push(colour);
                match self.look {
                    Look::Lit => self.normals.push((turn * n).normalize()),
                    Look::Ground if lines => {
                        let centre = (m * vec4(p.x, 0.0, p.z, 1.0)).truncate();
                        self.centres.push(centre);
                        self.alongs
                            .push((m * vec4(p.x + 0.01, 0.0, p.z, 1.0)).truncate() - centre);
                    }
                    Look::Ground => {
                        self.centres.push(world);
                        self.alongs.push(vec3(0.0, 0.0, 0.0));
                    }
                    Look::SeeThrough => {}
                }
            }
            self.indices.extend(shape.indices.iter().map(|i| base + i));
        }
    }

    /// What [`Placed::add`] put here, and `other`'s after it (of the same look).
    pub fn append(&mut self, other: &Placed) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.colours.extend_from_slice(&other.colours);
        self.centres.extend_from_slice(&other.centres);
        self.alongs.extend_from_slice(&other.alongs);
        self.indices.extend(other.indices.iter().map(|i| base + i));
    }
}

/// How a part is drawn.
#[derive(Clone, Copy, PartialEq)]
pub enum Look {
    /// Lit by the sun: the figures and the ball.
    Lit,
    /// Its own colours, lines never narrower than [`LINE_PIXELS`]: the grass, lines, stands
    /// and goals.
    Ground,
    /// Its own colours, blended over what is behind: the nets, shadows and flashes.
    SeeThrough,
}

/// One draw call's geometry on the GPU, its buffers kept from frame to frame and refilled.
pub struct Part {
    look: Look,
    positions: VertexBuffer<Vec3>,
    normals: VertexBuffer<Vec3>,
    colours: VertexBuffer<Vec4>,
    centres: VertexBuffer<Vec3>,
    alongs: VertexBuffer<Vec3>,
    elements: ElementBuffer<u32>,
    count: u32,
}

impl Part {
    pub fn new(context: &Context, look: Look) -> Part {
        Part {
            look,
            positions: VertexBuffer::new(context),
            normals: VertexBuffer::new(context),
            colours: VertexBuffer::new(context),
            centres: VertexBuffer::new(context),
            alongs: VertexBuffer::new(context),
            elements: ElementBuffer::new(context),
            count: 0,
        }
    }

    /// Refills the part's buffers with `placed` (only what its look draws with).
    pub fn set(&mut self, placed: &Placed) {
        self.count = placed.indices.len() as u32;
        if self.count == 0 {
            return;
        }
        self.positions.fill(&placed.positions);
        self.colours.fill(&placed.colours);
        match self.look {
            Look::Lit => self.normals.fill(&placed.normals),
            Look::Ground => {
                self.centres.fill(&placed.centres);
                self.alongs.fill(&placed.alongs);
            }
            Look::SeeThrough => {}
        }
        self.elements.fill(&placed.indices);
    }
}

/// The three programs, one per [`Look`].
pub struct Painter {
    lit: Program,
    ground: Program,
    see_through: Program,
}

impl Painter {
    pub fn new(context: &Context) -> Result<Painter, CoreError> {
        let program = |defines: &str| {
            Program::from_source(
                context,
                &format!("{defines}{VERTEX}"),
                &format!("{defines}{FRAGMENT}"),
            )
        };
        Ok(Painter {
            lit: program("#define LIT\n")?,
            ground: program("#define WIDEN\n")?,
            see_through: program("")?,
        })
    }

    /// Draws `part` seen by `camera` (inside a render target's `write`).
    pub fn draw(&self, camera: &Camera, part: &Part) {
        if part.count == 0 {
            return;
        }
        let viewport = camera.viewport();
        let p = match part.look {
            Look::Lit => &self.lit,
            Look::Ground => &self.ground,
            Look::SeeThrough => &self.see_through,
        };
        p.use_uniform("viewProjection", camera.projection() * camera.view());
        p.use_vertex_attribute("position", &part.positions);
        p.use_vertex_attribute("colour", &part.colours);
        match part.look {
            Look::Lit => {
                p.use_uniform("sun", Vec3::from(SUN).normalize());
                p.use_vertex_attribute("normal", &part.normals);
            }
            Look::Ground => {
                p.use_uniform("minWidth", LINE_PIXELS);
                p.use_uniform(
                    "viewport",
                    vec2(viewport.width as f32, viewport.height as f32),
                );
                p.use_vertex_attribute("centre", &part.centres);
                p.use_vertex_attribute("along", &part.alongs);
            }
            Look::SeeThrough => {}
        }
        let states = if part.look == Look::SeeThrough {
            RenderStates {
                write_mask: WriteMask::COLOR,
                blend: Blend::TRANSPARENCY,
                ..Default::default()
            }
        } else {
            RenderStates::default()
        };
        p.draw_elements(states, viewport, &part.elements);
    }
}
