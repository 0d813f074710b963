//! The edge side: finds the origin's matches on NATS and follows each into a hub of its own.
//!
//! Following a match: the edge reads the match's stream from its last `start` message (where
//! the current match, or the origin's run, began) through an ephemeral pull consumer, and
//! applies every envelope to its hub with [`Hub::ingest`]: the same history, live ring and
//! lag policy as the origin's, fed the same packets in the same order. It keeps the stream
//! sequence of the last message applied; after any trouble (NATS restarted, the connection
//! lost, the consumer gone) it reads again from the next sequence, so nothing is applied twice
//! and nothing is skipped. The origin's run and item index in each envelope are checked too:
//! an item seen again is dropped, and a missing one (the origin's queue overflowed, or the
//! stream's limits dropped it) starts the match afresh for this edge's spectators rather
//! than feed them frames that do not follow.
//!
//! While NATS is away the edge's spectators stay connected; they are told (a feed notice)
//! and told again when the match resumes.

use super::envelope::{self, Envelope};
use super::{stream_name, MatchList, MATCHES_STREAM, PREFIX};
use crate::app::Shared;
use crate::hub::{Hub, Step};
use crate::MatchHandle;
use async_nats::jetstream::{self, consumer};
use futures_util::StreamExt;
use pitchside_wire::feed::FeedSource;
use pitchside_wire::Notice;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// What an edge says while it cannot reach NATS.
pub const LOST: &str =
    "this relay lost its link to the venue (NATS); the match resumes when it is back";

pub use crate::app::EdgeStats;

/// What the edge needs from the relay's settings.
#[derive(Clone)]
pub struct EdgeConfig {
    pub history_cap: usize,
    pub lag: usize,
    pub max_delay: std::time::Duration,
}

/// Starts discovering and following matches; the task ends after `stop`.
pub fn start(
    client: async_nats::Client,
    shared: Arc<Shared>,
    config: EdgeConfig,
    stats: Arc<EdgeStats>,
    connected: watch::Receiver<bool>,
    stop: watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(discover(client, shared, config, stats, connected, stop))
}

struct Followed {
    kind: String,
    stop: watch::Sender<bool>,
}

async fn discover(
    client: async_nats::Client,
    shared: Arc<Shared>,
    config: EdgeConfig,
    stats: Arc<EdgeStats>,
    mut connected: watch::Receiver<bool>,
    mut stop: watch::Receiver<bool>,
) {
    let js = jetstream::new(client);
    let mut followed: HashMap<String, Followed> = HashMap::new();
    loop {
        if !*connected.borrow() {
            tokio::select! {
                _ = connected.changed() => continue,
                () = crate::stopped(&mut stop) => break,
            }
        }
        let lists = match list_messages(&js).await {
            Ok(s) => s,
            Err(e) => {
                tracing::debug!("the match list: {e}; retrying");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(500)) => continue,
                    () = crate::stopped(&mut stop) => break,
                }
            }
        };
        let mut lists = std::pin::pin!(lists);
        loop {
            let msg = tokio::select! {
                m = lists.next() => m,
                () = crate::stopped(&mut stop) => {
                    for f in followed.values() {
                        f.stop.send_replace(true);
                    }
                    return;
                }
            };
            let Some(Ok(msg)) = msg else {
                break;
            };
            let list: MatchList = match serde_json::from_slice(&msg.payload) {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!("a match list that does not parse: {e}");
                    continue;
                }
            };
            reconcile(
                &js,
                &shared,
                &config,
                &stats,
                &connected,
                &mut followed,
                &list,
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for f in followed.values() {
        f.stop.send_replace(true);
    }
}

/// The match list's messages: the last one, then every new one.
async fn list_messages(js: &jetstream::Context) -> Result<consumer::pull::Stream, String> {
    let stream = js
        .get_stream(MATCHES_STREAM)
        .await
        .map_err(|e| e.to_string())?;
    let c = stream
        .create_consumer(consumer::pull::Config {
            deliver_policy: consumer::DeliverPolicy::LastPerSubject,
            filter_subject: super::MATCHES_SUBJECT.into(),
            ack_policy: consumer::AckPolicy::None,
            inactive_threshold: Duration::from_secs(60),
            ..Default::default()
        })
        .await
        .map_err(|e| e.to_string())?;
    c.stream()
        .heartbeat(Duration::from_secs(5))
        .expires(Duration::from_secs(30))
        .messages()
        .await
        .map_err(|e| e.to_string())
}

