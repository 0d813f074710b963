//! Small form controls several panels share, most bound to one of the page's settings.

use crate::settings::Settings;
use crate::state::Monitor;
use leptos::prelude::*;

/// A checkbox bound to one boolean setting.
pub fn checkbox(
    m: Monitor,
    id: &'static str,
    label: &'static str,
    get: fn(&Settings) -> bool,
    set: fn(&mut Settings, bool),
) -> impl IntoView {
    view! {
        <label class="setting">
            <input
                type="checkbox"
                id=id
                prop:checked=move || m.settings.with(get)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    m.settings.update(|s| set(s, on));
                }
            />
            {label}
        </label>
    }
}

/// A colour picker bound to one colour setting (`#rrggbb`).
pub fn colour_picker(
    m: Monitor,
    id: &'static str,
    label: &'static str,
    get: fn(&Settings) -> &String,
    set: fn(&mut Settings, String),
) -> impl IntoView {
    view! {
        <label class="setting">
            <input
                type="color"
                id=id
                prop:value=move || m.settings.with(|s| get(s).clone())
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    m.settings.update(|s| set(s, v));
                }
            />
            {label}
        </label>
    }
}

/// The choices of a drop-down: the value the page keeps, the words shown, the setting.
pub type Choices<T> = &'static [(&'static str, &'static str, T)];

/// A drop-down bound to one setting with a few values.
pub fn choice<T: Copy + PartialEq + Send + Sync + 'static>(
    m: Monitor,
    id: &'static str,
    label: &'static str,
    choices: Choices<T>,
    get: fn(&Settings) -> T,
    set: fn(&mut Settings, T),
) -> impl IntoView {
    view! {
        <label class="setting">
            {label}
            <select
                id=id
                prop:value=move || {
                    let now = m.settings.with(get);
                    choices.iter().find(|c| c.2 == now).map_or("", |c| c.0)
                }
                on:change=move |ev| {
                    let picked = event_target_value(&ev);
                    if let Some(&(_, _, v)) = choices.iter().find(|c| c.0 == picked) {
                        m.settings.update(|s| set(s, v));
                    }
                }
            >
                {choices
                    .iter()
                    .map(|&(value, words, _)| view! { <option value=value>{words}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}

/// A box for a cycle number, labelled, kept in `value` as typed (the panel reads it when it
/// acts, and says then what is wrong with it).
pub fn cycle_box(label: &'static str, id: &'static str, value: RwSignal<String>) -> impl IntoView {
    view! {
        <label class="setting">
            {label}
            <input
                id=id
                type="text"
                inputmode="numeric"
                size="5"
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
        </label>
    }
}
