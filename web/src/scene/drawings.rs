//! What a program drew on the monitor's field through protocols 1 and 2: points, circles and
//! lines in a named colour, orders to clear them, and blank screens. They reach the page in
//! the match's [`Match::drawings`](rcss_formats::log::Match) from v1/v2 logs and from the
//! relay's wire; rcssserver itself never sends them, but programs that wrote those formats did
//! (logplayers, coaches' and trainers' debugging tools).
//!
//! At the frame on screen the field shows every drawing whose time is at most the frame's
//! cycle, since the last clear at or before it: a drawing stays until it is cleared, as on a
//! monitor that kept what it was sent. Records carry no time of their own: a drawing has the
//! cycle of the show before it.
//!
//! A blank screen: the manual says `BLANK_MODE` tells the monitor to show a blank screen, and
//! a log gives it after the show of its cycle. So a blank at cycle `t` shows the pitch alone
//! (no players, ball, overlays or drawings) for every frame of cycle `t`; the next cycle
//! shows the match again.
//!
//! Colours are X11 names (`red`, `GhostWhite`, `gray20`, as the monitors of the time read
//! them with X) or `#rrggbb`; anything else is drawn in a light grey.

use super::style::{Rgba, INK};
use super::{shape::Geom, shape::Owner, shape::Scene, shape::Shape, shape::Stroke, shape::Tag};
use rcss_formats::model::{Drawing, Shape as Draw};

/// Drawn where the colour is not one (the monitors fell back on their default colour too).
const DEFAULT: Rgba = Rgba::rgb(220, 220, 220);
/// A point is a dot of this radius (metres), and at least this many canvas pixels.
const POINT_RADIUS: f64 = 0.3;
const POINT_MIN_PX: f64 = 4.0;
/// Line width of circles and lines, canvas pixels.
const LINE_PX: f64 = 2.0;

/// The colour a drawing names, or `None` if it names none.
pub fn colour(name: &str) -> Option<Rgba> {
    match rcss_formats::team_graphic::parse_color(name) {
        // XPM's `None` (transparent) is no colour to draw with.
        Some([_, _, _, 0]) | None => None,
        Some(c) => Some(Rgba(c)),
    }
}

/// What the field shows of the drawings at cycle `time`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown<'a> {
    /// A blank screen was ordered for this cycle: the pitch alone.
    pub blank: bool,
    /// The points, circles and lines to draw, oldest first.
    pub drawings: Vec<&'a Drawing>,
}

/// The drawings in force at cycle `time`: those up to it since the last clear up to it, and
/// whether a blank screen was ordered for it. `drawings` are in log order.
pub fn at(drawings: &[Drawing], time: u32) -> Shown<'_> {
    let mut shown = Shown::default();
    for d in drawings.iter().filter(|d| d.time <= time) {
        match d.shape {
            Draw::Clear => shown.drawings.clear(),
            Draw::Blank => shown.blank |= d.time == time,
            Draw::Point { .. } | Draw::Circle { .. } | Draw::Line { .. } => shown.drawings.push(d),
        }
    }
    shown
}

/// Adds the drawings in force at the scene's cycle to it, on top of everything; for a blank
/// screen, leaves only the pitch. `metres_per_px` is the view's (for the least size of a
/// point).
pub fn build(scene: &mut Scene, drawings: &[Drawing], metres_per_px: f64) {
    let Some(time) = scene.time else { return };
    if drawings.is_empty() {
        return;
    }
    let shown = at(drawings, time);
    if shown.blank {
        blank(scene);
        return;
    }
    for d in shown.drawings {
        if let Some(s) = shape(d, metres_per_px) {
            scene.shapes.push(s);
        }
    }
}

/// The pitch alone: no players, ball or anything drawn over the pitch.
fn blank(scene: &mut Scene) {
    scene.shapes.retain(|s| {
        matches!(
            s.tag,
            Tag::Grass | Tag::PitchLine | Tag::Goal | Tag::Flag | Tag::Grid
        )
    });
    scene.players.clear();
    scene.ball = None;
    scene.offside = [None, None];
}

