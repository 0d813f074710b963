//! The players: body, body and face directions, view cone, stamina, cards, the rings that mark
//! state bits, pointto/focus/attentionto, the selected player's areas, and the labels, placed
//! so that they do not cover each other.

use super::style::{self, bits, drawn, team_colour, Dash, Rgba, HIGHLIGHTS, INK, WHITE};
use super::{
    input::Input, shape::Align, shape::Geom, shape::Owner, shape::PlayerMark, shape::Scene,
    shape::Shape, shape::Stroke, shape::Tag, shape::P,
};
use crate::settings::Cones;
use rcss_formats::{Frame, Player, Side, ViewQuality};

/// Smallest body drawn, in canvas pixels: a 0.3 m player is 3 px across when the whole field
/// is on a laptop screen.
const MIN_BODY_PX: f64 = 5.5;
/// How far a view cone reaches. Players see further, but a longer cone covers the field;
/// this shows the direction and width, which is what goes wrong in an agent.
pub const CONE_LENGTH: f64 = 20.0;
/// Everyone's cones are shorter, so 22 of them do not wash over the whole pitch.
pub const CONE_LENGTH_ALL: f64 = 12.0;
/// Gap between the body and the first ring, and between rings, in pixels.
const RING_GAP_PX: f64 = 3.0;
/// Canvas pixels per metre from which the marks of a fixed pixel size (numbers, the smallest
/// body, stamina bars, cards) have their full size: the whole field on a canvas about 700 px
/// wide. On a phone the whole field is under 400 px wide, where they would cover the play.
const FULL_MARKS_SCALE: f64 = 6.0;
/// How far those marks shrink at most: numbers stay 8 px high, readable on a phone's screen.
const MIN_MARKS: f64 = 0.75;

/// The size of the fixed-size marks for this view, from [`MIN_MARKS`] to 1: smaller while the
/// whole field fits a small canvas, full size again once zoomed in.
fn marks_scale(v: &crate::field::View) -> f64 {
    (v.scale / FULL_MARKS_SCALE).clamp(MIN_MARKS, 1.0)
}

/// Sent off with a red card: the server keeps him off the pitch.
fn sent_off(p: &Player) -> bool {
    p.state & bits::RED_CARD != 0
}

fn unit(degrees: f64) -> P {
    let r = degrees.to_radians();
    (r.cos(), r.sin())
}

fn add(p: P, d: P, k: f64) -> P {
    (p.0 + d.0 * k, p.1 + d.1 * k)
}

/// A rectangle in a player's body frame (x ahead, y to the right) turned onto the field.
fn body_rect(at: P, body_deg: f64, x0: f64, x1: f64, y0: f64, y1: f64) -> Vec<P> {
    let (c, s) = unit(body_deg);
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        .iter()
        .map(|&(x, y)| (at.0 + x * c - y * s, at.1 + x * s + y * c))
        .collect()
}

struct Drawn<'a> {
    p: &'a Player,
    side: Side,
    at: P,
    /// Body radius drawn, metres.
    r: f64,
    colour: Rgba,
    selected: bool,
    dim: bool,
}

pub fn build(scene: &mut Scene, input: &Input, frame: &Frame) {
    let v = input.view;
    let s = input.settings;
    let players: Vec<Drawn> = frame
        .players
        .iter()
        .filter(|p| drawn(p))
        .filter_map(|p| {
            let side = p.side?;
            let kick = input.params.kickable_radius(p.player_type);
            Some(Drawn {
                p,
                side,
                at: (f64::from(p.x), f64::from(p.y)),
                r: kick.max(v.metres(MIN_BODY_PX * marks_scale(v))),
                colour: team_colour(input.colours, side, p.is_goalie()),
                selected: input.selected == Some((side, p.unum)),
                dim: sent_off(p),
            })
        })
        .collect();
    let out = &mut scene.shapes;

    // Under everything: view cones.
    for d in &players {
        let wanted = match s.view_cones {
            Cones::Off => false,
            Cones::Selected => d.selected,
            Cones::All => true,
        };
        if wanted && !d.dim {
            cone(out, d, s.view_cones == Cones::All && !d.selected);
        }
    }
    // The selected player's reach.
    if s.areas {
        for d in players.iter().filter(|d| d.selected && !d.dim) {
            areas(out, input, d);
        }
    }
    if s.intentions {
        for d in players.iter().filter(|d| !d.dim) {
            intentions(out, input, d, &players);
        }
    }
    for d in &players {
        body(out, input, d);
    }
    labels(out, input, &players);
    scene.players = players
        .iter()
        .map(|d| PlayerMark {
            side: d.side,
            unum: d.p.unum,
            x: d.at.0,
            y: d.at.1,
            radius: d.r,
            goalie: d.p.is_goalie(),
        })
        .collect();
}

