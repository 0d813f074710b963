//! The pitchside monitor in the browser.
//!
//! Data flows one way: a source turns bytes into the library's records, the records go into
//! the page's match, and the views draw the match at the cursor.
//!
//! Layout:
//! - [`source`]: the relay's live feed and opened files, the only ways records come in.
//! - [`state`]: the page's state ([`state::Monitor`]): the match, the cursor, playback.
//! - [`timeline`]: cycles versus frames, speed presets, the playback clock (pure).
//! - [`playback`]: the clock that plays a match, both ways, at any speed.
//! - [`api`]: the relay's JSON endpoints fetched, and asked again.
//! - [`link`]: the address (`?log=`, `#t=`) kept in step with the page, and copied links.
//! - [`export`]: PNG of the frame, WebM clips of a range of cycles.
//! - [`save_as`]: the log on screen rewritten by the shared log tools (version, sides, names,
//!   cycles) and downloaded, or validated.
//! - [`pwa`]: the service worker that lets the page open logs offline.
//! - [`keys`]: the keyboard shortcuts, one table.
//! - [`settings`]: the user's settings, saved in the browser.
//! - [`field`]: pitch geometry and the field-to-canvas conversion.
//! - [`scene`]: what the field shows, as shapes in field coordinates (pure, tested natively).
//! - [`paint`]: putting a scene on the canvas.
//! - [`ui`]: one component per panel (score bar, status, canvas, transport and timeline with
//!   event markers, events list, statistics, player, messages, open, export and save as, help,
//!   settings), the lobby, the archive, the series page and tournaments' pages.
//! - this file: [`Root`], which shows the lobby at `/` when the relay has several matches and
//!   the monitor otherwise, and the [`App`] component, which lays the monitor's panels out.

pub mod agents;
pub mod api;
pub mod export;
pub mod field;
pub mod keys;
pub mod link;
pub mod operator;
pub mod paint;
pub mod playback;
pub mod playlist;
pub mod pwa;
pub mod save_as;
pub mod scene;
pub mod settings;
pub mod source;
pub mod state;
pub mod timeline;
pub mod ui;

use crate::ui::dialog::overlay_button;
use leptos::prelude::*;
use state::{Monitor, Overlay};
use ui::canvas::FieldCanvas;
use ui::events::EventList;
use ui::export::ExportPanel;
use ui::help::Help;
use ui::messages::MessageBoard;
use ui::open::{FileInput, OpenPanel};
use ui::player::PlayerPanel;
use ui::scorebar::ScoreBar;
use ui::settings::{SettingsPanel, SettingsToggle};
use ui::stats::StatsPanel;
use ui::status::Status;
use ui::transport::CopyLink;
use ui::transport::Transport;

/// The lobby or the monitor. At `/` the relay is asked for its matches first: with several,
/// or none yet (an edge relay that has not heard of a match), the lobby; with one (or an old
/// relay that cannot say), that match. `/m/NAME` is always the
/// monitor of that match.
#[component]
pub fn Root() -> impl IntoView {
    // None: still asking the relay; Some(None): the monitor; Some(Some(cards)): the lobby.
    // The embed view whatever the path: the relay lets other sites frame any page asked for
    // with `embed`, so no such page may show more than the embed view.
    if link::embed_mode() || ui::broadcast::broadcast_mode() {
        return view! { <App/> }.into_any();
    }
    if ui::archive::is_archive_page() {
        return view! { <ui::archive::ArchivePage/> }.into_any();
    }
    if ui::series::is_series_page() {
        return view! { <ui::series::SeriesPage/> }.into_any();
    }
    if ui::runs::is_runs_page() {
        return view! { <ui::runs::RunsPage/> }.into_any();
    }
    if ui::tournament::tournament_name().is_some() {
        return view! { <ui::tournament::TournamentPage/> }.into_any();
    }
    let choice = RwSignal::new(None::<Option<Vec<ui::lobby::Card>>>);
    // A match's page, or a link to a log on the web: the monitor at once.
    if source::live::match_name().is_some()
        || link::startup_log().is_some()
        || playlist::startup_query().is_some()
    {
        choice.set(Some(None));
    } else {
        leptos::task::spawn_local(async move {
            let cards = ui::lobby::fetch_matches().await;
            choice.set(Some(cards.filter(|c| c.len() != 1)));
        });
    }
    (move || match choice.get() {
        None => ().into_any(),
        Some(None) => view! { <App/> }.into_any(),
        Some(Some(cards)) => view! { <ui::lobby::Lobby cards/> }.into_any(),
    })
    .into_any()
}