fn shape(d: &Drawing, metres_per_px: f64) -> Option<Shape> {
    let p = |x: f32, y: f32| (f64::from(x), f64::from(y));
    let ink = |name: &str| colour(name).unwrap_or(DEFAULT);
    let new = |geom| Shape::new(Tag::ServerDrawing, Owner::None, geom);
    Some(match &d.shape {
        Draw::Point { x, y, color } => new(Geom::Circle {
            centre: p(*x, *y),
            radius: POINT_RADIUS.max(POINT_MIN_PX * metres_per_px),
        })
        .fill(ink(color))
        // A dark rim keeps a light dot apart from the lines of the pitch.
        .stroke(Stroke::solid(INK, 1.0)),
        Draw::Circle { x, y, r, color } => new(Geom::Circle {
            centre: p(*x, *y),
            radius: f64::from(*r).abs(),
        })
        .stroke(Stroke::solid(ink(color), LINE_PX)),
        Draw::Line {
            x1,
            y1,
            x2,
            y2,
            color,
        } => new(Geom::Line {
            from: p(*x1, *y1),
            to: p(*x2, *y2),
        })
        .stroke(Stroke::solid(ink(color), LINE_PX)),
        Draw::Clear | Draw::Blank => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{Camera, View};
    use crate::scene::{self, testutil, FieldParams};
    use rcss_formats::log::{parse_log, LogDecoder, Match};
    use rcss_formats::model::Record;
    use rcss_formats::tools::{rewrite, Edits};
    use rcss_formats::write::write_log;
    use rcss_formats::LogVersion;
    use std::io::Read;

    /// Where the log with drawings lives, made by [`made_log`].
    const FIXTURE: &str = "../tests/fixtures/made/drawings-v1.rcg.gz";

    fn fixture_path() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE)
    }

    fn gunzip(raw: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    fn draw(time: u32, shape: Draw) -> Record {
        Record::Draw(Drawing { time, shape })
    }

    /// The drawings [`made_log`] puts after the show of each cycle.
    fn drawings_after(cycle: u32) -> Vec<Record> {
        let point = |x, y, c: &str| Draw::Point {
            x,
            y,
            color: c.into(),
        };
        let circle = |x, y, r, c: &str| Draw::Circle {
            x,
            y,
            r,
            color: c.into(),
        };
        let line = |x1, y1, x2, y2, c: &str| Draw::Line {
            x1,
            y1,
            x2,
            y2,
            color: c.into(),
        };
        let shapes = match cycle {
            10 => vec![
                circle(-36.0, 0.0, 5.0, "red"),
                point(10.0, 10.0, "blue"),
                line(0.0, -34.0, 0.0, 34.0, "yellow"),
            ],
            20 => vec![
                Draw::Clear,
                line(-20.0, -10.0, 20.0, 10.0, "#00ff00"),
                // An X11 name CSS does not know.
                circle(20.0, -15.0, 3.0, "DarkOrange1"),
            ],
            30 => vec![Draw::Blank],
            40 => vec![Draw::Clear],
            _ => Vec::new(),
        };
        shapes.into_iter().map(|s| draw(cycle, s)).collect()
    }

    /// A v1 log with drawings: the real short v1 game's cycles 1 to 60, written as v1 again,
    /// with drawings after the first show of cycles 10 (a red circle, a blue point, a yellow
    /// line), 20 (a clear, a green line, an orange circle), 30 (a blank screen) and 40 (a
    /// clear). Real rcssserver logs have none (the server never sends them).
    fn made_log() -> Vec<u8> {
        let source = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../tests/fixtures/logs/short-v1/20261122132514-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz",
        ))
        .unwrap();
        let (clip, done) = rewrite(
            &source,
            Edits {
                to: Some(LogVersion::V1),
                clip: Some((1, 60)),
                ..Edits::default()
            },
        );
        assert!(done.error.is_none() && done.shows > 60, "{done:?}");
        let mut records = Vec::new();
        let mut d = LogDecoder::new();
        d.feed(&clip, &mut records).unwrap();
        d.finish(&mut records).unwrap();
        let mut out = Vec::new();
        let mut last = None;
        for r in records {
            let after = match &r {
                Record::Show(f) if last != Some(f.time) => {
                    last = Some(f.time);
                    drawings_after(f.time)
                }
                _ => Vec::new(),
            };
            out.push(r);
            out.extend(after);
        }
        write_log(LogVersion::V1, &out)
    }

    /// `PITCHSIDE_BLESS=1` writes the fixture again; otherwise it must be what [`made_log`]
    /// makes (compared unpacked: gzip's bytes may differ between versions of flate2).
    #[test]
    fn the_drawings_fixture_is_what_pitchside_makes() {
        let made = made_log();
        if std::env::var_os("PITCHSIDE_BLESS").is_some() {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            std::io::Write::write_all(&mut gz, &made).unwrap();
            let path = fixture_path();
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, gz.finish().unwrap()).unwrap();
        }
        let raw = std::fs::read(fixture_path()).unwrap();
        assert!(raw.len() < 40_000, "tiny: {} bytes", raw.len());
        assert!(gunzip(&raw) == made, "remake it with PITCHSIDE_BLESS=1");
    }

    fn fixture() -> Match {
        parse_log(&std::fs::read(fixture_path()).unwrap())
    }

    #[test]
    fn real_server_logs_have_no_drawings() {
        assert!(testutil::short_v1().drawings.is_empty());
        assert!(testutil::short_v6().drawings.is_empty());
    }

    #[test]
    fn colours_are_x11_names_or_hex() {
        assert_eq!(colour("red"), Some(Rgba::rgb(255, 0, 0)));
        assert_eq!(colour("DarkOrange1"), Some(Rgba::rgb(255, 127, 0)));
        assert_eq!(colour("gray20"), Some(Rgba::rgb(51, 51, 51)));
        assert_eq!(colour("#00ff00"), Some(Rgba::rgb(0, 255, 0)));
        assert_eq!(colour("None"), None);
        assert_eq!(colour("not a colour"), None);
        assert_eq!(colour(""), None);
    }

    /// The scene of the fixture's first frame of `cycle`, drawings added.
    fn scene_at(m: &Match, cycle: u32) -> Scene {
        let frame = m.frames.iter().find(|f| f.time == cycle).unwrap();
        let params = FieldParams::of_match(m);
        let view = View::of_camera(&Camera::default(), 1050.0, 680.0, None);
        let mut s = scene::build(&scene::testutil::input(frame, &params, &view));
        build(&mut s, &m.drawings, view.metres(1.0));
        s
    }

    fn drawn(s: &Scene) -> Vec<&Shape> {
        s.with_tag(Tag::ServerDrawing).collect()
    }

    #[test]
    fn drawings_show_from_their_cycle_until_cleared_and_blank_screens_for_theirs() {
        let m = fixture();
        assert_eq!(m.error, None);
        assert_eq!(m.drawings.len(), 8);
        // Each has the cycle of the show before it.
        let times: Vec<u32> = m.drawings.iter().map(|d| d.time).collect();
        assert_eq!(times, [10, 10, 10, 20, 20, 20, 30, 40]);

        // Before cycle 10, nothing; the match as ever.
        let s = scene_at(&m, 9);
        assert!(drawn(&s).is_empty());
        assert_eq!(s.players.len(), 22);
        // From cycle 10: a red circle, a blue point, a yellow line, in the field's metres.
        for cycle in [10, 15, 19] {
            let s = scene_at(&m, cycle);
            let d = drawn(&s);
            assert_eq!(d.len(), 3, "cycle {cycle}");
            assert_eq!(
                d[0].geom,
                Geom::Circle {
                    centre: (-36.0, 0.0),
                    radius: 5.0
                }
            );
            assert_eq!(d[0].stroke.unwrap().colour, Rgba::rgb(255, 0, 0));
            assert!(d[0].fill.is_none());
            assert!(matches!(
                d[1].geom,
                Geom::Circle {
                    centre: (10.0, 10.0),
                    ..
                }
            ));
            assert_eq!(d[1].fill, Some(Rgba::rgb(0, 0, 255)));
            assert_eq!(
                d[2].geom,
                Geom::Line {
                    from: (0.0, -34.0),
                    to: (0.0, 34.0)
                }
            );
            // On top of everything.
            assert_eq!(s.shapes.last().unwrap().tag, Tag::ServerDrawing);
            assert_eq!(s.players.len(), 22);
        }
        // Cycle 20 clears them and draws two more.
        let s = scene_at(&m, 25);
        let d = drawn(&s);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].stroke.unwrap().colour, Rgba::rgb(0, 255, 0));
        assert_eq!(d[1].stroke.unwrap().colour, Rgba::rgb(255, 127, 0));
        // Cycle 30 is a blank screen: the pitch alone, for every frame of that cycle.
        let frames_30 = m.frames.iter().filter(|f| f.time == 30).count();
        assert!(frames_30 >= 1);
        let s = scene_at(&m, 30);
        assert!(s.players.is_empty() && s.ball.is_none(), "{:?}", s.players);
        assert!(s.shapes.iter().all(|s| matches!(
            s.tag,
            Tag::Grass | Tag::PitchLine | Tag::Goal | Tag::Flag | Tag::Grid
        )));
        assert!(s.with_tag(Tag::PitchLine).count() > 10);
        assert_eq!(s.time, Some(30));
        // The match again at 31, with the drawings of cycle 20, until 40 clears them.
        let s = scene_at(&m, 31);
        assert_eq!((s.players.len(), drawn(&s).len()), (22, 2));
        assert!(s.ball.is_some());
        assert!(drawn(&scene_at(&m, 40)).is_empty());
        assert!(drawn(&scene_at(&m, 60)).is_empty());
    }

    #[test]
    fn points_keep_a_least_size_on_screen() {
        let d = Drawing {
            time: 1,
            shape: Draw::Point {
                x: 1.0,
                y: 2.0,
                color: "no such colour".into(),
            },
        };
        let s = shape(&d, 0.5).unwrap();
        assert_eq!(
            s.geom,
            Geom::Circle {
                centre: (1.0, 2.0),
                radius: 2.0
            }
        );
        assert_eq!(s.fill, Some(DEFAULT));
        let s = shape(&d, 0.01).unwrap();
        assert!(matches!(s.geom, Geom::Circle { radius, .. } if radius == POINT_RADIUS));
    }

    #[test]
    fn a_reversed_log_draws_mirrored() {
        let raw = std::fs::read(fixture_path()).unwrap();
        let (rev, done) = rewrite(
            &raw,
            Edits {
                reverse: true,
                ..Edits::default()
            },
        );
        assert!(done.error.is_none());
        let m = parse_log(&rev);
        let s = scene_at(&m, 15);
        let d = drawn(&s);
        assert_eq!(
            d[0].geom,
            Geom::Circle {
                centre: (36.0, 0.0),
                radius: 5.0
            }
        );
    }
}
