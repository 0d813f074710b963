//! The contracts between the relay and the page: the WebSocket wire (this page), where a
//! relayed match comes from ([`feed`]), the page's link scheme ([`link`]), a run of games
//! in a folder ([`run`]) and the runs an operator may start ([`runs`]). Each is versioned and documented in the book
//! (`docs/src/contracts.md`); both ends use this one crate, so they cannot drift. It must not
//! do IO or know about sockets: the relay and the page own those.
//!
//! # The wire
//!
//! The relay's wire to browsers: one canonical, binary, versioned form of the match, whatever
//! protocol the server spoke.
//!
//! The relay decodes every server datagram once into [`Record`]s, encodes them once with an
//! [`Encoder`], and sends every spectator the same bytes; the page turns them back into the
//! same `Record`s with a [`Decoder`]. Both are pure functions of their input (no IO, no clock),
//! so the page (wasm32), the relay, and anything that republishes the relay's output use this
//! one implementation.
//!
//! # Layout (version [`WIRE_VERSION`])
//!
//! Every WebSocket binary message is one *packet*; its first byte says what it is:
//!
//! | byte | packet | body |
//! |---|---|---|
//! | 1 | hello | `"PSW"`, wire version, relay version (string), match name (string) |
//! | 2 | notice | notice tag and fields, see [`Notice`] |
//! | 3 | records | items, back to back, until the end of the packet |
//! | 4 | chunk | uncompressed length, then the items deflated (raw deflate, RFC 1951) |
//!
//! Integers are LEB128 varints (signed ones zigzagged), strings a varint length and UTF-8
//! bytes. An *item* is one record: a tag byte and its fields:
//!
//! | tag | item | fields |
//! |---|---|---|
//! | 1, 2, 3 | server_param, player_param, player_type | count, then name and value per entry (value: 0 int, 1 float (8 bytes, f64 LE), 2 false, 3 true, 4 text) |
//! | 4 | play mode | time, mode index (byte) |
//! | 5 | team | time (0 = none, t + 1), two teams (name or none, score, penalty tally or none) |
//! | 6 | keyframe | frame number, frame against the empty frame |
//! | 7 | delta frame | frame number (must follow the previous one by 1), frame against the previous frame |
//! | 8 | msg | time, board (signed), bytes |
//! | 9 | team graphic | side (1 l, 2 r), x, y, line count, lines |
//! | 10 | drawing | time, shape (0 clear, 1 point, 2 circle, 3 line, 4 blank), its numbers as `f32` bits (x y, x y r, x1 y1 x2 y2), colour |
//!
//! Frames are described in `frame.rs`; numbers travel as integer deltas at the server's
//! printed precision, or as raw `f32` bits where that is not exact, so a round trip gives back
//! the very same values. Frame numbers count the frames of one match from 0; a delta names
//! its own number so that a decoder notices a gap instead of drawing garbage.
//!
//! A connection starts with hello; a match starts with a `NewMatch` notice; history comes
//! as chunks, each of which starts with a keyframe where it holds frames.
//! Unknown packet kinds and notice tags are skipped, so that a newer relay can add them
//! without breaking older pages; anything that changes what existing bytes mean raises the
//! version, and a page that sees a version it does not know asks to be reloaded.

pub mod feed;
pub mod link;

mod codec;
mod frame;
pub mod reconnect;
pub mod run;
pub mod runs;

use crate::feed::FeedSource;
use codec::{Reader, Writer};
use rcss_formats::model::{
    Drawing, Frame, Message, ParamValue, Params, Record, Shape, Side, TeamGraphic,
};
use rcss_formats::playmode::PlayMode;

/// The version of this layout. Raised whenever existing bytes change meaning.
pub const WIRE_VERSION: u32 = 4;

const MAGIC: &[u8; 3] = b"PSW";

const K_HELLO: u8 = 1;
const K_NOTICE: u8 = 2;
const K_RECORDS: u8 = 3;
const K_CHUNK: u8 = 4;

