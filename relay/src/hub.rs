//! One match's shared state: its history, its live stream, and what `/api` and `/metrics`
//! say about it.
//!
//! Only the match's own task writes here (through [`Hub::publish`] and the notice methods);
//! spectators read. Everything is encoded once, at publish time, and shared as `Bytes`.
//! Joining takes the history snapshot and the live subscription under the same lock as
//! publishing, so a joiner gets every item exactly once: what was published before it joined
//! is in the snapshot, what comes after arrives live.
//!
//! Live items go to spectators on plain TCP through the match's fan-out ([`crate::fanout`]),
//! which the publisher only hands them to: whatever the spectators cost, the history and the
//! recording keep up with the server. The others (TLS) take them from a bounded broadcast
//! ring of [`Item`]s. A spectator that falls more than the ring behind is moved ahead; it then
//! fetches the items it must never miss (notices, parameters, messages, team graphics:
//! everything but frames) from a second, longer log kept here, and resumes with the next
//! frame's keyframe. Memory per match is thus bounded by the ring, that log and the history
//! cap, however slow spectators are.

use crate::fanout::{Direct, FanOut};
use crate::history::{History, ItemKind};
pub use crate::item::{Body, Item, Stats};
use bytes::Bytes;
use chrono::{DateTime, Local};
use pitchside_wire::feed::FeedSource;
use pitchside_wire::{self as wire, Encoder, Notice};
use rcss_formats::params::ServerParams;
use rcss_formats::{PlayMode, Record, Team};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, watch};

/// Items other than frames kept for spectators that lag: far more than a match produces
/// between two frames (a `record_messages` log has ~40 msgs per cycle).
const IMPORTANT_CAP: usize = 8192;

/// What `/api/matches` says about a match.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    pub name: String,
    pub source: FeedSource,
    pub label: String,
    pub teams: [Option<String>; 2],
    pub score: [u32; 2],
    /// Penalty shoot-out goals, once one started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalties: Option<[u32; 2]>,
    pub cycle: u32,
    pub playmode: &'static str,
    pub spectators: usize,
    /// Frames of this match the relay holds (for seeking).
    pub frames: u32,
    /// Number of the current match since the relay started.
    pub match_number: u32,
}

/// A joiner's starting point: packets to send in order, then the live items from `next`.
pub struct Subscription {
    pub packets: Vec<Bytes>,
    pub live: broadcast::Receiver<Arc<Item>>,
    pub next: u64,
}

/// The important items a lagging spectator missed, or why it cannot have them.
pub enum CatchUp {
    Items(Vec<Arc<Item>>),
    TooFarBehind,
}

/// One step of a match in wire form, with what the hub must know of it to keep its state.
/// The origin makes steps from records and from its own notices; an edge relay gets them,
/// already encoded, from the origin through NATS (`crate::nats`). Both apply them through
/// the same [`Hub::apply`], so both build the same history and send the same packets.
#[derive(Clone, Debug)]
pub enum Step {
    /// A notice and its packet.
    Notice { notice: Notice, packet: Bytes },
    /// A records packet (no frames inside) and the kind and length of each item in it.
    Records {
        packet: Bytes,
        items: Vec<(ItemKind, usize)>,
    },
    /// One frame: as a change from the previous frame and as a keyframe (records packets
    /// both), with what `/api/matches` says about it.
    Frame {
        delta: Bytes,
        key: Bytes,
        time: u32,
        mode: PlayMode,
        teams: Box<[Team; 2]>,
    },
}

/// The state a joiner's snapshot starts from, besides the history: what an edge needs to
/// start following a match in the middle (`crate::nats`).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchState {
    pub feed: (FeedSource, String),
    pub server_error: Option<(String, String)>,
    pub match_number: u32,
    /// When the match began, for log file names.
    pub started: Option<DateTime<Local>>,
}

/// What the hub hands its tap (the NATS publisher): every item in order, with the kinds of
/// the items inside a records packet, and the match's state where a match begins (and once
/// when the tap is installed, with no item).
#[derive(Debug)]
pub struct Tapped {
    /// The item's index; for a state alone, the index of the next item.
    pub index: u64,
    pub item: Option<Arc<Item>>,
    pub kinds: Vec<(ItemKind, usize)>,
    pub state: Option<MatchState>,
}

