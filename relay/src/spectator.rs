//! One spectator's WebSocket: the backlog, then live, with bounded memory and a lag policy.
//!
//! On plain TCP the socket is shared with the hub's fan-out ([`crate::fanout`]): the
//! spectator's task sends the backlog and whatever it must catch up on, and hands the socket
//! to the fan-out; the fan-out then writes the live items into it at each of its turns,
//! skipping frames that waited longer than the delay bound, and hands it back if it falls the
//! ring behind. Its messages are
//! written whole from shared bytes, so no per-spectator buffer grows with a large packet.
//! Over TLS every write needs the stream's own state: such a spectator is served by its own
//! task through tungstenite, which sends large packets (history chunks of ~70 KB, a whole
//! parameter header) as fragments of [`FRAGMENT`] bytes, because tungstenite's write buffer
//! keeps the capacity of the largest frame it ever held.
//!
//! The policy, per spectator:
//! - every send must finish within the send timeout, else the spectator is stalled and closed
//!   (its TCP window is full: a close frame could not get through either, so it is only tried);
//! - a frame that waited for it longer than the delay bound (`--max-delay`) while a newer one
//!   is there is not sent: a `Skipped` notice and a keyframe stand in for the frames left out;
//! - one that falls more than the hub's ring behind is moved ahead: it gets every notice and
//!   record it missed that is not a frame (a new match's header included), a `Skipped`
//!   notice, then the next frame as a keyframe;
//! - one so far behind that even those are gone is closed with a reason;
//! - what it sends is read only to notice a close; messages beyond a few KB, broken frames, or
//!   more than a few dozen messages in ten seconds close it (1008).

use crate::connections::Tracked;
use crate::fanout::{Direct, Failed};
use crate::hub::{Body, CatchUp, Hub, Item};
use crate::ws_frame::{header, OP_CLOSE, OP_PING};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use pitchside_wire::{notice_packet, Notice};
use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

/// Packets larger than this go out in fragments of this size (see the module doc).
pub const FRAGMENT: usize = 16 << 10;
/// Spectators only listen: anything larger they send closes the connection.
const MAX_INCOMING: usize = 4096;
/// Keeps idle connections (a feed that waits for a server) known to be alive.
const PING_EVERY: Duration = Duration::from_secs(20);

/// Close codes the page understands (book, "WebSocket").
pub const CLOSE_FULL: u16 = 1013;
pub const CLOSE_TOO_SLOW: u16 = 4000;
pub const CLOSE_NO_MATCH: u16 = 4004;
/// The spectator broke the rules (sent too much, or broken WebSocket frames).
pub const CLOSE_POLICY: u16 = 1008;

pub type Socket = WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>;

#[derive(Clone, Debug)]
pub struct Options {
    pub send_timeout: Duration,
}

/// The tungstenite settings: small buffers, small incoming messages.
pub fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_write_buffer_size(FRAGMENT * 4)
        .max_message_size(Some(MAX_INCOMING))
        .max_frame_size(Some(MAX_INCOMING))
}

pub async fn accept(upgraded: hyper::upgrade::Upgraded) -> Socket {
    WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config())).await
}

/// Closes a socket at once with a reason (full relay, unknown match).
pub async fn refuse(mut ws: Socket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code: CloseCode::from(code),
        reason: reason.to_owned().into(),
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), ws.close(Some(frame))).await;
}

enum Stop {
    /// The peer went away or an error occurred: nothing to say.
    Gone,
    /// Close with this code and reason.
    Close(u16, String),
}

fn stalled() -> Stop {
    Stop::Close(
        CLOSE_TOO_SLOW,
        "stalled: the relay could not send to this page for too long".into(),
    )
}

