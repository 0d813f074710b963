//! What the selected agent drew and believed, over the true positions: its debug-log
//! drawings in their colours, and from its world model where it thought the ball and each
//! player were, each belief joined to the truth by a line so the error shows at a glance.
//!
//! Agents write in their own frame: librcsc turns the field so that its team always plays to
//! the right. A right-side agent's coordinates are turned back (x and y negated, angles
//! turned half round) before drawing, so they lie over the server's picture.

use super::{
    shape::Align, shape::Geom, shape::Owner, shape::Shape, shape::Stroke, shape::Tag, shape::P,
};
use crate::scene::style::{Rgba, INK};
use pitchside_agents::drawing::{Drawing, Shape as AgentShape};
use pitchside_agents::worldmodel::{Who, WorldModel};
use rcss_formats::{Frame, Side};

/// Drawn where an agent gave no colour (or one that is not a colour).
const DEFAULT: Rgba = Rgba([255, 255, 255, 230]);
const BELIEF_BALL: Rgba = Rgba::rgb(255, 140, 0);
const BELIEF_MATE: Rgba = Rgba::rgb(120, 220, 255);
const BELIEF_OPP: Rgba = Rgba::rgb(255, 120, 200);
const BELIEF_UNKNOWN: Rgba = Rgba::rgb(200, 200, 200);
const ERROR_LINE: Rgba = Rgba([255, 60, 60, 230]);
const TARGET: Rgba = Rgba::rgb(255, 235, 60);

/// What the agent overlay shows for one moment: the agent's side (to turn its frame), its
/// drawings, and its world model.
#[derive(Clone, Debug, Default)]
pub struct AgentOverlay {
    pub side: Option<Side>,
    pub unum: u8,
    pub drawings: Vec<Drawing>,
    pub world: Option<WorldModel>,
}

/// Turns a point of an agent on `side` into the server's frame.
pub fn to_field(side: Side, (x, y): P) -> P {
    match side {
        Side::Left => (x, y),
        Side::Right => (-x, -y),
    }
}

fn colour(c: Option<[u8; 4]>) -> Rgba {
    c.map(Rgba).unwrap_or(DEFAULT)
}

pub fn build(shapes: &mut Vec<Shape>, overlay: &AgentOverlay, frame: &Frame) {
    let Some(side) = overlay.side else { return };
    let owner = Owner::Player(side, overlay.unum);
    let f = |p: P| to_field(side, p);
    // Angles: the agent's 0° points to its opponents' goal.
    let turn = match side {
        Side::Left => 0.0,
        Side::Right => 180.0,
    };
    for d in &overlay.drawings {
        let c = colour(d.colour);
        let line = Stroke::solid(c, 1.5);
        let shape = match &d.shape {
            AgentShape::Point(p) => Shape::new(
                Tag::AgentDrawing,
                owner,
                Geom::Circle {
                    centre: f(*p),
                    radius: 0.12,
                },
            )
            .fill(c),
            AgentShape::Line(a, b) => Shape::new(
                Tag::AgentDrawing,
                owner,
                Geom::Line {
                    from: f(*a),
                    to: f(*b),
                },
            )
            .stroke(line),
            AgentShape::Arc {
                centre,
                radius,
                start,
                span,
            } => Shape::new(
                Tag::AgentDrawing,
                owner,
                Geom::Arc {
                    centre: f(*centre),
                    radius: *radius,
                    start: (start + turn).to_radians(),
                    end: (start + turn + span).to_radians(),
                },
            )
            .stroke(line),
            AgentShape::Circle {
                centre,
                radius,
                filled,
            } => {
                let s = Shape::new(
                    Tag::AgentDrawing,
                    owner,
                    Geom::Circle {
                        centre: f(*centre),
                        radius: *radius,
                    },
                );
                if *filled {
                    s.fill(c)
                } else {
                    s.stroke(line)
                }
            }
            AgentShape::Triangle { corners, filled } => {
                let s = Shape::new(
                    Tag::AgentDrawing,
                    owner,
                    Geom::Path {
                        points: corners.iter().map(|p| f(*p)).collect(),
                        closed: true,
                    },
                );
                if *filled {
                    s.fill(c)
                } else {
                    s.stroke(line)
                }
            }
            AgentShape::Rect {
                left,
                top,
                width,
                height,
                filled,
            } => {
                let (a, b) = (f((*left, *top)), f((left + width, top + height)));
                let s = Shape::new(
                    Tag::AgentDrawing,
                    owner,
                    Geom::Rect {
                        min: (a.0.min(b.0), a.1.min(b.1)),
                        max: (a.0.max(b.0), a.1.max(b.1)),
                    },
                );
                if *filled {
                    s.fill(c)
                } else {
                    s.stroke(line)
                }
            }
            AgentShape::Sector {
                centre,
                min_radius,
                max_radius,
                start,
                span,
                filled,
            } => {
                let s = Shape::new(
                    Tag::AgentDrawing,
                    owner,
                    Geom::Path {
                        points: ring_slice(
                            f(*centre),
                            *min_radius,
                            *max_radius,
                            start + turn,
                            *span,
                        ),
                        closed: true,
                    },
                );
                if *filled {
                    s.fill(c)
                } else {
                    s.stroke(line)
                }
            }
            AgentShape::Text { at, text } => Shape::new(
                Tag::AgentDrawing,
                owner,
                Geom::Text {
                    at: f(*at),
                    offset: (0.0, 0.0),
                    text: text.clone(),
                    size: 11.0,
                    align: Align::Left,
                    bold: false,
                },
            )
            .fill(c)
            .stroke(Stroke::solid(INK, 3.0)),
        };
        shapes.push(shape);
    }
    if let Some(wm) = &overlay.world {
        beliefs(shapes, side, owner, wm, frame);
    }
}

