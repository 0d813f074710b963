//! The 3D view's cameras, and the one projection both the renderer and the page's overlays (the
//! shirt numbers) use.
//!
//! - **Broadcast**: from the main stand, side-on, as football is televised. It aims at the
//!   ball and the players nearest it and zooms so that they fit. Steadiness: the aim and the
//!   zoom each follow their goal through a critically damped spring ([`Spring`]: no overshoot,
//!   no oscillation; 0.6 s to catch up for the aim, 1.2 s for the zoom), the aim only moves once
//!   the play has left a 1.5 m dead zone around it, and the position on the stand follows the
//!   aim at a third of its speed. Only when the ball would leave the picture (a long kick
//!   faster than the springs) is the aim pulled toward it at once, so the ball never leaves
//!   the frame.
//! - **Top**: straight down, orthographic, on exactly the field the 2D view shows (its centre,
//!   scale and side), so the two views line up pixel for pixel.
//! - **Goal**: behind the goal the ball is nearest, looking out at its penalty spot: the
//!   default during penalty kicks and shoot-outs.
//! - **Follow**: above and behind the selected player from the stand's side, keeping him in
//!   the middle (a 0.25 s spring); the ball, while nobody is selected.
//! - **Free**: orbit, pan and zoom by mouse, touch and keyboard ([`Orbit`]).

use crate::figures::Ball3;
use crate::math::{self, Spring, V3};
use rcss_formats::{Frame, Side};

/// Which camera the 3D view uses (saved in the page's settings by its link name).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CameraKind {
    #[default]
    Broadcast,
    Top,
    Goal,
    Follow,
    Free,
}

impl CameraKind {
    pub const ALL: [CameraKind; 5] = [
        CameraKind::Broadcast,
        CameraKind::Top,
        CameraKind::Goal,
        CameraKind::Follow,
        CameraKind::Free,
    ];

    /// The name in links (`&cam=goal`) and settings.
    pub fn name(self) -> &'static str {
        match self {
            CameraKind::Broadcast => "broadcast",
            CameraKind::Top => "top",
            CameraKind::Goal => "goal",
            CameraKind::Follow => "follow",
            CameraKind::Free => "free",
        }
    }

    pub fn from_name(name: &str) -> Option<CameraKind> {
        CameraKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What a viewer reads in the camera menu.
    pub fn label(self) -> &'static str {
        match self {
            CameraKind::Broadcast => "Broadcast",
            CameraKind::Top => "Top-down",
            CameraKind::Goal => "Behind the goal",
            CameraKind::Follow => "Follow the selected player",
            CameraKind::Free => "Free (drag, wheel, W A S D)",
        }
    }

    /// What the picture shows, for a screen reader: the 3D canvas is a picture like the 2D
    /// field, and a listener should know from where the match is seen and how to move.
    pub fn description(self) -> &'static str {
        match self {
            CameraKind::Broadcast => {
                "seen from the main stand, the camera panning with play (from behind the goal \
                 during penalties and replays)"
            }
            CameraKind::Top => "seen from straight above, as on the 2D field",
            CameraKind::Goal => "seen from high behind the goal the ball was last near",
            CameraKind::Follow => {
                "seen from above the selected player, who stays in the middle (the ball while no \
                 one is selected)"
            }
            CameraKind::Free => {
                "seen from a camera you move: drag or W, A, S and D turn it, Shift with them \
                 moves it, the wheel or + and − zoom, 0 puts it back"
            }
        }
    }
}

/// How the camera maps the scene onto the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lens {
    /// Vertical field of view in degrees.
    Perspective { fov_y: f64 },
    /// Metres of the world the canvas's height shows.
    Orthographic { height: f64 },
}

/// Where the camera is and what it looks at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    pub eye: V3,
    pub target: V3,
    pub up: V3,
    pub lens: Lens,
}

/// Nearest and farthest distance drawn (metres).
pub const NEAR: f64 = 0.5;
pub const FAR: f64 = 600.0;

