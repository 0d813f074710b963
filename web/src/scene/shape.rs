//! The shapes a scene is made of, in field coordinates, and the scene itself: what every
//! layer of the field (pitch, players, ball, overlays) produces and the painter draws. A leaf
//! of the scene: the layers import it, it imports none of them.

use rcss_formats::Side;
use serde::Serialize;

use super::style::{Dash, Rgba};

/// A point in field coordinates (metres).
pub type P = (f64, f64);

/// How an outline is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    pub colour: Rgba,
    /// Canvas pixels.
    pub width: f64,
    pub dash: Dash,
}

impl Stroke {
    pub fn solid(colour: Rgba, width: f64) -> Stroke {
        Stroke {
            colour,
            width,
            dash: Dash::Solid,
        }
    }
    pub fn dashed(colour: Rgba, width: f64, dash: Dash) -> Stroke {
        Stroke {
            colour,
            width,
            dash,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Centre,
    Right,
}

/// A shape's geometry.
#[derive(Clone, Debug, PartialEq)]
pub enum Geom {
    Line {
        from: P,
        to: P,
    },
    /// An open or closed polyline (closed ones can be filled).
    Path {
        points: Vec<P>,
        closed: bool,
    },
    /// Radius in metres.
    Circle {
        centre: P,
        radius: f64,
    },
    /// An arc of a circle, angles in radians in field coordinates (y down, so growing angles
    /// turn clockwise on screen), from `start` to `end`.
    Arc {
        centre: P,
        radius: f64,
        start: f64,
        end: f64,
    },
    /// A wedge from the centre, angles as for [`Geom::Arc`].
    Sector {
        centre: P,
        radius: f64,
        start: f64,
        end: f64,
    },
    /// An axis-aligned field rectangle.
    Rect {
        min: P,
        max: P,
    },
    /// A rectangle of `size` canvas pixels whose top-left corner is `offset` pixels from a field
    /// point: bars and cards that stay the same size at any zoom.
    PixelRect {
        at: P,
        offset: (f64, f64),
        size: (f64, f64),
    },
    /// Text at a field point, moved by `offset` canvas pixels; `size` is the font size in
    /// pixels. The baseline is the text's middle.
    Text {
        at: P,
        offset: (f64, f64),
        text: String,
        size: f64,
        align: Align,
        bold: bool,
    },
}

/// What a shape is, so that tests and the page's test hook can find it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tag {
    Grass,
    PitchLine,
    Goal,
    Flag,
    Grid,
    Trail,
    ViewCone,
    VisibleRange,
    KickableArea,
    CatchArea,
    TackleArea,
    OffsideLine,
    Body,
    RealBody,
    BodyDirection,
    FaceDirection,
    Highlight,
    Selection,
    Card,
    StaminaBar,
    Label,
    Pointto,
    FocusPoint,
    Attention,
    Ball,
    BallVelocity,
    BallPath,
    /// What an agent drew in its debug log or debug-client messages.
    AgentDrawing,
    /// Where an agent believed something was.
    Belief,
    /// From a belief to the truth.
    BeliefError,
    /// An agent's target point.
    TargetPoint,
    /// An action picked in the analysis panel ([`action`]).
    Action,
    /// A point, circle or line drawn through protocol 1 or 2 ([`drawings`]).
    ServerDrawing,
}

/// Who a shape belongs to: a player slot, the ball, or nobody (the pitch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    None,
    Ball,
    Player(Side, u8),
    /// A team's offside line is the line its defence makes.
    Team(Side),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub tag: Tag,
    pub owner: Owner,
    pub geom: Geom,
    pub fill: Option<Rgba>,
    pub stroke: Option<Stroke>,
    /// For highlights: the state bit the ring marks.
    pub bit: u32,
}

impl Shape {
    pub fn new(tag: Tag, owner: Owner, geom: Geom) -> Shape {
        Shape {
            tag,
            owner,
            geom,
            fill: None,
            stroke: None,
            bit: 0,
        }
    }
    pub fn fill(mut self, c: Rgba) -> Shape {
        self.fill = Some(c);
        self
    }
    pub fn stroke(mut self, s: Stroke) -> Shape {
        self.stroke = Some(s);
        self
    }
}

impl Geom {
    /// A filled triangle at `tip` pointing along the unit vector `dir`, `length` long and
    /// `spread` × `length` wide on each side of its axis.
    pub fn arrowhead(tip: P, dir: P, length: f64, spread: f64) -> Geom {
        let back = (tip.0 - dir.0 * length, tip.1 - dir.1 * length);
        let side = (-dir.1 * length * spread, dir.0 * length * spread);
        Geom::Path {
            points: vec![
                tip,
                (back.0 + side.0, back.1 + side.1),
                (back.0 - side.0, back.1 - side.1),
            ],
            closed: true,
        }
    }
}

/// A player where the scene drew him, for selecting by click and for the test hook.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerMark {
    pub side: Side,
    pub unum: u8,
    pub x: f64,
    pub y: f64,
    /// Radius of the drawn body, metres.
    pub radius: f64,
    pub goalie: bool,
}

/// Everything the field shows for one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub shapes: Vec<Shape>,
    pub players: Vec<PlayerMark>,
    /// Where the ball is drawn.
    pub ball: Option<P>,
    /// x of each team's offside line (the line the left team's defence makes, then the
    /// right's), when drawn.
    pub offside: [Option<f64>; 2],
    /// The cycle shown.
    pub time: Option<u32>,
}

impl Scene {
    pub fn with_tag(&self, tag: Tag) -> impl Iterator<Item = &Shape> {
        self.shapes.iter().filter(move |s| s.tag == tag)
    }

    /// The player drawn nearest to field point `at`, if one is within `slack` metres of his
    /// body: what a click there selects.
    pub fn player_at(&self, at: P, slack: f64) -> Option<&PlayerMark> {
        self.players
            .iter()
            .map(|p| ((p.x - at.0).hypot(p.y - at.1) - p.radius, p))
            .filter(|(d, _)| *d <= slack)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| p)
    }
}

pub fn player_id(side: Side, unum: u8) -> String {
    format!("{}{unum}", side.letter())
}
