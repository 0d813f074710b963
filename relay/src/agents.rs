//! The agents' debug server (`--debug-port`): librcsc agents started with
//! `--debug_server_connect` send their world model every cycle as one UDP datagram; the relay
//! ties each to its match, team and player, keeps it with the match, records it beside the
//! match's log as `TEAM-UNUM.dcl`, and gives it only to pages that hold that team's key.
//!
//! A team's debug stream tells an opponent what the team believes and plans, so it is as
//! private as the operator's commands are powerful:
//! - Each team has its own key ([`TeamKeys`]): given (`--team-key TEAM=KEY`) or 128 random
//!   bits drawn the first time the team is seen, when the relay logs that team's link
//!   `http://HOST:PORT/m/NAME#team=KEY`. The operator's token opens both teams' streams.
//! - The page asks `GET /m/NAME/agents?from=SEQ` with `Authorization: Bearer KEY` ([`poll`]);
//!   wrong keys are counted per address as wrong operator tokens are, with the same lock-out,
//!   in a tally of their own.
//!   Spectators' WebSockets never carry any of it.
//!
//! The datagrams come from the agents, not from a browser: the page gets their text as it
//! came (it parses it with the same code as a `.dcl` file), but only after the relay has
//! parsed it itself, to know whose it is; what does not parse is counted and dropped. Anyone
//! who can reach the port can send datagrams in a team's name, so bind it on the network the
//! agents run on. Memory is bounded: each match keeps at most [`HISTORY_CAP`] bytes of
//! messages, the oldest going first (the page is told where its history now starts).

use crate::hub::Hub;
use pitchside_agents::worldmodel::{self, WorldModel};
use rcss_formats::Side;
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::UdpSocket;
use tokio::sync::watch;

/// Bytes of debug messages a match keeps for pages that join late (a whole game of 22
/// agents is about 200 MB of them; the most recent part is what a developer looks at).
pub const HISTORY_CAP: usize = 128 << 20;
/// Bytes of messages one answer to [`poll`] holds at most; the page asks again at once.
pub const ANSWER_CAP: usize = 1 << 20;
/// Version of the `/m/NAME/agents` answer (book, "The agents' debug stream").
pub const VERSION: u32 = 1;
/// How far (in cycles) a message's time may be from the match's last frame to be taken as
/// that match's: agents and server run in step, so anything further is another match.
pub const MATCH_WINDOW: u32 = 300;
/// The longest a poll may wait for a message ([`DebugLog::poll_wait`]): well inside the idle
/// limits of proxies and of the relay's own connections.
pub const MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(25);
/// After the first message of a cycle, how long a waiting poll gathers the rest: a team's
/// agents send theirs within a few milliseconds of each other, and one answer then carries
/// the whole cycle instead of one request per agent.
const GATHER: std::time::Duration = std::time::Duration::from_millis(15);
/// What a kept message costs beyond its text (the entry, its shared string's header), counted
/// against [`HISTORY_CAP`] so that a flood of tiny messages cannot hold several times the cap.
const ENTRY_OVERHEAD: usize = std::mem::size_of::<Entry>() + 32;

/// Who may read which team's stream.
pub struct TeamKeys {
    keys: Mutex<HashMap<String, String>>,
    /// Keys drawn here (logged once), as opposed to given by the operator.
    given: Vec<String>,
}

impl TeamKeys {
    pub fn new(given: Vec<(String, String)>) -> TeamKeys {
        TeamKeys {
            given: given.iter().map(|(t, _)| t.clone()).collect(),
            keys: Mutex::new(given.into_iter().collect()),
        }
    }

    /// The key of `team`, drawn now if it has none; `true` when it was drawn just now.
    pub fn ensure(&self, team: &str) -> Option<(String, bool)> {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = keys.get(team) {
            return Some((k.clone(), false));
        }
        let k = crate::control::generate_token().ok()?;
        keys.insert(team.to_owned(), k.clone());
        Some((k, true))
    }