fn owner(d: &Drawn) -> Owner {
    Owner::Player(d.side, d.p.unum)
}

/// The face direction (body + neck), degrees.
fn face(p: &Player) -> f64 {
    f64::from(p.body) + f64::from(p.neck)
}

fn cone(out: &mut Vec<Shape>, d: &Drawn, faint: bool) {
    let Some((quality, width)) = d.p.view else {
        return;
    };
    let face = face(d.p).to_radians();
    let half = f64::from(width).to_radians() / 2.0;
    let high = quality == ViewQuality::High;
    // Low quality sees no distances: a fainter, dashed cone.
    let alpha = match (high, faint) {
        (true, false) => 0.2,
        (true, true) => 0.1,
        (false, false) => 0.1,
        (false, true) => 0.05,
    };
    out.push(
        Shape::new(
            Tag::ViewCone,
            owner(d),
            Geom::Sector {
                centre: d.at,
                radius: if faint { CONE_LENGTH_ALL } else { CONE_LENGTH },
                start: face - half,
                end: face + half,
            },
        )
        .fill(d.colour.alpha(alpha))
        .stroke(Stroke::dashed(
            d.colour.alpha(if faint { 0.3 } else { 0.6 }),
            1.0,
            if high { Dash::Solid } else { Dash::Dashed },
        )),
    );
}

fn areas(out: &mut Vec<Shape>, input: &Input, d: &Drawn) {
    let params = input.params;
    let body = f64::from(d.p.body);
    // What the player feels around him whatever his view.
    out.push(
        Shape::new(
            Tag::VisibleRange,
            owner(d),
            Geom::Circle {
                centre: d.at,
                radius: params.visible_distance,
            },
        )
        .stroke(Stroke::dashed(WHITE.alpha(0.45), 1.0, Dash::Dotted)),
    );
    let tackle = Rgba::rgb(255, 70, 220);
    out.push(
        Shape::new(
            Tag::TackleArea,
            owner(d),
            Geom::Path {
                points: body_rect(
                    d.at,
                    body,
                    -params.tackle_back_dist,
                    params.tackle_dist,
                    -params.tackle_width,
                    params.tackle_width,
                ),
                closed: true,
            },
        )
        .fill(tackle.alpha(0.12))
        .stroke(Stroke::dashed(tackle.alpha(0.8), style::THIN, Dash::Dashed)),
    );
    if d.p.is_goalie() {
        let t = params.player_type(d.p.player_type);
        let l = params.catchable_area_l;
        let delta = l * (f64::from(t.catchable_area_l_stretch) - 1.0);
        let (l_min, l_max) = (l - delta, l + delta);
        let w = params.catchable_area_w / 2.0;
        let catch = Rgba::rgb(60, 230, 255);
        // Every place a catch can reach: the rectangle turned up to max_catch_angle.
        let reach = l_max.hypot(w);
        let turn = params.max_catch_angle.to_radians();
        out.push(
            Shape::new(
                Tag::CatchArea,
                owner(d),
                Geom::Sector {
                    centre: d.at,
                    radius: reach,
                    start: body.to_radians() - turn,
                    end: body.to_radians() + turn,
                },
            )
            .fill(catch.alpha(0.06))
            .stroke(Stroke::dashed(catch.alpha(0.4), 1.0, Dash::Dotted)),
        );
        // Straight ahead: a sure catch inside l_min, less and less likely out to l_max.
        out.push(
            Shape::new(
                Tag::CatchArea,
                owner(d),
                Geom::Path {
                    points: body_rect(d.at, body, 0.0, l_max, -w, w),
                    closed: true,
                },
            )
            .stroke(Stroke::dashed(catch, style::THIN, Dash::Dashed)),
        );
        out.push(
            Shape::new(
                Tag::CatchArea,
                owner(d),
                Geom::Path {
                    points: body_rect(d.at, body, 0.0, l_min, -w, w),
                    closed: true,
                },
            )
            .fill(catch.alpha(0.3))
            .stroke(Stroke::solid(catch, style::THIN)),
        );
    }
    // Kickable area: the body disc is drawn this size; here its edge is marked.
    out.push(
        Shape::new(
            Tag::KickableArea,
            owner(d),
            Geom::Circle {
                centre: d.at,
                radius: input.params.kickable_radius(d.p.player_type),
            },
        )
        .stroke(Stroke::dashed(WHITE, style::THIN, Dash::Dashed)),
    );
}

