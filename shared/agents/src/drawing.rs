//! Shapes agents draw on the field, in field coordinates and degrees (rcssserver's: angles
//! grow clockwise on screen, since y points down), as both the debug log and the
//! debug-client messages give them.

use super::Point;

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Shape {
    Point(Point),
    Line(Point, Point),
    /// Part of a circle's outline: centre, radius, start angle, span (clockwise).
    Arc {
        centre: Point,
        radius: f64,
        start: f64,
        span: f64,
    },
    Circle {
        centre: Point,
        radius: f64,
        filled: bool,
    },
    Triangle {
        corners: [Point; 3],
        filled: bool,
    },
    /// From its top-left corner (least x, least y), by its size.
    Rect {
        left: f64,
        top: f64,
        width: f64,
        height: f64,
        filled: bool,
    },
    /// A ring's slice: centre, inner and outer radius, start angle, span (clockwise).
    Sector {
        centre: Point,
        min_radius: f64,
        max_radius: f64,
        start: f64,
        span: f64,
        filled: bool,
    },
    /// Text written at a point of the field.
    Text {
        at: Point,
        text: String,
    },
}

/// A shape and its colour (`None`: the agent gave none, or one that is not a colour).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Drawing {
    pub shape: Shape,
    pub colour: Option<[u8; 4]>,
}

impl Shape {
    /// Where the shape is, to tell whether it is on the field at all: finite coordinates
    /// and sizes only (a shape with NaN or infinite numbers is refused when read).
    pub fn is_finite(&self) -> bool {
        let p = |(x, y): &Point| x.is_finite() && y.is_finite();
        match self {
            Shape::Point(a) => p(a),
            Shape::Line(a, b) => p(a) && p(b),
            Shape::Arc {
                centre,
                radius,
                start,
                span,
            } => p(centre) && radius.is_finite() && start.is_finite() && span.is_finite(),
            Shape::Circle { centre, radius, .. } => p(centre) && radius.is_finite(),
            Shape::Triangle { corners, .. } => corners.iter().all(p),
            Shape::Rect {
                left,
                top,
                width,
                height,
                ..
            } => left.is_finite() && top.is_finite() && width.is_finite() && height.is_finite(),
            Shape::Sector {
                centre,
                min_radius,
                max_radius,
                start,
                span,
                ..
            } => {
                p(centre)
                    && min_radius.is_finite()
                    && max_radius.is_finite()
                    && start.is_finite()
                    && span.is_finite()
            }
            Shape::Text { at, .. } => p(at),
        }
    }
}
