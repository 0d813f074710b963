//! The UDP side: registers with rcssserver as a monitor and feeds every datagram to the hub.
//!
//! The server answers a `(dispinit …)` from a new per-monitor port and expects every later
//! command there. When the server goes quiet (game over, restart, crash) the client starts
//! over with a fresh socket and a new `(dispinit …)`, so the relay follows match after match.

use crate::hub::{Hub, Kind};
use axum::body::Bytes;
use pitchside_shared::datagram::{inflate, is_zlib, parse_datagram, Datagram};
use pitchside_shared::feed::FeedSource;
use pitchside_shared::Record;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::UdpSocket;

/// The only monitor protocol version the relay asks for (text, with focus points).
pub const MONITOR_VERSION: u32 = 5;

#[derive(Clone, Debug)]
pub struct MonitorConfig {
    pub server: SocketAddr,
    /// How often to repeat `(dispinit …)` while nobody answers.
    pub retry: Duration,
    /// Silence after which the server is considered gone.
    pub silence: Duration,
}

impl MonitorConfig {
    pub fn new(server: SocketAddr) -> Self {
        MonitorConfig {
            server,
            retry: Duration::from_secs(1),
            silence: Duration::from_secs(5),
        }
    }
}

/// Runs until `shutdown` completes, then says `(dispbye)` so that the server frees the monitor
/// slot at once (with `server::max_monitors` set, a slot held by a relay that vanished without
/// it stays taken until the server notices).
pub async fn run(
    config: MonitorConfig,
    hub: Arc<Hub>,
    shutdown: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    let dedicated = Mutex::new(None);
    tokio::select! {
        res = follow(&config, &hub, &dedicated) => res,
        () = shutdown => {
            let registered = dedicated.lock().ok().and_then(|d| d.clone());
            if let Some((socket, port)) = registered {
                let _ = socket.send_to(b"(dispbye)\0", port).await;
                tracing::info!("said goodbye to rcssserver at {port}");
            }
            Ok(())
        }
    }
}

/// Registers, relays, and registers again whenever the server goes quiet. `dedicated` holds
/// the socket and the server's per-monitor port while registered, for the goodbye.
async fn follow(
    config: &MonitorConfig,
    hub: &Hub,
    dedicated: &Mutex<Option<(Arc<UdpSocket>, SocketAddr)>>,
) -> anyhow::Result<()> {
    let mut buf = vec![0u8; 65536];
    loop {
        hub.set_feed(
            FeedSource::Waiting,
            format!("waiting for rcssserver at {}", config.server),
        );
        let bind: SocketAddr = if config.server.is_ipv4() {
            "0.0.0.0:0".parse()?
        } else {
            "[::]:0".parse()?
        };
        set(dedicated, None);
        let socket = Arc::new(UdpSocket::bind(bind).await?);
        let init = format!("(dispinit version {MONITOR_VERSION})\0");
        // The server's per-monitor port, once it has answered from it.
        let mut monitor_port: Option<SocketAddr> = None;
        loop {
            let connected = monitor_port.is_some();
            if !connected {
                if let Err(e) = socket.send_to(init.as_bytes(), config.server).await {
                    tracing::warn!("cannot reach {}: {e}", config.server);
                }
            }
            let wait = if connected {
                config.silence
            } else {
                config.retry
            };
            let (n, peer) = match tokio::time::timeout(wait, socket.recv_from(&mut buf)).await {
                Err(_) if connected => {
                    tracing::warn!(
                        "rcssserver at {} went quiet; registering again",
                        config.server
                    );
                    break;
                }
                Err(_) => continue,
                Ok(Err(e)) => {
                    // ICMP port unreachable surfaces here on some systems: no server yet.
                    tracing::debug!("receive error: {e}");
                    tokio::time::sleep(config.retry).await;
                    continue;
                }
                Ok(Ok(x)) => x,
            };
            // Anyone who can reach the relay's port could inject frames: once registered only
            // the server's per-monitor port is believed, before that only the server's host.
            let trusted = match monitor_port {
                Some(port) => peer == port,
                None => peer.ip() == config.server.ip(),
            };
            if !trusted {
                tracing::warn!("ignoring a datagram from {peer}, which is not the server");
                continue;
            }
            let raw = &buf[..n];
            let plain = if is_zlib(raw) {
                match inflate(raw) {
                    Ok(p) => p,
                    Err(e) => {
                        tracing::warn!("ignoring a datagram of {n} bytes from {peer}: {e}");
                        continue;
                    }
                }
            } else {
                raw.to_vec()
            };
            match parse_datagram(&plain) {
                Ok(Datagram::ServerError(e)) if connected => {
                    tracing::warn!("rcssserver at {peer} answered: (error {e})");
                }
                Ok(Datagram::ServerError(e)) => {
                    // E.g. `no_more_monitor`: say why in the page, and ask again later.
                    tracing::warn!("rcssserver refused the monitor: {e}");
                    hub.set_feed(
                        FeedSource::Waiting,
                        format!("rcssserver at {} says: {e}", config.server),
                    );
                    tokio::time::sleep(config.retry * 3).await;
                }
                Ok(Datagram::Records(records)) => {
                    if !connected {
                        monitor_port = Some(peer);
                        // The server answers from the port it opened for this monitor and
                        // expects every later command there.
                        set(dedicated, Some((socket.clone(), peer)));
                        tracing::info!(
                            "registered with rcssserver at {} (monitor port {})",
                            config.server,
                            peer.port()
                        );
                        hub.set_feed(
                            FeedSource::Live,
                            format!("live from rcssserver at {}", config.server),
                        );
                    }
                    hub.publish(kind_of(&records), Bytes::from(plain));
                }
                Err(e) => {
                    tracing::warn!("ignoring a malformed datagram of {n} bytes from {peer}: {e}");
                }
            }
        }
    }
}

fn set(
    dedicated: &Mutex<Option<(Arc<UdpSocket>, SocketAddr)>>,
    value: Option<(Arc<UdpSocket>, SocketAddr)>,
) {
    if let Ok(mut d) = dedicated.lock() {
        *d = value;
    }
}

pub(crate) fn kind_of(records: &[Record]) -> Kind {
    match records.first() {
        Some(Record::ServerParam(_)) => Kind::ServerParam,
        Some(Record::PlayerParam(_) | Record::PlayerType(_)) => Kind::Header,
        Some(Record::Msg(_)) if records.iter().any(|r| matches!(r, Record::TeamGraphic(_))) => {
            Kind::Header
        }
        _ => Kind::Play,
    }
}
