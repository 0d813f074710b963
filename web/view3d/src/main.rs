//! The page's 3D view, in a worker: the page builds each display frame's 3D scene (the figures,
//! the ball and the camera's shot, `pitchside-scene3d`) from the same frame its 2D field
//! draws, and posts it here as a flat `Float32Array`; this paints it on the canvas the page
//! handed over (an `OffscreenCanvas`) with WebGL2 through three-d. The page starts the worker,
//! and so downloads this renderer, only when the 3D view is asked for.
//!
//! Everything is drawn from five meshes, each part of the picture one draw call for all its
//! instances (`paint`), so a frame costs nine draw calls whatever happens on the pitch, with
//! buffers kept from frame to frame and a shader that lights vertices, not pixels: what a
//! software renderer (SwiftShader) pays for most (BENCHMARKS.md, "The 3D view").

// The renderer needs the browser's WebGL2: a native build (clippy, `cargo test`) has only this
// empty program.
#[cfg(target_arch = "wasm32")]
mod ground;
#[cfg(target_arch = "wasm32")]
mod paint;
#[cfg(target_arch = "wasm32")]
mod renderer;

fn main() {}
