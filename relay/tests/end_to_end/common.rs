//! What the relay's own tests share: the real fixtures, a free port, a fresh scratch folder,
//! the relay as a process of its own.

use std::io::Read;
use std::path::{Path, PathBuf};

/// A fixture's path (`tests/fixtures/REL`).
pub fn fixture(rel: &str) -> PathBuf {
    pitchside_fixtures::path(rel)
}

/// A gzipped file's bytes, inflated.
pub fn gunzip(path: &Path) -> Vec<u8> {
    gunzip_bytes(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// A relay process of the test's own, killed when the test lets go of it (or fails).
pub struct RelayProcess(pub std::process::Child);

impl Drop for RelayProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `pitchside-relay --listen ADDR` on a free port of loopback, logging warnings only and its
/// output to nowhere, for the test to add its options to and start; and ADDR.
pub fn relay_command() -> (std::process::Command, std::net::SocketAddr) {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], free_port()));
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-relay"));
    c.args(["--listen", &addr.to_string()])
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    (c, addr)
}

/// `pitchside-inspect ARGS`, which must succeed, and the JSON it prints.
pub fn inspect_json(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(args)
        .output()
        .expect("run pitchside-inspect");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The text at `key` of each object of the JSON array `list` (the teams of a table, the
/// kinds of findings), in order.
pub fn texts<'a>(list: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap_or_else(|| panic!("an array: {list}"))
        .iter()
        .map(|o| o[key].as_str().unwrap_or_else(|| panic!("{key} in {o}")))
        .collect()
}

/// Gzipped bytes, inflated.
pub fn gunzip_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("gzip");
    out
}

/// One HTTP/1.1 request to the relay at `addr` (`Connection: close`), with the operator's
/// token when given: the status and the body; `None` when the relay did not answer.
pub fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
) -> Option<(u16, String)> {
    use std::io::Write;
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .ok()?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let status = text.split(' ').nth(1)?.parse().ok()?;
    let (_, body) = text.split_once("\r\n\r\n")?;
    Some((status, body.to_owned()))
}

/// Waits (at most `secs` seconds) until `done` holds; whether it did.
pub fn wait_until(secs: u64, mut done: impl FnMut() -> bool) -> bool {
    let started = std::time::Instant::now();
    while !done() {
        if started.elapsed().as_secs() >= secs {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

/// Sends process `pid` the signal `name` (`TERM`, `USR1`), as `kill -NAME PID` does.
pub fn signal(pid: u32, name: &str) {
    let sent = std::process::Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status();
    assert!(sent.is_ok_and(|s| s.success()), "kill -{name} {pid}");
}

pub use pitchside_fixtures::{free_port, scratch};