const I_SERVER_PARAM: u8 = 1;
const I_PLAYER_PARAM: u8 = 2;
const I_PLAYER_TYPE: u8 = 3;
const I_PLAYMODE: u8 = 4;
const I_TEAM: u8 = 5;
const I_KEYFRAME: u8 = 6;
const I_DELTA: u8 = 7;
const I_MSG: u8 = 8;
const I_TEAM_GRAPHIC: u8 = 9;
const I_DRAW: u8 = 10;

/// Largest inflated chunk accepted: a whole 6000-cycle game is ~4 MB of items, so a chunk
/// (a few hundred frames) is far below; the cap keeps a damaged length from sizing memory.
pub const MAX_CHUNK_BYTES: usize = 64 << 20;

/// Errors reading the wire. Offsets count bytes into the packet (into the inflated items for
/// a chunk).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WireError {
    #[error("empty packet")]
    Empty,
    #[error("byte {offset}: the packet ends inside {what}")]
    Truncated { offset: usize, what: &'static str },
    #[error("byte {offset}: {what}: unexpected {found}")]
    Invalid {
        offset: usize,
        what: &'static str,
        found: String,
    },
    #[error("byte {offset}: {what} is longer than the {limit}-byte limit")]
    TooLarge {
        offset: usize,
        what: &'static str,
        limit: usize,
    },
    #[error("not a pitchside relay (the hello does not start with PSW)")]
    NotPitchside,
    #[error(
        "the relay speaks wire version {found}, this page knows {WIRE_VERSION}: reload the page"
    )]
    Version { found: u32 },
    #[error("byte {offset}: unknown item {tag}")]
    UnknownItem { offset: usize, tag: u8 },
    #[error("frame {found} arrived where frame {expected} was due: waiting for the next keyframe")]
    Gap { expected: u32, found: u32 },
    #[error("a delta frame arrived before any keyframe")]
    NoKeyframe,
    #[error("a history chunk does not inflate: {0}")]
    Inflate(String),
}

/// The first packet of every connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    pub version: u32,
    /// The relay's software version, for people reading a bug report.
    pub relay: String,
    /// The match this connection follows (`/m/NAME`).
    pub match_name: String,
}

/// What the relay tells every page besides the match itself, so that all pages tell the same
/// story.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Tag 1. Where frames come from now; sent at connection and on every change.
    Feed { source: FeedSource, label: String },
    /// Tag 2. A new match begins: forget the previous one. `number` counts matches since the
    /// relay started.
    NewMatch { number: u32 },
    /// Tag 3. Someone with operator rights acted on the match (e.g. a free kick was given).
    Operator { text: String },
    /// Tag 4. rcssserver answered with an error; `hint` says what to do about it.
    ServerError { text: String, hint: String },
    /// Tag 5. The history of the match follows: `frames` frames in chunks.
    Backlog { frames: u32 },
    /// Tag 6. The history is complete: what follows is live.
    Live,
    /// Tag 7. This spectator fell behind and was moved ahead: `frames` frames were not sent
    /// to it (notices and match headers never are skipped). A keyframe follows.
    Skipped { frames: u32 },
    /// A notice this version does not know (from a newer relay).
    Unknown { tag: u8 },
}

/// One decoded packet's contents, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Hello(Hello),
    Notice(Notice),
    Record(Record),
}

fn source_code(s: FeedSource) -> u8 {
    match s {
        FeedSource::Live => 1,
        FeedSource::Replay => 2,
        FeedSource::Waiting => 3,
    }
}

/// The hello packet.
pub fn hello_packet(relay: &str, match_name: &str) -> Vec<u8> {
    let mut w = Writer::default();
    w.u8(K_HELLO);
    w.buf.extend_from_slice(MAGIC);
    w.varint(u64::from(WIRE_VERSION));
    w.str(relay);
    w.str(match_name);
    w.buf
}

/// A notice packet.
pub fn notice_packet(n: &Notice) -> Vec<u8> {
    let mut w = Writer::default();
    w.u8(K_NOTICE);
    match n {
        Notice::Feed { source, label } => {
            w.u8(1);
            w.u8(source_code(*source));
            w.str(label);
        }
        Notice::NewMatch { number } => {
            w.u8(2);
            w.varint(u64::from(*number));
        }
        Notice::Operator { text } => {
            w.u8(3);
            w.str(text);
        }
        Notice::ServerError { text, hint } => {
            w.u8(4);
            w.str(text);
            w.str(hint);
        }
        Notice::Backlog { frames } => {
            w.u8(5);
            w.varint(u64::from(*frames));
        }
        Notice::Live => w.u8(6),
        Notice::Skipped { frames } => {
            w.u8(7);
            w.varint(u64::from(*frames));
        }
        Notice::Unknown { tag } => w.u8(*tag),
    }
    w.buf
}

