//! Commands a monitor sends to rcssserver, typed, and the datagrams that carry them.
//!
//! The server's syntax has traps (protocol-observed.md §5, §6): `dispfoul` and `dispplayer`
//! take integers that are metres × 16, floats are refused; sides are 1 / -1; every command
//! must end with a NUL; and once `(compression N)` is on, the server only reads zlib-compressed
//! commands. Building commands here keeps those rules in one place.

use crate::model::Side;
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
                body.round().clamp(-360.0, 360.0) as i32
            ),
            Command::Compression(n) => format!("(compression {n})"),
            Command::Bye => "(dispbye)".into(),
        }
    }

    /// What happened, for the people watching (an operator notice).
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
                "{} card for {} {unum}",
                match card {
                    Card::Yellow => "yellow",
                    Card::Red => "red",
                },
                side(s)
            ),
            Command::Discard { side: s, unum } => format!("{} {unum} sent off", side(s)),
            Command::MovePlayer {
                side: s,
                unum,
                x,
                y,
                ..
            } => format!("{} {unum} moved to ({x:.1}, {y:.1})", side(s)),
            Command::Compression(n) => format!("compression {n}"),
            Command::Bye => "monitor left".into(),
        }
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
