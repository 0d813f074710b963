//! Pitch geometry in field coordinates (metres, origin at the centre spot, x to the right goal,
//! y downward as rcssserver sends it), and the one conversion to canvas pixels.

pub const PITCH_HALF_LENGTH: f64 = 52.5;
pub const PITCH_HALF_WIDTH: f64 = 34.0;
pub const PENALTY_AREA_LENGTH: f64 = 16.5;
pub const PENALTY_AREA_HALF_WIDTH: f64 = 20.16;
pub const GOAL_AREA_LENGTH: f64 = 5.5;
pub const GOAL_AREA_HALF_WIDTH: f64 = 9.16;
pub const GOAL_DEPTH: f64 = 2.44;
/// rcssserver's default `goal_width`; a log's `server_param` may say otherwise.
pub const DEFAULT_GOAL_WIDTH: f64 = 14.02;
pub const CENTRE_CIRCLE_RADIUS: f64 = 9.15;
pub const PENALTY_SPOT_DISTANCE: f64 = 11.0;
/// Room around the pitch that stays visible: rcssserver lets players wander up to 5 m past
/// the lines (they reach |y| = 39 at kick-ins), plus room for the player's body.
pub const MARGIN: f64 = 5.5;

/// Maps field coordinates to canvas pixels for a canvas of the given size.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub scale: f64,
    pub origin_x: f64,
    pub origin_y: f64,
}

impl View {
    pub fn fit(width: f64, height: f64) -> View {
        let scale = (width / (2.0 * (PITCH_HALF_LENGTH + MARGIN)))
            .min(height / (2.0 * (PITCH_HALF_WIDTH + MARGIN)));
        View {
            scale,
            origin_x: width / 2.0,
            origin_y: height / 2.0,
        }
    }

    pub fn canvas_from_field(&self, x: f64, y: f64) -> (f64, f64) {
        (
            self.origin_x + x * self.scale,
            self.origin_y + y * self.scale,
        )
    }

    pub fn pixels(&self, metres: f64) -> f64 {
        metres * self.scale
    }
}
