//! The page's agent files and what is shown of them: the files and their indexes, the
//! cache of decoded times, the live streams, searches and what was said. The monitor's state
//! holds one [`Agents`]; this module knows nothing of the state, so the state can.

use super::js::{now, read_range, reset_agent_workers, search_agent_file};
use leptos::prelude::*;
use pitchside_agents::commands;
use pitchside_agents::debuglog;
use pitchside_agents::files::{Named, Owner};
use pitchside_agents::index::{FileKind, Index};
use pitchside_agents::worldmodel::{self, WorldModel};
use pitchside_agents::{AgentLineError, Time};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Decoded times kept, of all files: past this the ones far from the time asked for go.
pub(super) const CACHE_TIMES: usize = 1024;
/// How far from the time asked for (in cycles) decoded times are kept when the cache is full.
pub(super) const CACHE_REACH: u32 = 20;
/// Spans read ahead of the one asked for, in one read: playback asks for the next ones next.
pub(super) const READ_AHEAD: usize = 12;
/// Times of each agent's live stream the page keeps (about 4 MB of messages per agent).
pub(super) const LIVE_TIMES: usize = 1500;
/// How far back (in cycles) a live stream's latest message is still shown for the cycle on
/// screen ([`Agents::resolve`]): five seconds of play.
pub const LIVE_REACH: u32 = 50;

/// One agent file, indexed.
pub struct AgentFile {
    pub name: String,
    pub named: Named,
    /// The file (a Blob), or for a gzip file the worker holding its access points and its
    /// number there (`web/agents.js`).
    pub text: JsValue,
    pub index: Index,
    pub gzipped: bool,
    /// A stream from the relay's debug server ([`live`]): the messages by time, as they came
    /// (decoded when shown, like a file's lines). `None` for a file.
    pub live: Option<BTreeMap<Time, Rc<str>>>,
}

/// What the lines of one time of one file hold.
#[derive(Clone, Debug)]
pub enum Decoded {
    Log(Vec<debuglog::Entry>),
    World(Vec<WorldModel>),
    Commands(Vec<commands::Entry>),
}

/// A decoded time and the lines in it that could not be read.
#[derive(Clone, Debug)]
pub struct Cycle {
    pub decoded: Decoded,
    pub errors: Vec<AgentLineError>,
    /// Still being read.
    pub pending: bool,
}

/// The page's agent files and what is shown of them.
#[derive(Clone, Copy)]
pub struct Agents {
    pub files: StoredValue<Vec<AgentFile>, LocalStorage>,
    /// Bumped when files are added or removed.
    pub revision: RwSignal<u64>,
    /// Indexing in progress, in words.
    pub progress: RwSignal<Option<String>>,
    /// Files that were not opened, or not paired, each with why.
    pub problems: RwSignal<Vec<String>>,
    /// How long indexing the last set took, and what the indexes hold (for the bench).
    pub indexed: RwSignal<Option<IndexReport>>,
    pub(super) cache: StoredValue<HashMap<(usize, Time), Cycle>, LocalStorage>,
    /// Bumped whenever a time's lines arrive in the cache: views of them follow it.
    pub loaded: RwSignal<u64>,
    /// Categories hidden (bits), for messages and drawings alike.
    pub hidden_levels: RwSignal<u32>,
    pub show_drawings: RwSignal<bool>,
    pub show_beliefs: RwSignal<bool>,
    /// The last search: its text and the times it was found at (`None` while it runs).
    pub search: RwSignal<Option<(String, Option<Vec<Time>>)>>,
    /// How long the last search took, in milliseconds (for the bench).
    pub search_ms: RwSignal<Option<f64>>,
    /// What the players and coaches said, from the server's message log, for the message
    /// board.
    pub says: RwSignal<Vec<Say>>,
    /// Bumped when the files are forgotten: indexing of the ones before stops adding them.
    pub(super) epoch: StoredValue<u64>,
}

