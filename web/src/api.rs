//! The relay's JSON endpoints as the pages ask them (`/api/matches`, `/api/archive`,
//! `/api/series`): one way to fetch, one way to say what went wrong, one way to ask again.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The body of a `GET` of `url`, or why there is none, in words for the page.
pub async fn get_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let res = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| "the relay did not answer".to_owned())?;
    let res: web_sys::Response = res.dyn_into().map_err(|_| "no response")?;
    if !res.ok() {
        return Err(format!("the relay answered {}", res.status()));
    }
    wasm_bindgen_futures::JsFuture::from(res.text().map_err(|_| "no body")?)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| "no body".to_owned())
}

/// `url`'s JSON as a `T`.
pub async fn get_json<T: serde::de::DeserializeOwned>(url: &str) -> Result<T, String> {
    let text = get_text(url).await?;
    serde_json::from_str(&text).map_err(|e| format!("an answer this page cannot read: {e}"))
}

/// Bumps `again` in `ms` milliseconds, so an effect that tracks it asks once more. A page
/// left meanwhile has disposed the signal: nothing is asked then.
pub fn ask_again_in(ms: i32, again: RwSignal<u32>) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let bump = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = again.try_update(|n| *n = n.wrapping_add(1));
    });
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(bump.unchecked_ref(), ms);
}
