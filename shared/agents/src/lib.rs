//! What the agents wrote about themselves, to be shown beside the match: a team developer
//! debugging an agent needs what it believed and decided next to what the server saw.
//!
//! Three kinds of file, each one line per record with the game time first, so that one
//! streaming pass indexes a file by cycle and only the cycles on screen are ever decoded:
//! - [`debuglog`]: librcsc's debug log (`TEAM-UNUM.log`): text messages and drawings, each
//!   under a category bit ([`level`]).
//! - [`worldmodel`]: librcsc's debug-client messages (`TEAM-UNUM.dcl`, or live over UDP): the
//!   agent's world model each cycle, its targets, its says and drawings.
//! - [`commands`]: rcssserver's message log (`.rcl`): every command each client sent and
//!   every referee message, cycle by cycle.
//!
//! [`drawing`] holds the shapes both kinds of agent file draw; [`index`] holds the streaming
//! cycle index; [`gz`] reads a gzipped file's text from access points noted in the same pass;
//! [`words`] notes each span's words for searches; [`files`] pairs file names with a team
//! and a player. A line that cannot be read gives an [`AgentLineError`] with its line number
//! and never stops the lines after it.
//!
//! It must not do IO: the page reads the files (in a worker) and the relay serves them; both
//! hand this crate bytes.

pub mod commands;
pub mod debuglog;
pub mod drawing;
pub mod files;
pub mod gz;
pub mod index;
pub mod level;
pub mod words;
pub mod worldmodel;

use std::fmt;

/// A game time as agents and the server's message log write it: `CYCLE,STOPPED`, where
/// `STOPPED` counts the cycles the clock has stood still (set pieces, before kick-off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Time {
    pub cycle: u32,
    pub stopped: u32,
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.cycle, self.stopped)
    }
}

impl Time {
    /// `CYCLE,STOPPED` at the start of `s`, and the rest after it.
    pub fn parse_prefix(s: &[u8]) -> Option<(Time, &[u8])> {
        let (cycle, rest) = digits(s)?;
        let rest = rest.strip_prefix(b",")?;
        let (stopped, rest) = digits(rest)?;
        Some((Time { cycle, stopped }, rest))
    }
}

/// A decimal `u32` at the start of `s` (at most 9 digits, so it cannot overflow).
pub(crate) fn digits(s: &[u8]) -> Option<(u32, &[u8])> {
    let n = s.iter().take(10).take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 9 {
        return None;
    }
    let v = s[..n]
        .iter()
        .fold(0u32, |v, b| v * 10 + u32::from(b - b'0'));
    Some((v, &s[n..]))
}

/// A point in field coordinates (metres, rcssserver's axes: x to the right team's goal, y down).
pub type Point = (f64, f64);

/// A line of an agent file that could not be read: where, and what was wrong. The lines
/// around it are still read.
#[derive(Clone, Debug, PartialEq, thiserror::Error, serde::Serialize)]
#[error("line {line}: {what}")]
pub struct AgentLineError {
    /// 1-based line number in the file.
    pub line: u64,
    pub what: String,
}

impl AgentLineError {
    pub(crate) fn new(line: u64, what: impl Into<String>) -> AgentLineError {
        AgentLineError {
            line,
            what: what.into(),
        }
    }
}

/// What a line held, shortened for an error message.
pub(crate) fn shown(s: &[u8]) -> String {
    const MAX: usize = 60;
    let text = String::from_utf8_lossy(s);
    let text = text.trim_end();
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("\"{cut}…\"")
    } else {
        format!("\"{text}\"")
    }
}

/// A colour as the agents give it (`#rrggbb`, or a name Qt and X11 know), as RGBA; `None`
/// where the agent gave none or one that is not a colour (drawn in the default colour).
pub fn colour(spec: &str) -> Option<[u8; 4]> {
    let spec = spec.trim();
    if spec.is_empty() {
        return None;
    }
    rcss_formats::team_graphic::parse_color(spec).filter(|c| c[3] != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_digits() {
        assert_eq!(
            Time::parse_prefix(b"123,4 rest"),
            Some((
                Time {
                    cycle: 123,
                    stopped: 4
                },
                &b" rest"[..]
            ))
        );
        assert_eq!(Time::parse_prefix(b"123 4"), None);
        assert_eq!(Time::parse_prefix(b",4"), None);
        assert_eq!(Time::parse_prefix(b"9999999999,0"), None);
        assert!(
            Time {
                cycle: 3,
                stopped: 9
            } < Time {
                cycle: 4,
                stopped: 0
            }
        );
    }

    #[test]
    fn colours() {
        assert_eq!(colour("#ff0000"), Some([255, 0, 0, 255]));
        assert_eq!(colour("red"), Some([255, 0, 0, 255]));
        assert_eq!(colour("DarkOrange"), Some([255, 140, 0, 255]));
        assert_eq!(colour("not-a-colour"), None);
        assert_eq!(colour(""), None);
    }
}