impl Shot {
    /// Canvas pixel of world point `p` on a `width`×`height` canvas (CSS pixels, origin top
    /// left), or `None` behind the camera.
    pub fn project(&self, p: V3, width: f64, height: f64) -> Option<(f64, f64)> {
        let (right, up, back) = math::basis(self.eye, self.target, self.up);
        let d = math::sub(p, self.eye);
        let (vx, vy, vz) = (math::dot(d, right), math::dot(d, up), math::dot(d, back));
        let (nx, ny) = match self.lens {
            Lens::Perspective { fov_y } => {
                if -vz < NEAR * 0.5 {
                    return None;
                }
                let f = 1.0 / (fov_y.to_radians() / 2.0).tan();
                let aspect = width / height.max(1e-9);
                (f / aspect * vx / -vz, f * vy / -vz)
            }
            Lens::Orthographic { height: h } => {
                let half_h = h / 2.0;
                let half_w = half_h * width / height.max(1e-9);
                (vx / half_w, vy / half_h)
            }
        };
        Some(((nx + 1.0) / 2.0 * width, (1.0 - ny) / 2.0 * height))
    }

    /// The world point of the field (height 0) at field position `(x, y)`.
    pub fn ground(x: f64, y: f64) -> V3 {
        [x, 0.0, y]
    }
}

/// The 2D field's view, for the top camera: the field point in the middle of the canvas, canvas
/// pixels per metre, and whether the field is seen from the right team's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TopView {
    pub centre: (f64, f64),
    pub scale: f64,
    pub flipped: bool,
}

/// What the cameras look at in a frame.
#[derive(Clone, Copy, Debug)]
pub struct Look<'a> {
    pub frame: &'a Frame,
    pub ball: Ball3,
    /// The selected player, for the follow camera.
    pub selected: Option<(Side, u8)>,
    /// The 2D field's view, for the top camera.
    pub top: TopView,
    /// Canvas size in CSS pixels.
    pub width: f64,
    pub height: f64,
}

/// The free camera's orbit around a point on the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// Ground point looked at (field coordinates).
    pub target: (f64, f64),
    /// Turn around the vertical, degrees; 0 looks from the main stand (+y of the field).
    pub yaw: f64,
    /// Height angle, degrees above the ground.
    pub pitch: f64,
    /// Distance from the target, metres.
    pub distance: f64,
}

impl Default for Orbit {
    fn default() -> Self {
        Orbit {
            target: (0.0, 0.0),
            yaw: 0.0,
            pitch: 35.0,
            distance: 95.0,
        }
    }
}

impl Orbit {
    /// Turns by a drag (degrees).
    pub fn turn(&mut self, yaw: f64, pitch: f64) {
        self.yaw = (self.yaw + yaw).rem_euclid(360.0);
        self.pitch = (self.pitch + pitch).clamp(5.0, 89.0);
    }

    /// Moves the target by `(right, forward)` metres as the camera sees them.
    pub fn pan(&mut self, right: f64, forward: f64) {
        let (s, c) = self.yaw.to_radians().sin_cos();
        self.target.0 = (self.target.0 + right * c - forward * s).clamp(-70.0, 70.0);
        self.target.1 = (self.target.1 - right * s - forward * c).clamp(-50.0, 50.0);
    }

    /// Zooms by `factor` (below 1 comes closer).
    pub fn zoom(&mut self, factor: f64) {
        self.distance = (self.distance * factor).clamp(5.0, 250.0);
    }

    fn shot(&self) -> Shot {
        let (sy, cy) = self.yaw.to_radians().sin_cos();
        let (sp, cp) = self.pitch.to_radians().sin_cos();
        let target = Shot::ground(self.target.0, self.target.1);
        let eye = math::add(
            target,
            [
                self.distance * cp * sy,
                self.distance * sp,
                self.distance * cp * cy,
            ],
        );
        Shot {
            eye,
            target,
            up: [0.0, 1.0, 0.0],
            lens: Lens::Perspective { fov_y: 40.0 },
        }
    }
}

/// The broadcast camera's stand: the line of the main stand (field `y`) and height.
const STAND_Y: f64 = 34.0 + 42.0;
const STAND_HEIGHT: f64 = 24.0;
/// How far the broadcast camera's half-width may close in and open out (metres at the aim).
const MIN_HALF_WIDTH: f64 = 14.0;
const MAX_HALF_WIDTH: f64 = 48.0;
/// Room around the ball and its nearest players (metres).
const MARGIN: f64 = 7.0;
/// Players counted as "near the ball" for the zoom.
const NEAREST: usize = 3;
/// Spring times (seconds).
const AIM_TIME: f64 = 0.6;
const ZOOM_TIME: f64 = 1.2;
const FOLLOW_TIME: f64 = 0.25;
/// The aim moves only once the play is this far (metres) from where it aims.
const DEAD_ZONE: f64 = 1.5;
/// The ball is kept inside this share of the canvas from each edge.
const FRAME_MARGIN: f64 = 0.06;