/// How packets reach one spectator: through tungstenite ([`Ws`], for TLS) or written
/// straight into its socket, by itself and by the hub's fan-out ([`DirectOut`]).
trait Out {
    /// One packet as a binary message, within the send timeout.
    async fn send(&mut self, packet: &Bytes) -> Result<(), Stop>;
    /// A live item: its packet, or for a frame its delta or its keyframe.
    async fn send_item(&mut self, item: &Item, key: bool) -> Result<(), Stop>;
    async fn ping(&mut self) -> Result<(), Stop>;
    async fn close(&mut self, code: u16, reason: String);
    /// Hands the spectator, which has every item before `next`, to the hub's fan-out and serves
    /// it there until the fan-out lets go (it fell the ring behind): returns the first item it
    /// did not get. `None` when it cannot be handed over (a TLS socket).
    async fn follow(
        &mut self,
        _hub: &Arc<Hub>,
        _next: u64,
        _ping: &mut tokio::time::Interval,
    ) -> Result<Option<u64>, Stop> {
        Ok(None)
    }
    /// Leaves the fan-out, if it is in it.
    fn leave(&mut self, _hub: &Hub) {}
}

/// A spectator through tungstenite: every send framed and written by its own task.
struct Ws {
    sink: futures_util::stream::SplitSink<Socket, Message>,
    hub: Arc<Hub>,
    timeout: Duration,
}

impl Out for Ws {
    async fn send(&mut self, packet: &Bytes) -> Result<(), Stop> {
        let packet = packet.clone();
        let len = packet.len();
        let timeout = self.timeout;
        let sink = &mut self.sink;
        let res = if len <= FRAGMENT {
            within(timeout, sink.send(Message::Binary(packet))).await
        } else {
            within(timeout, async {
                let mut start = 0;
                while start < len {
                    let end = (start + FRAGMENT).min(len);
                    let op = if start == 0 {
                        OpCode::Data(Data::Binary)
                    } else {
                        OpCode::Data(Data::Continue)
                    };
                    let frame = Frame::message(packet.slice(start..end), op, end == len);
                    sink.send(Message::Frame(frame)).await?;
                    start = end;
                }
                Ok(())
            })
            .await
        };
        match res {
            Err(_) => Err(stalled()),
            Ok(Err(_)) => Err(Stop::Gone),
            Ok(Ok(())) => {
                self.hub
                    .stats
                    .bytes_out
                    .fetch_add(len as u64, Ordering::Relaxed);
                Ok(())
            }
        }
    }

    async fn send_item(&mut self, item: &Item, key: bool) -> Result<(), Stop> {
        match &item.body {
            Body::Packet(p) => self.send(p).await,
            Body::Frame { delta, key: k } => {
                self.send(if key { k } else { delta }).await?;
                self.hub.stats.frames_out.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
        }
    }

    async fn ping(&mut self) -> Result<(), Stop> {
        let res =
            tokio::time::timeout(self.timeout, self.sink.send(Message::Ping(Bytes::new()))).await;
        match res {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Stop::Gone),
            Err(_) => Err(Stop::Close(CLOSE_TOO_SLOW, "stalled".into())),
        }
    }

    async fn close(&mut self, code: u16, reason: String) {
        let frame = CloseFrame {
            code: CloseCode::from(code),
            reason: reason.into(),
        };
        let _ = tokio::time::timeout(
            Duration::from_secs(1),
            self.sink.send(Message::Close(Some(frame))),
        )
        .await;
    }
}

/// A spectator on plain TCP: its socket is shared with the hub's fan-out, which writes live
/// items into it while it keeps up ([`crate::fanout`]).
struct DirectOut {
    conn: Arc<Direct>,
    hub: Arc<Hub>,
    timeout: Duration,
    /// In the hub's fan-out now.
    joined: bool,
}

impl DirectOut {
    async fn flush(&self) -> Result<(), Stop> {
        self.conn.flush(self.timeout).await.map_err(|e| match e {
            Failed::Stalled => stalled(),
            Failed::Gone => Stop::Gone,
        })
    }
}

