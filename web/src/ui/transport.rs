//! Moving through the match: the seek slider (in cycles), play and pause both ways, steps of one
//! frame and of 100 cycles, first and last, the speed presets, the cycle box, the live badge
//! with "back to live", and the copy-link button.

use crate::link;
use crate::settings::Settings;
use crate::source::live;
use crate::state::{Mode, Monitor};
use crate::timeline::{speed_at, speed_label, Direction, SPEEDS};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Moves the speed `by` presets (clamped), remembering it in the settings.
pub fn change_speed(m: Monitor, by: i64) {
    m.settings.update(|s| {
        let i = (s.playback.preset() as i64 + by).clamp(0, SPEEDS.len() as i64 - 1) as usize;
        s.playback.speed = speed_at(i);
    });
}

/// Puts the cursor in the cycle box, its number selected so typing replaces it.
pub fn focus_cycle_box() {
    if let Some(input) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("cycle-box"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
    {
        let _ = input.focus();
        input.select();
    }
}

thread_local! {
    /// Reference-counted rather than owned by a component, so no view's cleanup disposes it.
    static COPIED: ArcRwSignal<Option<(bool, String)>> = ArcRwSignal::new(None);
}

/// The link last copied (and whether the clipboard took it), shown for a moment.
fn copied() -> ArcRwSignal<Option<(bool, String)>> {
    COPIED.with(Clone::clone)
}

/// Copies the link to what is on screen (never with the operator's key).
pub fn copy_link(m: Monitor) {
    let url = link::shareable_url(m);
    let shown = url.clone();
    // Shown at once, so the link can be copied by hand if the clipboard refuses.
    copied().set(Some((false, url.clone())));
    wasm_bindgen_futures::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(crate::export::copy_text(&url))
            .await
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        let note = (ok, shown);
        copied().set(Some(note.clone()));
        set_timeout(
            move || {
                if copied().get_untracked().as_ref() == Some(&note) {
                    copied().set(None);
                }
            },
            std::time::Duration::from_secs(6),
        );
    });
}

