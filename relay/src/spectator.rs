//! One spectator's WebSocket: the backlog, then live, with bounded memory and a lag policy.
//!
//! The upgrade is done here rather than with axum's `WebSocket` so that large packets (history
//! chunks of ~70 KB, a whole parameter header) can go out as fragments of [`FRAGMENT`] bytes:
//! tungstenite's write buffer keeps the capacity of the largest frame it ever held, so one
//! unfragmented 70 KB chunk per spectator would cost 10,000 spectators 700 MB for nothing.
//!
//! The policy, per spectator:
//! - every send must finish within the send timeout, else the spectator is stalled and closed
//!   (its TCP window is full: a close frame could not get through either, so it is only tried);
//! - one that falls more than the hub's ring behind is moved ahead: it gets every notice and
//!   record it missed that is not a frame (a new match's header included), a `Skipped`
//!   notice, then the next frame as a keyframe;
//! - one so far behind that even those are gone is closed with a reason;
//! - what it sends is read only to notice a close; messages beyond a few KB, broken frames, or
//!   more than a few dozen messages in ten seconds close it (1008).

use crate::hub::{Body, CatchUp, Hub, Item};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use pitchside_shared::wire::{notice_packet, Notice};
use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// Packets larger than this go out in fragments of this size (see the module doc).
pub const FRAGMENT: usize = 16 << 10;
/// Spectators only listen: anything larger they send closes the connection.
const MAX_INCOMING: usize = 4096;
/// Keeps idle connections (a feed that waits for a server) known to be alive.
const PING_EVERY: Duration = Duration::from_secs(20);

/// Close codes the page understands (README, "WebSocket").
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

struct Out {
    sink: futures_util::stream::SplitSink<Socket, Message>,
    hub: Arc<Hub>,
    timeout: Duration,
}

impl Out {
    async fn send(&mut self, packet: Bytes) -> Result<(), Stop> {
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
            Err(_) => Err(Stop::Close(
                CLOSE_TOO_SLOW,
                "stalled: the relay could not send to this page for too long".into(),
            )),
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

/// Serves one spectator until it leaves, stalls, or the relay stops.
pub async fn serve(ws: Socket, hub: Arc<Hub>, opts: Options, mut stop: watch::Receiver<bool>) {
    hub.stats.joins.fetch_add(1, Ordering::Relaxed);
    let (sink, incoming) = ws.split();
    let mut out = Out {
        sink,
        hub: hub.clone(),
        timeout: opts.send_timeout,
    };
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
    reader.abort();
    if let Err(Stop::Close(code, reason)) = res {
        if code == CLOSE_TOO_SLOW {
            hub.stats.closed_slow.fetch_add(1, Ordering::Relaxed);
            tracing::info!("{}: closing a spectator: {reason}", hub.name);
        }
        out.close(code, reason).await;
    }
}

/// Messages a spectator may send in [`CHATTER_WINDOW`]: a page sends none but pongs and its
/// close; more is someone keeping the relay busy on purpose.
const MAX_CHATTER: u32 = 64;
const CHATTER_WINDOW: Duration = Duration::from_secs(10);

/// Reads until the peer closes; what a spectator sends means nothing (pings are answered by
/// tungstenite while writing). Returns why it stopped reading: `Some` for a spectator to be
/// closed with that reason.
async fn drain(mut incoming: futures_util::stream::SplitStream<Socket>) -> Option<String> {
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

async fn stream(out: &mut Out, hub: &Arc<Hub>) -> Result<(), Stop> {
    let mut sub = hub.subscribe();
    for p in std::mem::take(&mut sub.packets) {
        out.send(p).await?;
    }
    let mut next = sub.next;
    let mut need_key = false;
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        let item: Arc<Item> = tokio::select! {
            biased;
            got = sub.live.recv() => match got {
                Ok(item) => item,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => {
                    return Err(Stop::Close(1001, "the relay is shutting down".into()))
                }
            },
            _ = ping.tick() => {
                let res = tokio::time::timeout(
                    out.timeout,
                    out.sink.send(Message::Ping(Bytes::new())),
                )
                .await;
                match res {
                    Ok(Ok(())) => continue,
                    Ok(Err(_)) => return Err(Stop::Gone),
                    Err(_) => return Err(Stop::Close(CLOSE_TOO_SLOW, "stalled".into())),
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
                            out.send(p.clone()).await?;
                        }
                    }
                    let n = Notice::Skipped {
                        frames: frames as u32,
                    };
                    out.send(Bytes::from(notice_packet(&n))).await?;
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
        match &item.body {
            Body::Packet(p) => out.send(p.clone()).await?,
            Body::Frame { delta, key } => {
                let p = if need_key { key } else { delta };
                need_key = false;
                out.send(p.clone()).await?;
                hub.stats.frames_out.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}
