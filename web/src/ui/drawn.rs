//! The field as the canvas last drew it, and what pointers and shortcuts ask of it: the field
//! point under a pointer, the player under it, zooming, the field's shortcuts. The canvas
//! (`canvas`) records each drawing here; the referee layer (`operator`) and the key handler
//! (`keys`) read it, so none of them imports another.

use crate::field::{Camera, Follow, View};
use crate::scene::Scene;
use crate::state::Monitor;
use crate::ui::stage3d;
use leptos::prelude::*;
use pitchside_scene3d::camera::Orbit;
use rcss_formats::Side;
use std::cell::RefCell;

/// Zoom per key press or per wheel notch.
pub const ZOOM_STEP: f64 = 1.25;
/// A click selects the nearest player whose body is within this many pixels.
pub const PICK_SLOP_PX: f64 = 10.0;
thread_local! {
    /// The last scene drawn, with its view: what a click hits and what the test hook reports.
    static LAST: RefCell<Option<(Scene, View)>> = const { RefCell::new(None) };
}

/// What the field's shortcuts do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldAction {
    ZoomIn,
    ZoomOut,
    Fit,
    FollowBall,
    FollowSelected,
    Flip,
    Deselect,
    Interpolation,
    /// The 3D free camera's turns and moves (nothing on the 2D field).
    TurnLeft,
    TurnRight,
    TiltUp,
    TiltDown,
    MoveLeft,
    MoveRight,
    MoveForward,
    MoveBack,
}

/// Records the scene just drawn and its view.
pub fn remember(scene: Scene, view: View) {
    LAST.with(|l| *l.borrow_mut() = Some((scene, view)));
}

/// Runs `f` on the last drawing, if any.
pub fn with_last<T>(f: impl FnOnce(&Option<(Scene, View)>) -> T) -> T {
    LAST.with(|l| f(&l.borrow()))
}

/// The view of the last drawing (for turning pointer positions into field points).
pub fn last_view() -> Option<View> {
    LAST.with(|l| l.borrow().as_ref().map(|(_, v)| *v))
}

/// Runs one of the field's keyboard shortcuts.
pub fn run(m: Monitor, action: FieldAction) {
    if stage3d::free_camera(m) && run_free(m, action) {
        return;
    }
    let cam = m.field.camera;
    let centre_zoom = |factor: f64| {
        if let Some(v) = last_view() {
            cam.update(|c| c.zoom_at(factor, (v.width / 2.0, v.height / 2.0), &v));
        }
    };
    match action {
        FieldAction::ZoomIn => centre_zoom(ZOOM_STEP),
        FieldAction::ZoomOut => centre_zoom(1.0 / ZOOM_STEP),
        FieldAction::Fit => cam.update(Camera::fit),
        FieldAction::FollowBall => cam.update(|c| toggle_follow(c, Follow::Ball)),
        FieldAction::FollowSelected => cam.update(|c| toggle_follow(c, Follow::Selected)),
        FieldAction::Flip => cam.update(|c| c.flipped = !c.flipped),
        FieldAction::Deselect => m.field.selected.set(None),
        FieldAction::Interpolation => m
            .settings
            .update(|s| s.field.interpolate = !s.field.interpolate),
        FieldAction::TurnLeft
        | FieldAction::TurnRight
        | FieldAction::TiltUp
        | FieldAction::TiltDown
        | FieldAction::MoveLeft
        | FieldAction::MoveRight
        | FieldAction::MoveForward
        | FieldAction::MoveBack => {}
    }
}

