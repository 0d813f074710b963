//! The pitch: grass, lines, goals, and on demand the landmark flags and a coordinate grid.

use super::style::{GRASS, GRASS_DARK, LINE, WHITE};
use super::{
    input::Input, shape::Align, shape::Geom, shape::Owner, shape::Shape, shape::Stroke, shape::Tag,
    shape::P,
};
use crate::field::*;
use std::f64::consts::{FRAC_PI_2, PI};

fn shape(tag: Tag, geom: Geom) -> Shape {
    Shape::new(tag, Owner::None, geom)
}

fn line(out: &mut Vec<Shape>, stroke: Stroke, from: P, to: P) {
    out.push(shape(Tag::PitchLine, Geom::Line { from, to }).stroke(stroke));
}

fn rect(out: &mut Vec<Shape>, stroke: Stroke, a: P, b: P) {
    out.push(
        shape(
            Tag::PitchLine,
            Geom::Rect {
                min: (a.0.min(b.0), a.1.min(b.1)),
                max: (a.0.max(b.0), a.1.max(b.1)),
            },
        )
        .stroke(stroke),
    );
}

pub fn build(out: &mut Vec<Shape>, input: &Input) {
    let v = input.view;
    let (x0, y0, x1, y1) = v.visible();
    out.push(
        shape(
            Tag::Grass,
            Geom::Rect {
                min: (x0, y0),
                max: (x1, y1),
            },
        )
        .fill(GRASS),
    );
    // Mown stripes every 10.5 m, as on a real pitch: they help judge distances.
    let stripe = 2.0 * PITCH_HALF_LENGTH / 10.0;
    for k in (1..10).step_by(2) {
        let x = -PITCH_HALF_LENGTH + stripe * f64::from(k);
        out.push(
            shape(
                Tag::Grass,
                Geom::Rect {
                    min: (x, -PITCH_HALF_WIDTH),
                    max: (x + stripe, PITCH_HALF_WIDTH),
                },
            )
            .fill(GRASS_DARK),
        );
    }
    if input.settings.grid {
        grid(out, input);
    }
    // Lines are 12 cm wide on a real pitch; never thinner than a pixel.
    let s = Stroke::solid(LINE, v.pixels(0.12).clamp(1.0, 6.0));
    let (hl, hw) = (PITCH_HALF_LENGTH, PITCH_HALF_WIDTH);
    rect(out, s, (-hl, -hw), (hl, hw));
    line(out, s, (0.0, -hw), (0.0, hw));
    out.push(
        shape(
            Tag::PitchLine,
            Geom::Circle {
                centre: (0.0, 0.0),
                radius: CENTRE_CIRCLE_RADIUS,
            },
        )
        .stroke(s),
    );
    spot(out, v.metres(2.0).max(0.2), (0.0, 0.0));
    let goal_width = input.params.goal_width;
    for sign in [-1.0, 1.0] {
        let gl = sign * hl;
        rect(
            out,
            s,
            (gl, -PENALTY_AREA_HALF_WIDTH),
            (gl - sign * PENALTY_AREA_LENGTH, PENALTY_AREA_HALF_WIDTH),
        );
        rect(
            out,
            s,
            (gl, -GOAL_AREA_HALF_WIDTH),
            (gl - sign * GOAL_AREA_LENGTH, GOAL_AREA_HALF_WIDTH),
        );
        let spot_x = gl - sign * PENALTY_SPOT_DISTANCE;
        spot(out, v.metres(2.0).max(0.2), (spot_x, 0.0));
        // The penalty arc: the part of a 9.15 m circle round the spot outside the area.
        let half = ((PENALTY_AREA_LENGTH - PENALTY_SPOT_DISTANCE) / CENTRE_CIRCLE_RADIUS).acos();
        let facing = if sign > 0.0 { PI } else { 0.0 };
        out.push(
            shape(
                Tag::PitchLine,
                Geom::Arc {
                    centre: (spot_x, 0.0),
                    radius: CENTRE_CIRCLE_RADIUS,
                    start: facing - half,
                    end: facing + half,
                },
            )
            .stroke(s),
        );
        // Corner arcs, each a quarter circle inside the pitch: from the direction along the
        // goal line into the pitch to the one along the touch line, a quarter turn clockwise.
        for ysign in [-1.0, 1.0] {
            let along_touch = if sign > 0.0 { PI } else { 0.0 };
            let along_goal = if ysign > 0.0 { -FRAC_PI_2 } else { FRAC_PI_2 };
            let start = if (along_goal - along_touch).rem_euclid(2.0 * PI) < PI {
                along_touch
            } else {
                along_goal
            };
            out.push(
                shape(
                    Tag::PitchLine,
                    Geom::Arc {
                        centre: (gl, ysign * hw),
                        radius: CORNER_ARC_RADIUS,
                        start,
                        end: start + FRAC_PI_2,
                    },
                )
                .stroke(s),
            );
        }
        // The goal behind the line, filled so it reads at a glance.
        out.push(
            shape(
                Tag::Goal,
                Geom::Rect {
                    min: (gl.min(gl + sign * GOAL_DEPTH), -goal_width / 2.0),
                    max: (gl.max(gl + sign * GOAL_DEPTH), goal_width / 2.0),
                },
            )
            .fill(WHITE.alpha(0.35))
            .stroke(s),
        );
    }
    if input.settings.flags {
        flags(out, input);
    }
}

