//! Client connections: who may open one, how long one may take to say what it wants, how long
//! one may sit idle, and how many one address may hold.
//!
//! The relay is meant to be reachable by anyone with a match's URL, so a client that opens
//! sockets and says nothing must not be able to take the match away from everyone else:
//! - a request's head must be complete within the header time limit of its first byte
//!   (trickling a byte at a time does not extend it), and a TLS handshake within its own
//!   limit of the connection's accept;
//! - a connection with no request under way and no byte moved for the idle limit is closed
//!   (keep-alive connections a browser forgot, and downloads nobody reads);
//! - one address (an IPv4 address or an IPv6 /64) holds at most `per_address` connections,
//!   WebSocket spectators included;
//! - the relay never opens more connections than its open-files limit allows less a reserve
//!   (UDP sockets, recordings, NATS, static files): when the table is full, the connection
//!   that has been idle longest gives way to the new one, so idle or half-sent sockets can
//!   never keep a new spectator, the operator or `/healthz` out; while evicted sockets are
//!   still closing, newcomers wait in the kernel's accept queue. (Only when every place is
//!   held by a spectator or a request being answered is the newcomer refused: the per-address
//!   cap bounds what one client can hold.)
//!
//! Refusals and closes are counted for `/metrics`; a refused address is logged once (again
//! only after [`LOG_AGAIN`]), never once per attempt.
//!
//! Connections are served here rather than by `axum::serve` because it has no hook for any
//! of this: each one is an HTTP/1.1 connection of hyper's (browsers speak nothing else to the
//! relay: HTTP/2 is not offered, see [`crate::tls`]) with a watchdog beside it.

use crate::ClientAddr;
use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};

/// A refused address is logged again only after this long.
pub const LOG_AGAIN: Duration = Duration::from_secs(600);
/// Addresses remembered as logged. When it is full, those logged longer than [`LOG_AGAIN`]
/// ago are forgotten; if that frees nothing, further addresses go unlogged (still counted)
/// until it does, so a flood from many addresses can neither grow the relay's memory nor
/// its log.
const LOGGED_CAP: usize = 4096;
/// Descriptors kept for everything that is not a client connection: the listener, each
/// match's UDP socket and recording, NATS, static files being served, the runtime's own.
pub const RESERVED_FDS: u64 = 64;
/// Evicted sockets still closing beyond which newcomers are refused: half the reserve.
const MAX_CLOSING: usize = (RESERVED_FDS / 2) as usize;
/// Longest the accept loop waits for evicted sockets to close before admitting (or, if
/// they are still closing, refusing) the next newcomer.
const ROOM_WAIT: Duration = Duration::from_secs(1);
/// Reserved in addition per match.
pub const RESERVED_FDS_PER_MATCH: u64 = 4;
/// Longest request head accepted (hyper's buffer for it): a browser's is under 2 KB.
const MAX_HEAD: usize = 16 << 10;

/// The limits, from the command line or the config file (book, "Connections").
#[derive(Clone, Debug)]
pub struct Limits {
    /// From a request's first byte to the end of its head.
    pub header_timeout: Duration,
    /// No request under way and nothing read or written for this long: closed.
    pub idle_timeout: Duration,
    /// From a TLS connection's accept to the end of its handshake.
    pub handshake_timeout: Duration,
    /// Connections one address may hold.
    pub per_address: usize,
    /// Connections in all; `None`: the open-files limit less the reserve.
    pub max_connections: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            handshake_timeout: Duration::from_secs(10),
            per_address: 256,
            max_connections: None,
        }
    }
}

/// The connections one address may hold count together: an IPv4 address, or an IPv6 /64
/// (one host is usually given a whole /64, and can pick any address inside it).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// Connections the open-files limit leaves room for, with `matches` matches.
pub fn connections_for_open_files(limit: u64, matches: usize) -> usize {
    let reserve = RESERVED_FDS + RESERVED_FDS_PER_MATCH * matches as u64;
    usize::try_from(limit.saturating_sub(reserve))
        .unwrap_or(usize::MAX)
        .max(1)
}

