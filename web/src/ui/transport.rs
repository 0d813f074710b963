//! Moving through the match: play/pause, the seek slider, opening a file, back to live.

use crate::source::{file, live};
use crate::state::{Mode, Monitor};
use leptos::prelude::*;

#[component]
pub fn Transport() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_file_chosen = move |_| {
        if let Some(input) = file_input.get() {
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                file::open(m, f);
            }
            input.set_value("");
        }
    };
    let play_label = move || match (m.mode.get(), m.playing.get(), m.follow.get()) {
        (Mode::Live, _, true) => "❚❚ Pause",
        (Mode::Live, _, false) => "● Live",
        (Mode::File, true, _) => "❚❚ Pause",
        (Mode::File, false, _) => "▶ Play",
    };
    view! {
        <div class="controls">
            <button id="play" on:click=move |_| m.toggle_play()>{play_label}</button>
            <input
                id="seek"
                type="range"
                min="0"
                max=move || m.count.get().saturating_sub(1).to_string()
                prop:value=move || m.index.get().to_string()
                on:input=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        m.seek(i);
                    }
                }
            />
            <span class="frames" id="frames">
                {move || format!("{} / {}", (m.index.get() + 1).min(m.count.get()), m.count.get())}
            </span>
            <label class="open">
                "Open log…"
                <input
                    id="file-input"
                    type="file"
                    accept=".rcg,.gz,.rcg.gz,.json"
                    node_ref=file_input
                    on:change=on_file_chosen
                />
            </label>
            <Show when=move || m.mode.get() == Mode::File>
                <button id="back-live" on:click=move |_| live::resume(m)>"Back to live"</button>
            </Show>
        </div>
    }
}