/// One `(say …)` of the server's message log.
#[derive(Clone, Debug, PartialEq)]
pub struct Say {
    pub time: Time,
    pub team: String,
    /// `None` for a coach.
    pub unum: Option<u8>,
    /// The command as sent: `(say "…")`.
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexReport {
    pub files: usize,
    pub bytes: f64,
    pub ms: f64,
    pub index_bytes: usize,
}

impl Agents {
    pub fn new() -> Agents {
        Agents {
            files: StoredValue::new_local(Vec::new()),
            revision: RwSignal::new(0),
            progress: RwSignal::new(None),
            problems: RwSignal::new(Vec::new()),
            indexed: RwSignal::new(None),
            cache: StoredValue::new_local(HashMap::new()),
            loaded: RwSignal::new(0),
            hidden_levels: RwSignal::new(0),
            show_drawings: RwSignal::new(true),
            show_beliefs: RwSignal::new(true),
            search: RwSignal::new(None),
            search_ms: RwSignal::new(None),
            says: RwSignal::new(Vec::new()),
            epoch: StoredValue::new(0),
        }
    }

    /// Forgets every agent file (a new match was opened).
    pub fn clear(&self) {
        // The workers hold the access points of the gzipped files: gone with them.
        reset_agent_workers();
        self.epoch.update_value(|e| *e += 1);
        self.files.set_value(Vec::new());
        self.cache.set_value(HashMap::new());
        self.problems.set(Vec::new());
        self.search.set(None);
        self.says.set(Vec::new());
        self.indexed.set(None);
        self.revision.update(|r| *r += 1);
    }

    /// Indexes of the files of player `unum` of team `team`, by kind.
    pub fn of_player(&self, team: &str, unum: u8) -> Vec<(usize, FileKind)> {
        self.files.with_value(|files| {
            files
                .iter()
                .enumerate()
                .filter(|(_, f)| {
                    matches!(&f.named.owner, Owner::Player { team: t, unum: u } if t == team && *u == unum)
                })
                .map(|(i, f)| (i, f.named.kind))
                .collect()
        })
    }

    /// The server's message log, if one is open.
    pub fn commands_file(&self) -> Option<usize> {
        self.files.with_value(|files| {
            files
                .iter()
                .position(|f| f.named.kind == FileKind::Commands)
        })
    }

    /// The time of file `file` to show at `time`: `time` itself, or the last one of the same
    /// cycle before it (an agent may write nothing while the clock stands still).
    ///
    /// A live stream gives its agent's latest message at or before `time`, up to
    /// [`LIVE_REACH`] cycles back: the frame of a cycle reaches the page before the agents
    /// have thought about it, so at the live edge the cycle on screen often has nothing yet.
    /// Whoever shows it says which cycle it is of.
    pub fn resolve(&self, file: usize, time: Time) -> Option<Time> {
        self.files.with_value(|files| {
            let f = files.get(file)?;
            match &f.live {
                Some(by_time) => {
                    let t = *by_time.range(..=time).next_back()?.0;
                    (time.cycle - t.cycle <= LIVE_REACH).then_some(t)
                }
                None => {
                    let t = f.index.at_or_before(time)?;
                    (t.cycle == time.cycle).then_some(t)
                }
            }
        })
    }

    /// The decoded lines of `time` in file `file`, if they have been read; asks for them
    /// otherwise (the `loaded` signal moves when they arrive).
    pub fn cycle(&self, file: usize, time: Time) -> Option<Cycle> {
        if let Some(c) = self.cache.with_value(|c| c.get(&(file, time)).cloned()) {
            return Some(c);
        }
        // A live stream's message is in memory already: decoded now.
        let live = self.files.with_value(|files| {
            files
                .get(file)
                .and_then(|f| f.live.as_ref().map(|l| l.get(&time).cloned()))
        });
        if let Some(text) = live {
            let mut cycle = Cycle {
                decoded: empty(FileKind::WorldModel),
                errors: Vec::new(),
                pending: false,
            };
            if let Some(text) = text {
                match worldmodel::parse_message(text.as_bytes()) {
                    Ok(w) => cycle.decoded = Decoded::World(vec![w]),
                    Err(what) => cycle.errors.push(AgentLineError { line: 0, what }),
                }
            }
            self.cache.update_value(|c| {
                if c.len() >= CACHE_TIMES {
                    c.retain(|(_, t), _| t.cycle.abs_diff(time.cycle) <= CACHE_REACH);
                }
                c.insert((file, time), cycle.clone());
            });
            return Some(cycle);
        }
        self.fetch(file, time);
        None
    }