/// Runs a shortcut on the 3D view's free camera; `false` leaves it to the 2D field.
fn run_free(m: Monitor, action: FieldAction) -> bool {
    let turn = 15.0;
    let step = 5.0;
    match action {
        FieldAction::ZoomIn => stage3d::orbit(m, |o| o.zoom(1.0 / ZOOM_STEP)),
        FieldAction::ZoomOut => stage3d::orbit(m, |o| o.zoom(ZOOM_STEP)),
        FieldAction::Fit => stage3d::orbit(m, |o| *o = Orbit::default()),
        FieldAction::TurnLeft => stage3d::orbit(m, |o| o.turn(-turn, 0.0)),
        FieldAction::TurnRight => stage3d::orbit(m, |o| o.turn(turn, 0.0)),
        FieldAction::TiltUp => stage3d::orbit(m, |o| o.turn(0.0, step)),
        FieldAction::TiltDown => stage3d::orbit(m, |o| o.turn(0.0, -step)),
        FieldAction::MoveLeft => stage3d::orbit(m, |o| o.pan(-step, 0.0)),
        FieldAction::MoveRight => stage3d::orbit(m, |o| o.pan(step, 0.0)),
        FieldAction::MoveForward => stage3d::orbit(m, |o| o.pan(0.0, step)),
        FieldAction::MoveBack => stage3d::orbit(m, |o| o.pan(0.0, -step)),
        _ => return false,
    }
    true
}

/// Follows `what`, or stops following it if the camera already does.
fn toggle_follow(c: &mut Camera, what: Follow) {
    c.follow = if c.follow == what {
        stop_following(c);
        Follow::Off
    } else {
        what
    }
}

/// Leaving a follow mode keeps the view where it was.
fn stop_following(c: &mut Camera) {
    if let Some(v) = last_view() {
        c.centre = v.centre;
    }
}

// ---- For the referee layer (issue 11), which lies over the canvas in referee mode ----

/// The field point under canvas point `at` and the metres one CSS pixel spans, as last drawn.
pub fn field_at(at: (f64, f64)) -> Option<((f64, f64), f64)> {
    let v = last_view()?;
    Some((v.field_from_canvas(at.0, at.1), v.metres(1.0)))
}

/// The canvas point of field point `p`, as last drawn.
pub fn canvas_at(p: (f64, f64)) -> Option<(f64, f64)> {
    Some(last_view()?.canvas_from_field(p.0, p.1))
}

/// A body angle in field degrees as the canvas shows it (the view may be turned round).
pub fn canvas_degrees(deg: f64) -> f64 {
    last_view().map_or(deg, |v| v.canvas_angle(deg.to_radians()).to_degrees())
}

/// The player drawn under canvas point `at`, with the same reach as a click that selects.
pub fn player_under(at: (f64, f64)) -> Option<(Side, u8)> {
    LAST.with(|l| {
        let l = l.borrow();
        let (scene, view) = l.as_ref()?;
        let p = view.field_from_canvas(at.0, at.1);
        scene
            .player_at(p, view.metres(PICK_SLOP_PX))
            .map(|p| (p.side, p.unum))
    })
}

/// Zooms at canvas point `at` for a wheel event (the referee layer keeps the wheel working).
pub fn wheel_zoom(m: Monitor, at: (f64, f64), ev: &web_sys::WheelEvent) {
    let Some(view) = last_view() else { return };
    // Lines or pages (deltaMode 1, 2) count as notches; pixels are scaled.
    let notches = match ev.delta_mode() {
        0 => ev.delta_y() / 100.0,
        _ => ev.delta_y() / 3.0,
    };
    let factor = ZOOM_STEP.powf(-notches.clamp(-5.0, 5.0));
    m.field.camera.update(|cam| cam.zoom_at(factor, at, &view));
}

/// Selects the player under canvas point `at` (within `slop` pixels), or nobody.
pub fn pick(m: Monitor, at: (f64, f64), slop: f64) {
    let hit = LAST.with(|l| {
        let l = l.borrow();
        let (scene, view) = l.as_ref()?;
        let p = view.field_from_canvas(at.0, at.1);
        scene
            .player_at(p, view.metres(slop))
            .map(|p| (p.side, p.unum))
    });
    m.field.selected.set(hit);
}
