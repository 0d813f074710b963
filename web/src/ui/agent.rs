//! The agent panel: what the selected player's agent wrote about the cycle on screen, from
//! its own files (opened with the match): its debug-log messages by category, its beliefs
//! against the truth, and the commands the server received from it; a search across the
//! match; and which files could not be paired, with why. With no player selected it lists
//! every agent's messages of the cycle ("both teams").

use crate::agents::{self, Agents, Cycle, Decoded};
use crate::scene::agent::belief_errors;
use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_agents::commands::Sender;
use pitchside_agents::files::Owner;
use pitchside_agents::index::FileKind;
use pitchside_agents::{debuglog, level, Time};

/// Message lines listed before a *Show the other lines* button: more than one agent's lines
/// of a cycle (a helios-base player writes about a hundred), a tenth of both teams' (2,105
/// at cycle 60 of the agents fixture).
const FIRST_LINES: usize = 200;

/// One message line of the panel.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    who: String,
    category: String,
    text: String,
    /// The cycle it was written at, when not the one on screen (a live agent's latest).
    earlier: Option<u32>,
}

/// What the panel shows for one moment.
#[derive(Clone, Debug, Default, PartialEq)]
struct Shown {
    time: Option<Time>,
    files: Vec<String>,
    levels: u32,
    messages: Vec<Line>,
    beliefs: Vec<(String, String, String, String, String)>,
    world_message: Option<String>,
    /// The cycle of the selected agent's world model, when not the one on screen.
    world_earlier: Option<u32>,
    commands: Vec<String>,
    heard: Option<String>,
    errors: Vec<String>,
    /// Some of the files' lines for this time are still being read.
    pending: bool,
}

fn fmt_p((x, y): (f64, f64)) -> String {
    format!("({x:.1}, {y:.1})")
}

