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

mod js;
pub mod live;
pub mod manifest;
pub mod store;

pub(crate) use js::sleep;
use js::{dropped_files, grep_agent_file, index_agent_file, now};
pub use store::{AgentFile, Agents, Cycle, Decoded, IndexReport, Say, LIVE_REACH};

use crate::scene::agent::AgentOverlay;
use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_agents::commands;
use pitchside_agents::debuglog;
use pitchside_agents::files::{parse_name, Named, Owner};
use pitchside_agents::index::{FileKind, Index, Span};
use pitchside_agents::{level, Time};
use rcss_formats::Side;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

impl Agents {
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