/// A records packet around items made by an [`Encoder`].
pub fn records_packet(items: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.len() + 1);
    out.push(K_RECORDS);
    out.extend_from_slice(items);
    out
}

/// A chunk packet: `items` deflated at `level` (0-9). History travels this way: a full game
/// is a few of these instead of thousands of small messages.
pub fn chunk_packet(items: &[u8], level: u32) -> Vec<u8> {
    use std::io::Write;
    let mut w = Writer::default();
    w.u8(K_CHUNK);
    w.varint(items.len() as u64);
    let mut z = flate2::write::DeflateEncoder::new(w.buf, flate2::Compression::new(level.min(9)));
    // Writing into a Vec cannot fail.
    let _ = z.write_all(items);
    z.finish().unwrap_or_default()
}

/// What one record became: its item as a change from the previous frame, and for a frame
/// also as a keyframe, for whoever cannot apply the change (a new joiner, a skipped spectator,
/// the start of a history chunk).
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    pub item: Vec<u8>,
    pub key: Option<Vec<u8>>,
}

impl Encoded {
    pub fn is_frame(&self) -> bool {
        self.key.is_some()
    }
}

/// Turns records into items, keeping the previous frame so that frames travel as changes.
#[derive(Default)]
pub struct Encoder {
    prev: Option<Frame>,
    next_seq: u32,
}

impl Encoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a new match: frame numbers from 0, no previous frame.
    pub fn reset(&mut self) {
        self.prev = None;
        self.next_seq = 0;
    }

    /// Frames encoded since the last reset.
    pub fn frames(&self) -> u32 {
        self.next_seq
    }

    pub fn encode(&mut self, r: &Record) -> Encoded {
        let mut w = Writer::default();
        match r {
            Record::Show(f) => {
                let seq = self.next_seq;
                let mut k = Writer::default();
                k.u8(I_KEYFRAME);
                k.varint(u64::from(seq));
                frame::put_frame(&mut k, f, None);
                match &self.prev {
                    Some(prev) => {
                        w.u8(I_DELTA);
                        w.varint(u64::from(seq));
                        frame::put_frame(&mut w, f, Some(prev));
                    }
                    None => w.buf = k.buf.clone(),
                }
                self.prev = Some(f.clone());
                self.next_seq = self.next_seq.wrapping_add(1);
                return Encoded {
                    item: w.buf,
                    key: Some(k.buf),
                };
            }
            Record::ServerParam(p) => put_params(&mut w, I_SERVER_PARAM, p),
            Record::PlayerParam(p) => put_params(&mut w, I_PLAYER_PARAM, p),
            Record::PlayerType(p) => put_params(&mut w, I_PLAYER_TYPE, p),
            Record::PlayMode { time, mode } => {
                w.u8(I_PLAYMODE);
                w.varint(u64::from(*time));
                w.u8(mode.index());
            }
            Record::Team { time, teams } => {
                w.u8(I_TEAM);
                w.varint(time.map_or(0, |t| u64::from(t) + 1));
                frame::put_team(&mut w, &teams[0]);
                frame::put_team(&mut w, &teams[1]);
            }
            Record::Msg(m) => {
                w.u8(I_MSG);
                w.varint(u64::from(m.time));
                w.signed(i64::from(m.board));
                w.bytes(&m.text);
            }
            Record::TeamGraphic(t) => {
                w.u8(I_TEAM_GRAPHIC);
                w.u8(match t.side {
                    Side::Left => 1,
                    Side::Right => 2,
                });
                w.varint(u64::from(t.x));
                w.varint(u64::from(t.y));
                w.varint(t.xpm.len() as u64);
                for line in &t.xpm {
                    w.str(line);
                }
            }
            Record::Draw(d) => {
                w.u8(I_DRAW);
                w.varint(u64::from(d.time));
                let tag = match &d.shape {
                    Shape::Clear => 0,
                    Shape::Point { .. } => 1,
                    Shape::Circle { .. } => 2,
                    Shape::Line { .. } => 3,
                    Shape::Blank => 4,
                };
                let (numbers, count, color) = d.shape.numbers_and_colour();
                let numbers = &numbers[..count];
                w.u8(tag);
                for v in numbers {
                    w.varint(u64::from(v.to_bits()));
                }
                if matches!(tag, 1..=3) {
                    w.str(color);
                }
            }
        }
        Encoded {
            item: w.buf,
            key: None,
        }
    }
}

