//! Pitch geometry in field coordinates (metres, origin at the centre spot, x to the right goal,
//! y downward as rcssserver sends it), the camera the user moves, and the one conversion between
//! field coordinates and canvas pixels ([`View`]).

use rcss_formats::params::field;

// The library's fixed pitch measures, as the f64 the canvas computes with.
pub const PITCH_HALF_LENGTH: f64 = field::HALF_LENGTH as f64;
pub const PITCH_HALF_WIDTH: f64 = field::HALF_WIDTH as f64;
pub const PENALTY_AREA_LENGTH: f64 = field::PENALTY_AREA_LENGTH as f64;
pub const PENALTY_AREA_HALF_WIDTH: f64 = field::PENALTY_AREA_WIDTH as f64 / 2.0;
pub const GOAL_AREA_LENGTH: f64 = field::GOAL_AREA_LENGTH as f64;
pub const GOAL_AREA_HALF_WIDTH: f64 = field::GOAL_AREA_WIDTH as f64 / 2.0;
pub const GOAL_DEPTH: f64 = field::GOAL_DEPTH as f64;
/// rcssserver's default `goal_width` (for the goal flags); a log's `server_param` may say
/// otherwise for the goals drawn.
pub const DEFAULT_GOAL_WIDTH: f64 = 14.02;
pub const CENTRE_CIRCLE_RADIUS: f64 = field::CENTER_CIRCLE_RADIUS as f64;
pub const PENALTY_SPOT_DISTANCE: f64 = field::PENALTY_SPOT_DISTANCE as f64;
pub const CORNER_ARC_RADIUS: f64 = field::CORNER_ARC_RADIUS as f64;
/// Room around the pitch that stays visible: rcssserver lets players wander up to 5 m past
/// the lines (they reach |y| = 39 at kick-ins), plus room for the player's body.
pub const MARGIN: f64 = 5.5;

/// Zoom limits, relative to the whole field fitting the canvas: below 1 only a little, so the
/// field cannot be lost; far enough in to see a player's 0.3 m body as a large disc.
pub const MIN_ZOOM: f64 = 0.5;
pub const MAX_ZOOM: f64 = 40.0;

/// What the camera keeps in the middle of the canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Follow {
    /// Nothing: the camera stays where the user put it.
    #[default]
    Off,
    Ball,
    /// The selected player (the ball when nobody is selected).
    Selected,
}

/// Where the user looks: how far zoomed in, at which field point, following what, and from
/// which side. Kept apart from the canvas size so a resize keeps what the user chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// 1 = the whole field fits the canvas.
    pub zoom: f64,
    /// Field point in the middle of the canvas (ignored while following).
    pub centre: (f64, f64),
    pub follow: Follow,
    /// Seen from the right team's side: the field turned by 180°, so the right team plays
    /// left to right (rcssmonitor's "reverse side").
    pub flipped: bool,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            zoom: 1.0,
            centre: (0.0, 0.0),
            follow: Follow::Off,
            flipped: false,
        }
    }
}

impl Camera {
    /// The whole field again, nothing followed; the side stays as chosen.
    pub fn fit(&mut self) {
        self.zoom = 1.0;
        self.centre = (0.0, 0.0);
        self.follow = Follow::Off;
    }

    /// Zooms by `factor`, keeping the field point under canvas pixel `at` where it is.
    pub fn zoom_at(&mut self, factor: f64, at: (f64, f64), view: &View) {
        let new_zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let before = view.field_from_canvas(at.0, at.1);
        let mut after_view = *view;
        after_view.scale = view.scale / self.zoom * new_zoom;
        let after = after_view.field_from_canvas(at.0, at.1);
        self.zoom = new_zoom;
        if self.follow == Follow::Off {
            self.centre = (
                view.centre.0 + before.0 - after.0,
                view.centre.1 + before.1 - after.1,
            );
            self.clamp_centre();
        }
    }

    /// Moves the view by a drag of `(dx, dy)` canvas pixels; stops following.
    pub fn pan_by(&mut self, dx: f64, dy: f64, view: &View) {
        let sign = if view.flipped { -1.0 } else { 1.0 };
        self.follow = Follow::Off;
        self.centre = (
            view.centre.0 - sign * dx / view.scale,
            view.centre.1 - sign * dy / view.scale,
        );
        self.clamp_centre();
    }

    /// Keeps the middle of the view over the field and its margin, so the pitch cannot be
    /// dragged out of sight.
    fn clamp_centre(&mut self) {
        self.centre.0 = self
            .centre
            .0
            .clamp(-PITCH_HALF_LENGTH - MARGIN, PITCH_HALF_LENGTH + MARGIN);
        self.centre.1 = self
            .centre
            .1
            .clamp(-PITCH_HALF_WIDTH - MARGIN, PITCH_HALF_WIDTH + MARGIN);
    }
}

/// Maps field coordinates to canvas pixels (CSS pixels; the painter scales for the display's
/// pixel ratio) for a canvas of the given size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Canvas pixels per metre.
    pub scale: f64,
    /// Field point at the middle of the canvas.
    pub centre: (f64, f64),
    pub width: f64,
    pub height: f64,
    pub flipped: bool,
}