/// Chooses the shot of each display frame, keeping what the moving cameras need from one frame
/// to the next (their springs).
#[derive(Clone, Debug, Default)]
pub struct Director {
    pub kind: CameraKind,
    pub orbit: Orbit,
    aim: Option<(Spring, Spring, Spring)>,
    follow: Option<(Spring, Spring)>,
    /// The goal camera's end (-1 left, +1 right).
    goal_end: f64,
    /// The end the goal camera must stand at, whatever the ball does: the goal an instant
    /// replay leads up to.
    pub goal_at: Option<f64>,
}

impl Director {
    pub fn new(kind: CameraKind) -> Director {
        Director {
            kind,
            ..Director::default()
        }
    }

    /// Forgets where the moving cameras were (a new match, a jump in time): the next shot
    /// starts where play is rather than swinging over from where it was.
    pub fn cut(&mut self) {
        self.aim = None;
        self.follow = None;
    }

    /// Whether the moving cameras have come to rest (their springs all but still): the page
    /// stops drawing frames until something changes.
    pub fn settled(&self) -> bool {
        let still = |s: &Spring| s.speed.abs() < 0.01;
        self.aim
            .as_ref()
            .is_none_or(|(a, b, c)| still(a) && still(b) && still(c))
            && self
                .follow
                .as_ref()
                .is_none_or(|(a, b)| still(a) && still(b))
    }

    /// The shot of this display frame, `dt` seconds after the last one, with `kind` the camera
    /// (the chosen one, or the goal camera in a penalty shoot-out).
    pub fn shot(&mut self, kind: CameraKind, look: &Look<'_>, dt: f64) -> Shot {
        let dt = dt.clamp(0.0, 0.5);
        match kind {
            CameraKind::Broadcast => self.broadcast(look, dt),
            CameraKind::Top => top(look),
            CameraKind::Goal => self.goal(look),
            CameraKind::Follow => self.follow(look, dt),
            CameraKind::Free => self.orbit.shot(),
        }
    }

    fn broadcast(&mut self, look: &Look<'_>, dt: f64) -> Shot {
        let ball = (look.ball.x, look.ball.y);
        let (want, half_width) = play_area(look.frame, ball);
        let (ax, ay, w) = self.aim.get_or_insert_with(|| {
            (
                Spring::at(want.0),
                Spring::at(want.1),
                Spring::at(half_width),
            )
        });
        let goal_x = dead_zone(ax.value, want.0);
        let goal_y = dead_zone(ay.value, want.1);
        ax.step(goal_x, AIM_TIME, dt);
        ay.step(goal_y, AIM_TIME, dt);
        w.step(half_width, ZOOM_TIME, dt);
        let mut shot = stand_shot((ax.value, ay.value), w.value, look);
        // A ball faster than the springs: pull the aim toward it until it is in the picture.
        for k in [0.25, 0.5, 0.75, 1.0] {
            if in_frame(&shot, ball, look) {
                break;
            }
            ax.jump(ax.value + (ball.0 - ax.value) * k);
            ay.jump(ay.value + (ball.1 - ay.value) * k);
            shot = stand_shot((ax.value, ay.value), w.value, look);
        }
        shot
    }

    fn goal(&mut self, look: &Look<'_>) -> Shot {
        // A kick is taken from a penalty spot: the end is where the ball goes for it. Before
        // that (the ball at the centre while a shoot-out is set up), the end a goalkeeper
        // stands in.
        if let Some(end) = self.goal_at {
            self.goal_end = end.signum();
        } else if look.ball.x.abs() > 30.0 {
            self.goal_end = look.ball.x.signum();
        } else if self.goal_end == 0.0 {
            let keeper = look
                .frame
                .players
                .iter()
                .filter(|p| p.state & rcss_formats::model::state::GOALIE != 0)
                .map(|p| f64::from(p.x))
                .max_by(|a, b| a.abs().total_cmp(&b.abs()));
            self.goal_end = if keeper.unwrap_or(1.0) < 0.0 {
                -1.0
            } else {
                1.0
            };
        }
        let s = self.goal_end;
        // High behind the net, so the crossbar sits low in the picture and the kicker, the
        // spot and the keeper show above it.
        Shot {
            eye: [s * (52.5 + 10.0), 7.0, 0.0],
            target: [s * (52.5 - 13.0), 0.0, 0.0],
            up: [0.0, 1.0, 0.0],
            lens: Lens::Perspective { fov_y: 46.0 },
        }
    }

