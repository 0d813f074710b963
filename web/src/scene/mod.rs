//! What the field shows, as a list of shapes in field coordinates: built from the frame on
//! screen (and the one before it, for smooth motion), the settings, the selected player and the
//! view, with no browser in sight, so it is unit-tested natively on real logs. The painter
//! ([`crate::paint`]) only puts these shapes on a canvas.
//!
//! Sizes: positions and radii are in metres (they zoom with the field); line widths, font
//! sizes and the offsets of labels and bars are in canvas pixels (they stay readable at any
//! zoom). Marks that must stay visible when zoomed out (a 0.3 m player, the 0.085 m ball) get a
//! least size in pixels through the [`View`].
//!
//! Layout:
//! - [`params`]: the parameters drawn with (ball decay, kickable margins, areas), with
//!   rcssserver 19's defaults.
//! - [`style`]: colours and the state-bit highlight table.
//! - [`motion`]: interpolating between two frames, and what counts as a teleport.
//! - [`pitch`]: lines, goals, flags, grid.
//! - [`players`]: bodies, directions, cones, stamina, cards, highlights, labels, areas.
//! - [`ball`]: the ball, its velocity, its path if untouched, trails.
//! - [`offside`]: each team's offside line.
//! - [`agent`]: the selected agent's drawings and beliefs (from its own files).
//! - [`action`]: an action picked in the analysis panel (a pass's arrow, a shot's line).
//! - [`drawings`]: what a program drew through protocols 1 and 2 (points, circles, lines,
//!   clears, blank screens), from v1/v2 logs and the relay's wire.

pub mod action;
pub mod agent;
pub mod ball;
pub mod drawings;
pub mod input;
pub mod motion;
pub mod offside;
pub mod params;
pub mod pitch;
pub mod players;
pub mod shape;
pub mod style;

use crate::field::View;
pub use input::Input;
pub use params::FieldParams;
use rcss_formats::Side;
use serde::Serialize;
pub use shape::*;
pub use style::{Dash, Rgba};

/// Builds the scene: pitch first, then the overlays under the players (trails, cones, areas,
/// offside lines), the players, the ball and its path, and labels last so nothing covers them.
pub fn build(input: &Input) -> Scene {
    let mut scene = Scene::default();
    pitch::build(&mut scene.shapes, input);
    let Some(frame) = input.frame else {
        return scene;
    };
    scene.time = Some(frame.time);
    let shown = motion::shown(input.previous, frame, input.alpha);
    let frame = &shown;
    ball::trails(&mut scene.shapes, input, frame);
    scene.offside = offside::lines(frame);
    if input.settings.offside_lines {
        offside::build(&mut scene.shapes, input, scene.offside);
    }
    players::build(&mut scene, input, frame);
    ball::build(&mut scene, input, frame);
    if let Some(a) = input.agent {
        // Beliefs against the truth on screen, not an interpolated one.
        agent::build(&mut scene.shapes, a, input.frame.unwrap_or(frame));
    }
    scene
}

/// What the page tells its browser tests about the last scene: enough to check what is drawn
/// without reading pixels.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub time: Option<u32>,
    pub view: ViewSummary,
    pub players: Vec<PlayerSummary>,
    pub ball: Option<PointSummary>,
    pub offside: [Option<f64>; 2],
    /// Number of shapes of each kind.
    pub shapes: std::collections::BTreeMap<String, usize>,
    pub selected: Option<String>,
    /// Where each team's offside label is drawn, as the page measures it (the scene cannot
    /// measure text): empty until the page fills it in.
    pub offside_labels: Vec<LabelSummary>,
    /// What the page covers the canvas with ([`Input::covered`]) in the last drawing.
    pub covered: Vec<[f64; 4]>,
}

/// A label on the canvas: whose, and the rectangle it covers (CSS pixels, `[left, top,
/// right, bottom]`, halo included).
#[derive(Clone, Debug, Serialize)]
pub struct LabelSummary {
    /// `l` or `r`.
    pub team: &'static str,
    pub rect: [f64; 4],
}

