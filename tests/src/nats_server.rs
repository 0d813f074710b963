//! A real `nats-server` with JetStream for tests: a free loopback port, a store in a fresh
//! temporary directory, killed (and the store removed) when dropped. It can be killed and
//! started again on the same port and store, as a NATS that crashed and came back.
//!
//! `nats-server` must be installed (`scripts/install-tools.sh --nats`, which the test script
//! runs, installs Debian's); a test that needs it fails with that advice when it is not.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct NatsServer {
    pub addr: SocketAddr,
    store: PathBuf,
    args: Vec<String>,
    child: Option<Child>,
}

/// Debian installs it in /usr/sbin, which is not on every user's PATH.
pub fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("nats-server");
            if p.is_file() {
                return p;
            }
        }
    }
    let p = PathBuf::from("/usr/sbin/nats-server");
    assert!(
        p.is_file(),
        "nats-server is not installed: run `bash scripts/install-tools.sh --nats` (Debian's nats-server package)"
    );
    p
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl NatsServer {
    /// JetStream, no authentication.
    pub async fn start() -> NatsServer {
        Self::start_with(&[]).await
    }

    /// With extra arguments (e.g. `--user`, `--pass`).
    pub async fn start_with(extra: &[&str]) -> NatsServer {
        let port = free_port();
        let store =
            std::env::temp_dir().join(format!("pitchside-nats-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&store);
        std::fs::create_dir_all(&store).expect("a store directory");
        let mut server = NatsServer {
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            store,
            args: extra.iter().map(|s| (*s).to_owned()).collect(),
            child: None,
        };
        server.spawn().await;
        server
    }

    pub fn url(&self) -> String {
        format!("nats://{}", self.addr)
    }

    async fn spawn(&mut self) {
        let child = Command::new(binary())
            .args(["-js", "-a", "127.0.0.1", "-p"])
            .arg(self.addr.port().to_string())
            .arg("-sd")
            .arg(&self.store)
            .args(&self.args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start nats-server");
        self.child = Some(child);
        // Ready once it accepts connections (JetStream is up by then).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            if tokio::net::TcpStream::connect(self.addr).await.is_ok() {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "nats-server did not listen on {} within 10 s",
                self.addr
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The server's process id, for CPU and memory figures.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Kills the server outright (SIGKILL), as a crash would.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on the same port with the same store.
    pub async fn restart(&mut self) {
        self.kill();
        self.spawn().await;
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.store);
    }
}