    /// The team whose key `given` is, compared in constant time with every key.
    pub fn team_of(&self, given: &str) -> Option<String> {
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let mut found = None;
        for (team, key) in keys.iter() {
            if crate::control::same_token(key.as_bytes(), given.as_bytes()) {
                found = Some(team.clone());
            }
        }
        found
    }

    pub fn was_given(&self, team: &str) -> bool {
        self.given.iter().any(|t| t == team)
    }
}

/// What a key opens: one team's stream, or (the operator's token) both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grant {
    Team(String),
    All,
}

impl Grant {
    fn allows(&self, team: &str) -> bool {
        match self {
            Grant::Team(t) => t == team,
            Grant::All => true,
        }
    }
}

/// One datagram, kept.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Entry {
    pub seq: u64,
    #[serde(serialize_with = "shared_str")]
    pub team: Arc<str>,
    /// `l` or `r`: the side the team plays this match.
    pub side: &'static str,
    /// `None` for the coach.
    pub unum: Option<u8>,
    pub cycle: u32,
    pub stopped: u32,
    /// The message as the agent sent it, without its NUL.
    #[serde(serialize_with = "shared_str")]
    pub text: Arc<str>,
}

fn shared_str<S: serde::Serializer>(s: &Arc<str>, out: S) -> Result<S::Ok, S::Error> {
    out.serialize_str(s)
}

/// Counters for `/metrics`.
#[derive(Default)]
pub struct DebugStats {
    pub kept: AtomicU64,
    /// Not a debug-client message of format 5, or no `(s …)` saying whose.
    pub unreadable: AtomicU64,
    /// Read, but the match had no team on that side yet.
    pub no_team: AtomicU64,
    /// Read, but of a time far from the match's: another match's.
    pub off_time: AtomicU64,
    pub dropped_old: AtomicU64,
    pub record_errors: AtomicU64,
}

struct Store {
    /// The match number the entries belong to (a new match starts them over).
    number: u32,
    next: u64,
    entries: VecDeque<Entry>,
    bytes: usize,
    /// Each side's team name as last kept, shared by its entries.
    names: [Option<Arc<str>>; 2],
}

/// One match's debug messages.
pub struct DebugLog {
    pub hub: Arc<Hub>,
    store: Mutex<Store>,
    cap: usize,
    pub stats: DebugStats,
    pub keys: Arc<TeamKeys>,
    /// The team link without its key (`http://HOST:PORT/m/NAME#team=`), for the log.
    pub link_prefix: String,
    /// Failed key checks of this stream, per address: a tally of their own, so that stale
    /// team links reloaded behind a venue's NAT never lock the operator out of refereeing.
    pub failures: crate::control::Gate,
    /// Woken at every message kept, for polls that wait ([`DebugLog::poll_wait`]).
    arrived: tokio::sync::Notify,
}

/// The answer to one poll.
#[derive(Debug, serde::Serialize)]
pub struct Answer {
    pub v: u32,
    #[serde(rename = "match")]
    pub name: String,
    /// The match number (a page that sees it change starts over).
    pub number: u32,
    /// The teams this key opens, of those playing.
    pub teams: Vec<String>,
    /// The oldest sequence number still kept: a page that asked for less lost the ones
    /// between.
    pub first: u64,
    /// What to ask from next time.
    pub next: u64,
    /// More is waiting: ask again at once.
    pub more: bool,
    pub messages: Vec<Entry>,
}

impl DebugLog {
    pub fn new(hub: Arc<Hub>, keys: Arc<TeamKeys>, cap: usize) -> DebugLog {
        DebugLog {
            hub,
            store: Mutex::new(Store {
                number: 0,
                next: 1,
                entries: VecDeque::new(),
                bytes: 0,
                names: [None, None],
            }),
            cap,
            stats: DebugStats::default(),
            keys,
            link_prefix: String::new(),
            failures: crate::control::Gate::tally("agents"),
            arrived: tokio::sync::Notify::new(),
        }
    }