/// The outline of a ring's slice, as a closed path: the outer arc, then the inner one back.
fn ring_slice(c: P, r0: f64, r1: f64, start_deg: f64, span_deg: f64) -> Vec<P> {
    const STEPS: usize = 16;
    let at = |r: f64, k: usize| {
        let a = (start_deg + span_deg * k as f64 / STEPS as f64).to_radians();
        (c.0 + r * a.cos(), c.1 + r * a.sin())
    };
    let mut pts: Vec<P> = (0..=STEPS).map(|k| at(r1, k)).collect();
    if r0 > 0.0 {
        pts.extend((0..=STEPS).rev().map(|k| at(r0, k)));
    } else {
        pts.push(c);
    }
    pts
}

/// One belief against the truth.
#[derive(Clone, Debug, PartialEq)]
pub struct BeliefError {
    /// `ball`, `me`, `l7`, `r3`, `unknown team-mate`…
    pub what: String,
    pub believed: P,
    pub truth: Option<P>,
    /// Metres between belief and truth.
    pub error: Option<f64>,
    /// Cycles since the agent last saw it.
    pub age: Option<u32>,
}

/// Every belief of `wm` (an agent on `side`) matched with the truth of `frame`: the ball, the
/// agent itself, numbered players by number, unnumbered ones with the nearest true player of
/// the team they were taken for (or of either team) that no numbered belief claimed.
pub fn belief_errors(side: Side, wm: &WorldModel, frame: &Frame) -> Vec<BeliefError> {
    let mut out = Vec::new();
    let f = |p: P| to_field(side, p);
    let truth_of = |s: Side, u: u8| -> Option<P> {
        frame
            .players
            .iter()
            .find(|p| p.side == Some(s) && p.unum == u && crate::scene::style::drawn(p))
            .map(|p| (f64::from(p.x), f64::from(p.y)))
    };
    let dist = |a: P, b: Option<P>| b.map(|b| (a.0 - b.0).hypot(a.1 - b.1));
    if let Some(b) = &wm.ball {
        let believed = f(b.pos);
        let truth = Some((f64::from(frame.ball.x), f64::from(frame.ball.y)));
        out.push(BeliefError {
            what: "ball".into(),
            believed,
            truth,
            error: dist(believed, truth),
            age: b.pos_count,
        });
    }
    if let Some(me) = &wm.me {
        let believed = f(me.pos);
        let truth = truth_of(side, me.unum);
        out.push(BeliefError {
            what: "me".into(),
            believed,
            truth,
            error: dist(believed, truth),
            age: me.pos_count,
        });
    }
    let other = match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    };
    let mut claimed: Vec<(Side, u8)> = wm
        .players
        .iter()
        .filter_map(|p| match p.who {
            Who::Teammate(u) => Some((side, u)),
            Who::Opponent(u) => Some((other, u)),
            _ => None,
        })
        .collect();
    if let Some(me) = &wm.me {
        claimed.push((side, me.unum));
    }
    for p in &wm.players {
        let believed = f(p.pos);
        let (what, truth) = match p.who {
            Who::Teammate(u) => (super::shape::player_id(side, u), truth_of(side, u)),
            Who::Opponent(u) => (super::shape::player_id(other, u), truth_of(other, u)),
            who => {
                let teams: &[Side] = match who {
                    Who::UnknownTeammate => &[side],
                    Who::UnknownOpponent => &[other],
                    _ => &[Side::Left, Side::Right],
                };
                let nearest = frame
                    .players
                    .iter()
                    .filter(|t| t.side.is_some_and(|s| teams.contains(&s)))
                    .filter(|t| crate::scene::style::drawn(t))
                    .filter(|t| !t.side.is_some_and(|s| claimed.contains(&(s, t.unum))))
                    .map(|t| (f64::from(t.x), f64::from(t.y)))
                    .min_by(|a, b| {
                        let da = (a.0 - believed.0).hypot(a.1 - believed.1);
                        let db = (b.0 - believed.0).hypot(b.1 - believed.1);
                        da.total_cmp(&db)
                    });
                let name = match who {
                    Who::UnknownTeammate => "unknown team-mate",
                    Who::UnknownOpponent => "unknown opponent",
                    _ => "unknown player",
                };
                (name.to_string(), nearest)
            }
        };
        out.push(BeliefError {
            what,
            believed,
            truth,
            error: dist(believed, truth),
            age: p.pos_count,
        });
    }
    out
}

