//! The match as a 3D scene for the page's 3D view: what stands on the pitch ([`figures`]),
//! where the camera is ([`camera`]), both together for one display frame ([`scene`]), and the
//! flat message the renderer paints from ([`message`]). Nothing here touches a browser or a GPU, so the cameras are tested natively
//! on real logs and the 2D and 3D views draw the same frame the page has chosen (interpolated
//! as the 2D field interpolates it).
//!
//! Coordinates: the world is metres with the field's `x` as its `x`, the field's `y` (downward
//! on the 2D field, as rcssserver sends it) as its `z`, and height as its `y`: a right-handed
//! frame in which a camera on the stand at `+z` sees the left team on the left, as the 2D
//! field shows it.

pub mod camera;
pub mod figures;
pub mod math;
pub mod message;
pub mod scene;

pub use camera::{CameraKind, Director, Lens, Look, Shot, TopView};
pub use figures::{Ball3, Figure};
pub use message::{decode, encode, DecodeError};
pub use scene::Scene3d;
