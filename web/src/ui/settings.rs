//! The one settings panel of the page: one list of sections, each its own component, every
//! option saved as the user changes it, the whole exported and imported as JSON (a file or the
//! text box).
//!
//! A part of the page with options adds its section struct to [`crate::settings::Settings`]
//! and its section component to the list in [`SettingsPanel`].

use crate::settings::{self, Colours, Settings};
use crate::state::{Monitor, Overlay};
use crate::ui::field_settings::FieldSettingsSection;
use crate::ui::inputs::{checkbox, colour_picker};
use leptos::prelude::*;

/// The button that opens the panel.
#[component]
pub fn SettingsToggle() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <button
            id="settings-toggle"
            class="panel-toggle"
            class:active=move || m.overlay.get() == Overlay::Settings
            on:click=move |_| m.toggle_overlay(Overlay::Settings)
        >
            "⚙ Settings"
        </button>
    }
}

/// The panel, a drawer at the side, so the pitch stays in view while options change.
#[component]
pub fn SettingsPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <Show when=move || m.overlay.get() == Overlay::Settings>
            <section id="settings" class="dialog drawer settings" role="dialog" aria-label="Settings">
                <button class="close" title="Close (Esc)" on:click=move |_| m.overlay.set(Overlay::None)>"×"</button>
                <h2>"Settings"</h2>
                <ColoursSection/>
                <FieldSettingsSection/>
                <crate::ui::time_settings::PlaybackSection/>
                <crate::ui::time_settings::TimelineSection/>
                <CaptionsSection/>
                <JsonSection/>
            </section>
        </Show>
    }
}

/// The broadcast view's captions.
#[component]
fn CaptionsSection() -> impl IntoView {
    use pitchside_analysis::broadcast::captions::Lang;
    let m = expect_context::<Monitor>();
    let options = Lang::ALL
        .into_iter()
        .map(|l| view! { <option value=l.code()>{l.name()}</option> })
        .collect_view();
    view! {
        <fieldset>
            <legend>"Captions (broadcast view)"</legend>
            {checkbox(m, "captions-show", " Show captions", |s| s.captions.show, |s, v| s.captions.show = v)}
            <label class="setting">
                "Language "
                <select id="captions-lang"
                    prop:value=move || m.settings.with(|s| s.captions.lang.clone())
                    on:change=move |ev| m.settings.update(|s| s.captions.lang = event_target_value(&ev))>
                    {options}
                </select>
            </label>
            {checkbox(m, "captions-speak", " Read them aloud", |s| s.captions.speak, |s, v| s.captions.speak = v)}
        </fieldset>
    }
}

#[component]
fn ColoursSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <fieldset>
            <legend>"Team colours"</legend>
            {colour_picker(m, "colour-left", "left", |s| &s.colours.left, |s, v| s.colours.left = v)}
            {colour_picker(m, "colour-left-goalie", "left goalie", |s| &s.colours.left_goalie, |s, v| s.colours.left_goalie = v)}
            {colour_picker(m, "colour-right", "right", |s| &s.colours.right, |s, v| s.colours.right = v)}
            {colour_picker(m, "colour-right-goalie", "right goalie", |s| &s.colours.right_goalie, |s, v| s.colours.right_goalie = v)}
            <button id="colours-default" on:click=move |_| m.settings.update(|s| s.colours = Colours::default())>
                "Default colours"
            </button>
            <button
                id="colours-safe"
                title="Orange and sky blue, goalies yellow and pink: apart for every kind of colour vision"
                on:click=move |_| m.settings.update(|s| s.colours = Colours::colour_blind_safe())
            >
                "Colour-blind safe"
            </button>
        </fieldset>
    }
}

/// The settings as JSON: a box to copy or paste, a file to save or load, and a reset.
#[component]
fn JsonSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let import_error = RwSignal::new(None::<String>);
    let apply = move |text: &str| match Settings::from_json(text) {
        Ok(s) => {
            m.settings.set(s);
            import_error.set(None);
        }
        Err(e) => import_error.set(Some(e)),
    };
    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_file = move |_| {
        let Some(el) = file_input.get() else { return };
        let Some(file) = el.files().and_then(|l| l.get(0)) else {
            return;
        };
        el.set_value("");
        wasm_bindgen_futures::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => apply(&text.as_string().unwrap_or_default()),
                Err(_) => import_error.set(Some("cannot read that file".into())),
            }
        });
    };
    let export = move |_| {
        let json = m.settings.with_untracked(Settings::to_json);
        let parts = js_sys::Array::of1(&json.into());
        let options = web_sys::BlobPropertyBag::new();
        options.set_type("application/json");
        if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) {
            crate::export::download(&blob, "pitchside-settings.json");
        }
    };
    view! {
        <fieldset>
            <legend>"All settings as JSON"</legend>
            <textarea
                id="settings-json"
                aria-label="All settings as JSON"
                aria-describedby="settings-json-hint"
                rows="6"
                prop:value=move || m.settings.with(Settings::to_json)
                on:change=move |ev| apply(&event_target_value(&ev))
            ></textarea>
            <div class="hint" id="settings-json-hint">"Copy to export; paste and leave the box to import."</div>
            <Show when=move || import_error.get().is_some()>
                <div class="error">{move || import_error.get().unwrap_or_default()}</div>
            </Show>
            <button id="settings-export" on:click=export>"Save as file"</button>
            <label class="button">
                "Load from file"
                <input
                    id="settings-import"
                    class="hidden-input"
                    type="file"
                    accept=".json,application/json"
                    node_ref=file_input
                    on:change=on_file
                />
            </label>
            <button id="settings-reset" on:click=move |_| m.settings.set(Settings::default())>"Reset to defaults"</button>
        </fieldset>
    }
}

/// Saves the settings whenever they change.
pub fn persist(m: Monitor) {
    Effect::new(move |_| m.settings.with(settings::save));
}
