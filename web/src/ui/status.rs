//! Where the frames come from, loading progress (a line and a bar), and the error banner.

use crate::state::{Mode, Monitor};
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
            <Show when=move || m.skipping.get() && m.mode.get() == Mode::Live>
                <span
                    id="skipping"
                    class="skipping"
                    title="The relay cannot send this page every frame in time, so it sends the newest instead; pause or rewind to get the skipped frames back."
                >
                    "skipping frames to stay live"
                </span>
            </Show>
            <span class="load">
                <Show when=move || m.loading.get()>
                    <progress
                        id="load-progress"
                        max="1"
                        value=move || m.load_fraction.get().map(|f| f.clamp(0.0, 1.0).to_string())
                    ></progress>
                </Show>
                <span id="progress" class="progress">{move || m.progress.get().unwrap_or_default()}</span>
            </span>
        </div>
        {dismissable(m.notice, "notice", "status")}
        {dismissable(m.error, "error", "alert")}
    }
}

/// A line that shows `text` while it is set, until the user dismisses it (`role`: `status`
/// for news, `alert` for what went wrong).
fn dismissable(
    text: RwSignal<Option<String>>,
    id: &'static str,
    role: &'static str,
) -> impl IntoView {
    view! {
        <Show when=move || text.get().is_some()>
            <div id=id class=id role=role>
                <span>{move || text.get().unwrap_or_default()}</span>
                <button class="dismiss" title="Dismiss" on:click=move |_| text.set(None)>"×"</button>
            </div>
        </Show>
    }
}
