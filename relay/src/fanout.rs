//! Live items written straight into spectators' sockets by whoever publishes them.
//!
//! A spectator that keeps up costs one `send` per item and nothing else: no task is woken,
//! nothing is copied. Each item is framed as a WebSocket message once, at publish time
//! ([`framed`]), and the same bytes go to every socket (a server's frames are not masked, so
//! they are identical for all). Only a spectator whose socket is full gets its own task
//! woken, to wait for room ([`Direct::flush`]); while it waits, later items queue behind
//! (shared bytes, no copies) up to the hub's ring, and beyond that it is handed back to its
//! task, which takes it through the same lag policy as before ([`crate::spectator`]).
//!
//! Measured before this (one task per spectator woken by a broadcast for every frame, each
//! framing the message again through tungstenite): 0.6 µs of the relay's user time per frame
//! per spectator beside the kernel's 9.4 µs for the `send` itself (BENCHMARKS.md, "Fan-out").
//!
//! Plain TCP only: a TLS stream needs its own state for every write, so WSS spectators keep
//! one task each ([`crate::spectator`]).

use bytes::Bytes;
use std::collections::VecDeque;
use std::io::{self, IoSlice};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::Notify;

/// WebSocket opcodes the relay sends (RFC 6455, 5.2).
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;

/// A final frame's header for a payload of `len` bytes, and its length.
pub fn header(opcode: u8, len: usize) -> ([u8; 10], usize) {
    let mut h = [0u8; 10];
    h[0] = 0x80 | (opcode & 0x0f);
    let n = if len < 126 {
        h[1] = len as u8;
        2
    } else if let Ok(short) = u16::try_from(len) {
        h[1] = 126;
        h[2..4].copy_from_slice(&short.to_be_bytes());
        4
    } else {
        h[1] = 127;
        h[2..10].copy_from_slice(&(len as u64).to_be_bytes());
        10
    };
    (h, n)
}

/// `payload` as one whole WebSocket message, and the payload again as a view of those bytes
/// (so that keeping both costs one buffer).
pub fn framed(opcode: u8, payload: &[u8]) -> (Bytes, Bytes) {
    let (h, n) = header(opcode, payload.len());
    let mut v = Vec::with_capacity(n + payload.len());
    v.extend_from_slice(&h[..n]);
    v.extend_from_slice(payload);
    let all = Bytes::from(v);
    let body = all.slice(n..);
    (all, body)
}

/// What a write to a spectator's socket came to, when it did not simply succeed.
#[derive(Debug)]
pub enum Failed {
    /// The socket took nothing for the whole time limit.
    Stalled,
    /// The peer went away.
    Gone,
}

/// Bytes waiting for room in one socket, in the order they must go out.
#[derive(Default)]
struct Queue {
    chunks: VecDeque<Chunk>,
    /// Live items among `chunks`.
    items: usize,
    /// Set by the fan-out when it let go of this socket: the first item it did not queue.
    released_at: Option<u64>,
    broken: bool,
}

struct Chunk {
    bytes: Bytes,
    /// One of the fan-out's live items (counted against the ring), not a control frame or a
    /// packet of the backlog.
    item: bool,
}

/// One spectator's socket, shared by the fan-out, the spectator's task and its reader.
pub struct Direct {
    tcp: TcpStream,
    /// The connection's place in the relay's table, given back with the socket.
    _slot: Box<dyn Send + Sync>,
    queue: Mutex<Queue>,
    /// Tells the spectator's task that its socket needs it (full, released, broken).
    pub wake: Notify,
}

