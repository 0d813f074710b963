//! `pitchside-relay` as an organiser runs it, as a process: `--record` survives SIGKILL
//! (at most the last second lost), and SIGTERM says `(dispbye)` to the server, closes every
//! spectator with a close frame, and names the recording.

use crate::common::*;
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;
/// `pitchside-relay ARGS`, listening on a free port of loopback; and that address.
fn spawn(args: &[&str]) -> (RelayProcess, SocketAddr) {
    let (mut c, addr) = relay_command();
    (RelayProcess(c.args(args).spawn().unwrap()), addr)
}

async fn get(addr: SocketAddr, path: &str) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).await.ok()?;
    Some(out)
}

/// The cycle `/api/matches` reports for the first match.
async fn cycle(addr: SocketAddr) -> Option<u64> {
    let res = get(addr, "/api/matches").await?;
    let body = res.split("\r\n\r\n").nth(1)?;
    let v: serde_json::Value = serde_json::from_str(body).ok()?;
    v[0]["cycle"].as_u64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recording_survives_sigkill_losing_at_most_a_second() {
    let dir = scratch("record-kill");
    let log = fixture("logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz");
    // Ten times real time: 100 cycles a second.
    let (mut relay, addr) = spawn(&[
        "--replay",
        &format!("final={}", log.display()),
        "--speed",
        "10",
        "--record",
        dir.to_str().unwrap(),
    ]);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut at_kill = 0;
    while Instant::now() < deadline {
        if let Some(c) = cycle(addr).await {
            if c >= 400 {
                at_kill = c;
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(at_kill >= 400, "the replay reached cycle 400");
    relay.0.kill().unwrap();
    relay.0.wait().unwrap();
    let file = dir.join("incomplete-final.rcg");
    let bytes = std::fs::read(&file).unwrap();
    let m = rcss_formats::parse_log(&bytes);
    let last = m.frames.last().map_or(0, |f| f.time);
    assert!(m.frames.len() > 300, "{} frames", m.frames.len());
    assert!(
        u64::from(last) + 100 + 20 >= at_kill,
        "the file ends at cycle {last}, the relay was at {at_kill}: more than a second lost"
    );
    assert!(bytes.starts_with(b"ULG6\n(server_param "));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sends the relay SIGTERM, as a service manager stops it.
fn sigterm(relay: &RelayProcess) {
    let status = Command::new("kill")
        .args(["-TERM", &relay.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for the relay to exit, without blocking the runtime; its exit status.
async fn exit_of(mut relay: RelayProcess) -> std::process::ExitStatus {
    tokio::task::spawn_blocking(move || {
        let s = relay.0.wait().unwrap();
        std::mem::forget(relay);
        s
    })
    .await
    .unwrap()
}

/// A fake server that answers every init from a fresh port with a real capture
/// and keeps what it hears.
async fn fake_server(heard: Arc<Mutex<Vec<Vec<u8>>>>) -> SocketAddr {
    fake_server_of(pitchside_fixtures::V5_CAPTURE, heard).await
}

/// The same with the capture `rel`.
async fn fake_server_of(rel: &str, heard: Arc<Mutex<Vec<Vec<u8>>>>) -> SocketAddr {
    let datagrams = pitchside_fixtures::capture(rel);
    let init = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = init.local_addr().unwrap();
    tokio::spawn(async move {
        let mut buf = vec![0u8; 4096];
        while let Ok((n, peer)) = init.recv_from(&mut buf).await {
            heard.lock().unwrap().push(buf[..n].to_vec());
            let datagrams = datagrams.clone();
            let heard = heard.clone();
            tokio::spawn(async move {
                let s = Arc::new(UdpSocket::bind("127.0.0.1:0").await.unwrap());
                let r = s.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    while let Ok(n) = r.recv(&mut buf).await {
                        heard.lock().unwrap().push(buf[..n].to_vec());
                    }
                });
                for d in &datagrams {
                    if s.send_to(d, peer).await.is_err() {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            });
        }
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_says_goodbye_closes_spectators_and_names_the_recording() {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let server = fake_server(heard.clone()).await;
    let dir = scratch("sigterm");
    let (relay, addr) = spawn(&[
        "--server",
        &format!("field={server}"),
        "--record",
        dir.to_str().unwrap(),
    ]);
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut ws = loop {
        if let Ok((ws, _)) =
            tokio_tungstenite::connect_async(format!("ws://{addr}/m/field/ws")).await
        {
            break ws;
        }
        assert!(Instant::now() < deadline, "the relay listens");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    // Wait for live frames.
    let mut messages = 0;
    while messages < 50 {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(_))) => messages += 1,
            other => panic!("the relay stopped sending: {other:?}"),
        }
    }
    sigterm(&relay);
    let close = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(msg) = ws.next().await {
            if let Ok(tokio_tungstenite::tungstenite::Message::Close(f)) = msg {
                return f.map(|f| u16::from(f.code));
            }
        }
        None
    })
    .await
    .expect("a close frame within 5 s");
    assert_eq!(close, Some(1001));
    let exit = exit_of(relay).await;
    assert!(exit.success(), "{exit:?}");
    // The goodbye was sent before the relay exited, but the task that records what the fake
    // server hears may not have read it off its socket yet: wait for it, bounded.
    let deadline = Instant::now() + Duration::from_secs(5);
    let last = loop {
        let last = heard.lock().unwrap().last().cloned();
        if last.as_deref() == Some(&b"(dispbye)\0"[..]) || Instant::now() > deadline {
            break last;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(last.as_deref(), Some(&b"(dispbye)\0"[..]));
    // The recording; the archive's index (`.pitchside-index.json`) may sit beside it.
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].ends_with("-HELIOS_L_0-vs-HELIOS_R_1.rcg"),
        "named as rcssserver names logs: {files:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 2.5D fork's real monitor traffic (protocol 6): the relay asks for it and records the
/// match as ULG7, every ball height as the fork's own log wrote it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_2_5d_forks_traffic_is_recorded_as_ulg7_with_its_heights() {
    let heard = Arc::new(Mutex::new(Vec::new()));
    let server = fake_server_of(pitchside_fixtures::FORK_V6_CAPTURE, heard.clone()).await;
    let dir = scratch("fork-ulg7");
    let (relay, addr) = spawn(&[
        "--server",
        &format!("field={server}"),
        "--protocol",
        "6",
        "--record",
        dir.to_str().unwrap(),
    ]);
    // The capture's 213 datagrams, 5 ms apart: wait until the relay has the last cycle (150),
    // then a moment for the last shows of it.
    let deadline = Instant::now() + Duration::from_secs(30);
    while cycle(addr).await != Some(150) {
        assert!(Instant::now() < deadline, "the relay reached cycle 150");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        heard.lock().unwrap().first().map(Vec::as_slice),
        Some(&b"(dispinit version 6)\0"[..])
    );
    sigterm(&relay);
    let exit = exit_of(relay).await;
    assert!(exit.success(), "{exit:?}");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "rcg"))
        .expect("a recording");
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"ULG7\n"), "{}", file.display());
    let recorded = rcss_formats::parse_log(&bytes);
    let logged = rcss_formats::parse_log(&pitchside_fixtures::read(pitchside_fixtures::FORK_ULG7));
    // Every ball the server logged for a cycle (a stoppage shows a cycle more than once).
    let mut balls = std::collections::BTreeMap::<u32, Vec<[f32; 3]>>::new();
    for f in &logged.frames {
        balls
            .entry(f.time)
            .or_default()
            .push([f.ball.x, f.ball.y, f.ball.z]);
    }
    let mut up = 0;
    for f in recorded.frames.iter().filter(|f| f.time > 0) {
        let ball = [f.ball.x, f.ball.y, f.ball.z];
        let logged = balls.get(&f.time).map_or(&[][..], Vec::as_slice);
        assert!(
            logged.contains(&ball),
            "cycle {}: {ball:?} against {logged:?}",
            f.time
        );
        up += usize::from(f.ball.z > 0.0);
    }
    let cycles: std::collections::BTreeSet<u32> = recorded.frames.iter().map(|f| f.time).collect();
    assert!(
        balls.keys().all(|t| cycles.contains(t)),
        "a cycle of the log missing"
    );
    assert!(up >= 30, "{up} shows with the ball in the air");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A relay that cannot start says why once, on one line, and exits with 1: not the message
/// again as its own cause.
#[test]
fn a_start_up_error_is_said_once() {
    let dir = scratch("bad-replay");
    let bad = dir.join("notes.rcg");
    std::fs::write(&bad, b"not a log\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pitchside-relay"))
        .args(["--listen", "127.0.0.1:0", "--replay"])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("cannot replay").count(), 1, "{err}");
    assert!(!err.contains("Caused by"), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("pitchside-relay: cannot replay") && l.contains("notes")),
        "{err}"
    );
}
