//! Commands a monitor sends to rcssserver, typed, and the datagrams that carry them.
//!
//! The server's syntax has traps (protocol-observed.md §5, §6): `dispfoul` and `dispplayer`
//! take integers that are metres × 16, floats are refused; sides are 1 / -1; every command
//! must end with a NUL; and once `(compression N)` is on, the server only reads zlib-compressed
//! commands. Building commands here keeps those rules in one place.
//!
//! Checked against the real server's answers in `captures/OPa/v5-operator` (what a monitor
//! sent and what followed) and in `captures/edge/v5-cmd-no-nul-and-unknown` (malformed
//! commands): see the tests below.

use crate::model::Side;
use crate::params::ServerParams;
use crate::playmode::PlayMode;
use std::io::Write;

/// `SHOWINFO_SCALE`: the server divides `dispfoul`/`dispplayer` coordinates by this.
const SCALE: f32 = 16.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Yellow,
    Red,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `(dispstart)`: kick off (only acts at time 0 and at half time).
    KickOff,
    /// `(dispfoul X Y SIDE)`: a free kick for `side` at (x, y) metres, or a drop ball at
    /// (x, y) when `side` is `None`.
    Foul { x: f32, y: f32, side: Option<Side> },
    /// `(dispcard SIDE UNUM yellow|red)`.
    Card { side: Side, unum: u8, card: Card },
    /// `(dispdiscard SIDE UNUM)`: sends a player off the field.
    Discard { side: Side, unum: u8 },
    /// `(dispplayer SIDE UNUM X Y ANG)`: moves a player to (x, y) metres facing `body`
    /// degrees.
    MovePlayer {
        side: Side,
        unum: u8,
        x: f32,
        y: f32,
        body: f32,
    },
    /// `(change_mode NAME)`, coach mode only (`server::coach` or `server::coach_w_referee`):
    /// the server answers `(ok change_mode)`, or `(error illegal_mode)` for a name outside
    /// its play-mode table. [`PlayMode::NULL`] is such a name: build it only from a mode
    /// that [`changeable_mode`] accepts.
    ChangeMode(PlayMode),
    /// `(recover)`, coach mode only: every player's stamina, effort and recovery back to
    /// full; the server answers `(ok recover)`.
    Recover,
    /// `(compression N)`: N ≥ 0 turns zlib on (0 = stored blocks), negative turns it off.
    Compression(i32),
    /// `(dispbye)`: unregister, freeing the server's monitor slot at once.
    Bye,
}

fn side_number(s: Side) -> i32 {
    match s {
        Side::Left => 1,
        Side::Right => -1,
    }
}

/// A play mode a coach-mode monitor may set by name: any of the server's table but the null
/// mode (index 0, empty name), which `(change_mode …)` refuses with `(error illegal_mode)`.
pub fn changeable_mode(name: &str) -> Option<PlayMode> {
    PlayMode::from_name(name.as_bytes()).filter(|m| *m != PlayMode::NULL)
}

/// Whether the server runs in a mode where a monitor may send the coach commands
/// (`(change_mode …)`, `(move …)`, `(recover)`): `server::coach` or `server::coach_w_referee`
/// in its `server_param` (monitor.cpp: anything else gets `(error illegal_command_form)`).
pub fn coach_mode(server_param: Option<&crate::model::Params>) -> bool {
    let on = |name: &str| {
        server_param
            .and_then(|p| p.get_f64(name))
            .is_some_and(|v| v != 0.0)
    };
    on("coach") || on("coach_w_referee")
}

/// Whether rcssserver would act on `(dispstart)` in a frame at `time` with play mode `mode`:
/// before kick-off at time 0, at half time and before each extra half (which is also how a
/// game set up for penalties only begins its shoot-out). The server itself checks only the
/// time (`Stadium::kickOff`: a multiple of `half_time` up to the end of normal time, of
/// `extra_half_time` after it, or any time when halves are unlimited); it sets
/// `before_kick_off` exactly there, and a `(dispstart)` in any other mode at such a time
/// would restart play that is already under way (at time over it kicks off a finished
/// game), so the play mode must be `before_kick_off` too.
pub fn kick_off_acts(time: u32, mode: PlayMode, params: &ServerParams) -> bool {
    if mode != PlayMode::BEFORE_KICK_OFF {
        return false;
    }
    let half = params.half_time_cycles;
    if half == 0 {
        return true;
    }
    let normal = half.saturating_mul(params.nr_normal_halfs);
    if time <= normal {
        time.is_multiple_of(half)
    } else {
        let extra = params.extra_half_time_cycles;
        extra > 0 && (time - normal).is_multiple_of(extra)
    }
}

fn scaled(v: f32) -> i64 {
    // Clamped far outside the pitch: the server clamps to the pitch itself.
    (f64::from(v) * f64::from(SCALE)).round().clamp(-1e6, 1e6) as i64
}