fn put_params(w: &mut Writer, tag: u8, p: &Params) {
    w.u8(tag);
    w.varint(p.entries.len() as u64);
    for (name, v) in &p.entries {
        w.str(name);
        match v {
            ParamValue::Int(i) => {
                w.u8(0);
                w.signed(*i);
            }
            ParamValue::Float(f) => {
                w.u8(1);
                w.f64(*f);
            }
            ParamValue::Bool(false) => w.u8(2),
            ParamValue::Bool(true) => w.u8(3),
            ParamValue::Text(t) => {
                w.u8(4);
                w.str(t);
            }
        }
    }
}

fn get_params(r: &mut Reader<'_>) -> Result<Params, WireError> {
    let n = r.count("parameter count")?;
    let mut entries = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.string("parameter name")?;
        let at = r.pos();
        let v = match r.u8("parameter value")? {
            0 => ParamValue::Int(r.signed("parameter value")?),
            1 => ParamValue::Float(r.f64("parameter value")?),
            2 => ParamValue::Bool(false),
            3 => ParamValue::Bool(true),
            4 => ParamValue::Text(r.string("parameter value")?),
            t => {
                return Err(WireError::Invalid {
                    offset: at,
                    what: "parameter value",
                    found: format!("kind {t}"),
                })
            }
        };
        entries.push((name, v));
    }
    Ok(Params { entries })
}

/// Turns packets back into hellos, notices and complete records (deltas applied).
#[derive(Default)]
pub struct Decoder {
    prev: Option<Frame>,
    last_seq: Option<u32>,
    /// After a gap, deltas are dropped until a keyframe.
    waiting_for_key: bool,
}

