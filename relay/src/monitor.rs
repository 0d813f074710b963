//! The UDP side: registers with rcssserver as a monitor in any protocol it speaks, relays every
//! datagram, carries operator commands to it, and says goodbye.
//!
//! The server answers a `(dispinit …)` from a new per-monitor port and expects every later
//! command there (protocol-observed.md §1). Until it has answered, the relay believes only a
//! datagram from the server's host that parses in the protocol it asked for; once
//! registered, only that port. When the server goes quiet (game over, restart, crash) the
//! client starts over with a fresh socket and a new `(dispinit …)`, so the relay follows
//! match after match. Resolving the server's name and binding the socket are retried with a
//! message in the page, never fatal.

use crate::order::FeedOrder;
use crate::publisher::{hint_for, Publisher};
use pitchside_wire::feed::FeedSource;
use rcss_formats::command::{self, Command};
use rcss_formats::datagram::{inflate, is_zlib, parse_datagram, Datagram};
use rcss_formats::Record;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

/// The monitor protocols rcssserver 19 speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Protocol {
    V1,
    V2,
    V3,
    V4,
    V5,
    /// The 2.5D fork of rcssserver: version 5 with the ball's height.
    V6,
    Json,
}

#[derive(Debug, thiserror::Error)]
#[error(
    "unknown monitor protocol {0:?}: rcssserver speaks 1, 2, 3, 4, 5 and json (6: its 2.5D fork)"
)]
pub struct UnknownProtocol(String);

impl std::str::FromStr for Protocol {
    type Err = UnknownProtocol;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "1" => Protocol::V1,
            "2" => Protocol::V2,
            "3" => Protocol::V3,
            "4" => Protocol::V4,
            "5" => Protocol::V5,
            "6" => Protocol::V6,
            "json" | "-1" => Protocol::Json,
            _ => return Err(UnknownProtocol(s.to_owned())),
        })
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Protocol::V1 => "1",
            Protocol::V2 => "2",
            Protocol::V3 => "3",
            Protocol::V4 => "4",
            Protocol::V5 => "5",
            Protocol::V6 => "6",
            Protocol::Json => "json",
        })
    }
}

