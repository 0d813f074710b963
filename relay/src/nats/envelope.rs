//! What one NATS message of a match carries: one item of the origin's hub, as the origin's
//! spectators get it (already encoded, never encoded again), with what an edge needs to apply
//! it to its own hub without decoding it: which run of the origin and which item it is (to
//! drop duplicates and notice gaps), the kinds of the items in a records packet, and, where a
//! match begins, the origin's state.
//!
//! Layout (all integers LEB128 varints, strings a varint length and UTF-8):
//!
//! | field | |
//! |---|---|
//! | version | byte, [`ENVELOPE_VERSION`] |
//! | kind | byte: 0 state only, 1 packet, 2 frame |
//! | run | the origin's run: a random number drawn when the origin started |
//! | index | the item's number in the match's hub (for a state alone: the next item's) |
//! | state | byte 0 (none) or 1, then feed source (1 live, 2 replay, 3 waiting), feed label, server error (byte 0, or 1 and text and hint), match number, start in Unix milliseconds (0: none) |
//! | packet | item count, then kind (0 param, 1 tile, 2 frame, 3 other) and length of each item, then the packet to the end |
//! | frame | the change packet's length, the change packet, then the keyframe packet to the end |
//!
//! This is the relay-to-relay format behind the subjects of `pitchside.v1`; anything that
//! changes what these bytes mean raises [`ENVELOPE_VERSION`] and the `v1` in the subjects.

use crate::history::ItemKind;
use crate::hub::{Body, MatchState, Step, Tapped};
use bytes::Bytes;
use chrono::{DateTime, Local};
use pitchside_wire::feed::FeedSource;
use pitchside_wire::{Decoder, Event, Notice, WireError};
use rcss_formats::Record;

pub const ENVELOPE_VERSION: u8 = 1;

const KIND_STATE: u8 = 0;
const KIND_PACKET: u8 = 1;
const KIND_FRAME: u8 = 2;

/// Most items a records packet may list: far more than one datagram holds.
const MAX_ITEMS: u64 = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    #[error("envelope version {0}: this relay knows {ENVELOPE_VERSION}; upgrade it")]
    Version(u8),
    #[error("byte {0}: the envelope ends early")]
    Truncated(usize),
    #[error("byte {offset}: {what}")]
    Invalid { offset: usize, what: String },
    #[error("the wire packet inside: {0}")]
    Wire(#[from] WireError),
}

/// One decoded envelope.
#[derive(Debug)]
pub struct Envelope {
    pub run: u64,
    pub index: u64,
    pub state: Option<MatchState>,
    /// `None` for a state alone.
    pub step: Option<Step>,
}