impl Decoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the previous frame (what a `NewMatch` notice does).
    pub fn reset(&mut self) {
        self.prev = None;
        self.last_seq = None;
        self.waiting_for_key = false;
    }

    /// Decodes one packet, appending what it held to `out`. On an error, what came before
    /// it in the packet is already in `out`.
    pub fn decode(&mut self, packet: &[u8], out: &mut Vec<Event>) -> Result<(), WireError> {
        let (&kind, body) = packet.split_first().ok_or(WireError::Empty)?;
        match kind {
            K_HELLO => {
                let mut r = Reader::new(body);
                if r.take(3, "magic").ok() != Some(&MAGIC[..]) {
                    return Err(WireError::NotPitchside);
                }
                let version = r.u32("wire version")?;
                if version != WIRE_VERSION {
                    return Err(WireError::Version { found: version });
                }
                let relay = r.string("relay version")?;
                let match_name = r.string("match name")?;
                self.reset();
                out.push(Event::Hello(Hello {
                    version,
                    relay,
                    match_name,
                }));
                Ok(())
            }
            K_NOTICE => {
                let n = read_notice(&mut Reader::new(body))?;
                if matches!(n, Notice::NewMatch { .. }) {
                    self.reset();
                }
                out.push(Event::Notice(n));
                Ok(())
            }
            K_RECORDS => self.items(body, out),
            K_CHUNK => {
                let items = inflate_chunk(body)?;
                self.items(&items, out)
            }
            // A newer relay's packet: skip it.
            _ => Ok(()),
        }
    }

    fn items(&mut self, items: &[u8], out: &mut Vec<Event>) -> Result<(), WireError> {
        let mut r = Reader::new(items);
        while !r.is_empty() {
            let at = r.pos();
            let tag = r.u8("item")?;
            let rec = match tag {
                I_SERVER_PARAM => Record::ServerParam(get_params(&mut r)?),
                I_PLAYER_PARAM => Record::PlayerParam(get_params(&mut r)?),
                I_PLAYER_TYPE => Record::PlayerType(get_params(&mut r)?),
                I_PLAYMODE => {
                    let time = r.u32("time")?;
                    let m = r.u8("play mode")?;
                    let mode =
                        PlayMode::from_index(u32::from(m)).ok_or_else(|| WireError::Invalid {
                            offset: r.pos(),
                            what: "play mode",
                            found: format!("{m}"),
                        })?;
                    Record::PlayMode { time, mode }
                }
                I_TEAM => {
                    let t = r.u32("time")?;
                    let teams = [frame::get_team(&mut r)?, frame::get_team(&mut r)?];
                    Record::Team {
                        time: t.checked_sub(1),
                        teams,
                    }
                }
                I_KEYFRAME => {
                    let seq = r.u32("frame number")?;
                    let f = frame::get_frame(&mut r, None)?;
                    self.prev = Some(f.clone());
                    self.last_seq = Some(seq);
                    self.waiting_for_key = false;
                    Record::Show(f)
                }
                I_DELTA => {
                    let seq = r.u32("frame number")?;
                    let expected = self.last_seq.map(|s| s.wrapping_add(1));
                    let base = match (&self.prev, expected) {
                        (Some(p), Some(e)) if e == seq && !self.waiting_for_key => p,
                        (Some(_), Some(e)) => {
                            // The rest of the packet builds on frames this decoder lacks.
                            self.waiting_for_key = true;
                            return Err(WireError::Gap {
                                expected: e,
                                found: seq,
                            });
                        }
                        _ => {
                            self.waiting_for_key = true;
                            return Err(WireError::NoKeyframe);
                        }
                    };
                    let f = frame::get_frame(&mut r, Some(base))?;
                    self.prev = Some(f.clone());
                    self.last_seq = Some(seq);
                    Record::Show(f)
                }
                I_MSG => {
                    let time = r.u32("time")?;
                    let b = r.signed("board")?;
                    let board = i32::try_from(b).map_err(|_| WireError::Invalid {
                        offset: r.pos(),
                        what: "board",
                        found: format!("{b}"),
                    })?;
                    let text = r.bytes("message")?.to_vec();
                    Record::Msg(Message { time, board, text })
                }
                I_TEAM_GRAPHIC => {
                    let side = match r.u8("side")? {
                        1 => Side::Left,
                        2 => Side::Right,
                        s => {
                            return Err(WireError::Invalid {
                                offset: r.pos(),
                                what: "team graphic side",
                                found: format!("{s}"),
                            })
                        }
                    };
                    let x = r.u32("tile x")?;
                    let y = r.u32("tile y")?;
                    let n = r.count("xpm lines")?;
                    let mut xpm = Vec::with_capacity(n);
                    for _ in 0..n {
                        xpm.push(r.string("xpm line")?);
                    }
                    Record::TeamGraphic(TeamGraphic { side, x, y, xpm })
                }
                I_DRAW => {
                    let time = r.u32("time")?;
                    let at = r.pos();
                    let tag = r.u8("drawing shape")?;
                    let mut num =
                        |what| -> Result<f32, WireError> { Ok(f32::from_bits(r.u32(what)?)) };
                    let shape = match tag {
                        0 => Shape::Clear,
                        1 => Shape::Point {
                            x: num("x")?,
                            y: num("y")?,
                            color: String::new(),
                        },
                        2 => Shape::Circle {
                            x: num("x")?,
                            y: num("y")?,
                            r: num("radius")?,
                            color: String::new(),
                        },
                        3 => Shape::Line {
                            x1: num("x1")?,
                            y1: num("y1")?,
                            x2: num("x2")?,
                            y2: num("y2")?,
                            color: String::new(),
                        },
                        4 => Shape::Blank,
                        s => {
                            return Err(WireError::Invalid {
                                offset: at,
                                what: "drawing shape",
                                found: format!("{s}"),
                            })
                        }
                    };
                    let shape = match shape {
                        Shape::Point { x, y, .. } => Shape::Point {
                            x,
                            y,
                            color: r.string("colour")?,
                        },
                        Shape::Circle {
                            x, y, r: radius, ..
                        } => Shape::Circle {
                            x,
                            y,
                            r: radius,
                            color: r.string("colour")?,
                        },
                        Shape::Line { x1, y1, x2, y2, .. } => Shape::Line {
                            x1,
                            y1,
                            x2,
                            y2,
                            color: r.string("colour")?,
                        },
                        other => other,
                    };
                    Record::Draw(Drawing { time, shape })
                }
                tag => return Err(WireError::UnknownItem { offset: at, tag }),
            };
            out.push(Event::Record(rec));
        }
        Ok(())
    }
}

