//! The ball: where it is, its velocity, where it will roll if nobody touches it, and the trails
//! of the ball and the players over the last cycles.

use super::motion::TELEPORT_METRES;
use super::style::{self, Rgba, BALL_PATH, INK};
use super::style::{drawn, team_colour};
use super::{
    input::Input, shape::Geom, shape::Owner, shape::Scene, shape::Shape, shape::Stroke, shape::Tag,
    shape::P,
};
use crate::settings::Trails;
use rcss_formats::{Frame, Side};

/// Below this speed (m/cycle) the server stops the ball (`stopped_ball_vel`).
const STOPPED: f64 = 0.01;
/// The longest path drawn: the ball at full speed (3 m/cycle) with decay 0.94 is below the
/// stopped speed after ~95 cycles.
const MAX_PATH_CYCLES: usize = 120;

/// Positions of a ball at `at` moving `v` per cycle, one per cycle, with decay `decay`, until
/// it stops. The first point is the ball itself.
pub fn path(at: P, v: P, decay: f64) -> Vec<P> {
    let mut out = vec![at];
    let (mut p, mut v) = (at, v);
    for _ in 0..MAX_PATH_CYCLES {
        if v.0.hypot(v.1) < STOPPED {
            break;
        }
        p = (p.0 + v.0, p.1 + v.1);
        v = (v.0 * decay, v.1 * decay);
        out.push(p);
    }
    out
}

pub fn build(scene: &mut Scene, input: &Input, frame: &Frame) {
    let v = input.view;
    let s = input.settings;
    let at = (f64::from(frame.ball.x), f64::from(frame.ball.y));
    let vel = (f64::from(frame.ball.vx), f64::from(frame.ball.vy));
    let colour = Rgba::parse(&s.ball_colour).unwrap_or(super::style::WHITE);
    let out = &mut scene.shapes;
    if s.ball_path {
        let points = path(at, vel, input.params.ball_decay);
        if points.len() > 1 {
            let end = points[points.len() - 1];
            // A dot per cycle: their spacing shows the ball slowing down.
            let dot = v.metres(1.6);
            for p in points.iter().skip(1) {
                out.push(
                    Shape::new(
                        Tag::BallPath,
                        Owner::Ball,
                        Geom::Circle {
                            centre: *p,
                            radius: dot,
                        },
                    )
                    .fill(BALL_PATH.alpha(0.55)),
                );
            }
            out.push(
                Shape::new(
                    Tag::BallPath,
                    Owner::Ball,
                    Geom::Circle {
                        centre: end,
                        radius: v.metres(4.0),
                    },
                )
                .stroke(Stroke::solid(BALL_PATH, style::THIN)),
            );
        }
    }
    if s.ball_velocity && vel.0.hypot(vel.1) >= STOPPED {
        // Where the ball is next cycle.
        let to = (at.0 + vel.0, at.1 + vel.1);
        out.push(
            Shape::new(Tag::BallVelocity, Owner::Ball, Geom::Line { from: at, to })
                .stroke(Stroke::solid(Rgba::rgb(255, 80, 80), 2.0)),
        );
    }
    out.push(
        Shape::new(
            Tag::Ball,
            Owner::Ball,
            Geom::Circle {
                centre: at,
                radius: input.params.ball_size.max(v.metres(4.0)),
            },
        )
        .fill(colour)
        .stroke(Stroke::solid(INK, style::THIN)),
    );
    scene.ball = Some(at);
}

/// Polylines through the last `trail_cycles` positions, split where something teleported.
pub fn trails(out: &mut Vec<Shape>, input: &Input, shown: &Frame) {
    let s = input.settings;
    if s.trails == Trails::Off || s.trail_cycles == 0 {
        return;
    }
    let n = s.trail_cycles as usize;
    let past = &input.history[input.history.len().saturating_sub(n)..];
    let ball = |f: &Frame| (f64::from(f.ball.x), f64::from(f.ball.y));
    push_trail(
        out,
        Owner::Ball,
        past.iter().map(ball).chain([ball(shown)]),
        BALL_PATH.alpha(0.6),
    );
    if s.trails != Trails::All {
        return;
    }
    for (slot, p) in shown.players.iter().enumerate() {
        if !drawn(p) {
            continue;
        }
        let side = p.side.unwrap_or(Side::Left);
        let points = past
            .iter()
            .filter_map(|f| f.players.get(slot))
            .filter(|q| drawn(q) && q.unum == p.unum)
            .map(|q| (f64::from(q.x), f64::from(q.y)))
            .chain([(f64::from(p.x), f64::from(p.y))]);
        push_trail(
            out,
            Owner::Player(side, p.unum),
            points,
            team_colour(input.colours, side, p.is_goalie()).alpha(0.55),
        );
    }
}

fn push_trail(out: &mut Vec<Shape>, who: Owner, points: impl Iterator<Item = P>, colour: Rgba) {
    let mut run: Vec<P> = Vec::new();
    let mut flush = |run: &mut Vec<P>| {
        if run.len() > 1 {
            out.push(
                Shape::new(
                    Tag::Trail,
                    who,
                    Geom::Path {
                        points: std::mem::take(run),
                        closed: false,
                    },
                )
                .stroke(Stroke::solid(colour, style::THIN)),
            );
        }
        run.clear();
    };
    for p in points {
        if let Some(last) = run.last() {
            if (p.0 - last.0).hypot(p.1 - last.1) > TELEPORT_METRES {
                flush(&mut run);
            }
        }
        run.push(p);
    }
    flush(&mut run);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_stops_where_the_decay_says() {
        let p = path((0.0, 0.0), (2.0, 0.0), 0.94);
        let end = p.last().unwrap().0;
        // v / (1 − d) in all, less the tail below the stopped speed.
        assert!(
            end < 2.0 / 0.06 && end > 2.0 / 0.06 - STOPPED / 0.06 - 1e-9,
            "{end}"
        );
        // One step for every speed 2·0.94^k still at or above the stopped speed.
        let steps = ((STOPPED / 2.0f64).ln() / 0.94f64.ln()).floor() as usize + 1;
        assert_eq!(p.len() - 1, steps);
        assert_eq!(path((1.0, 1.0), (0.0, 0.0), 0.94), vec![(1.0, 1.0)]);
    }
}