/// Why a connection was refused or closed early, for `/metrics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Refused: its address already held `per_address` connections.
    PerAddress,
    /// Refused: the table was full and nothing in it was idle.
    Full,
    /// Closed: its request head took longer than the header limit.
    HeaderTimeout,
    /// Closed: its TLS handshake took longer than its limit (a failed one is not counted:
    /// the peer closed it or spoke something else).
    Handshake,
    /// Closed: idle for the idle limit.
    Idle,
    /// Closed: the table was full and this one had been idle longest.
    Evicted,
}

impl Reason {
    pub const ALL: [Reason; 6] = [
        Reason::PerAddress,
        Reason::Full,
        Reason::HeaderTimeout,
        Reason::Handshake,
        Reason::Idle,
        Reason::Evicted,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Reason::PerAddress => "per_address",
            Reason::Full => "full",
            Reason::HeaderTimeout => "header_timeout",
            Reason::Handshake => "tls_handshake",
            Reason::Idle => "idle",
            Reason::Evicted => "evicted",
        }
    }

    /// A refusal at the door, rather than a close of an open connection.
    pub fn is_refusal(self) -> bool {
        matches!(self, Reason::PerAddress | Reason::Full)
    }
}

/// One connection's state, shared by its IO (which notes bytes moving), its requests (which
/// note their start and end) and the table (which may ask it to go).
struct Conn {
    id: u64,
    key: IpAddr,
    /// Milliseconds since the table's epoch of the last byte read or written.
    last_active: AtomicU64,
    /// When the first byte of a request head (or of a TLS handshake) arrived; 0: no head
    /// is being read.
    head_started: AtomicU64,
    /// A request is being answered (its handler runs).
    in_request: AtomicBool,
    /// It became a WebSocket: no longer HTTP's to time out or evict.
    upgraded: AtomicBool,
    /// Told to go by the table (evicted).
    evict: Notify,
}

struct Inner {
    conns: HashMap<u64, Arc<Conn>>,
    per_key: HashMap<IpAddr, usize>,
    logged: HashMap<IpAddr, Instant>,
    next_id: u64,
    /// Evicted connections whose sockets are not closed yet: their tasks close them when
    /// next scheduled, which on a busy machine takes a while, and until then they hold
    /// descriptors the table no longer counts.
    closing: usize,
}

/// Every open client connection, and the counts `/metrics` gives.
pub struct Table {
    limits: Limits,
    max: usize,
    epoch: Instant,
    inner: Mutex<Inner>,
    open: AtomicUsize,
    counts: [AtomicU64; 6],
    /// Told each time an evicted connection's socket is closed ([`Table::room`]).
    closed: Notify,
}

