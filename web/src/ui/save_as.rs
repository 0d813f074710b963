//! The *Save as…* section of the export drawer: the match on screen written as a log file
//! (another version, sides swapped, teams renamed, cycles A to B) and *Validate*, which lists
//! what is wrong with the log and where. The work is in [`crate::save_as`].

use crate::save_as::{self, Outcome, Report, Request, SaveState, VERSIONS};
use crate::state::{Monitor, Overlay};
use crate::ui::inputs::cycle_box;
use leptos::prelude::*;
use pitchside_analysis::export::Table;

/// The tables a log is saved as: the button's id, its title, the table, its words.
const TABLES: [(&str, &str, Table, &str); 3] = [
    (
        "saveas-tracking",
        "One row per show: the columns librcsc's rcg2csv writes",
        Table::Tracking,
        "Tracking table (CSV)",
    ),
    (
        "saveas-player-types",
        "The player types the tracking table's _t columns name, one row per type: what rcg2csv writes beside it",
        Table::PlayerTypes,
        "Player types (CSV)",
    ),
    (
        "saveas-actions",
        "One row per player's action: passes, shots, dribbles, tackles, …",
        Table::Actions,
        "Actions table (CSV)",
    ),
];

#[component]
pub fn SaveAsSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let state = RwSignal::from(save_as::state());
    let findings = RwSignal::from(save_as::findings());
    let version = RwSignal::new("same".to_owned());
    let reverse = RwSignal::new(false);
    let left = RwSignal::new(String::new());
    let right = RwSignal::new(String::new());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let whole = RwSignal::new(None::<(u32, u32)>);
    // Each time the drawer opens, the cycles span the whole match on screen.
    Effect::new(move |_| {
        if m.overlay.get() == Overlay::Export {
            let span = m
                .cycles
                .with_value(|ix| Some((ix.first_cycle()?, ix.last_cycle()?)));
            whole.set(span);
            if let Some((a, b)) = span {
                from.set(a.to_string());
                to.set(b.to_string());
            }
        }
    });
    let here = move || m.cycle_at(m.index.get_untracked()).map(|c| c.to_string());
    // The teams as the page shows them, for the name fields' placeholders: after a swap the
    // left side is the right team.
    let team = move |side: usize| {
        m.count.track();
        let names = m
            .with_frame(m.index.get_untracked(), |f| {
                [f.teams[0].name.clone(), f.teams[1].name.clone()]
            })
            .unwrap_or_default();
        let i = if reverse.get() { 1 - side } else { side };
        names[i].clone().unwrap_or_default()
    };
    let request = move || Request {
        version: version.get_untracked(),
        reverse: reverse.get_untracked(),
        left: left.get_untracked(),
        right: right.get_untracked(),
        from: from.get_untracked(),
        to: to.get_untracked(),
        whole: whole.get_untracked(),
    };
    let save = move |_| match request().edits() {
        Ok(edits) => save_as::save(m, edits),
        Err(why) => state.set(SaveState::Failed(why)),
    };
    let save_table = move |table| match request().edits() {
        Ok(edits) => save_as::save_table(m, edits, table),
        Err(why) => state.set(SaveState::Failed(why)),
    };
    let working = move || matches!(state.get(), SaveState::Working { .. });
    let nothing = move || m.count.get() == 0;
    let status_kind = move || match state.get() {
        SaveState::Idle => "",
        SaveState::Working { .. } => "working",
        SaveState::Saved { outcome, .. } => match outcome {
            Outcome::Whole => "saved",
            Outcome::Incomplete(_) => "incomplete",
            Outcome::Damaged(_) => "damaged",
        },
        SaveState::Validated { .. } => "validated",
        SaveState::Failed(_) => "failed",
    };
    let status = move || match state.get() {
        SaveState::Idle => String::new(),
        SaveState::Working { what, fraction } => match fraction {
            Some(f) => format!("{what} {:.0}%", f * 100.0),
            None => what,
        },
        SaveState::Saved {
            name,
            bytes,
            shows,
            types,
            version,
            outcome,
        } => {
            let rows = match types {
                Some(n) => format!("{n} player types"),
                None => format!("{shows} shows"),
            };
            let saved = format!(
                "saved {name} ({version}, {rows}, {:.0} KB)",
                bytes as f64 / 1024.0
            );
            match outcome {
                Outcome::Whole => saved,
                Outcome::Incomplete(note) | Outcome::Damaged(note) => format!("{saved}. {note}."),
            }
        }
        SaveState::Validated { name } => format!("validated {name}"),
        SaveState::Failed(why) => format!("not done: {why}"),
    };
    view! {
        <fieldset id="save-as">
            <legend>"Save the log as…"</legend>
            <label class="setting">"version "
                <select id="saveas-version"
                    prop:value=move || version.get()
                    on:change=move |ev| version.set(event_target_value(&ev))>
                    {VERSIONS
                        .iter()
                        .map(|(v, label)| view! { <option value=*v>{*label}</option> })
                        .collect_view()}
                </select>
            </label>
            <label class="setting">
                <input type="checkbox" id="saveas-reverse"
                    prop:checked=move || reverse.get()
                    on:change=move |ev| reverse.set(event_target_checked(&ev))/>
                "swap the sides"
            </label>
            <label class="setting">"left team "
                <input id="saveas-left" type="text" size="12" autocomplete="off"
                    placeholder=move || team(0)
                    prop:value=move || left.get() on:input=move |ev| left.set(event_target_value(&ev))/>
            </label>
            <label class="setting">"right team "
                <input id="saveas-right" type="text" size="12" autocomplete="off"
                    placeholder=move || team(1)
                    prop:value=move || right.get() on:input=move |ev| right.set(event_target_value(&ev))/>
            </label>
            {cycle_box("from cycle ", "saveas-from", from)}
            <button id="saveas-from-here" title="Keep the log from the cycle on screen"
                on:click=move |_| if let Some(c) = here() { from.set(c) }>
                "from this cycle"
            </button>
            {cycle_box("to cycle ", "saveas-to", to)}
            <button id="saveas-to-here" title="Keep the log up to the cycle on screen"
                on:click=move |_| if let Some(c) = here() { to.set(c) }>
                "to this cycle"
            </button>
            <div class="hint">
                "New names are for the sides as written (after a swap); empty keeps the name. \
                 The tables take the cycles, the swap and the names (not the version). \
                 The source is read again: the file, the log on the web, or the relay's record \
                 of the match."
            </div>
            <button id="saveas-save" on:click=save disabled=move || working() || nothing()>
                "Save log"
            </button>
            {TABLES
                .iter()
                .map(|&(id, title, table, words)| view! {
                    <button id=id title=title
                        on:click=move |_| save_table(table) disabled=move || working() || nothing()>
                        {words}
                    </button>
                })
                .collect_view()}
            <button id="saveas-validate" title="Check the log as rcgvalidator does, and more"
                on:click=move |_| save_as::validate(m) disabled=move || working() || nothing()>
                "Validate"
            </button>
            <Show when=working>
                <progress id="saveas-progress" max="1"
                    prop:value=move || match state.get() {
                        SaveState::Working { fraction: Some(f), .. } => f,
                        _ => 0.0,
                    }></progress>
            </Show>
            <div id="saveas-status" class="export-status" role="status" data-state=status_kind>
                {status}
            </div>
            {move || {
                findings
                    .get()
                    .filter(|r| r.source == m.source.get())
                    .map(|r| view! { <Findings report=r/> })
            }}
        </fieldset>
    }
}

