//! `pitchside-relay --tls-cert --tls-key` as a process: with a self-signed certificate made
//! here, the page, the match page, the match list and a match's WebSocket are served over
//! HTTPS and WSS on the one listen address, and plain HTTP to that address is redirected to
//! HTTPS.

use crate::common::{relay_command, RelayProcess};
use futures_util::StreamExt;
use pitchside_wire::{Decoder, Event};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::rustls;
use tokio_rustls::TlsConnector;
use tokio_tungstenite::tungstenite::Message;

/// A client that trusts only `cert` (as a browser would once told to).
fn connector(cert: &rcgen::Certificate) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    // What a browser offers: the relay must pick HTTP/1.1 for WebSockets to work.
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    TlsConnector::from(Arc::new(config))
}

async fn tls_stream(
    connector: &TlsConnector,
    addr: SocketAddr,
) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await?;
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    connector.connect(name, tcp).await
}

/// The status line and body of `GET path` over HTTPS.
async fn get(connector: &TlsConnector, addr: SocketAddr, path: &str) -> (String, String) {
    let mut s = tls_stream(connector, addr).await.unwrap();
    assert_eq!(
        s.get_ref().1.alpn_protocol(),
        Some(&b"http/1.1"[..]),
        "HTTP/1.1 negotiated"
    );
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    // rustls reports a peer that closes without close_notify as an error after the data.
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (
        head.lines().next().unwrap_or("").to_owned(),
        body.to_owned(),
    )
}

#[tokio::test]
async fn page_and_websocket_over_tls_on_one_address() {
    let dir = std::env::temp_dir().join(format!("pitchside-tls-process-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dist = dir.join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    const PAGE: &str = "<!doctype html><title>pitchside over TLS</title>";
    std::fs::write(dist.join("index.html"), PAGE).unwrap();
    let made = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    let log = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
    let (mut relay, addr) = relay_command();
    // The certificate by option, the key by environment variable: both ways work.
    let _relay = RelayProcess(
        relay
            .args(["--replay", &format!("tls={}", log.display())])
            .arg("--dist")
            .arg(&dist)
            .arg("--tls-cert")
            .arg(&cert)
            .env("PITCHSIDE_TLS_KEY", &key)
            .spawn()
            .unwrap(),
    );
    let connector = connector(&made.cert);
    let deadline = Instant::now() + Duration::from_secs(20);
    while tls_stream(&connector, addr).await.is_err() {
        assert!(Instant::now() < deadline, "the relay listens over TLS");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let (status, body) = get(&connector, addr, "/").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(body, PAGE);
    let (status, body) = get(&connector, addr, "/m/tls").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(body, PAGE);
    let (status, body) = get(&connector, addr, "/api/matches").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(list[0]["name"], "tls", "{body}");

    // WSS: the hello names the match, and records follow.
    let stream = tls_stream(&connector, addr).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(
        format!("wss://localhost:{}/m/tls/ws", addr.port()),
        stream,
    )
    .await
    .unwrap();
    let mut decoder = Decoder::new();
    let mut events = Vec::new();
    let mut records = 0;
    while records < 5 {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("the relay sends over WSS")
            .expect("the socket stays open")
            .unwrap();
        if let Message::Binary(packet) = msg {
            decoder.decode(&packet, &mut events).unwrap();
            records = events
                .iter()
                .filter(|e| matches!(e, Event::Record(_)))
                .count();
        }
    }
    match &events[0] {
        Event::Hello(h) => assert_eq!(h.match_name, "tls"),
        other => panic!("a hello first, not {other:?}"),
    }

    // Plain HTTP to the TLS port: sent to the same URL over HTTPS.
    let mut plain = TcpStream::connect(addr).await.unwrap();
    plain
        .write_all(b"GET /m/tls?x=1 HTTP/1.1\r\nHost: localhost:8443\r\n\r\n")
        .await
        .unwrap();
    let mut reply = String::new();
    plain.read_to_string(&mut reply).await.unwrap();
    assert!(
        reply.starts_with("HTTP/1.1 308")
            && reply.contains("\r\nLocation: https://localhost:8443/m/tls?x=1\r\n"),
        "{reply}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