impl Protocol {
    /// The init command, as the server parses it (§1: `(dispinit)` is version 1).
    pub fn init(self) -> &'static str {
        match self {
            Protocol::V1 => "(dispinit)",
            Protocol::V2 => "(dispinit version 2)",
            Protocol::V3 => "(dispinit version 3)",
            Protocol::V4 => "(dispinit version 4)",
            Protocol::V5 => "(dispinit version 5)",
            Protocol::V6 => "(dispinit version 6)",
            Protocol::Json => "(dispinit version -1)",
        }
    }

    /// Whether an answer to the init is in this protocol: v1 sends a 2052-byte show first, v2
    /// its 2056-byte parameter structs, text versions S-expressions (which cannot tell 3, 4
    /// and 5 apart), JSON objects. rcssserver 17 answered version 5 in JSON, so 5 accepts it.
    fn answers(self, plain: &[u8]) -> bool {
        match (self, plain.first()) {
            (Protocol::V1, Some(0)) => plain.len() == 2052,
            (Protocol::V2, Some(0)) => plain.len() == 2056,
            (Protocol::V3 | Protocol::V4, Some(b'(')) => true,
            (Protocol::V5 | Protocol::V6, Some(b'(' | b'{')) => true,
            (Protocol::Json, Some(b'{')) => true,
            _ => false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct MonitorConfig {
    /// The server's player port, `HOST:PORT`; resolved again at every registration.
    pub address: String,
    pub protocol: Protocol,
    /// `(compression N)` after registering; `None` leaves it off.
    pub compression: Option<i32>,
    /// How often to repeat `(dispinit …)` while nobody answers.
    pub retry: Duration,
    /// Silence after which the server is considered gone.
    pub silence: Duration,
}

impl MonitorConfig {
    /// `address`: `HOST:PORT` (a `SocketAddr` works too).
    pub fn new(address: impl std::fmt::Display) -> Self {
        MonitorConfig {
            address: address.to_string(),
            protocol: Protocol::V5,
            compression: None,
            retry: Duration::from_secs(1),
            silence: Duration::from_secs(5),
        }
    }
}

/// A command for the server from the HTTP side (the referee controls, [`crate::control`]),
/// with where to say whether it went out and what the server answered (`(ok …)`,
/// `(error …)`), if it answered before its second show after the command.
#[derive(Debug)]
pub struct ControlRequest {
    pub command: Command,
    pub reply: oneshot::Sender<Result<Option<String>, ControlError>>,
}

/// A command sent, waiting for the server's answer. The server answers a monitor's command
/// while it reads it, before its next show; a show already on its way when the command
/// went out may come first, so the second show after it ends the wait. Commands that
/// worked get no answer at all (protocol-observed.md §5).
struct Pending {
    command: Command,
    reply: oneshot::Sender<Result<Option<String>, ControlError>>,
    shows: u8,
    /// A server that stops sending shows (paused, gone) must not hold the reply.
    deadline: Instant,
}

/// How long an operator's command waits for the server's answer at most.
const ANSWER_WAIT: Duration = Duration::from_millis(1500);

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    #[error("the relay is not registered with rcssserver right now")]
    NotRegistered,
    #[error("cannot send to rcssserver: {0}")]
    Send(String),
    #[error("this match is a replay: there is no server to command")]
    Replay,
}

enum Ended {
    Silent,
    Stopped,
}

/// Runs until `stop` turns true, then says `(dispbye)` so that the server frees the monitor
/// slot at once (with `server::max_monitors` set, a slot held by a relay that vanished stays
/// taken until the server notices).
pub async fn run(
    config: MonitorConfig,
    mut publisher: Publisher,
    mut control: mpsc::Receiver<ControlRequest>,
    mut stop: watch::Receiver<bool>,
) {
    let name = publisher.hub.name.clone();
    let mut order = FeedOrder::default();
    let mut ignored = IgnoredLog::default();
    loop {
        let wait = |msg: String| {
            tracing::warn!("{name}: {msg}");
            msg
        };
        let server = match tokio::net::lookup_host(&config.address).await {
            Ok(mut addrs) => match addrs.next() {
                Some(a) => Ok(a),
                None => Err(wait(format!(
                    "{} resolves to no address; retrying",
                    config.address
                ))),
            },
            Err(e) => Err(wait(format!(
                "cannot resolve {} ({e}); retrying",
                config.address
            ))),
        };
        let socket = match server {
            Ok(server) => {
                let bind: SocketAddr = if server.is_ipv4() {
                    SocketAddr::from(([0, 0, 0, 0], 0))
                } else {
                    SocketAddr::from(([0u16; 8], 0))
                };
                UdpSocket::bind(bind)
                    .await
                    .map(|s| {
                        crate::widen_receive_buffer(&s);
                        (s, server)
                    })
                    .map_err(|e| wait(format!("cannot open a UDP socket ({e}); retrying")))
            }
            Err(e) => Err(e),
        };
        let (socket, server) = match socket {
            Ok(s) => s,
            Err(msg) => {
                publisher.set_feed(FeedSource::Waiting, msg);
                if sleep_or_stop(config.retry, &mut stop, &mut control).await {
                    publisher.end_recording();
                    return;
                }
                continue;
            }
        };
        publisher.set_feed(
            FeedSource::Waiting,
            format!("waiting for rcssserver at {}", config.address),
        );
        let mut session = Session {
            config: &config,
            server,
            socket,
            port: None,
            compressed: false,
            refused: None,
            pending: std::collections::VecDeque::new(),
            order: &mut order,
            ignored: &mut ignored,
        };
        match session.run(&mut publisher, &mut control, &mut stop).await {
            Ended::Stopped => {
                publisher.end_recording();
                return;
            }
            Ended::Silent => {
                session.settle(&publisher);
                tracing::warn!(
                    "{name}: rcssserver at {} went quiet; registering again",
                    config.address
                );
                publisher.server_gone();
                publisher.set_feed(
                    FeedSource::Waiting,
                    format!(
                        "rcssserver at {} went quiet; waiting for it",
                        config.address
                    ),
                );
            }
        }
    }
}

/// Completes at `deadline`, or never without one.
async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

/// Answers a command that went out, and tells every spectator what the operator did (and
/// that the server refused it, when it did).
fn resolve(p: Pending, answer: Option<String>, publisher: &Publisher) {
    let mut text = p.command.describe();
    if let Some(a) = answer.as_deref().filter(|a| a.starts_with("(error")) {
        text.push_str(&format!(" — rcssserver refused it: {a}"));
    }
    publisher.hub.operator(&text);
    let _ = p.reply.send(Ok(answer));
}

/// Sleeps, answering commands with "not registered"; true if the relay is stopping.
async fn sleep_or_stop(
    d: Duration,
    stop: &mut watch::Receiver<bool>,
    control: &mut mpsc::Receiver<ControlRequest>,
) -> bool {
    let deadline = Instant::now() + d;
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(deadline) => return false,
            () = crate::stopped(stop) => return true,
            Some(req) = control.recv() => {
                let _ = req.reply.send(Err(ControlError::NotRegistered));
            }
        }
    }
}

