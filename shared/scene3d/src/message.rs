//! A [`Scene3d`] as a flat list of `f32`, as the page posts it to its 3D worker each display
//! frame (a `Float32Array` crosses to a worker with one copy and no parsing). Only the page and
//! its worker, built together, read it; its first number is still a version, so that a worker
//! left in a browser's cache by an older page says so instead of drawing nonsense.

use crate::camera::{Lens, Shot};
use crate::figures::{Ball3, Card, Figure};
use crate::scene::Scene3d;
use rcss_formats::Side;

/// The layout's version.
pub const VERSION: f32 = 1.0;
const HEAD: usize = 20;
const PER_FIGURE: usize = 9;
/// More figures than any match has: a longer message is refused.
const MAX_FIGURES: usize = 64;

const GOALIE: u32 = 1;
const KICK: u32 = 2;
const TACKLE: u32 = 4;
const YELLOW: u32 = 8;
const RED: u32 = 16;
const RIGHT: u32 = 32;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DecodeError {
    #[error("a 3D scene of version {0}, where this worker reads version {VERSION}")]
    Version(f32),
    #[error("a 3D scene of {0} numbers does not hold what its head says")]
    Length(usize),
    #[error("a 3D scene with a number that is not finite at {0}")]
    NotFinite(usize),
}

pub fn encode(scene: &Scene3d) -> Vec<f32> {
    let mut out = Vec::with_capacity(HEAD + PER_FIGURE * scene.figures.len());
    let s = &scene.shot;
    let (lens, value) = match s.lens {
        Lens::Perspective { fov_y } => (0.0, fov_y),
        Lens::Orthographic { height } => (1.0, height),
    };
    out.extend([
        VERSION,
        scene.width as f32,
        scene.height as f32,
        scene.ratio as f32,
        scene.goal_width as f32,
        lens,
        value as f32,
    ]);
    for v in [s.eye, s.target, s.up] {
        out.extend(v.map(|x| x as f32));
    }
    out.extend([
        scene.ball.x as f32,
        scene.ball.y as f32,
        scene.ball.height as f32,
        scene.figures.len() as f32,
    ]);
    for f in &scene.figures {
        let mut flags = 0;
        for (on, bit) in [
            (f.goalie, GOALIE),
            (f.kick, KICK),
            (f.tackle, TACKLE),
            (f.card == Some(Card::Yellow), YELLOW),
            (f.card == Some(Card::Red), RED),
            (f.side == Side::Right, RIGHT),
        ] {
            if on {
                flags |= bit;
            }
        }
        out.extend([
            f.x as f32,
            f.y as f32,
            f.body as f32,
            f.neck as f32,
            f32::from(f.kit[0]),
            f32::from(f.kit[1]),
            f32::from(f.kit[2]),
            flags as f32,
            f32::from(f.unum),
        ]);
    }
    out
}

pub fn decode(m: &[f32]) -> Result<Scene3d, DecodeError> {
    let version = m.first().copied().ok_or(DecodeError::Length(0))?;
    if version != VERSION {
        return Err(DecodeError::Version(version));
    }
    if let Some(i) = m.iter().position(|v| !v.is_finite()) {
        return Err(DecodeError::NotFinite(i));
    }
    if m.len() < HEAD {
        return Err(DecodeError::Length(m.len()));
    }
    let n = m[HEAD - 1];
    let count = n as usize;
    if n < 0.0 || n.fract() != 0.0 || count > MAX_FIGURES || m.len() != HEAD + PER_FIGURE * count {
        return Err(DecodeError::Length(m.len()));
    }
    let d = |i: usize| f64::from(m[i]);
    let v3 = |i: usize| [d(i), d(i + 1), d(i + 2)];
    let lens = if m[5] == 1.0 {
        Lens::Orthographic { height: d(6) }
    } else {
        Lens::Perspective { fov_y: d(6) }
    };
    let colour = |v: f32| v.clamp(0.0, 255.0) as u8;
    let figures = m[HEAD..]
        .chunks_exact(PER_FIGURE)
        .map(|c| {
            let flags = c[7] as u32;
            let card = if flags & RED != 0 {
                Some(Card::Red)
            } else if flags & YELLOW != 0 {
                Some(Card::Yellow)
            } else {
                None
            };
            Figure {
                x: f64::from(c[0]),
                y: f64::from(c[1]),
                body: f64::from(c[2]),
                neck: f64::from(c[3]),
                side: if flags & RIGHT != 0 {
                    Side::Right
                } else {
                    Side::Left
                },
                unum: colour(c[8]),
                kit: [colour(c[4]), colour(c[5]), colour(c[6])],
                goalie: flags & GOALIE != 0,
                kick: flags & KICK != 0,
                tackle: flags & TACKLE != 0,
                card,
            }
        })
        .collect();
    Ok(Scene3d {
        figures,
        ball: Ball3 {
            x: d(16),
            y: d(17),
            height: d(18),
        },
        shot: Shot {
            eye: v3(7),
            target: v3(10),
            up: v3(13),
            lens,
        },
        width: d(1),
        height: d(2),
        ratio: d(3),
        goal_width: d(4),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::{self, TEST_KITS as KITS};
    use rcss_formats::log::parse_log;

    fn scene_of_a_real_frame() -> Scene3d {
        let m = parse_log(&pitchside_fixtures::read(pitchside_fixtures::SHORT_V6));
        let f = &m.frames[m.frames.len() / 2];
        Scene3d {
            figures: figures::figures(f, &KITS),
            ball: figures::ball(f),
            shot: Shot {
                eye: [1.0, 24.0, 76.0],
                target: [3.0, 0.0, -2.0],
                up: [0.0, 1.0, 0.0],
                lens: Lens::Perspective { fov_y: 30.0 },
            },
            width: 1280.0,
            height: 720.0,
            ratio: 1.0,
            goal_width: 14.02,
        }
    }

    #[test]
    fn a_real_frame_survives_the_trip_to_the_worker() {
        let s = scene_of_a_real_frame();
        let back = decode(&encode(&s)).expect("decodes");
        assert_eq!(back.figures.len(), s.figures.len());
        for (a, b) in s.figures.iter().zip(&back.figures) {
            assert_eq!(
                (a.side, a.unum, a.kit, a.goalie),
                (b.side, b.unum, b.kit, b.goalie)
            );
            assert_eq!((a.kick, a.tackle, a.card), (b.kick, b.tackle, b.card));
            assert!((a.x - b.x).abs() < 1e-4 && (a.body - b.body).abs() < 1e-3);
        }
        assert!((back.ball.x - s.ball.x).abs() < 1e-4);
        assert_eq!(back.shot.lens, s.shot.lens);
    }

    #[test]
    fn a_damaged_message_is_refused_with_what_is_wrong() {
        let m = encode(&scene_of_a_real_frame());
        assert_eq!(decode(&[]), Err(DecodeError::Length(0)));
        assert_eq!(
            decode(&m[..m.len() - 1]),
            Err(DecodeError::Length(m.len() - 1))
        );
        let mut v = m.clone();
        v[0] = 2.0;
        assert_eq!(decode(&v), Err(DecodeError::Version(2.0)));
        let mut v = m.clone();
        v[25] = f32::NAN;
        assert_eq!(decode(&v), Err(DecodeError::NotFinite(25)));
        let mut v = m;
        v[HEAD - 1] = 1e9;
        assert!(matches!(decode(&v), Err(DecodeError::Length(_))));
    }
}
