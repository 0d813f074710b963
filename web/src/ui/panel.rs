//! What every panel beside the field has: the button over the field that opens and closes it,
//! and the definitions of what it counts.

use crate::settings::Panel;
use crate::state::Monitor;
use leptos::prelude::*;

/// The button that opens and closes `panel`, lit while it is open.
pub fn toggle(
    panel: Panel,
    id: &'static str,
    title: &'static str,
    label: impl IntoView + 'static,
) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let open = move || m.settings.with(|s| s.timeline.is_open(panel));
    view! {
        <button
            id=id
            class="panel-toggle"
            class:active=open
            title=title
            on:click=move |_| m.settings.update(|s| {
                let open = s.timeline.panel(panel);
                *open = !*open;
            })
        >
            {label}
        </button>
    }
}

/// "How these are counted": each term a panel uses, and what it means.
pub fn definitions(terms: &'static [(&'static str, &'static str)]) -> impl IntoView {
    view! {
        <details class="definitions">
            <summary>"How these are counted"</summary>
            <dl>
                {terms
                    .iter()
                    .map(|(term, text)| view! { <dt>{*term}</dt><dd>{*text}</dd> })
                    .collect_view()}
            </dl>
        </details>
    }
}
