//! The relay: registers with rcssserver as a monitor (or plays a log as if live) and relays
//! every frame to any number of browsers over WebSocket, serving the web app beside it.
//!
//! Layout:
//! - [`hub`]: the one owner of a match's history and its broadcast to spectators.
//! - [`inspect`]: the logfile summary of `pitchside-inspect`.
//! - [`monitor`]: the UDP client that talks to rcssserver.
//! - [`replay`]: a logfile played as a live match.
//! - [`web`]: the HTTP routes: web app and spectator WebSocket.
//!
//! [`run`] takes an already bound listener, so tests bind port 0 and learn the address.

pub mod hub;
pub mod inspect;
pub mod monitor;
pub mod replay;
pub mod web;

use hub::Hub;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Where frames come from.
pub enum Source {
    /// A live rcssserver at this address (its player port, normally 6000).
    Server(monitor::MonitorConfig),
    /// A log played as if live, one show per `step`.
    Replay {
        script: replay::Script,
        step: Duration,
    },
}

pub struct Config {
    pub source: Source,
    /// The built web app (`trunk build` output).
    pub dist: PathBuf,
}

/// Serves until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let hub = Arc::new(Hub::new());
    // Both halves stop on the same signal: the web server drains, the monitor says goodbye.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stop_rx_for_web = stop_rx.clone();
    let stopped = move || {
        let mut rx = stop_rx.clone();
        async move {
            let _ = rx.wait_for(|s| *s).await;
        }
    };
    let mut source_task = match config.source {
        Source::Server(mc) => {
            let hub = hub.clone();
            let stop = stopped();
            tokio::spawn(async move {
                if let Err(e) = monitor::run(mc, hub, stop).await {
                    tracing::error!("monitor client stopped: {e:#}");
                }
            })
        }
        Source::Replay { script, step } => {
            tokio::spawn(replay::run(script, hub.clone(), step, stopped()))
        }
    };
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let app = web::app(hub, config.dist, stop_rx_for_web);
    let res = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stopped())
    .await;
    // Give the monitor a moment to say goodbye.
    if tokio::time::timeout(Duration::from_secs(1), &mut source_task)
        .await
        .is_err()
    {
        source_task.abort();
    }
    res.map_err(Into::into)
}