    /// Reads one datagram and keeps it; what it was, for the recorder.
    pub fn receive(&self, datagram: &[u8]) -> Option<(Entry, WorldModel)> {
        let Ok(wm) = worldmodel::parse_message(datagram) else {
            self.stats.unreadable.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        let (side, unum) = match (&wm.me, wm.coach) {
            (Some(me), _) => (me.side, Some(me.unum)),
            (None, Some(side)) => (side, None),
            (None, None) => {
                self.stats.unreadable.fetch_add(1, Ordering::Relaxed);
                return None;
            }
        };
        let summary = self.hub.summary();
        let i = match side {
            Side::Left => 0,
            Side::Right => 1,
        };
        let Some(team) = summary.teams[i].clone().filter(|t| !t.is_empty()) else {
            self.stats.no_team.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        // An agent of the next match can speak before the relay has heard that match begin
        // (it registers again seconds after the server went quiet): its cycles are then far
        // from where the match on hand stands, and it must not be filed under that match's
        // team on its side.
        if wm.time.cycle.abs_diff(summary.cycle) > MATCH_WINDOW {
            self.stats.off_time.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        if let Some((key, true)) = self.keys.ensure(&team) {
            tracing::info!(
                "debug link for team {team} (give it to that team only): {}{key}",
                self.link_prefix
            );
        }
        let text = String::from_utf8_lossy(datagram);
        let text = text.trim_end_matches('\0').trim();
        let mut st = self.store.lock().unwrap_or_else(|e| e.into_inner());
        if st.number != summary.match_number {
            st.number = summary.match_number;
            st.entries.clear();
            st.bytes = 0;
        }
        let name = match &st.names[i] {
            Some(n) if **n == *team => n.clone(),
            _ => {
                let n: Arc<str> = Arc::from(team.as_str());
                st.names[i] = Some(n.clone());
                n
            }
        };
        let entry = Entry {
            seq: st.next,
            team: name,
            side: match side {
                Side::Left => "l",
                Side::Right => "r",
            },
            unum,
            cycle: wm.time.cycle,
            stopped: wm.time.stopped,
            text: Arc::from(text),
        };
        st.next += 1;
        st.bytes += entry.text.len() + ENTRY_OVERHEAD;
        st.entries.push_back(entry.clone());
        while st.bytes > self.cap {
            let Some(old) = st.entries.pop_front() else {
                break;
            };
            st.bytes -= old.text.len() + ENTRY_OVERHEAD;
            self.stats.dropped_old.fetch_add(1, Ordering::Relaxed);
        }
        self.stats.kept.fetch_add(1, Ordering::Relaxed);
        drop(st);
        self.arrived.notify_waiters();
        Some((entry, wm))
    }

    /// [`DebugLog::poll`], but when `grant` has nothing new, waits up to `wait` (at most
    /// [`MAX_WAIT`]) for it, or until `stop`. A page following a live match then gets each
    /// cycle's messages as they arrive rather than at its next poll: the frame of a cycle
    /// reaches the page before its agents have thought about it, and at ten cycles a second
    /// a poll every quarter second left the cycle on screen without messages most of the
    /// time.
    pub async fn poll_wait(
        &self,
        grant: &Grant,
        mut from: u64,
        wait: std::time::Duration,
        stop: &mut watch::Receiver<bool>,
    ) -> Answer {
        let deadline = tokio::time::Instant::now() + wait.min(MAX_WAIT);
        loop {
            // Registered before looking, so a message kept in between still wakes it.
            let notified = self.arrived.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let answer = self.poll(grant, from);
            if !answer.messages.is_empty() || answer.more || *stop.borrow() {
                return answer;
            }
            // Nothing for this key so far (the other team's, or none): no need to look at
            // those again.
            from = from.max(answer.next);
            tokio::select! {
                _ = tokio::time::sleep_until(deadline) => return answer,
                _ = crate::stopped(stop) => return answer,
                _ = &mut notified => {}
            }
            tokio::time::sleep(GATHER).await;
        }
    }

    /// The messages `grant` may see from sequence number `from` on, up to [`ANSWER_CAP`]
    /// bytes.
    pub fn poll(&self, grant: &Grant, from: u64) -> Answer {
        let summary = self.hub.summary();
        let st = self.store.lock().unwrap_or_else(|e| e.into_inner());
        // A new match began and its agents have not spoken yet: what is kept is the last
        // match's, which the page must not take for this one's.
        let stale = st.number != summary.match_number;
        let first = match st.entries.front() {
            Some(e) if !stale => e.seq,
            _ => st.next,
        };
        let start = from.max(first);
        // Sequence numbers are consecutive in the deque: index straight to `start`.
        let skip = if stale {
            st.entries.len()
        } else {
            usize::try_from(start - first)
                .unwrap_or(usize::MAX)
                .min(st.entries.len())
        };
        let mut messages = Vec::new();
        let mut bytes = 0;
        let mut next = st.next;
        for e in st.entries.range(skip..) {
            if bytes >= ANSWER_CAP {
                next = e.seq;
                break;
            }
            if grant.allows(&e.team) {
                bytes += e.text.len();
                messages.push(e.clone());
            }
        }
        Answer {
            v: VERSION,
            name: self.hub.name.clone(),
            number: summary.match_number,
            teams: summary
                .teams
                .iter()
                .flatten()
                .filter(|t| !t.is_empty() && grant.allows(t))
                .cloned()
                .collect(),
            first,
            more: next < st.next,
            next,
            messages,
        }
    }
}

/// Writes the messages of each match as `TEAM-UNUM.dcl` (`TEAM-coach.dcl`), as librcsc
/// writes its own (`%% step CYCLE` then `%% debug [MESSAGE]`), in a folder beside the
/// match's `.rcg` named after it: `YYYYMMDDhhmmss-LEFT-vs-RIGHT.agents/`.
pub struct DclRecorder {
    dir: PathBuf,
    current: Option<(u32, PathBuf)>,
    files: HashMap<(Arc<str>, Option<u8>), std::fs::File>,
}

impl DclRecorder {
    pub fn new(dir: &Path) -> DclRecorder {
        DclRecorder {
            dir: dir.to_owned(),
            current: None,
            files: HashMap::new(),
        }
    }

    /// The folder of the match under way, once it has kicked off (the `.rcg` starts then).
    fn folder(&mut self, hub: &Hub) -> Option<PathBuf> {
        let summary = hub.summary();
        if let Some((n, f)) = &self.current {
            if *n == summary.match_number {
                return Some(f.clone());
            }
        }
        let started = hub.started()?;
        let [Some(left), Some(right)] = &summary.teams else {
            return None;
        };
        if !safe_name(left) || !safe_name(right) {
            return None;
        }
        let folder = self.dir.join(format!(
            "{}-{left}-vs-{right}.agents",
            started.format("%Y%m%d%H%M%S")
        ));
        self.files.clear();
        self.current = Some((summary.match_number, folder.clone()));
        Some(folder)
    }

    pub fn record(&mut self, hub: &Hub, e: &Entry) -> std::io::Result<()> {
        let Some(folder) = self.folder(hub) else {
            return Ok(());
        };
        if !safe_name(&e.team) {
            return Ok(());
        }
        let key = (e.team.clone(), e.unum);
        if !self.files.contains_key(&key) {
            std::fs::create_dir_all(&folder)?;
            let who = e.unum.map_or("coach".to_owned(), |u| u.to_string());
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(folder.join(format!("{}-{who}.dcl", e.team)))?;
            self.files.insert(key.clone(), f);
        }
        if let Some(f) = self.files.get_mut(&key) {
            // One write per record, so that a reader never sees half of one.
            let rec = format!("%% step {}\n%% debug [{}]\n", e.cycle, e.text);
            f.write_all(rec.as_bytes())?;
        }
        Ok(())
    }
}

/// A team name that can go into a file name as it is (rcssserver allows only these
/// characters; a replayed log could hold anything).
fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Receives datagrams on `socket` until `stop`, for `log` (and `record`).
pub async fn run(
    socket: UdpSocket,
    log: Arc<DebugLog>,
    record: Option<DclRecorder>,
    mut stop: watch::Receiver<bool>,
) {
    // Files are written on a thread of their own: a slow disk must not hold up the port
    // (datagrams not read in time are lost). What the thread cannot keep up with is counted.
    let writer = record.map(|r| spawn_writer(r, log.clone()));
    let mut buf = vec![0u8; 65536];
    loop {
        let got = tokio::select! {
            r = socket.recv_from(&mut buf) => r,
            _ = crate::stopped(&mut stop) => return,
        };
        let n = match got {
            Ok((n, _from)) => n,
            Err(e) => {
                // An ICMP error for an earlier send, or the like: nothing to do but go on.
                tracing::debug!("debug port: {e}");
                continue;
            }
        };
        let Some(datagram) = buf.get(..n) else {
            continue;
        };
        let Some((entry, _)) = log.receive(datagram) else {
            continue;
        };
        if let Some(w) = &writer {
            if w.try_send(entry).is_err()
                && log.stats.record_errors.fetch_add(1, Ordering::Relaxed) == 0
            {
                tracing::warn!("the disk does not keep up with the agents' debug messages: some are not recorded");
            }
        }
    }
}

/// Messages waiting for the recording thread at most.
const WRITE_QUEUE: usize = 4096;

fn spawn_writer(mut r: DclRecorder, log: Arc<DebugLog>) -> std::sync::mpsc::SyncSender<Entry> {
    let (tx, rx) = std::sync::mpsc::sync_channel::<Entry>(WRITE_QUEUE);
    let spawned = std::thread::Builder::new()
        .name("dcl-recorder".into())
        .spawn(move || {
            // Ends when the sender goes (the port's task ended).
            for entry in rx {
                if let Err(e) = r.record(&log.hub, &entry) {
                    if log.stats.record_errors.fetch_add(1, Ordering::Relaxed) == 0 {
                        tracing::warn!("cannot record the agents' debug messages: {e}");
                    }
                }
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("cannot start recording the agents' debug messages: {e}");
    }
    tx
}

/// The page of match `name` with a team's key in its fragment (`#team=KEY`), as the
/// operator's link carries the control token: never sent to the server in a request line.
pub fn team_link(https: bool, listen: SocketAddr, name: &str, key: &str) -> String {
    crate::control::link_with(https, listen, name, pitchside_wire::link::TEAM_KEY, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_without_a_given_key_gets_its_own_drawn_once() {
        let keys = TeamKeys::new(vec![("HELIOS_A".into(), "given-key-of-team-a".into())]);
        assert_eq!(
            keys.ensure("HELIOS_A"),
            Some(("given-key-of-team-a".into(), false))
        );
        let (drawn, new) = keys.ensure("HELIOS_B").expect("a key");
        assert!(new && drawn.len() == 32);
        assert_eq!(keys.ensure("HELIOS_B"), Some((drawn.clone(), false)));
        assert_eq!(keys.team_of(&drawn).as_deref(), Some("HELIOS_B"));
        assert_eq!(
            keys.team_of("given-key-of-team-a").as_deref(),
            Some("HELIOS_A")
        );
        assert_eq!(
            keys.team_of("given-key-of-team-"),
            None,
            "a prefix is not the key"
        );
        assert_eq!(keys.team_of(""), None);
        assert!(keys.was_given("HELIOS_A") && !keys.was_given("HELIOS_B"));
    }

    #[test]
    fn a_grant_opens_its_team_only_and_the_operators_both() {
        assert!(Grant::Team("A".into()).allows("A"));
        assert!(!Grant::Team("A".into()).allows("B"));
        assert!(!Grant::Team("A".into()).allows("AB"));
        assert!(Grant::All.allows("B"));
    }

    fn teams_playing(hub: &Hub) {
        let mut f = rcss_formats::Frame {
            time: 1,
            ..Default::default()
        };
        f.teams[0].name = Some("HELIOS_A".into());
        f.teams[1].name = Some("HELIOS_B".into());
        hub.publish(&[rcss_formats::Record::Show(f)]);
    }

    fn datagram(side: char, unum: u8, cycle: u32) -> Vec<u8> {
        format!(
            "((debug (format-version 5)) (time {cycle},0) (s {side} {unum} 0 1 2 0 0 0 0) (message \"{}\"))\0",
            "x".repeat(100)
        )
        .into_bytes()
    }

    #[test]
    fn the_history_keeps_its_cap_says_where_it_starts_and_starts_over_with_a_match() {
        let hub = Arc::new(Hub::new("m", 1 << 20, 64));
        teams_playing(&hub);
        // Room for about ten of these messages.
        let log = DebugLog::new(hub.clone(), Arc::new(TeamKeys::new(Vec::new())), 1500);
        for c in 0..30 {
            let side = if c % 2 == 0 { 'l' } else { 'r' };
            assert!(log.receive(&datagram(side, 7, c)).is_some());
        }
        let all = log.poll(&Grant::All, 0);
        let kept: usize = all
            .messages
            .iter()
            .map(|m| m.text.len() + ENTRY_OVERHEAD)
            .sum();
        assert!(
            kept <= 1500 && kept + all.messages[0].text.len() + ENTRY_OVERHEAD > 1500,
            "{kept}"
        );
        assert_eq!(all.first, all.messages[0].seq);
        assert_eq!(all.next, 31);
        assert!(all.messages.iter().all(|m| m.seq >= all.first));
        assert_eq!(all.messages.last().map(|m| m.cycle), Some(29));
        assert!(log.stats.dropped_old.load(Ordering::Relaxed) >= 19);
        // One team's key sees its side only, in order, and asking from `next` gets nothing.
        let a = log.poll(&Grant::Team("HELIOS_A".into()), 0);
        assert!(a
            .messages
            .iter()
            .all(|m| &*m.team == "HELIOS_A" && m.side == "l"));
        assert_eq!(a.teams, vec!["HELIOS_A".to_owned()]);
        assert!(log.poll(&Grant::All, all.next).messages.is_empty());
        // A time far from the match's: another match's agent, not kept.
        assert!(log
            .receive(&datagram('l', 7, 1 + MATCH_WINDOW + 1))
            .is_none());
        assert_eq!(log.stats.off_time.load(Ordering::Relaxed), 1);
        assert!(log.receive(&datagram('l', 7, 1 + MATCH_WINDOW)).is_some());
        let all = log.poll(&Grant::All, 0);
        // A new match: nothing of the last one is given for it, and its own messages are.
        hub.new_match();
        teams_playing(&hub);
        let fresh = log.poll(&Grant::All, 0);
        assert!(fresh.messages.is_empty() && fresh.number != all.number);
        assert!(log.receive(&datagram('l', 9, 0)).is_some());
        let fresh = log.poll(&Grant::All, 0);
        assert_eq!(fresh.messages.len(), 1);
        assert_eq!(fresh.messages[0].unum, Some(9));
    }

    #[test]
    fn datagrams_before_the_teams_are_known_or_without_a_self_are_counted_not_kept() {
        let hub = Arc::new(Hub::new("m", 1 << 20, 64));
        let log = DebugLog::new(hub, Arc::new(TeamKeys::new(Vec::new())), 1000);
        // No team on either side yet: counted, not kept.
        let d = b"((debug (format-version 5)) (time 3,0) (s l 7 0 1 2 0 0 0 0))\0";
        assert!(log.receive(d).is_none());
        assert_eq!(log.stats.no_team.load(Ordering::Relaxed), 1);
        assert!(log.receive(b"(not a debug message").is_none());
        assert!(log
            .receive(b"((debug (format-version 5)) (time 3,0))")
            .is_none());
        assert_eq!(log.stats.unreadable.load(Ordering::Relaxed), 2);
        let a = log.poll(&Grant::All, 0);
        assert!(a.messages.is_empty() && !a.more && a.next == 1);
    }
}
