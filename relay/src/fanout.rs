//! Live items written straight into spectators' sockets by a task of the match's own, each
//! spectator getting, whenever its turn comes, everything new since its last turn in one
//! write, or the newest frame in place of the frames that waited too long.
//!
//! A spectator that keeps up costs one `send` per turn and nothing else: no task of its own is
//! woken, nothing is copied. Each item is framed as a WebSocket message once, at publish time
//! ([`framed`]), and the same bytes go to every socket (a server's frames are not masked, so
//! they are identical for all).
//!
//! Why a task of its own, and turns: one `send` costs the kernel 4-10 µs on the hosts measured
//! (BENCHMARKS.md, "Fan-out"), so one core writes one frame to at most 10,000-20,000 sockets
//! in the 100 ms before the next. Written by the publisher itself, as it once was, a frame to
//! more spectators than that held up the next frame, the history and the recording with it:
//! the server's datagrams queued in the kernel, every spectator fell seconds behind and stayed
//! there, and datagrams past the socket's buffer were lost for good. Now the publisher only
//! hands items over ([`FanOut::publish`]) and the fan-out goes round the spectators as fast as
//! the core allows ([`run`]). A round that takes longer than a frame gives each spectator the
//! frames since its last turn together, in one `send` (which costs what one frame costs):
//! every frame still arrives, a little later. Frames older than the delay bound (`--max-delay`)
//! when a spectator's turn comes are not sent to it: it gets a `Skipped` notice and the first
//! frame young enough (the newest at worst) as a keyframe. So no spectator gets a frame later
//! than the bound, however many watch; each skips about as many frames as the others (every
//! spectator has one turn per round); notices and match headers are never skipped; and the
//! history and the recording, which the publisher keeps, have every frame.
//!
//! A spectator whose socket is full is passed over until its own task has seen room again
//! (within `--send-timeout`, else it is closed as stalled); its frames age meanwhile, and it
//! skips the old ones like any other. One that falls more than the ring behind (`--lag`) is
//! handed back to its task, which moves it ahead through the hub ([`crate::spectator`]).
//!
//! Plain TCP only: a TLS stream needs its own state for every write, so WSS spectators keep
//! one task each ([`crate::spectator`]), which skips by the same bound.

use crate::item::{Body, Item, Stats};
use crate::ws_frame::{framed, header, OP_BINARY};
use bytes::Bytes;
use pitchside_wire::{notice_packet, Notice};
use std::collections::VecDeque;
use std::io::{self, IoSlice};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::sync::Notify;

/// How long a frame may wait for a spectator's turn before that spectator skips it, unless
/// `--max-delay` says otherwise: two frames at the server's pace, so that a round of up to
/// twice what one core writes in a frame's time still skips nothing, and well under what a
/// person watching calls live.
pub const DEFAULT_MAX_DELAY: Duration = Duration::from_millis(200);

/// Spectators served between two yields to the runtime: about half a millisecond of `send`s,
/// so that the publisher (the server's datagrams), joiners and pages get the core often even
/// when one relay core serves more spectators than it can write every frame to.
const TURNS_PER_YIELD: usize = 64;

/// At most this many buffers per `writev` (Linux takes 1024; a turn rarely has more than 3).
const MAX_SLICES: usize = 64;

/// What a write to a spectator's socket came to, when it did not simply succeed.
#[derive(Debug)]
pub enum Failed {
    /// The socket took nothing for the whole time limit.
    Stalled,
    /// The peer went away.
    Gone,
}

