//! The origin side: every match's items to its JetStream stream, the match list, and the
//! answers to operator commands that edges forward.
//!
//! Publishing never holds up a match: the hub hands items to an unbounded channel under its
//! lock and goes on; a task per match wraps them and publishes them in order, up to
//! [`WINDOW`] awaiting their acknowledgement at once. Each message carries a `Nats-Msg-Id`
//! (run and index), so what is sent again after a lost connection is stored once (within the
//! stream's two-minute duplicate window; edges drop anything older they see twice by its
//! index). While NATS is away the items wait in the task's queue, up to [`QUEUE_BYTES`] per
//! match (hours of play); beyond that the oldest are dropped, which edges notice as a gap
//! and answer by starting the match afresh for their spectators.

use super::control::{self, ControlFn};
use super::envelope;
use super::{
    match_subject, stream_name, ListedMatch, MatchList, NatsOptions, MATCHES_STREAM,
    MATCHES_SUBJECT, PREFIX,
};
use crate::hub::{Hub, Tapped};
use async_nats::jetstream::{self, context::PublishAckFuture, stream};
use bytes::Bytes;
use futures_util::stream::FuturesOrdered;
use futures_util::StreamExt;
use pitchside_wire::feed::FeedSource;
use std::collections::VecDeque;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// Publishes awaiting their acknowledgement at once, per match: at 10 items a second a match
/// needs one; after an outage this lets the backlog go out at the link's speed.
const WINDOW: usize = 256;
/// Bytes of items a match may queue while NATS is away: ~2 KB a frame, so ~6 hours of play.
const QUEUE_BYTES: usize = 128 << 20;
/// How often the match list is published again (a NATS that lost its store learns it anew).
const LIST_EVERY: Duration = Duration::from_secs(10);
/// The JetStream acknowledgement timeout: a lost publish is sent again this soon.
const ACK_TIMEOUT: Duration = Duration::from_secs(2);

/// One match as the origin publishes it.
pub struct Published {
    pub hub: Arc<Hub>,
    /// `live` or `replay`.
    pub kind: &'static str,
}

/// Starts publishing: taps every hub, and returns the tasks (they end after `stop`, once
/// what is queued went out or a moment passed).
pub fn start(
    client: async_nats::Client,
    opts: NatsOptions,
    matches: Vec<Published>,
    control: ControlFn,
    connected: watch::Receiver<bool>,
    stop: watch::Receiver<bool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let run = super::new_run();
    let mut js = jetstream::new(client.clone());
    js.set_timeout(ACK_TIMEOUT);
    let mut tasks = Vec::new();
    let list = MatchList {
        run,
        relay: env!("CARGO_PKG_VERSION").into(),
        running: true,
        matches: matches
            .iter()
            .map(|m| ListedMatch {
                name: m.hub.name.clone(),
                kind: m.kind.into(),
                stream: stream_name(&m.hub.name),
            })
            .collect(),
    };
    for m in matches {
        let (tx, rx) = mpsc::unbounded_channel();
        m.hub.tap(tx);
        tasks.push(tokio::spawn(publish_match(
            js.clone(),
            opts.clone(),
            m.hub.clone(),
            run,
            rx,
            connected.clone(),
            stop.clone(),
        )));
    }
    tasks.push(tokio::spawn(publish_list(js, list, stop.clone())));
    tasks.push(tokio::spawn(control::answer(client, control, stop)));
    tasks
}

/// One publish waiting in line.
struct Pending {
    subject: String,
    id: String,
    payload: Bytes,
}

type Ack = Pin<
    Box<
        dyn Future<
                Output = Result<jetstream::publish::PublishAck, jetstream::context::PublishError>,
            > + Send,
    >,
>;

async fn ensure_stream(js: &jetstream::Context, config: stream::Config) -> Result<(), String> {
    match js.get_stream(&config.name).await {
        Ok(_) => js
            .update_stream(config)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err(_) => js
            .create_stream(config)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string()),
    }
}

fn match_stream_config(name: &str, opts: &NatsOptions) -> stream::Config {
    stream::Config {
        name: stream_name(name),
        subjects: vec![format!("{PREFIX}.match.{}.>", super::token(name))],
        max_bytes: opts.stream_bytes,
        max_age: opts.stream_age,
        storage: stream::StorageType::File,
        discard: stream::DiscardPolicy::Old,
        duplicate_window: Duration::from_secs(120),
        ..Default::default()
    }
}