    fn follow(&mut self, look: &Look<'_>, dt: f64) -> Shot {
        let who = look.selected.and_then(|(side, unum)| {
            look.frame
                .players
                .iter()
                .find(|p| p.side == Some(side) && p.unum == unum && p.state != 0)
        });
        // Nobody selected (or the one selected was sent off): the ball, from the same place
        // above and behind, until a player is chosen; the page says so beside the menu.
        let (px, py) = who.map_or((look.ball.x, look.ball.y), |p| {
            (f64::from(p.x), f64::from(p.y))
        });
        let (fx, fy) = self
            .follow
            .get_or_insert_with(|| (Spring::at(px), Spring::at(py)));
        fx.step(px, FOLLOW_TIME, dt);
        fy.step(py, FOLLOW_TIME, dt);
        // The spring's lag is kept under a metre: the player stays in the middle.
        fx.value = fx.value.clamp(px - 1.0, px + 1.0);
        fy.value = fy.value.clamp(py - 1.0, py + 1.0);
        let target = [fx.value, 1.0, fy.value];
        Shot {
            eye: [fx.value, 11.0, fy.value + 17.0],
            target,
            up: [0.0, 1.0, 0.0],
            lens: Lens::Perspective { fov_y: 38.0 },
        }
    }
}

/// The top camera: the 2D field's view, seen straight down.
pub fn top(look: &Look<'_>) -> Shot {
    let v = look.top;
    let (cx, cy) = v.centre;
    Shot {
        eye: [cx, 120.0, cy],
        target: [cx, 0.0, cy],
        // Up on the canvas is -y of the field, or +y seen from the other side.
        up: if v.flipped {
            [0.0, 0.0, 1.0]
        } else {
            [0.0, 0.0, -1.0]
        },
        lens: Lens::Orthographic {
            height: look.height / v.scale.max(1e-6),
        },
    }
}