/// Ignored datagrams are logged at most once per [`IGNORED_LOG_EVERY`]: a forger sending
/// thousands a second must not turn into thousands of log lines (they are all counted in
/// `/metrics`).
#[derive(Default)]
struct IgnoredLog {
    last: Option<Instant>,
    since: u64,
}

const IGNORED_LOG_EVERY: Duration = Duration::from_secs(10);

impl IgnoredLog {
    /// Some(number ignored unlogged since the last line) when this one should be logged.
    fn due(&mut self, now: Instant) -> Option<u64> {
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < IGNORED_LOG_EVERY)
        {
            self.since += 1;
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.since))
    }
}

struct Session<'a> {
    config: &'a MonitorConfig,
    server: SocketAddr,
    socket: UdpSocket,
    /// The server's per-monitor port, once it answered from it.
    port: Option<SocketAddr>,
    /// Whether the server now expects zlib-compressed commands.
    compressed: bool,
    /// The last refusal, so that it is logged once, not at every retry.
    refused: Option<String>,
    /// Operator commands sent and not yet answered, oldest first.
    pending: std::collections::VecDeque<Pending>,
    /// Lasts across registrations: a new one is told apart from the match before it.
    order: &'a mut FeedOrder,
    ignored: &'a mut IgnoredLog,
}

