//! The relay: registers with rcssserver as a monitor (or plays logs as if live) for any number
//! of matches, and relays each to any number of browsers over WebSocket in the wire form of
//! `pitchside_wire`, serving the web app beside it.
//!
//! Layout:
//! - [`agents`]: the agents' debug server (`--debug-port`): their world models, per-team keys.
//! - [`config`]: command line, environment and TOML config, merged into [`config::Settings`].
//! - [`control`]: refereeing from the page: the control token, its checks, the commands.
//! - [`monitor`]: the UDP client that talks to rcssserver (every protocol, compression,
//!   trust rules, operator commands, goodbye).
//! - [`replay`]: a logfile played as a live match.
//! - [`publisher`]: where a match's source hands its records: hub and recorder.
//! - [`hub`]: one match's history, live ring and statistics.
//! - [`history`]: the compact, capped history in wire chunks.
//! - [`spectator`]: one WebSocket: backlog, live, lag policy, send timeout.
//! - [`fanout`]: live items written straight into the sockets of spectators that keep up.
//! - [`recorder`]: ULG6 logs for `--record` and for downloads.
//! - [`web`]: the HTTP routes.
//! - [`headers`]: protective headers (CSP and others), CORS for the control endpoint.
//! - [`connections`]: who may connect, for how long, how many per address; the accept loop.
//! - [`tls`]: HTTPS and WSS when given a certificate.
//! - [`inspect`]: the logfile summary of `pitchside-inspect`, its exports, series and log tools.
//! - [`archive`]: the logs below `--archive` and `--record`, indexed and searched.
//! - [`series`]: `/api/series`, a team's series over the archive's index, or two compared.
//! - [`tournament`]: `--tournament` files, `/api/tournaments`: standings, fixtures, bracket.
//! - [`broadcast`]: what a match's broadcast view (a stream) asks: its delay, the teams' kits,
//!   its tournament, captions in words.
//! - [`colours`]: `--team-colours`: each team's home and away kits, read again on change.
//! - [`play`]: playing a batch of games (`pitchside-play`): rcssserver processes started,
//!   limited, watched and stopped, their logs kept under one folder.
//! - [`nats`]: publishing matches to NATS (`--publish`), and edge relays that serve them
//!   (`--edge`).
//!
//! One task owns each match (its source: [`monitor::run`] or [`replay::run`]); it alone
//! writes the match's [`hub::Hub`]. [`run`] takes an already bound listener, so tests bind
//! port 0 and learn the address.

pub mod agents;
pub mod app;
pub mod archive;
pub mod broadcast;
pub mod colours;
pub mod config;
pub mod connections;
pub mod control;
pub mod fanout;
pub mod headers;
pub mod history;
pub mod hub;
pub mod inspect;
pub mod item;
pub mod monitor;
pub mod nats;
pub mod order;
pub mod play;
pub mod publisher;
pub mod recorder;
pub mod replay;
pub mod runs;
pub mod series;
pub mod spectator;
pub mod tls;
pub mod tournament;
pub mod web;
pub mod ws_frame;

use config::{Settings, SourceSpec};
use hub::Hub;
use monitor::ControlRequest;
use publisher::Publisher;
use recorder::Recorder;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

/// One match's source, for embedding and tests: a shorthand for a [`config::MatchSpec`] named
/// as the command line would name it.
pub enum Source {
    Server(monitor::MonitorConfig),
    Replay {
        script: replay::Script,
        step: Duration,
    },
}

impl Source {
    pub fn into_spec(self) -> config::MatchSpec {
        match self {
            Source::Server(mc) => config::MatchSpec {
                name: config::name_from_address(&mc.address),
                source: SourceSpec::Server(mc),
            },
            Source::Replay { script, step } => config::MatchSpec {
                name: config::name_from_file(std::path::Path::new(&script.name)),
                source: SourceSpec::Replay(replay::ReplayConfig {
                    script: Arc::new(script),
                    step,
                    looping: true,
                }),
            },
        }
    }
}

/// What the HTTP side holds of a match: its hub, and the way to send it operator commands
/// (answered with an error for replays).
pub struct MatchHandle {
    pub hub: Arc<Hub>,
    pub control: mpsc::Sender<ControlRequest>,
    /// `live` or `replay`: how the match was configured.
    pub kind: &'static str,
    /// The operator's commands to this match, limited to a referee's pace.
    pub flood: control::Flood,
    /// The player port of the server it follows (`None` for a replay, or at an edge): where a
    /// run of games (`pitchside-play`) says which field this is.
    pub port: Option<u16>,
}

/// The matches a relay serves: fixed at start for a relay with its own sources, found on NATS
/// (and so changing) at an edge. Readers take a snapshot of the list, cheaply.
#[derive(Default)]
pub struct Matches {
    list: std::sync::RwLock<Arc<Vec<Arc<MatchHandle>>>>,
}

