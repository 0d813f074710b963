//! What a scene is built from: the frame on screen, the one before it, settings, colours,
//! the selection and the view.

use super::agent::AgentOverlay;
use super::params::FieldParams;
use crate::field::View;
use crate::settings::{Colours, FieldSettings};
use rcss_formats::{Frame, Side};

/// What the scene is built from.
pub struct Input<'a> {
    /// The frame on screen; `None` draws the empty pitch.
    pub frame: Option<&'a Frame>,
    /// The frame moved from while interpolating, with `alpha` the share of the way done
    /// (0..1). `None` shows `frame` as it is.
    pub previous: Option<&'a Frame>,
    pub alpha: f64,
    /// Frames before `frame`, oldest first, for trails (only the last `trail_cycles` are read).
    pub history: &'a [Frame],
    pub params: &'a FieldParams,
    pub settings: &'a FieldSettings,
    pub colours: &'a Colours,
    pub selected: Option<(Side, u8)>,
    pub view: &'a View,
    /// The selected agent's drawings and beliefs, from its files.
    pub agent: Option<&'a AgentOverlay>,
    /// Canvas rectangles (CSS pixels, `[left, top, right, bottom]`) the page covers with its
    /// own controls: labels that can go elsewhere keep out of them.
    pub covered: &'a [[f64; 4]],
}
