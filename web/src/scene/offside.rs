//! Offside lines: for each team, the line its defence makes.
//!
//! The x of the team's second-last player counted from its own goal line (the goalie usually
//! being the last), or the ball's when the ball is nearer that goal line; never in the other
//! half (an attacker in his own half is never offside).

use super::style::Dash;
use super::style::{self, INK};
use super::style::{drawn, team_colour};
use super::{
    input::Input, shape::Align, shape::Geom, shape::Owner, shape::Shape, shape::Stroke, shape::Tag,
};
use crate::field::PITCH_HALF_WIDTH;
use rcss_formats::{Frame, Side};

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

/// The label's font size, pixels.
const LABEL_SIZE: f64 = 10.0;
/// Its halo, pixels.
const LABEL_HALO: f64 = 3.0;
/// How much room the label is given when placed: "offside" at 10 px is about 31 px wide in
/// the usual sans-serif fonts and 13 px high with its halo; the scene cannot measure text (a
/// canvas does, where it draws), so it keeps this much clear, wider fonts included.
const LABEL_ROOM: (f64, f64) = (46.0, 16.0);
/// From the line to the label's near end, and from a touch line (or the page's controls) to
/// the label's middle, pixels.
const LABEL_GAP: (f64, f64) = (4.0, 8.0);

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
        let (at, offset, align) = label_place(input, side, x);
        out.push(
            Shape::new(
                Tag::OffsideLine,
                Owner::Team(side),
                Geom::Text {
                    at,
                    offset,
                    text: "offside".into(),
                    size: LABEL_SIZE,
                    align,
                    bold: false,
                },
            )
            .fill(colour)
            .stroke(Stroke::solid(INK.alpha(0.8), LABEL_HALO)),
        );
    }
}

/// Where a team's label goes: on the offside side of its line (toward the team's goal),
/// whichever way the view is turned; below the touch line drawn lower on screen, where the
/// page puts none of its controls over the field; else above the upper one; else on the
/// line just below the controls over it (and below the upper touch line); whichever is
/// first on the canvas and clear of everything in `input.covered`. When none is (the line's
/// ends are off the canvas), below the lower touch line.
fn label_place(input: &Input, side: Side, x: f64) -> (super::shape::P, (f64, f64), Align) {
    let view = input.view;
    let toward_goal = if side == Side::Left { -1.0 } else { 1.0 };
    let toward_goal = toward_goal * if view.flipped { -1.0 } else { 1.0 };
    let align = if toward_goal < 0.0 {
        Align::Right
    } else {
        Align::Left
    };
    let dx = toward_goal * LABEL_GAP.0;
    let (top, bottom) = if view.flipped {
        (PITCH_HALF_WIDTH, -PITCH_HALF_WIDTH)
    } else {
        (-PITCH_HALF_WIDTH, PITCH_HALF_WIDTH)
    };
    let mut places = vec![
        ((x, bottom), (dx, LABEL_GAP.1)),
        ((x, top), (dx, -LABEL_GAP.1)),
    ];
    let px = view.canvas_from_field(x, 0.0).0;
    let (line_top, line_bottom) = (
        view.canvas_from_field(x, top).1,
        view.canvas_from_field(x, bottom).1,
    );
    for c in input.covered {
        let under = c[3].max(line_top) + LABEL_GAP.1;
        if c[0] <= px && px <= c[2] && under < line_bottom {
            let y = view.field_from_canvas(px, under).1;
            places.push(((x, y), (dx, 0.0)));
        }
    }
    let room = |(at, offset): &(super::shape::P, (f64, f64))| {
        let (ax, ay) = view.canvas_from_field(at.0, at.1);
        let (ax, ay) = (ax + offset.0, ay + offset.1);
        let (left, right) = match align {
            Align::Right => (ax - LABEL_ROOM.0, ax),
            _ => (ax, ax + LABEL_ROOM.0),
        };
        [
            left,
            ay - LABEL_ROOM.1 / 2.0,
            right,
            ay + LABEL_ROOM.1 / 2.0,
        ]
    };
    // On the canvas from top to bottom (every place has the same width), and clear.
    let fits = |r: [f64; 4]| {
        r[1] >= 0.0 && r[3] <= view.height && input.covered.iter().all(|c| !meets(&r, c))
    };
    let (at, offset) = places
        .iter()
        .copied()
        .find(|p| fits(room(p)))
        .unwrap_or(places[0]);
    (at, offset, align)
}

