//! The page's 3D view, in a worker: the page builds each display frame's 3D scene (the figures,
//! the ball and the camera's shot, `pitchside-scene3d`) from the same frame its 2D field
//! draws, and posts it here as a flat `Float32Array`; this paints it on the canvas the page
//! handed over (an `OffscreenCanvas`) with WebGL2 through three-d. The page starts the worker,
//! and so downloads this renderer, only when the 3D view is asked for.
//!
//! Everything is drawn from a few instanced meshes (one per body part, one draw call each for
//! all 22 players), so a frame costs a dozen draw calls whatever happens on the pitch: that is
//! what keeps a software renderer (SwiftShader) within a 60 Hz frame (BENCHMARKS.md).

// The renderer needs the browser's WebGL2: a native build (clippy, `cargo test`) has only this
// empty program.
#[cfg(target_arch = "wasm32")]
mod renderer;

fn main() {}
