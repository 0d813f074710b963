//! A match's history in the wire's own form, kept compact for late joiners.
//!
//! Items are appended to an open *tail*; every [`CHUNK_FRAMES`] frames the tail is sealed into
//! a deflated chunk packet, which every joiner then receives as the same shared `Bytes`. The
//! first frame of every chunk (and of the tail) is stored as a keyframe, so each chunk decodes
//! on its own and a chunk can be dropped when the memory cap is reached. The parameters that
//! open a match form a separate *header* that is never dropped, and team-graphic tiles of a
//! dropped chunk are kept aside, so a page that joins a capped match still has the parameters
//! and the whole logo.
//!
//! A full 6000-cycle game is ~1.9 MB here (BENCHMARKS.md), so the cap matters only for a
//! relay left running on one server for days of matches without a new match in between.

use bytes::Bytes;
use pitchside_wire::{chunk_packet, records_packet, Encoded};
use rcss_formats::Record;
use std::collections::VecDeque;

/// Frames per sealed chunk: 25 s of play at 10 Hz, ~70 KB deflated. A full game is then ~26
/// messages, and the tail a joiner gets compressed on the spot stays small.
pub const CHUNK_FRAMES: u32 = 250;

/// Deflate level for sealed chunks (once per chunk, shared by all joiners: worth level 6) and
/// for the tail (compressed per join, at most once per frame: level 1 is cheaper and close).
const SEAL_LEVEL: u32 = 6;
const TAIL_LEVEL: u32 = 1;

struct Chunk {
    packet: Bytes,
    frames: u32,
    /// Team-graphic items inside, kept if the chunk is dropped.
    keep: Vec<u8>,
}

pub struct History {
    cap: usize,
    header: Vec<u8>,
    header_done: bool,
    header_packet: Option<Bytes>,
    retained: Vec<u8>,
    chunks: VecDeque<Chunk>,
    tail: Vec<u8>,
    tail_frames: u32,
    tail_keep: Vec<u8>,
    tail_packet: Option<(usize, Bytes)>,
    frames: u32,
    dropped_frames: u32,
    bytes: usize,
}

/// What the history needs to know of an item to place it: the parameters that open a match
/// form the header, team-graphic tiles survive a dropped chunk, frames are counted and start
/// chunks as keyframes. An edge relay gets this from the origin with the item (`nats`), so it
/// builds the same history from the same bytes without decoding them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Param,
    Tile,
    Frame,
    Other,
}

impl ItemKind {
    pub fn of(r: &Record) -> ItemKind {
        match r {
            Record::ServerParam(_) | Record::PlayerParam(_) | Record::PlayerType(_) => {
                ItemKind::Param
            }
            Record::TeamGraphic(_) => ItemKind::Tile,
            Record::Msg(m) if m.text.starts_with(b"(team_graphic_") => ItemKind::Tile,
            Record::Show(_) => ItemKind::Frame,
            _ => ItemKind::Other,
        }
    }
}

impl History {
    /// `cap`: bytes of history kept; the oldest chunks go first when it is exceeded.
    pub fn new(cap: usize) -> Self {
        History {
            cap,
            header: Vec::new(),
            header_done: false,
            header_packet: None,
            retained: Vec::new(),
            chunks: VecDeque::new(),
            tail: Vec::new(),
            tail_frames: 0,
            tail_keep: Vec::new(),
            tail_packet: None,
            frames: 0,
            dropped_frames: 0,
            bytes: 0,
        }
    }

    pub fn clear(&mut self) {
        *self = History::new(self.cap);
    }

    /// True once anything at all was recorded for this match.
    pub fn is_empty(&self) -> bool {
        self.header.is_empty() && self.tail.is_empty() && self.chunks.is_empty()
    }

    /// Frames held (those of dropped chunks not counted).
    pub fn frames(&self) -> u32 {
        self.frames
    }

    pub fn dropped_frames(&self) -> u32 {
        self.dropped_frames
    }

    /// Bytes held, caches included.
    pub fn memory(&self) -> usize {
        self.bytes
            + self.tail.capacity()
            + self.tail_keep.capacity()
            + self.header.capacity()
            + self.header_packet.as_ref().map_or(0, Bytes::len)
            + self.tail_packet.as_ref().map_or(0, |t| t.1.len())
    }

    pub fn push(&mut self, record: &Record, encoded: &Encoded) {
        self.push_item(ItemKind::of(record), &encoded.item, encoded.key.as_deref());
    }

