//! The agents' own files beside the match: librcsc debug logs (`.log`), debug-client world
//! models (`.dcl`) and the server's message log (`.rcl`), opened with the `.rcg` (dropped
//! together, a folder, or picked).
//!
//! Each file is indexed by game time in a worker (`web/agents.js` and `web/worker`, which
//! runs [`pitchside_agents::index`] itself), so the page holds about 32 bytes per cycle
//! of each file, not the file; the lines of the time on screen are read and decoded when that
//! time is shown, and kept in a small cache. A gzipped file is the same to the page: the worker
//! that indexed it inflates the range asked for from its access points
//! ([`pitchside_agents::gz`]). Files are paired with a team and a player by their names
//! (`TEAM-UNUM.log`) and the match's team names; what cannot be paired is listed with why.

pub mod live;
pub mod manifest;

use crate::scene::agent::AgentOverlay;
use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_agents::commands;
use pitchside_agents::debuglog;
use pitchside_agents::files::{parse_name, Named, Owner};
use pitchside_agents::index::{FileKind, Index, Span};
use pitchside_agents::worldmodel::{self, WorldModel};
use pitchside_agents::{level, AgentLineError, Time};
use rcss_formats::Side;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Decoded times kept, of all files: past this the ones far from the time asked for go.
const CACHE_TIMES: usize = 1024;
/// How far from the time asked for (in cycles) decoded times are kept when the cache is full.
const CACHE_REACH: u32 = 20;
/// Spans read ahead of the one asked for, in one read: playback asks for the next ones next.
const READ_AHEAD: usize = 12;
/// Times of each agent's live stream the page keeps (about 4 MB of messages per agent).
const LIVE_TIMES: usize = 1500;
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
    cache: StoredValue<HashMap<(usize, Time), Cycle>, LocalStorage>,
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
    epoch: StoredValue<u64>,
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

    /// What the field shows of the agent of `(side, unum)` at frame `index`: its drawings
    /// (in the categories shown) and its world model. Reads the cache and asks for what is
    /// missing; `None` when it has no files.
    pub fn overlay(&self, m: Monitor, index: usize, side: Side, unum: u8) -> Option<AgentOverlay> {
        let team = team_name(m, side)?;
        let files = self.of_player(&team, unum);
        if files.is_empty() {
            return None;
        }
        let time = time_of(m, index)?;
        let hidden = self.hidden_levels.get_untracked();
        let mut out = AgentOverlay {
            side: Some(side),
            unum,
            ..AgentOverlay::default()
        };
        for (file, kind) in files {
            let Some(t) = self.resolve(file, time) else {
                continue;
            };
            match kind {
                FileKind::DebugLog if self.show_drawings.get_untracked() => {
                    if let Some(Cycle {
                        decoded: Decoded::Log(entries),
                        ..
                    }) = self.cycle(file, t)
                    {
                        out.drawings
                            .extend(entries.into_iter().filter_map(|e| match e.item {
                                debuglog::Item::Drawing(d) if level::shown(e.level, hidden) => {
                                    Some(d)
                                }
                                _ => None,
                            }));
                    }
                }
                FileKind::WorldModel if self.show_beliefs.get_untracked() => {
                    if let Some(Cycle {
                        decoded: Decoded::World(mut w),
                        ..
                    }) = self.cycle(file, t)
                    {
                        out.world = w.pop();
                    }
                }
                _ => {}
            }
        }
        Some(out)
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
        // Every file asked for at once: the workers search theirs side by side.
        let jobs: Vec<(js_sys::Promise, Index)> = jobs
            .into_iter()
            .map(|(blob, index)| (search_agent_file(&blob, &text), index))
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

fn kind_of(a: Agents, file: usize) -> FileKind {
    a.files
        .with_value(|f| f.get(file).map_or(FileKind::DebugLog, |f| f.named.kind))
}

fn empty(kind: FileKind) -> Decoded {
    match kind {
        FileKind::DebugLog => Decoded::Log(Vec::new()),
        FileKind::WorldModel => Decoded::World(Vec::new()),
        FileKind::Commands => Decoded::Commands(Vec::new()),
    }
}

fn append(out: &mut Cycle, kind: FileKind, bytes: &[u8], first_line: u64) {
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

/// The game time of frame `index`: its cycle, and how many frames of the same cycle come
/// before it (the server writes a show for every cycle the clock stands still, as agents count
/// `STOPPED`).
pub fn time_of(m: Monitor, index: usize) -> Option<Time> {
    m.game.with_value(|g| {
        let f = g.frames.get(index)?;
        if let Some(stopped) = f.stime {
            return Some(Time {
                cycle: f.time,
                stopped,
            });
        }
        let first = m
            .cycles
            .with_value(|c| c.seek_cycle(f.time))
            .unwrap_or(index);
        Some(Time {
            cycle: f.time,
            stopped: index.saturating_sub(first) as u32,
        })
    })
}

/// The name of the team on `side` in the match on screen.
pub fn team_name(m: Monitor, side: Side) -> Option<String> {
    m.game
        .with_value(|g| g.frames.last()?.teams[side.index()].name.clone())
}

/// The side of the team called `team` in the match on screen.
pub fn side_of(m: Monitor, team: &str) -> Option<Side> {
    m.game.with_value(|g| {
        let f = g.frames.last()?;
        [Side::Left, Side::Right]
            .into_iter()
            .find(|s| f.teams[s.index()].name.as_deref() == Some(team))
    })
}

/// Splits what was dropped or chosen into the match's log and agent files; opens the log (if
/// there is one) and indexes the agent files beside it.
pub fn open_files(m: Monitor, files: Vec<web_sys::File>) {
    let agents = m.agents;
    let mut logs = Vec::new();
    let mut agent = Vec::new();
    let mut problems = Vec::new();
    let mut others = Vec::new();
    for f in files {
        let name = f.name();
        match parse_name(&name) {
            Ok(named) => agent.push((f, named)),
            Err(_) if looks_like_game_log(&name) => logs.push(f),
            Err(e) => {
                if !name.starts_with('.') {
                    problems.push(format!("{name}: {e}"));
                }
                others.push(f);
            }
        }
    }
    // Nothing the page knows by its name: opened as a log, which says what it is not.
    if logs.is_empty() && agent.is_empty() {
        if let Some(f) = others.into_iter().next() {
            crate::source::file::open(m, f);
        }
        return;
    }
    if logs.len() > 1 {
        problems.push(format!(
            "{} game logs were given; {} is opened (one match at a time)",
            logs.len(),
            logs[0].name()
        ));
    }
    if let Some(log) = logs.into_iter().next() {
        // Clears the agent files of the match before.
        crate::source::file::open(m, log);
    }
    if agent.is_empty() {
        agents.problems.update(|p| p.extend(problems));
        return;
    }
    agents.problems.update(|p| p.extend(problems));
    index_all(m, agents, agent);
}

/// A name the page opens as a game log.
pub fn looks_like_game_log(name: &str) -> bool {
    let n = name.strip_suffix(".gz").unwrap_or(name);
    n.ends_with(".rcg") || n.ends_with(".json")
}

/// Hands every file to the workers at once (they share them out and index them side by side)
/// and adds each as soon as its index arrives, so the first files show while the rest are
/// read; when the last is in, says what could not be paired and reads the says.
fn index_all(m: Monitor, agents: Agents, files: Vec<(web_sys::File, Named)>) {
    let started = now();
    let total = files.len();
    let epoch = agents.epoch.get_value();
    agents
        .progress
        .set(Some(format!("indexing agent files: 0 of {total}")));
    let jobs: Vec<_> = files
        .into_iter()
        .map(|(file, named)| {
            let kind = match named.kind {
                FileKind::DebugLog => 0,
                FileKind::WorldModel => 1,
                FileKind::Commands => 2,
            };
            let job = index_agent_file(&file, kind, &JsValue::UNDEFINED);
            (file, named, job)
        })
        .collect();
    let left = Rc::new(std::cell::Cell::new(total));
    let bytes = Rc::new(std::cell::Cell::new(0.0));
    for (file, named, job) in jobs {
        let (left, bytes) = (left.clone(), bytes.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let res = JsFuture::from(job).await;
            // Another match was opened meanwhile: these files are not its.
            if agents.epoch.get_value() != epoch {
                return;
            }
            bytes.set(bytes.get() + add_indexed(agents, file, named, res));
            left.set(left.get() - 1);
            if left.get() > 0 {
                agents.progress.set(Some(format!(
                    "indexing agent files: {} of {total}",
                    total - left.get()
                )));
                return;
            }
            let index_bytes = agents
                .files
                .with_value(|f| f.iter().map(|f| f.index.heap_bytes()).sum());
            agents.indexed.set(Some(IndexReport {
                files: total,
                bytes: bytes.get(),
                ms: now() - started,
                index_bytes,
            }));
            agents.progress.set(None);
            check_pairing(m, agents);
            load_says(agents).await;
        });
    }
}

/// Adds a file whose index came back (or says why it cannot be shown); the bytes of text it
/// has.
fn add_indexed(
    agents: Agents,
    file: web_sys::File,
    named: Named,
    res: Result<JsValue, JsValue>,
) -> f64 {
    let name = file.name();
    let res = match res {
        Ok(r) => r,
        Err(e) => {
            agents
                .problems
                .update(|p| p.push(format!("{name}: cannot be read ({e:?})")));
            return 0.0;
        }
    };
    let get = |k: &str| js_sys::Reflect::get(&res, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let num = |k: &str| get(k).as_f64().unwrap_or(0.0);
    if let Some(err) = get("error").as_string() {
        if get("spans").is_undefined() {
            agents
                .problems
                .update(|p| p.push(format!("{name}: cannot be read: {err}")));
            return 0.0;
        }
        agents.problems.update(|p| {
            p.push(format!(
                "{name}: read up to a damaged part ({err}); the cycles before it are shown"
            ))
        });
    }
    let flat = get("spans")
        .dyn_into::<js_sys::Float64Array>()
        .map(|a| a.to_vec())
        .unwrap_or_default();
    let spans: Vec<Span> = flat
        .chunks_exact(5)
        .map(|s| Span {
            time: Time {
                cycle: s[0] as u32,
                stopped: s[1] as u32,
            },
            start: s[2] as u64,
            end: s[3] as u64,
            first_line: s[4] as u64,
        })
        .collect();
    let index = Index::from_spans(
        named.kind,
        spans,
        num("levels") as u32,
        num("lines") as u64,
        num("bad") as u64,
        num("bytes") as u64,
    );
    let bytes = index.bytes as f64;
    if index.spans.is_empty() {
        agents.problems.update(|p| {
            p.push(format!(
                "{name}: no line with a game time in it ({} lines), so nothing to show",
                index.lines
            ))
        });
        return bytes;
    }
    let gzipped = get("gz").as_bool().unwrap_or(false);
    let text = match get("text") {
        t if t.is_object() => t,
        _ => JsValue::from(file.clone()),
    };
    agents.files.update_value(|f| {
        f.push(AgentFile {
            name,
            named,
            text,
            index,
            gzipped,
            live: None,
        })
    });
    agents.revision.update(|r| *r += 1);
    bytes
}

/// Says read from the message log at most: a whole game of helios-base players saying every
/// cycle is about 130,000.
const SAYS_LIMIT: u32 = 300_000;

/// Reads every say of the server's message log (one more pass over it, in the worker) for
/// the message board.
async fn load_says(agents: Agents) {
    let Some(file) = agents.commands_file() else {
        return;
    };
    let Some(text) = agents
        .files
        .with_value(|f| f.get(file).map(|f| f.text.clone()))
    else {
        return;
    };
    let Ok(res) = JsFuture::from(grep_agent_file(&text, "(say ", SAYS_LIMIT)).await else {
        return;
    };
    // Another match's files by now: these says are not its.
    let same = agents.files.with_value(|f| {
        f.get(file)
            .is_some_and(|f| f.named.kind == FileKind::Commands && f.text == text)
    });
    if !same {
        return;
    }
    let lines = js_sys::Reflect::get(&res, &"lines".into())
        .ok()
        .and_then(|l| l.dyn_into::<js_sys::Array>().ok())
        .map(|a| a.iter().filter_map(|v| v.as_string()).collect::<Vec<_>>())
        .unwrap_or_default();
    agents.says.set(says_of(&lines));
}

/// The says in message-log lines, in their order.
pub fn says_of(lines: &[String]) -> Vec<Say> {
    let mut out = Vec::new();
    for line in lines {
        let Ok(entry) = commands::parse_line(line.as_bytes()) else {
            continue;
        };
        let (team, unum) = match entry.sender {
            commands::Sender::Player { team, unum } => (team, Some(unum)),
            commands::Sender::Coach { team } => (team, None),
            _ => continue,
        };
        for c in &entry.commands {
            if commands::name(c) == "say" {
                out.push(Say {
                    time: entry.time,
                    team: team.clone(),
                    unum,
                    text: c.clone(),
                });
            }
        }
    }
    out
}

/// Says which files belong to no team of the match, or to no cycle of it.
pub fn check_pairing(m: Monitor, agents: Agents) {
    let last = m.game.with_value(|g| g.frames.last().map(|f| f.time));
    let problems: Vec<String> = agents.files.with_value(|files| {
        files
            .iter()
            .filter_map(|f| {
                let team = match &f.named.owner {
                    Owner::Player { team, .. } | Owner::Coach { team } => team,
                    Owner::Server => return None,
                };
                if last.is_none() {
                    return Some(format!("{}: no match is open to pair it with", f.name));
                }
                if side_of(m, team).is_none() {
                    return Some(format!(
                        "{}: its team {team} is not playing in this match",
                        f.name
                    ));
                }
                let (first, end) = f.index.range()?;
                match last {
                    Some(l) if first.cycle > l => Some(format!(
                        "{}: its cycles {}–{} are not in this match (which ends at {l})",
                        f.name, first.cycle, end.cycle
                    )),
                    _ => None,
                }
            })
            .collect()
    });
    if !problems.is_empty() {
        agents.problems.update(|p| p.extend(problems));
    }
}

/// Resolves after `ms` milliseconds (the live stream's and the downloads' pauses).
pub(crate) fn sleep(ms: i32) -> JsFuture {
    JsFuture::from(js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    }))
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

async fn read_range(blob: &JsValue, start: u64, end: u64) -> Option<Vec<u8>> {
    let v = JsFuture::from(read_range_js(blob, start as f64, end as f64))
        .await
        .ok()?;
    Some(js_sys::Uint8Array::new(&v).to_vec())
}

/// Every file of a drop, folders walked. Starts at once (a drop's items can only be read
/// while its event is handled) and finishes when awaited.
pub fn dropped(
    dt: &web_sys::DataTransfer,
) -> impl std::future::Future<Output = Vec<web_sys::File>> {
    let promise = dropped_files(dt);
    async move {
        let Ok(v) = JsFuture::from(promise).await else {
            return Vec::new();
        };
        js_sys::Array::from(&v)
            .iter()
            .filter_map(|f| f.dyn_into::<web_sys::File>().ok())
            .collect()
    }
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/agents.js")]
extern "C" {
    fn index_agent_file(file: &web_sys::File, kind: u32, progress: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = read_range)]
    fn read_range_js(text: &JsValue, start: f64, end: f64) -> js_sys::Promise;
    fn search_agent_file(text: &JsValue, needle: &str) -> js_sys::Promise;
    fn grep_agent_file(text: &JsValue, needle: &str, limit: u32) -> js_sys::Promise;
    fn reset_agent_workers();
    fn dropped_files(dt: &web_sys::DataTransfer) -> js_sys::Promise;
}