#[component]
pub fn Transport() -> impl IntoView {
    let m = expect_context::<Monitor>();
    // Cycles of the match so far, re-read when frames arrive.
    let range = Memo::new(move |_| {
        m.count.track();
        m.revision.track();
        m.cycles
            .with_value(|ix| (ix.first_cycle().unwrap_or(0), ix.last_cycle().unwrap_or(0)))
    });
    let cycle = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        m.cycles.with_value(|ix| ix.cycle_of(i)).unwrap_or(0)
    });
    let speed_index = Memo::new(move |_| m.settings.with(|s| s.playback.preset()));
    let is_live = move || m.mode.get() == Mode::Live;
    let moving = move |dir: Direction| {
        m.playing.get() && m.direction.get() == dir
            || (dir == Direction::Forward && is_live() && m.follow.get())
    };
    let play_label = move || {
        if moving(Direction::Forward) {
            "❚❚"
        } else {
            "▶"
        }
    };
    let play_title = move || {
        if moving(Direction::Forward) {
            "Pause (Space)"
        } else {
            "Play (Space)"
        }
    };
    let back_label = move || {
        if moving(Direction::Backward) {
            "❚❚"
        } else {
            "◀"
        }
    };
    let toggle_backward = move |_| {
        if m.playing.get_untracked() && m.direction.get_untracked() == Direction::Backward {
            m.pause();
        } else {
            m.pause();
            m.play(Direction::Backward);
        }
    };
    let toggle_forward = move |_| {
        if moving(Direction::Forward) {
            m.pause();
        } else {
            m.play(Direction::Forward);
        }
    };
    // The cycle box shows the cycle on screen until the user types in it.
    let editing = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    let jump = move || {
        let text = typed.get_untracked();
        if let Ok(c) = text.trim().parse::<u32>() {
            m.seek_cycle(c);
        }
        editing.set(false);
    };
    let behind = move || {
        let newest = range.get().1;
        newest.saturating_sub(cycle.get())
    };

    view! {
        <div class="timeline" id="timeline">
            <input
                id="seek"
                type="range"
                aria-label="cycle"
                min=move || range.get().0.to_string()
                max=move || range.get().1.to_string()
                prop:value=move || cycle.get().to_string()
                on:input=move |ev| {
                    if let Ok(c) = event_target_value(&ev).parse::<u32>() {
                        m.seek_cycle(c);
                    }
                }
            />
            <crate::ui::markers::Markers range=range/>
        </div>
        <div class="controls" id="transport">
            <div class="buttons">
                <button id="first" class="icon" title="First frame (Home)" aria-label="First frame" on:click=move |_| m.seek(0)>
                    <svg viewBox="0 0 16 16" width="14" height="14"><rect x="2" y="3" width="2" height="10" fill="currentColor"/><path d="M14 3v10L5 8z" fill="currentColor"/></svg>
                </button>
                <button id="back-100" title="100 cycles back (Shift+←)" aria-label="100 cycles back" on:click=move |_| m.jump_cycles(-100)>"−100"</button>
                <button id="back-1" title="One step back (←)" aria-label="1 step back" on:click=move |_| m.step(-1)>"−1"</button>
                <button id="play-back" title="Play backward (R)" aria-label="Play backward" aria-pressed=move || moving(Direction::Backward).to_string() class:active=move || moving(Direction::Backward) on:click=toggle_backward>
                    {back_label}
                </button>
                <button id="play" class="primary" title=play_title aria-label=move || if moving(Direction::Forward) { "Pause" } else { "Play" } class:active=move || moving(Direction::Forward) on:click=toggle_forward>
                    {play_label}
                </button>
                <button id="fwd-1" title="One step forward (→)" aria-label="1 step forward" on:click=move |_| m.step(1)>"+1"</button>
                <button id="fwd-100" title="100 cycles forward (Shift+→)" aria-label="100 cycles forward" on:click=move |_| m.jump_cycles(100)>"+100"</button>
                <button id="last" class="icon" title="Last frame (End)" aria-label="Last frame" on:click=move |_| m.go_last()>
                    <svg viewBox="0 0 16 16" width="14" height="14"><path d="M2 3v10l9-5z" fill="currentColor"/><rect x="12" y="3" width="2" height="10" fill="currentColor"/></svg>
                </button>
            </div>
            <div class="speeds" role="group" aria-label="speed" title="Speed ([ slower, ] faster)">
                {SPEEDS
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| {
                        view! {
                            <button
                                class="speed"
                                data-speed=s.to_string()
                                class:active=move || speed_index.get() == i
                                aria-pressed=move || (speed_index.get() == i).to_string()
                                aria-label=format!("speed {}", speed_label(s))
                                on:click=move |_| m.settings.update(|st: &mut Settings| st.playback.speed = s)
                            >
                                {speed_label(s)}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <span id="speed" class="readout" title="playback speed">
                {move || {
                    let dir = if m.direction.get() == Direction::Backward { "◀ " } else { "" };
                    format!("{dir}{}", speed_label(speed_at(speed_index.get())))
                }}
            </span>
            <label class="cycle-box" title="Go to a cycle: type it, then Enter (T)">
                "cycle "
                <input
                    id="cycle-box"
                    type="text"
                    inputmode="numeric"
                    size="5"
                    autocomplete="off"
                    prop:value=move || {
                        if editing.get() { typed.get() } else { cycle.get().to_string() }
                    }
                    on:focus=move |ev: web_sys::FocusEvent| {
                        typed.set(cycle.get_untracked().to_string());
                        editing.set(true);
                        // Typing replaces the number shown.
                        if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            i.select();
                        }
                    }
                    // A click's mouseup would undo the selection made on focus.
                    on:mouseup=|ev: web_sys::MouseEvent| ev.prevent_default()
                    on:input=move |ev| typed.set(event_target_value(&ev))
                    on:blur=move |_| editing.set(false)
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        match ev.key().as_str() {
                            "Enter" => {
                                ev.prevent_default();
                                jump();
                                if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                                    let _ = t.blur();
                                }
                            }
                            "Escape" => {
                                editing.set(false);
                                if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                                    let _ = t.blur();
                                }
                            }
                            _ => {}
                        }
                    }
                />
                <span class="of">{move || format!("/ {}", range.get().1)}</span>
            </label>
            <span class="frames" id="frames" title="frame on screen / frames read">
                {move || format!("{} / {}", (m.index.get() + 1).min(m.count.get()), m.count.get())}
            </span>
            <Show when=is_live>
                <span
                    id="live-badge"
                    class="live-badge"
                    class:behind=move || !m.follow.get()
                    title=move || if m.follow.get() { "following the live match" } else { "behind the live match" }
                >
                    {move || {
                        if m.follow.get() {
                            "LIVE".to_owned()
                        } else if let Some(c) = m.pending_cycle.get() {
                            format!("LIVE · waiting for cycle {c}")
                        } else {
                            format!("LIVE −{}", behind())
                        }
                    }}
                </span>
            </Show>
            <Show when=move || m.mode.get() == Mode::File || !m.follow.get()>
                <button
                    id="back-live"
                    title="Follow the relay's live feed (End)"
                    on:click=move |_| {
                        if m.mode.get_untracked() == Mode::File {
                            live::resume(m);
                        } else {
                            m.go_last();
                        }
                    }
                >
                    "Back to live"
                </button>
            </Show>
        </div>
    }
}

/// The copy-link button, and the link it copied for a moment below it.
#[component]
pub fn CopyLink() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <button id="copy-link" class="panel-toggle" title="Copy a link to this moment (L)" on:click=move |_| copy_link(m)>
            "Copy link"
        </button>
        <Show when=move || copied().get().is_some()>
            <div class="copied" id="copied" role="status">
                {move || if copied().get().is_some_and(|c| c.0) { "Link copied: " } else { "Copy this link: " }}
                <a id="copied-link" href=move || copied().get().map(|c| c.1).unwrap_or_default()>
                    {move || copied().get().map(|c| c.1).unwrap_or_default()}
                </a>
            </div>
        </Show>
    }
}
