//! One task's worth of state per match: the history a late joiner needs and the live
//! broadcast, behind one lock so that a joiner gets the snapshot and its subscription in one
//! step: nothing is lost between them and nothing is sent twice.

use axum::body::Bytes;
use pitchside_shared::feed::{FeedSource, Notice};
use std::collections::VecDeque;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// How many events a spectator may fall behind before it is skipped forward.
const CHANNEL_CAPACITY: usize = 1024;
/// History kept for late joiners. A whole 6000-cycle v5 game is ~20 MB of shows; beyond this
/// cap the oldest shows are dropped (parameters and team graphics are always kept).
const HISTORY_CAP_BYTES: usize = 96 << 20;

/// What spectators receive.
#[derive(Clone, Debug)]
pub enum Event {
    Notice(Notice),
    Datagram(Bytes),
}

/// What a datagram is, for history keeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Sent once at connection (parameters) or once per match (team graphics): always kept.
    Header,
    /// `server_param`: starts the header of a new connection, hence a new match.
    ServerParam,
    /// A show or anything else that happens during the match.
    Play,
}

struct State {
    feed: Notice,
    /// Everything since the connection began, in arrival order, so a late joiner sees exactly
    /// what an early one saw.
    history: VecDeque<(Kind, Bytes)>,
    play_bytes: usize,
}

pub struct Hub {
    state: Mutex<State>,
    tx: broadcast::Sender<Event>,
}

/// A spectator's starting point: what to send first, then the live stream.
pub struct Subscription {
    pub backlog: Vec<Event>,
    pub live: broadcast::Receiver<Event>,
}

impl Default for Hub {
    fn default() -> Self {
        Self::new()
    }
}

impl Hub {
    pub fn new() -> Self {
        let (tx, _) = broadcast::channel(CHANNEL_CAPACITY);
        Hub {
            state: Mutex::new(State {
                feed: Notice::Feed {
                    source: FeedSource::Waiting,
                    label: String::new(),
                },
                history: VecDeque::new(),
                play_bytes: 0,
            }),
            tx,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data (every update is one push).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn subscribe(&self) -> Subscription {
        let st = self.lock();
        let mut backlog = Vec::with_capacity(1 + st.history.len());
        backlog.push(Event::Notice(st.feed.clone()));
        backlog.extend(st.history.iter().map(|(_, b)| Event::Datagram(b.clone())));
        let live = self.tx.subscribe();
        drop(st);
        Subscription { backlog, live }
    }

    /// Announces where frames come from now.
    pub fn set_feed(&self, source: FeedSource, label: impl Into<String>) {
        let notice = Notice::Feed {
            source,
            label: label.into(),
        };
        let mut st = self.lock();
        if st.feed == notice {
            return;
        }
        st.feed = notice.clone();
        let _ = self.tx.send(Event::Notice(notice));
    }

    /// Forgets the current match; spectators are told to clear their view.
    pub fn reset(&self) {
        let mut st = self.lock();
        st.history.clear();
        st.play_bytes = 0;
        let _ = self.tx.send(Event::Notice(Notice::Reset));
    }

    pub fn publish(&self, kind: Kind, datagram: Bytes) {
        let mut st = self.lock();
        if kind == Kind::ServerParam && !st.history.is_empty() {
            st.history.clear();
            st.play_bytes = 0;
            let _ = self.tx.send(Event::Notice(Notice::Reset));
        }
        if kind == Kind::Play {
            st.play_bytes += datagram.len();
            while st.play_bytes > HISTORY_CAP_BYTES {
                // Drop the oldest play datagram; parameters and team graphics stay.
                match st.history.iter().position(|(k, _)| *k == Kind::Play) {
                    Some(i) => {
                        if let Some((_, old)) = st.history.remove(i) {
                            st.play_bytes -= old.len();
                        }
                    }
                    None => break,
                }
            }
        }
        st.history.push_back((kind, datagram.clone()));
        let _ = self.tx.send(Event::Datagram(datagram));
    }

    pub fn spectators(&self) -> usize {
        self.tx.receiver_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn late_joiner_gets_history_then_live_without_gaps() {
        let hub = Hub::new();
        hub.publish(Kind::ServerParam, Bytes::from_static(b"(server_param)"));
        hub.publish(Kind::Play, Bytes::from_static(b"1"));
        let mut sub = hub.subscribe();
        hub.publish(Kind::Play, Bytes::from_static(b"2"));
        let backlog: Vec<_> = sub
            .backlog
            .iter()
            .filter_map(|e| match e {
                Event::Datagram(b) => Some(b.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(
            backlog,
            vec![
                Bytes::from_static(b"(server_param)"),
                Bytes::from_static(b"1")
            ]
        );
        match sub.live.recv().await.unwrap() {
            Event::Datagram(b) => assert_eq!(b, Bytes::from_static(b"2")),
            e => panic!("unexpected {e:?}"),
        }
    }

    #[tokio::test]
    async fn a_new_connection_resets_the_match() {
        let hub = Hub::new();
        hub.publish(Kind::ServerParam, Bytes::from_static(b"a"));
        hub.publish(Kind::Play, Bytes::from_static(b"1"));
        hub.publish(Kind::ServerParam, Bytes::from_static(b"b"));
        let sub = hub.subscribe();
        assert_eq!(
            sub.backlog.len(),
            2,
            "feed notice and the new server_param only"
        );
    }
}