fn read_notice(r: &mut Reader<'_>) -> Result<Notice, WireError> {
    let tag = r.u8("notice")?;
    Ok(match tag {
        1 => {
            let at = r.pos();
            let source = match r.u8("feed source")? {
                1 => FeedSource::Live,
                2 => FeedSource::Replay,
                3 => FeedSource::Waiting,
                s => {
                    return Err(WireError::Invalid {
                        offset: at,
                        what: "feed source",
                        found: format!("{s}"),
                    })
                }
            };
            Notice::Feed {
                source,
                label: r.string("feed label")?,
            }
        }
        2 => Notice::NewMatch {
            number: r.u32("match number")?,
        },
        3 => Notice::Operator {
            text: r.string("operator action")?,
        },
        4 => Notice::ServerError {
            text: r.string("server error")?,
            hint: r.string("hint")?,
        },
        5 => Notice::Backlog {
            frames: r.u32("backlog frames")?,
        },
        6 => Notice::Live,
        7 => Notice::Skipped {
            frames: r.u32("skipped frames")?,
        },
        tag => Notice::Unknown { tag },
    })
}

fn inflate_chunk(body: &[u8]) -> Result<Vec<u8>, WireError> {
    let mut r = Reader::new(body);
    let len = r.varint("chunk length")?;
    if len > MAX_CHUNK_BYTES as u64 {
        return Err(WireError::TooLarge {
            offset: 1,
            what: "history chunk",
            limit: MAX_CHUNK_BYTES,
        });
    }
    let data = &body[r.pos()..];
    let mut z = flate2::Decompress::new(false);
    // One extra byte of room shows a stream longer than it claims.
    let mut out = Vec::with_capacity(len as usize + 1);
    loop {
        let before = (z.total_in(), z.total_out());
        let status = z
            .decompress_vec(
                &data[z.total_in() as usize..],
                &mut out,
                flate2::FlushDecompress::Finish,
            )
            .map_err(|e| WireError::Inflate(e.to_string()))?;
        if status == flate2::Status::StreamEnd {
            break;
        }
        if out.len() == out.capacity() || (z.total_in(), z.total_out()) == before {
            return Err(WireError::Inflate(format!(
                "the chunk does not hold the {len} bytes it announces"
            )));
        }
    }
    if out.len() as u64 != len {
        return Err(WireError::Inflate(format!(
            "the chunk holds {} bytes, not the {len} it announces",
            out.len()
        )));
    }
    Ok(out)
}

/// Encodes records as one records packet (frames as changes after the first): what a test or
/// a tool that writes a whole match at once needs.
pub fn encode_records(records: &[Record]) -> Vec<u8> {
    let mut enc = Encoder::new();
    let mut items = Vec::new();
    for r in records {
        items.extend_from_slice(&enc.encode(r).item);
    }
    records_packet(&items)
}