impl Direct {
    pub fn new(tcp: TcpStream, slot: Box<dyn Send + Sync>) -> Arc<Direct> {
        Arc::new(Direct {
            tcp,
            _slot: slot,
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
        })
    }

    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Every change leaves the queue consistent, so a panic elsewhere cannot spoil it.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes what is queued as far as the socket takes it; true when nothing is left.
    fn write_queued(&self, q: &mut Queue) -> io::Result<bool> {
        while !q.chunks.is_empty() {
            let slices: Vec<IoSlice<'_>> = q
                .chunks
                .iter()
                .take(64)
                .map(|c| IoSlice::new(&c.bytes))
                .collect();
            let mut n = match self.tcp.try_write_vectored(&slices) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
                Err(e) => return Err(e),
            };
            while n > 0 {
                let Some(front) = q.chunks.front_mut() else {
                    break;
                };
                if n < front.bytes.len() {
                    front.bytes = front.bytes.slice(n..);
                    break;
                }
                n -= front.bytes.len();
                if front.item {
                    q.items -= 1;
                }
                q.chunks.pop_front();
            }
        }
        Ok(true)
    }

    /// Queues a whole message (`head` may be empty) behind what waits, and writes what the
    /// socket takes now.
    fn push(&self, head: &[u8], body: Bytes) {
        let mut q = self.lock();
        if q.broken {
            return;
        }
        if !head.is_empty() {
            q.chunks.push_back(Chunk {
                bytes: Bytes::copy_from_slice(head),
                item: false,
            });
        }
        q.chunks.push_back(Chunk {
            bytes: body,
            item: false,
        });
        match self.write_queued(&mut q) {
            Ok(true) => {}
            Ok(false) => self.wake.notify_one(),
            Err(_) => {
                q.broken = true;
                self.wake.notify_one();
            }
        }
    }

    /// Queues a control frame (ping, pong, close) or bytes tungstenite wrote.
    pub fn push_raw(&self, bytes: Bytes) {
        self.push(&[], bytes);
    }

    /// Queues `payload` as a binary message.
    pub fn push_message(&self, payload: Bytes) {
        let (h, n) = header(OP_BINARY, payload.len());
        self.push(&h[..n], payload);
    }

    /// Writes everything queued; gives up when the socket takes nothing for `limit`.
    pub async fn flush(&self, limit: Duration) -> Result<(), Failed> {
        loop {
            {
                let mut q = self.lock();
                if q.broken {
                    return Err(Failed::Gone);
                }
                match self.write_queued(&mut q) {
                    Ok(true) => return Ok(()),
                    Ok(false) => {}
                    Err(_) => {
                        q.broken = true;
                        return Err(Failed::Gone);
                    }
                }
            }
            match tokio::time::timeout(limit, self.tcp.writable()).await {
                Err(_) => return Err(Failed::Stalled),
                Ok(Err(_)) => return Err(Failed::Gone),
                Ok(Ok(())) => {}
            }
        }
    }

    /// Where the fan-out let go of this socket, if it did since the last call.
    pub fn take_released(&self) -> Option<u64> {
        self.lock().released_at.take()
    }

    pub fn is_broken(&self) -> bool {
        self.lock().broken
    }
}

/// The sockets one hub writes to itself, and how far it got.
pub struct Fan {
    /// Index of the next item to be delivered: a spectator that has every item before it
    /// may join.
    next: u64,
    conns: Vec<Arc<Direct>>,
    /// Live items a socket may have queued before it is let go (the hub's ring).
    ring: usize,
}

/// What one delivery did, for the hub's counters.
#[derive(Default)]
pub struct Delivered {
    pub frames: u64,
    pub bytes: u64,
}

impl Fan {
    pub fn new(ring: usize) -> Fan {
        Fan {
            next: 0,
            conns: Vec::new(),
            ring: ring.max(1),
        }
    }

    /// Takes `conn` on if it has every item before the next one to be delivered.
    pub fn join(&mut self, conn: &Arc<Direct>, next: u64) -> bool {
        if next != self.next {
            return false;
        }
        conn.lock().released_at = None;
        self.conns.push(conn.clone());
        true
    }

    /// Lets go of `conn` (its spectator left).
    pub fn leave(&mut self, conn: &Arc<Direct>) {
        if let Some(i) = self.conns.iter().position(|c| Arc::ptr_eq(c, conn)) {
            self.conns.swap_remove(i);
        }
    }

