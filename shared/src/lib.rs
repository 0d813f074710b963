//! The one place that understands rcssserver's monitor protocol and game logs.
//!
//! Bytes in, match model out: no IO, no clock, no platform, so the relay (native) and the web
//! monitor (wasm32) share every parser and writer.
//!
//! Layout:
//! - [`model`]: frames, players, teams, params, messages: what the rest of the program uses.
//! - [`format`]: the types the format layers share ([`LogVersion`], show shapes); imports nothing.
//! - [`playmode`]: the play-mode table (wire index and name).
//! - [`text`]: S-expression records (text monitor shows v3-v5, text logs ULG4-6).
//! - [`json`]: JSON logs and the JSON monitor protocol.
//! - [`binary`]: v1/v2/v3 logs and v1/v2 datagrams.
//! - [`log`]: format detection and the push-style log decoder, [`log::Match`].
//! - [`datagram`]: one live monitor datagram (plain or zlib) to records.
//! - [`command`]: typed monitor commands and the datagrams that carry them.
//! - [`feed`]: where a relayed match comes from (live, replay, waiting).
//! - [`touch`]: who touched the ball in each frame (kick, tackle, catch, release).
//! - [`events`]: match events (goals, fouls, cards, set pieces, …) and the referee's decisions
//!   in words, from the frames.
//! - [`series`]: many matches as one result for a team, and two series compared.
//! - [`tournament`]: group standings ranked as librcsc's `rclmtableprinter` ranks them.
//! - [`broadcast`]: what a stream shows besides the field: the match clock, goals and cards
//!   as moments, captions in words, highlights.
//! - [`colour`]: telling colours apart for every viewer, and the team kits of a match.
//! - [`stats`]: possession, passes, shots, per-team figures at any moment, ball heat map.
//! - [`write`]: logs of every version (ULG4-6, binary v1-v3, JSON) and v5 monitor shows, in
//!   the exact format rcssserver writes.
//! - [`tools`]: log tools (validate, reverse, rename, convert, clip) on bytes or records.
//! - [`wire`]: the relay's canonical binary form of records and notices, for browsers.
//! - [`number`]: fast number parsing and `%g`-style printing.
//! - [`params`]: typed server and player-type parameters, with rcssserver 19's defaults.
//! - [`team_graphic`]: team-logo tiles (XPM) and their assembly into RGBA images.
//! - [`agent`]: what the agents wrote: debug logs, world models, the server's message log.

pub mod actions;
pub mod agent;
pub mod binary;
pub mod broadcast;
pub mod colour;
pub mod command;
pub mod datagram;
pub mod error;
pub mod events;
pub mod export;
pub mod feed;
pub mod format;
pub mod json;
pub mod link;
pub mod log;
pub mod model;
pub mod number;
pub mod params;
pub mod playmode;
pub mod series;
pub mod stats;
pub mod team_graphic;
pub mod text;
pub mod tools;
pub mod touch;
pub mod tournament;
pub mod wire;
pub mod write;

pub use error::{DatagramError, Location, LogError};
pub use log::{parse_log, LogDecoder, LogVersion, Match};
pub use model::*;
pub use playmode::PlayMode;