/// Where play is: the ball and the players nearest it, weighted toward the ball, and the
/// half-width (metres) that holds them with room around.
fn play_area(frame: &Frame, ball: (f64, f64)) -> ((f64, f64), f64) {
    let mut near: Vec<(f64, (f64, f64))> = frame
        .players
        .iter()
        .filter(|p| p.state != 0)
        .map(|p| {
            let (x, y) = (f64::from(p.x), f64::from(p.y));
            ((x - ball.0).hypot(y - ball.1), (x, y))
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    near.truncate(NEAREST);
    let n = near.len() as f64;
    let (mx, my) = if near.is_empty() {
        ball
    } else {
        let s = near
            .iter()
            .fold((0.0, 0.0), |s, (_, p)| (s.0 + p.0, s.1 + p.1));
        (s.0 / n, s.1 / n)
    };
    let aim = (ball.0 * 0.7 + mx * 0.3, ball.1 * 0.7 + my * 0.3);
    let reach = near
        .iter()
        .map(|(_, p)| (p.0 - aim.0).abs())
        .fold((ball.0 - aim.0).abs(), f64::max);
    let half_width = (reach + MARGIN).clamp(MIN_HALF_WIDTH, MAX_HALF_WIDTH);
    (aim, half_width)
}

/// `want`, unless it is within the dead zone of `now`: then where the zone's edge is.
fn dead_zone(now: f64, want: f64) -> f64 {
    let d = want - now;
    if d.abs() <= DEAD_ZONE {
        now
    } else {
        want - DEAD_ZONE * d.signum()
    }
}

/// The broadcast camera on the main stand aiming at ground point `aim`, its lens opened so that
/// `half_width` metres either side of the aim fit the canvas's width.
fn stand_shot(aim: (f64, f64), half_width: f64, look: &Look<'_>) -> Shot {
    // The camera slides along the stand a third as far as the aim moves, and pans for the rest.
    let eye = [aim.0 / 3.0, STAND_HEIGHT, STAND_Y];
    let target = [aim.0, 0.0, aim.1 * 0.6];
    let distance = math::length(math::sub(eye, target));
    let aspect = look.width / look.height.max(1.0);
    let half_fov_x = (half_width / distance).atan();
    let fov_y = 2.0 * (half_fov_x.tan() / aspect.max(0.2)).atan();
    Shot {
        eye,
        target,
        up: [0.0, 1.0, 0.0],
        lens: Lens::Perspective {
            fov_y: fov_y.to_degrees().clamp(6.0, 60.0),
        },
    }
}

/// Whether the ball on the ground at `ball` shows inside the canvas, away from its edges.
fn in_frame(shot: &Shot, ball: (f64, f64), look: &Look<'_>) -> bool {
    let (w, h) = (look.width, look.height);
    shot.project(Shot::ground(ball.0, ball.1), w, h)
        .is_some_and(|(x, y)| {
            let (mx, my) = (w * FRAME_MARGIN, h * FRAME_MARGIN);
            x >= mx && x <= w - mx && y >= my && y <= h - my
        })
}

/// Whether a play mode is part of a penalty kick or shoot-out (the goal camera's time).
pub fn is_penalty(frame: &Frame) -> bool {
    frame.mode.base_name().starts_with("penalty_")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures;
    use rcss_formats::log::parse_log;

    fn look(frame: &Frame, w: f64, h: f64) -> Look<'_> {
        Look {
            frame,
            ball: figures::ball(frame),
            selected: None,
            top: TopView {
                centre: (0.0, 0.0),
                scale: 10.0,
                flipped: false,
            },
            width: w,
            height: h,
        }
    }

    #[test]
    fn the_top_camera_puts_ground_points_where_the_2d_field_does() {
        let frame = Frame::default();
        for flipped in [false, true] {
            let mut l = look(&frame, 1280.0, 720.0);
            l.top = TopView {
                centre: (7.5, -3.0),
                scale: 11.25,
                flipped,
            };
            let shot = top(&l);
            for (x, y) in [(0.0, 0.0), (-52.5, -34.0), (52.5, 34.0), (10.0, -20.0)] {
                // The 2D field's mapping (web/src/field.rs, View::canvas_from_field).
                let s = if flipped { -1.0 } else { 1.0 };
                let want = (
                    640.0 + s * (x - 7.5) * 11.25,
                    360.0 + s * (y - -3.0) * 11.25,
                );
                let got = shot.project(Shot::ground(x, y), 1280.0, 720.0).expect("in");
                assert!(
                    (got.0 - want.0).abs() < 1e-6 && (got.1 - want.1).abs() < 1e-6,
                    "{flipped} ({x}, {y}): {got:?} against {want:?}"
                );
            }
        }
    }

    #[test]
    fn from_the_stand_the_left_goal_is_on_the_left() {
        let frame = Frame::default();
        let l = look(&frame, 1280.0, 720.0);
        let shot = stand_shot((0.0, 0.0), MAX_HALF_WIDTH, &l);
        let left = shot
            .project([-52.5, 0.0, 0.0], 1280.0, 720.0)
            .expect("left");
        let right = shot
            .project([52.5, 0.0, 0.0], 1280.0, 720.0)
            .expect("right");
        let near = shot.project([0.0, 0.0, 34.0], 1280.0, 720.0).expect("near");
        let far = shot.project([0.0, 0.0, -34.0], 1280.0, 720.0).expect("far");
        assert!(left.0 < 640.0 && right.0 > 640.0, "{left:?} {right:?}");
        // The near touch line is lower on the screen than the far one.
        assert!(near.1 > far.1, "{near:?} {far:?}");
    }

    /// Steps the director through a whole real game at 60 display frames a second, as the
    /// page does with interpolation: how many display frames, and how many of them lost the
    /// ball.
    fn run_game(kind: CameraKind, rel: &str, w: f64, h: f64) -> (usize, usize) {
        let m = parse_log(&pitchside_fixtures::read(rel));
        let mut d = Director::new(kind);
        let (mut seen, mut outside) = (0, 0);
        for pair in m.frames.windows(2) {
            for k in 0..6 {
                let a = f64::from(k) / 6.0;
                let mut f = pair[0].clone();
                f.ball.x += ((pair[1].ball.x - f.ball.x) as f64 * a) as f32;
                f.ball.y += ((pair[1].ball.y - f.ball.y) as f64 * a) as f32;
                let l = look(&f, w, h);
                let shot = d.shot(kind, &l, 1.0 / 60.0);
                seen += 1;
                match shot.project(Shot::ground(l.ball.x, l.ball.y), w, h) {
                    Some((x, y)) if x >= 0.0 && x <= w && y >= 0.0 && y <= h => {}
                    _ => outside += 1,
                }
            }
        }
        (seen, outside)
    }

    #[test]
    fn the_broadcast_camera_keeps_the_ball_in_frame_over_a_whole_real_game() {
        for (w, h) in [(1280.0, 720.0), (390.0, 700.0)] {
            let (seen, outside) =
                run_game(CameraKind::Broadcast, pitchside_fixtures::FULL_V6, w, h);
            assert!(seen > 30_000, "{seen}");
            assert_eq!(
                outside, 0,
                "{w}x{h}: {outside} of {seen} display frames lost the ball"
            );
        }
    }

    #[test]
    fn the_follow_camera_keeps_its_player_in_the_middle_and_the_ball_with_nobody_chosen() {
        let m = parse_log(&pitchside_fixtures::read(pitchside_fixtures::SHORT_V6));
        for chosen in [Some((Side::Left, 10)), None] {
            let mut d = Director::new(CameraKind::Follow);
            let mut worst = 0.0_f64;
            let mut seen = 0;
            for f in &m.frames {
                let mut l = look(f, 1280.0, 720.0);
                l.selected = chosen;
                let shot = d.shot(CameraKind::Follow, &l, 0.1);
                let followed = match chosen {
                    Some((side, unum)) => f
                        .players
                        .iter()
                        .find(|p| p.side == Some(side) && p.unum == unum && p.state != 0)
                        .map(|p| [f64::from(p.x), 1.0, f64::from(p.y)]),
                    None => Some([l.ball.x, 1.0, l.ball.y]),
                };
                let Some(at) = followed else { continue };
                let (x, y) = shot.project(at, 1280.0, 720.0).expect("in front");
                worst = worst.max((x - 640.0).abs().max((y - 360.0).abs()));
                seen += 1;
            }
            assert!(seen > 100, "{chosen:?}: {seen}");
            // Within a tenth of the canvas's height of the middle, at 10 display frames a
            // cycle.
            assert!(worst < 72.0, "{chosen:?}: {worst}");
        }
    }

    #[test]
    fn a_penalty_shoot_out_is_told_by_its_play_modes_and_the_goal_camera_faces_its_goal() {
        let m = parse_log(&pitchside_fixtures::read(pitchside_fixtures::PENALTY_V6));
        let penalties: Vec<&Frame> = m.frames.iter().filter(|f| is_penalty(f)).collect();
        assert!(penalties.len() > 20, "{}", penalties.len());
        let before = m
            .frames
            .iter()
            .find(|f| f.mode == rcss_formats::PlayMode::BEFORE_KICK_OFF);
        assert!(before.is_none_or(|f| !is_penalty(f)));
        let mut d = Director::new(CameraKind::Broadcast);
        for f in penalties {
            let l = look(f, 1280.0, 720.0);
            let shot = d.shot(CameraKind::Goal, &l, 0.1);
            // Behind a goal line, looking into the field, the ball in the picture from the
            // spot to the goal line.
            assert!(shot.eye[0].abs() > 52.5 && shot.target[0].abs() < 52.5);
            if (30.0..=52.5).contains(&f.ball.x.abs()) {
                let (x, y) = shot
                    .project(Shot::ground(l.ball.x, l.ball.y), 1280.0, 720.0)
                    .expect("in front");
                assert!((0.0..=1280.0).contains(&x) && (0.0..=720.0).contains(&y));
            }
        }
    }

    #[test]
    fn the_free_camera_orbits_pans_and_zooms_within_bounds() {
        let mut o = Orbit::default();
        o.turn(400.0, 100.0);
        assert!((o.yaw - 40.0).abs() < 1e-9 && o.pitch == 89.0);
        o.zoom(0.0001);
        assert_eq!(o.distance, 5.0);
        o.pan(1000.0, 0.0);
        assert!(o.target.0.abs() <= 70.0 && o.target.1.abs() <= 50.0);
        let shot = o.shot();
        assert!(shot.eye[1] > 0.0);
    }

    #[test]
    fn camera_names_round_trip() {
        for k in CameraKind::ALL {
            assert_eq!(CameraKind::from_name(k.name()), Some(k));
        }
        assert_eq!(CameraKind::from_name("drone"), None);
    }
}
