//! The relay's JSON endpoints as the pages ask them (`/api/matches`, `/api/archive`,
//! `/api/series`, `/api/runs`, the operator's): one way to fetch, one way to send with a key,
//! one way to say what went wrong, one way to ask again.

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

/// `method` on `url` with the operator's (or a team's) key as a bearer token, and a JSON
/// `body` if any: the status and the body, or `None` where the relay did not answer.
pub async fn send(
    method: &str,
    url: &str,
    token: &str,
    body: Option<String>,
) -> Option<(u16, String)> {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new().ok()?;
    headers
        .set("Authorization", &format!("Bearer {token}"))
        .ok()?;
    if let Some(b) = &body {
        headers.set("Content-Type", "application/json").ok()?;
        init.set_body(&wasm_bindgen::JsValue::from_str(b));
    }
    init.set_headers(&headers);
    let req = web_sys::Request::new_with_str_and_init(url, &init).ok()?;
    let res = wasm_bindgen_futures::JsFuture::from(web_sys::window()?.fetch_with_request(&req))
        .await
        .ok()?;
    let res: web_sys::Response = res.dyn_into().ok()?;
    let text = wasm_bindgen_futures::JsFuture::from(res.text().ok()?)
        .await
        .ok()?
        .as_string()
        .unwrap_or_default();
    Some((res.status(), text))
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