impl Table {
    /// `max` connections in all (see [`connections_for_open_files`]).
    pub fn new(limits: Limits, max: usize) -> Table {
        Table {
            max: limits.max_connections.unwrap_or(max).max(1),
            limits,
            epoch: Instant::now(),
            inner: Mutex::new(Inner {
                conns: HashMap::new(),
                per_key: HashMap::new(),
                logged: HashMap::new(),
                next_id: 0,
                closing: 0,
            }),
            open: AtomicUsize::new(0),
            counts: Default::default(),
            closed: Notify::new(),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Connections the table admits in all.
    pub fn capacity(&self) -> usize {
        self.max
    }

    /// Connections open now, WebSockets included.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    pub fn count(&self, reason: Reason) -> u64 {
        self.counts[reason as usize].load(Ordering::Relaxed)
    }

    fn counted(&self, reason: Reason) {
        self.counts[reason as usize].fetch_add(1, Ordering::Relaxed);
    }

    fn now_ms(&self) -> u64 {
        // Never 0: 0 means "not set" in `head_started`.
        u64::try_from(self.epoch.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits a connection from `ip`, or says why not. When the table is full, the
    /// connection idle longest (not a WebSocket, no request under way) is told to go and
    /// this one takes its place.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Guard, Reason> {
        let key = address_key(ip);
        let now = self.now_ms();
        let mut inner = self.lock();
        let held = inner.per_key.get(&key).copied().unwrap_or(0);
        if held >= self.limits.per_address {
            drop(inner);
            self.refused(ip, key, Reason::PerAddress);
            return Err(Reason::PerAddress);
        }
        if inner.conns.len() >= self.max {
            // Evicting faster than evicted sockets close would spend the reserve: past
            // half of it, a newcomer is refused (its socket closed at once) instead.
            if inner.closing >= MAX_CLOSING {
                drop(inner);
                self.refused(ip, key, Reason::Full);
                return Err(Reason::Full);
            }
            match Self::idlest(&inner) {
                // It leaves the table now (its task ends in a moment): the new one has its
                // place at once, and a burst evicts a different one each time.
                Some(v) => {
                    Self::forget(&mut inner, &v);
                    inner.closing += 1;
                    self.open.fetch_sub(1, Ordering::Relaxed);
                    self.counted(Reason::Evicted);
                    v.evict.notify_one();
                }
                None => {
                    drop(inner);
                    self.refused(ip, key, Reason::Full);
                    return Err(Reason::Full);
                }
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let conn = Arc::new(Conn {
            id,
            key,
            last_active: AtomicU64::new(now),
            head_started: AtomicU64::new(0),
            in_request: AtomicBool::new(false),
            upgraded: AtomicBool::new(false),
            evict: Notify::new(),
        });
        inner.conns.insert(id, conn.clone());
        *inner.per_key.entry(key).or_insert(0) += 1;
        self.open.fetch_add(1, Ordering::Relaxed);
        Ok(Guard {
            table: self.clone(),
            conn,
        })
    }

    fn forget(inner: &mut Inner, conn: &Conn) -> bool {
        if inner.conns.remove(&conn.id).is_none() {
            return false;
        }
        if let Some(n) = inner.per_key.get_mut(&conn.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                inner.per_key.remove(&conn.key);
            }
        }
        true
    }

    /// Counts a refusal; logs it unless this address was logged lately.
    fn refused(&self, ip: IpAddr, key: IpAddr, reason: Reason) {
        self.counted(reason);
        let now = Instant::now();
        let mut inner = self.lock();
        if inner
            .logged
            .get(&key)
            .is_some_and(|t| now.saturating_duration_since(*t) < LOG_AGAIN)
        {
            return;
        }
        if inner.logged.len() >= LOGGED_CAP {
            inner
                .logged
                .retain(|_, t| now.saturating_duration_since(*t) < LOG_AGAIN);
            if inner.logged.len() >= LOGGED_CAP {
                return;
            }
        }
        inner.logged.insert(key, now);
        drop(inner);
        match reason {
            Reason::PerAddress => tracing::warn!(
                "refusing connections from {ip}: it holds {} already (--max-per-address); said once per {} min",
                self.limits.per_address,
                LOG_AGAIN.as_secs() / 60
            ),
            _ => tracing::warn!(
                "refusing a connection from {ip}: {} connections open and none idle; said once per {} min",
                self.max,
                LOG_AGAIN.as_secs() / 60
            ),
        }
    }
}

/// A connection's place in the table, held by its IO: it is given back when the socket is
/// closed, however long it lived (as a WebSocket, long after its HTTP part ended).
struct Guard {
    table: Arc<Table>,
    conn: Arc<Conn>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut inner = self.table.lock();
        if Table::forget(&mut inner, &self.conn) {
            self.table.open.fetch_sub(1, Ordering::Relaxed);
        } else {
            // Evicted earlier; its socket (dropped just before this guard) is closed now.
            inner.closing = inner.closing.saturating_sub(1);
            self.table.closed.notify_waiters();
        }
    }
}

/// A TCP stream that notes every byte moving in its connection's state.
pub struct Tracked {
    inner: TcpStream,
    guard: Guard,
}

impl Tracked {
    fn moved(&self, read: bool) {
        let conn = &self.guard.conn;
        if conn.upgraded.load(Ordering::Relaxed) {
            // A WebSocket's bytes are the spectator's business (crate::spectator).
            return;
        }
        let now = self.guard.table.now_ms();
        conn.last_active.store(now, Ordering::Relaxed);
        if read
            && !conn.in_request.load(Ordering::Relaxed)
            && conn.head_started.load(Ordering::Relaxed) == 0
        {
            conn.head_started.store(now, Ordering::Relaxed);
        }
    }

    /// The socket, and what holds its place in the table (given back when dropped), for a
    /// WebSocket whose writes are shared ([`crate::fanout`]): its bytes are the spectator's
    /// business from then on.
    pub fn into_parts(self) -> (TcpStream, Box<dyn Send + Sync>) {
        (self.inner, Box::new(self.guard))
    }

    /// The first bytes, left in the socket (to tell TLS from plain HTTP).
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.peek(buf).await?;
        if n > 0 {
            self.moved(true);
        }
        Ok(n)
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let res = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(res, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.moved(true);
        }
        res
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let res = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(res, Poll::Ready(Ok(n)) if n > 0) {
            self.moved(false);
        }
        res
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let res = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(res, Poll::Ready(Ok(n)) if n > 0) {
            self.moved(false);
        }
        res
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// How a connection gets from TCP to HTTP: as it is, or through a TLS handshake
/// ([`crate::tls`]); `None` when the handshake ended the connection (a plain request
/// answered with a redirect, a client that went away).
pub trait Handshake: Clone + Send + Sync + 'static {
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    fn handshake(
        &self,
        tcp: Tracked,
        peer: SocketAddr,
    ) -> impl Future<Output = Option<Self::Io>> + Send;
}

/// Plain HTTP: no handshake.
#[derive(Clone, Copy)]
pub struct Plain;

impl Handshake for Plain {
    type Io = Tracked;
    async fn handshake(&self, tcp: Tracked, _peer: SocketAddr) -> Option<Tracked> {
        Some(tcp)
    }
}

/// Accepts and serves connections on `listener` until `stop` turns true, then lets the
/// requests under way finish (a few seconds at most) and returns.
pub async fn serve<H: Handshake>(
    listener: TcpListener,
    table: Arc<Table>,
    handshake: H,
    tune: fn(&mut TcpStream),
    app: axum::Router,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let mut accept_errors = ErrorLog::default();
    let (done_tx, mut done_rx) = tokio::sync::mpsc::channel::<()>(1);
    loop {
        tokio::select! {
            () = table.room(ROOM_WAIT) => {}
            () = crate::stopped(&mut stop) => break,
        }
        let accepted = tokio::select! {
            r = listener.accept() => r,
            () = crate::stopped(&mut stop) => break,
        };
        let (mut tcp, peer) = match accepted {
            Ok(conn) => conn,
            Err(e) => {
                if is_connection_error(&e) {
                    continue;
                }
                // Out of descriptors after all (something beside the relay holds them, or
                // the reserve was too small): make room, and wait a moment rather than spin.
                table.evict_one();
                accept_errors.note(&e);
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let guard = match table.admit(peer.ip()) {
            Ok(g) => g,
            // Dropped: closed at once, before a byte is read.
            Err(_) => continue,
        };
        tune(&mut tcp);
        let io = Tracked { inner: tcp, guard };
        let conn = io.guard.conn.clone();
        let table = table.clone();
        let handshake = handshake.clone();
        let app = app.clone();
        let stop = stop.clone();
        let done = done_tx.clone();
        tokio::spawn(async move {
            connection(io, conn, peer, table, handshake, app, stop).await;
            drop(done);
        });
    }
    drop(listener);
    drop(done_tx);
    // Every connection task holds a sender: all gone, all done.
    let _ = tokio::time::timeout(Duration::from_secs(5), done_rx.recv()).await;
    Ok(())
}

impl Table {
    /// True while a newcomer could only be refused: the table is full and as many evicted
    /// sockets are still closing as the reserve allows.
    fn saturated(&self) -> bool {
        let inner = self.lock();
        inner.conns.len() >= self.max && inner.closing >= MAX_CLOSING
    }

    /// Waits, at most `within`, until a newcomer can be admitted. While evicted sockets are
    /// still closing (their tasks not yet scheduled, on a busy machine), a connection
    /// accepted now would only be refused; left in the kernel's accept queue it holds no
    /// descriptor of the relay's and is admitted a moment later, when one has closed.
    async fn room(&self, within: Duration) {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let closed = self.closed.notified();
            tokio::pin!(closed);
            // Registered before looking, so a close in between is not missed.
            closed.as_mut().enable();
            if !self.saturated() {
                return;
            }
            if tokio::time::timeout_at(deadline, closed).await.is_err() {
                return;
            }
        }
    }

    /// The connection idle longest with no request under way, not a spectator: the one to
    /// close when another needs its place.
    fn idlest(inner: &Inner) -> Option<Arc<Conn>> {
        inner
            .conns
            .values()
            .filter(|c| {
                !c.upgraded.load(Ordering::Relaxed) && !c.in_request.load(Ordering::Relaxed)
            })
            .min_by_key(|c| c.last_active.load(Ordering::Relaxed))
            .cloned()
    }

    /// Tells the connection idle longest to go (used when even accepting failed).
    fn evict_one(&self) {
        let mut inner = self.lock();
        if let Some(v) = Self::idlest(&inner) {
            Self::forget(&mut inner, &v);
            inner.closing += 1;
            self.open.fetch_sub(1, Ordering::Relaxed);
            self.counted(Reason::Evicted);
            v.evict.notify_one();
        }
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Accept errors logged at most once every ten seconds, with how many there were.
#[derive(Default)]
struct ErrorLog {
    last: Option<Instant>,
    unsaid: u64,
}

impl ErrorLog {
    fn note(&mut self, e: &io::Error) {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.saturating_duration_since(t) < Duration::from_secs(10))
        {
            self.unsaid += 1;
            return;
        }
        tracing::error!(
            "accepting a connection: {e} ({} more since the last report)",
            self.unsaid
        );
        self.last = Some(now);
        self.unsaid = 0;
    }
}

/// One connection from its first byte to its end (or to its upgrade: the WebSocket then
/// lives on in its own task, holding the connection's place in the table).
async fn connection<H: Handshake>(
    io: Tracked,
    conn: Arc<Conn>,
    peer: SocketAddr,
    table: Arc<Table>,
    handshake: H,
    app: axum::Router,
    mut stop: watch::Receiver<bool>,
) {
    let limits = table.limits().clone();
    let shaken = tokio::select! {
        r = tokio::time::timeout(limits.handshake_timeout, handshake.handshake(io, peer)) => r,
        () = conn.evict.notified() => return,
        () = crate::stopped(&mut stop) => return,
    };
    let io = match shaken {
        Ok(Some(io)) => io,
        Ok(None) => return,
        Err(_) => {
            table.counted(Reason::Handshake);
            tracing::debug!(
                "{peer}: no TLS handshake within {:?}",
                limits.handshake_timeout
            );
            return;
        }
    };
    let service = {
        let conn = conn.clone();
        hyper::service::service_fn(move |mut req: axum::http::Request<hyper::body::Incoming>| {
            let app = app.clone();
            let conn = conn.clone();
            conn.in_request.store(true, Ordering::Relaxed);
            conn.head_started.store(0, Ordering::Relaxed);
            req.extensions_mut().insert(ConnectInfo(ClientAddr(peer)));
            async move {
                use tower::ServiceExt;
                let res = match app.oneshot(req.map(axum::body::Body::new)).await {
                    Ok(res) => res,
                    Err(never) => match never {},
                };
                if res.status() == StatusCode::SWITCHING_PROTOCOLS {
                    conn.upgraded.store(true, Ordering::Relaxed);
                }
                conn.in_request.store(false, Ordering::Relaxed);
                Ok::<_, std::convert::Infallible>(res)
            }
        })
    };
    let http = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD.max(8192))
        .serve_connection(hyper_util::rt::TokioIo::new(io), service)
        .with_upgrades();
    let mut http = std::pin::pin!(http);
    let mut draining = false;
    loop {
        let deadline =
            tokio::time::Instant::from_std(table.epoch + watchdog(&conn, &limits, table.now_ms()));
        tokio::select! {
            res = http.as_mut() => {
                if let Err(e) = res {
                    tracing::debug!("{peer}: {e}");
                }
                return;
            }
            () = tokio::time::sleep_until(deadline) => {
                if conn.upgraded.load(Ordering::Relaxed) {
                    // Handing over to the WebSocket: hyper finishes in a moment.
                    continue;
                }
                let now = table.now_ms();
                let started = conn.head_started.load(Ordering::Relaxed);
                if started != 0 && now >= started + millis(limits.header_timeout) {
                    table.counted(Reason::HeaderTimeout);
                    tracing::debug!("{peer}: request head not complete within {:?}", limits.header_timeout);
                    return;
                }
                let idle = now.saturating_sub(conn.last_active.load(Ordering::Relaxed));
                if started == 0
                    && !conn.in_request.load(Ordering::Relaxed)
                    && idle >= millis(limits.idle_timeout)
                {
                    table.counted(Reason::Idle);
                    return;
                }
            }
            () = conn.evict.notified() => return,
            () = crate::stopped(&mut stop), if !draining => {
                draining = true;
                http.as_mut().graceful_shutdown();
            }
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// When the watchdog next looks at a connection, as a time since the table's epoch: the end
/// of its header limit while a head is being read, else the end of its idle limit; a request
/// under way is looked at again an idle limit from now, and left alone.
fn watchdog(conn: &Conn, limits: &Limits, now: u64) -> Duration {
    let started = conn.head_started.load(Ordering::Relaxed);
    let at = if conn.in_request.load(Ordering::Relaxed) {
        now.saturating_add(millis(limits.idle_timeout))
    } else if started != 0 {
        started.saturating_add(millis(limits.header_timeout))
    } else {
        conn.last_active
            .load(Ordering::Relaxed)
            .saturating_add(millis(limits.idle_timeout))
    };
    // Never in the past: a connection at its limit is closed on this look, not spun on.
    Duration::from_millis(at.max(now).saturating_add(5))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(per_address: usize, max: usize) -> Arc<Table> {
        Arc::new(Table::new(
            Limits {
                per_address,
                ..Limits::default()
            },
            max,
        ))
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_ipv6_host_counts_as_its_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(
            address_key(ip("2001:db8:1:2:aaaa::1")),
            address_key(ip("2001:db8:1:2:bbbb::9"))
        );
        assert_ne!(
            address_key(ip("2001:db8:1:2::1")),
            address_key(ip("2001:db8:1:3::1"))
        );
        assert_eq!(address_key(ip("::ffff:10.0.0.1")), ip("10.0.0.1"));
        assert_ne!(address_key(ip("10.0.0.1")), address_key(ip("10.0.0.2")));
    }

    #[test]
    fn one_address_holds_at_most_its_share_and_gets_it_back_on_close() {
        let t = table(3, 100);
        let held: Vec<_> = (0..3).map(|_| t.admit(ip("10.0.0.1")).unwrap()).collect();
        assert_eq!(t.admit(ip("10.0.0.1")).err(), Some(Reason::PerAddress));
        // Another address is not affected, nor another host of a different /64.
        let other = t.admit(ip("10.0.0.2")).unwrap();
        assert_eq!(t.open(), 4);
        drop(held);
        assert_eq!(t.open(), 1);
        assert!(t.admit(ip("10.0.0.1")).is_ok());
        drop(other);
        assert_eq!(t.count(Reason::PerAddress), 1);
    }

    #[test]
    fn a_full_table_makes_room_by_closing_the_longest_idle_and_never_a_websocket() {
        let t = table(100, 3);
        let a = t.admit(ip("10.0.0.1")).unwrap();
        let b = t.admit(ip("10.0.0.1")).unwrap();
        let c = t.admit(ip("10.0.0.1")).unwrap();
        // `a` is a spectator, `b` is being answered, `c` moved bytes later than `b`.
        a.conn.upgraded.store(true, Ordering::Relaxed);
        b.conn.last_active.store(10, Ordering::Relaxed);
        c.conn.last_active.store(20, Ordering::Relaxed);
        b.conn.in_request.store(true, Ordering::Relaxed);
        // The newcomer takes `c`'s place: the only one idle.
        let d = t.admit(ip("10.0.0.9")).unwrap();
        assert_eq!(t.count(Reason::Evicted), 1);
        assert_eq!(t.open(), 3);
        // `c` is out of the table already: its guard dropping later changes nothing.
        drop(c);
        assert_eq!(t.open(), 3);
        // With `d` busy too, nothing can give way: refused.
        d.conn.in_request.store(true, Ordering::Relaxed);
        assert_eq!(t.admit(ip("10.0.0.9")).err(), Some(Reason::Full));
        assert_eq!(t.count(Reason::Full), 1);
        drop((a, b, d));
        assert_eq!(t.open(), 0);
    }

    #[tokio::test]
    async fn while_evicted_sockets_close_newcomers_wait_rather_than_being_refused() {
        let t = table(1000, 1);
        // Each newcomer evicts the one before, whose socket (its guard) is still open.
        let mut held = vec![t.admit(ip("10.0.0.1")).unwrap()];
        for _ in 0..MAX_CLOSING {
            held.push(t.admit(ip("10.0.0.1")).unwrap());
        }
        assert!(t.saturated());
        assert_eq!(t.admit(ip("10.0.0.2")).err(), Some(Reason::Full));
        // The accept loop waits for room; one evicted socket closing gives it.
        let waiting = tokio::spawn({
            let t = t.clone();
            async move { t.room(Duration::from_secs(3600)).await }
        });
        tokio::task::yield_now().await;
        drop(held.remove(0));
        tokio::time::timeout(Duration::from_secs(60), waiting)
            .await
            .expect("room is made when an evicted socket closes, not at the time limit")
            .unwrap();
        assert!(!t.saturated());
        assert!(t.admit(ip("10.0.0.2")).is_ok());
    }

    #[test]
    fn the_reserve_leaves_descriptors_for_the_rest_of_the_relay() {
        assert_eq!(connections_for_open_files(1024, 1), 1024 - 68);
        assert_eq!(connections_for_open_files(256, 3), 256 - 76);
        // A limit below the reserve still admits someone.
        assert_eq!(connections_for_open_files(10, 1), 1);
    }

    #[test]
    fn a_refused_address_is_logged_once_in_a_while_not_once_per_attempt() {
        let t = table(0, 10);
        for _ in 0..100 {
            assert!(t.admit(ip("10.0.0.1")).is_err());
        }
        assert_eq!(t.count(Reason::PerAddress), 100);
        assert_eq!(t.lock().logged.len(), 1);
        for i in 0..(LOGGED_CAP + 10) {
            let a = IpAddr::from(std::net::Ipv4Addr::from(0x0b00_0000 + i as u32));
            let _ = t.admit(a);
        }
        // Remembered addresses stay capped.
        assert!(t.lock().logged.len() <= LOGGED_CAP);
    }
}