fn arrow(out: &mut Vec<Shape>, tag: Tag, who: Owner, from: P, to: P, colour: Rgba, input: &Input) {
    let v = input.view;
    out.push(
        Shape::new(tag, who, Geom::Line { from, to }).stroke(Stroke::solid(colour, style::THIN)),
    );
    let len = (to.0 - from.0).hypot(to.1 - from.1);
    if len < 1e-6 {
        return;
    }
    let dir = ((to.0 - from.0) / len, (to.1 - from.1) / len);
    let head = Geom::arrowhead(to, dir, v.metres(8.0), 0.45);
    out.push(Shape::new(tag, who, head).fill(colour));
}

/// Pointto arrows (everyone sees them on the field), and the selected player's focus point and
/// attentionto line (what his agent chose to listen to and look at).
fn intentions(out: &mut Vec<Shape>, input: &Input, d: &Drawn, all: &[Drawn]) {
    let v = input.view;
    if let Some((x, y)) = d.p.point {
        arrow(
            out,
            Tag::Pointto,
            owner(d),
            d.at,
            (f64::from(x), f64::from(y)),
            d.colour,
            input,
        );
    }
    if !d.selected {
        return;
    }
    if let Some((dist, dir)) = d.p.focus {
        if dist > 0.01 {
            let at = add(d.at, unit(face(d.p) + f64::from(dir)), f64::from(dist));
            let k = v.metres(5.0);
            let s = Stroke::solid(WHITE, 2.0);
            out.push(
                Shape::new(
                    Tag::FocusPoint,
                    owner(d),
                    Geom::Line {
                        from: (at.0 - k, at.1 - k),
                        to: (at.0 + k, at.1 + k),
                    },
                )
                .stroke(s),
            );
            out.push(
                Shape::new(
                    Tag::FocusPoint,
                    owner(d),
                    Geom::Line {
                        from: (at.0 - k, at.1 + k),
                        to: (at.0 + k, at.1 - k),
                    },
                )
                .stroke(s),
            );
            out.push(
                Shape::new(Tag::FocusPoint, owner(d), Geom::Line { from: d.at, to: at })
                    .stroke(Stroke::dashed(WHITE.alpha(0.5), 1.0, Dash::Dotted)),
            );
        }
    }
    if let Some((side, unum)) = d.p.attention {
        if let Some(t) = all.iter().find(|t| t.side == side && t.p.unum == unum) {
            out.push(
                Shape::new(
                    Tag::Attention,
                    owner(d),
                    Geom::Line {
                        from: d.at,
                        to: t.at,
                    },
                )
                .stroke(Stroke::dashed(d.colour, style::THIN, Dash::Dotted)),
            );
            out.push(
                Shape::new(
                    Tag::Attention,
                    owner(d),
                    Geom::Circle {
                        centre: t.at,
                        radius: t.r + v.metres(2.0),
                    },
                )
                .stroke(Stroke::dashed(d.colour, style::THIN, Dash::Dotted)),
            );
        }
    }
}

