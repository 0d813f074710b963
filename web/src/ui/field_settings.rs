//! The field's section of the settings panel: overlays, smooth motion, the ball's colour, and
//! the legend of the rings that mark player state bits.

use crate::scene::style::{Dash, HIGHLIGHTS};
use crate::settings::{Camera3d, Cones, FieldSettings, Picture, Settings, Trails};
use crate::state::Monitor;
use crate::ui::inputs::{checkbox, choice, colour_picker, Choices};
use leptos::prelude::*;

/// The field's switches: the checkbox's id, its words, the setting.
type Switch = (
    &'static str,
    &'static str,
    fn(&Settings) -> bool,
    fn(&mut Settings, bool),
);

const OVERLAYS: [Switch; 13] = [
    (
        "set-interpolate",
        "smooth motion",
        |s| s.field.interpolate,
        |s, v| s.field.interpolate = v,
    ),
    (
        "set-highlights",
        "state rings",
        |s| s.field.highlights,
        |s, v| s.field.highlights = v,
    ),
    (
        "set-stamina",
        "stamina bars",
        |s| s.field.stamina,
        |s, v| s.field.stamina = v,
    ),
    (
        "set-stamina-details",
        "effort / recovery / capacity",
        |s| s.field.stamina_details,
        |s, v| s.field.stamina_details = v,
    ),
    (
        "set-player-types",
        "player types",
        |s| s.field.player_types,
        |s, v| s.field.player_types = v,
    ),
    (
        "set-intentions",
        "pointto, focus, attentionto",
        |s| s.field.intentions,
        |s, v| s.field.intentions = v,
    ),
    (
        "set-areas",
        "selected player's areas",
        |s| s.field.areas,
        |s, v| s.field.areas = v,
    ),
    (
        "set-ball-velocity",
        "ball velocity",
        |s| s.field.ball_velocity,
        |s, v| s.field.ball_velocity = v,
    ),
    (
        "set-ball-path",
        "ball path",
        |s| s.field.ball_path,
        |s, v| s.field.ball_path = v,
    ),
    (
        "set-offside",
        "offside lines",
        |s| s.field.offside_lines,
        |s, v| s.field.offside_lines = v,
    ),
    (
        "set-flags",
        "flags",
        |s| s.field.flags,
        |s, v| s.field.flags = v,
    ),
    (
        "set-grid",
        "grid",
        |s| s.field.grid,
        |s, v| s.field.grid = v,
    ),
    (
        "set-server-drawings",
        "drawings sent by the server",
        |s| s.field.server_drawings,
        |s, v| s.field.server_drawings = v,
    ),
];

const CONES: Choices<Cones> = &[
    ("off", "none", Cones::Off),
    ("selected", "selected player", Cones::Selected),
    ("all", "everyone", Cones::All),
];

const PICTURES: Choices<Picture> = &[
    ("2d", "2D field", Picture::Flat),
    ("3d", "3D", Picture::ThreeD),
];

const CAMERAS: Choices<Camera3d> = &[
    ("broadcast", "broadcast", Camera3d::Broadcast),
    ("top", "top-down", Camera3d::Top),
    ("goal", "behind the goal", Camera3d::Goal),
    ("follow", "follow the selected player", Camera3d::Follow),
    ("free", "free (drag, wheel, arrow keys)", Camera3d::Free),
];

const TRAILS: Choices<Trails> = &[
    ("off", "none", Trails::Off),
    ("ball", "ball", Trails::Ball),
    ("all", "ball and players", Trails::All),
];

#[component]
pub fn FieldSettingsSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <fieldset id="field-settings">
            <legend>"Field"</legend>
            {choice(m, "set-picture", "picture", PICTURES, |s| s.field.picture, |s, v| s.field.picture = v)}
            {choice(m, "set-camera3d", "3D camera", CAMERAS, |s| s.field.camera3d, |s, v| s.field.camera3d = v)}
            {OVERLAYS
                .iter()
                .map(|&(id, label, get, set)| checkbox(m, id, label, get, set))
                .collect_view()}
            {choice(m, "set-cones", "view cones", CONES, |s| s.field.view_cones, |s, v| s.field.view_cones = v)}
            {choice(m, "set-trails", "trails", TRAILS, |s| s.field.trails, |s, v| s.field.trails = v)}
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
            {colour_picker(m, "colour-ball", "ball", |s| &s.field.ball_colour, |s, v| s.field.ball_colour = v)}
            <button on:click=move |_| m.settings.update(|s| {
                s.field = FieldSettings {
                    picture: s.field.picture,
                    camera3d: s.field.camera3d,
                    ..FieldSettings::everything()
                }
            })>
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