impl Matches {
    pub fn new(list: Vec<MatchHandle>) -> Matches {
        Matches {
            list: std::sync::RwLock::new(Arc::new(list.into_iter().map(Arc::new).collect())),
        }
    }

    pub fn list(&self) -> Arc<Vec<Arc<MatchHandle>>> {
        self.list.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn find(&self, name: &str) -> Option<Arc<MatchHandle>> {
        self.list().iter().find(|m| m.hub.name == name).cloned()
    }

    /// Adds a match, or replaces the one of the same name (keeping its place).
    pub fn upsert(&self, m: MatchHandle) {
        let mut guard = self.list.write().unwrap_or_else(|e| e.into_inner());
        let mut list: Vec<_> = guard.iter().cloned().collect();
        match list.iter().position(|x| x.hub.name == m.hub.name) {
            Some(i) => list[i] = Arc::new(m),
            None => list.push(Arc::new(m)),
        }
        *guard = Arc::new(list);
    }

    pub fn remove(&self, name: &str) -> Option<Arc<MatchHandle>> {
        let mut guard = self.list.write().unwrap_or_else(|e| e.into_inner());
        let mut list: Vec<_> = guard.iter().cloned().collect();
        let i = list.iter().position(|x| x.hub.name == name)?;
        let m = list.remove(i);
        *guard = Arc::new(list);
        Some(m)
    }
}

/// Kernel send buffer per connection. Linux grows a socket's buffer up to 4 MB on its own,
/// which would let a slow spectator hide megabytes of backlog in the kernel (10,000 of them:
/// gigabytes) and keep the relay from noticing that it lags. Fixed here, it is doubled by
/// the kernel to 128 KB: a second of frames, or a few history chunks.
const SEND_BUFFER: usize = 64 << 10;

/// Bytes a connection's kernel buffer may hold that have not gone out yet (Linux only). The
/// send buffer above bounds what is sent but unacknowledged too; this bounds what merely
/// waits, which on a slow link is the delay: 128 KB there is some 20 s of frames at the ~6 KB
/// a second a spectator takes, so a frame would reach that page long after the relay's delay
/// bound (`--max-delay`). With 8 KB the socket reports full early, and the relay skips the
/// frames that wait too long instead of queueing them in the kernel; history chunks (~70 KB)
/// still go out whole, in more writes.
#[cfg(any(target_os = "linux", target_os = "android"))]
const NOT_SENT: u32 = 8 << 10;

fn tune_socket(tcp: &mut tokio::net::TcpStream) {
    // Frames are small and due now: Nagle's algorithm would hold them for an ACK.
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!("TCP_NODELAY: {e}");
    }
    if let Err(e) = socket2::SockRef::from(&*tcp).set_send_buffer_size(SEND_BUFFER) {
        tracing::debug!("SO_SNDBUF: {e}");
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Err(e) = socket2::SockRef::from(&*tcp).set_tcp_notsent_lowat(NOT_SENT) {
        tracing::debug!("TCP_NOTSENT_LOWAT: {e}");
    }
}

/// Asked for a UDP socket's receive buffer (the server's datagrams, the agents'). Linux
/// gives at most twice `net.core.rmem_max` (208 KB on many systems, 4 MB on others): the
/// request takes whatever it allows. A relay on a busy host (the server and 22 agents
/// beside it, a server in synch mode sending hundreds of datagrams a second) is sometimes
/// not scheduled for tens of milliseconds; the buffer is what keeps the datagrams that
/// arrive meanwhile, and UDP loses the rest for good.
const RECEIVE_BUFFER: usize = 4 << 20;

pub(crate) fn widen_receive_buffer(socket: &tokio::net::UdpSocket) {
    let sock = socket2::SockRef::from(socket);
    match sock.set_recv_buffer_size(RECEIVE_BUFFER) {
        Ok(()) => tracing::debug!(
            "UDP receive buffer: {} bytes",
            sock.recv_buffer_size().unwrap_or(0)
        ),
        Err(e) => tracing::debug!("SO_RCVBUF: {e}"),
    }
}

/// Completes when `stop` turns true (or its sender is gone). The guard `wait_for` returns
/// is dropped here, so callers stay `Send` across later awaits.
pub(crate) async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("the HTTP server failed: {0}")]
    Serve(#[from] std::io::Error),
    #[error("cannot draw a random control token: {0}")]
    Token(getrandom::Error),
    #[error("{0}")]
    Nats(#[from] nats::NatsError),
    #[error("cannot listen for the agents' debug messages on UDP {0}: {1}")]
    DebugPort(std::net::SocketAddr, std::io::Error),
    #[error("tournament: {0}")]
    Tournament(#[from] tournament::TournamentError),
}

/// Serves until `shutdown` completes; then every match says goodbye to its server, every
/// spectator gets a close frame, and recordings are closed.
pub async fn run(
    listener: TcpListener,
    settings: Settings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), RunError> {
    let (stop_tx, stop_rx) = watch::channel(false);
    // A tournament file with a mistake stops the start, so the organiser sees it at once.
    let tournaments = Arc::new(tournament::Tournaments::load(&settings.tournaments)?);
    // ---- Refereeing: one token for the relay, a link per live match ----
    // A token the operator gave (by file, variable or option) is known to them: it is kept
    // out of the log, which more people may read than the token file. A drawn one must be
    // printed, or nobody could referee.
    let (token, given) = match settings.control_token {
        Some(t) => (t, true),
        None => (control::generate_token().map_err(RunError::Token)?, false),
    };
    let listen = listener.local_addr()?;
    let live: Vec<&str> = settings
        .matches
        .iter()
        .filter(|m| matches!(m.source, SourceSpec::Server(_)))
        .map(|m| m.name.as_str())
        .collect();
    for name in &live {
        if given {
            tracing::info!(
                "operator link for {name}: {} (the token you gave in place of TOKEN)",
                control::operator_link(settings.tls.is_some(), listen, name, "TOKEN")
            );
        } else {
            tracing::info!(
                "operator link for {name} (keep it to yourself): {}",
                control::operator_link(settings.tls.is_some(), listen, name, &token)
            );
        }
    }
    if !settings.runs.is_empty() {
        let link = |token: &str| {
            control::page_link(
                settings.tls.is_some(),
                listen,
                "/runs",
                pitchside_wire::link::CONTROL_KEY,
                token,
            )
        };
        if given {
            tracing::info!("operator link for the runs: {}", link("TOKEN"));
        } else {
            tracing::info!(
                "operator link for the runs (keep it to yourself): {}",
                link(&token)
            );
        }
    }
    let gate = control::Gate::new(token);
    let mut tasks = Vec::new();
    let mut matches = Vec::new();
    let mut published = Vec::new();
    for spec in settings.matches {
        let hub = Arc::new(
            Hub::new(&spec.name, settings.history_cap, settings.lag)
                .with_max_delay(settings.max_delay),
        );
        let height =
            matches!(&spec.source, SourceSpec::Server(mc) if mc.protocol == monitor::Protocol::V6);
        let recorder = settings
            .record
            .as_deref()
            .map(|dir| Recorder::new(dir, &spec.name).with_ball_height(height));
        let publisher = Publisher::new(hub.clone(), recorder);
        let (control_tx, control_rx) = mpsc::channel(16);
        let stop = stop_rx.clone();
        let port = match &spec.source {
            SourceSpec::Server(mc) => mc.address.rsplit(':').next().and_then(|p| p.parse().ok()),
            SourceSpec::Replay(_) => None,
        };
        let kind = match spec.source {
            SourceSpec::Server(mc) => {
                tasks.push(tokio::spawn(monitor::run(mc, publisher, control_rx, stop)));
                "live"
            }
            SourceSpec::Replay(rc) => {
                tasks.push(tokio::spawn(replay::run(rc, publisher, control_rx, stop)));
                "replay"
            }
        };
        published.push(nats::origin::Published {
            hub: hub.clone(),
            kind,
        });
        matches.push(MatchHandle {
            hub,
            control: control_tx,
            kind,
            port,
            flood: control::Flood::default(),
        });
    }
    // --debug-port: the agents' debug server, for the first live match (or the first match).
    let debug = match settings.debug_port {
        Some(addr) => {
            let m = matches
                .iter()
                .find(|m| m.kind == "live")
                .or(matches.first());
            match m {
                Some(m) => {
                    let socket = tokio::net::UdpSocket::bind(addr)
                        .await
                        .map_err(|e| RunError::DebugPort(addr, e))?;
                    widen_receive_buffer(&socket);
                    let keys = Arc::new(agents::TeamKeys::new(settings.team_keys.clone()));
                    let mut log = agents::DebugLog::new(m.hub.clone(), keys, agents::HISTORY_CAP);
                    log.link_prefix =
                        agents::team_link(settings.tls.is_some(), listen, &m.hub.name, "");
                    let log = Arc::new(log);
                    tracing::info!(
                        "debug server for {} on UDP {}",
                        m.hub.name,
                        socket.local_addr().unwrap_or(addr)
                    );
                    for (team, _) in &settings.team_keys {
                        tracing::info!(
                            "debug link for team {team}: {} (its key in place of KEY)",
                            agents::team_link(settings.tls.is_some(), listen, &m.hub.name, "KEY")
                        );
                    }
                    let record = settings.record.as_deref().map(agents::DclRecorder::new);
                    tasks.push(tokio::spawn(agents::run(
                        socket,
                        log.clone(),
                        record,
                        stop_rx.clone(),
                    )));
                    Some(log)
                }
                None => None,
            }
        }
        None => None,
    };
    // --publish and --edge: NATS, connected in the background (the relay serves either way).
    let (nats_tx, nats_rx) = watch::channel(false);
    let nats_client = match settings.publish.as_ref().or(settings.edge.as_ref()) {
        Some(opts) => {
            let role = if settings.edge.is_some() {
                "edge"
            } else {
                "origin"
            };
            Some(nats::connect(opts, role, nats_tx).await?)
        }
        None => None,
    };
    let edge_stats = Arc::new(nats::edge::EdgeStats::default());
    // Client connections: as many as the open-files limit leaves room for.
    let open_files = rlimit::Resource::NOFILE
        .get()
        .map_or(1024, |(soft, _hard)| soft);
    let table = Arc::new(connections::Table::new(
        settings.limits.clone(),
        connections::connections_for_open_files(open_files, matches.len()),
    ));
    tracing::info!(
        "at most {} connections ({} per address); open-files limit {open_files}",
        table.capacity(),
        table.limits().per_address
    );
    let index_html = std::fs::read_to_string(settings.dist.join("index.html")).ok();
    let policy = Arc::new(headers::Policy::new(
        index_html.as_deref(),
        settings.cors_origins.clone(),
        &settings.embed_origins,
    ));
    if settings.archive.is_empty() {
        // Said at start: an empty archive page is otherwise a puzzle.
        tracing::info!("no --archive or --record folder: /archive lists no logs");
    }
    let archive = Arc::new(archive::Archive::new(settings.archive.clone()));
    archive::start(archive.clone(), stop_rx.clone());
    let runs = Arc::new(runs::Runs::new(
        settings.runs.clone(),
        settings.play_program.clone(),
    ));
    let shared = Arc::new(web::Shared {
        runs: runs.clone(),
        archive,
        tournaments,
        broadcast: broadcast::Broadcast::new(
            settings.broadcast_delay,
            settings.team_colours.clone(),
        ),
        connections: table.clone(),
        policy,
        matches: Matches::new(matches),
        max_spectators: settings.max_spectators,
        spectator: spectator::Options {
            send_timeout: settings.send_timeout,
        },
        stop: stop_rx.clone(),
        spectators: AtomicUsize::new(0),
        refused: AtomicU64::new(0),
        gate,
        debug,
        edge: settings
            .edge
            .as_ref()
            .and(nats_client.clone())
            .map(|client| web::EdgeLink {
                client,
                stats: edge_stats.clone(),
            }),
    });
    if let (Some(client), Some(opts)) = (&nats_client, &settings.publish) {
        tasks.extend(nats::origin::start(
            client.clone(),
            opts.clone(),
            published,
            nats::control::at_origin(shared.clone()),
            nats_rx.clone(),
            stop_rx.clone(),
        ));
    }
    if let (Some(client), Some(_)) = (&nats_client, &settings.edge) {
        tasks.push(nats::edge::start(
            client.clone(),
            shared.clone(),
            nats::edge::EdgeConfig {
                history_cap: settings.history_cap,
                lag: settings.lag,
                max_delay: settings.max_delay,
            },
            edge_stats,
            nats_rx.clone(),
            stop_rx.clone(),
        ));
    }
    let app = web::app(shared.clone(), settings.dist);
    tokio::spawn(async move {
        shutdown.await;
        // A runner stops its games and their processes itself.
        runs.stop_all();
        let _ = stop_tx.send(true);
    });
    let tune: fn(&mut tokio::net::TcpStream) = tune_socket;
    let res = match settings.tls {
        Some(config) => {
            let tls = tls::Tls::new(config);
            connections::serve(listener, table, tls, tune, app, stop_rx.clone()).await
        }
        None => {
            let plain = connections::Plain;
            connections::serve(listener, table, plain, tune, app, stop_rx.clone()).await
        }
    };
    // Upgraded connections are no longer hyper's: wait (a little) for every spectator to
    // have sent its close frame, so that pages learn why the connection ended.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    while shared.spectators.load(std::sync::atomic::Ordering::Relaxed) > 0
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Give the matches a moment to say goodbye and close their recordings.
    for t in tasks {
        let abort = t.abort_handle();
        if tokio::time::timeout(Duration::from_secs(2), t)
            .await
            .is_err()
        {
            abort.abort();
        }
    }
    res.map_err(Into::into)
}

/// The address a connection came from, put into each request by [`connections`]: operator
/// actions are logged with it and failed token checks counted per address.
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub std::net::SocketAddr);
