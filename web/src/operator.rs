//! Refereeing from the page, the part without a browser: the commands as the relay's control
//! endpoint takes them (book, "Refereeing"), and what the frames after a command say it did.
//!
//! The key comes in the address fragment (`#control=KEY`, among other `key=value` pairs):
//! [`crate::link`] reads it once and never writes it back to the address or into a copied
//! link; the page keeps it in `sessionStorage` for this relay (this tab only, gone when it
//! closes), so a reload stays the operator's.

use rcss_formats::command;
use rcss_formats::params::ServerParams;
use rcss_formats::{state, Frame, Match, PlayMode, Side};

/// The `sessionStorage` key the token is kept under (the storage is per relay already: one
/// origin per relay).
pub const STORAGE_KEY: &str = "pitchside.control";

/// A referee's action, as the relay's control endpoint takes it: metres and degrees, as the
/// page shows them.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    KickOff,
    DropBall {
        x: f32,
        y: f32,
    },
    FreeKick {
        side: Side,
        x: f32,
        y: f32,
    },
    Card {
        side: Side,
        unum: u8,
        red: bool,
    },
    Discard {
        side: Side,
        unum: u8,
    },
    Move {
        side: Side,
        unum: u8,
        x: f32,
        y: f32,
        deg: f32,
    },
}

fn letter(side: Side) -> &'static str {
    match side {
        Side::Left => "l",
        Side::Right => "r",
    }
}

fn word(side: Side) -> &'static str {
    match side {
        Side::Left => "left",
        Side::Right => "right",
    }
}

/// Metres with one decimal, as the endpoint needs no more (the server takes 1/16 m).
fn m1(v: f32) -> f64 {
    (f64::from(v) * 10.0).round() / 10.0
}

impl Action {
    /// The JSON body for `POST /m/NAME/control`.
    pub fn json(&self) -> String {
        let v = match self {
            Action::KickOff => serde_json::json!({"cmd": "kickoff"}),
            Action::DropBall { x, y } => {
                serde_json::json!({"cmd": "drop_ball", "x": m1(*x), "y": m1(*y)})
            }
            Action::FreeKick { side, x, y } => serde_json::json!({
                "cmd": "free_kick", "side": letter(*side), "x": m1(*x), "y": m1(*y)
            }),
            Action::Card { side, unum, red } => serde_json::json!({
                "cmd": "card", "side": letter(*side), "unum": unum,
                "card": if *red { "red" } else { "yellow" }
            }),
            Action::Discard { side, unum } => {
                serde_json::json!({"cmd": "discard", "side": letter(*side), "unum": unum})
            }
            Action::Move {
                side,
                unum,
                x,
                y,
                deg,
            } => serde_json::json!({
                "cmd": "move", "side": letter(*side), "unum": unum,
                "x": m1(*x), "y": m1(*y), "deg": deg.round()
            }),
        };
        v.to_string()
    }

    /// What the action is, in the operator's words.
    pub fn label(&self) -> String {
        match self {
            Action::KickOff => "kick-off".into(),
            Action::DropBall { x, y } => format!("drop ball at ({x:.1}, {y:.1})"),
            Action::FreeKick { side, x, y } => {
                format!("free kick {} at ({x:.1}, {y:.1})", word(*side))
            }
            Action::Card { side, unum, red } => format!(
                "{} card to {} {unum}",
                if *red { "red" } else { "yellow" },
                word(*side)
            ),
            Action::Discard { side, unum } => format!("discard {} {unum}", word(*side)),
            Action::Move {
                side,
                unum,
                x,
                y,
                deg,
            } => format!(
                "move {} {unum} to ({x:.1}, {y:.1}) facing {:.0}°",
                word(*side),
                deg
            ),
        }
    }

