//! The runs page (`/runs`): the runs of games the relay may start (`--run`), where each is,
//! and, for the operator who opened the link the relay printed, buttons to start, pause and
//! stop them. It reads `/api/runs` (`pitchside.runs.v1`, book "HTTP and wire") every few
//! seconds; spectators see the same list without the buttons. The page names a run and an
//! action, nothing more: what is played is what the relay was started with.

use crate::operator as op;
use leptos::prelude::*;
use pitchside_wire::runs::{Action, Phase, RunEntry, Runs};

/// How often the page asks again.
const ASK_EVERY_MS: i32 = 2000;

/// True at `/runs`.
pub fn is_runs_page() -> bool {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .is_some_and(|p| p.trim_end_matches('/') == "/runs")
}

/// The operator's key, from the address (the link the relay printed) or from this tab's
/// storage, where the match page keeps it too.
fn token() -> Option<String> {
    let storage = || web_sys::window()?.session_storage().ok()?;
    let from_address = crate::link::control_key().filter(|k| !k.is_empty());
    if let (Some(t), Some(s)) = (&from_address, storage()) {
        let _ = s.set_item(op::STORAGE_KEY, t);
    }
    from_address.or_else(|| storage()?.get_item(op::STORAGE_KEY).ok()?)
}

/// A phase in words.
fn phase_words(p: Phase) -> &'static str {
    match p {
        Phase::Idle => "Not started",
        Phase::Running => "Playing",
        Phase::Pausing => "Pausing once the games under way are over",
        Phase::Stopping => "Stopping",
        Phase::Over => "Over: every game played",
        Phase::Paused => "Paused: start to go on",
        Phase::Stopped => "Stopped: start to go on",
        Phase::Invalid => "Ended with games that went wrong",
        Phase::Failed => "Could not run",
    }
}

#[component]
pub fn RunsPage() -> impl IntoView {
    let runs = RwSignal::new(None::<Result<Runs, String>>);
    let again = RwSignal::new(0u32);
    let said = RwSignal::new(None::<String>);
    let token = StoredValue::new(token());
    Effect::new(move |_| {
        again.track();
        leptos::task::spawn_local(async move {
            let got = crate::api::get_json::<Runs>("/api/runs").await;
            if runs.try_set(Some(got)).is_none() {
                crate::api::ask_again_in(ASK_EVERY_MS, again);
            }
        });
    });
    let act = move |name: String, action: Action| {
        let Some(key) = token.get_value() else { return };
        leptos::task::spawn_local(async move {
            let url = format!("/api/runs/{name}/{}", action.word());
            let answer = crate::api::send("POST", &url, &key, None).await;
            let text = match answer {
                Some((200, _)) => format!("{name}: asked to {}.", action.word()),
                Some((401, _)) => "The relay did not take this operator link: open the link it printed at its last start.".to_owned(),
                Some((_, body)) => {
                    let why = serde_json::from_str::<serde_json::Value>(&body)
                        .ok()
                        .and_then(|v| v["error"].as_str().map(str::to_owned))
                        .unwrap_or(body);
                    format!("{name}: not done: {why}.")
                }
                None => "The relay did not answer.".to_owned(),
            };
            let _ = said.try_set(Some(text));
            let _ = again.try_update(|n| *n = n.wrapping_add(1));
        });
    };
    let operator = token.with_value(Option::is_some);
    view! {
        <main class="lobby archive runs">
            <h1>"Runs of games"</h1>
            <p class="lobby-empty"><a href="/">"Live matches"</a> " · " <a href="/archive">"Archive"</a></p>
            <p class="hint">
                {if operator {
                    "The runs this relay was started with. Start, pause and stop them here; each plays into its own folder."
                } else {
                    "The runs this relay was started with. Only the operator, with the link the relay printed, can start or stop them."
                }}
            </p>
            <p id="runs-said" class="hint" role="status" aria-live="polite">{move || said.get()}</p>
            {move || match runs.get() {
                None => view! { <p>"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" role="alert">{format!("Cannot read the runs: {e}.")}</p> }.into_any(),
                Some(Ok(doc)) if doc.runs.is_empty() => view! {
                    <p class="lobby-empty">"This relay was started with no run (--run FILE)."</p>
                }.into_any(),
                Some(Ok(doc)) => doc
                    .runs
                    .into_iter()
                    .map(|r| run_card(r, operator, act))
                    .collect_view()
                    .into_any(),
            }}
        </main>
    }
}

fn run_card(
    r: RunEntry,
    operator: bool,
    act: impl Fn(String, Action) + Copy + Send + 'static,
) -> impl IntoView {
    let RunEntry {
        name,
        phase,
        said,
        series,
        progress,
    } = r;
    let button = |action: Action, label: &'static str, enabled: bool| {
        let name = name.clone();
        view! {
            <button
                class=format!("run-{}", action.word())
                disabled=!enabled
                on:click=move |_| act(name.clone(), action)
            >{label}</button>
        }
    };
    let buttons = operator.then(|| {
        view! {
            <div class="run-actions" role="group" aria-label=format!("{name}: start, pause or stop")>
                {button(Action::Start, "Start", !phase.active())}
                {button(Action::Pause, "Pause", phase == Phase::Running)}
                {button(Action::Stop, "Stop", matches!(phase, Phase::Running | Phase::Pausing))}
            </div>
        }
    });
    let progress = progress.map(|p| super::series::run_view(p, format!("run-progress-{name}")));
    view! {
        <section class="run" id=format!("run-{name}") aria-label=format!("Run {name}")>
            <h2>{name.clone()}</h2>
            <p class="run-phase"><strong>{phase_words(phase)}</strong></p>
            {buttons}
            {progress}
            {said.map(|s| view! { <p class="hint run-said">{format!("Last said: {s}")}</p> })}
            {series.map(|href| view! { <p><a href=href>"The games so far, as a series"</a></p> })}
        </section>
    }
}