#[derive(Clone, Debug, Serialize)]
pub struct ViewSummary {
    pub scale: f64,
    pub centre: P,
    pub flipped: bool,
    pub width: f64,
    pub height: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PointSummary {
    pub x: f64,
    pub y: f64,
    /// Canvas position in CSS pixels, for clicking it.
    pub px: f64,
    pub py: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlayerSummary {
    /// `l7`, `r1`.
    pub id: String,
    pub x: f64,
    pub y: f64,
    pub px: f64,
    pub py: f64,
    pub cone: bool,
    pub highlights: Vec<&'static str>,
    pub card: Option<&'static str>,
}

impl Scene {
    pub fn summary(&self, view: &View, selected: Option<(Side, u8)>) -> Summary {
        let mut shapes = std::collections::BTreeMap::new();
        for s in &self.shapes {
            let key = serde_json::to_value(s.tag)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            *shapes.entry(key).or_insert(0) += 1;
        }
        let players = self
            .players
            .iter()
            .map(|p| {
                let owner = Owner::Player(p.side, p.unum);
                let mine = || self.shapes.iter().filter(move |s| s.owner == owner);
                let (px, py) = view.canvas_from_field(p.x, p.y);
                PlayerSummary {
                    id: player_id(p.side, p.unum),
                    x: p.x,
                    y: p.y,
                    px,
                    py,
                    cone: mine().any(|s| s.tag == Tag::ViewCone),
                    highlights: mine()
                        .filter(|s| s.tag == Tag::Highlight)
                        .filter_map(|s| style::HIGHLIGHTS.iter().find(|h| h.bit == s.bit))
                        .map(|h| h.name)
                        .collect(),
                    card: mine().filter(|s| s.tag == Tag::Card).find_map(|s| {
                        Some(if s.fill? == style::RED_CARD {
                            "red"
                        } else {
                            "yellow"
                        })
                    }),
                }
            })
            .collect();
        Summary {
            time: self.time,
            view: ViewSummary {
                scale: view.scale,
                centre: view.centre,
                flipped: view.flipped,
                width: view.width,
                height: view.height,
            },
            players,
            ball: self.ball.map(|(x, y)| {
                let (px, py) = view.canvas_from_field(x, y);
                PointSummary { x, y, px, py }
            }),
            offside: self.offside,
            shapes,
            selected: selected.map(|(s, u)| player_id(s, u)),
            offside_labels: Vec::new(),
            covered: Vec::new(),
        }
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Real logs for the scene's tests, parsed once per test binary.

    use super::{FieldParams, Input};
    use crate::field::View;
    use crate::settings::{Colours, FieldSettings};
    use rcss_formats::log::{parse_log, Match};
    use rcss_formats::Frame;
    use std::sync::OnceLock;

    /// The input of `frame` with the page's default settings and colours, and no
    /// interpolation, trail, selection, agent or covered corner: tests set what they look at
    /// with `..` (`Input { selected, ..input(f, &params, &view) }`).
    pub fn input<'a>(frame: &'a Frame, params: &'a FieldParams, view: &'a View) -> Input<'a> {
        static SETTINGS: OnceLock<FieldSettings> = OnceLock::new();
        static COLOURS: OnceLock<Colours> = OnceLock::new();
        Input {
            frame: Some(frame),
            previous: None,
            alpha: 1.0,
            history: &[],
            params,
            settings: SETTINGS.get_or_init(FieldSettings::default),
            colours: COLOURS.get_or_init(Colours::default),
            selected: None,
            view,
            agent: None,
            covered: &[],
        }
    }

    fn load(rel: &str) -> Match {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/logs")
            .join(rel);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let m = parse_log(&bytes);
        assert!(m.error.is_none(), "{rel}: {:?}", m.error);
        m
    }

    pub fn short_v6() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| load("short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"))
    }
    pub fn short_v1() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| load("short-v1/20261122132514-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz"))
    }
    pub fn operator() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| load("operator-commands-v6/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz"))
    }
    pub fn record_messages() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| load("record-messages-v6/20261122132927-REC_L_0-vs-REC_R_0.rcg.gz"))
    }
    pub fn full() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| load("full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz"))
    }
    pub fn agents_100() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| {
            load("../agents/agents-100/20261125140048-HELIOS_A_0-vs-HELIOS_B_0.rcg.gz")
        })
    }
    pub fn penalties() -> &'static Match {
        static M: OnceLock<Match> = OnceLock::new();
        M.get_or_init(|| load("penalty-shootout-v6/20261122132810-PEN_L_0_4-vs-PEN_R_0_2.rcg.gz"))
    }
}
