//! A spectator as a test sees it: a WebSocket client that decodes the relay's wire with the
//! same `shared` decoder as the page, and keeps everything it got.

use futures_util::StreamExt;
use pitchside_wire::{Decoder, Event, Notice};
use rcss_formats::{Frame, Record};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub struct Spectator {
    pub ws: Ws,
    decoder: Decoder,
    pub events: Vec<Event>,
    /// WebSocket messages and payload bytes received.
    pub messages: usize,
    pub bytes: usize,
    /// The close frame, once the relay closed the connection: (code, reason).
    pub closed: Option<(u16, String)>,
    /// Messages received before the `Live` notice (the backlog), and their bytes.
    pub backlog: Option<(usize, usize)>,
    /// Every binary message as received.
    pub raw: Vec<Vec<u8>>,
}

impl Spectator {
    pub async fn connect(addr: SocketAddr, path: &str) -> Spectator {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{path}"))
            .await
            .expect("websocket connect");
        Spectator::over(ws)
    }

    /// A spectator on a WebSocket just opened, nothing read yet.
    fn over(ws: Ws) -> Spectator {
        Spectator {
            ws,
            decoder: Decoder::new(),
            events: Vec::new(),
            messages: 0,
            bytes: 0,
            closed: None,
            backlog: None,
            raw: Vec::new(),
        }
    }

    /// A spectator whose socket buffers only `rcvbuf` bytes, so that not reading shows at once
    /// at the relay instead of filling megabytes of kernel buffers first.
    pub async fn connect_small(addr: SocketAddr, path: &str, rcvbuf: u32) -> Spectator {
        let sock = tokio::net::TcpSocket::new_v4().expect("socket");
        sock.set_recv_buffer_size(rcvbuf).expect("SO_RCVBUF");
        let stream = sock.connect(addr).await.expect("connect");
        let (ws, _) = tokio_tungstenite::client_async(
            format!("ws://{addr}{path}"),
            tokio_tungstenite::MaybeTlsStream::Plain(stream),
        )
        .await
        .expect("websocket connect");
        Spectator::over(ws)
    }

    /// Reads one message; false once the connection is over.
    pub async fn step(&mut self) -> bool {
        match self.ws.next().await {
            Some(Ok(Message::Binary(b))) => {
                self.messages += 1;
                self.bytes += b.len();
                self.raw.push(b.to_vec());
                let before = self.events.len();
                self.decoder
                    .decode(&b, &mut self.events)
                    .unwrap_or_else(|e| panic!("the relay sent something undecodable: {e}"));
                if self.backlog.is_none()
                    && self.events[before..]
                        .iter()
                        .any(|e| matches!(e, Event::Notice(Notice::Live)))
                {
                    self.backlog = Some((self.messages, self.bytes));
                }
                true
            }
            Some(Ok(Message::Close(f))) => {
                self.closed = Some(f.map_or((1005, String::new()), |f| {
                    (u16::from(f.code), f.reason.to_string())
                }));
                true
            }
            Some(Ok(_)) => true,
            Some(Err(_)) | None => false,
        }
    }

    /// Reads until `done` holds, failing after `secs` seconds with what was seen.
    pub async fn until(&mut self, secs: u64, what: &str, done: impl Fn(&Spectator) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        while !done(self) {
            match tokio::time::timeout_at(deadline, self.step()).await {
                Ok(true) => {}
                Ok(false) => panic!(
                    "connection ended while waiting for {what}; {} frames, notices {:?}, closed {:?}",
                    self.frames().len(),
                    self.notices(),
                    self.closed
                ),
                Err(_) => panic!(
                    "timed out waiting for {what}; {} frames, last time {:?}, notices {:?}",
                    self.frames().len(),
                    self.frames().last().map(|f| f.time),
                    self.notices()
                ),
            }
        }
    }

    /// What `pick` takes from each event received so far, in order.
    fn each<'a, T>(&'a self, pick: impl Fn(&'a Event) -> Option<T>) -> Vec<T> {
        self.events.iter().filter_map(pick).collect()
    }

    pub fn records(&self) -> Vec<Record> {
        self.each(|e| match e {
            Event::Record(r) => Some(r.clone()),
            _ => None,
        })
    }

    pub fn frames(&self) -> Vec<&Frame> {
        self.each(|e| match e {
            Event::Record(Record::Show(f)) => Some(f),
            _ => None,
        })
    }

    pub fn notices(&self) -> Vec<Notice> {
        self.each(|e| match e {
            Event::Notice(n) => Some(n.clone()),
            _ => None,
        })
    }

    /// Records since the last `NewMatch` notice.
    pub fn current_match(&self) -> Vec<Record> {
        let start = self
            .events
            .iter()
            .rposition(|e| matches!(e, Event::Notice(Notice::NewMatch { .. })))
            .map_or(0, |i| i + 1);
        self.events[start..]
            .iter()
            .filter_map(|e| match e {
                Event::Record(r) => Some(r.clone()),
                _ => None,
            })
            .collect()
    }
}

/// A plain HTTP/1.1 GET: (status, headers, body).
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    http_request(addr, "GET", path, &[], b"").await
}

/// Fails unless `text` (an answer's headers or body) holds every one of `parts`, saying
/// which is missing from `what`.
pub fn assert_has_all(text: &str, parts: &[&str], what: &str) {
    for part in parts {
        assert!(text.contains(part), "{what}: {part} in\n{text}");
    }
}

/// A plain HTTP/1.1 request with headers and a body: (status, headers, body).
pub async fn http_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method != "GET" {
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.expect("request");
    s.write_all(body).await.expect("request body");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("response");
    let split = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header");
    let head = String::from_utf8_lossy(&out[..split]).into_owned();
    let mut body = out[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(nl) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(String::from_utf8_lossy(&b[..nl]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[nl + 2..nl + 2 + size]);
        b = &b[nl + 2 + size + 2..];
    }
}