fn spot(out: &mut Vec<Shape>, radius: f64, centre: P) {
    out.push(shape(Tag::PitchLine, Geom::Circle { centre, radius }).fill(LINE));
}

/// rcssserver's 55 landmarks (53 flags and the two goal centres), as players see them.
pub fn flag_positions() -> Vec<(String, P)> {
    let (hl, hw) = (PITCH_HALF_LENGTH, PITCH_HALF_WIDTH);
    let out_by = 5.0;
    let mut f: Vec<(String, P)> = vec![
        ("g l".into(), (-hl, 0.0)),
        ("g r".into(), (hl, 0.0)),
        ("f c".into(), (0.0, 0.0)),
        ("f c t".into(), (0.0, -hw)),
        ("f c b".into(), (0.0, hw)),
        ("f l t".into(), (-hl, -hw)),
        ("f l b".into(), (-hl, hw)),
        ("f r t".into(), (hl, -hw)),
        ("f r b".into(), (hl, hw)),
    ];
    for (s, x) in [("l", -1.0), ("r", 1.0)] {
        let px = x * (hl - PENALTY_AREA_LENGTH);
        f.push((format!("f p {s} t"), (px, -PENALTY_AREA_HALF_WIDTH)));
        f.push((format!("f p {s} c"), (px, 0.0)));
        f.push((format!("f p {s} b"), (px, PENALTY_AREA_HALF_WIDTH)));
        f.push((format!("f g {s} t"), (x * hl, -DEFAULT_GOAL_WIDTH / 2.0)));
        f.push((format!("f g {s} b"), (x * hl, DEFAULT_GOAL_WIDTH / 2.0)));
    }
    for (s, y) in [("t", -1.0), ("b", 1.0)] {
        f.push((format!("f {s} 0"), (0.0, y * (hw + out_by))));
        for d in [10, 20, 30, 40, 50] {
            let d = f64::from(d);
            f.push((format!("f {s} l {d}"), (-d, y * (hw + out_by))));
            f.push((format!("f {s} r {d}"), (d, y * (hw + out_by))));
        }
    }
    for (s, x) in [("l", -1.0), ("r", 1.0)] {
        f.push((format!("f {s} 0"), (x * (hl + out_by), 0.0)));
        for d in [10, 20, 30] {
            let d = f64::from(d);
            f.push((format!("f {s} t {d}"), (x * (hl + out_by), -d)));
            f.push((format!("f {s} b {d}"), (x * (hl + out_by), d)));
        }
    }
    f
}

fn flags(out: &mut Vec<Shape>, input: &Input) {
    let r = input.view.metres(2.5);
    for (_, at) in flag_positions() {
        out.push(
            shape(
                Tag::Flag,
                Geom::Circle {
                    centre: at,
                    radius: r,
                },
            )
            .fill(FLAG)
            .stroke(Stroke::solid(super::style::INK.alpha(0.6), 1.0)),
        );
    }
}

/// Flags are orange, as the landmark posts in rcssmonitor.
const FLAG: super::style::Rgba = super::style::Rgba::rgb(255, 120, 60);

/// A line every 10 m with its coordinate at the edge of the view, so positions can be read.
fn grid(out: &mut Vec<Shape>, input: &Input) {
    let v = input.view;
    let (x0, y0, x1, y1) = v.visible();
    let colour = WHITE.alpha(0.18);
    let s = Stroke::solid(colour, 1.0);
    let label = WHITE.alpha(0.7);
    // Labels sit just inside the top-left corner of the view, whichever way it is turned.
    let (top, left) = if v.flipped {
        (y1 - v.metres(8.0), x1 - v.metres(6.0))
    } else {
        (y0 + v.metres(8.0), x0 + v.metres(6.0))
    };
    let step = if v.scale < 4.0 { 20.0 } else { 10.0 };
    let mut x = (x0 / step).ceil() * step;
    while x <= x1 {
        out.push(
            shape(
                Tag::Grid,
                Geom::Line {
                    from: (x, y0),
                    to: (x, y1),
                },
            )
            .stroke(s),
        );
        out.push(
            shape(
                Tag::Grid,
                Geom::Text {
                    at: (x, top),
                    offset: (3.0, 0.0),
                    text: format!("{x:.0}"),
                    size: 10.0,
                    align: Align::Left,
                    bold: false,
                },
            )
            .fill(label),
        );
        x += step;
    }
    let mut y = (y0 / step).ceil() * step;
    while y <= y1 {
        out.push(
            shape(
                Tag::Grid,
                Geom::Line {
                    from: (x0, y),
                    to: (x1, y),
                },
            )
            .stroke(s),
        );
        out.push(
            shape(
                Tag::Grid,
                Geom::Text {
                    at: (left, y),
                    offset: (0.0, -7.0),
                    text: format!("{y:.0}"),
                    size: 10.0,
                    align: Align::Left,
                    bold: false,
                },
            )
            .fill(label),
        );
        y += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifty_five_landmarks_all_in_sight() {
        let f = flag_positions();
        assert_eq!(f.len(), 55);
        let mut names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 55, "names are unique");
        for (n, (x, y)) in &f {
            assert!(
                x.abs() <= PITCH_HALF_LENGTH + MARGIN && y.abs() <= PITCH_HALF_WIDTH + MARGIN,
                "{n} is outside the fitted view"
            );
        }
    }
}
