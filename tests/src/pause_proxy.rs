//! A loopback TCP proxy for tests that can stop passing on what the server sends, as a
//! spectator's link that stalls would: the relay then sees a socket that takes nothing (the
//! proxy's side of it buffers only a few KB), while the browser behind it waits. What the
//! browser sends always goes through.

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

pub struct PauseProxy {
    pub addr: SocketAddr,
    paused: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl PauseProxy {
    /// Listens on a free loopback port and passes every connection on to `target`.
    pub async fn start(target: SocketAddr) -> PauseProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind proxy");
        let addr = listener.local_addr().expect("proxy address");
        let (paused, rx) = watch::channel(false);
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(pass(client, target, rx.clone()));
            }
        });
        PauseProxy { addr, paused, task }
    }

    /// Stops reading what the server sends (on every connection).
    pub fn pause(&self) {
        self.paused.send_replace(true);
    }

    pub fn resume(&self) {
        self.paused.send_replace(false);
    }
}

impl Drop for PauseProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn pass(client: tokio::net::TcpStream, target: SocketAddr, paused: watch::Receiver<bool>) {
    let Ok(sock) = tokio::net::TcpSocket::new_v4() else {
        return;
    };
    // A small receive buffer: a pause shows at the server at once.
    let _ = sock.set_recv_buffer_size(4096);
    let Ok(server) = sock.connect(target).await else {
        return;
    };
    let (mut cr, mut cw) = client.into_split();
    let (mut sr, mut sw) = server.into_split();
    let up = async {
        let _ = tokio::io::copy(&mut cr, &mut sw).await;
        let _ = sw.shutdown().await;
    };
    let down = async {
        let mut paused = paused;
        let mut buf = vec![0u8; 4096];
        loop {
            if paused.wait_for(|p| !*p).await.is_err() {
                return;
            }
            let n = match sr.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if cw.write_all(&buf[..n]).await.is_err() {
                break;
            }
        }
        let _ = cw.shutdown().await;
    };
    tokio::join!(up, down);
}
