//! An action picked in the analysis panel, drawn over the field while its frames show: a
//! pass as an arrow from the kick to the receiver's touch (green completed, red intercepted),
//! a shot as its line to the goal (coloured by its outcome), a dribble as a dashed arrow, and
//! a ring where any other action happened.

use super::{shape::Geom, shape::Owner, shape::Shape, shape::Stroke, shape::Tag, shape::P};
use super::{style::Dash, style::Rgba};
use pitchside_analysis::actions::{Action, ActionKind, ShotOutcome};

/// Frames before its start and after its end that an action stays drawn.
const BEFORE: usize = 5;
const AFTER: usize = 40;

/// Whether `a` is drawn at frame `index`.
pub fn shows_at(a: &Action, index: usize) -> bool {
    let end = a.end_frame.unwrap_or(a.frame).max(a.frame);
    index + BEFORE >= a.frame && index <= end + AFTER
}

fn colour(a: &Action) -> Rgba {
    match a.kind {
        ActionKind::Pass {
            completed: true, ..
        } => Rgba::rgb(140, 255, 120),
        ActionKind::Pass { .. } => Rgba::rgb(255, 90, 70),
        ActionKind::Shot { outcome, .. } => match outcome {
            ShotOutcome::Goal { .. } => Rgba::rgb(255, 216, 74),
            ShotOutcome::Saved => Rgba::rgb(120, 200, 255),
            ShotOutcome::Blocked => Rgba::rgb(210, 210, 210),
            ShotOutcome::Missed => Rgba::rgb(255, 110, 95),
        },
        _ => Rgba::rgb(255, 255, 255),
    }
}

fn p((x, y): (f32, f32)) -> P {
    (f64::from(x), f64::from(y))
}

/// The shapes of `a`, with `px` metres to a canvas pixel (arrowheads keep their size).
pub fn build(out: &mut Vec<Shape>, a: &Action, px: f64) {
    let c = colour(a);
    let owner = Owner::Player(a.side, a.unum);
    let from = p(a.from);
    let ring = |out: &mut Vec<Shape>, at: P| {
        out.push(
            Shape::new(
                Tag::Action,
                owner,
                Geom::Circle {
                    centre: at,
                    radius: 14.0 * px,
                },
            )
            .stroke(Stroke::solid(c, 3.0)),
        );
    };
    ring(out, from);
    let Some(to) = a.to.map(p) else { return };
    if matches!(
        a.kind,
        ActionKind::PenaltyAreaEntry | ActionKind::Kick | ActionKind::Recovery
    ) {
        return;
    }
    let dash = if matches!(a.kind, ActionKind::Dribble { .. }) {
        Dash::Dashed
    } else {
        Dash::Solid
    };
    out.push(
        Shape::new(Tag::Action, owner, Geom::Line { from, to })
            .stroke(Stroke::dashed(c, 3.0, dash)),
    );
    // The arrowhead, 12 pixels long.
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len > 0.0 {
        let (ux, uy) = (dx / len, dy / len);
        let head = Geom::arrowhead(to, (ux, uy), 12.0 * px, 0.5);
        out.push(Shape::new(Tag::Action, owner, head).fill(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_analysis::actions::Direction;
    use rcss_formats::Side;

    #[test]
    fn a_pass_is_an_arrow_shown_from_its_kick_to_a_while_after_its_receipt() {
        let a = Action {
            kind: ActionKind::Pass {
                receiver: 9,
                completed: true,
                direction: Direction::Forward,
                through: false,
            },
            side: Side::Left,
            unum: 7,
            cycle: 100,
            frame: 120,
            from: (0.0, 0.0),
            to: Some((20.0, 5.0)),
            end_frame: Some(130),
        };
        let mut out = Vec::new();
        build(&mut out, &a, 0.1);
        assert_eq!(out.len(), 3, "ring, line, head");
        assert!(out.iter().all(|s| s.tag == Tag::Action));
        assert!(matches!(
            out[1].geom,
            Geom::Line {
                to: (20.0, 5.0),
                ..
            }
        ));
        assert!(shows_at(&a, 120) && shows_at(&a, 130) && shows_at(&a, 170));
        assert!(!shows_at(&a, 100) && !shows_at(&a, 171));
    }
}