    pub fn len(&self) -> usize {
        self.conns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    /// Writes one item, framed (`ws`), to every socket taken on. `index` must be
    /// [`Fan::next`]: items are delivered in the order they are published.
    pub fn deliver(&mut self, index: u64, ws: &Bytes, frame: bool) -> Delivered {
        debug_assert_eq!(index, self.next);
        self.next = index + 1;
        let mut done = Delivered::default();
        let ring = self.ring;
        self.conns.retain(|conn| {
            let mut q = conn.lock();
            if q.broken {
                return false;
            }
            if !q.chunks.is_empty() {
                if q.items >= ring {
                    q.released_at = Some(index);
                    conn.wake.notify_one();
                    return false;
                }
                q.chunks.push_back(Chunk {
                    bytes: ws.clone(),
                    item: true,
                });
                q.items += 1;
                done.frames += u64::from(frame);
                done.bytes += ws.len() as u64;
                return true;
            }
            match conn.tcp.try_write(ws) {
                Ok(n) if n == ws.len() => {}
                Ok(n) => {
                    q.chunks.push_back(Chunk {
                        bytes: ws.slice(n..),
                        item: true,
                    });
                    q.items += 1;
                    conn.wake.notify_one();
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    q.chunks.push_back(Chunk {
                        bytes: ws.clone(),
                        item: true,
                    });
                    q.items += 1;
                    conn.wake.notify_one();
                }
                Err(_) => {
                    q.broken = true;
                    conn.wake.notify_one();
                    return false;
                }
            }
            done.frames += u64::from(frame);
            done.bytes += ws.len() as u64;
            true
        });
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A socket pair on loopback: the relay's side as a [`Direct`], and the page's side.
    async fn pair(small: bool) -> (Arc<Direct>, TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = tokio::net::TcpSocket::new_v4().unwrap();
        if small {
            client.set_recv_buffer_size(4096).unwrap();
        }
        let (client, accepted) = tokio::join!(
            client.connect(listener.local_addr().unwrap()),
            listener.accept()
        );
        let (server, _) = accepted.unwrap();
        if small {
            socket2::SockRef::from(&server)
                .set_send_buffer_size(4096)
                .unwrap();
        }
        (Direct::new(server, Box::new(())), client.unwrap())
    }

    /// Reads whole messages off the page's side until `n` have come.
    async fn read_messages(client: &mut TcpStream, n: usize) -> Vec<Vec<u8>> {
        use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while out.len() < n {
            let mut cur = std::io::Cursor::new(&buf[..]);
            if let Ok(Some((h, len))) = FrameHeader::parse(&mut cur) {
                let start = cur.position() as usize;
                if buf.len() >= start + len as usize {
                    assert!(h.is_final);
                    out.push(buf[start..start + len as usize].to_vec());
                    buf.drain(..start + len as usize);
                    continue;
                }
            }
            let mut chunk = [0u8; 65536];
            let got = tokio::time::timeout(Duration::from_secs(10), client.read(&mut chunk))
                .await
                .expect("the relay keeps writing")
                .unwrap();
            assert!(got > 0, "the socket stays open");
            buf.extend_from_slice(&chunk[..got]);
        }
        out
    }

    #[tokio::test]
    async fn a_socket_that_keeps_up_gets_every_item_in_order() {
        let (conn, mut client) = pair(false).await;
        let mut fan = Fan::new(8);
        assert!(!fan.join(&conn, 1), "item 0 would be missing");
        assert!(fan.join(&conn, 0));
        let mut sent = Vec::new();
        for i in 0..200u64 {
            let payload = format!("item {i}").repeat(1 + (i as usize % 7) * 40);
            let (ws, _) = framed(OP_BINARY, payload.as_bytes());
            let d = fan.deliver(i, &ws, true);
            assert_eq!((d.frames, d.bytes), (1, ws.len() as u64));
            sent.push(payload.into_bytes());
        }
        assert_eq!(read_messages(&mut client, 200).await, sent);
        assert_eq!(fan.len(), 1);
        assert!(conn.take_released().is_none());
    }

    #[tokio::test]
    async fn a_socket_that_stops_reading_queues_up_to_the_ring_then_is_let_go() {
        let (conn, mut client) = pair(true).await;
        let mut fan = Fan::new(4);
        assert!(fan.join(&conn, 0));
        let payload = vec![7u8; 32 << 10];
        let (ws, _) = framed(OP_BINARY, &payload);
        let mut released = None;
        for i in 0..1000u64 {
            fan.deliver(i, &ws, true);
            if let Some(at) = conn.take_released() {
                released = Some(at);
                break;
            }
        }
        let at = released.expect("a socket nobody reads is let go");
        assert!(fan.is_empty(), "and leaves the fan-out");
        // What was written or queued before that reaches the page whole, in order.
        let flush = {
            let conn = conn.clone();
            tokio::spawn(async move { conn.flush(Duration::from_secs(10)).await })
        };
        let got = read_messages(&mut client, at as usize).await;
        assert!(got.iter().all(|m| *m == payload));
        assert!(flush.await.unwrap().is_ok());
        assert!(!conn.is_broken());
    }

    #[tokio::test]
    async fn a_socket_that_stalls_is_reported_after_the_limit() {
        let (conn, _client) = pair(true).await;
        for _ in 0..64 {
            conn.push_message(Bytes::from(vec![1u8; 16 << 10]));
        }
        let t = std::time::Instant::now();
        assert!(matches!(
            conn.flush(Duration::from_millis(300)).await,
            Err(Failed::Stalled)
        ));
        assert!(t.elapsed() >= Duration::from_millis(300));
    }

    #[test]
    fn headers_use_the_shortest_length_form() {
        assert_eq!(header(OP_BINARY, 0).1, 2);
        assert_eq!(&header(OP_BINARY, 125).0[..2], &[0x82, 125]);
        assert_eq!(&header(OP_BINARY, 126).0[..4], &[0x82, 126, 0, 126]);
        assert_eq!(&header(OP_PING, 65535).0[..4], &[0x89, 126, 0xff, 0xff]);
        assert_eq!(
            &header(OP_BINARY, 65536).0[..10],
            &[0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0]
        );
    }

    #[test]
    fn framed_messages_read_back_with_tungstenite() {
        use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;
        for len in [0usize, 1, 125, 126, 4000, 65535, 65536, 200_000] {
            let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let (all, body) = framed(OP_BINARY, &payload);
            assert_eq!(&body[..], &payload[..]);
            let mut cur = std::io::Cursor::new(&all[..]);
            let (h, n) = FrameHeader::parse(&mut cur)
                .expect("a valid header")
                .expect("a whole header");
            assert!(h.is_final);
            assert_eq!(n as usize, len);
            assert_eq!(cur.position() as usize + len, all.len());
        }
    }
}