/// Whether two canvas rectangles `[left, top, right, bottom]` overlap.
pub fn meets(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::View;
    use crate::scene::{testutil, FieldParams};
    use rcss_formats::PlayMode;

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

    /// Where the right team's label is drawn (its anchor on the canvas: the text's middle,
    /// at its near end) at cycle 115 of the short log, when that team defends deep in its
    /// half (its line at 49.5 m, under where the page's zoom buttons are).
    fn right_label(view: &View, covered: &[[f64; 4]]) -> (f64, f64) {
        let m = testutil::short_v6();
        let f = m.frames.iter().find(|f| f.time == 115).expect("cycle 115");
        let x = lines(f)[1].expect("a line");
        assert!(x > 49.0, "{x}");
        let params = FieldParams::of_match(m);
        let scene = crate::scene::build(&Input {
            covered,
            ..testutil::input(f, &params, view)
        });
        let Some(Geom::Text { at, offset, .. }) = scene
            .with_tag(Tag::OffsideLine)
            .filter(|s| s.owner == Owner::Team(Side::Right))
            .map(|s| &s.geom)
            .find(|g| matches!(g, Geom::Text { .. }))
        else {
            panic!("the right team's label");
        };
        let (px, py) = view.canvas_from_field(at.0, at.1);
        (px + offset.0, py + offset.1)
    }

    #[test]
    fn the_label_keeps_out_from_under_the_page_controls() {
        // The whole field on a 1000×640 canvas (a laptop's, a panel beside it): below the
        // lower touch line, on the goal's side of the line, whether the field's buttons (top
        // right, 166 by 30 px) are there or not; turned round, still below the lower one.
        let view = View::fit(1000.0, 640.0);
        let tools = [826.0, 8.0, 992.0, 38.0];
        let bottom = view.canvas_from_field(0.0, PITCH_HALF_WIDTH).1;
        let top = view.canvas_from_field(0.0, -PITCH_HALF_WIDTH).1;
        let line = view.canvas_from_field(49.5, 0.0).0;
        for covered in [&[][..], &[tools][..]] {
            let (x, y) = right_label(&view, covered);
            assert!((y - (bottom + LABEL_GAP.1)).abs() < 1e-9, "{y}");
            assert!(x > line && x < line + 10.0, "{x} {line}");
        }
        // Where the old place above the upper touch line was: under the buttons.
        let old = [
            line + 4.0,
            top - 8.0 - 6.5,
            line + 4.0 + 31.0,
            top - 8.0 + 6.5,
        ];
        assert!(meets(&old, &tools), "{old:?} {tools:?}");
        let flipped = View {
            flipped: true,
            ..view
        };
        let (x, y) = right_label(&flipped, &[tools]);
        assert!((y - (bottom + LABEL_GAP.1)).abs() < 1e-9, "{y}");
        assert!(
            x < flipped.canvas_from_field(49.5, 0.0).0,
            "toward the goal, now left"
        );

        // Something over the lower end: above the upper touch line instead; with the
        // buttons there too, on the line below them and the touch line.
        let (lx, ly) = right_label(&view, &[]);
        let low = [lx - 10.0, ly - 20.0, lx + 60.0, ly + 20.0];
        let (_, y) = right_label(&view, &[low]);
        assert!((y - (top - LABEL_GAP.1)).abs() < 1e-9, "{y}");
        let (_, y) = right_label(&view, &[tools, low]);
        assert!((y - (top + LABEL_GAP.1)).abs() < 1e-9, "{y}");

        // Zoomed in with the lower touch line off the canvas and the upper one under the
        // buttons: just below the buttons, on the line.
        let near = View {
            scale: view.scale * 3.0,
            centre: (45.0, -25.0),
            ..view
        };
        let line = near.canvas_from_field(49.5, 0.0).0;
        let tools = [line - 100.0, 0.0, line + 200.0, 120.0];
        let top = near.canvas_from_field(0.0, -PITCH_HALF_WIDTH).1;
        assert!(top > 16.0 && top < tools[3], "{top}");
        assert!(near.canvas_from_field(0.0, PITCH_HALF_WIDTH).1 > near.height);
        let (_, y) = right_label(&near, &[tools]);
        assert!((y - (tools[3] + LABEL_GAP.1)).abs() < 1e-9, "{y}");
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
