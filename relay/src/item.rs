//! What a match's hub hands its fan-out: the items to send live, each already framed as a
//! whole WebSocket message, and the counters both keep for `/metrics`. A leaf below both, so
//! that the hub and the fan-out each import it and not each other.

use crate::ws_frame::{framed, OP_BINARY};
use bytes::Bytes;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::time::Instant;

/// One thing to send live, numbered in publishing order.
#[derive(Debug)]
pub struct Item {
    pub index: u64,
    pub body: Body,
    /// The live packet (a frame's `delta`) as a whole WebSocket message; the body's packets
    /// are views of these bytes ([`framed`]).
    pub ws: Bytes,
    /// A frame's `key` as a whole WebSocket message.
    pub ws_key: Option<Bytes>,
    /// When it was published: a frame older than the delay bound when a spectator's turn
    /// comes is skipped for that spectator ([`crate::fanout`]).
    pub at: Instant,
}

impl Item {
    pub(crate) fn new(index: u64, body: Body) -> Item {
        let at = Instant::now();
        match body {
            Body::Packet(p) => {
                let (ws, p) = framed(OP_BINARY, &p);
                Item {
                    index,
                    body: Body::Packet(p),
                    ws,
                    ws_key: None,
                    at,
                }
            }
            Body::Frame { delta, key } => {
                let (ws, delta) = framed(OP_BINARY, &delta);
                let (ws_key, key) = framed(OP_BINARY, &key);
                Item {
                    index,
                    body: Body::Frame { delta, key },
                    ws,
                    ws_key: Some(ws_key),
                    at,
                }
            }
        }
    }
}

#[derive(Debug)]
pub enum Body {
    /// A frame: `delta` applies to the previous frame, `key` stands alone.
    Frame { delta: Bytes, key: Bytes },
    /// Anything else (notices, records packets): never skipped.
    Packet(Bytes),
}

/// Counters for `/metrics`, updated without the lock.
#[derive(Default)]
pub struct Stats {
    pub spectators: AtomicUsize,
    pub joins: AtomicU64,
    pub datagrams_in: AtomicU64,
    pub ignored_in: AtomicU64,
    /// Records from the server dropped as late or as copies ([`crate::order`]).
    pub out_of_order_in: AtomicU64,
    pub frames_in: AtomicU64,
    pub frames_out: AtomicU64,
    pub bytes_out: AtomicU64,
    /// Times a spectator was moved ahead, for falling the ring behind or for frames older
    /// than the delay bound, and the frames it was not sent.
    pub lag_skips: AtomicU64,
    pub skipped_frames: AtomicU64,
    /// Of `skipped_frames`, those left out for being older than the delay bound.
    pub late_frames: AtomicU64,
    /// Spectators that skipped frames in the fan-out's last round.
    pub skipping: AtomicU64,
    /// Microseconds the fan-out's last round took (every spectator's turn).
    pub round_us: AtomicU64,
    pub closed_slow: AtomicU64,
}
