//! Offside lines: for each team, the line its defence makes.
//!
//! The x of the team's second-last player counted from its own goal line (the goalie usually
//! being the last), or the ball's when the ball is nearer that goal line; never in the other
//! half (an attacker in his own half is never offside).

use super::players::{drawn, team_colour};
use super::style::{self, INK};
use super::Dash;
use super::{Align, Geom, Input, Owner, Shape, Stroke, Tag};
use crate::field::PITCH_HALF_WIDTH;
use pitchside_shared::{Frame, Side};

/// The x of each team's offside line: `[left team's, right team's]`. `None` for a team with
/// fewer than two players on the field.
pub fn lines(frame: &Frame) -> [Option<f64>; 2] {
    let ball = f64::from(frame.ball.x);
    let mut out = [None, None];
    for side in [Side::Left, Side::Right] {
        // Distance from the team's own goal line grows with x for the left team.
        let sign = if side == Side::Left { 1.0 } else { -1.0 };
        let mut xs: Vec<f64> = frame
            .players
            .iter()
            .filter(|p| {
                p.side == Some(side) && drawn(p) && p.state & super::style::bits::RED_CARD == 0
            })
            .map(|p| sign * f64::from(p.x))
            .collect();
        if xs.len() < 2 {
            continue;
        }
        xs.sort_by(f64::total_cmp);
        let line = xs[1].min(sign * ball).min(0.0);
        out[side.index()] = Some(sign * line);
    }
    out
}

pub fn build(out: &mut Vec<Shape>, input: &Input, x: [Option<f64>; 2]) {
    for side in [Side::Left, Side::Right] {
        let Some(x) = x[side.index()] else { continue };
        let colour = team_colour(input.colours, side, false);
        let (y0, y1) = (-PITCH_HALF_WIDTH, PITCH_HALF_WIDTH);
        out.push(
            Shape::new(
                Tag::OffsideLine,
                Owner::Team(side),
                Geom::Line {
                    from: (x, y0),
                    to: (x, y1),
                },
            )
            .stroke(Stroke::dashed(colour.alpha(0.9), style::THIN, Dash::Dashed)),
        );
        // Named above the top touch line, on the offside side of the line (toward the
        // team's goal), whichever way the view is turned.
        let toward_goal = if side == Side::Left { -1.0 } else { 1.0 };
        let flipped = if input.view.flipped { -1.0 } else { 1.0 };
        let toward_goal = toward_goal * flipped;
        out.push(
            Shape::new(
                Tag::OffsideLine,
                Owner::Team(side),
                Geom::Text {
                    at: (x, if input.view.flipped { y1 } else { y0 }),
                    offset: (toward_goal * 4.0, -8.0),
                    text: "offside".into(),
                    size: 10.0,
                    align: if toward_goal < 0.0 {
                        Align::Right
                    } else {
                        Align::Left
                    },
                    bold: false,
                },
            )
            .fill(colour)
            .stroke(Stroke::solid(INK.alpha(0.8), 3.0)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;
    use pitchside_shared::PlayMode;

    #[test]
    fn second_last_defender_or_ball_never_past_half_way_on_real_frames() {
        let m = testutil::full();
        let mut ball_decides = 0;
        for f in m
            .frames
            .iter()
            .filter(|f| f.mode == PlayMode::PLAY_ON)
            .step_by(7)
        {
            let [l, r] = lines(f);
            let (l, r) = (l.unwrap(), r.unwrap());
            assert!(l <= 0.0 && r >= 0.0, "cycle {}: {l} {r}", f.time);
            let mut xl: Vec<f64> = f.players[..11]
                .iter()
                .filter(|p| drawn(p))
                .map(|p| f64::from(p.x))
                .collect();
            xl.sort_by(f64::total_cmp);
            let expected = xl[1].min(f64::from(f.ball.x)).min(0.0);
            assert_eq!(l, expected, "cycle {}", f.time);
            let mut xr: Vec<f64> = f.players[11..]
                .iter()
                .filter(|p| drawn(p))
                .map(|p| f64::from(p.x))
                .collect();
            xr.sort_by(|a, b| b.total_cmp(a));
            assert_eq!(
                r,
                xr[1].max(f64::from(f.ball.x)).max(0.0),
                "cycle {}",
                f.time
            );
            if f64::from(f.ball.x) < xl[1] && f.ball.x < 0.0 {
                ball_decides += 1;
            }
        }
        assert!(
            ball_decides > 10,
            "the ball sets the line sometimes: {ball_decides}"
        );
    }

    #[test]
    fn a_frame_with_nobody_on_the_field_has_no_line() {
        let m = testutil::short_v6();
        let mut f = m.frames[10].clone();
        for p in &mut f.players {
            p.state = 0;
        }
        assert_eq!(lines(&f), [None, None]);
    }
}
