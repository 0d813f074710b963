//! The field's section of the settings panel: overlays, smooth motion, the ball's colour, and
//! the legend of the rings that mark player state bits.

use crate::scene::style::{Dash, HIGHLIGHTS};
use crate::settings::{Cones, FieldSettings, Trails};
use crate::state::Monitor;
use leptos::prelude::*;

#[component]
pub fn FieldSettingsSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let check = move |label: &'static str,
                      id: &'static str,
                      get: fn(&FieldSettings) -> bool,
                      set: fn(&mut FieldSettings, bool)| {
        view! {
            <label class="setting">
                <input
                    type="checkbox"
                    id=id
                    prop:checked=move || m.settings.with(|s| get(&s.field))
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        m.settings.update(|s| set(&mut s.field, on));
                    }
                />
                {label}
            </label>
        }
    };
    view! {
        <fieldset id="field-settings">
            <legend>"Field"</legend>
            {check("smooth motion", "set-interpolate", |f| f.interpolate, |f, v| f.interpolate = v)}
            {check("state rings", "set-highlights", |f| f.highlights, |f, v| f.highlights = v)}
            {check("stamina bars", "set-stamina", |f| f.stamina, |f, v| f.stamina = v)}
            {check("effort / recovery / capacity", "set-stamina-details", |f| f.stamina_details, |f, v| f.stamina_details = v)}
            {check("player types", "set-player-types", |f| f.player_types, |f, v| f.player_types = v)}
            {check("pointto, focus, attentionto", "set-intentions", |f| f.intentions, |f, v| f.intentions = v)}
            {check("selected player's areas", "set-areas", |f| f.areas, |f, v| f.areas = v)}
            {check("ball velocity", "set-ball-velocity", |f| f.ball_velocity, |f, v| f.ball_velocity = v)}
            {check("ball path", "set-ball-path", |f| f.ball_path, |f, v| f.ball_path = v)}
            {check("offside lines", "set-offside", |f| f.offside_lines, |f, v| f.offside_lines = v)}
            {check("flags", "set-flags", |f| f.flags, |f, v| f.flags = v)}
            {check("grid", "set-grid", |f| f.grid, |f, v| f.grid = v)}
            {check("drawings sent by the server", "set-server-drawings", |f| f.server_drawings, |f, v| f.server_drawings = v)}
            <label class="setting">
                "view cones"
                <select
                    id="set-cones"
                    prop:value=move || m.settings.with(|s| match s.field.view_cones {
                        Cones::Off => "off",
                        Cones::Selected => "selected",
                        Cones::All => "all",
                    })
                    on:change=move |ev| {
                        let v = match event_target_value(&ev).as_str() {
                            "off" => Cones::Off,
                            "all" => Cones::All,
                            _ => Cones::Selected,
                        };
                        m.settings.update(|s| s.field.view_cones = v);
                    }
                >
                    <option value="off">"none"</option>
                    <option value="selected">"selected player"</option>
                    <option value="all">"everyone"</option>
                </select>
            </label>
            <label class="setting">
                "trails"
                <select
                    id="set-trails"
                    prop:value=move || m.settings.with(|s| match s.field.trails {
                        Trails::Off => "off",
                        Trails::Ball => "ball",
                        Trails::All => "all",
                    })
                    on:change=move |ev| {
                        let v = match event_target_value(&ev).as_str() {
                            "ball" => Trails::Ball,
                            "all" => Trails::All,
                            _ => Trails::Off,
                        };
                        m.settings.update(|s| s.field.trails = v);
                    }
                >
                    <option value="off">"none"</option>
                    <option value="ball">"ball"</option>
                    <option value="all">"ball and players"</option>
                </select>
            </label>
            <label class="setting">
                <input
                    type="number"
                    id="set-trail-cycles"
                    min="1"
                    max="200"
                    prop:value=move || m.settings.with(|s| s.field.trail_cycles.to_string())
                    on:change=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                            m.settings.update(|s| s.field.trail_cycles = n.clamp(1, 200));
                        }
                    }
                />
                "cycles of trail"
            </label>
            <label class="setting">
                <input
                    type="color"
                    id="colour-ball"
                    prop:value=move || m.settings.with(|s| s.field.ball_colour.clone())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        m.settings.update(|s| s.field.ball_colour = v);
                    }
                />
                "ball"
            </label>
            <button on:click=move |_| m.settings.update(|s| s.field = FieldSettings::everything())>
                "Show everything"
            </button>
        </fieldset>
        <fieldset class="legend">
            <legend>"Rings round a player"</legend>
            {HIGHLIGHTS
                .iter()
                .map(|h| {
                    let style = format!(
                        "border-color:{};border-style:{}",
                        h.colour.css(),
                        match h.dash {
                            Dash::Solid => "solid",
                            Dash::Dashed => "dashed",
                            Dash::Dotted => "dotted",
                        }
                    );
                    view! {
                        <span class="ring-key" title=h.name>
                            <span class="ring" style=style></span>
                            {h.meaning}
                        </span>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}