fn body(out: &mut Vec<Shape>, input: &Input, d: &Drawn) {
    let v = input.view;
    let s = input.settings;
    let alpha = if d.dim { 0.45 } else { 1.0 };
    let r_px = v.pixels(d.r);
    out.push(
        Shape::new(
            Tag::Body,
            owner(d),
            Geom::Circle {
                centre: d.at,
                radius: d.r,
            },
        )
        .fill(d.colour.alpha(alpha))
        .stroke(Stroke::solid(INK.alpha(alpha), 1.0)),
    );
    // The real body inside the kickable disc, once it is big enough to see.
    let size = f64::from(input.params.player_type(d.p.player_type).player_size);
    if v.pixels(size) >= 3.0 && size < d.r {
        out.push(
            Shape::new(
                Tag::RealBody,
                owner(d),
                Geom::Circle {
                    centre: d.at,
                    radius: size,
                },
            )
            .stroke(Stroke::solid(INK.alpha(0.6 * alpha), 1.0)),
        );
    }
    let body = unit(f64::from(d.p.body));
    out.push(
        Shape::new(
            Tag::BodyDirection,
            owner(d),
            Geom::Line {
                from: d.at,
                to: add(d.at, body, d.r),
            },
        )
        .stroke(Stroke::solid(INK.alpha(alpha), 2.0)),
    );
    if d.dim {
        card(out, v, d, style::RED_CARD);
        return;
    }
    // The face direction: a whisker outside the body, so it shows next to the body line.
    let face_dir = unit(face(d.p));
    out.push(
        Shape::new(
            Tag::FaceDirection,
            owner(d),
            Geom::Line {
                from: add(d.at, face_dir, d.r),
                to: add(d.at, face_dir, d.r + v.metres(8.0)),
            },
        )
        .stroke(Stroke::solid(WHITE, style::THIN)),
    );
    if d.p.state & bits::YELLOW_CARD != 0 {
        card(out, v, d, style::YELLOW_CARD);
    }
    let mut ring = d.r;
    if d.selected {
        ring += v.metres(RING_GAP_PX);
        out.push(
            Shape::new(
                Tag::Selection,
                owner(d),
                Geom::Circle {
                    centre: d.at,
                    radius: ring,
                },
            )
            .stroke(Stroke::solid(style::SELECTION, 2.5)),
        );
    }
    if s.highlights {
        for h in HIGHLIGHTS.iter().filter(|h| d.p.state & h.bit != 0) {
            ring += v.metres(RING_GAP_PX);
            let mut shape = Shape::new(
                Tag::Highlight,
                owner(d),
                Geom::Circle {
                    centre: d.at,
                    radius: ring,
                },
            )
            .stroke(Stroke::dashed(h.colour, 2.0, h.dash));
            shape.bit = h.bit;
            out.push(shape);
        }
    }
    if s.stamina {
        if let Some(st) = d.p.stamina {
            let params = input.params;
            let k = marks_scale(v);
            let w = (2.0 * r_px).max(14.0 * k);
            let top = v.pixels(ring) + 3.0 * k;
            let fraction = (f64::from(st.stamina) / params.stamina_max).clamp(0.0, 1.0);
            let colour = if fraction <= params.recover_dec_thr {
                style::STAMINA_EXHAUSTED
            } else if fraction <= 0.6 {
                style::STAMINA_LOW
            } else {
                style::STAMINA_OK
            };
            bar(out, d, (-w / 2.0, top), (w, 3.0 * k), fraction, colour);
            if s.stamina_details {
                if let Some(c) = st.capacity {
                    let fraction = (f64::from(c) / params.stamina_capacity).clamp(0.0, 1.0);
                    bar(
                        out,
                        d,
                        (-w / 2.0, top + 4.0 * k),
                        (w, 2.0 * k),
                        fraction,
                        style::CAPACITY,
                    );
                }
            }
        }
    }
}

fn bar(
    out: &mut Vec<Shape>,
    d: &Drawn,
    offset: (f64, f64),
    size: (f64, f64),
    fraction: f64,
    colour: Rgba,
) {
    // The frame, a pixel beyond the bar on every side, then the bar filled to `fraction`.
    let frame = (
        (offset.0 - 1.0, offset.1 - 1.0),
        (size.0 + 2.0, size.1 + 2.0),
    );
    let filled = (offset, (size.0 * fraction, size.1));
    for ((offset, size), fill) in [(frame, INK.alpha(0.75)), (filled, colour)] {
        let at = d.at;
        let rect = Geom::PixelRect { at, offset, size };
        out.push(Shape::new(Tag::StaminaBar, owner(d), rect).fill(fill));
    }
}