    /// Adds one message of the relay's debug stream ([`live`]) to its agent's stream, which
    /// is made the first time; views follow once `loaded` moves.
    pub fn add_live(&self, team: &str, unum: Option<u8>, time: Time, text: Rc<str>) {
        let owner = match unum {
            Some(unum) => Owner::Player {
                team: team.to_owned(),
                unum,
            },
            None => Owner::Coach {
                team: team.to_owned(),
            },
        };
        let mut added = None;
        self.files.update_value(|files| {
            let i = match files
                .iter()
                .position(|f| f.live.is_some() && f.named.owner == owner)
            {
                Some(i) => i,
                None => {
                    let who = unum.map_or("coach".to_owned(), |u| u.to_string());
                    files.push(AgentFile {
                        name: format!("{team}-{who} (live)"),
                        named: Named {
                            kind: FileKind::WorldModel,
                            owner,
                            gzipped: false,
                        },
                        text: JsValue::NULL,
                        index: Index::from_spans(FileKind::WorldModel, Vec::new(), 0, 0, 0, 0),
                        gzipped: false,
                        live: Some(BTreeMap::new()),
                    });
                    added = Some(files.len() - 1);
                    files.len() - 1
                }
            };
            if let Some(l) = files[i].live.as_mut() {
                l.insert(time, text);
                // The page keeps each agent's recent past; the relay's recording has it all.
                while l.len() > LIVE_TIMES {
                    l.pop_first();
                }
            }
            self.cache.update_value(|c| {
                c.remove(&(i, time));
            });
        });
        if added.is_some() {
            self.revision.update(|r| *r += 1);
        }
    }

    /// Forgets the live streams (the relay started another match).
    pub fn drop_live(&self) {
        let mut had = false;
        self.files.update_value(|files| {
            had = files.iter().any(|f| f.live.is_some());
            files.retain(|f| f.live.is_none());
        });
        if had {
            self.cache.set_value(HashMap::new());
            self.revision.update(|r| *r += 1);
        }
    }

    fn fetch(&self, file: usize, time: Time) {
        // The spans of `time` and the ones after it in the file: one contiguous read.
        let job = self.files.with_value(|files| {
            let f = files.get(file)?;
            let first = f.index.positions_at(time).next()?;
            let last = (first + READ_AHEAD).min(f.index.spans.len() - 1);
            let spans = f.index.spans[first..=last].to_vec();
            Some((f.text.clone(), f.named.kind, spans))
        });
        let me = *self;
        let Some((blob, kind, spans)) = job else {
            // Nothing at that time: an empty cycle, so it is not asked for again.
            me.cache.update_value(|c| {
                c.insert(
                    (file, time),
                    Cycle {
                        decoded: empty(kind_of(me, file)),
                        errors: Vec::new(),
                        pending: false,
                    },
                );
            });
            return;
        };
        // Marked as on their way, so each time is asked for once.
        me.cache.update_value(|c| {
            if c.len() >= CACHE_TIMES {
                c.retain(|(_, t), _| t.cycle.abs_diff(time.cycle) <= CACHE_REACH);
            }
            for s in &spans {
                c.entry((file, s.time)).or_insert_with(|| Cycle {
                    decoded: empty(kind),
                    errors: Vec::new(),
                    pending: true,
                });
            }
        });
        let generation = self.revision.get_untracked();
        wasm_bindgen_futures::spawn_local(async move {
            let (start, end) = (spans[0].start, spans[spans.len() - 1].end);
            let bytes = read_range(&blob, start, end).await;
            if me.revision.get_untracked() != generation {
                // The files changed meanwhile: these times are no longer on their way, so
                // they are asked for again when shown.
                me.cache.update_value(|c| {
                    for s in &spans {
                        if c.get(&(file, s.time)).is_some_and(|x| x.pending) {
                            c.remove(&(file, s.time));
                        }
                    }
                });
                return;
            }
            let mut got: HashMap<Time, Cycle> = HashMap::new();
            for s in &spans {
                let out = got.entry(s.time).or_insert_with(|| Cycle {
                    decoded: empty(kind),
                    errors: Vec::new(),
                    pending: false,
                });
                let from = (s.start - start) as usize;
                let to = (s.end - start) as usize;
                if let Some(text) = bytes.as_ref().and_then(|b| b.get(from..to)) {
                    append(out, kind, text, s.first_line);
                }
            }
            me.cache.update_value(|c| {
                for (t, cycle) in got {
                    // A time already read (ahead, by another request) stays as it is.
                    let slot = c.entry((file, t)).or_insert_with(|| cycle.clone());
                    if slot.pending {
                        *slot = cycle;
                    }
                }
            });
            me.loaded.update(|n| *n += 1);
        });
    }

