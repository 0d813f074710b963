//! The HTTP side: serves the built web app and the spectator WebSocket.

use crate::hub::{Event, Hub};
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tower_http::services::{ServeDir, ServeFile};

/// Spectators only listen; anything they send beyond this size closes their connection.
const MAX_INCOMING_MESSAGE: usize = 4096;

#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    /// Turns true when the relay shuts down: spectators are told goodbye, so that a graceful
    /// shutdown does not wait forever on open WebSockets.
    pub stop: watch::Receiver<bool>,
}

/// The whole HTTP application; `dist` is the directory `trunk build` wrote.
pub fn app(hub: Arc<Hub>, dist: PathBuf, stop: watch::Receiver<bool>) -> Router {
    let index = dist.join("index.html");
    let router = Router::new()
        .route("/ws", get(ws_handler))
        .route("/healthz", get(|| async { "ok" }))
        .with_state(AppState { hub, stop });
    if index.is_file() {
        router.fallback_service(ServeDir::new(&dist).fallback(ServeFile::new(index)))
    } else {
        tracing::warn!(
            "no web app in {} (run scripts/run.sh, which builds it); serving a notice instead",
            dist.display()
        );
        router.fallback(|| async {
            Html("<h1>pitchside</h1><p>The web app is not built. Run <code>scripts/run.sh</code>, which builds it with trunk and starts the relay.</p>")
        })
    }
}

async fn ws_handler(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    ws.max_message_size(MAX_INCOMING_MESSAGE)
        .max_frame_size(MAX_INCOMING_MESSAGE)
        .on_upgrade(move |socket| spectator(socket, state.hub, state.stop))
        .into_response()
}

/// One spectator: the backlog first, then the live stream. What the browser sends is read only
/// to notice a close; spectators cannot command anything.
async fn spectator(mut socket: WebSocket, hub: Arc<Hub>, mut stop: watch::Receiver<bool>) {
    let mut sub = hub.subscribe();
    for event in sub.backlog.drain(..) {
        if send(&mut socket, event).await.is_err() {
            return;
        }
    }
    loop {
        tokio::select! {
            event = sub.live.recv() => match event {
                Ok(event) => {
                    if send(&mut socket, event).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(n)) => {
                    // Frames are whole snapshots: skipping ahead loses nothing a viewer needs.
                    tracing::debug!("a slow spectator skipped {n} events");
                }
                Err(RecvError::Closed) => return,
            },
            () = async { drop(stop.wait_for(|s| *s).await) } => {
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: close_code::AWAY,
                        reason: "the relay is shutting down".into(),
                    })))
                    .await;
                return;
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

async fn send(socket: &mut WebSocket, event: Event) -> Result<(), axum::Error> {
    match event {
        Event::Notice(n) => socket.send(Message::Text(n.to_json().into())).await,
        Event::Datagram(b) => socket.send(Message::Binary(b)).await,
    }
}