impl View {
    /// Canvas pixels per metre at which the field and its margin just fit.
    pub fn fit_scale(width: f64, height: f64) -> f64 {
        (width / (2.0 * (PITCH_HALF_LENGTH + MARGIN)))
            .min(height / (2.0 * (PITCH_HALF_WIDTH + MARGIN)))
            .max(1e-3)
    }

    /// The whole field, centred.
    pub fn fit(width: f64, height: f64) -> View {
        View {
            scale: Self::fit_scale(width, height),
            centre: (0.0, 0.0),
            width,
            height,
            flipped: false,
        }
    }

    /// The view of `camera` on a canvas of this size; `target` is what a following camera
    /// centres on this frame.
    pub fn of_camera(camera: &Camera, width: f64, height: f64, target: Option<(f64, f64)>) -> View {
        let centre = match (camera.follow, target) {
            (Follow::Off, _) | (_, None) => camera.centre,
            (_, Some(t)) => t,
        };
        View {
            scale: Self::fit_scale(width, height) * camera.zoom,
            centre,
            width,
            height,
            flipped: camera.flipped,
        }
    }

    fn sign(&self) -> f64 {
        if self.flipped {
            -1.0
        } else {
            1.0
        }
    }

    pub fn canvas_from_field(&self, x: f64, y: f64) -> (f64, f64) {
        let s = self.sign() * self.scale;
        (
            self.width / 2.0 + (x - self.centre.0) * s,
            self.height / 2.0 + (y - self.centre.1) * s,
        )
    }

    pub fn field_from_canvas(&self, px: f64, py: f64) -> (f64, f64) {
        let s = self.sign() * self.scale;
        (
            self.centre.0 + (px - self.width / 2.0) / s,
            self.centre.1 + (py - self.height / 2.0) / s,
        )
    }

    /// A direction in field coordinates (radians, y down) as the canvas draws it: turning
    /// the field by 180° adds π.
    pub fn canvas_angle(&self, field_radians: f64) -> f64 {
        if self.flipped {
            field_radians + std::f64::consts::PI
        } else {
            field_radians
        }
    }

    /// A length in metres, in canvas pixels.
    pub fn pixels(&self, metres: f64) -> f64 {
        metres * self.scale
    }

    /// A length in canvas pixels, in metres: for marks that keep their size on screen.
    pub fn metres(&self, pixels: f64) -> f64 {
        pixels / self.scale
    }

    /// The field rectangle the canvas shows, `(min_x, min_y, max_x, max_y)`.
    pub fn visible(&self) -> (f64, f64, f64, f64) {
        let (a, b) = self.field_from_canvas(0.0, 0.0);
        let (c, d) = self.field_from_canvas(self.width, self.height);
        (a.min(c), b.min(d), a.max(c), b.max(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_and_field_coordinates_round_trip_flipped_or_not() {
        for flipped in [false, true] {
            let mut v = View::fit(1200.0, 800.0);
            v.flipped = flipped;
            v.centre = (10.0, -5.0);
            let (px, py) = v.canvas_from_field(-30.0, 20.0);
            let (x, y) = v.field_from_canvas(px, py);
            assert!((x + 30.0).abs() < 1e-9 && (y - 20.0).abs() < 1e-9);
        }
        let mut v = View::fit(1200.0, 800.0);
        v.flipped = true;
        // Turned round: the left goal is on the right of the canvas.
        assert!(v.canvas_from_field(-PITCH_HALF_LENGTH, 0.0).0 > 600.0);
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let mut cam = Camera::default();
        let v = View::of_camera(&cam, 1000.0, 700.0, None);
        let at = (800.0, 200.0);
        let before = v.field_from_canvas(at.0, at.1);
        cam.zoom_at(2.0, at, &v);
        let v2 = View::of_camera(&cam, 1000.0, 700.0, None);
        let after = v2.field_from_canvas(at.0, at.1);
        assert!((before.0 - after.0).abs() < 1e-9 && (before.1 - after.1).abs() < 1e-9);
        assert_eq!(cam.zoom, 2.0);
        cam.zoom_at(1000.0, at, &v2);
        assert_eq!(cam.zoom, MAX_ZOOM);
    }

    #[test]
    fn panning_moves_the_field_with_the_pointer_and_stops_following() {
        for flipped in [false, true] {
            let mut cam = Camera {
                follow: Follow::Ball,
                flipped,
                ..Camera::default()
            };
            let v = View::of_camera(&cam, 1000.0, 700.0, Some((3.0, 4.0)));
            let p = v.canvas_from_field(1.0, 1.0);
            cam.pan_by(25.0, -10.0, &v);
            assert_eq!(cam.follow, Follow::Off);
            let v2 = View::of_camera(&cam, 1000.0, 700.0, None);
            let q = v2.canvas_from_field(1.0, 1.0);
            assert!((q.0 - p.0 - 25.0).abs() < 1e-9 && (q.1 - p.1 + 10.0).abs() < 1e-9);
        }
    }
}