fn shown(m: Monitor, a: Agents) -> Shown {
    let index = m.index.get_untracked();
    let Some(time) = agents::time_of(m, index) else {
        return Shown::default();
    };
    let hidden = a.hidden_levels.get_untracked();
    let selected = m.field.selected.get_untracked();
    let mut out = Shown {
        time: Some(time),
        ..Shown::default()
    };
    let mut files: Vec<(usize, FileKind, String, Owner, u32)> = a.files.with_value(|f| {
        f.iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    i,
                    f.named.kind,
                    f.name.clone(),
                    f.named.owner.clone(),
                    f.index.levels,
                )
            })
            .collect()
    });
    // In the order of the players (files are indexed side by side and added as they finish).
    files.sort_by_key(|(_, kind, _, owner, _)| {
        let (team, unum) = match owner {
            Owner::Player { team, unum } => (team.clone(), *unum),
            Owner::Coach { team } => (team.clone(), u8::MAX),
            Owner::Server => (String::new(), 0),
        };
        (team, unum, *kind as u8)
    });
    let team = selected.and_then(|(s, _)| agents::team_name(m, s));
    let mine = |o: &Owner| match (o, selected, &team) {
        (Owner::Player { team: t, unum }, Some((_, u)), Some(team)) => t == team && *unum == u,
        _ => false,
    };
    for (i, kind, name, owner, levels) in &files {
        let who = match owner {
            Owner::Player { team, unum } => format!("{team} {unum}"),
            Owner::Coach { team } => format!("{team} coach"),
            Owner::Server => "server".into(),
        };
        let this = mine(owner);
        if this {
            out.files.push(name.clone());
        }
        let wanted = match kind {
            // Messages: the selected agent's, or everyone's when nobody is selected.
            FileKind::DebugLog => this || selected.is_none(),
            // Beliefs: the selected agent's; with nobody selected, each agent's `message`
            // line (what it is doing), so that a live stream reads at a glance.
            FileKind::WorldModel => this || selected.is_none(),
            FileKind::Commands => selected.is_some(),
        };
        if !wanted {
            continue;
        }
        if *kind == FileKind::DebugLog {
            out.levels |= levels;
        }
        let Some(t) = a.resolve(*i, time) else {
            continue;
        };
        let earlier = (t.cycle != time.cycle).then_some(t.cycle);
        let Some(Cycle {
            decoded,
            errors,
            pending,
        }) = a.cycle(*i, t)
        else {
            out.pending = true;
            continue;
        };
        out.pending |= pending;
        out.errors
            .extend(errors.iter().take(5).map(|e| format!("{name}: {e}")));
        match decoded {
            Decoded::Log(entries) => {
                for e in entries {
                    if !level::shown(e.level, hidden) {
                        continue;
                    }
                    if let debuglog::Item::Message(text) = e.item {
                        out.messages.push(Line {
                            who: who.clone(),
                            category: level::name(e.level),
                            text,
                            earlier,
                        });
                    }
                }
            }
            Decoded::World(mut w) => {
                let Some(wm) = w.pop() else {
                    continue;
                };
                let Some((side, _)) = selected else {
                    if let Some(text) = wm.message {
                        out.messages.push(Line {
                            who: who.clone(),
                            category: "message".into(),
                            text,
                            earlier,
                        });
                    }
                    continue;
                };
                out.world_message = wm.message.clone();
                out.world_earlier = earlier;
                out.heard = wm.hear.clone();
                // Beliefs against the truth of their own time.
                let at = match earlier {
                    None => Some(index),
                    Some(c) => m
                        .cycles
                        .with_value(|cy| cy.seek_cycle(c))
                        .map(|i| i + t.stopped as usize),
                };
                m.game.with_value(|g| {
                    if let Some(f) = at.and_then(|i| g.frames.get(i)) {
                        for b in belief_errors(side, &wm, f) {
                            out.beliefs.push((
                                b.what,
                                fmt_p(b.believed),
                                b.truth.map(fmt_p).unwrap_or_else(|| "—".into()),
                                b.error
                                    .map(|e| format!("{e:.2}"))
                                    .unwrap_or_else(|| "—".into()),
                                b.age.map(|a| a.to_string()).unwrap_or_else(|| "—".into()),
                            ));
                        }
                    }
                });
            }
            Decoded::Commands(entries) => {
                let Some((_, unum)) = selected else {
                    continue;
                };
                for e in entries {
                    match &e.sender {
                        Sender::Player { team: t, unum: u }
                            if Some(t) == team.as_ref() && *u == unum =>
                        {
                            out.commands.extend(e.commands.iter().cloned())
                        }
                        Sender::Referee => out
                            .commands
                            .extend(e.commands.iter().map(|c| format!("referee: {c}"))),
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

#[component]
pub fn AgentPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let a = m.agents;
    let any = Memo::new(move |_| {
        a.revision.track();
        a.files.with_value(|f| !f.is_empty())
    });
    let view_of = Memo::new(move |_| {
        m.index.track();
        m.count.track();
        m.field.selected.track();
        a.revision.track();
        a.loaded.track();
        a.hidden_levels.track();
        shown(m, a)
    });
    let query = RwSignal::new(String::new());
    let search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let q = query.get_untracked().trim().to_string();
        if q.is_empty() {
            return;
        }
        let selected = m.field.selected.get_untracked();
        let team = selected.and_then(|(s, _)| agents::team_name(m, s));
        let files: Vec<usize> = a.files.with_value(|f| {
            f.iter()
                .enumerate()
                .filter(|(_, f)| f.named.kind == FileKind::DebugLog)
                .filter(|(_, f)| match (&f.named.owner, selected, &team) {
                    (Owner::Player { team: t, unum }, Some((_, u)), Some(team)) => {
                        t == team && *unum == u
                    }
                    _ => selected.is_none(),
                })
                .map(|(i, _)| i)
                .collect()
        });
        a.find(files, q);
    };
    let jump = move |t: Time| {
        if let Some(i) = m.cycles.with_value(|c| c.frame_at_or_after(t.cycle)) {
            m.playing.set(false);
            m.follow.set(false);
            m.index
                .set((i + t.stopped as usize).min(m.count.get_untracked().saturating_sub(1)));
        }
    };
    // Every agent's lines of a cycle run to thousands (two teams' debug logs): all of them
    // made again at every cycle of playback kept the page busy and its memory high (about
    // 180 MB more while a full game's files played). The first lines are shown, the rest on
    // request, from then on.
    let show_every_line = RwSignal::new(false);
    view! {
        // For the agents bench: how long indexing and the last search took, and what the
        // indexes hold.
        <span
            id="agent-index"
            hidden
            data-files=move || a.indexed.get().map(|r| r.files.to_string()).unwrap_or_default()
            data-bytes=move || a.indexed.get().map(|r| format!("{:.0}", r.bytes)).unwrap_or_default()
            data-ms=move || a.indexed.get().map(|r| format!("{:.1}", r.ms)).unwrap_or_default()
            data-index-bytes=move || a.indexed.get().map(|r| r.index_bytes.to_string()).unwrap_or_default()
            data-search-ms=move || a.search_ms.get().map(|ms| format!("{ms:.1}")).unwrap_or_default()
        ></span>
        <Show when=move || any.get() || !a.problems.get().is_empty() || a.progress.get().is_some()>
            <section id="agent-panel" class="panel agent" aria-label="What the agents thought">
                <h2>{move || match (m.field.selected.get(), view_of.get().time) {
                    (Some((s, u)), Some(t)) => format!("Agent {}{u} at {t}", s.letter()),
                    (None, Some(t)) => format!("Agents at {t} (both teams: select a player for one)"),
                    _ => "Agents".into(),
                }}</h2>
                {move || a.progress.get().map(|p| view! { <p class="progress">{p}</p> })}
                <div class="agent-toggles">
                    <label><input type="checkbox" id="agent-show-drawings"
                        prop:checked=move || a.show_drawings.get()
                        on:change=move |_| a.show_drawings.update(|v| *v = !*v)/>" drawings"</label>
                    <label><input type="checkbox" id="agent-show-beliefs"
                        prop:checked=move || a.show_beliefs.get()
                        on:change=move |_| a.show_beliefs.update(|v| *v = !*v)/>" world model"</label>
                </div>
                <Show when=move || m.field.selected.get().is_some()>
                    <p class="agent-files">{move || {
                        let f = view_of.get().files;
                        if f.is_empty() { "No files of this player's agent.".to_string() } else { f.join(" · ") }
                    }}</p>
                </Show>
                // A live stream or a world-model file alone has no categories to choose.
                <Show when=move || view_of.get().levels != 0>
                <fieldset class="agent-levels">
                    <legend>"Categories"</legend>
                    {move || {
                        let levels = view_of.get().levels;
                        level::bits(levels).map(|bit| {
                            let name = level::name(bit);
                            view! {
                                <label class="level">
                                    <input type="checkbox" data-level=bit
                                        prop:checked=move || a.hidden_levels.get() & bit == 0
                                        on:change=move |_| a.hidden_levels.update(|h| *h ^= bit)/>
                                    " " {name}
                                </label>
                            }
                        }).collect_view()
                    }}
                </fieldset>
                </Show>
                // `data-pending`: some of the files' lines for the time on screen are still being
                // read (the tests and the bench wait for it to be false).
                <ul id="agent-messages" class="agent-messages"
                    data-pending=move || view_of.get().pending.to_string()>
                    {move || {
                        let s = view_of.get();
                        if s.messages.is_empty() {
                            let text = if s.pending { "Reading…" } else { "No messages this cycle." };
                            return view! { <li class="empty">{text}</li> }.into_any();
                        }
                        let both = m.field.selected.get_untracked().is_none();
                        let total = s.messages.len();
                        let shown = if show_every_line.get() { total } else { total.min(FIRST_LINES) };
                        let rows = s.messages.into_iter().take(shown).map(|l| view! {
                            <li data-earlier=l.earlier.map(|c| c.to_string())>
                                {both.then(|| view! { <span class="who">{l.who}</span> })}
                                {l.earlier.map(|c| view! {
                                    <span class="earlier" title="The latest this agent sent: the cycle on screen has nothing from it yet">{format!("cycle {c}")}</span>
                                })}
                                <span class="cat">{l.category}</span>
                                <span class="text">{l.text}</span>
                            </li>
                        }).collect_view();
                        let more = (shown < total).then(|| view! {
                            <li class="more">
                                <button type="button" on:click=move |_| show_every_line.set(true)>
                                    {format!("Show the other {} lines of this cycle", total - shown)}
                                </button>
                            </li>
                        });
                        view! { {rows} {more} }.into_any()
                    }}
                </ul>
                {move || {
                    let s = view_of.get();
                    let of = s.world_earlier.map(|c| format!("(of cycle {c}) ")).unwrap_or_default();
                    s.world_message.map(|t| view! {
                        <p class="agent-world-message"><strong>"message: "</strong>{of}{t}</p>
                    })
                }}
                {move || {
                    let rows = view_of.get().beliefs;
                    (!rows.is_empty()).then(|| view! {
                        <table id="agent-beliefs" class="agent-beliefs">
                            <caption>"World model against the truth (error in metres, age in cycles)"</caption>
                            <thead><tr><th>"what"</th><th>"believed"</th><th>"truth"</th><th>"error"</th><th>"age"</th></tr></thead>
                            <tbody>
                                {rows.into_iter().map(|(w, b, t, e, age)| view! {
                                    <tr data-what=w.clone()><td>{w.clone()}</td><td>{b}</td><td>{t}</td><td class="err">{e}</td><td>{age}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    })
                }}
                {move || {
                    let s = view_of.get();
                    (!s.commands.is_empty() || s.heard.is_some()).then(|| view! {
                        <div id="agent-commands" class="agent-commands">
                            <h3>"Sent to the server"</h3>
                            <ul>{s.commands.into_iter().map(|c| view! { <li><code>{c}</code></li> }).collect_view()}</ul>
                            {s.heard.map(|h| view! { <p><strong>"heard: "</strong><code>{h}</code></p> })}
                        </div>
                    })
                }}
                <form class="agent-search" on:submit=search>
                    <label for="agent-search-text">"Find in the messages: "</label>
                    <input id="agent-search-text" type="search" placeholder="text"
                        prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))/>
                    <button type="submit">"Find"</button>
                </form>
                {move || a.search.get().map(|(text, times)| {
                    let Some(times) = times else {
                        return view! { <p class="agent-found">{format!("Searching for \"{text}\"…")}</p> }.into_any();
                    };
                    let n = times.len();
                    view! {
                        <p class="agent-found">{format!("\"{text}\": {n} cycle{}", if n == 1 { "" } else { "s" })}</p>
                        <div id="agent-hits" class="agent-hits">
                            {times.into_iter().take(200).map(|t| view! {
                                <button class="link" on:click=move |_| jump(t)>{t.cycle.to_string()}</button>
                            }).collect_view()}
                        </div>
                    }.into_any()
                })}
                {move || {
                    let mut p = a.problems.get();
                    p.extend(view_of.get().errors);
                    (!p.is_empty()).then(|| view! {
                        <details id="agent-problems" class="agent-problems" open=true>
                            <summary>{format!("{} file problem{}", p.len(), if p.len() == 1 { "" } else { "s" })}</summary>
                            <ul>{p.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
                        </details>
                    })
                }}
            </section>
        </Show>
    }
}
