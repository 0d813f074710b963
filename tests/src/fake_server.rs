//! A fake rcssserver for tests: listens on a "player port", and for every `(dispinit …)`
//! answers from a new UDP socket (as the real server does) with the datagrams of a real
//! capture, at a fixed pace. It records every datagram it receives, on which port, so tests
//! can check what the relay said (init, compression, commands, goodbye). It can refuse an init
//! from the player port as the real server does (`(error no_more_monitor)`), play a different
//! script to each successive init (a server restarting with a new match), slip in garbage,
//! forge datagrams from other ports or another loopback address before and after
//! registration, flood the relay with forgeries, and go silent for a while. Like the real
//! server, it can answer a monitor's command on its port (`(msg T 1 "(ok change_mode)")`), for
//! commands starting with a given text.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::UdpSocket;

/// A log's match as a v5 monitor gets it from the server: its parameters, player types and
/// shows, each a datagram ending in a NUL, with whether it is a show.
pub fn monitor_datagrams(m: &rcss_formats::Match) -> Vec<(bool, Vec<u8>)> {
    use rcss_formats::Record;
    let mut records = Vec::new();
    records.extend(m.server_param.clone().map(Record::ServerParam));
    records.extend(m.player_param.clone().map(Record::PlayerParam));
    records.extend(m.player_types.iter().cloned().map(Record::PlayerType));
    records.extend(m.frames.iter().cloned().map(Record::Show));
    records
        .iter()
        .filter_map(|r| {
            let mut d = rcss_formats::write::monitor_datagram(r)?;
            d.push(0);
            Some((matches!(r, Record::Show(_)), d))
        })
        .collect()
}

/// One datagram the fake server received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    /// True if it arrived on the player port (where inits go), false on a monitor port.
    pub on_player_port: bool,
    pub bytes: Vec<u8>,
}

pub struct FakeServer {
    pub addr: SocketAddr,
    /// Number of `(dispinit …)` received so far.
    pub inits: Arc<AtomicUsize>,
    /// What monitors sent to their dedicated ports, in arrival order.
    pub commands: Arc<Mutex<Vec<Vec<u8>>>>,
    /// Everything received, on any port, in arrival order.
    pub received: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

#[derive(Clone, Default)]
pub struct Script {
    pub datagrams: Vec<Vec<u8>>,
    pub pace: Duration,
    /// Garbage datagrams to send before datagram `index`.
    pub garbage_at: Vec<(usize, Vec<u8>)>,
    /// Datagrams sent before datagram `index` from a socket that is not the monitor's
    /// dedicated port, as a forger on the server's host would.
    pub spoof_at: Vec<(usize, Vec<u8>)>,
    /// Answer the init from the player port with this and nothing else (a refusal).
    pub refuse: Option<Vec<u8>>,
    /// Sent to the relay right after its init and before the real answer, each from a fresh
    /// socket bound to the given IP (a forger on the server's host, or on another host).
    pub before_answer: Vec<(std::net::IpAddr, Vec<u8>)>,
    /// Wait this long after the init before answering.
    pub delay: Duration,
    /// Datagrams sent per `pace` sleep (0 or 1: one at a time). Loopback drops datagrams that
    /// overflow the receiver's buffer, so bursts stay small.
    pub burst: usize,
    /// From datagram `index` on, one datagram per this pace (a fast start, then real time).
    pub slow_from: Option<(usize, Duration)>,
    /// Answers to commands on the monitor port: a command (inflated if it was zlib) that
    /// starts with the first bytes gets the second as a reply, as the real server answers
    /// `(change_mode …)` or a malformed command.
    pub answers: Vec<(Vec<u8>, Vec<u8>)>,
    /// Inits are not answered (as if the server were not up yet) until this turns true: a
    /// test can get every spectator connected before the match starts.
    pub go: Option<tokio::sync::watch::Receiver<bool>>,
    /// Before datagram `index`, go silent this long (a network outage, a paused host).
    pub pause_at: Vec<(usize, Duration)>,
    /// From the start of the session, this many forged datagrams a second for this long from
    /// another port of the server's host (a forger on the venue network).
    pub flood: Option<(Vec<u8>, u32, Duration)>,
}

impl Script {
    pub fn new(datagrams: Vec<Vec<u8>>, pace: Duration) -> Script {
        Script {
            datagrams,
            pace,
            ..Script::default()
        }
    }
}

impl FakeServer {
    /// Every init gets the same script.
    pub async fn start(script: Script) -> FakeServer {
        Self::start_sessions(vec![script]).await
    }