fn static_kind(kind: &str) -> &'static str {
    match kind {
        "replay" => "replay",
        _ => "live",
    }
}

fn reconcile(
    js: &jetstream::Context,
    shared: &Arc<Shared>,
    config: &EdgeConfig,
    stats: &Arc<EdgeStats>,
    connected: &watch::Receiver<bool>,
    followed: &mut HashMap<String, Followed>,
    list: &MatchList,
) {
    for m in &list.matches {
        if !crate::config::valid_name(&m.name) {
            tracing::warn!(
                "the origin lists a match called {:?}: not a valid name; ignored",
                m.name
            );
            continue;
        }
        if followed.get(&m.name).is_some_and(|f| f.kind == m.kind) {
            continue;
        }
        if let Some(old) = followed.remove(&m.name) {
            old.stop.send_replace(true);
        }
        let hub = match shared.matches.find(&m.name) {
            Some(h) => h.hub.clone(),
            None => {
                let hub = Arc::new(
                    Hub::new(&m.name, config.history_cap, config.lag)
                        .with_max_delay(config.max_delay),
                );
                hub.set_ready(false);
                hub
            }
        };
        // Commands for an edge's matches go to the origin over NATS (see `forward`), never
        // to this channel: its receiver is gone, so a send fails at once.
        let (control, _) = mpsc::channel(1);
        shared.matches.upsert(MatchHandle {
            hub: hub.clone(),
            control,
            kind: static_kind(&m.kind),
            port: None,
            // Floods are cut at the origin, which runs the commands.
            flood: crate::control::Flood::default(),
        });
        let (tx, rx) = watch::channel(false);
        tokio::spawn(follow(
            js.clone(),
            hub,
            stats.clone(),
            connected.clone(),
            rx,
        ));
        tracing::info!("following match {} from NATS", m.name);
        followed.insert(
            m.name.clone(),
            Followed {
                kind: m.kind.clone(),
                stop: tx,
            },
        );
    }
    if list.running {
        let gone: Vec<String> = followed
            .keys()
            .filter(|n| !list.matches.iter().any(|m| &m.name == *n))
            .cloned()
            .collect();
        for name in gone {
            if let Some(f) = followed.remove(&name) {
                f.stop.send_replace(true);
            }
            if let Some(m) = shared.matches.remove(&name) {
                tracing::info!("match {name} is no longer published by the origin");
                m.hub.override_feed(Some((
                    FeedSource::Waiting,
                    "the venue no longer publishes this match".into(),
                )));
            }
        }
    }
}

/// Where this edge is in a match's stream.
#[derive(Default)]
struct Cursor {
    /// Stream sequence of the last message applied (0: none yet).
    seq: u64,
    /// The origin's run and the index of the next item expected from it.
    run: Option<u64>,
    next: u64,
}