impl Envelope {
    /// True if this starts a match (or, with no step, states where the origin's match is).
    pub fn begins(&self) -> bool {
        self.state.is_some()
    }
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn string(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn kind_code(k: ItemKind) -> u8 {
    match k {
        ItemKind::Param => 0,
        ItemKind::Tile => 1,
        ItemKind::Frame => 2,
        ItemKind::Other => 3,
    }
}

fn source_code(s: FeedSource) -> u8 {
    match s {
        FeedSource::Live => 1,
        FeedSource::Replay => 2,
        FeedSource::Waiting => 3,
    }
}

/// The envelope of a tapped item. The packets are copied once, here.
pub fn encode(run: u64, t: &Tapped) -> Vec<u8> {
    let size = match t.item.as_deref().map(|i| &i.body) {
        Some(Body::Frame { delta, key }) => delta.len() + key.len(),
        Some(Body::Packet(p)) => p.len(),
        None => 0,
    };
    let mut out = Vec::with_capacity(size + 32 + 4 * t.kinds.len());
    out.push(ENVELOPE_VERSION);
    out.push(match t.item.as_deref().map(|i| &i.body) {
        None => KIND_STATE,
        Some(Body::Packet(_)) => KIND_PACKET,
        Some(Body::Frame { .. }) => KIND_FRAME,
    });
    varint(&mut out, run);
    varint(&mut out, t.index);
    match &t.state {
        None => out.push(0),
        Some(s) => {
            out.push(1);
            out.push(source_code(s.feed.0));
            string(&mut out, &s.feed.1);
            match &s.server_error {
                None => out.push(0),
                Some((text, hint)) => {
                    out.push(1);
                    string(&mut out, text);
                    string(&mut out, hint);
                }
            }
            varint(&mut out, u64::from(s.match_number));
            let ms = s.started.map_or(0, |d| d.timestamp_millis().max(1) as u64);
            varint(&mut out, ms);
        }
    }
    match t.item.as_deref().map(|i| &i.body) {
        None => {}
        Some(Body::Packet(p)) => {
            varint(&mut out, t.kinds.len() as u64);
            for (k, len) in &t.kinds {
                out.push(kind_code(*k));
                varint(&mut out, *len as u64);
            }
            out.extend_from_slice(p);
        }
        Some(Body::Frame { delta, key }) => {
            varint(&mut out, delta.len() as u64);
            out.extend_from_slice(delta);
            out.extend_from_slice(key);
        }
    }
    out
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn u8(&mut self) -> Result<u8, EnvelopeError> {
        let b = *self
            .buf
            .get(self.pos)
            .ok_or(EnvelopeError::Truncated(self.pos))?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, EnvelopeError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.invalid("a varint longer than 64 bits"))
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], EnvelopeError> {
        let end = usize::try_from(n)
            .ok()
            .and_then(|n| self.pos.checked_add(n))
            .filter(|&e| e <= self.buf.len())
            .ok_or(EnvelopeError::Truncated(self.buf.len()))?;
        let out = &self.buf[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    fn string(&mut self) -> Result<String, EnvelopeError> {
        let n = self.varint()?;
        let at = self.pos;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| EnvelopeError::Invalid {
            offset: at,
            what: "a string that is not UTF-8".into(),
        })
    }

    fn rest(&mut self) -> &'a [u8] {
        let out = &self.buf[self.pos..];
        self.pos = self.buf.len();
        out
    }

    fn invalid(&self, what: &str) -> EnvelopeError {
        EnvelopeError::Invalid {
            offset: self.pos,
            what: what.to_owned(),
        }
    }
}

fn started_from_ms(ms: u64) -> Option<DateTime<Local>> {
    let ms = i64::try_from(ms).ok().filter(|&m| m > 0)?;
    DateTime::from_timestamp_millis(ms).map(|d| d.with_timezone(&Local))
}

/// Decodes an envelope. `payload` is the NATS message's, shared: the packets inside are
/// slices of it, not copies. Notices are decoded (the hub keeps state from them), and a
/// frame's keyframe (for what `/api/matches` says: time, play mode, teams, score).
pub fn decode(payload: &Bytes) -> Result<Envelope, EnvelopeError> {
    let mut r = Reader {
        buf: payload,
        pos: 0,
    };
    let version = r.u8()?;
    if version != ENVELOPE_VERSION {
        return Err(EnvelopeError::Version(version));
    }
    let kind = r.u8()?;
    let run = r.varint()?;
    let index = r.varint()?;
    let state = match r.u8()? {
        0 => None,
        1 => {
            let source = match r.u8()? {
                1 => FeedSource::Live,
                2 => FeedSource::Replay,
                3 => FeedSource::Waiting,
                _ => return Err(r.invalid("an unknown feed source")),
            };
            let label = r.string()?;
            let server_error = match r.u8()? {
                0 => None,
                1 => Some((r.string()?, r.string()?)),
                _ => return Err(r.invalid("a server error flag that is neither 0 nor 1")),
            };
            let number = r.varint()?;
            let match_number =
                u32::try_from(number).map_err(|_| r.invalid("a match number beyond 32 bits"))?;
            let started = started_from_ms(r.varint()?);
            Some(MatchState {
                feed: (source, label),
                server_error,
                match_number,
                started,
            })
        }
        _ => return Err(r.invalid("a state flag that is neither 0 nor 1")),
    };
    let slice =
        |r: &Reader<'_>, from: usize, to: usize| payload.slice(from.min(to)..to.min(r.buf.len()));
    let step = match kind {
        KIND_STATE => None,
        KIND_PACKET => {
            let n = r.varint()?;
            if n > MAX_ITEMS {
                return Err(r.invalid("too many items"));
            }
            let mut items = Vec::with_capacity(n as usize);
            let mut total = 0usize;
            for _ in 0..n {
                let k = match r.u8()? {
                    0 => ItemKind::Param,
                    1 => ItemKind::Tile,
                    2 => ItemKind::Frame,
                    3 => ItemKind::Other,
                    _ => return Err(r.invalid("an unknown item kind")),
                };
                let len = usize::try_from(r.varint()?)
                    .map_err(|_| r.invalid("an item longer than memory"))?;
                total = total.saturating_add(len);
                items.push((k, len));
            }
            let start = r.pos;
            let packet = slice(&r, start, r.buf.len());
            let _ = r.rest();
            match packet.first() {
                Some(2) => {
                    let mut events = Vec::with_capacity(1);
                    Decoder::new().decode(&packet, &mut events)?;
                    let Some(Event::Notice(notice)) = events.pop() else {
                        return Err(EnvelopeError::Invalid {
                            offset: start,
                            what: "a notice packet with no notice".into(),
                        });
                    };
                    Some(Step::Notice { notice, packet })
                }
                Some(3) => {
                    if total != packet.len() - 1 {
                        return Err(EnvelopeError::Invalid {
                            offset: start,
                            what: format!(
                                "items of {total} bytes in a records packet of {}",
                                packet.len() - 1
                            ),
                        });
                    }
                    Some(Step::Records { packet, items })
                }
                _ => {
                    return Err(EnvelopeError::Invalid {
                        offset: start,
                        what: "neither a notice nor a records packet".into(),
                    })
                }
            }
        }
        KIND_FRAME => {
            let n = r.varint()?;
            let start = r.pos;
            r.take(n)?;
            let delta = slice(&r, start, r.pos);
            let key = slice(&r, r.pos, r.buf.len());
            let mut events = Vec::with_capacity(1);
            Decoder::new().decode(&key, &mut events)?;
            let Some(Event::Record(Record::Show(f))) = events.pop() else {
                return Err(EnvelopeError::Invalid {
                    offset: r.pos,
                    what: "a frame without its keyframe".into(),
                });
            };
            Some(Step::Frame {
                delta,
                key,
                time: f.time,
                mode: f.mode,
                teams: Box::new(f.teams),
            })
        }
        _ => return Err(r.invalid("an unknown envelope kind")),
    };
    Ok(Envelope {
        run,
        index,
        state,
        step,
    })
}

/// Which subject of a match an envelope goes to (book, "Edge relays").
pub fn suffix(t: &Tapped) -> &'static str {
    if t.state.is_some() {
        return "start";
    }
    match t.item.as_deref().map(|i| &i.body) {
        Some(Body::Frame { .. }) => "frame",
        Some(Body::Packet(p)) if p.first() == Some(&2) => "notice",
        _ => "records",
    }
}