    /// Whether the frames `after` the one the action was sent at show it done; `Some` says
    /// what was seen. The server clamps free kicks and drop balls to the pitch and may move a
    /// moved player back (a kick-off setup), so positions are compared loosely.
    pub fn seen(&self, before: &Frame, after: &Frame) -> Option<String> {
        let mode = |name: &str| PlayMode::from_name(name.as_bytes());
        let player = |side: Side, unum: u8| {
            after
                .players
                .iter()
                .find(|p| p.side == Some(side) && p.unum == unum)
        };
        let at = |x: f32, y: f32| {
            let (cx, cy) = clamp_to_pitch(x, y);
            (after.ball.x - cx).abs() < 0.5 && (after.ball.y - cy).abs() < 0.5
        };
        match self {
            Action::KickOff => {
                // The kick-off mode may last a single cycle (the kicker is quick): time
                // moving on from before kick-off says it as well. A log holds no frame before
                // kick-off (the server writes none): there the change into kick-off tells.
                let kick_off = [mode("kick_off_l"), mode("kick_off_r")].contains(&Some(after.mode));
                let started = (before.mode == PlayMode::BEFORE_KICK_OFF
                    && (kick_off || after.time > before.time))
                    || (kick_off && after.mode != before.mode);
                started.then(|| format!("{} at cycle {}", after.mode.name(), after.time))
            }
            Action::DropBall { x, y } => {
                // The ball put at the spot (clamped to the pitch) and play going on; in play
                // the mode may not even change, so the ball's position is what tells.
                let moved = after.time > before.time || after.mode != before.mode;
                let dropped = Some(after.mode) == mode("drop_ball");
                (moved && (dropped || (at(*x, *y) && after.mode == PlayMode::PLAY_ON))).then(|| {
                    format!(
                        "ball at ({:.1}, {:.1}), {} at cycle {}",
                        after.ball.x,
                        after.ball.y,
                        after.mode.name(),
                        after.time
                    )
                })
            }
            Action::FreeKick { side, x, y } => {
                let want = mode(match side {
                    Side::Left => "free_kick_l",
                    Side::Right => "free_kick_r",
                });
                (Some(after.mode) == want && at(*x, *y)).then(|| {
                    format!(
                        "{} at ({:.1}, {:.1}), cycle {}",
                        after.mode.name(),
                        after.ball.x,
                        after.ball.y,
                        after.time
                    )
                })
            }
            Action::Card { side, unum, red } => {
                let p = player(*side, *unum)?;
                let bit = if *red {
                    state::RED_CARD
                } else {
                    state::YELLOW_CARD
                };
                // A second yellow is a red card: the yellow bit goes, the red one comes.
                let shown = p.state & bit != 0 || (!*red && p.state & state::RED_CARD != 0);
                shown.then(|| {
                    if p.state & state::RED_CARD != 0 {
                        format!(
                            "{} {unum} has a red card (cycle {})",
                            word(*side),
                            after.time
                        )
                    } else {
                        format!(
                            "{} {unum} has a yellow card (cycle {})",
                            word(*side),
                            after.time
                        )
                    }
                })
            }
            Action::Discard { side, unum } => {
                let p = player(*side, *unum)?;
                (p.state == 0).then(|| format!("{} {unum} is off the field", word(*side)))
            }
            Action::Move {
                side, unum, x, y, ..
            } => {
                let p = player(*side, *unum)?;
                ((p.x - x).abs() < 0.5 && (p.y - y).abs() < 0.5).then(|| {
                    format!(
                        "{} {unum} at ({:.1}, {:.1}), cycle {}",
                        word(*side),
                        p.x,
                        p.y,
                        after.time
                    )
                })
            }
        }
    }
}

/// Where the server puts a free kick or drop ball asked for at (x, y): on the pitch.
pub fn clamp_to_pitch(x: f32, y: f32) -> (f32, f32) {
    use rcss_formats::params::field::{HALF_LENGTH, HALF_WIDTH};
    (
        x.clamp(-HALF_LENGTH, HALF_LENGTH),
        y.clamp(-HALF_WIDTH, HALF_WIDTH),
    )
}

/// The pitch plus the 5 m the relay accepts around it: where the page lets the operator act.
pub fn on_pitch_or_near(x: f64, y: f64) -> bool {
    use rcss_formats::params::field::{HALF_LENGTH, HALF_WIDTH};
    x.abs() <= f64::from(HALF_LENGTH + 5.0) && y.abs() <= f64::from(HALF_WIDTH + 5.0)
}

/// Whether the server would act on a kick-off in `frame` of `game`.
pub fn kick_off_offered(game: &Match, frame: &Frame) -> bool {
    let params = ServerParams::from_params(game.server_param.as_ref());
    command::kick_off_acts(frame.time, frame.mode, &params)
}

