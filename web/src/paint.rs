//! Paints one frame on the canvas. Game logic stays out: this reads a [`Frame`] and draws.

use crate::field::*;
use crate::settings::Colours;
use pitchside_shared::{state, Frame, Side};
use std::f64::consts::PI;
use web_sys::CanvasRenderingContext2d as Ctx;

const GRASS: &str = "#2f7d32";
const GRASS_DARK: &str = "#2a7030";
const LINE: &str = "rgba(255,255,255,0.85)";

pub fn frame(
    ctx: &Ctx,
    width: f64,
    height: f64,
    frame: Option<&Frame>,
    goal_width: f64,
    colours: &Colours,
) {
    let view = View::fit(width, height);
    pitch(ctx, &view, width, height, goal_width);
    let Some(f) = frame else { return };
    for p in &f.players {
        if p.state == 0 || p.state & state::DISCARD != 0 {
            continue;
        }
        let side = p.side.unwrap_or(Side::Left);
        let (x, y) = view.canvas_from_field(f64::from(p.x), f64::from(p.y));
        let r = view.pixels(1.1).max(6.0);
        let fill = match (side, p.is_goalie()) {
            (Side::Left, false) => &colours.left,
            (Side::Left, true) => &colours.left_goalie,
            (Side::Right, false) => &colours.right,
            (Side::Right, true) => &colours.right_goalie,
        };
        ctx.begin_path();
        let _ = ctx.arc(x, y, r, 0.0, 2.0 * PI);
        ctx.set_fill_style_str(fill);
        ctx.fill();
        ctx.set_line_width(1.5);
        ctx.set_stroke_style_str(if p.state & state::KICK != 0 {
            "#fff"
        } else {
            "#111"
        });
        ctx.stroke();
        // Body direction: a line from the centre to the rim.
        let a = f64::from(p.body).to_radians();
        ctx.begin_path();
        ctx.move_to(x, y);
        ctx.line_to(x + r * a.cos(), y + r * a.sin());
        ctx.set_stroke_style_str("#111");
        ctx.set_line_width(2.0);
        ctx.stroke();
        if p.state & (state::YELLOW_CARD | state::RED_CARD) != 0 {
            ctx.set_fill_style_str(if p.state & state::RED_CARD != 0 {
                "#e02020"
            } else {
                "#ffe000"
            });
            ctx.fill_rect(x + r * 0.6, y - r * 1.4, r * 0.6, r * 0.8);
        }
        ctx.set_fill_style_str("#fff");
        ctx.set_font(&format!(
            "bold {}px sans-serif",
            (r * 1.1).round().max(10.0)
        ));
        ctx.set_text_align("left");
        ctx.set_text_baseline("bottom");
        let _ = ctx.fill_text(&p.unum.to_string(), x + r * 0.8, y - r * 0.5);
    }
    let (bx, by) = view.canvas_from_field(f64::from(f.ball.x), f64::from(f.ball.y));
    ctx.begin_path();
    let _ = ctx.arc(bx, by, view.pixels(0.5).max(4.0), 0.0, 2.0 * PI);
    ctx.set_fill_style_str("#fff");
    ctx.fill();
    ctx.set_line_width(1.5);
    ctx.set_stroke_style_str("#000");
    ctx.stroke();
}

