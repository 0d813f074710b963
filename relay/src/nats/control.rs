//! Operator commands through an edge: `GET`/`POST /m/NAME/control` at an edge travel to the
//! origin over NATS request/reply (core NATS, nothing stored) on `pitchside.v1.control.TOKEN`,
//! and the origin's answer comes back as the HTTP response.
//!
//! The token is checked at the origin only: the edge passes the page's `Authorization`
//! header on untouched and never knows a valid token, so a compromised or misconfigured edge
//! cannot command a match, and one token per match holds for the whole deployment. The edge
//! also passes the page's address (`Pitchside-Client`), so that failed attempts are counted
//! per page at the origin, as for requests it receives itself, and not per edge.
//!
//! The origin answers through a [`ControlFn`]: the very function its own control route ends
//! in, so a forwarded command is decided exactly as a local one.
//!
//! Request headers: `Pitchside-Method` (`GET`: is the token right; `POST`: a command, in the
//! body), `Authorization`, `Content-Type`, `Pitchside-Client`, `Pitchside-Edge` (the edge's
//! name, for the origin's log). Reply headers: `Pitchside-Status` (the HTTP status),
//! `Content-Type`, and `Retry-After` where the origin gives one.

use super::{control_subject, PREFIX};
use bytes::Bytes;
use futures_util::StreamExt;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How long an edge waits for the origin's answer. The origin's own wait for the server is
/// 3 s; this leaves room for two NATS hops.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// Longest command body an edge forwards (a command is a few hundred bytes of JSON).
pub const MAX_BODY: usize = 4096;

pub const H_METHOD: &str = "Pitchside-Method";
pub const H_AUTHORIZATION: &str = "Authorization";
pub const H_CONTENT_TYPE: &str = "Content-Type";
pub const H_CLIENT: &str = "Pitchside-Client";
pub const H_EDGE: &str = "Pitchside-Edge";
pub const H_STATUS: &str = "Pitchside-Status";
pub const H_RETRY_AFTER: &str = "Retry-After";

/// What the page asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Whether the token is right, and what the operator may do.
    Get,
    /// One command.
    Post,
}

impl Method {
    fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// An operator request as the origin receives it from an edge.
#[derive(Debug, Clone)]
pub struct ControlRequest {
    pub name: String,
    pub method: Method,
    pub authorization: Option<String>,
    pub content_type: Option<String>,
    /// The page's address as the edge saw it (none if the edge could not tell).
    pub client: Option<IpAddr>,
    /// The edge's NATS connection name.
    pub edge: String,
    pub body: Bytes,
}

/// The answer that goes back to the edge, and from there to the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlReply {
    pub status: u16,
    pub content_type: String,
    pub retry_after: Option<u64>,
    pub body: Bytes,
}

impl ControlReply {
    /// A JSON `{"error": …}` answer, the form the control endpoint uses.
    pub fn error(status: u16, message: impl AsRef<str>) -> ControlReply {
        ControlReply {
            status,
            content_type: "application/json".into(),
            retry_after: None,
            body: Bytes::from(serde_json::json!({ "error": message.as_ref() }).to_string()),
        }
    }
}

/// How the origin answers a forwarded request.
pub type ControlFn =
    Arc<dyn Fn(ControlRequest) -> Pin<Box<dyn Future<Output = ControlReply> + Send>> + Send + Sync>;

/// Answers operator requests forwarded by edges, at the origin, until `stop`.
pub async fn answer(
    client: async_nats::Client,
    control: ControlFn,
    mut stop: watch::Receiver<bool>,
) {
    let subject = format!("{PREFIX}.control.*");
    let mut sub = loop {
        match client.subscribe(subject.clone()).await {
            Ok(s) => break s,
            Err(e) => {
                tracing::warn!("NATS: cannot subscribe to {subject}: {e}; retrying");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                    () = crate::stopped(&mut stop) => return,
                }
            }
        }
    };
    loop {
        let msg = tokio::select! {
            m = sub.next() => match m { Some(m) => m, None => return },
            () = crate::stopped(&mut stop) => return,
        };
        let Some(reply_to) = msg.reply.clone() else {
            continue;
        };
        let client = client.clone();
        let control = control.clone();
        tokio::spawn(async move {
            let reply = match request_from(&msg) {
                Ok(req) => control(req).await,
                Err(e) => ControlReply::error(400, e),
            };
            let mut headers = async_nats::HeaderMap::new();
            headers.insert(H_STATUS, reply.status.to_string().as_str());
            headers.insert(H_CONTENT_TYPE, reply.content_type.as_str());
            if let Some(s) = reply.retry_after {
                headers.insert(H_RETRY_AFTER, s.to_string().as_str());
            }
            if let Err(e) = client
                .publish_with_headers(reply_to, headers, reply.body)
                .await
            {
                tracing::warn!("NATS: cannot answer an operator request: {e}");
            }
        });
    }
}