impl Session<'_> {
    async fn run(
        &mut self,
        publisher: &mut Publisher,
        control: &mut mpsc::Receiver<ControlRequest>,
        stop: &mut watch::Receiver<bool>,
    ) -> Ended {
        let mut buf = vec![0u8; 65536];
        let mut init = tokio::time::interval(self.config.retry);
        let mut flush = tokio::time::interval(Duration::from_secs(1));
        let mut heard = Instant::now();
        loop {
            let silence = heard + self.config.silence;
            let answer_by = self.pending.front().map(|p| p.deadline);
            tokio::select! {
                () = crate::stopped(stop) => {
                    break;
                }
                _ = init.tick(), if self.port.is_none() => {
                    let d = command::datagram(self.config.protocol.init(), false);
                    if let Err(e) = self.socket.send_to(&d, self.server).await {
                        tracing::debug!("{}: cannot send the init: {e}", publisher.hub.name);
                    }
                }
                _ = flush.tick() => publisher.flush(),
                _ = tokio::time::sleep_until(silence), if self.port.is_some() => {
                    // A process that was stalled (a busy host) wakes with the timer and the
                    // socket ready at once: a datagram waiting means the server spoke.
                    match self.socket.try_recv_from(&mut buf) {
                        Ok((n, peer)) => {
                            if self.datagram(&buf[..n], peer, publisher).await {
                                heard = Instant::now();
                            }
                        }
                        Err(_) => return Ended::Silent,
                    }
                }
                _ = sleep_until_some(answer_by) => {
                    let now = Instant::now();
                    while self.pending.front().is_some_and(|p| p.deadline <= now) {
                        if let Some(p) = self.pending.pop_front() {
                            resolve(p, None, publisher);
                        }
                    }
                }
                Some(req) = control.recv() => {
                    match self.command(&req.command).await {
                        Ok(()) => self.pending.push_back(Pending {
                            command: req.command,
                            reply: req.reply,
                            shows: 0,
                            deadline: Instant::now() + ANSWER_WAIT,
                        }),
                        Err(e) => {
                            let _ = req.reply.send(Err(e));
                        }
                    }
                }
                got = self.socket.recv_from(&mut buf) => match got {
                    Ok((n, peer)) => {
                        if self.datagram(&buf[..n], peer, publisher).await {
                            heard = Instant::now();
                        }
                    }
                    Err(e) => {
                        // ICMP port unreachable surfaces here on some systems: no server yet.
                        tracing::debug!("{}: receive error: {e}", publisher.hub.name);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
            }
        }
        self.bye(publisher).await;
        self.settle(publisher);
        Ended::Stopped
    }

    /// Commands still waiting went out: they are answered as sent, without a word from the
    /// server.
    fn settle(&mut self, publisher: &Publisher) {
        for p in self.pending.drain(..) {
            resolve(p, None, publisher);
        }
    }

    /// Matches the server's answers and shows in `records` to the commands waiting; true if
    /// one of them was an `(error …)` answering a command (the operator's business, not a
    /// refusal of the relay).
    fn answers(&mut self, records: &[Record], publisher: &Publisher) -> bool {
        let mut answered_error = false;
        for r in records {
            match r {
                Record::Msg(m) if command::is_answer(m) => {
                    let text = m.text_lossy();
                    let text = text.trim_end_matches('\0').to_owned();
                    // The relay's own `(compression N)` is answered too.
                    if text.starts_with("(ok compression") {
                        continue;
                    }
                    if let Some(p) = self.pending.pop_front() {
                        answered_error |= text.starts_with("(error");
                        resolve(p, Some(text), publisher);
                    }
                }
                Record::Show(_) => {
                    for p in &mut self.pending {
                        p.shows = p.shows.saturating_add(1);
                    }
                    while self.pending.front().is_some_and(|p| p.shows >= 2) {
                        if let Some(p) = self.pending.pop_front() {
                            resolve(p, None, publisher);
                        }
                    }
                }
                _ => {}
            }
        }
        answered_error
    }

    async fn command(&mut self, c: &Command) -> Result<(), ControlError> {
        let port = self.port.ok_or(ControlError::NotRegistered)?;
        let d = command::datagram(&c.text(), self.compressed);
        self.socket
            .send_to(&d, port)
            .await
            .map(|_| ())
            .map_err(|e| ControlError::Send(e.to_string()))
    }

    async fn bye(&mut self, publisher: &Publisher) {
        if let Some(port) = self.port {
            let d = command::datagram(&Command::Bye.text(), self.compressed);
            let _ = self.socket.send_to(&d, port).await;
            tracing::info!(
                "{}: said goodbye to rcssserver at {port}",
                publisher.hub.name
            );
        }
    }

    /// Handles one datagram; true if it came from the server and made sense.
    async fn datagram(&mut self, raw: &[u8], peer: SocketAddr, publisher: &mut Publisher) -> bool {
        let hub = publisher.hub.clone();
        hub.stats.datagrams_in.fetch_add(1, Ordering::Relaxed);
        let ignored = &mut *self.ignored;
        let mut ignore = |why: &str| {
            hub.stats.ignored_in.fetch_add(1, Ordering::Relaxed);
            if let Some(more) = ignored.due(Instant::now()) {
                tracing::warn!(
                    "{}: ignoring a datagram of {} bytes from {peer}: {why}{}",
                    hub.name,
                    raw.len(),
                    if more > 0 {
                        format!(" ({more} more ignored since the last such message)")
                    } else {
                        String::new()
                    }
                );
            }
            false
        };
        // Anyone who can reach the relay's port could inject frames: once registered only the
        // server's per-monitor port is believed, before that only the server's host.
        let trusted = match self.port {
            Some(port) => peer == port,
            None => peer.ip() == self.server.ip(),
        };
        if !trusted {
            return ignore("it is not from the server");
        }
        let plain = if is_zlib(raw) {
            match inflate(raw) {
                Ok(p) => std::borrow::Cow::Owned(p),
                Err(e) => return ignore(&e.to_string()),
            }
        } else {
            std::borrow::Cow::Borrowed(raw)
        };
        let parsed = match parse_datagram(&plain) {
            Ok(p) => p,
            Err(e) => return ignore(&e.to_string()),
        };
        match parsed {
            Datagram::ServerError(e) => {
                if self.port.is_none() && peer != self.server {
                    return ignore("an error from a port that is not the server's");
                }
                if self.port.is_none() && self.refused.as_deref() != Some(&e) {
                    tracing::warn!("{}: rcssserver refused the monitor: {e}", hub.name);
                    publisher.set_feed(
                        FeedSource::Waiting,
                        format!("rcssserver at {} says: {e}", self.config.address),
                    );
                    self.refused = Some(e.clone());
                } else if self.port.is_some() {
                    tracing::warn!("{}: rcssserver answered (error {e})", hub.name);
                }
                hub.server_error(&e, hint_for(&e));
                true
            }
            Datagram::Records(records) => {
                if self.port.is_none() {
                    if !self.config.protocol.answers(&plain) {
                        return ignore(&format!(
                            "it is not an answer in protocol {}",
                            self.config.protocol
                        ));
                    }
                    self.register(peer, publisher).await;
                }
                for r in &records {
                    if let Record::Msg(m) = r {
                        if let Some(level) = m.text.strip_prefix(b"(ok compression ") {
                            let level = String::from_utf8_lossy(level);
                            let n: i32 = level.trim_end_matches(')').trim().parse().unwrap_or(-1);
                            // §6: the reply comes in the old mode, then N >= 0 (0 too) turns
                            // zlib on and a negative N turns it off.
                            self.compressed = n >= 0;
                        }
                    }
                }
                let answered_error = self.answers(&records, publisher);
                let admitted = self.order.admit(records);
                if admitted.dropped > 0 {
                    hub.stats
                        .out_of_order_in
                        .fetch_add(admitted.dropped as u64, Ordering::Relaxed);
                }
                if admitted.new_match && !hub.is_empty() {
                    publisher.new_match();
                }
                publisher.records_from_server(&admitted.records, !answered_error);
                true
            }
        }
    }

    async fn register(&mut self, peer: SocketAddr, publisher: &mut Publisher) {
        self.port = Some(peer);
        self.order.registered();
        self.refused = None;
        let name = publisher.hub.name.clone();
        tracing::info!(
            "{name}: registered with rcssserver at {} (monitor port {}, protocol {})",
            self.config.address,
            peer.port(),
            self.config.protocol
        );
        // Protocol 1 sends no parameters, so nothing else marks a new match.
        if self.config.protocol == Protocol::V1 && !publisher.hub.is_empty() {
            publisher.new_match();
        }
        let mut label = format!("live from rcssserver at {}", self.config.address);
        if let Some(level) = self.config.compression {
            label.push_str(&format!(", compression {level}"));
            let d = command::datagram(&Command::Compression(level).text(), false);
            if let Err(e) = self.socket.send_to(&d, peer).await {
                tracing::warn!("{name}: cannot ask for compression: {e}");
            }
        }
        publisher.set_feed(FeedSource::Live, label);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_is_named_and_asked_for_as_the_server_parses_it() {
        for (name, init) in [
            ("1", "(dispinit)"),
            ("2", "(dispinit version 2)"),
            ("3", "(dispinit version 3)"),
            ("4", "(dispinit version 4)"),
            ("5", "(dispinit version 5)"),
            // The 2.5D fork: version 5 with the ball's height.
            ("6", "(dispinit version 6)"),
            ("json", "(dispinit version -1)"),
        ] {
            let p: Protocol = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((p.to_string().as_str(), p.init()), (name, init));
        }
        let e = "7".parse::<Protocol>().unwrap_err().to_string();
        assert!(
            e.contains("1, 2, 3, 4, 5 and json") && e.contains("6"),
            "{e}"
        );
        // A text show answers version 6 as it answers 5.
        assert!(Protocol::V6.answers(b"(show 1 ((b) 0 0 0 0 0.5))"));
    }
}