fn card(out: &mut Vec<Shape>, v: &crate::field::View, d: &Drawn, colour: Rgba) {
    let r_px = v.pixels(d.r);
    let (w, h) = (6.0 * marks_scale(v), 8.0 * marks_scale(v));
    out.push(
        Shape::new(
            Tag::Card,
            owner(d),
            Geom::PixelRect {
                at: d.at,
                offset: (-r_px * 0.7 - w, -r_px * 0.7 - h),
                size: (w, h),
            },
        )
        .fill(colour)
        .stroke(Stroke::solid(INK, 1.0)),
    );
}

/// A label's box in canvas pixels: left, top, right, bottom.
type Box4 = (f64, f64, f64, f64);

fn overlap(a: Box4, b: Box4) -> f64 {
    let w = a.2.min(b.2) - a.0.max(b.0);
    let h = a.3.min(b.3) - a.1.max(b.1);
    if w > 0.0 && h > 0.0 {
        w * h
    } else {
        0.0
    }
}

/// A share (effort, recovery) in few characters: `.92`, `1`.
fn share(v: f32) -> String {
    if v >= 0.995 {
        return "1".into();
    }
    let s = format!("{v:.2}");
    s.strip_prefix('0').map(str::to_owned).unwrap_or(s)
}

/// Each player's number, and on demand his type and stamina figures, in a small block beside
/// him. Blocks go where they cover the fewest other labels and bodies (upper right first,
/// then the other corners and sides), the selected player's first. Where even the best place
/// would cover something, a player other than the selected one shows his number and type
/// only: a label under another is unreadable anyway.
fn labels(out: &mut Vec<Shape>, input: &Input, players: &[Drawn]) {
    let v = input.view;
    let s = input.settings;
    let bodies: Vec<Box4> = players
        .iter()
        .map(|d| {
            let (x, y) = v.canvas_from_field(d.at.0, d.at.1);
            let r = v.pixels(d.r);
            (x - r, y - r, x + r, y + r)
        })
        .collect();
    let mut taken: Vec<Box4> = bodies.clone();
    // The page's controls over the canvas: a label under them cannot be read. (After the
    // bodies, whose places in the list name their players.)
    taken.extend(input.covered.iter().map(|c| (c[0], c[1], c[2], c[3])));
    let mut order: Vec<(usize, &Drawn)> = players.iter().enumerate().collect();
    order.sort_by_key(|(_, d)| !d.selected);
    for (me, d) in order {
        let (x, y) = v.canvas_from_field(d.at.0, d.at.1);
        let r = v.pixels(d.r);
        let k = marks_scale(v);
        let size = (r * 1.1).clamp(11.0 * k, 16.0);
        let small = (size * 0.8).max(10.0 * k);
        let mut lines: Vec<(String, f64, bool)> = vec![(d.p.unum.to_string(), size, true)];
        if s.player_types {
            lines.push((format!("t{}", d.p.player_type), small, false));
        }
        let short = lines.len();
        if s.stamina_details {
            if let Some(st) = d.p.stamina {
                let mut t = format!(
                    "{:.0} e{} r{}",
                    st.stamina,
                    share(st.effort),
                    share(st.recovery)
                );
                if let Some(c) = st.capacity {
                    t.push_str(&format!(" c{:.0}k", c / 1000.0));
                }
                lines.push((t, small, false));
            }
        }
        let place = |lines: &[(String, f64, bool)]| -> ((f64, f64, f64, f64), f64) {
            let w = lines
                .iter()
                .map(|(t, sz, bold)| {
                    t.chars().count() as f64 * sz * if *bold { 0.62 } else { 0.56 }
                })
                .fold(0.0, f64::max);
            let h: f64 = lines.iter().map(|(_, sz, _)| sz * 1.15).sum();
            let k = r * 0.7 + 1.0;
            let candidates = [
                (x + k, y - k - h),
                (x - k - w, y - k - h),
                (x + k, y + k),
                (x - k - w, y + k),
                (x + r + 2.0, y - h / 2.0),
                (x - r - 2.0 - w, y - h / 2.0),
                (x - w / 2.0, y - r - 2.0 - h),
                (x - w / 2.0, y + r + 8.0),
            ];
            let score = |c: &(f64, f64)| {
                let b = (c.0, c.1, c.0 + w, c.1 + h);
                // What would fall off the canvas counts as covered.
                let off = w * h - overlap(b, (0.0, 0.0, v.width, v.height));
                off + taken
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != me)
                    .map(|(_, t)| overlap(b, *t))
                    .sum::<f64>()
            };
            let mut best = (candidates[0], f64::INFINITY);
            for c in candidates {
                let sc = score(&c);
                if sc < best.1 - 1e-9 {
                    best = (c, sc);
                }
                if sc == 0.0 {
                    break;
                }
            }
            ((best.0 .0, best.0 .1, best.0 .0 + w, best.0 .1 + h), best.1)
        };
        let (mut block, score) = place(&lines);
        if score > 0.0 && !d.selected && short < lines.len() {
            let (b, sc) = place(&lines[..short]);
            if sc < score {
                block = b;
                lines.truncate(short);
            }
        }
        taken.push(block);
        let colour = if d.dim { WHITE.alpha(0.6) } else { WHITE };
        let mut top = block.1;
        for (text, sz, bold) in lines {
            let line_h = sz * 1.15;
            out.push(
                Shape::new(
                    Tag::Label,
                    owner(d),
                    Geom::Text {
                        at: d.at,
                        offset: (block.0 - x, top + line_h / 2.0 - y),
                        text,
                        size: sz,
                        align: Align::Left,
                        bold,
                    },
                )
                .fill(colour)
                .stroke(Stroke::solid(INK.alpha(0.85), 3.0)),
            );
            top += line_h;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::View;
    use crate::scene::{build, testutil, FieldParams, Input};
    use crate::settings::FieldSettings;
    use rcss_formats::Frame;

    fn scene_of(frame: &Frame, settings: &FieldSettings, selected: Option<(Side, u8)>) -> Scene {
        let params = FieldParams::of_match(testutil::short_v6());
        let view = View::fit(1280.0, 800.0);
        build(&Input {
            settings,
            selected,
            ..testutil::input(frame, &params, &view)
        })
    }

    /// Each label's box on the canvas (left, top, right, bottom), as wide as its text at the
    /// usual width of a digit, and its text.
    fn label_boxes<'a>(
        scene: &'a Scene,
        view: &'a View,
    ) -> impl Iterator<Item = ((f64, f64, f64, f64), &'a str)> + 'a {
        scene.with_tag(Tag::Label).filter_map(|l| {
            let Geom::Text {
                at,
                offset,
                text,
                size,
                ..
            } = &l.geom
            else {
                return None;
            };
            let (x, y) = view.canvas_from_field(at.0, at.1);
            let (left, mid) = (x + offset.0, y + offset.1);
            let right = left + text.len() as f64 * size * 0.56;
            Some((
                (left, mid - size / 2.0, right, mid + size / 2.0),
                text.as_str(),
            ))
        })
    }

    #[test]
    fn view_cones_for_the_selected_player_or_everyone() {
        let m = testutil::short_v6();
        let f = &m.frames[200];
        let mut s = FieldSettings::default();
        let one = scene_of(f, &s, Some((Side::Right, 9)));
        let owners: Vec<Owner> = one.with_tag(Tag::ViewCone).map(|c| c.owner).collect();
        assert_eq!(owners, vec![Owner::Player(Side::Right, 9)]);
        // r9's cone points where he looks: body + neck, as wide as his view.
        let p = &f.players[11 + 8];
        let Some(Shape {
            geom: Geom::Sector { start, end, .. },
            ..
        }) = one.with_tag(Tag::ViewCone).next()
        else {
            panic!("a sector")
        };
        let (_, width) = p.view.unwrap();
        assert!(((end - start).to_degrees() - f64::from(width)).abs() < 1e-3);
        let mid = ((start + end) / 2.0).to_degrees();
        assert!((mid - f64::from(p.body + p.neck)).abs() < 1e-3);

        s.view_cones = Cones::All;
        assert_eq!(scene_of(f, &s, None).with_tag(Tag::ViewCone).count(), 22);
        s.view_cones = Cones::Off;
        assert_eq!(
            scene_of(f, &s, Some((Side::Left, 1)))
                .with_tag(Tag::ViewCone)
                .count(),
            0
        );
    }

    #[test]
    fn kicks_tackles_and_collisions_get_their_rings() {
        let m = testutil::full();
        let s = FieldSettings::default();
        let mut seen = std::collections::BTreeSet::new();
        for f in m.frames.iter().step_by(3) {
            let bits_set: u32 = f.players.iter().fold(0, |a, p| a | p.state);
            if bits_set & (bits::KICK | bits::TACKLE | bits::PLAYER_COLLIDE) == 0 {
                continue;
            }
            let scene = scene_of(f, &s, None);
            for p in f.players.iter().filter(|p| drawn(p)) {
                let who = Owner::Player(p.side.unwrap(), p.unum);
                let rings: Vec<u32> = scene
                    .with_tag(Tag::Highlight)
                    .filter(|h| h.owner == who)
                    .map(|h| h.bit)
                    .collect();
                let expected: Vec<u32> = HIGHLIGHTS
                    .iter()
                    .map(|h| h.bit)
                    .filter(|b| p.state & b != 0)
                    .collect();
                assert_eq!(rings, expected, "cycle {} {who:?}", f.time);
                seen.extend(rings);
            }
        }
        for bit in [
            bits::KICK,
            bits::TACKLE,
            bits::PLAYER_COLLIDE,
            bits::BALL_COLLIDE,
        ] {
            assert!(seen.contains(&bit), "the full game shows bit {bit:#x}");
        }
    }

    #[test]
    fn sent_off_players_are_dimmed_with_a_red_card_and_discarded_ones_gone() {
        let m = testutil::operator();
        let f = m.frames.last().unwrap();
        let l5 = &f.players[4];
        assert_eq!(l5.state, bits::RED_CARD);
        let r3 = &f.players[11 + 2];
        assert_eq!(r3.state, 0);
        let scene = scene_of(f, &FieldSettings::default(), None);
        assert!(scene
            .players
            .iter()
            .any(|p| (p.side, p.unum) == (Side::Left, 5)));
        assert!(!scene
            .players
            .iter()
            .any(|p| (p.side, p.unum) == (Side::Right, 3)));
        let cards: Vec<(Owner, Option<Rgba>)> = scene
            .with_tag(Tag::Card)
            .map(|c| (c.owner, c.fill))
            .collect();
        assert!(cards.contains(&(Owner::Player(Side::Left, 5), Some(style::RED_CARD))));
        // Earlier, after the first yellow.
        let yellow = m
            .frames
            .iter()
            .find(|f| f.players[4].state & bits::YELLOW_CARD != 0)
            .unwrap();
        let scene = scene_of(yellow, &FieldSettings::default(), None);
        assert!(
            scene
                .with_tag(Tag::Card)
                .any(|c| c.owner == Owner::Player(Side::Left, 5)
                    && c.fill == Some(style::YELLOW_CARD))
        );
    }

    #[test]
    fn the_goalie_selected_shows_kickable_catchable_and_tackle_areas() {
        let m = testutil::short_v6();
        let params = FieldParams::of_match(m);
        let f = &m.frames[300];
        let goalie = f.players.iter().find(|p| p.is_goalie()).unwrap();
        let who = (goalie.side.unwrap(), goalie.unum);
        let scene = scene_of(f, &FieldSettings::default(), Some(who));
        let kick: Vec<&Shape> = scene.with_tag(Tag::KickableArea).collect();
        assert_eq!(kick.len(), 1);
        let Geom::Circle { radius, .. } = kick[0].geom else {
            panic!()
        };
        let t = params.player_type(goalie.player_type);
        assert!(
            (radius - (f64::from(t.player_size + t.kickable_margin) + params.ball_size)).abs()
                < 1e-6
        );
        assert_eq!(scene.with_tag(Tag::CatchArea).count(), 3);
        let tackle: Vec<&Shape> = scene.with_tag(Tag::TackleArea).collect();
        let Geom::Path { points, .. } = &tackle[0].geom else {
            panic!()
        };
        // tackle_dist ahead along the body, tackle_width to either side.
        let at = (f64::from(goalie.x), f64::from(goalie.y));
        let far = points
            .iter()
            .map(|p| (p.0 - at.0).hypot(p.1 - at.1))
            .fold(0.0, f64::max);
        assert!((far - params.tackle_dist.hypot(params.tackle_width)).abs() < 1e-6);
        // A field player has no catchable area.
        let field_player = f
            .players
            .iter()
            .find(|p| drawn(p) && !p.is_goalie())
            .unwrap();
        let scene = scene_of(
            f,
            &FieldSettings::default(),
            Some((field_player.side.unwrap(), field_player.unum)),
        );
        assert_eq!(scene.with_tag(Tag::CatchArea).count(), 0);
        assert_eq!(scene.with_tag(Tag::TackleArea).count(), 1);
    }

    #[test]
    fn labels_do_not_cover_each_other_even_with_every_figure_on() {
        let m = testutil::short_v6();
        let s = FieldSettings {
            player_types: true,
            stamina_details: true,
            ..FieldSettings::default()
        };
        let view = View::fit(1280.0, 800.0);
        let mut worst = 0usize;
        for f in m.frames.iter().step_by(25) {
            let scene = scene_of(f, &s, None);
            // One block per player (number + type line share a corner).
            let boxes: Vec<_> = label_boxes(&scene, &view).map(|(b, _)| b).collect();
            let mut n = 0;
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    if overlap(*a, *b) > 4.0 {
                        n += 1;
                    }
                }
            }
            worst = worst.max(n);
        }
        assert!(worst <= 2, "{worst} pairs of labels overlap in one frame");
        // The selected player keeps his figures however crowded it is.
        let kick_off = &m.frames[0];
        let scene = scene_of(kick_off, &s, Some((Side::Left, 7)));
        let mine = scene
            .with_tag(Tag::Label)
            .filter(|l| l.owner == Owner::Player(Side::Left, 7))
            .count();
        assert_eq!(mine, 3, "number, type, stamina figures");
    }

    #[test]
    fn numbers_shrink_while_the_whole_field_is_on_a_phone_and_grow_back_zoomed_in() {
        let m = testutil::short_v6();
        let params = FieldParams::of_match(m);
        let s = FieldSettings::default();
        let frame = &m.frames[m.frames.len() / 2];
        let number_size = |view: &View| {
            let scene = build(&Input {
                settings: &s,
                ..testutil::input(frame, &params, view)
            });
            scene
                .with_tag(Tag::Label)
                .filter_map(|l| match &l.geom {
                    Geom::Text { size, .. } => Some(*size),
                    _ => None,
                })
                .fold(f64::INFINITY, f64::min)
        };
        // A laptop, a phone held upright (the field 382 px wide), the phone zoomed in 3×.
        assert_eq!(number_size(&View::fit(822.0, 526.0)), 11.0);
        let phone = View::fit(382.0, 260.0);
        assert!((number_size(&phone) - 11.0 * MIN_MARKS).abs() < 1e-9);
        let zoomed = View {
            scale: phone.scale * 3.0,
            ..phone
        };
        assert_eq!(number_size(&zoomed), 11.0);
    }

    #[test]
    fn labels_stay_on_a_phone_sized_canvas() {
        let m = testutil::short_v6();
        let params = FieldParams::of_match(m);
        let s = FieldSettings::everything();
        let view = View::fit(382.0, 260.0);
        for f in m.frames.iter().step_by(40) {
            let scene = build(&Input {
                settings: &s,
                ..testutil::input(f, &params, &view)
            });
            for ((left, _, right, _), text) in label_boxes(&scene, &view) {
                assert!(
                    left >= -1.0 && right <= view.width + 1.0,
                    "cycle {}: {text:?} at {left:.0}..{right:.0}",
                    f.time
                );
            }
        }
    }
}