fn header(msg: &async_nats::Message, name: &str) -> Option<String> {
    msg.headers
        .as_ref()
        .and_then(|h| h.get(name))
        .map(|v| v.as_str().to_owned())
}

/// Reads a forwarded request: the match from the subject, the rest from the headers.
fn request_from(msg: &async_nats::Message) -> Result<ControlRequest, String> {
    let token = msg
        .subject
        .as_str()
        .strip_prefix(PREFIX)
        .and_then(|s| s.strip_prefix(".control."))
        .filter(|t| !t.is_empty() && !t.contains('.'))
        .ok_or_else(|| format!("not a control subject: {}", msg.subject))?;
    let method = match header(msg, H_METHOD).as_deref() {
        Some("GET") => Method::Get,
        Some("POST") | None => Method::Post,
        Some(other) => return Err(format!("unknown method {other}")),
    };
    Ok(ControlRequest {
        name: token.replace('~', "."),
        method,
        authorization: header(msg, H_AUTHORIZATION),
        content_type: header(msg, H_CONTENT_TYPE),
        client: header(msg, H_CLIENT).and_then(|c| c.parse().ok()),
        edge: header(msg, H_EDGE).unwrap_or_default(),
        body: msg.payload.clone(),
    })
}

/// At an edge: sends one page's request to the origin and returns its answer (503 when no
/// origin listens, 504 when it does not answer within [`TIMEOUT`]).
pub async fn forward(client: &async_nats::Client, req: ControlRequest) -> ControlReply {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(H_METHOD, req.method.as_str());
    headers.insert(H_EDGE, req.edge.as_str());
    if let Some(a) = &req.authorization {
        headers.insert(H_AUTHORIZATION, a.as_str());
    }
    if let Some(c) = &req.content_type {
        headers.insert(H_CONTENT_TYPE, c.as_str());
    }
    if let Some(ip) = req.client {
        headers.insert(H_CLIENT, ip.to_string().as_str());
    }
    let req = client.request_with_headers(control_subject(&req.name), headers, req.body);
    match tokio::time::timeout(TIMEOUT, req).await {
        Err(_) => ControlReply::error(504, "the relay at the venue did not answer in time"),
        Ok(Err(e)) => match e.kind() {
            async_nats::RequestErrorKind::NoResponders => {
                ControlReply::error(503, "the relay at the venue is not reachable right now")
            }
            async_nats::RequestErrorKind::TimedOut => {
                ControlReply::error(504, "the relay at the venue did not answer in time")
            }
            _ => ControlReply::error(502, format!("the request could not reach the venue: {e}")),
        },
        Ok(Ok(msg)) => ControlReply {
            status: header(&msg, H_STATUS)
                .and_then(|s| s.parse::<u16>().ok())
                .filter(|s| (100..600).contains(s))
                .unwrap_or(502),
            content_type: header(&msg, H_CONTENT_TYPE)
                .unwrap_or_else(|| "text/plain; charset=utf-8".into()),
            retry_after: header(&msg, H_RETRY_AFTER).and_then(|s| s.parse().ok()),
            body: msg.payload,
        },
    }
}

/// The origin's answer to forwarded requests: what its own control endpoint answers a page
/// ([`crate::app::control_answer`]), the token checked here at the origin against the page's
/// address (failed attempts count per page, not per edge).
pub fn at_origin(shared: Arc<crate::app::Shared>) -> ControlFn {
    Arc::new(move |req: ControlRequest| {
        let shared = shared.clone();
        Box::pin(async move {
            let client = req.client.unwrap_or(IpAddr::from([0, 0, 0, 0]));
            let command = match req.method {
                Method::Get => None,
                Method::Post => Some(&req.body[..]),
            };
            let via = format!(" via edge {}", req.edge);
            let a = crate::app::control_answer(
                &shared,
                &req.name,
                client,
                req.authorization.as_deref(),
                command,
                &via,
            )
            .await;
            ControlReply {
                status: a.status,
                content_type: "application/json".into(),
                retry_after: a.retry_after,
                body: Bytes::from(a.body.to_string()),
            }
        })
    })
}