async fn follow(
    js: jetstream::Context,
    hub: Arc<Hub>,
    stats: Arc<EdgeStats>,
    mut connected: watch::Receiver<bool>,
    mut stop: watch::Receiver<bool>,
) {
    let name = hub.name.clone();
    let stream_name = stream_name(&name);
    let filter = format!("{PREFIX}.match.{}.>", super::token(&name));
    let mut cursor = Cursor::default();
    let mut lost = false;
    loop {
        if *stop.borrow() {
            return;
        }
        if !*connected.borrow() {
            if !lost {
                lost = true;
                hub.override_feed(Some((FeedSource::Waiting, LOST.into())));
            }
            tokio::select! {
                _ = connected.changed() => continue,
                () = crate::stopped(&mut stop) => return,
            }
        }
        let opened = open(&js, &stream_name, &filter, &name, cursor.seq).await;
        let (mut messages, last_at_open) = match opened {
            Ok(o) => o,
            Err(e) => {
                tracing::debug!("{name}: cannot read {stream_name}: {e}; retrying");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(300)) => continue,
                    () = crate::stopped(&mut stop) => return,
                }
            }
        };
        if cursor.seq >= last_at_open {
            hub.set_ready(true);
            if lost {
                lost = false;
                hub.override_feed(None);
            }
        }
        loop {
            let got = tokio::select! {
                m = messages.next() => m,
                changed = connected.changed() => {
                    if changed.is_err() || !*connected.borrow() {
                        break;
                    }
                    continue;
                }
                () = crate::stopped(&mut stop) => return,
            };
            let msg = match got {
                Some(Ok(m)) => m,
                Some(Err(e)) => {
                    tracing::debug!("{name}: reading {stream_name}: {e}; reading again");
                    break;
                }
                None => break,
            };
            let Ok(info) = msg.info() else {
                continue;
            };
            let (seq, pending) = (info.stream_sequence, info.pending);
            if seq <= cursor.seq {
                stats.duplicates.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            cursor.seq = seq;
            match envelope::decode(&msg.payload) {
                Ok(env) => apply(&hub, &stats, &mut cursor, env),
                Err(e) => {
                    stats.damaged.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!("{name}: message {seq} of {stream_name}: {e}");
                }
            }
            if pending == 0 || seq >= last_at_open {
                hub.set_ready(true);
                if lost {
                    lost = false;
                    hub.override_feed(None);
                }
            }
        }
        // Lost: try again from the next sequence, after a moment.
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(200)) => {}
            () = crate::stopped(&mut stop) => return,
        }
    }
}

/// An ephemeral consumer from `after + 1` (or from where the current match began), and the
/// stream's last sequence at that moment (to know when this edge has caught up).
async fn open(
    js: &jetstream::Context,
    stream_name: &str,
    filter: &str,
    name: &str,
    after: u64,
) -> Result<(consumer::pull::Stream, u64), String> {
    let mut stream = js
        .get_stream(stream_name)
        .await
        .map_err(|e| e.to_string())?;
    let last = stream
        .info()
        .await
        .map_err(|e| e.to_string())?
        .state
        .last_sequence;
    let start = if after > 0 {
        after + 1
    } else {
        // Where the match (or the origin's run) began; with none, from the oldest item.
        match stream
            .get_last_raw_message_by_subject(&super::match_subject(name, "start"))
            .await
        {
            Ok(m) => m.sequence,
            Err(_) => 1,
        }
    };
    let c = stream
        .create_consumer(consumer::pull::Config {
            deliver_policy: consumer::DeliverPolicy::ByStartSequence {
                start_sequence: start.max(1),
            },
            filter_subject: filter.to_owned(),
            ack_policy: consumer::AckPolicy::None,
            inactive_threshold: Duration::from_secs(30),
            ..Default::default()
        })
        .await
        .map_err(|e| e.to_string())?;
    let messages = c
        .stream()
        .max_messages_per_batch(1000)
        .heartbeat(Duration::from_secs(2))
        .expires(Duration::from_secs(10))
        .messages()
        .await
        .map_err(|e| e.to_string())?;
    Ok((messages, last))
}

/// Applies one envelope to the hub, in the origin's order, once.
fn apply(hub: &Hub, stats: &EdgeStats, cursor: &mut Cursor, env: Envelope) {
    let same_run = cursor.run == Some(env.run);
    if same_run && env.index < cursor.next {
        stats.duplicates.fetch_add(1, Ordering::Relaxed);
        return;
    }
    let starts_match = matches!(
        env.step,
        Some(Step::Notice {
            notice: Notice::NewMatch { .. },
            ..
        })
    );
    if same_run && env.index > cursor.next && !starts_match {
        // Items are missing: what follows builds on frames this edge never had.
        stats.gaps.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(
            "{}: items {}..{} of the origin are missing; starting the match afresh",
            hub.name,
            cursor.next,
            env.index
        );
        let state = hub.state();
        hub.adopt(&state, true);
    }
    if !same_run && !env.begins() {
        // Following a run from its middle without its start: the oldest items are gone.
        let state = hub.state();
        hub.adopt(&state, true);
    }
    cursor.run = Some(env.run);
    match env.step {
        None => {
            cursor.next = env.index;
            if let Some(state) = &env.state {
                hub.adopt(state, false);
            }
        }
        Some(step) => {
            cursor.next = env.index + 1;
            hub.ingest(step, env.state.as_ref());
        }
    }
    stats.applied.fetch_add(1, Ordering::Relaxed);
}