async fn publish_match(
    js: jetstream::Context,
    opts: NatsOptions,
    hub: Arc<Hub>,
    run: u64,
    mut rx: mpsc::UnboundedReceiver<Tapped>,
    mut connected: watch::Receiver<bool>,
    mut stop: watch::Receiver<bool>,
) {
    let name = hub.name.clone();
    let config = match_stream_config(&name, &opts);
    let mut queue: VecDeque<Pending> = VecDeque::new();
    let mut queued = 0usize;
    let mut dropped = 0u64;
    let mut ready = false;
    let mut inflight: FuturesOrdered<Ack> = FuturesOrdered::new();
    // Entries at the front of `queue` that were sent and await their acknowledgement.
    let mut sent = 0usize;
    let mut retry_at: Option<tokio::time::Instant> = Some(tokio::time::Instant::now());
    let mut stopping: Option<tokio::time::Instant> = None;
    let mut rx_open = true;
    loop {
        if let Some(deadline) = stopping {
            if queue.is_empty() || tokio::time::Instant::now() >= deadline {
                if !queue.is_empty() {
                    tracing::warn!(
                        "{name}: {} items not published to NATS at shutdown",
                        queue.len()
                    );
                }
                return;
            }
        }
        let now = tokio::time::Instant::now();
        if retry_at.is_some_and(|t| t <= now) && *connected.borrow() {
            retry_at = None;
            if !ready {
                match ensure_stream(&js, config.clone()).await {
                    Ok(()) => {
                        tracing::info!("{name}: publishing to the NATS stream {}", config.name);
                        ready = true;
                    }
                    Err(e) => {
                        tracing::warn!("{name}: NATS stream {}: {e}; retrying", config.name);
                        retry_at = Some(now + Duration::from_secs(1));
                    }
                }
            }
        }
        while ready && retry_at.is_none() && sent < queue.len() && inflight.len() < WINDOW {
            let p = &queue[sent];
            let msg = jetstream::message::PublishMessage::build()
                .payload(p.payload.clone())
                .message_id(&p.id);
            match js.send_publish(p.subject.clone(), msg).await {
                Ok(fut) => {
                    inflight.push_back(Box::pin(PublishAckFuture::into_future(fut)));
                    sent += 1;
                }
                Err(e) => {
                    tracing::debug!("{name}: publish: {e}");
                    inflight = FuturesOrdered::new();
                    sent = 0;
                    retry_at = Some(tokio::time::Instant::now() + Duration::from_millis(200));
                    break;
                }
            }
        }
        let wake = match retry_at {
            Some(t) if *connected.borrow() => t,
            // Nothing to do before NATS is back (or an item comes).
            _ => now + Duration::from_secs(3600),
        };
        tokio::select! {
            Some(res) = inflight.next(), if !inflight.is_empty() => match res {
                Ok(_) => {
                    if let Some(p) = queue.pop_front() {
                        queued -= p.payload.len();
                    }
                    sent -= 1;
                }
                Err(e) => {
                    tracing::debug!("{name}: NATS did not acknowledge an item ({e}); sending again");
                    if matches!(e.kind(), jetstream::context::PublishErrorKind::StreamNotFound) {
                        ready = false;
                    }
                    inflight = FuturesOrdered::new();
                    sent = 0;
                    retry_at = Some(tokio::time::Instant::now() + Duration::from_millis(200));
                }
            },
            got = rx.recv(), if rx_open => match got {
                Some(t) => {
                    enqueue(&mut queue, &mut queued, run, &name, &t);
                    while queued > QUEUE_BYTES && queue.len() > sent + 1 {
                        if let Some(p) = queue.remove(sent) {
                            queued -= p.payload.len();
                            dropped += 1;
                            if dropped.is_power_of_two() {
                                tracing::error!("{name}: NATS is away and {dropped} items were dropped from the queue; edges will start the match afresh");
                            }
                        }
                    }
                }
                None => rx_open = false,
            },
            changed = connected.changed() => {
                if changed.is_err() {
                    return;
                }
                if !*connected.borrow() {
                    // What was in flight may be lost: it goes again after reconnecting, and
                    // what did arrive is dropped by its message id.
                    inflight = FuturesOrdered::new();
                    sent = 0;
                }
                retry_at = Some(tokio::time::Instant::now());
            },
            () = tokio::time::sleep_until(wake) => {}
            () = crate::stopped(&mut stop), if stopping.is_none() => {
                // Edges keep the match, waiting for this origin to come back: say so, and
                // send what is queued, for a moment.
                hub.set_feed(
                    FeedSource::Waiting,
                    "the relay at the venue stopped; waiting for it",
                );
                while let Ok(t) = rx.try_recv() {
                    enqueue(&mut queue, &mut queued, run, &name, &t);
                }
                rx_open = false;
                stopping = Some(tokio::time::Instant::now() + Duration::from_millis(1500));
            },
        }
    }
}

fn enqueue(queue: &mut VecDeque<Pending>, queued: &mut usize, run: u64, name: &str, t: &Tapped) {
    let payload = Bytes::from(envelope::encode(run, t));
    *queued += payload.len();
    queue.push_back(Pending {
        subject: match_subject(name, envelope::suffix(t)),
        id: format!("{run:x}-{}", t.index),
        payload,
    });
}

async fn publish_list(
    js: jetstream::Context,
    mut list: MatchList,
    mut stop: watch::Receiver<bool>,
) {
    let config = stream::Config {
        name: MATCHES_STREAM.into(),
        subjects: vec![MATCHES_SUBJECT.into()],
        max_messages_per_subject: 1,
        storage: stream::StorageType::File,
        discard: stream::DiscardPolicy::Old,
        ..Default::default()
    };
    let mut ready = false;
    let mut every = tokio::time::interval(LIST_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut quick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = quick.tick(), if !ready => {}
            () = crate::stopped(&mut stop) => break,
        }
        if !ready {
            match ensure_stream(&js, config.clone()).await {
                Ok(()) => ready = true,
                Err(e) => {
                    tracing::debug!("NATS stream {MATCHES_STREAM}: {e}");
                    continue;
                }
            }
        }
        if let Err(e) = publish_json(&js, &list).await {
            tracing::debug!("the match list: {e}");
            ready = false;
        }
    }
    list.running = false;
    if let Err(e) = publish_json(&js, &list).await {
        tracing::warn!("could not tell NATS that this relay stops: {e}");
    }
}

async fn publish_json(js: &jetstream::Context, list: &MatchList) -> Result<(), String> {
    let body = serde_json::to_vec(list).map_err(|e| e.to_string())?;
    let ack = js
        .publish(MATCHES_SUBJECT, Bytes::from(body))
        .await
        .map_err(|e| e.to_string())?;
    ack.await.map(|_| ()).map_err(|e| e.to_string())
}
