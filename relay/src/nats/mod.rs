//! Spectators beyond one machine: an *origin* relay (the one next to rcssserver) publishes every
//! match to NATS with JetStream, and any number of *edge* relays serve it to their own
//! spectators with the very same wire.
//!
//! The origin's hub hands every item it sends its own spectators, in order, to a tap
//! ([`crate::hub::Hub::tap`]); [`origin`] wraps each in an [`envelope`] (the packets as they
//! are, encoded once, plus what an edge needs to apply them) and publishes it to the match's
//! JetStream stream. [`edge`] reads each match's stream into a [`crate::hub::Hub`] of its own
//! through [`crate::hub::Hub::ingest`], the same code path that builds the origin's history,
//! live ring and lag policy, so an edge is the relay with NATS instead of UDP as its source.
//!
//! Subjects (version 1; book, "Edge relays"), `TOKEN` being the match name with `.` as `~`:
//! - `pitchside.v1.matches`: the origin's match list (JSON, [`MatchList`]), kept in the
//!   stream [`MATCHES_STREAM`] (last message only);
//! - `pitchside.v1.match.TOKEN.start` / `.notice` / `.records` / `.frame`: the match's
//!   items, in the stream `PITCHSIDE_V1_TOKEN` ([`stream_name`]);
//! - `pitchside.v1.control.TOKEN`: operator commands, request/reply, answered by the origin.

pub mod control;
pub mod edge;
pub mod envelope;
pub mod origin;

use std::time::Duration;

/// The prefix every subject of this version starts with.
pub const PREFIX: &str = "pitchside.v1";
/// The match list's subject.
pub const MATCHES_SUBJECT: &str = "pitchside.v1.matches";
/// The stream that keeps the last match list.
pub const MATCHES_STREAM: &str = "PITCHSIDE_V1_MATCHES";

/// A match name as one subject token: names may hold `.`, NATS's token separator, and never
/// `~`, which stands in for it.
pub fn token(name: &str) -> String {
    name.replace('.', "~")
}

/// The JetStream stream holding one match's items.
pub fn stream_name(name: &str) -> String {
    format!("PITCHSIDE_V1_{}", token(name))
}

/// The subjects of one match's items: `pitchside.v1.match.TOKEN.*`.
pub fn match_subject(name: &str, suffix: &str) -> String {
    format!("{PREFIX}.match.{}.{suffix}", token(name))
}

/// Operator commands for one match go here.
pub fn control_subject(name: &str) -> String {
    format!("{PREFIX}.control.{}", token(name))
}

/// How to reach NATS and how much each match's stream keeps.
#[derive(Clone, Debug)]
pub struct NatsOptions {
    /// `nats://HOST:PORT` (several, comma-separated, for a cluster).
    pub url: String,
    pub user: Option<String>,
    pub password: Option<String>,
    /// An nkey seed (`SU…`), read from the file `--nats-nkey` names.
    pub nkey_seed: Option<String>,
    /// Bytes a match's stream keeps; the oldest items go first.
    pub stream_bytes: i64,
    /// Age after which a match's items leave its stream.
    pub stream_age: Duration,
}

impl NatsOptions {
    pub fn new(url: impl Into<String>) -> NatsOptions {
        NatsOptions {
            url: url.into(),
            user: None,
            password: None,
            nkey_seed: None,
            stream_bytes: 256 << 20,
            stream_age: Duration::from_secs(24 * 3600),
        }
    }
}

/// The origin's match list, as published on [`MATCHES_SUBJECT`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchList {
    /// The origin's run (see [`envelope`]): a new one after every restart.
    pub run: u64,
    /// The origin's software version.
    pub relay: String,
    /// False once the origin stopped (its matches stay, waiting for it).
    pub running: bool,
    pub matches: Vec<ListedMatch>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ListedMatch {
    pub name: String,
    /// `live` or `replay`, as configured at the origin.
    pub kind: String,
    pub stream: String,
}

#[derive(Debug, thiserror::Error)]
pub enum NatsError {
    #[error("cannot connect to NATS at {url}: {message}")]
    Connect { url: String, message: String },
    #[error("the nkey seed is not valid: {0}")]
    Nkey(String),
}

/// Connects (in the background: a relay starts, and keeps serving, whether NATS is up or
/// not), reconnecting for ever with a short, jittered delay. `events` gets every connection
/// change.
pub async fn connect(
    opts: &NatsOptions,
    role: &str,
    events: tokio::sync::watch::Sender<bool>,
) -> Result<async_nats::Client, NatsError> {
    let mut o = async_nats::ConnectOptions::new()
        .name(format!(
            "pitchside-relay {} ({role})",
            env!("CARGO_PKG_VERSION")
        ))
        .retry_on_initial_connect()
        .max_reconnects(None)
        // Frames are small and due now: flush at once.
        .client_capacity(65536)
        .reconnect_delay_callback(|attempts| {
            let base = Duration::from_millis(100 * attempts.min(20) as u64);
            base + Duration::from_millis(u64::from(rand_jitter()) % 250)
        })
        .event_callback(move |e| {
            let events = events.clone();
            async move {
                match e {
                    async_nats::Event::Connected => {
                        tracing::info!("NATS: connected");
                        events.send_replace(true);
                    }
                    async_nats::Event::Disconnected => {
                        tracing::warn!("NATS: disconnected; reconnecting");
                        events.send_replace(false);
                    }
                    other => tracing::info!("NATS: {other}"),
                }
            }
        });
    if let (Some(u), Some(p)) = (&opts.user, &opts.password) {
        o = o.user_and_password(u.clone(), p.clone());
    }
    if let Some(seed) = &opts.nkey_seed {
        o = o.nkey(seed.clone());
    }
    o.connect(opts.url.as_str())
        .await
        .map_err(|e| NatsError::Connect {
            url: opts.url.clone(),
            message: e.to_string(),
        })
}

/// A few bits of jitter without a random-number crate: the clock's nanoseconds.
fn rand_jitter() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos())
}

/// A run number for this process: clock and process id, so that two runs never share one.
pub fn new_run() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    now ^ (u64::from(std::process::id()) << 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_subject_tokens_and_stream_names() {
        assert_eq!(
            match_subject("field-a", "frame"),
            "pitchside.v1.match.field-a.frame"
        );
        assert_eq!(
            match_subject("127.0.0.1-6000", "start"),
            "pitchside.v1.match.127~0~0~1-6000.start"
        );
        assert_eq!(stream_name("final.2026"), "PITCHSIDE_V1_final~2026");
        assert_eq!(control_subject("a.b"), "pitchside.v1.control.a~b");
    }
}
