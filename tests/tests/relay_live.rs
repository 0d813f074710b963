//! Fake rcssserver -> relay -> WebSocket clients: the frames arrive complete and in order.

use futures_util::StreamExt;
use pitchside_shared::datagram::{inflate, is_zlib};
use pitchside_shared::feed::{FeedSource, Notice};
use pitchside_tests::{capture, fake_server, fixtures, relay_harness};
use relay::monitor::MonitorConfig;
use relay::Source;
use std::time::Duration;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: std::net::SocketAddr) -> Ws {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("websocket connect");
    ws
}

/// Collects binary messages until `n` arrived (or fails after a timeout), noting notices.
async fn collect(ws: &mut Ws, n: usize) -> (Vec<Vec<u8>>, Vec<Notice>) {
    let mut got = Vec::new();
    let mut notices = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while got.len() < n {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("timed out with {} of {n} datagrams", got.len()))
            .expect("stream ended")
            .expect("websocket error");
        match msg {
            Message::Binary(b) => got.push(b.to_vec()),
            Message::Text(t) => notices.extend(Notice::from_json(&t)),
            _ => {}
        }
    }
    (got, notices)
}

async fn relay_for(server: std::net::SocketAddr) -> relay_harness::RunningRelay {
    let mut mc = MonitorConfig::new(server);
    mc.retry = Duration::from_millis(200);
    relay_harness::start(Source::Server(mc)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v5_capture_reaches_every_spectator_in_order_and_garbage_and_forgeries_are_dropped() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_CAPTURE)).unwrap();
    assert_eq!(
        datagrams.len(),
        417,
        "the v5-clean capture has 417 datagrams"
    );
    let server = fake_server::FakeServer::start(fake_server::Script {
        datagrams: datagrams.clone(),
        pace: Duration::from_millis(2),
        garbage_at: vec![
            (30, b"\x01\x02garbage that is no datagram".to_vec()),
            (31, b"(show 12 (pm 3) truncated".to_vec()),
            (32, vec![0x78, 0x9c, 0xff, 0x00]),
        ],
        // A real, well-formed show, but from a port that is not the monitor's: dropped.
        spoof_at: vec![(40, datagrams[200].clone()), (41, datagrams[0].clone())],
    })
    .await;
    let relay = relay_for(server.addr).await;
    // One spectator from the start, one that joins late: both must get everything.
    let mut early = connect(relay.addr).await;
    let (got_early, notices) = collect(&mut early, datagrams.len()).await;
    let mut late = connect(relay.addr).await;
    let (got_late, _) = collect(&mut late, datagrams.len()).await;

    assert_eq!(server.inits.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(
        notices.iter().any(|n| matches!(
            n,
            Notice::Feed {
                source: FeedSource::Live,
                ..
            }
        )),
        "the relay announces a live feed: {notices:?}"
    );
    for (i, (a, b)) in got_early.iter().zip(&datagrams).enumerate() {
        assert!(a == b, "datagram {i} differs");
    }
    assert!(
        got_late == got_early,
        "a late joiner gets the same history in the same order"
    );
    // The relay is still alive after the garbage: its health check answers.
    let health = http_get(relay.addr, "/healthz").await;
    assert!(
        health.starts_with("HTTP/1.1 200") && health.ends_with("ok"),
        "{health}"
    );

    // Shutting down with spectators connected: they are told goodbye, and the server hears
    // `(dispbye)` on the monitor's dedicated port.
    relay.stop().await;
    for ws in [&mut early, &mut late] {
        let closed = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                match ws.next().await {
                    Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
                    Some(Ok(_)) => continue,
                    _ => return None,
                }
            }
        })
        .await
        .expect("spectators are closed at shutdown");
        assert_eq!(closed, Some(CloseCode::Away));
    }
    let commands = server.commands.lock().unwrap().clone();
    assert_eq!(commands, vec![b"(dispbye)\0".to_vec()]);
}

/// A plain HTTP/1.1 GET, answered in full (the relay closes the connection).
async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_capture_arrives_inflated() {
    let datagrams = capture::split(&fixtures::read(fixtures::V5_COMPRESSED_CAPTURE)).unwrap();
    let compressed = datagrams.iter().filter(|d| is_zlib(d)).count();
    assert!(
        compressed > 300,
        "most of this capture is zlib: {compressed}"
    );
    let server = fake_server::FakeServer::start(fake_server::Script {
        datagrams: datagrams.clone(),
        pace: Duration::from_millis(2),
        garbage_at: vec![],
        spoof_at: vec![],
    })
    .await;
    let relay = relay_for(server.addr).await;
    let mut ws = connect(relay.addr).await;
    let (got, _) = collect(&mut ws, datagrams.len()).await;
    for (i, (a, raw)) in got.iter().zip(&datagrams).enumerate() {
        let plain = if is_zlib(raw) {
            inflate(raw).unwrap()
        } else {
            raw.clone()
        };
        assert!(a == &plain, "datagram {i} differs");
        assert!(
            a.starts_with(b"(") && a.ends_with(b"\0"),
            "datagram {i} is plain text"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_of_the_bundled_log_is_announced_and_plays() {
    let script =
        relay::replay::Script::from_log(relay::replay::BUNDLED_NAME, relay::replay::BUNDLED_LOG)
            .unwrap();
    let relay = relay_harness::start(Source::Replay {
        script,
        step: Duration::from_millis(1),
    })
    .await;
    let mut ws = connect(relay.addr).await;
    let (got, notices) = collect(&mut ws, 150).await;
    assert!(
        notices.iter().any(|n| matches!(n, Notice::Feed { source: FeedSource::Replay, label } if label.contains("SHORT_L_a"))),
        "{notices:?}"
    );
    let shows: Vec<_> = got.iter().filter(|d| d.starts_with(b"(show ")).collect();
    assert!(shows.len() > 20);
    for s in &shows {
        match pitchside_shared::datagram::parse_datagram(s).unwrap() {
            pitchside_shared::datagram::Datagram::Records(r) => assert_eq!(r.len(), 1),
            other => panic!("{other:?}"),
        }
    }
}
