//! One display frame of the 3D view: what stands on the pitch and from where it is seen.

use crate::camera::Shot;
use crate::figures::{Ball3, Figure};

/// A frame of the 3D view: what to draw and from where.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene3d {
    pub figures: Vec<Figure>,
    pub ball: Ball3,
    pub shot: Shot,
    /// Canvas size in CSS pixels and the display's pixel ratio.
    pub width: f64,
    pub height: f64,
    pub ratio: f64,
    /// The goal width the log's server used (the posts stand at ± half of it).
    pub goal_width: f64,
}
