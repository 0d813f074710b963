//! Where the frames come from, loading progress, and the error banner.

use crate::state::Monitor;
use leptos::prelude::*;

#[component]
pub fn Status() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <div class="status">
            <span
                id="source"
                class="source"
                class:live=move || m.source.get().starts_with("Live")
            >
                {move || m.source.get()}
            </span>
            <span id="progress" class="progress">{move || m.progress.get().unwrap_or_default()}</span>
        </div>
        <Show when=move || m.error.get().is_some()>
            <div id="error" class="error" role="alert">
                <span>{move || m.error.get().unwrap_or_default()}</span>
                <button class="dismiss" on:click=move |_| m.error.set(None)>"×"</button>
            </div>
        </Show>
    }
}