    /// Appends one item: `item` as encoded in sequence, and for a frame `key`, the same frame
    /// as a keyframe.
    pub fn push_item(&mut self, kind: ItemKind, item: &[u8], key: Option<&[u8]>) {
        if !self.header_done && kind == ItemKind::Param {
            self.header.extend_from_slice(item);
            return;
        }
        if !self.header_done {
            self.header_done = true;
            if !self.header.is_empty() {
                self.header_packet = Some(Bytes::from(chunk_packet(&self.header, SEAL_LEVEL)));
            }
        }
        match (kind, key) {
            (ItemKind::Frame, Some(key)) => {
                self.tail
                    .extend_from_slice(if self.tail_frames == 0 { key } else { item });
                self.tail_frames += 1;
                self.frames += 1;
            }
            _ => {
                self.tail.extend_from_slice(item);
                if kind == ItemKind::Tile {
                    self.tail_keep.extend_from_slice(item);
                }
            }
        }
        self.tail_packet = None;
        if self.tail_frames >= CHUNK_FRAMES {
            self.seal();
        }
    }

    fn seal(&mut self) {
        let packet = Bytes::from(chunk_packet(&self.tail, SEAL_LEVEL));
        let keep = std::mem::take(&mut self.tail_keep);
        self.bytes += packet.len() + keep.len();
        self.chunks.push_back(Chunk {
            packet,
            frames: self.tail_frames,
            keep,
        });
        self.tail.clear();
        self.tail.shrink_to(64 << 10);
        self.tail_frames = 0;
        while self.memory() > self.cap && self.chunks.len() > 1 {
            let Some(old) = self.chunks.pop_front() else {
                break;
            };
            self.bytes -= old.packet.len() + old.keep.len();
            self.frames -= old.frames;
            self.dropped_frames += old.frames;
            self.bytes += old.keep.len();
            self.retained.extend_from_slice(&old.keep);
        }
    }

    /// Everything a joiner needs, in order: header, kept tiles, sealed chunks, then the tail
    /// (compressed here, once per change of the tail however many join).
    pub fn packets(&mut self) -> Vec<Bytes> {
        let mut out = Vec::with_capacity(self.chunks.len() + 3);
        match &self.header_packet {
            Some(p) => out.push(p.clone()),
            None if !self.header.is_empty() => out.push(Bytes::from(records_packet(&self.header))),
            None => {}
        }
        if !self.retained.is_empty() {
            out.push(Bytes::from(records_packet(&self.retained)));
        }
        out.extend(self.chunks.iter().map(|c| c.packet.clone()));
        if !self.tail.is_empty() {
            let fresh = match &self.tail_packet {
                Some((len, p)) if *len == self.tail.len() => p.clone(),
                _ => {
                    let p = Bytes::from(chunk_packet(&self.tail, TAIL_LEVEL));
                    self.tail_packet = Some((self.tail.len(), p.clone()));
                    p
                }
            };
            out.push(fresh);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_wire::{decode_records, Encoder};
    use rcss_formats::{Frame, Message, Params, TeamGraphic};

    fn frame(t: u32) -> Record {
        let mut f = Frame {
            time: t,
            ..Frame::default()
        };
        f.ball.x = t as f32 * 0.1;
        Record::Show(f)
    }

    #[test]
    fn history_decodes_to_what_was_pushed_and_the_cap_keeps_header_and_tiles() {
        let mut records = vec![
            Record::ServerParam(Params::default()),
            Record::PlayerParam(Params::default()),
        ];
        records.push(Record::TeamGraphic(TeamGraphic {
            side: rcss_formats::Side::Left,
            x: 1,
            y: 2,
            xpm: vec!["8 8 1 1".into()],
        }));
        for t in 0..2000 {
            records.push(frame(t));
            if t % 500 == 0 {
                records.push(Record::Msg(Message {
                    time: t,
                    board: 1,
                    text: b"(hello)".to_vec(),
                }));
            }
        }
        let mut enc = Encoder::new();
        let mut h = History::new(usize::MAX);
        for r in &records {
            h.push(r, &enc.encode(r));
        }
        assert_eq!(h.frames(), 2000);
        let packets = h.packets();
        assert_eq!(
            packets.len(),
            1 + 8,
            "header and eight sealed chunks, empty tail"
        );
        let back = decode_records(packets.iter().map(|b| &b[..])).unwrap();
        assert_eq!(back, records);

        // A cap smaller than the game: old chunks go, header and tile stay.
        let mut enc = Encoder::new();
        let mut h = History::new(2000);
        for r in &records {
            h.push(r, &enc.encode(r));
        }
        assert!(
            h.dropped_frames() > 0 && h.frames() < 2000,
            "{}",
            h.frames()
        );
        let back = decode_records(h.packets().iter().map(|b| &b[..])).unwrap();
        assert_eq!(&back[..3], &records[..3]);
        let last = back.last().unwrap();
        assert_eq!(last, records.last().unwrap());
        let frames = back.iter().filter(|r| matches!(r, Record::Show(_))).count();
        assert_eq!(frames as u32, h.frames());
    }
}
