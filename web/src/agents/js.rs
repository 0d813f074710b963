//! The page's side of `web/agents.js`: the workers that index, read and search the agents'
//! files, and the small waits and clocks the loaders share.

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Resolves after `ms` milliseconds (the live stream's and the downloads' pauses).
pub(crate) fn sleep(ms: i32) -> JsFuture {
    JsFuture::from(js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    }))
}

/// Milliseconds on the page's monotonic clock.
pub(super) fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Bytes `start..end` of an indexed file, read by its worker.
pub(super) async fn read_range(blob: &JsValue, start: u64, end: u64) -> Option<Vec<u8>> {
    let v = JsFuture::from(read_range_js(blob, start as f64, end as f64))
        .await
        .ok()?;
    Some(js_sys::Uint8Array::new(&v).to_vec())
}

#[wasm_bindgen::prelude::wasm_bindgen(module = "/agents.js")]
extern "C" {
    pub(super) fn index_agent_file(
        file: &web_sys::File,
        kind: u32,
        progress: &JsValue,
    ) -> js_sys::Promise;
    #[wasm_bindgen(js_name = read_range)]
    pub(super) fn read_range_js(text: &JsValue, start: f64, end: f64) -> js_sys::Promise;
    pub(super) fn search_agent_file(text: &JsValue, needle: &str, serial: u32) -> js_sys::Promise;
    pub(super) fn grep_agent_file(text: &JsValue, needle: &str, limit: u32) -> js_sys::Promise;
    pub(super) fn reset_agent_workers();
    pub(super) fn dropped_files(dt: &web_sys::DataTransfer) -> js_sys::Promise;
}
