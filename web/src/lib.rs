//! The pitchside monitor in the browser.
//!
//! Data flows one way: a source turns bytes into the library's records, the records go into
//! the page's match, and the views draw the match at the cursor.
//!
//! Layout:
//! - [`source`]: the relay's live feed and opened files, the only ways records come in.
//! - [`state`]: the page's state ([`state::Monitor`]): the match, the cursor, playback.
//! - [`playback`]: the clock that plays an opened file.
//! - [`keys`]: the keyboard shortcuts, one table.
//! - [`settings`]: the user's settings, saved in the browser.
//! - [`field`]: pitch geometry and the field-to-canvas conversion.
//! - [`paint`]: painting a frame on the canvas.
//! - [`ui`]: one component per panel (score bar, status, canvas, transport, settings), and
//!   the lobby.
//! - this file: [`Root`], which shows the lobby at `/` when the relay has several matches and
//!   the monitor otherwise, and the [`App`] component, which lays the monitor's panels out.

pub mod field;
pub mod keys;
pub mod paint;
pub mod playback;
pub mod settings;
pub mod source;
pub mod state;
pub mod ui;

use leptos::prelude::*;
use state::Monitor;
use ui::canvas::FieldCanvas;
use ui::scorebar::ScoreBar;
use ui::settings::SettingsPanel;
use ui::status::Status;
use ui::transport::Transport;

/// The lobby or the monitor. At `/` the relay is asked for its matches first: with several,
/// or none yet (an edge relay that has not heard of a match), the lobby; with one (or an old
/// relay that cannot say), that match. `/m/NAME` is always the
/// monitor of that match.
#[component]
pub fn Root() -> impl IntoView {
    // None: still asking the relay; Some(None): the monitor; Some(Some(cards)): the lobby.
    let choice = RwSignal::new(None::<Option<Vec<ui::lobby::Card>>>);
    if source::live::match_name().is_some() {
        choice.set(Some(None));
    } else {
        leptos::task::spawn_local(async move {
            let cards = ui::lobby::fetch_matches().await;
            choice.set(Some(cards.filter(|c| c.len() != 1)));
        });
    }
    move || match choice.get() {
        None => ().into_any(),
        Some(None) => view! { <App/> }.into_any(),
        Some(Some(cards)) => view! { <ui::lobby::Lobby cards/> }.into_any(),
    }
}

#[component]
pub fn App() -> impl IntoView {
    let m = Monitor::new();
    provide_context(m);
    source::live::connect(m);
    source::file::prepare();
    playback::start(m);
    keys::listen(m);
    ui::settings::persist(m);

    let dragging = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let file = ev
            .data_transfer()
            .and_then(|dt| dt.files())
            .and_then(|l| l.get(0));
        match file {
            Some(f) => source::file::open(m, f),
            None => m
                .error
                .set(Some("Nothing to open: drop a .rcg or .rcg.gz file.".into())),
        }
    };

    view! {
        <div
            class="app"
            class:dragging=move || dragging.get()
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <ScoreBar/>
            <Status/>
            <FieldCanvas/>
            <Transport/>
            <div class="panels">
                <SettingsPanel/>
            </div>
            <span
                id="timings"
                hidden
                data-first-frame-ms=move || m.timings.get().map(|t| format!("{:.1}", t.first_frame_ms)).unwrap_or_default()
                data-all-frames-ms=move || m.timings.get().and_then(|t| t.all_frames_ms).map(|t| format!("{t:.1}")).unwrap_or_default()
                data-decode-ms=move || m.timings.get().map(|t| format!("{:.1}", t.decode_ms)).unwrap_or_default()
                data-wait-ms=move || m.timings.get().map(|t| format!("{:.1}", t.wait_ms)).unwrap_or_default()
            ></span>
            <p class="hint">
                "Drop a .rcg or .rcg.gz logfile anywhere on the page to replay it. "
                {keys::SHORTCUTS.iter().map(|s| format!("{}: {}. ", s.label, s.help)).collect::<String>()}
            </p>
        </div>
    }
}
