//! Read and write what the RoboCup Soccer Simulator 2D (rcssserver) writes and sends: game
//! logs (`.rcg`) of every version and the monitor protocol.
//!
//! - Logs: text ULG4, ULG5 and ULG6, binary v1, v2 and v3, and JSON (rcssserver 19), plain or
//!   gzipped; read whole ([`parse_log`]) or pushed in chunks as they arrive ([`LogDecoder`]),
//!   written back in the exact bytes rcssserver writes ([`write`](mod@write)).
//! - The monitor protocol, versions 1 to 5 and JSON: a datagram from the server to records
//!   ([`datagram`]), the commands a monitor sends ([`command`]).
//! - Every format decodes to the same [`Record`]s and [`Frame`]s ([`model`]), so a program
//!   written against them reads any version.
//!
//! No IO, no clock, no platform: bytes in, records out. It builds natively and for wasm32,
//! and must stay that way (a browser page and a native server both read logs with it). A
//! damaged or cut log never panics: decoding stops at the damage with a [`LogError`] that
//! says where and what, and everything before it is kept.
//!
//! # Reading a log
//!
//! ```no_run
//! use rcss_formats::parse_log;
//!
//! let bytes = std::fs::read("20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz")?;
//! let m = parse_log(&bytes); // any version, plain or gzipped
//! if let Some(e) = &m.error {
//!     eprintln!("read up to the damage: {e}"); // every frame before it is kept
//! }
//! for f in &m.frames {
//!     let [l, r] = &f.teams;
//!     let (x, y) = (f.ball.x, f.ball.y);
//!     println!("{} {} {}-{} ball ({x}, {y})", f.time, f.mode.name(), l.score, r.score);
//! }
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! [`LogDecoder`] does the same a chunk at a time, for a log that is still being written or
//! arrives over a network.
//!
//! # Writing a log
//!
//! ```
//! use rcss_formats::{parse_log, write::write_log, Frame, LogVersion, Player, Record, Side};
//!
//! // One show: both teams on the field, l1 ten metres into its own half.
//! let players = (0..22)
//!     .map(|i| Player {
//!         side: Some(if i < 11 { Side::Left } else { Side::Right }),
//!         unum: i % 11 + 1,
//!         state: rcss_formats::state::STAND,
//!         ..Player::default()
//!     })
//!     .collect();
//! let mut frame = Frame { time: 1, players, ..Frame::default() };
//! frame.players[0].x = -10.0;
//! let records = [Record::Show(frame)];
//!
//! // As rcssserver 19 writes ULG6, and back.
//! let ulg6 = write_log(LogVersion::V6, &records);
//! assert!(ulg6.starts_with(b"ULG6\n"));
//! let m = parse_log(&ulg6);
//! assert!(m.error.is_none());
//! assert_eq!(m.frames[0].players[0].x, -10.0);
//! ```
//!
//! # Layout
//!
//! - [`model`]: records, frames, players, teams, params, messages: what every format decodes
//!   to.
//! - [`format`](mod@format): the types the format layers share ([`LogVersion`], show shapes).
//! - [`playmode`]: the play-mode table (wire index and name).
//! - [`text`], [`json`], [`binary`]: one record of each syntax; they know nothing of files.
//! - [`log`]: format detection and the push-style decoder that drives them.
//! - [`datagram`]: one live monitor datagram (plain or zlib) to records.
//! - [`command`]: typed monitor commands and the datagrams that carry them.
//! - [`write`](mod@write): logs of every version and v5 monitor shows, as rcssserver writes them.
//! - [`tools`]: log tools on bytes or records (validate, reverse, rename, convert, clip).
//! - [`number`]: fast number parsing and `%g`-style printing.
//! - [`params`]: typed server and player-type parameters, with rcssserver 19's defaults.
//! - [`team_graphic`]: team-logo tiles (XPM) and their assembly into RGBA images.

pub mod binary;
pub mod command;
pub mod datagram;
pub mod error;
pub mod format;
pub mod json;
pub mod log;
pub mod model;
pub mod number;
pub mod params;
pub mod playmode;
pub mod team_graphic;
pub mod text;
pub mod tools;
mod window;
pub mod write;

pub use error::{DatagramError, Location, LogError};
pub use log::{parse_log, LogDecoder, LogVersion, Match};
pub use model::*;
pub use playmode::PlayMode;