/// Whether `n` is a notice the origin makes (as opposed to one made per spectator).
pub fn is_match_notice(n: &Notice) -> bool {
    matches!(
        n,
        Notice::Feed { .. }
            | Notice::NewMatch { .. }
            | Notice::Operator { .. }
            | Notice::ServerError { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Hub;
    use rcss_formats::{Frame, Message, Params};
    use tokio::sync::mpsc;

    #[test]
    fn tapped_items_round_trip_and_damage_is_an_error() {
        let hub = Hub::new("m", usize::MAX, 16);
        let (tx, mut rx) = mpsc::unbounded_channel();
        hub.tap(tx);
        hub.set_feed(FeedSource::Live, "live from rcssserver at 10.0.0.1:6000");
        hub.server_error("no_more_monitor", "raise it");
        let mut records = vec![
            Record::ServerParam(Params::default()),
            Record::Msg(Message {
                time: 0,
                board: 1,
                text: b"(team_graphic_l (0 0 \"8 8 1 1\"))".to_vec(),
            }),
        ];
        for t in 0..3 {
            records.push(Record::Show(Frame {
                time: t,
                ..Frame::default()
            }));
        }
        hub.publish(&records);
        let mut got = Vec::new();
        while let Ok(t) = rx.try_recv() {
            got.push(t);
        }
        // State, feed, error, new match (with state), records, three frames.
        assert_eq!(got.len(), 8, "{got:?}");
        let suffixes: Vec<_> = got.iter().map(suffix).collect();
        assert_eq!(
            suffixes,
            ["start", "notice", "notice", "start", "records", "frame", "frame", "frame"]
        );
        for t in &got {
            let bytes = Bytes::from(encode(42, t));
            let e = decode(&bytes).unwrap();
            assert_eq!((e.run, e.index), (42, t.index));
            assert_eq!(e.state, t.state);
            match (&e.step, t.item.as_deref().map(|i| &i.body)) {
                (None, None) => {}
                (Some(Step::Notice { packet, .. }), Some(Body::Packet(p)))
                | (Some(Step::Records { packet, .. }), Some(Body::Packet(p))) => {
                    assert_eq!(packet, p)
                }
                (Some(Step::Frame { delta, key, .. }), Some(Body::Frame { delta: d, key: k })) => {
                    assert_eq!((delta, key), (d, k))
                }
                (a, b) => panic!("{a:?} against {b:?}"),
            }
            if let Some(Step::Records { items, .. }) = &e.step {
                assert_eq!(items[0].0, ItemKind::Param);
                assert_eq!(items[1].0, ItemKind::Tile);
            }
            for cut in 0..bytes.len() {
                assert!(decode(&bytes.slice(..cut)).is_err(), "cut at {cut}");
            }
        }
        let mut future = encode(1, &got[0]);
        future[0] = 2;
        assert!(matches!(
            decode(&Bytes::from(future)),
            Err(EnvelopeError::Version(2))
        ));
    }
}