/// The findings of a validation, each with its place in the file and its cycle.
#[component]
fn Findings(report: Report) -> impl IntoView {
    let version = report.version.clone().unwrap_or_else(|| "?".into());
    let summary = if report.rows.is_empty() {
        format!(
            "{}: {version}, {} shows, nothing wrong found",
            report.name, report.shows
        )
    } else {
        let n: u64 = report.rows.len() as u64 + report.more.iter().map(|(_, n)| n).sum::<u64>();
        format!(
            "{}: {version}, {} shows, {n} finding{}",
            report.name,
            report.shows,
            if n == 1 { "" } else { "s" }
        )
    };
    let count = report.rows.len();
    view! {
        <div id="saveas-findings" class="findings" data-count=count>
            <p>{summary}</p>
            <ol>
                {report
                    .rows
                    .into_iter()
                    .map(|r| {
                        let place = match (&r.at, r.cycle) {
                            (Some(at), Some(c)) => format!("{at}, cycle {c}: "),
                            (Some(at), None) => format!("{at}: "),
                            (None, Some(c)) => format!("cycle {c}: "),
                            (None, None) => String::new(),
                        };
                        view! {
                            <li data-kind=r.kind>
                                <strong>{r.kind}</strong>" "{place}{r.message}
                            </li>
                        }
                    })
                    .collect_view()}
                {report
                    .more
                    .into_iter()
                    .map(|(kind, n)| view! { <li data-kind=kind>{format!("… and {n} more {kind}")}</li> })
                    .collect_view()}
            </ol>
        </div>
    }
}
