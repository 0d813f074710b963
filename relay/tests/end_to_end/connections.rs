//! A relay reachable by anyone: a flood of idle and half-sent connections, with the relay's
//! open-files limit lowered, never keeps a spectator, `/healthz` or a page request out, and
//! the flood is closed within the time limits. Run as a process under `prlimit` so that the
//! limit is the relay's alone. All traffic stays on loopback; every loop is bounded.

use crate::common::*;
use futures_util::StreamExt;
use pitchside_wire::{Decoder, Event};
use rcss_formats::Record;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

/// The relay's open-files limit in these tests (soft and hard).
const OPEN_FILES: u64 = 256;
struct Relay {
    child: Child,
    log: PathBuf,
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

impl Relay {
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// The relay under `prlimit --nofile=OPEN_FILES`, replaying a real game, logging to a file.
fn spawn(addr: SocketAddr, extra: &[&str]) -> Relay {
    let log = std::env::temp_dir().join(format!(
        "pitchside-connections-{}-{}.log",
        std::process::id(),
        addr.port()
    ));
    let log_file = std::fs::File::create(&log).unwrap();
    let game = fixture("logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
    let mut args = vec![
        format!("--nofile={OPEN_FILES}:{OPEN_FILES}"),
        "--".into(),
        env!("CARGO_BIN_EXE_pitchside-relay").into(),
        "--listen".into(),
        addr.to_string(),
        "--replay".into(),
        format!("m={}", game.display()),
        "--dist".into(),
        "/nonexistent".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let child = Command::new("prlimit")
        .args(&args)
        .env("RUST_LOG", "info")
        .stdout(log_file.try_clone().unwrap())
        .stderr(log_file)
        .spawn()
        .expect("prlimit (util-linux) runs the relay with a lowered open-files limit");
    Relay { child, log }
}

/// A connection from a chosen loopback address.
async fn connect_from(from: IpAddr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let sock = TcpSocket::new_v4()?;
    sock.bind(SocketAddr::new(from, 0))?;
    sock.connect(to).await
}

async fn get_from(from: IpAddr, to: SocketAddr, path: &str) -> Option<String> {
    let mut s = connect_from(from, to).await.ok()?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.ok()?;
    let mut out = String::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_string(&mut out))
        .await
        .ok()?
        .ok()?;
    Some(out)
}

async fn wait_up(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Some(r) = get_from([127, 0, 0, 1].into(), addr, "/healthz").await {
            if r.ends_with("ok") {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the relay did not come up");
}

/// `name{reason="r"} N` from `/metrics`.
fn metric(text: &str, name: &str, reason: &str) -> u64 {
    let key = format!("pitchside_{name}{{reason=\"{reason}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&key))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no {key} in /metrics:\n{text}")) as u64
}

fn gauge(text: &str, name: &str) -> u64 {
    let key = format!("pitchside_{name} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&key))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no {key} in /metrics:\n{text}")) as u64
}

/// True once the relay has closed the connection (EOF or reset), within `limit`.
async fn closed_within(s: &mut TcpStream, limit: Duration) -> bool {
    let mut buf = [0u8; 256];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            // A response (e.g. 408): keep reading until the close.
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_idle_and_half_sent_connections_never_keeps_a_spectator_out() {
    // This process holds the flood's sockets: give it room.
    let _ = rlimit::increase_nofile_limit(4096);
    let port = free_port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let relay = spawn(
        addr,
        &[
            "--header-timeout",
            "2",
            "--idle-timeout",
            "3",
            "--speed",
            "2",
        ],
    );
    wait_up(addr).await;
    let metrics = get_from([127, 0, 0, 1].into(), addr, "/metrics")
        .await
        .unwrap();
    let capacity = gauge(&metrics, "connections_limit");
    assert!(
        capacity < OPEN_FILES && capacity > OPEN_FILES / 2,
        "the open-files limit less a reserve: {capacity}"
    );

    // The flood, from one address: twice as many sockets as the relay has room for, half
    // saying nothing, half a request line and one header and then nothing. Not from
    // 127.0.0.1: its ephemeral ports could take the one the other test's relay is about to
    // listen on.
    let flooder: IpAddr = [127, 0, 0, 4].into();
    let mut flood = Vec::new();
    for i in 0..(2 * capacity as usize) {
        let Ok(mut s) = connect_from(flooder, addr).await else {
            continue;
        };
        if i % 2 == 1 {
            let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
        }
        flood.push(s);
    }
    assert!(
        flood.len() as u64 >= 2 * capacity - 4,
        "{} flood sockets",
        flood.len()
    );
    let flooded = Instant::now();

    // A spectator from another address gets in and gets the match.
    let stream = connect_from([127, 0, 0, 2].into(), addr).await.unwrap();
    let (mut ws, _) = tokio::time::timeout(
        Duration::from_secs(15),
        tokio_tungstenite::client_async(format!("ws://{addr}/m/m/ws"), stream),
    )
    .await
    .expect("the spectator's handshake is answered during the flood")
    .expect("the spectator's handshake succeeds");
    let mut decoder = Decoder::new();
    let mut events = Vec::new();
    let mut frames = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while frames < 40 {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Binary(b)))) => {
                decoder.decode(&b, &mut events).unwrap();
                frames = events
                    .iter()
                    .filter(|e| matches!(e, Event::Record(Record::Show(_))))
                    .count();
            }
            Ok(Some(Ok(_))) => {}
            other => panic!("the spectator lost its feed after {frames} frames: {other:?}"),
        }
    }
    // A page request and the health check from a third address, during the flood too.
    let health = get_from([127, 0, 0, 3].into(), addr, "/healthz").await;
    assert!(
        health.is_some_and(|r| r.ends_with("ok")),
        "/healthz answered"
    );
    let api = get_from([127, 0, 0, 3].into(), addr, "/api/matches").await;
    assert!(
        api.is_some_and(|r| r.contains("\"name\":\"m\"")),
        "/api/matches answered"
    );