/// One spectator's socket state, under its lock: whoever writes holds it for the whole write,
/// so messages never interleave.
#[derive(Default)]
struct Queue {
    /// Bytes that must go out before anything else, in order: the rest of a write the socket
    /// cut short, and what the spectator's task queued (backlog, pings, close).
    chunks: VecDeque<Bytes>,
    /// The fan-out's last write found no room at all: the spectator's task waits for room
    /// (within the send timeout) before the fan-out writes again.
    blocked: bool,
    /// Which hand-over to the fan-out is current: bumped by every join and leave, so that the
    /// fan-out drops an entry left from an earlier one and never writes after a leave.
    epoch: u64,
    /// Set by the fan-out when it let go of this socket: the first item not written.
    released_at: Option<u64>,
    broken: bool,
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
                .take(MAX_SLICES)
                .map(|c| IoSlice::new(c))
                .collect();
            let n = match self.tcp.try_write_vectored(&slices) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
                Err(e) => return Err(e),
            };
            consume(&mut q.chunks, n);
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
            q.chunks.push_back(Bytes::copy_from_slice(head));
        }
        q.chunks.push_back(body);
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

    /// Writes everything queued, and waits for room if the fan-out found none; gives up when
    /// the socket takes nothing for `limit`.
    pub async fn flush(&self, limit: Duration) -> Result<(), Failed> {
        loop {
            {
                let mut q = self.lock();
                if q.broken {
                    return Err(Failed::Gone);
                }
                match self.write_queued(&mut q) {
                    Ok(true) if !q.blocked => return Ok(()),
                    Ok(_) => {}
                    Err(_) => {
                        q.broken = true;
                        return Err(Failed::Gone);
                    }
                }
            }
            match tokio::time::timeout(limit, self.tcp.writable()).await {
                Err(_) => return Err(Failed::Stalled),
                Ok(Err(_)) => return Err(Failed::Gone),
                Ok(Ok(())) => self.lock().blocked = false,
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

    /// Whether the fan-out's turns pass this socket by: it found no room in it, or left the
    /// rest of a write to the spectator's task.
    pub fn is_blocked(&self) -> bool {
        let q = self.lock();
        q.blocked || !q.chunks.is_empty()
    }
}

/// Drops the first `n` bytes of `chunks`.
fn consume(chunks: &mut VecDeque<Bytes>, mut n: usize) {
    while n > 0 {
        let Some(front) = chunks.front_mut() else {
            break;
        };
        if n < front.len() {
            *front = front.slice(n..);
            break;
        }
        n -= front.len();
        chunks.pop_front();
    }
}

/// What the publisher hands the fan-out, and spectators joining it.
#[derive(Default)]
struct Inbox {
    /// Items not yet taken by the fan-out's task, oldest first (at most the ring: nobody
    /// takes them before the first spectator joins).
    items: VecDeque<Arc<Item>>,
    joins: Vec<Member>,
    closed: bool,
}

/// A socket the fan-out writes to, and the next item it needs.
struct Member {
    conn: Arc<Direct>,
    next: u64,
    epoch: u64,
}

/// One match's fan-out: shared by the hub (which hands it items and joiners) and the task
/// that writes ([`run`]).
pub struct FanOut {
    inbox: Mutex<Inbox>,
    /// Something arrived in the inbox (or it closed).
    work: Notify,
    started: AtomicBool,
    /// Live items a spectator may fall behind before it is handed back to its task.
    ring: usize,
    /// How long a frame may wait for a spectator's turn before that spectator skips it.
    max_delay: Duration,
    stats: Arc<Stats>,
}

impl FanOut {
    pub fn new(ring: usize, max_delay: Duration, stats: Arc<Stats>) -> FanOut {
        FanOut {
            inbox: Mutex::new(Inbox::default()),
            work: Notify::new(),
            started: AtomicBool::new(false),
            ring: ring.max(1),
            max_delay,
            stats,
        }
    }

    pub fn max_delay(&self) -> Duration {
        self.max_delay
    }

    /// Asks for a round although nothing was published: a spectator whose socket was full
    /// has room again, and what was published meanwhile must reach it now, not with the next
    /// item (which may never come: the match ended or waits for a kick-off).
    pub fn poke(&self) {
        self.work.notify_one();
    }

    fn inbox(&self) -> MutexGuard<'_, Inbox> {
        self.inbox.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands items over, in publishing order (the caller holds the match's lock).
    pub fn publish(&self, items: impl IntoIterator<Item = Arc<Item>>) {
        let mut inbox = self.inbox();
        inbox.items.extend(items);
        while inbox.items.len() > self.ring {
            inbox.items.pop_front();
        }
        drop(inbox);
        self.work.notify_one();
    }

    /// Takes `conn` on: from its next turn it gets the items from `next` on. Starts the
    /// fan-out's task with the first spectator (it needs the runtime).
    pub fn join(self: &Arc<Self>, conn: &Arc<Direct>, next: u64) {
        let epoch = {
            let mut q = conn.lock();
            q.epoch += 1;
            q.released_at = None;
            q.blocked = false;
            q.epoch
        };
        self.inbox().joins.push(Member {
            conn: conn.clone(),
            next,
            epoch,
        });
        if !self.started.swap(true, Ordering::AcqRel) {
            tokio::spawn(run(self.clone()));
        }
        self.work.notify_one();
    }

    /// Lets go of `conn` at once (its spectator leaves or writes itself again): nothing more
    /// is written to it by the fan-out after this returns.
    pub fn leave(&self, conn: &Direct) {
        conn.lock().epoch += 1;
    }

    /// Ends the task (the match is gone).
    pub fn close(&self) {
        self.inbox().closed = true;
        self.work.notify_one();
    }
}

/// Items the fan-out's task holds, with the next index expected.
struct Recent {
    items: VecDeque<Arc<Item>>,
    /// Index of the item after the newest held.
    head: u64,
}

impl Recent {
    fn front(&self) -> u64 {
        self.items.front().map_or(self.head, |i| i.index)
    }
}

/// Moves what the inbox holds into the task's state; false once the fan-out is closed.
fn take_inbox(fan: &FanOut, recent: &mut Recent, members: &mut Vec<Member>) -> bool {
    let mut inbox = fan.inbox();
    if inbox.closed {
        return false;
    }
    for item in inbox.items.drain(..) {
        if item.index < recent.head {
            continue;
        }
        if item.index > recent.head {
            // Items went by untaken (before the first join, or more than the ring while
            // this task did not run): what is held no longer runs on from them, and
            // spectators that needed them are handed back to their tasks.
            recent.items.clear();
        }
        recent.head = item.index + 1;
        recent.items.push_back(item);
    }
    while recent.items.len() > fan.ring {
        recent.items.pop_front();
    }
    members.append(&mut inbox.joins);
    true
}

/// What one spectator's turn did, summed over a round for the hub's counters.
#[derive(Default, Debug, PartialEq)]
pub struct Turn {
    pub frames: u64,
    pub bytes: u64,
    /// Frames not sent because they were older than the bound, and the turns that did so.
    pub skipped: u64,
    pub skips: u64,
}

impl Turn {
    fn add(&mut self, o: &Turn) {
        self.frames += o.frames;
        self.bytes += o.bytes;
        self.skipped += o.skipped;
        self.skips += o.skips;
    }
}

enum Outcome {
    Keep(Turn),
    Drop,
}

/// The fan-out's task: rounds over the spectators while there is something new for any of
/// them, each spectator's turn writing everything new to it at once.
async fn run(fan: Arc<FanOut>) {
    let mut recent = Recent {
        items: VecDeque::new(),
        head: 0,
    };
    let mut members: Vec<Member> = Vec::new();
    loop {
        if !take_inbox(&fan, &mut recent, &mut members) {
            return;
        }
        let round_head = recent.head;
        let started = Instant::now();
        let mut sum = Turn::default();
        let mut behind = 0u64;
        let mut i = 0;
        let mut until_yield = TURNS_PER_YIELD;
        while i < members.len() {
            if members[i].next >= recent.head {
                // Nothing new for it; a stale entry goes at its next turn with something.
                i += 1;
                continue;
            }
            match turn(&mut members[i], &recent, fan.max_delay) {
                Outcome::Keep(t) => {
                    behind += u64::from(t.skips > 0);
                    sum.add(&t);
                    i += 1;
                }
                // The last one takes its place, and its turn, in this round.
                Outcome::Drop => drop(members.swap_remove(i)),
            }
            until_yield -= 1;
            if until_yield == 0 {
                until_yield = TURNS_PER_YIELD;
                tokio::task::yield_now().await;
                // What was published meanwhile goes to the rest of this round at once.
                if !take_inbox(&fan, &mut recent, &mut members) {
                    return;
                }
            }
        }
        let stats = &fan.stats;
        if sum.frames > 0 || sum.bytes > 0 {
            stats.frames_out.fetch_add(sum.frames, Ordering::Relaxed);
            stats.bytes_out.fetch_add(sum.bytes, Ordering::Relaxed);
            stats
                .round_us
                .store(started.elapsed().as_micros() as u64, Ordering::Relaxed);
        }
        if sum.skips > 0 {
            stats.lag_skips.fetch_add(sum.skips, Ordering::Relaxed);
            stats
                .skipped_frames
                .fetch_add(sum.skipped, Ordering::Relaxed);
            stats.late_frames.fetch_add(sum.skipped, Ordering::Relaxed);
        }
        stats.skipping.store(behind, Ordering::Relaxed);
        // Items that came during the round missed the spectators served before they came:
        // another round at once. Otherwise wait for the next item (a permit left by one
        // taken during the round only costs a round of spectators with nothing new).
        if recent.head == round_head && fan.inbox().items.is_empty() {
            fan.work.notified().await;
        }
    }
}

/// One spectator's turn: everything from its next item to the newest, in one write, but for
/// frames older than `max_delay` (the newest frame is always sent).
fn turn(m: &mut Member, recent: &Recent, max_delay: Duration) -> Outcome {
    let mut q = m.conn.lock();
    if q.epoch != m.epoch || q.broken {
        return Outcome::Drop;
    }
    if m.next < recent.front() {
        q.released_at = Some(m.next);
        m.conn.wake.notify_one();
        return Outcome::Drop;
    }
    if q.blocked || !q.chunks.is_empty() {
        // Its task waits for room; the items wait here, and age.
        return Outcome::Keep(Turn::default());
    }
    let start = (m.next - recent.front()) as usize;
    let (parts, mut done) = plan(recent.items.range(start..), Instant::now(), max_delay);
    let slices: Vec<IoSlice<'_>> = parts.iter().map(|b| IoSlice::new(b)).collect();
    let total: usize = parts.iter().map(Bytes::len).sum();
    let written = if slices.len() == 1 {
        m.conn.tcp.try_write(&parts[0])
    } else {
        m.conn
            .tcp
            .try_write_vectored(&slices[..slices.len().min(MAX_SLICES)])
    };
    match written {
        Ok(0) => {
            q.broken = true;
            m.conn.wake.notify_one();
            return Outcome::Drop;
        }
        Ok(n) => {
            if n < total {
                // The rest goes out before anything else, written by the spectator's task.
                let mut rest: VecDeque<Bytes> = parts.into_iter().collect();
                consume(&mut rest, n);
                q.chunks.extend(rest);
                m.conn.wake.notify_one();
            }
        }
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
            q.blocked = true;
            m.conn.wake.notify_one();
            return Outcome::Keep(Turn::default());
        }
        Err(_) => {
            q.broken = true;
            m.conn.wake.notify_one();
            return Outcome::Drop;
        }
    }
    m.next = recent.head;
    done.bytes = total as u64;
    Outcome::Keep(done)
}

/// What one turn writes for `pending` (oldest first) at `now`: every item as it was
/// published, except the frames older than `max_delay` before the newest frame, which are left
/// out; a `Skipped` notice and the next frame as a keyframe stand in their place. Frames age in
/// order, so the skipped ones are the oldest. Packets are never left out.
fn plan<'a>(
    pending: impl Iterator<Item = &'a Arc<Item>> + Clone,
    now: Instant,
    max_delay: Duration,
) -> (Vec<Bytes>, Turn) {
    let is_frame = |i: &Item| matches!(i.body, Body::Frame { .. });
    let newest_frame = pending
        .clone()
        .filter(|i| is_frame(i))
        .last()
        .map(|i| i.index);
    let mut parts = Vec::new();
    let mut t = Turn::default();
    let mut skipped = 0u32;
    for item in pending {
        if !is_frame(item) {
            parts.push(item.ws.clone());
            continue;
        }
        let late = now.saturating_duration_since(item.at) > max_delay;
        if late && Some(item.index) != newest_frame {
            skipped += 1;
            continue;
        }
        t.frames += 1;
        if skipped > 0 {
            let (n, _) = framed(
                OP_BINARY,
                &notice_packet(&Notice::Skipped { frames: skipped }),
            );
            parts.push(n);
            parts.push(item.ws_key.clone().unwrap_or_else(|| item.ws.clone()));
            t.skipped += u64::from(skipped);
            t.skips += 1;
            skipped = 0;
        } else {
            parts.push(item.ws.clone());
        }
    }
    (parts, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Body;
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

    fn frame_item(index: u64, at: Instant) -> Arc<Item> {
        let delta = Bytes::from(format!("delta {index}").into_bytes());
        let key = Bytes::from(format!("key {index}").into_bytes());
        let mut item = Item::new(index, Body::Frame { delta, key });
        item.at = at;
        Arc::new(item)
    }

    fn packet_item(index: u64, at: Instant) -> Arc<Item> {
        let mut item = Item::new(
            index,
            Body::Packet(Bytes::from(format!("packet {index}").into_bytes())),
        );
        item.at = at;
        Arc::new(item)
    }

    /// The payloads of whole messages laid end to end.
    fn payloads(parts: &[Bytes]) -> Vec<Vec<u8>> {
        use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;
        let all: Vec<u8> = parts.iter().flat_map(|b| b.iter().copied()).collect();
        let mut cur = std::io::Cursor::new(&all[..]);
        let mut out = Vec::new();
        while (cur.position() as usize) < all.len() {
            let (_, len) = FrameHeader::parse(&mut cur).unwrap().unwrap();
            let at = cur.position() as usize;
            out.push(all[at..at + len as usize].to_vec());
            cur.set_position((at + len as usize) as u64);
        }
        out
    }

    #[test]
    fn a_turn_sends_everything_young_enough_and_skips_old_frames_for_a_keyframe() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        let bound = ms(200);
        // Frames 0-2 waited too long; 3 is young; packets in between are kept.
        let items = [
            frame_item(0, now - ms(500)),
            packet_item(1, now - ms(450)),
            frame_item(2, now - ms(300)),
            frame_item(3, now - ms(100)),
            packet_item(4, now - ms(50)),
            frame_item(5, now),
        ];
        let (parts, t) = plan(items.iter(), now, bound);
        let skipped = notice_packet(&Notice::Skipped { frames: 2 });
        assert_eq!(
            payloads(&parts),
            vec![
                b"packet 1".to_vec(),
                skipped,
                b"key 3".to_vec(),
                b"packet 4".to_vec(),
                b"delta 5".to_vec(),
            ]
        );
        assert_eq!(
            t,
            Turn {
                frames: 2,
                bytes: 0,
                skipped: 2,
                skips: 1
            }
        );
        // All young: everything as published.
        let (parts, t) = plan(items[3..].iter(), now, bound);
        assert_eq!(
            payloads(&parts),
            vec![
                b"delta 3".to_vec(),
                b"packet 4".to_vec(),
                b"delta 5".to_vec()
            ]
        );
        assert_eq!(t.skipped, 0);
        // All old: the newest frame still goes, as a keyframe, and it alone.
        let (parts, t) = plan(items[..3].iter(), now, bound);
        assert_eq!(
            payloads(&parts),
            vec![
                b"packet 1".to_vec(),
                notice_packet(&Notice::Skipped { frames: 1 }),
                b"key 2".to_vec()
            ]
        );
        assert_eq!((t.frames, t.skipped), (1, 1));
        // One old frame alone is the newest: sent as it is.
        let (parts, t) = plan(items[..1].iter(), now, bound);
        assert_eq!(payloads(&parts), vec![b"delta 0".to_vec()]);
        assert_eq!(t.skipped, 0);
    }

    fn fan(ring: usize, max_delay: Duration) -> Arc<FanOut> {
        Arc::new(FanOut::new(ring, max_delay, Arc::new(Stats::default())))
    }

    #[tokio::test]
    async fn a_socket_that_keeps_up_gets_every_item_in_order() {
        let (conn, mut client) = pair(false).await;
        let fan = fan(8, Duration::from_secs(60));
        fan.join(&conn, 0);
        let mut sent = Vec::new();
        let mut bytes = 0;
        for i in 0..200u64 {
            let payload = format!("item {i}").repeat(1 + (i as usize % 7) * 40);
            let item = Item::new(i, Body::Packet(Bytes::from(payload.clone().into_bytes())));
            bytes += item.ws.len() as u64;
            fan.publish([Arc::new(item)]);
            sent.push(payload.into_bytes());
            if i % 5 == 0 {
                tokio::task::yield_now().await;
            }
        }
        assert_eq!(read_messages(&mut client, 200).await, sent);
        assert!(conn.take_released().is_none());
        // Counted when the round that wrote the last of them ends.
        let deadline = Instant::now() + Duration::from_secs(5);
        while fan.stats.bytes_out.load(Ordering::Relaxed) != bytes {
            assert!(Instant::now() < deadline, "{bytes} bytes counted");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn a_socket_that_stops_reading_is_let_go_past_the_ring_and_keeps_what_it_got() {
        let (conn, mut client) = pair(true).await;
        let fan = fan(4, Duration::from_secs(60));
        fan.join(&conn, 0);
        let payload = vec![7u8; 32 << 10];
        let mut released = None;
        for i in 0..1000u64 {
            let item = Item::new(i, Body::Packet(Bytes::from(payload.clone())));
            fan.publish([Arc::new(item)]);
            tokio::time::sleep(Duration::from_millis(2)).await;
            if let Some(at) = conn.take_released() {
                released = Some(at);
                break;
            }
        }
        let at = released.expect("a socket nobody reads is let go");
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
    async fn a_socket_that_was_full_gets_what_waited_when_nothing_more_is_published() {
        // The page stops reading while a match goes on, then the match ends (nothing more
        // is published), then the page reads again: every item reaches it, though no new
        // item comes to start the fan-out's next round.
        let (conn, mut client) = pair(true).await;
        let fan = fan(4000, Duration::from_secs(60));
        fan.join(&conn, 0);
        let payload = vec![5u8; 4 << 10];
        let n = 400u64;
        for i in 0..n {
            let item = Item::new(i, Body::Packet(Bytes::from(payload.clone())));
            fan.publish([Arc::new(item)]);
            if i % 10 == 0 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(conn.is_blocked(), "the socket filled up");
        // The spectator's side, as its task follows the fan-out.
        let follow = {
            let (conn, fan) = (conn.clone(), fan.clone());
            tokio::spawn(async move {
                for _ in 0..2000 {
                    let _ =
                        tokio::time::timeout(Duration::from_millis(50), conn.wake.notified()).await;
                    let waited = conn.is_blocked();
                    if conn.flush(Duration::from_secs(10)).await.is_err() {
                        return;
                    }
                    if waited {
                        fan.poke();
                    }
                }
            })
        };
        let got = read_messages(&mut client, n as usize).await;
        assert_eq!(got.len(), n as usize);
        assert!(got.iter().all(|m| *m == payload));
        follow.abort();
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

    #[tokio::test]
    async fn nothing_is_written_after_a_leave() {
        let (conn, mut client) = pair(false).await;
        let fan = fan(8, Duration::from_secs(60));
        fan.join(&conn, 0);
        fan.publish([packet_item(0, Instant::now())]);
        assert_eq!(
            read_messages(&mut client, 1).await,
            vec![b"packet 0".to_vec()]
        );
        fan.leave(&conn);
        fan.publish([packet_item(1, Instant::now())]);
        conn.push_message(Bytes::from_static(b"own"));
        // The spectator's own message is the next thing on the wire.
        assert_eq!(read_messages(&mut client, 1).await, vec![b"own".to_vec()]);
        tokio::time::sleep(Duration::from_millis(100)).await;
        fan.publish([packet_item(2, Instant::now())]);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mut rest = [0u8; 64];
        assert!(
            tokio::time::timeout(Duration::from_millis(200), client.read(&mut rest))
                .await
                .is_err(),
            "nothing more arrives"
        );
    }
}
