//! The one place to open a log: drop a file, choose one, or give a web address. The hidden
//! file input lives outside the panel so that the picker (and tests) can reach it at any time.

use crate::agents;
use crate::source::{file, live};
use crate::state::{Mode, Monitor, Overlay};
use crate::ui::dialog::Dialog;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The page's file input (hidden; the panel's button and drop zone stand for it).
#[component]
pub fn FileInput() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let input = NodeRef::<leptos::html::Input>::new();
    let folder = NodeRef::<leptos::html::Input>::new();
    let take = move |el: web_sys::HtmlInputElement| {
        let files: Vec<web_sys::File> = el
            .files()
            .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
            .unwrap_or_default();
        el.set_value("");
        m.overlay.set(Overlay::None);
        match files.as_slice() {
            [] => {}
            // One log: opened as always.
            [one] if agents::looks_like_game_log(&one.name()) => file::open(m, one.clone()),
            // A log with its agents' files, or agents' files for the match on screen.
            _ => agents::open_files(m, files),
        }
    };
    let on_change = move |_| {
        if let Some(el) = input.get() {
            take(el);
        }
    };
    // Chooses folders rather than files (every browser knows it by this name).
    Effect::new(move |_| {
        if let Some(el) = folder.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    let on_folder = move |_| {
        if let Some(el) = folder.get() {
            take(el);
        }
    };
    view! {
        <input
            id="file-input"
            class="hidden-input"
            type="file"
            multiple
            accept=".rcg,.gz,.rcg.gz,.json,.log,.dcl,.rcl"
            node_ref=input
            on:change=on_change
        />
        <input
            id="folder-input"
            class="hidden-input"
            type="file"
            node_ref=folder
            on:change=on_folder
        />
    }
}

/// Opens the browser's chooser of the hidden input `id` (a click on it is how a page may).
fn click(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        el.click();
    }
}

fn choose_folder() {
    click("folder-input");
}

fn choose_file() {
    click("file-input");
}

#[component]
pub fn OpenPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let url = RwSignal::new(m.log_url.get_untracked().unwrap_or_default());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let u = url.get_untracked().trim().to_owned();
        if !u.is_empty() {
            m.overlay.set(Overlay::None);
            file::open_url(m, u);
        }
    };
    view! {
        <Dialog which=Overlay::Open id="open-panel" title="Open a log">
                    <button id="drop-zone" class="drop-zone" on:click=move |_| choose_file()>
                        <strong>"Drop a .rcg or .rcg.gz file here"</strong>
                        <span>"or click to choose one"</span>
                    </button>
                    <button id="choose-folder" class="link" on:click=move |_| choose_folder()>
                        "Open a folder: a match's .rcg with its agents' .log, .dcl and the server's .rcl"
                    </button>
                    <form class="url-form" on:submit=submit>
                        <label for="log-url">"or a log on the web:"</label>
                        <div class="row">
                            <input
                                id="log-url"
                                type="url"
                                placeholder="https://…/game.rcg.gz"
                                prop:value=move || url.get()
                                on:input=move |ev| url.set(event_target_value(&ev))
                            />
                            <button id="open-url" type="submit">"Open"</button>
                        </div>
                    </form>
                    <p class="hint">
                        "Logs are read in this browser; nothing is uploaded. A log opened from the web \
                         keeps its address in the page's link (?log=…), so a copied link opens it for \
                         anyone who can reach it. Servers on other sites must allow it (CORS)."
                    </p>
                    <Show when=move || m.mode.get() == Mode::File>
                        <button class="link" on:click=move |_| {
                            m.overlay.set(Overlay::None);
                            live::resume(m);
                        }>"Back to the relay's live feed"</button>
                    </Show>
        </Dialog>
    }
}