impl Out for DirectOut {
    async fn send(&mut self, packet: &Bytes) -> Result<(), Stop> {
        self.conn.push_message(packet.clone());
        self.flush().await?;
        self.hub
            .stats
            .bytes_out
            .fetch_add(packet.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    async fn send_item(&mut self, item: &Item, key: bool) -> Result<(), Stop> {
        let ws = match (&item.ws_key, key) {
            (Some(k), true) => k,
            _ => &item.ws,
        };
        self.conn.push_raw(ws.clone());
        self.flush().await?;
        self.hub
            .stats
            .bytes_out
            .fetch_add(ws.len() as u64, Ordering::Relaxed);
        if matches!(item.body, Body::Frame { .. }) {
            self.hub.stats.frames_out.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    async fn ping(&mut self) -> Result<(), Stop> {
        self.conn.push_raw(Bytes::from_static(&[0x80 | OP_PING, 0]));
        self.flush().await
    }

    async fn close(&mut self, code: u16, reason: String) {
        let mut payload = code.to_be_bytes().to_vec();
        // A close frame's payload is at most 125 bytes: 2 for the code, the rest reason.
        let mut cut = reason.len().min(123);
        while !reason.is_char_boundary(cut) {
            cut -= 1;
        }
        payload.extend_from_slice(&reason.as_bytes()[..cut]);
        let (head, n) = header(OP_CLOSE, payload.len());
        let mut frame = head[..n].to_vec();
        frame.extend_from_slice(&payload);
        self.conn.push_raw(Bytes::from(frame));
        let _ = tokio::time::timeout(Duration::from_secs(1), self.conn.flush(self.timeout)).await;
    }

    async fn follow(
        &mut self,
        hub: &Arc<Hub>,
        next: u64,
        ping: &mut tokio::time::Interval,
    ) -> Result<Option<u64>, Stop> {
        hub.join_fan(&self.conn, next);
        self.joined = true;
        loop {
            tokio::select! {
                () = self.conn.wake.notified() => {}
                _ = ping.tick() => {
                    self.conn.push_raw(Bytes::from_static(&[0x80 | OP_PING, 0]));
                }
            }
            let waited = self.conn.is_blocked();
            self.flush().await?;
            if waited {
                // The fan-out skipped it while the socket was full; it takes its turn again
                // now rather than with the next item.
                hub.poke_fan();
            }
            if self.conn.is_broken() {
                return Err(Stop::Gone);
            }
            if let Some(at) = self.conn.take_released() {
                self.joined = false;
                return Ok(Some(at));
            }
        }
    }

    fn leave(&mut self, hub: &Hub) {
        if std::mem::take(&mut self.joined) {
            hub.leave_fan(&self.conn);
        }
    }
}

/// `fut` with a time limit. Almost every send completes at its first poll (the socket has
/// room), so the timer, a shared structure 10,000 spectators would otherwise touch ten times
/// a second each, is only armed for the sends that have to wait.
async fn within<F: Future>(
    limit: Duration,
    fut: F,
) -> Result<F::Output, tokio::time::error::Elapsed> {
    let mut fut = std::pin::pin!(fut);
    let first = std::future::poll_fn(|cx| std::task::Poll::Ready(fut.as_mut().poll(cx))).await;
    if let std::task::Poll::Ready(out) = first {
        return Ok(out);
    }
    tokio::time::timeout(limit, fut).await
}

/// Serves one spectator until it leaves, stalls, or the relay stops. On plain TCP its socket
/// joins the hub's fan-out whenever it is caught up; over TLS it is served by its own task.
pub async fn serve(
    upgraded: hyper::upgrade::Upgraded,
    hub: Arc<Hub>,
    opts: Options,
    stop: watch::Receiver<bool>,
) {
    hub.stats.joins.fetch_add(1, Ordering::Relaxed);
    match upgraded.downcast::<TokioIo<Tracked>>() {
        Ok(parts) => {
            let (tcp, slot) = parts.io.into_inner().into_parts();
            let conn = Direct::new(tcp, slot);
            let reader = Reader {
                conn: conn.clone(),
                pending: parts.read_buf,
            };
            let incoming =
                WebSocketStream::from_raw_socket(reader, Role::Server, Some(config())).await;
            let out = DirectOut {
                conn,
                hub: hub.clone(),
                timeout: opts.send_timeout,
                joined: false,
            };
            run(out, incoming, hub, stop).await;
        }
        Err(upgraded) => {
            let ws = accept(upgraded).await;
            let (sink, incoming) = ws.split();
            let out = Ws {
                sink,
                hub: hub.clone(),
                timeout: opts.send_timeout,
            };
            run(out, incoming, hub, stop).await;
        }
    }
}

async fn run<O, S>(mut out: O, incoming: S, hub: Arc<Hub>, mut stop: watch::Receiver<bool>)
where
    O: Out,
    S: futures_util::Stream<Item = Result<Message, WsError>> + Unpin + Send + 'static,
{
    // Reading runs in its own task: polled beside the sending loop, the read half would be
    // polled (a lock and a readiness check) at every frame, for nothing.
    let (gone_tx, mut gone) = tokio::sync::oneshot::channel::<Option<String>>();
    let reader = tokio::spawn(async move {
        let why = drain(incoming).await;
        let _ = gone_tx.send(why);
    });
    let res = tokio::select! {
        biased;
        res = stream(&mut out, &hub) => res,
        why = &mut gone => match why {
            Ok(Some(reason)) => Err(Stop::Close(CLOSE_POLICY, reason)),
            _ => Err(Stop::Gone),
        },
        () = crate::stopped(&mut stop) => Err(Stop::Close(1001, "the relay is shutting down".into())),
    };
    out.leave(&hub);
    reader.abort();
    if let Err(Stop::Close(code, reason)) = res {
        if code == CLOSE_TOO_SLOW {
            hub.stats.closed_slow.fetch_add(1, Ordering::Relaxed);
            tracing::info!("{}: closing a spectator: {reason}", hub.name);
        }
        out.close(code, reason).await;
    }
}

/// The read side of a spectator's shared socket, for tungstenite: bytes hyper read past the
/// request first, then the socket. What tungstenite writes (pongs, the answer to a close) is
/// queued behind whole messages ([`Direct::push_raw`]), never in the middle of one.
struct Reader {
    conn: Arc<Direct>,
    pending: Bytes,
}

impl tokio::io::AsyncRead for Reader {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        if !self.pending.is_empty() {
            let n = self.pending.len().min(buf.remaining());
            let head = self.pending.split_to(n);
            buf.put_slice(&head);
            return Poll::Ready(Ok(()));
        }
        let tcp = self.conn.tcp();
        loop {
            match tcp.poll_read_ready(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {}
            }
            match tcp.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl tokio::io::AsyncWrite for Reader {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        self.conn.push_raw(Bytes::copy_from_slice(buf));
        std::task::Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

/// Messages a spectator may send in [`CHATTER_WINDOW`]: a page sends none but pongs and its
/// close; more is someone keeping the relay busy on purpose.
const MAX_CHATTER: u32 = 64;
const CHATTER_WINDOW: Duration = Duration::from_secs(10);

/// Reads until the peer closes; what a spectator sends means nothing (pings are answered by
/// tungstenite while writing). Returns why it stopped reading: `Some` for a spectator to be
/// closed with that reason.
async fn drain<S>(mut incoming: S) -> Option<String>
where
    S: futures_util::Stream<Item = Result<Message, WsError>> + Unpin,
{
    let mut window = tokio::time::Instant::now();
    let mut heard = 0u32;
    while let Some(msg) = incoming.next().await {
        match msg {
            Ok(Message::Close(_)) => return None,
            Err(e) => {
                return match e {
                    tokio_tungstenite::tungstenite::Error::Capacity(_) => {
                        Some("a spectator's messages may be at most 4 KB".into())
                    }
                    tokio_tungstenite::tungstenite::Error::Protocol(p) => {
                        Some(format!("WebSocket protocol error: {p}"))
                    }
                    _ => None,
                }
            }
            Ok(_) => {
                let now = tokio::time::Instant::now();
                if now.duration_since(window) > CHATTER_WINDOW {
                    window = now;
                    heard = 0;
                }
                heard += 1;
                if heard > MAX_CHATTER {
                    return Some("spectators only listen: too many messages".into());
                }
            }
        }
    }
    None
}

async fn stream<O: Out>(out: &mut O, hub: &Arc<Hub>) -> Result<(), Stop> {
    let mut sub = hub.subscribe();
    for p in std::mem::take(&mut sub.packets) {
        out.send(&p).await?;
    }
    let mut next = sub.next;
    let mut live = Some(sub.live);
    let mut need_key = false;
    // Frames left out for waiting longer than the bound, not yet told.
    let mut late = 0u32;
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        // With the last frame sent, the fan-out can take over (see `Out::follow`). One it let
        // go of is moved ahead here first (a keyframe, once what it must not miss is sent),
        // and handed back after.
        // The newest frame when it was let go: it goes on from there at once, then with what
        // was published after that frame and before `head`.
        let mut newest = None;
        let mut head = None;
        if !need_key {
            if let Some(released) = out.follow(hub, next, &mut ping).await? {
                next = released;
                live = None;
                need_key = true;
            }
        }
        let rx = match &mut live {
            Some(rx) => rx,
            None => {
                let (rx, frame, next_live) = hub.resubscribe();
                newest = frame.filter(|f| f.index >= next);
                head = newest.as_ref().map(|_| next_live);
                live.insert(rx)
            }
        };
        let item: Arc<Item> = if let Some(frame) = newest {
            frame
        } else {
            tokio::select! {
                biased;
            got = rx.recv() => match got {
                Ok(item) => item,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => {
                    return Err(Stop::Close(1001, "the relay is shutting down".into()))
                }
            },
            _ = ping.tick() => {
                out.ping().await?;
                continue;
            }
            }
        };
        if item.index < next {
            continue;
        }
        if item.index > next {
            // Moved ahead by the ring: fetch what must not be missed.
            match hub.catch_up(next, item.index) {
                CatchUp::Items(missed) => {
                    let frames = (item.index - next) as usize - missed.len();
                    hub.stats.lag_skips.fetch_add(1, Ordering::Relaxed);
                    hub.stats
                        .skipped_frames
                        .fetch_add(frames as u64, Ordering::Relaxed);
                    for m in missed {
                        if let Body::Packet(p) = &m.body {
                            out.send(p).await?;
                        }
                    }
                    let n = Notice::Skipped {
                        frames: frames as u32,
                    };
                    out.send(&Bytes::from(notice_packet(&n))).await?;
                    need_key = true;
                }
                CatchUp::TooFarBehind => {
                    return Err(Stop::Close(
                        CLOSE_TOO_SLOW,
                        "too far behind: reload the page to start again".into(),
                    ))
                }
            }
        }
        next = item.index + 1;
        let frame = matches!(item.body, Body::Frame { .. });
        if frame && !rx.is_empty() && item.at.elapsed() > hub.max_delay() {
            // Too old to be live, and something newer is already here.
            late += 1;
            need_key = true;
            continue;
        }
        if frame && late > 0 {
            hub.stats.lag_skips.fetch_add(1, Ordering::Relaxed);
            for counter in [&hub.stats.skipped_frames, &hub.stats.late_frames] {
                counter.fetch_add(u64::from(late), Ordering::Relaxed);
            }
            let n = Notice::Skipped {
                frames: std::mem::take(&mut late),
            };
            out.send(&Bytes::from(notice_packet(&n))).await?;
        }
        let key = frame && std::mem::take(&mut need_key);
        out.send_item(&item, key).await?;
        if let Some(head) = head.filter(|&h| h > next) {
            // Let go after its newest frame: what came after it, before the live items.
            if let CatchUp::Items(after) = hub.catch_up(next, head) {
                for m in after {
                    if let Body::Packet(p) = &m.body {
                        out.send(p).await?;
                    }
                }
                next = head;
            }
        }
    }
}