    /// Searches every file of `files` for `text`; the times it occurs at land in `search`.
    pub fn find(&self, files: Vec<usize>, text: String) {
        let me = *self;
        let jobs: Vec<(JsValue, Index)> = self.files.with_value(|all| {
            files
                .iter()
                .filter_map(|&i| all.get(i))
                .map(|f| (f.text.clone(), f.index.clone()))
                .collect()
        });
        me.search.set(Some((text.clone(), None)));
        me.search_ms.set(None);
        // Every file asked for at once: the workers search theirs side by side, each file
        // after the other within a worker, so that a cycle found in one file is not looked
        // for again in the next (the search's number tells the worker which files go
        // together).
        static SEARCHES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let serial = SEARCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let jobs: Vec<(js_sys::Promise, Index)> = jobs
            .into_iter()
            .map(|(blob, index)| (search_agent_file(&blob, &text, serial), index))
            .collect();
        let started = now();
        wasm_bindgen_futures::spawn_local(async move {
            let mut times = Vec::new();
            for (job, index) in jobs {
                let Ok(res) = JsFuture::from(job).await else {
                    continue;
                };
                // The spans found, by their position in the file's index.
                let spans = js_sys::Reflect::get(&res, &"spans".into())
                    .ok()
                    .and_then(|o| o.dyn_into::<js_sys::Uint32Array>().ok())
                    .map(|a| a.to_vec())
                    .unwrap_or_default();
                times.extend(
                    spans
                        .iter()
                        .filter_map(|&p| index.spans.get(p as usize).map(|s| s.time)),
                );
            }
            // One hit per cycle: a jump goes to the cycle's first frame.
            times.sort();
            times.dedup_by_key(|t| t.cycle);
            me.search_ms.set(Some(now() - started));
            me.search.set(Some((text, Some(times))));
        });
    }
}

impl Default for Agents {
    fn default() -> Self {
        Self::new()
    }
}

pub(super) fn kind_of(a: Agents, file: usize) -> FileKind {
    a.files
        .with_value(|f| f.get(file).map_or(FileKind::DebugLog, |f| f.named.kind))
}

pub(super) fn empty(kind: FileKind) -> Decoded {
    match kind {
        FileKind::DebugLog => Decoded::Log(Vec::new()),
        FileKind::WorldModel => Decoded::World(Vec::new()),
        FileKind::Commands => Decoded::Commands(Vec::new()),
    }
}

pub(super) fn append(out: &mut Cycle, kind: FileKind, bytes: &[u8], first_line: u64) {
    match (kind, &mut out.decoded) {
        (FileKind::DebugLog, Decoded::Log(v)) => {
            let (e, errs) = debuglog::decode(bytes, first_line);
            v.extend(e);
            out.errors.extend(errs);
        }
        (FileKind::WorldModel, Decoded::World(v)) => {
            let (e, errs) = worldmodel::decode(bytes, first_line);
            v.extend(e);
            out.errors.extend(errs);
        }
        (FileKind::Commands, Decoded::Commands(v)) => {
            let (e, errs) = commands::decode(bytes, first_line);
            v.extend(e);
            out.errors.extend(errs);
        }
        _ => {}
    }
}