impl Command {
    /// The command as the server reads it, without the NUL.
    pub fn text(&self) -> String {
        match self {
            Command::KickOff => "(dispstart)".into(),
            Command::Foul { x, y, side } => format!(
                "(dispfoul {} {} {})",
                scaled(*x),
                scaled(*y),
                side.map_or(0, side_number)
            ),
            Command::Card { side, unum, card } => format!(
                "(dispcard {} {unum} {})",
                side_number(*side),
                match card {
                    Card::Yellow => "yellow",
                    Card::Red => "red",
                }
            ),
            Command::Discard { side, unum } => {
                format!("(dispdiscard {} {unum})", side_number(*side))
            }
            Command::MovePlayer {
                side,
                unum,
                x,
                y,
                body,
            } => format!(
                "(dispplayer {} {unum} {} {} {})",
                side_number(*side),
                scaled(*x),
                scaled(*y),
                normal_degrees(*body)
            ),
            Command::ChangeMode(mode) => format!("(change_mode {})", mode.name()),
            Command::Recover => "(recover)".into(),
            Command::Compression(n) => format!("(compression {n})"),
            Command::Bye => "(dispbye)".into(),
        }
    }

    /// Whether the server takes this command only in coach mode ([`coach_mode`]).
    pub fn needs_coach_mode(&self) -> bool {
        matches!(self, Command::ChangeMode(_) | Command::Recover)
    }

    /// What happened, for the people watching (an operator notice): "yellow card to left 5".
    pub fn describe(&self) -> String {
        let side = |s: &Side| match s {
            Side::Left => "left",
            Side::Right => "right",
        };
        match self {
            Command::KickOff => "kick-off".into(),
            Command::Foul {
                x,
                y,
                side: Some(s),
            } => format!("free kick {} at ({x:.1}, {y:.1})", side(s)),
            Command::Foul { x, y, side: None } => format!("drop ball at ({x:.1}, {y:.1})"),
            Command::Card {
                side: s,
                unum,
                card,
            } => format!(
                "{} card to {} {unum}",
                match card {
                    Card::Yellow => "yellow",
                    Card::Red => "red",
                },
                side(s)
            ),
            Command::Discard { side: s, unum } => format!("{} {unum} discarded", side(s)),
            Command::MovePlayer {
                side: s,
                unum,
                x,
                y,
                body,
            } => format!(
                "{} {unum} moved to ({x:.1}, {y:.1}) facing {}°",
                side(s),
                normal_degrees(*body)
            ),
            Command::ChangeMode(mode) => format!("play mode set to {}", mode.name()),
            Command::Recover => "players' stamina recovered".into(),
            Command::Compression(n) => format!("compression {n}"),
            Command::Bye => "monitor left".into(),
        }
    }
}

/// Whether a message is the server's answer to a command of this monitor: board 1 and
/// `(ok …)`, `(error …)` or `(warning …)` (monitor.cpp `sendMsg(MSG_BOARD, …)`). The server
/// sends these to the commanding monitor only; the same board also carries
/// `(change_player_type …)` and team-graphic tiles for everyone.
pub fn is_answer(m: &crate::model::Message) -> bool {
    m.board == 1
        && (m.text.starts_with(b"(ok ")
            || m.text.starts_with(b"(error ")
            || m.text.starts_with(b"(warning "))
}

/// Whole degrees in -180..=180, as the server's own directions are printed: `dispplayer`
/// takes an integer angle (floats are refused), and any angle means the same direction.
fn normal_degrees(deg: f32) -> i32 {
    if !deg.is_finite() {
        return 0;
    }
    let d = (f64::from(deg).round() as i64).rem_euclid(360) as i32;
    if d > 180 {
        d - 360
    } else {
        d
    }
}

/// The datagram for `text`: the text and a NUL, zlib-compressed (a complete stream, which the
/// server inflates like its own sync-flushed ones) when compression is on.
pub fn datagram(text: &str, compressed: bool) -> Vec<u8> {
    let mut plain = Vec::with_capacity(text.len() + 1);
    plain.extend_from_slice(text.as_bytes());
    plain.push(0);
    if !compressed {
        return plain;
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    // Writing into a Vec cannot fail.
    let _ = z.write_all(&plain);
    z.finish().unwrap_or(plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_use_the_servers_units() {
        assert_eq!(
            Command::Foul {
                x: 20.0,
                y: 10.0,
                side: Some(Side::Left)
            }
            .text(),
            "(dispfoul 320 160 1)"
        );
        assert_eq!(
            Command::Foul {
                x: 0.0,
                y: 0.0,
                side: None
            }
            .text(),
            "(dispfoul 0 0 0)"
        );
        assert_eq!(
            Command::Card {
                side: Side::Right,
                unum: 7,
                card: Card::Red
            }
            .text(),
            "(dispcard -1 7 red)"
        );
        assert_eq!(
            Command::MovePlayer {
                side: Side::Left,
                unum: 9,
                x: 30.0,
                y: -20.0,
                body: 90.0
            }
            .text(),
            "(dispplayer 1 9 480 -320 90)"
        );
        assert_eq!(
            Command::Discard {
                side: Side::Right,
                unum: 3
            }
            .text(),
            "(dispdiscard -1 3)"
        );
    }

    #[test]
    fn datagrams_end_in_nul_and_compress_when_asked() {
        assert_eq!(datagram("(dispbye)", false), b"(dispbye)\0");
        let z = datagram("(dispbye)", true);
        assert!(crate::datagram::is_zlib(&z));
        assert_eq!(crate::datagram::inflate(&z).unwrap(), b"(dispbye)\0");
    }
}