#[component]
pub fn App() -> impl IntoView {
    let m = Monitor::new();
    provide_context(m);
    // The address first: `control=` is read before the page ever rewrites it.
    let fragment = link::startup_fragment();
    if let Some(cycle) = fragment.cycle() {
        m.open_at(cycle);
    }
    // `view=3d`, `cam=goal`: over the settings until the user chooses in them.
    m.field.link_picture.set(link::picture_from_link());
    m.field.link_camera.set(link::camera_from_link());
    source::file::prepare();
    let playlist = playlist::startup_query();
    let live = link::startup_log().is_none() && playlist.is_none();
    let broadcast = ui::broadcast::broadcast_mode();
    // What the relay says about this match: its kits for every view; for the broadcast view
    // also its delay, which must be set before the feed opens.
    let info = RwSignal::new(None::<ui::broadcast::Info>);
    match link::startup_log() {
        Some(url) => {
            source::file::open_url(m, url);
            if let Some(list) = link::startup_agents() {
                agents::manifest::start(m, list);
            }
        }
        // The playlist opens its first log once it has the list.
        None if playlist.is_some() => {}
        None if broadcast => {
            ui::broadcast::follow_info(m, info, 10_000, move || {
                let delay = info.get_untracked().map_or(0.0, |i| i.delay_seconds);
                source::live::set_delay(m, delay);
                source::live::connect(m);
            });
            // A delay changed on the relay (restarted with another) holds from then on.
            Effect::new(move |_| {
                if let Some(i) = info.get() {
                    if (i.delay_seconds - source::live::delay()).abs() > 1e-6 {
                        source::live::set_delay(m, i.delay_seconds);
                    }
                }
            });
        }
        None => {
            source::live::connect(m);
            source::live::fill_in_when_rewound(m);
            // Only the kits: asked at the start of each match, and now and then.
            ui::broadcast::follow_info(m, info, 30_000, || {});
        }
    }
    if let Some(q) = playlist {
        playlist::start(m, q);
    }
    link::follow_address(m);
    playback::start(m);
    export::watch(m);
    if broadcast {
        // The viewer's colours and captions come from the saved settings, the field is drawn
        // for a stream; nothing the view changes is saved over the user's own.
        m.settings
            .update(|s| s.field = settings::FieldSettings::broadcast());
    } else {
        ui::settings::persist(m);
    }
    pwa::register();
    // The operator's panel exists only for a page opened with the relay's operator link.
    ui::operator::start(m);
    // What the agents thought, live, for a page opened with its team's link.
    if live && !link::embed_mode() && !broadcast {
        agents::live::start(m);
    }
    if broadcast {
        return view! { <ui::broadcast::BroadcastView info/> }.into_any();
    }
    if link::embed_mode() {
        // Inside another site's page the shortcuts would take that page's keys.
        return view! { <ui::embed::EmbedView/> }.into_any();
    }
    keys::listen(m);

    let dragging = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let dt = ev.data_transfer();
        let count = dt
            .as_ref()
            .and_then(|dt| dt.files())
            .map_or(0, |l| l.length());
        let one_log = count == 1
            && dt
                .as_ref()
                .and_then(|dt| dt.files())
                .and_then(|l| l.get(0))
                .is_some_and(|f| agents::looks_like_game_log(&f.name()));
        // Several files, or a folder: the match's log with its agents' files. The drop's
        // folders must be walked before this handler returns.
        if count > 0 && !one_log {
            m.overlay.set(Overlay::None);
            if let Some(dt) = dt {
                let walk = agents::dropped(&dt);
                wasm_bindgen_futures::spawn_local(async move {
                    agents::open_files(m, walk.await);
                });
            }
            return;
        }
        let file = dt.as_ref().and_then(|dt| dt.files()).and_then(|l| l.get(0));
        // A link dragged from another tab opens as a log on the web.
        let url = dt
            .as_ref()
            .and_then(|dt| dt.get_data("text/uri-list").ok())
            .and_then(|l| l.lines().find(|l| !l.starts_with('#')).map(str::to_owned))
            .filter(|u| u.starts_with("http://") || u.starts_with("https://"));
        m.overlay.set(Overlay::None);
        match (file, url) {
            (Some(f), _) => source::file::open(m, f),
            (None, Some(u)) => source::file::open_url(m, u),
            (None, None) => m
                .error
                .set(Some("Nothing to open: drop a .rcg or .rcg.gz file.".into())),
        }
    };

    view! {
        <main
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
            <playlist::PlaylistLine/>
            // The field and the panels side by side on wide screens (a team developer reads
            // the player panel while watching the player), stacked on narrow ones.
            <div class="field-row">
                <FieldCanvas/>
                <div class="panels">
                    // First when agent files are open: what a team developer opened them for.
                    <ui::agent::AgentPanel/>
                    <PlayerPanel/>
                    <EventList/>
                    <MessageBoard/>
                    <StatsPanel/>
                    <ui::analysis::AnalysisPanel/>
                    <ui::operator::OperatorPanel/>
                </div>
            </div>
            <Transport/>
            <div class="toolbar">
                {overlay_button(m, Overlay::Open, "open-toggle", "Open a log (O)", "Open…")}
                {overlay_button(m, Overlay::Export, "export-toggle", "Save a PNG, a video clip or the log", "Export…")}
                <SettingsToggle/>
                <CopyLink/>
                {overlay_button(m, Overlay::Embed, "embed-toggle", "Show this match in another site's page", "Embed…")}
                {overlay_button(m, Overlay::Help, "help-toggle", "Keyboard shortcuts (?)", "? Keys")}
            </div>
            <FileInput/>
            <OpenPanel/>
            <ExportPanel/>
            <SettingsPanel/>
            <ui::embed::EmbedPanel/>
            <Help/>
            <span
                id="timings"
                hidden
                data-first-frame-ms=move || m.timings.get().map(|t| format!("{:.1}", t.first_frame_ms)).unwrap_or_default()
                data-all-frames-ms=move || m.timings.get().and_then(|t| t.all_frames_ms).map(|t| format!("{t:.1}")).unwrap_or_default()
                data-decode-ms=move || m.timings.get().map(|t| format!("{:.1}", t.decode_ms)).unwrap_or_default()
                data-wait-ms=move || m.timings.get().map(|t| format!("{:.1}", t.wait_ms)).unwrap_or_default()
            ></span>
            <p class="hint">
                "Drop a .rcg or .rcg.gz logfile anywhere on the page to replay it. Press ? for the keyboard shortcuts."
            </p>
            <ui::announce::Announcer/>
        </main>
    }
    .into_any()
}