fn beliefs(shapes: &mut Vec<Shape>, side: Side, owner: Owner, wm: &WorldModel, frame: &Frame) {
    for b in belief_errors(side, wm, frame) {
        let colour = match b.what.as_str() {
            "ball" => BELIEF_BALL,
            "me" => BELIEF_MATE,
            w if w.starts_with(side.letter()) || w == "unknown team-mate" => BELIEF_MATE,
            w if w.starts_with("unknown player") => BELIEF_UNKNOWN,
            _ => BELIEF_OPP,
        };
        if let Some(t) = b.truth {
            shapes.push(
                Shape::new(
                    Tag::BeliefError,
                    owner,
                    Geom::Line {
                        from: b.believed,
                        to: t,
                    },
                )
                .stroke(Stroke::solid(ERROR_LINE, 1.5)),
            );
        }
        let radius = if b.what == "ball" { 0.3 } else { 0.5 };
        shapes.push(
            Shape::new(
                Tag::Belief,
                owner,
                Geom::Circle {
                    centre: b.believed,
                    radius,
                },
            )
            .stroke(Stroke::dashed(
                colour,
                2.0,
                crate::scene::style::Dash::Dashed,
            )),
        );
        // How old the belief is, in cycles, beside anything not seen for a while (most are
        // seen every cycle or two: labelling those would only hide the players' numbers).
        if let Some(age) = b.age.filter(|a| *a >= 3) {
            shapes.push(
                Shape::new(
                    Tag::Belief,
                    owner,
                    Geom::Text {
                        at: b.believed,
                        offset: (9.0, 10.0),
                        text: format!("{age}c"),
                        size: 10.0,
                        align: Align::Left,
                        bold: false,
                    },
                )
                .fill(colour)
                .stroke(Stroke::solid(INK, 3.0)),
            );
        }
    }
    if let Some(p) = wm.target_point {
        let p = to_field(side, p);
        for (dx, dy) in [(-0.6, -0.6), (-0.6, 0.6)] {
            shapes.push(
                Shape::new(
                    Tag::TargetPoint,
                    owner,
                    Geom::Line {
                        from: (p.0 + dx, p.1 + dy),
                        to: (p.0 - dx, p.1 - dy),
                    },
                )
                .stroke(Stroke::solid(TARGET, 2.5)),
            );
        }
    }
    for d in &wm.drawings {
        // The debug-client drawings go with the other drawings' look.
        let overlay = AgentOverlay {
            side: Some(side),
            unum: 0,
            drawings: vec![d.clone()],
            world: None,
        };
        let mut one = Vec::new();
        build(&mut one, &overlay, frame);
        for mut s in one {
            s.owner = owner;
            shapes.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;
    use pitchside_agents::index::{FileKind, Indexer};
    use pitchside_agents::{worldmodel, Time};
    use std::io::Read;

    fn dcl(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/agents/agents-100/agent-logs")
            .join(name);
        let raw = std::fs::read(&path).unwrap();
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    /// The right 7's world model at cycle 60 of the real game, against that frame.
    #[test]
    fn a_right_side_agents_beliefs_are_turned_and_matched_with_the_truth() {
        let game = testutil::agents_100();
        let bytes = dcl("HELIOS_B-7.dcl.gz");
        let mut ix = Indexer::new(FileKind::WorldModel);
        ix.push(&bytes);
        let ix = ix.finish();
        let t = Time {
            cycle: 60,
            stopped: 0,
        };
        let s = ix.at(t).next().unwrap();
        let (wms, errors) = worldmodel::decode(&bytes[s.start as usize..s.end as usize], 1);
        assert!(errors.is_empty());
        let wm = wms.last().unwrap();
        let frame = game.frames.iter().find(|f| f.time == 60).unwrap();
        let rows = belief_errors(Side::Right, wm, frame);
        let me = rows.iter().find(|r| r.what == "me").unwrap();
        assert!(me.error.unwrap() < 0.5, "{me:?}");
        let ball = rows.iter().find(|r| r.what == "ball").unwrap();
        assert!(ball.error.unwrap() < 3.0, "{ball:?}");
        // Team-mates are right players, opponents left ones, each matched with the truth.
        assert!(rows
            .iter()
            .any(|r| r.what.starts_with('r') && r.what != "r7"));
        assert!(rows.iter().any(|r| r.what.starts_with('l')));
        let numbered: Vec<_> = rows
            .iter()
            .filter(|r| r.what.starts_with(['l', 'r']))
            .collect();
        let close = numbered.iter().filter(|r| r.error.unwrap() < 3.0).count();
        assert!(close * 4 >= numbered.len() * 3, "{numbered:?}");

        // Turned the wrong way, the agent would be tens of metres off.
        let wrong = belief_errors(Side::Left, wm, frame);
        let me_wrong = wrong.iter().find(|r| r.what == "me").unwrap();
        assert!(me_wrong.truth.is_none() || me_wrong.error.unwrap() > 5.0);

        let mut shapes = Vec::new();
        let overlay = AgentOverlay {
            side: Some(Side::Right),
            unum: 7,
            drawings: Vec::new(),
            world: Some(wm.clone()),
        };
        build(&mut shapes, &overlay, frame);
        let count = |tag| shapes.iter().filter(|s| s.tag == tag).count();
        assert!(count(Tag::Belief) >= rows.len());
        assert_eq!(
            count(Tag::BeliefError),
            rows.iter().filter(|r| r.truth.is_some()).count()
        );
        assert_eq!(count(Tag::AgentDrawing), wm.drawings.len());
        assert!(shapes
            .iter()
            .all(|s| s.owner == Owner::Player(Side::Right, 7)));
    }

    #[test]
    fn every_kind_of_drawing_becomes_a_shape_in_the_field_frame() {
        use pitchside_agents::debuglog::{parse_line, Item};
        let lines = [
            "1,0 4 p 1.0 2.0 red",
            "1,0 4 l 0 0 10 0 #00ff00",
            "1,0 4 a 0 0 5 0 90",
            "1,0 4 C 3 3 1",
            "1,0 4 T 0 0 1 0 0 1",
            "1,0 4 r -1 -1 2 2",
            "1,0 4 S 0 0 1 3 -30 60 blue",
            "1,0 4 m 5 5 (c red) here",
        ];
        let drawings: Vec<Drawing> = lines
            .iter()
            .map(|l| match parse_line(l.as_bytes()).unwrap().item {
                Item::Drawing(d) => d,
                Item::Message(_) => unreachable!(),
            })
            .collect();
        let frame = &testutil::agents_100().frames[50];
        for side in [Side::Left, Side::Right] {
            let mut shapes = Vec::new();
            let overlay = AgentOverlay {
                side: Some(side),
                unum: 3,
                drawings: drawings.clone(),
                world: None,
            };
            build(&mut shapes, &overlay, frame);
            assert_eq!(shapes.len(), lines.len());
            let sign = if side == Side::Left { 1.0 } else { -1.0 };
            assert_eq!(
                shapes[1].geom,
                Geom::Line {
                    from: (0.0, 0.0),
                    to: (10.0 * sign, 0.0)
                }
            );
            assert_eq!(shapes[1].stroke.unwrap().colour, Rgba([0, 255, 0, 255]));
            match &shapes[7].geom {
                Geom::Text { at, text, .. } => {
                    assert_eq!((*at, text.as_str()), ((5.0 * sign, 5.0 * sign), "here"))
                }
                g => panic!("{g:?}"),
            }
            assert!(shapes[3].fill.is_some() && shapes[2].fill.is_none());
        }
    }
}
