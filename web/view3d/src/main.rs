//! The page's 3D view, in a worker: the page builds each display frame's 3D scene (the figures,
//! the ball and the camera's shot, `pitchside-scene3d`) from the same frame its 2D field
//! draws, and posts it here as a flat `Float32Array`; this paints it on the canvas the page
//! handed over (an `OffscreenCanvas`) with WebGL2 through three-d. The page starts the worker,
//! and so downloads this renderer, only when the 3D view is asked for.
//!
//! A frame is three draw calls whatever happens on the pitch (`paint`): the figures, the
//! ground and what is seen through, each shape placed on the CPU first, because a software
//! renderer (SwiftShader) charges most for each draw call (BENCHMARKS.md, "The 3D view").

// The renderer needs the browser's WebGL2: a native build (clippy, `cargo test`) has only this
// empty program.
#[cfg(target_arch = "wasm32")]
mod ground;
#[cfg(target_arch = "wasm32")]
mod paint;
#[cfg(target_arch = "wasm32")]
mod renderer;

fn main() {}
