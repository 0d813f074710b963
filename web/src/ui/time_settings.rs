//! The settings sections of time control: speed and autoplay; the timeline's markers and the
//! event and statistics panels.

use crate::state::Monitor;
use crate::timeline::{speed_label, SPEEDS};
use crate::ui::events::KINDS;
use crate::ui::inputs::checkbox;
use leptos::prelude::*;

#[component]
pub fn PlaybackSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <fieldset>
            <legend>"Playback"</legend>
            <label class="setting">
                "speed "
                <select
                    id="setting-speed"
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                            m.settings.update(|s| s.playback.speed = v);
                        }
                    }
                >
                    {SPEEDS
                        .iter()
                        .map(|&s| view! {
                            <option value=s.to_string() selected=move || m.settings.with(|st| st.playback.speed == s)>
                                {speed_label(s)}
                            </option>
                        })
                        .collect_view()}
                </select>
            </label>
            {checkbox(m, "setting-autoplay", "play a log as soon as it opens", |s| s.playback.autoplay, |s, v| s.playback.autoplay = v)}
        </fieldset>
    }
}

#[component]
pub fn TimelineSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <fieldset>
            <legend>"Timeline and panels"</legend>
            {checkbox(m, "setting-markers", "event markers on the timeline", |s| s.timeline.markers, |s, v| s.timeline.markers = v)}
            {checkbox(m, "setting-events-panel", "list of events", |s| s.timeline.events_panel, |s, v| s.timeline.events_panel = v)}
            {checkbox(m, "setting-stats-panel", "match statistics", |s| s.timeline.stats_panel, |s, v| s.timeline.stats_panel = v)}
        </fieldset>
        <fieldset id="event-kinds">
            <legend>"Events shown (list, timeline, N)"</legend>
            {KINDS
                .iter()
                .map(|&(id, label)| view! {
                    <label class="setting">
                        <input
                            type="checkbox"
                            data-kind=id
                            prop:checked=move || m.settings.with(|s| !s.timeline.hidden_kinds.iter().any(|k| k == id))
                            on:change=move |ev| {
                                let on = event_input(&ev).is_some_and(|i| i.checked());
                                m.settings.update(|s| {
                                    s.timeline.hidden_kinds.retain(|k| k != id);
                                    if !on {
                                        s.timeline.hidden_kinds.push(id.to_owned());
                                    }
                                });
                            }
                        />
                        <span class=format!("event {id}")><span class="swatch"></span></span>
                        {label}
                    </label>
                })
                .collect_view()}
        </fieldset>
    }
}

/// The `<input>` of a change event, if it is one.
fn event_input(ev: &leptos::ev::Event) -> Option<web_sys::HtmlInputElement> {
    use wasm_bindgen::JsCast;
    ev.target()?.dyn_into().ok()
}