struct State {
    encoder: Encoder,
    history: History,
    important: VecDeque<Arc<Item>>,
    /// Index below which important items were evicted.
    important_floor: u64,
    next: u64,
    feed: (FeedSource, String),
    /// A feed this relay says in place of the source's (an edge that lost NATS).
    feed_override: Option<(FeedSource, String)>,
    match_number: u32,
    started: Option<DateTime<Local>>,
    /// The server's last error while not registered, shown to joiners too.
    server_error: Option<(String, String)>,
    last: Option<(u32, PlayMode, [Team; 2])>,
    /// What the operator's commands are checked against (issue 11): the match's server
    /// parameters as typed values, and whether the server is in coach mode.
    params: ServerParams,
    coach: bool,
    /// Send the next frame live as its keyframe (an edge that restarted a match mid-way).
    force_key: bool,
    tap: Option<mpsc::UnboundedSender<Tapped>>,
    /// Items sent under this lock, delivered to the fan-out's sockets once it is let go.
    outbox: Vec<Arc<Item>>,
    /// The newest frame sent: where a spectator moved ahead goes on from, even when no item
    /// follows it (the match ended, or waits for a kick-off).
    newest_frame: Option<Arc<Item>>,
}

/// What decides whether the server would act on an operator's command now.
#[derive(Clone, Copy, Debug)]
pub struct ControlView {
    /// The last frame's time and play mode, once there was one.
    pub now: Option<(u32, PlayMode)>,
    /// The match's server parameters (rcssserver 19's defaults until it sent its own).
    pub params: ServerParams,
    /// `server::coach` or `server::coach_w_referee`.
    pub coach: bool,
}

impl State {
    fn match_state(&self) -> MatchState {
        MatchState {
            feed: self.feed.clone(),
            server_error: self.server_error.clone(),
            match_number: self.match_number,
            started: self.started,
        }
    }

    fn shown_feed(&self) -> &(FeedSource, String) {
        self.feed_override.as_ref().unwrap_or(&self.feed)
    }
}

/// The match's state, locked; letting go of it delivers what was sent meanwhile to the
/// fan-out ([`Hub::deliver`]).
struct Locked<'a> {
    hub: &'a Hub,
    st: Option<MutexGuard<'a, State>>,
}

impl std::ops::Deref for Locked<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        self.st.as_deref().expect("held until dropped")
    }
}

impl std::ops::DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut State {
        self.st.as_deref_mut().expect("held until dropped")
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        if let Some(st) = self.st.take() {
            self.hub.deliver(st);
        }
    }
}

pub struct Hub {
    pub name: String,
    hello: Bytes,
    state: Mutex<State>,
    /// Sockets written to directly; its inbox is always locked after `state` when both are.
    fan: Arc<FanOut>,
    ring: usize,
    tx: broadcast::Sender<Arc<Item>>,
    /// False while an edge catches up with a match: joiners wait for it (a moment) rather
    /// than get the history of thousands of items live.
    ready: watch::Sender<bool>,
    pub stats: Arc<Stats>,
}

impl Drop for Hub {
    fn drop(&mut self) {
        self.fan.close();
    }
}

impl Hub {
    /// `ring`: live items a spectator may fall behind before it is moved ahead. Frames may
    /// wait [`crate::fanout::DEFAULT_MAX_DELAY`] for a spectator ([`Hub::with_max_delay`]).
    pub fn new(name: &str, history_cap: usize, ring: usize) -> Hub {
        let (tx, _) = broadcast::channel(ring.max(2));
        let stats = Arc::new(Stats::default());
        Hub {
            name: name.to_owned(),
            hello: Bytes::from(wire::hello_packet(env!("CARGO_PKG_VERSION"), name)),
            state: Mutex::new(State {
                encoder: Encoder::new(),
                history: History::new(history_cap),
                important: VecDeque::new(),
                important_floor: 0,
                next: 0,
                feed: (FeedSource::Waiting, String::new()),
                feed_override: None,
                match_number: 0,
                started: None,
                server_error: None,
                last: None,
                params: ServerParams::defaults(),
                coach: false,
                force_key: false,
                tap: None,
                outbox: Vec::new(),
                newest_frame: None,
            }),
            fan: Arc::new(FanOut::new(
                ring,
                crate::fanout::DEFAULT_MAX_DELAY,
                stats.clone(),
            )),
            ring,
            tx,
            ready: watch::Sender::new(true),
            stats,
        }
    }