    /// The n-th init gets `scripts[n]` (the last one again once they run out): a server that
    /// plays a match, goes quiet, and comes back with another.
    pub async fn start_sessions(scripts: Vec<Script>) -> FakeServer {
        assert!(!scripts.is_empty());
        let socket = Arc::new(
            UdpSocket::bind("127.0.0.1:0")
                .await
                .expect("bind fake server"),
        );
        let addr = socket.local_addr().expect("fake server address");
        let inits = Arc::new(AtomicUsize::new(0));
        let counter = inits.clone();
        let commands = Arc::new(Mutex::new(Vec::new()));
        let heard = commands.clone();
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 65536];
            loop {
                let Ok((n, peer)) = socket.recv_from(&mut buf).await else {
                    return;
                };
                if let Ok(mut l) = log.lock() {
                    l.push(Received {
                        on_player_port: true,
                        bytes: buf[..n].to_vec(),
                    });
                }
                if !buf[..n].starts_with(b"(dispinit") {
                    let _ = socket.send_to(b"(error unknown_command)\0", peer).await;
                    continue;
                }
                let next = scripts[counter.load(Ordering::SeqCst).min(scripts.len() - 1)].clone();
                if next.go.as_ref().is_some_and(|go| !*go.borrow()) {
                    continue;
                }
                let nth = counter.fetch_add(1, Ordering::SeqCst);
                let script = scripts[nth.min(scripts.len() - 1)].clone();
                if let Some(answer) = &script.refuse {
                    let _ = socket.send_to(answer, peer).await;
                    continue;
                }
                let heard = heard.clone();
                let log = log.clone();
                tokio::spawn(session(script, peer, heard, log));
            }
        });
        FakeServer {
            addr,
            inits,
            commands,
            received,
            task,
        }
    }

    /// What arrived on monitor ports, inflated where it was zlib.
    pub fn commands_plain(&self) -> Vec<Vec<u8>> {
        self.commands
            .lock()
            .map(|c| c.clone())
            .unwrap_or_default()
            .into_iter()
            .map(|c| {
                if rcss_formats::datagram::is_zlib(&c) {
                    rcss_formats::datagram::inflate(&c).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect()
    }
}

async fn session(
    script: Script,
    peer: SocketAddr,
    heard: Arc<Mutex<Vec<Vec<u8>>>>,
    log: Arc<Mutex<Vec<Received>>>,
) {
    let Ok(dedicated) = UdpSocket::bind("127.0.0.1:0").await else {
        return;
    };
    let dedicated = Arc::new(dedicated);
    let listener = dedicated.clone();
    let answers = script.answers.clone();
    let listen = tokio::spawn(async move {
        let mut buf = vec![0u8; 65536];
        while let Ok(n) = listener.recv(&mut buf).await {
            let got = &buf[..n];
            let plain = if rcss_formats::datagram::is_zlib(got) {
                rcss_formats::datagram::inflate(got).unwrap_or_default()
            } else {
                got.to_vec()
            };
            if let Some((_, reply)) = answers.iter().find(|(p, _)| plain.starts_with(p)) {
                let _ = listener.send_to(reply, peer).await;
            }
            if let Ok(mut h) = heard.lock() {
                h.push(buf[..n].to_vec());
            }
            if let Ok(mut l) = log.lock() {
                l.push(Received {
                    on_player_port: false,
                    bytes: buf[..n].to_vec(),
                });
            }
        }
    });
    for (ip, d) in &script.before_answer {
        if let Ok(forger) = UdpSocket::bind(SocketAddr::new(*ip, 0)).await {
            let _ = forger.send_to(d, peer).await;
        }
    }
    tokio::time::sleep(script.delay).await;
    let forger = UdpSocket::bind("127.0.0.1:0").await.ok();
    let flood = script.flood.clone().map(|(d, rate, span)| {
        tokio::spawn(async move {
            let Ok(s) = UdpSocket::bind("127.0.0.1:0").await else {
                return;
            };
            // In bursts of a millisecond's worth, bounded by count and time.
            let per_ms = (rate / 1000).max(1);
            let total = (u64::from(rate) * span.as_millis() as u64 / 1000).max(1);
            let mut tick = tokio::time::interval(Duration::from_millis(1));
            // A late tick is skipped, not made up in one burst: the flood's rate stays what
            // it says (a burst of hundreds would overflow the relay's socket buffer and drop
            // real datagrams with the forged ones, which no relay can prevent).
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut sent = 0u64;
            let start = std::time::Instant::now();
            while sent < total && start.elapsed() < span + Duration::from_secs(5) {
                tick.tick().await;
                for _ in 0..per_ms {
                    let _ = s.send_to(&d, peer).await;
                    sent += 1;
                }
            }
        })
    });
    for (i, d) in script.datagrams.iter().enumerate() {
        for (_, p) in script.pause_at.iter().filter(|(at, _)| *at == i) {
            tokio::time::sleep(*p).await;
        }
        for (_, g) in script.garbage_at.iter().filter(|(at, _)| *at == i) {
            let _ = dedicated.send_to(g, peer).await;
        }
        for (_, s) in script.spoof_at.iter().filter(|(at, _)| *at == i) {
            if let Some(forger) = &forger {
                let _ = forger.send_to(s, peer).await;
            }
        }
        if dedicated.send_to(d, peer).await.is_err() {
            break;
        }
        match script.slow_from {
            Some((from, pace)) if i >= from => tokio::time::sleep(pace).await,
            _ => {
                if !script.pace.is_zero() && (i + 1) % script.burst.max(1) == 0 {
                    tokio::time::sleep(script.pace).await;
                }
            }
        }
    }
    // Stay reachable for commands (e.g. the goodbye) for a while after the script.
    tokio::time::sleep(Duration::from_secs(30)).await;
    listen.abort();
    if let Some(f) = flood {
        f.abort();
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
