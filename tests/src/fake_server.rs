//! A fake rcssserver for tests: listens on a "player port", and for every `(dispinit …)`
//! answers from a new UDP socket (as the real server does) with the datagrams of a real
//! capture, at a fixed pace. Optionally slips in garbage to check that the relay survives it, and
//! forged datagrams from another port to check that the relay does not believe them.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::UdpSocket;

pub struct FakeServer {
    pub addr: SocketAddr,
    /// Number of `(dispinit …)` received so far.
    pub inits: Arc<AtomicUsize>,
    /// What monitors sent to their dedicated ports, in arrival order.
    pub commands: Arc<Mutex<Vec<Vec<u8>>>>,
    task: tokio::task::JoinHandle<()>,
}

#[derive(Clone)]
pub struct Script {
    pub datagrams: Vec<Vec<u8>>,
    pub pace: Duration,
    /// Garbage datagrams to send before datagram `index`.
    pub garbage_at: Vec<(usize, Vec<u8>)>,
    /// Datagrams sent before datagram `index` from a socket that is not the monitor's
    /// dedicated port, as a forger on the server's host would.
    pub spoof_at: Vec<(usize, Vec<u8>)>,
}

impl FakeServer {
    pub async fn start(script: Script) -> FakeServer {
        let socket = UdpSocket::bind("127.0.0.1:0")
            .await
            .expect("bind fake server");
        let addr = socket.local_addr().expect("fake server address");
        let inits = Arc::new(AtomicUsize::new(0));
        let counter = inits.clone();
        let commands = Arc::new(Mutex::new(Vec::new()));
        let heard = commands.clone();
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 8192];
            loop {
                let Ok((n, peer)) = socket.recv_from(&mut buf).await else {
                    return;
                };
                if !buf[..n].starts_with(b"(dispinit") {
                    let _ = socket.send_to(b"(error unknown_command)\0", peer).await;
                    continue;
                }
                counter.fetch_add(1, Ordering::SeqCst);
                let script = script.clone();
                let heard = heard.clone();
                tokio::spawn(async move {
                    let Ok(dedicated) = UdpSocket::bind("127.0.0.1:0").await else {
                        return;
                    };
                    let dedicated = Arc::new(dedicated);
                    let listener = dedicated.clone();
                    tokio::spawn(async move {
                        let mut buf = vec![0u8; 8192];
                        while let Ok(n) = listener.recv(&mut buf).await {
                            if let Ok(mut h) = heard.lock() {
                                h.push(buf[..n].to_vec());
                            }
                        }
                    });
                    let forger = UdpSocket::bind("127.0.0.1:0").await.ok();
                    for (i, d) in script.datagrams.iter().enumerate() {
                        for (_, g) in script.garbage_at.iter().filter(|(at, _)| *at == i) {
                            let _ = dedicated.send_to(g, peer).await;
                        }
                        for (_, s) in script.spoof_at.iter().filter(|(at, _)| *at == i) {
                            if let Some(forger) = &forger {
                                let _ = forger.send_to(s, peer).await;
                            }
                        }
                        if dedicated.send_to(d, peer).await.is_err() {
                            return;
                        }
                        tokio::time::sleep(script.pace).await;
                    }
                });
            }
        });
        FakeServer {
            addr,
            inits,
            commands,
            task,
        }
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
