//! What stands still: the grass, the pitch's lines, the goals and the stands round the pitch,
//! made once (the goals again if a match's goal width differs).

use crate::paint::Batch;
use three_d::*;

const LINE_WIDTH: f32 = 0.2;
const POST_RADIUS: f32 = 0.07;
const GOAL_HEIGHT: f32 = 2.44;
const GOAL_DEPTH: f32 = 2.0;
const HALF_LENGTH: f32 = 52.5;
const HALF_WIDTH: f32 = 34.0;

/// The two goals for a goal `goal_width` wide: the posts and crossbars, and the nets.
pub fn goals(goal_width: f32) -> (Batch, Batch) {
    let half = goal_width / 2.0;
    let mut posts = Batch::default();
    let mut nets = Batch::default();
    let white = Srgba::WHITE;
    let net = Srgba::new(240, 240, 240, 45);
    for s in [-1.0f32, 1.0] {
        let x = s * HALF_LENGTH;
        for z in [-half, half] {
            posts.push(upright(x, z, GOAL_HEIGHT, POST_RADIUS), white);
        }
        // The crossbar, from post to post.
        posts.push(
            Mat4::from_translation(vec3(x, GOAL_HEIGHT, -half))
                * Mat4::from_angle_y(degrees(-90.0))
                * Mat4::from_nonuniform_scale(goal_width, POST_RADIUS, POST_RADIUS),
            white,
        );
        let back = x + s * GOAL_DEPTH;
        let mid = x + s * GOAL_DEPTH / 2.0;
        // Back, roof and sides of the net.
        nets.push(
            Mat4::from_translation(vec3(back, GOAL_HEIGHT / 2.0, 0.0))
                * Mat4::from_angle_y(degrees(90.0))
                * Mat4::from_nonuniform_scale(half, GOAL_HEIGHT / 2.0, 1.0),
            net,
        );
        nets.push(
            Mat4::from_translation(vec3(mid, GOAL_HEIGHT, 0.0))
                * Mat4::from_angle_x(degrees(-90.0))
                * Mat4::from_nonuniform_scale(GOAL_DEPTH / 2.0, half, 1.0),
            net,
        );
        for z in [-half, half] {
            nets.push(
                Mat4::from_translation(vec3(mid, GOAL_HEIGHT / 2.0, z))
                    * Mat4::from_nonuniform_scale(GOAL_DEPTH / 2.0, GOAL_HEIGHT / 2.0, 1.0),
                net,
            );
        }
    }
    (posts, nets)
}

/// A vertical cylinder standing at `(x, z)`.
fn upright(x: f32, z: f32, height: f32, radius: f32) -> Mat4 {
    Mat4::from_translation(vec3(x, 0.0, z))
        * Mat4::from_angle_z(degrees(90.0))
        * Mat4::from_nonuniform_scale(height, radius, radius)
}

/// A flat rectangle on the ground (just above it, `lift`), centred at `(x, z)`, `half_x` by
/// `half_z` metres, turned by `angle` degrees.
fn flat(x: f32, z: f32, half_x: f32, half_z: f32, angle: f32, lift: f32) -> Mat4 {
    Mat4::from_translation(vec3(x, lift, z))
        * Mat4::from_angle_y(degrees(-angle))
        * Mat4::from_angle_x(degrees(-90.0))
        * Mat4::from_nonuniform_scale(half_x, half_z, 1.0)
}

/// Advertising boards round three sides (the main stand's side stays open for its camera) and
/// three tiers of the far stand: what tells a viewer where the pitch ends.
pub fn stands() -> Batch {
    let mut b = Batch::default();
    let boards = [Srgba::new(30, 60, 120, 255), Srgba::new(20, 110, 120, 255)];
    for i in 0..12 {
        let x = -60.0 + 10.0 * i as f32 + 5.0;
        b.push(
            Mat4::from_translation(vec3(x, 0.45, -(HALF_WIDTH + 4.5)))
                * Mat4::from_nonuniform_scale(4.9, 0.45, 0.05),
            boards[i % 2],
        );
    }
    for s in [-1.0f32, 1.0] {
        for i in 0..7 {
            let z = -35.0 + 10.0 * i as f32 + 5.0;
            b.push(
                Mat4::from_translation(vec3(s * (HALF_LENGTH + 6.0), 0.45, z))
                    * Mat4::from_nonuniform_scale(0.05, 0.45, 4.9),
                boards[i % 2],
            );
        }
    }
    for (k, (z, h)) in [(-46.0f32, 2.0f32), (-52.0, 5.0), (-58.0, 8.0)]
        .into_iter()
        .enumerate()
    {
        let grey = 52 + 10 * k as u8;
        b.push(
            Mat4::from_translation(vec3(0.0, h / 2.0, z))
                * Mat4::from_nonuniform_scale(75.0, h / 2.0, 3.0),
            Srgba::new(grey, grey + 6, grey + 14, 255),
        );
    }
    b
}

