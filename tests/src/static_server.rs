//! A tiny HTTP server for browser tests: serves `tests/fixtures/` so the page can open logs by
//! address (`?log=URL`), from another origin than the page, as a log on some other site would.
//!
//! - `/cors/PATH` answers with `Access-Control-Allow-Origin: *`: the page may read it.
//! - `/plain/PATH` answers without it: the browser refuses the page the answer (CORS).
//!
//! Test-only: the relay itself never serves arbitrary files.

use axum::http::{HeaderValue, Request};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;
use std::net::SocketAddr;
use tower_http::services::ServeDir;

pub struct StaticServer {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

async fn allow_any_origin(req: Request<axum::body::Body>, next: Next) -> Response {
    let mut res = next.run(req).await;
    res.headers_mut()
        .insert("access-control-allow-origin", HeaderValue::from_static("*"));
    res
}

impl StaticServer {
    pub async fn start() -> StaticServer {
        let dir = crate::fixtures::dir();
        let app = Router::new()
            .nest_service(
                "/cors",
                Router::new()
                    .fallback_service(ServeDir::new(&dir))
                    .layer(middleware::from_fn(allow_any_origin)),
            )
            .nest_service("/plain", ServeDir::new(&dir));
        StaticServer::serve(app).await
    }

    /// Serves `app` on a free port of 127.0.0.1 until dropped: another origin than the
    /// relay's, as a page on some other site (a team's, embedding the match) would be.
    pub async fn serve(app: Router) -> StaticServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind static server");
        let addr = listener.local_addr().expect("static server address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        StaticServer { addr, task }
    }

    /// The address of a fixture (`logs/…`), readable by pages elsewhere (`cors`) or not.
    pub fn url(&self, fixture: &str, cors: bool) -> String {
        let prefix = if cors { "cors" } else { "plain" };
        format!("http://{}/{prefix}/{fixture}", self.addr)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
