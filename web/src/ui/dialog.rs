//! The dialogs over the page (help, opening a log, exporting, embedding): one at a time,
//! opened by their button in the toolbar, closed by it again, by their × button, by Esc or by a
//! click beside them.

use crate::state::{Monitor, Overlay};
use leptos::prelude::*;

/// The dialog shown while `which` is the page's overlay, titled `title` (its heading and the
/// name a screen reader gives it).
#[component]
pub fn Dialog(
    which: Overlay,
    id: &'static str,
    title: &'static str,
    children: ChildrenFn,
) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let close = move |_| m.overlay.set(Overlay::None);
    view! {
        <Show when=move || m.overlay.get() == which>
            <div class="overlay" on:click=close>
                <section
                    id=id
                    class="dialog"
                    role="dialog"
                    aria-label=title
                    on:click=|ev| ev.stop_propagation()
                >
                    <button class="close" title="Close (Esc)" aria-label="Close" on:click=close>
                        "×"
                    </button>
                    <h2>{title}</h2>
                    {children()}
                </section>
            </div>
        </Show>
    }
}

/// The toolbar's button that opens (or closes) the dialog `which`.
pub fn overlay_button(
    m: Monitor,
    which: Overlay,
    id: &'static str,
    title: &'static str,
    label: &'static str,
) -> impl IntoView {
    view! {
        <button id=id class="panel-toggle" title=title on:click=move |_| m.toggle_overlay(which)>
            {label}
        </button>
    }
}