/// Degrees from (x0, y0) towards (x1, y1), in the field's frame (y down), as the server
/// measures a body direction.
pub fn facing(x0: f64, y0: f64, x1: f64, y1: f64) -> f32 {
    (y1 - y0).atan2(x1 - x0).to_degrees() as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::parse_log;

    fn operator_game() -> Match {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/logs/operator-commands-v6/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz"
        );
        let raw = std::fs::read(path).unwrap();
        let mut bytes = Vec::new();
        use std::io::Read;
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut bytes)
            .unwrap();
        parse_log(&bytes)
    }

    #[test]
    fn actions_are_the_endpoints_json() {
        let j = |a: Action| serde_json::from_str::<serde_json::Value>(&a.json()).unwrap();
        assert_eq!(
            j(Action::Card {
                side: Side::Left,
                unum: 5,
                red: false
            }),
            serde_json::json!({"cmd":"card","side":"l","unum":5,"card":"yellow"})
        );
        assert_eq!(
            j(Action::Move {
                side: Side::Right,
                unum: 2,
                x: 10.04,
                y: -3.96,
                deg: 89.6
            }),
            serde_json::json!({"cmd":"move","side":"r","unum":2,"x":10.0,"y":-4.0,"deg":90.0})
        );
        assert_eq!(
            j(Action::FreeKick {
                side: Side::Right,
                x: -30.0,
                y: 1.25
            }),
            serde_json::json!({"cmd":"free_kick","side":"r","x":-30.0,"y":1.3})
        );
        assert_eq!(j(Action::KickOff), serde_json::json!({"cmd":"kickoff"}));
    }

    /// The operator log of a real game: the effects its monitor's commands had are found.
    #[test]
    fn effects_are_recognised_in_the_real_frames() {
        let g = operator_game();
        let f = &g.frames;
        let seen_somewhere = |a: &Action| f.windows(2).find_map(|w| a.seen(&w[0], &w[1]));
        assert!(seen_somewhere(&Action::KickOff).is_some());
        // As the page looks: from the frame the command was sent at, on to the later ones.
        let seen_after = |a: &Action, cycle: u32| {
            let at = f.iter().rposition(|fr| fr.time == cycle).unwrap();
            f[at + 1..].iter().find_map(|later| a.seen(&f[at], later))
        };
        // The capture's drop ball at the centre, sent at cycle 190: the ball is there.
        let drop = seen_after(&Action::DropBall { x: 0.0, y: 0.0 }, 190).unwrap();
        assert!(drop.starts_with("ball at (0.0, 0.0)"), "{drop}");
        // Nobody dropped the ball near the left corner flag.
        assert_eq!(
            seen_somewhere(&Action::DropBall { x: -50.0, y: -32.0 }),
            None
        );
        let fk = Action::FreeKick {
            side: Side::Left,
            x: 20.0,
            y: 10.0,
        };
        assert!(seen_somewhere(&fk)
            .unwrap()
            .starts_with("free_kick_l at (20.0, 10.0)"));
        // Clamped by the server to the corner: still recognised.
        let far = Action::FreeKick {
            side: Side::Right,
            x: 56.0,
            y: 38.0,
        };
        assert!(seen_somewhere(&far).is_some());
        let yellow = Action::Card {
            side: Side::Left,
            unum: 5,
            red: false,
        };
        assert!(seen_somewhere(&yellow).is_some());
        let moved = Action::Move {
            side: Side::Left,
            unum: 9,
            x: 30.0,
            y: -20.0,
            deg: 90.0,
        };
        assert!(seen_somewhere(&moved).is_some());
        let discard = Action::Discard {
            side: Side::Right,
            unum: 3,
        };
        assert!(seen_somewhere(&discard).is_some());
        // Nobody gave right 5 a card in that game.
        let never = Action::Card {
            side: Side::Right,
            unum: 5,
            red: true,
        };
        assert_eq!(seen_somewhere(&never), None);
    }

    #[test]
    fn kick_off_is_offered_before_kick_off_and_at_half_time_only() {
        let g = operator_game();
        let offered: Vec<u32> = g
            .frames
            .iter()
            .filter(|f| kick_off_offered(&g, f))
            .map(|f| f.time)
            .collect();
        // Text logs hold neither cycle 0 nor the half-time cycle, so no frame of the log
        // itself is one where a kick-off would act.
        assert!(offered.is_empty(), "{offered:?}");
        let mut first = g.frames[0].clone();
        first.time = 0;
        first.mode = PlayMode::BEFORE_KICK_OFF;
        assert!(kick_off_offered(&g, &first));
        first.time = 400;
        assert!(kick_off_offered(&g, &first), "half_time=40 s: cycle 400");
        first.time = 401;
        assert!(!kick_off_offered(&g, &first));
    }
}