    /// The same hub with frames skipped for a spectator once they waited `max_delay` for it
    /// (`--max-delay`); set before any spectator joins.
    pub fn with_max_delay(mut self, max_delay: Duration) -> Hub {
        self.fan = Arc::new(FanOut::new(self.ring, max_delay, self.stats.clone()));
        self
    }

    /// How long a frame may wait for a spectator before that spectator skips it.
    pub fn max_delay(&self) -> Duration {
        self.fan.max_delay()
    }

    fn lock(&self) -> Locked<'_> {
        // Every update leaves the state consistent, so a panic elsewhere cannot spoil it.
        Locked {
            hub: self,
            st: Some(self.state.lock().unwrap_or_else(|e| e.into_inner())),
        }
    }

    /// Hands `conn`, whose spectator has every item before `next`, to the fan-out: from
    /// then on the fan-out writes the items from `next` on to it at each of its turns.
    pub fn join_fan(&self, conn: &Arc<Direct>, next: u64) {
        self.fan.join(conn, next);
    }

    /// A spectator of the fan-out has room in its socket again ([`FanOut::poke`]).
    pub fn poke_fan(&self) {
        self.fan.poke();
    }

    /// Takes `conn` out of the fan-out (its spectator is leaving): nothing more is written to
    /// it by the fan-out once this returns.
    pub fn leave_fan(&self, conn: &Arc<Direct>) {
        self.fan.leave(conn);
    }

    /// Live items from the next one published, for a spectator the fan-out let go, and the
    /// newest frame sent before them (it is where that spectator goes on from: without it, a
    /// spectator let go after the last frame of a match would wait for an item that never
    /// comes).
    /// The third value is the index of the next item published: the items between the
    /// newest frame and it are in [`Hub::catch_up`].
    pub fn resubscribe(&self) -> (broadcast::Receiver<Arc<Item>>, Option<Arc<Item>>, u64) {
        let st = self.lock();
        (self.tx.subscribe(), st.newest_frame.clone(), st.next)
    }

    /// Hands the items sent under the lock `st` to the fan-out before letting go of `st`, so
    /// that they reach it in publishing order. The fan-out writes them in its own task: the
    /// publisher never waits for spectators.
    fn deliver(&self, mut st: MutexGuard<'_, State>) {
        if st.outbox.is_empty() {
            return;
        }
        let items = std::mem::take(&mut st.outbox);
        self.fan.publish(items);
        drop(st);
    }

    /// Hands every item from now on, in order, to `tap`, starting with the match's state.
    pub fn tap(&self, tap: mpsc::UnboundedSender<Tapped>) {
        let mut st = self.lock();
        let _ = tap.send(Tapped {
            index: st.next,
            item: None,
            kinds: Vec::new(),
            state: Some(st.match_state()),
        });
        st.tap = Some(tap);
    }

    /// Marks the hub as caught up (or not) with its source; see [`Hub::wait_ready`].
    pub fn set_ready(&self, ready: bool) {
        self.ready.send_replace(ready);
    }

    /// Waits, at most `limit`, until the hub is caught up with its source.
    pub async fn wait_ready(&self, limit: std::time::Duration) {
        let mut rx = self.ready.subscribe();
        let _ = tokio::time::timeout(limit, rx.wait_for(|r| *r)).await;
    }

    fn send(&self, st: &mut State, body: Body, kinds: Vec<(ItemKind, usize)>, begins: bool) {
        let item = Arc::new(Item::new(st.next, body));
        st.next += 1;
        if matches!(item.body, Body::Packet(_)) {
            st.important.push_back(item.clone());
            while st.important.len() > IMPORTANT_CAP {
                if let Some(old) = st.important.pop_front() {
                    st.important_floor = old.index + 1;
                }
            }
        }
        if let Some(tap) = &st.tap {
            let t = Tapped {
                index: item.index,
                item: Some(item.clone()),
                kinds,
                state: begins.then(|| st.match_state()),
            };
            if tap.send(t).is_err() {
                st.tap = None;
            }
        }
        if matches!(item.body, Body::Frame { .. }) {
            st.newest_frame = Some(item.clone());
        }
        st.outbox.push(item.clone());
        // No receivers is fine: nobody is watching yet.
        let _ = self.tx.send(item);
    }

    /// Applies one step: the only place where the match's state changes and items go out.
    fn apply(&self, st: &mut State, step: Step) {
        match step {
            Step::Notice { notice, packet } => {
                let mut begins = false;
                let mut shown = true;
                match &notice {
                    Notice::Feed { source, label } => {
                        st.feed = (*source, label.clone());
                        if *source == FeedSource::Live {
                            st.server_error = None;
                        }
                        shown = st.feed_override.is_none();
                    }
                    Notice::ServerError { text, hint } => {
                        st.server_error = Some((text.clone(), hint.clone()));
                    }
                    Notice::NewMatch { number } => {
                        st.encoder.reset();
                        st.history.clear();
                        st.match_number = *number;
                        st.last = None;
                        st.params = ServerParams::defaults();
                        st.coach = false;
                        begins = true;
                    }
                    _ => {}
                }
                if shown {
                    self.send(st, Body::Packet(packet), Vec::new(), begins);
                }
            }
            Step::Records { packet, items } => {
                let mut at = 1;
                for &(kind, len) in &items {
                    if let Some(item) = packet.get(at..at + len) {
                        st.history.push_item(kind, item, None);
                    }
                    at += len;
                }
                self.send(st, Body::Packet(packet), items, false);
            }
            Step::Frame {
                delta,
                key,
                time,
                mode,
                teams,
            } => {
                st.history.push_item(
                    ItemKind::Frame,
                    delta.get(1..).unwrap_or_default(),
                    key.get(1..),
                );
                st.last = Some((time, mode, *teams));
                self.stats.frames_in.fetch_add(1, Ordering::Relaxed);
                let delta = if std::mem::take(&mut st.force_key) {
                    key.clone()
                } else {
                    delta
                };
                self.send(st, Body::Frame { delta, key }, Vec::new(), false);
            }
        }
    }

    fn notice(&self, st: &mut State, n: Notice) {
        let packet = Bytes::from(wire::notice_packet(&n));
        self.apply(st, Step::Notice { notice: n, packet });
    }

    /// Says where frames come from; nothing is sent if that did not change.
    pub fn set_feed(&self, source: FeedSource, label: impl Into<String>) {
        let label = label.into();
        let mut st = self.lock();
        if st.feed.0 == source && st.feed.1 == label {
            return;
        }
        self.notice(&mut st, Notice::Feed { source, label });
    }

    /// Says `feed` to spectators in place of the source's until called with `None` (an edge
    /// that lost its connection to the origin tells its spectators so).
    pub fn override_feed(&self, feed: Option<(FeedSource, String)>) {
        let mut st = self.lock();
        if st.feed_override == feed {
            return;
        }
        let before = st.shown_feed().clone();
        st.feed_override = feed;
        let now = st.shown_feed().clone();
        if now != before {
            // Local to this relay: not a step of the match, so not in the history or the tap.
            let p = Bytes::from(wire::notice_packet(&Notice::Feed {
                source: now.0,
                label: now.1,
            }));
            let tap = st.tap.take();
            self.send(&mut st, Body::Packet(p), Vec::new(), false);
            st.tap = tap;
        }
    }

    /// The server answered with an error; `hint` tells people what to do.
    pub fn server_error(&self, text: &str, hint: &str) {
        let mut st = self.lock();
        self.notice(
            &mut st,
            Notice::ServerError {
                text: text.to_owned(),
                hint: hint.to_owned(),
            },
        );
    }

    /// An operator acted on the match (issue 11's control endpoint uses this).
    pub fn operator(&self, text: &str) {
        let mut st = self.lock();
        self.notice(
            &mut st,
            Notice::Operator {
                text: text.to_owned(),
            },
        );
    }

    /// Starts a new match: the history is dropped and every spectator is told.
    pub fn new_match(&self) {
        let mut st = self.lock();
        self.begin(&mut st);
    }

    fn begin(&self, st: &mut State) {
        // Milliseconds: what an edge learns of it through NATS, so both say the same.
        st.started = Some(chrono::SubsecRound::trunc_subsecs(Local::now(), 3));
        let number = st.match_number + 1;
        self.notice(st, Notice::NewMatch { number });
    }

    /// The match's state as a joiner's snapshot would say it (the source's feed, not an
    /// override).
    pub fn state(&self) -> MatchState {
        self.lock().match_state()
    }

    /// True if nothing was recorded since the match began.
    pub fn is_empty(&self) -> bool {
        self.lock().history.is_empty()
    }

    /// When the current match began (its first datagram), for log file names.
    pub fn started(&self) -> Option<DateTime<Local>> {
        self.lock().started
    }

    /// Publishes the records of one datagram (or one step of a replay): encodes them once,
    /// appends them to the history and sends them live. Frames go out one item each (so that
    /// they can be skipped), everything else in as few packets as keeps the order.
    pub fn publish(&self, records: &[Record]) {
        if records.is_empty() {
            return;
        }
        let mut st = self.lock();
        if st.started.is_none() {
            self.begin(&mut st);
        }
        let mut run = Vec::new();
        let mut kinds = Vec::new();
        for r in records {
            if let Record::ServerParam(p) = r {
                st.params = ServerParams::from_params(Some(p));
                st.coach = rcss_formats::command::coach_mode(Some(p));
            }
            let e = st.encoder.encode(r);
            match (e.key, r) {
                (Some(key), Record::Show(f)) => {
                    if !run.is_empty() {
                        let packet = Bytes::from(wire::records_packet(&std::mem::take(&mut run)));
                        let items = std::mem::take(&mut kinds);
                        self.apply(&mut st, Step::Records { packet, items });
                    }
                    let step = Step::Frame {
                        delta: Bytes::from(wire::records_packet(&e.item)),
                        key: Bytes::from(wire::records_packet(&key)),
                        time: f.time,
                        mode: f.mode,
                        teams: Box::new(f.teams.clone()),
                    };
                    self.apply(&mut st, step);
                }
                _ => {
                    kinds.push((ItemKind::of(r), e.item.len()));
                    run.extend_from_slice(&e.item);
                }
            }
        }
        if !run.is_empty() {
            let packet = Bytes::from(wire::records_packet(&run));
            self.apply(
                &mut st,
                Step::Records {
                    packet,
                    items: kinds,
                },
            );
        }
    }

    /// An edge's view of the match's state where it starts to follow it, or where the origin
    /// restarted: adopts it, and if the match differs from the one held, starts it afresh
    /// (spectators are told, as a `NewMatch`); `restart` forces that (items were lost).
    pub fn adopt(&self, state: &MatchState, restart: bool) {
        let mut st = self.lock();
        st.server_error = state.server_error.clone();
        if st.feed != state.feed {
            let (source, label) = state.feed.clone();
            self.notice(&mut st, Notice::Feed { source, label });
        }
        if restart || st.match_number != state.match_number || st.started != state.started {
            st.started = state.started;
            self.notice(
                &mut st,
                Notice::NewMatch {
                    number: state.match_number,
                },
            );
            // Frames go on as changes from frames this relay never had.
            st.force_key = true;
        }
    }

    /// An edge applies a step the origin published. `state`, which comes with a new match,
    /// is the origin's state at that point (its feed, its server error, the match's start).
    pub fn ingest(&self, step: Step, state: Option<&MatchState>) {
        let mut st = self.lock();
        if let Some(state) = state {
            st.server_error = state.server_error.clone();
            if st.feed != state.feed {
                let (source, label) = state.feed.clone();
                self.notice(&mut st, Notice::Feed { source, label });
            }
        }
        if let Step::Notice {
            notice: Notice::NewMatch { .. },
            ..
        } = &step
        {
            st.started = state.and_then(|s| s.started).or_else(|| Some(Local::now()));
            st.force_key = false;
        }
        self.apply(&mut st, step);
    }

    /// The hello, the state of the feed, the history, then live from the next item.
    pub fn subscribe(&self) -> Subscription {
        let mut st = self.lock();
        let mut packets = vec![self.hello.clone()];
        let notice = |n: Notice| Bytes::from(wire::notice_packet(&n));
        let feed = st.shown_feed().clone();
        packets.push(notice(Notice::Feed {
            source: feed.0,
            label: feed.1,
        }));
        if let Some((text, hint)) = &st.server_error {
            packets.push(notice(Notice::ServerError {
                text: text.clone(),
                hint: hint.clone(),
            }));
        }
        packets.push(notice(Notice::NewMatch {
            number: st.match_number,
        }));
        packets.push(notice(Notice::Backlog {
            frames: st.history.frames(),
        }));
        packets.extend(st.history.packets());
        packets.push(notice(Notice::Live));
        let live = self.tx.subscribe();
        Subscription {
            packets,
            live,
            next: st.next,
        }
    }

    /// The history alone (for the `.rcg` download).
    pub fn history_packets(&self) -> Vec<Bytes> {
        self.lock().history.packets()
    }

    /// The items that are never skipped with an index in `from..to`.
    pub fn catch_up(&self, from: u64, to: u64) -> CatchUp {
        let st = self.lock();
        if from < st.important_floor {
            return CatchUp::TooFarBehind;
        }
        CatchUp::Items(
            st.important
                .iter()
                .filter(|i| i.index >= from && i.index < to)
                .cloned()
                .collect(),
        )
    }

    pub fn summary(&self) -> Summary {
        let st = self.lock();
        let (cycle, mode, teams) =
            st.last
                .clone()
                .unwrap_or((0, PlayMode::NULL, Default::default()));
        let penalties = (teams[0].penalty.is_some() || teams[1].penalty.is_some()).then(|| {
            [
                teams[0].penalty.map_or(0, |p| p.scored),
                teams[1].penalty.map_or(0, |p| p.scored),
            ]
        });
        Summary {
            name: self.name.clone(),
            source: st.shown_feed().0,
            label: st.shown_feed().1.clone(),
            teams: [teams[0].name.clone(), teams[1].name.clone()],
            score: [teams[0].score, teams[1].score],
            penalties,
            cycle,
            playmode: mode.name(),
            spectators: self.stats.spectators.load(Ordering::Relaxed),
            frames: st.history.frames(),
            match_number: st.match_number,
        }
    }

    /// Where the match stands for the operator's commands.
    pub fn control_view(&self) -> ControlView {
        let st = self.lock();
        ControlView {
            now: st.last.as_ref().map(|(t, m, _)| (*t, *m)),
            params: st.params,
            coach: st.coach,
        }
    }

    /// Bytes of history held and frames dropped by the cap.
    pub fn history_memory(&self) -> (usize, u32) {
        let st = self.lock();
        (st.history.memory(), st.history.dropped_frames())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_wire::{Decoder, Event};
    use rcss_formats::Frame;

    fn frame(t: u32) -> Record {
        Record::Show(Frame {
            time: t,
            ..Frame::default()
        })
    }

    fn decode(packets: &[Bytes], d: &mut Decoder) -> Vec<Event> {
        let mut out = Vec::new();
        for p in packets {
            d.decode(p, &mut out).unwrap();
        }
        out
    }

    #[tokio::test]
    async fn a_joiner_gets_history_then_live_exactly_once() {
        let hub = Hub::new("m", usize::MAX, 16);
        for t in 0..600 {
            hub.publish(&[frame(t)]);
        }
        let mut sub = hub.subscribe();
        for t in 600..605 {
            hub.publish(&[frame(t)]);
        }
        let mut d = Decoder::new();
        let mut events = decode(&sub.packets, &mut d);
        for _ in 0..5 {
            let item = sub.live.recv().await.unwrap();
            assert_eq!(item.index, sub.next);
            sub.next += 1;
            match &item.body {
                Body::Frame { delta, .. } => d.decode(delta, &mut events).unwrap(),
                Body::Packet(p) => d.decode(p, &mut events).unwrap(),
            }
        }
        let times: Vec<u32> = events
            .iter()
            .filter_map(|e| match e {
                Event::Record(Record::Show(f)) => Some(f.time),
                _ => None,
            })
            .collect();
        assert_eq!(times, (0..605).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn a_lagging_spectator_can_fetch_what_it_must_not_miss() {
        let hub = Hub::new("m", usize::MAX, 4);
        let mut sub = hub.subscribe();
        for t in 0..10 {
            hub.publish(&[frame(t)]);
        }
        hub.new_match();
        for t in 0..10 {
            hub.publish(&[frame(t)]);
        }
        let Err(broadcast::error::RecvError::Lagged(_)) = sub.live.recv().await else {
            panic!("the spectator lags");
        };
        let next = sub.live.recv().await.unwrap();
        let CatchUp::Items(missed) = hub.catch_up(sub.next, next.index) else {
            panic!("all important items are still there");
        };
        // The very first match's start, and the new match's.
        assert_eq!(missed.len(), 2);
    }
}