fn pitch(ctx: &Ctx, v: &View, width: f64, height: f64, goal_width: f64) {
    ctx.set_fill_style_str(GRASS);
    ctx.fill_rect(0.0, 0.0, width, height);
    // Mown stripes every 10 m, as on a real pitch: they help judge distances.
    ctx.set_fill_style_str(GRASS_DARK);
    let mut x = -PITCH_HALF_LENGTH;
    let mut dark = false;
    while x < PITCH_HALF_LENGTH {
        if dark {
            let (x0, y0) = v.canvas_from_field(x, -PITCH_HALF_WIDTH);
            ctx.fill_rect(x0, y0, v.pixels(10.5), v.pixels(2.0 * PITCH_HALF_WIDTH));
        }
        dark = !dark;
        x += 10.5;
    }
    ctx.set_stroke_style_str(LINE);
    ctx.set_line_width(v.pixels(0.12).max(1.0));
    rect(
        ctx,
        v,
        -PITCH_HALF_LENGTH,
        -PITCH_HALF_WIDTH,
        PITCH_HALF_LENGTH,
        PITCH_HALF_WIDTH,
    );
    line(ctx, v, 0.0, -PITCH_HALF_WIDTH, 0.0, PITCH_HALF_WIDTH);
    circle(ctx, v, 0.0, 0.0, CENTRE_CIRCLE_RADIUS, false);
    circle(ctx, v, 0.0, 0.0, 0.3, true);
    for sign in [-1.0, 1.0] {
        let goal_line = sign * PITCH_HALF_LENGTH;
        rect(
            ctx,
            v,
            goal_line,
            -PENALTY_AREA_HALF_WIDTH,
            goal_line - sign * PENALTY_AREA_LENGTH,
            PENALTY_AREA_HALF_WIDTH,
        );
        rect(
            ctx,
            v,
            goal_line,
            -GOAL_AREA_HALF_WIDTH,
            goal_line - sign * GOAL_AREA_LENGTH,
            GOAL_AREA_HALF_WIDTH,
        );
        let spot = goal_line - sign * PENALTY_SPOT_DISTANCE;
        circle(ctx, v, spot, 0.0, 0.3, true);
        // The arc of the penalty area: the part of a 9.15 m circle round the spot outside it.
        let edge = PENALTY_AREA_LENGTH - PENALTY_SPOT_DISTANCE;
        let half = (edge / CENTRE_CIRCLE_RADIUS).acos();
        let (cx, cy) = v.canvas_from_field(spot, 0.0);
        let facing = if sign > 0.0 { PI } else { 0.0 };
        ctx.begin_path();
        let _ = ctx.arc(
            cx,
            cy,
            v.pixels(CENTRE_CIRCLE_RADIUS),
            facing - half,
            facing + half,
        );
        ctx.stroke();
        // Goal: drawn behind the goal line, filled so it reads at a glance.
        let (gx0, gy0) = v.canvas_from_field(goal_line, -goal_width / 2.0);
        let depth = v.pixels(GOAL_DEPTH) * sign;
        ctx.set_fill_style_str("rgba(255,255,255,0.35)");
        ctx.fill_rect(gx0.min(gx0 + depth), gy0, depth.abs(), v.pixels(goal_width));
        ctx.stroke_rect(gx0.min(gx0 + depth), gy0, depth.abs(), v.pixels(goal_width));
    }
}

fn line(ctx: &Ctx, v: &View, x0: f64, y0: f64, x1: f64, y1: f64) {
    let (a, b) = v.canvas_from_field(x0, y0);
    let (c, d) = v.canvas_from_field(x1, y1);
    ctx.begin_path();
    ctx.move_to(a, b);
    ctx.line_to(c, d);
    ctx.stroke();
}

fn rect(ctx: &Ctx, v: &View, x0: f64, y0: f64, x1: f64, y1: f64) {
    let (a, b) = v.canvas_from_field(x0.min(x1), y0.min(y1));
    ctx.stroke_rect(a, b, v.pixels((x1 - x0).abs()), v.pixels((y1 - y0).abs()));
}

fn circle(ctx: &Ctx, v: &View, x: f64, y: f64, r: f64, fill: bool) {
    let (cx, cy) = v.canvas_from_field(x, y);
    ctx.begin_path();
    let _ = ctx.arc(cx, cy, v.pixels(r), 0.0, 2.0 * PI);
    if fill {
        ctx.set_fill_style_str(LINE);
        ctx.fill();
    } else {
        ctx.stroke();
    }
}