    // Every flood socket is closed by the relay: evicted, or at its header or idle limit
    // (2 s and 3 s here, counted from its accept, which the relay may put off while evicted
    // sockets close), with time to spare for a busy machine.
    let mut open = 0;
    for s in &mut flood {
        let left = Duration::from_secs(30).saturating_sub(flooded.elapsed());
        if !closed_within(s, left.max(Duration::from_millis(10))).await {
            open += 1;
        }
    }
    assert_eq!(open, 0, "flood sockets the relay left open past its limits");

    // The spectator is still being served, and the figures say what happened.
    let mut more = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while more < 10 {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Binary(_)))) => more += 1,
            Ok(Some(Ok(_))) => {}
            other => panic!("the spectator was cut off after the flood: {other:?}"),
        }
    }
    let metrics = get_from([127, 0, 0, 3].into(), addr, "/metrics")
        .await
        .unwrap();
    let evicted = metric(&metrics, "connections_closed_total", "evicted");
    let header = metric(&metrics, "connections_closed_total", "header_timeout");
    let idle = metric(&metrics, "connections_closed_total", "idle");
    let full = metric(&metrics, "connections_refused_total", "full");
    // Every flood socket left in one of these ways (what else came from other addresses
    // was answered and closed); most beyond the table's capacity by eviction.
    assert!(
        evicted + header + idle + full >= flood.len() as u64,
        "{} flood sockets, evicted {evicted}, header {header}, idle {idle}, refused {full}",
        flood.len()
    );
    assert!(evicted >= capacity / 4, "evicted {evicted}, refused {full}");
    assert!(header > 0, "closed at the header limit: {header}");
    assert!(idle > 0, "closed at the idle limit: {idle}");
    assert!(
        !relay.log().contains("Too many open files"),
        "the relay ran out of descriptors:\n{}",
        relay.log()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_is_capped_and_logged_once() {
    let _ = rlimit::increase_nofile_limit(4096);
    let port = free_port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let relay = spawn(addr, &["--max-per-address", "20"]);
    wait_up(addr).await;
    let from: IpAddr = [127, 0, 0, 5].into();
    let mut held = Vec::new();
    for _ in 0..60 {
        if let Ok(s) = connect_from(from, addr).await {
            held.push(s);
        }
    }
    // The relay closes the 40 beyond the cap at once: once it has seen them all (a busy
    // machine may take a while to accept them), none is left open.
    let seen = Instant::now();
    while seen.elapsed() < Duration::from_secs(30) {
        let r = get_from([127, 0, 0, 6].into(), addr, "/metrics").await;
        if r.is_some_and(|r| metric(&r, "connections_refused_total", "per_address") >= 40) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut refused = 0;
    for s in &mut held {
        if closed_within(s, Duration::from_millis(300)).await {
            refused += 1;
        }
    }
    assert_eq!(
        refused, 40,
        "connections beyond --max-per-address 20 closed"
    );
    // Another address is not affected.
    let r = get_from([127, 0, 0, 6].into(), addr, "/metrics")
        .await
        .unwrap();
    assert_eq!(metric(&r, "connections_refused_total", "per_address"), 40);
    let said = relay
        .log()
        .matches("refusing connections from 127.0.0.5")
        .count();
    assert_eq!(
        said,
        1,
        "logged once, not once per attempt:\n{}",
        relay.log()
    );
    drop(held);
}