/// Decodes packets into records, ignoring hellos and notices except that a `NewMatch` resets.
pub fn decode_records<'a>(
    packets: impl IntoIterator<Item = &'a [u8]>,
) -> Result<Vec<Record>, WireError> {
    let mut d = Decoder::new();
    let mut events = Vec::new();
    for p in packets {
        d.decode(p, &mut events)?;
    }
    Ok(events
        .into_iter()
        .filter_map(|e| match e {
            Event::Record(r) => Some(r),
            _ => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawings_round_trip() {
        let shapes = [
            Shape::Clear,
            Shape::Point {
                x: 0.5,
                y: -1.0,
                color: "blue".into(),
            },
            Shape::Circle {
                x: 10.0,
                y: -5.0,
                r: 2.0,
                color: "red".into(),
            },
            Shape::Line {
                x1: -52.5,
                y1: 34.0,
                x2: 0.0625,
                y2: -0.0,
                color: "#00ff00".into(),
            },
            Shape::Blank,
        ];
        let records: Vec<Record> = shapes
            .into_iter()
            .enumerate()
            .map(|(i, shape)| {
                Record::Draw(Drawing {
                    time: i as u32 * 7,
                    shape,
                })
            })
            .collect();
        let packet = encode_records(&records);
        assert_eq!(decode_records([&packet[..]]).unwrap(), records);
    }

    #[test]
    fn notices_and_hello_round_trip() {
        let notices = [
            Notice::Feed {
                source: FeedSource::Live,
                label: "live from rcssserver at 10.0.0.1:6000".into(),
            },
            Notice::NewMatch { number: 3 },
            Notice::Operator {
                text: "free kick left at (20, 10)".into(),
            },
            Notice::ServerError {
                text: "no_more_monitor".into(),
                hint: "raise server::max_monitors".into(),
            },
            Notice::Backlog { frames: 5000 },
            Notice::Live,
            Notice::Skipped { frames: 12 },
            Notice::Unknown { tag: 200 },
        ];
        let mut d = Decoder::new();
        let mut out = Vec::new();
        d.decode(&hello_packet("0.1.0", "field-1"), &mut out)
            .unwrap();
        for n in &notices {
            d.decode(&notice_packet(n), &mut out).unwrap();
        }
        assert_eq!(
            out[0],
            Event::Hello(Hello {
                version: WIRE_VERSION,
                relay: "0.1.0".into(),
                match_name: "field-1".into()
            })
        );
        let back: Vec<_> = out[1..]
            .iter()
            .map(|e| match e {
                Event::Notice(n) => n.clone(),
                e => panic!("{e:?}"),
            })
            .collect();
        assert_eq!(back, notices);
    }

    #[test]
    fn a_wrong_version_or_a_stranger_is_refused() {
        let mut p = hello_packet("x", "y");
        p[4] = 99;
        assert_eq!(
            Decoder::new().decode(&p, &mut Vec::new()),
            Err(WireError::Version { found: 99 })
        );
        assert_eq!(
            Decoder::new().decode(b"\x01GET", &mut Vec::new()),
            Err(WireError::NotPitchside)
        );
        assert_eq!(
            Decoder::new().decode(b"\x63whatever", &mut Vec::new()),
            Ok(())
        );
    }

    #[test]
    fn a_gap_is_reported_and_healed_by_a_keyframe() {
        let mut f = Frame {
            time: 1,
            ..Frame::default()
        };
        let mut enc = Encoder::new();
        let e1 = enc.encode(&Record::Show(f.clone()));
        f.time = 2;
        let _lost = enc.encode(&Record::Show(f.clone()));
        f.time = 3;
        let e3 = enc.encode(&Record::Show(f.clone()));
        let mut d = Decoder::new();
        let mut out = Vec::new();
        d.decode(&records_packet(&e1.item), &mut out).unwrap();
        assert_eq!(
            d.decode(&records_packet(&e3.item), &mut out),
            Err(WireError::Gap {
                expected: 1,
                found: 2
            })
        );
        d.decode(&records_packet(e3.key.as_ref().unwrap()), &mut out)
            .unwrap();
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn chunks_inflate_and_damage_is_an_error() {
        let rec = Record::Msg(Message {
            time: 5,
            board: 1,
            text: b"(team_graphic_l (0 0 \"8 8 1 1\"))\xff".to_vec(),
        });
        let items = Encoder::new().encode(&rec).item;
        let chunk = chunk_packet(&items.repeat(50), 6);
        assert!(chunk.len() < items.len() * 5);
        let back = decode_records([&chunk[..]]).unwrap();
        assert_eq!(back, vec![rec; 50]);
        for cut in 1..chunk.len() {
            assert!(decode_records([&chunk[..cut]]).is_err(), "cut at {cut}");
        }
        let mut lying = chunk.clone();
        lying[1] ^= 1;
        assert!(decode_records([&lying[..]]).is_err());
    }
}
