//! The installable web app: the manifest (`static/manifest.webmanifest`) and a service worker
//! (`static/sw.js`) that keeps the page's own files, so that once loaded it opens again without
//! the relay, and opens logs from the disk offline.
//!
//! Browsers run service workers only on `https://` pages and on `localhost`; elsewhere this
//! does nothing (the relay serves HTTPS with `--tls-cert`/`--tls-key`).

use wasm_bindgen::JsCast;

/// Where the service worker is served: the site root, so it covers every page of the relay
/// (`/`, `/m/NAME`). Trunk links the page's files from the root too.
const WORKER_URL: &str = "/sw.js";

pub fn register() {
    let Some(window) = web_sys::window() else {
        return;
    };
    if !window.is_secure_context() {
        return;
    }
    let navigator = window.navigator();
    // `serviceWorker` is missing where it is not allowed (and in some private modes).
    let has_worker = js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false);
    if !has_worker {
        return;
    }
    let container = navigator.service_worker();
    let promise = container.register(WORKER_URL);
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = wasm_bindgen_futures::JsFuture::from(promise).await {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "unknown error".into());
            web_sys::console::warn_1(
                &format!("the page will not work offline: no service worker ({why})").into(),
            );
        }
    });
}
