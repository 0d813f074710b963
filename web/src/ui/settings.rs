//! The one settings panel of the page: every option, saved as the user changes it, exported
//! and imported as JSON.

use crate::settings::{self, Settings};
use crate::state::Monitor;
use crate::ui::field_settings::FieldSettingsSection;
use leptos::prelude::*;

#[component]
pub fn SettingsPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let open = RwSignal::new(false);
    let import_error = RwSignal::new(None::<String>);
    let colour = move |label: &'static str,
                       id: &'static str,
                       get: fn(&Settings) -> &String,
                       set: fn(&mut Settings, String)| {
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
    };
    let import = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        match Settings::from_json(&text) {
            Ok(s) => {
                m.settings.set(s);
                import_error.set(None);
            }
            Err(e) => import_error.set(Some(e)),
        }
    };
    view! {
        <button id="settings-toggle" class="panel-toggle" on:click=move |_| open.update(|o| *o = !*o)>
            "⚙ Settings"
        </button>
        <Show when=move || open.get()>
            <section id="settings" class="panel settings">
                <h2>"Settings"</h2>
                <fieldset>
                    <legend>"Team colours"</legend>
                    {colour("left", "colour-left", |s| &s.colours.left, |s, v| s.colours.left = v)}
                    {colour("left goalie", "colour-left-goalie", |s| &s.colours.left_goalie, |s, v| s.colours.left_goalie = v)}
                    {colour("right", "colour-right", |s| &s.colours.right, |s, v| s.colours.right = v)}
                    {colour("right goalie", "colour-right-goalie", |s| &s.colours.right_goalie, |s, v| s.colours.right_goalie = v)}
                </fieldset>
                <FieldSettingsSection/>
                <fieldset>
                    <legend>"As JSON"</legend>
                    <textarea
                        id="settings-json"
                        rows="6"
                        prop:value=move || m.settings.with(Settings::to_json)
                        on:change=import
                    ></textarea>
                    <div class="hint">"Copy to export; paste and leave the box to import."</div>
                    <Show when=move || import_error.get().is_some()>
                        <div class="error">{move || import_error.get().unwrap_or_default()}</div>
                    </Show>
                    <button on:click=move |_| m.settings.set(Settings::default())>"Reset to defaults"</button>
                </fieldset>
            </section>
        </Show>
    }
}

/// Saves the settings whenever they change.
pub fn persist(m: Monitor) {
    Effect::new(move |_| m.settings.with(settings::save));
}