/// The grass: a dark surround and the pitch mown in twelve stripes.
pub fn grass() -> Batch {
    let mut b = Batch::default();
    // The mown stripes over the field and its run-off, and the plain grass around them in four
    // pieces that do not overlap them: a software renderer pays for every pixel drawn twice.
    let stripes = 12;
    let (half_x, half_z) = (HALF_LENGTH + 5.0, HALF_WIDTH + 4.0);
    let (outer_x, outer_z) = (80.0, 56.0);
    let w = half_x * 2.0 / stripes as f32;
    for i in 0..stripes {
        let x = -half_x + w * (i as f32 + 0.5);
        let colour = if i % 2 == 0 {
            Srgba::new(58, 138, 66, 255)
        } else {
            Srgba::new(51, 126, 59, 255)
        };
        b.push(flat(x, 0.0, w / 2.0, half_z, 0.0, 0.0), colour);
    }
    let plain = Srgba::new(38, 96, 48, 255);
    let band = (outer_z - half_z) / 2.0;
    for side in [-1.0, 1.0] {
        // Beyond the touch lines, the whole length; beyond the goal lines, between those.
        b.push(
            flat(0.0, side * (half_z + band), outer_x, band, 0.0, 0.0),
            plain,
        );
        let end = (outer_x - half_x) / 2.0;
        b.push(
            flat(side * (half_x + end), 0.0, end, half_z, 0.0, 0.0),
            plain,
        );
    }
    b
}

/// The pitch's lines: touch and goal lines, halfway line, areas, centre circle, penalty
/// arcs, penalty and centre spots.
pub fn lines() -> Batch {
    let mut b = Batch::default();
    let white = Srgba::new(245, 245, 245, 255);
    let lw = LINE_WIDTH / 2.0;
    let lift = 0.01;
    let segment = |b: &mut Batch, (x0, z0): (f32, f32), (x1, z1): (f32, f32)| {
        let (dx, dz) = (x1 - x0, z1 - z0);
        let len = (dx * dx + dz * dz).sqrt();
        let angle = dz.atan2(dx).to_degrees();
        b.push(
            flat(
                (x0 + x1) / 2.0,
                (z0 + z1) / 2.0,
                len / 2.0 + lw,
                lw,
                angle,
                lift,
            ),
            white,
        );
    };
    let (hl, hw) = (HALF_LENGTH, HALF_WIDTH);
    segment(&mut b, (-hl, -hw), (hl, -hw));
    segment(&mut b, (-hl, hw), (hl, hw));
    segment(&mut b, (-hl, -hw), (-hl, hw));
    segment(&mut b, (hl, -hw), (hl, hw));
    segment(&mut b, (0.0, -hw), (0.0, hw));
    for s in [-1.0f32, 1.0] {
        // Penalty area (16.5 m, 40.32 m wide) and goal area (5.5 m, 18.32 m wide).
        for (depth, half) in [(16.5f32, 20.16f32), (5.5, 9.16)] {
            let inner = s * (hl - depth);
            segment(&mut b, (s * hl, -half), (inner, -half));
            segment(&mut b, (s * hl, half), (inner, half));
            segment(&mut b, (inner, -half), (inner, half));
        }
        // The arc of the penalty area: the part of the 9.15 m circle round the spot outside.
        let spot = s * (hl - 11.0);
        let steps = 16;
        let reach = (5.5f32 / 9.15).acos();
        for i in 0..steps {
            let a0 = -reach + 2.0 * reach * i as f32 / steps as f32;
            let a1 = -reach + 2.0 * reach * (i + 1) as f32 / steps as f32;
            let p = |a: f32| (spot - s * 9.15 * a.cos(), 9.15 * a.sin());
            segment(&mut b, p(a0), p(a1));
        }
        b.push(flat(spot, 0.0, 0.15, 0.15, 0.0, lift), white);
    }
    let steps = 48;
    for i in 0..steps {
        let a0 = std::f32::consts::TAU * i as f32 / steps as f32;
        let a1 = std::f32::consts::TAU * (i + 1) as f32 / steps as f32;
        let p = |a: f32| (9.15 * a.cos(), 9.15 * a.sin());
        segment(&mut b, p(a0), p(a1));
    }
    b.push(flat(0.0, 0.0, 0.15, 0.15, 0.0, lift), white);
    b
}
