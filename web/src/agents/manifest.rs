//! The agents' files by URL: `?log=MATCH&agents=LIST`, where LIST is a text file with one
//! URL per line (relative to the list's own address; blank lines and `#` comments skipped),
//! as `ls *.log *.dcl *.rcl* > agents.txt` in the log folder makes it. A list rather than a
//! folder listing because web servers list folders each in their own way, when at all.
//!
//! The files are downloaded (the browser keeps large ones on disk), then opened as if dropped
//! with the match once it is loaded: paired, indexed in the worker, read when shown.

use crate::state::Monitor;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Files a list may name at most (a match's agents have 49).
const MAX_FILES: usize = 500;

/// The response to a GET of `url`, or why there is none.
async fn get(url: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let res = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| {
            let reason = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_default();
            crate::source::url::explain_fetch_failure(&page_url(), url, &reason)
        })?;
    let res: web_sys::Response = res.dyn_into().map_err(|_| "not a response".to_string())?;
    if !res.ok() {
        return Err(format!(
            "the server answered {} {}",
            res.status(),
            res.status_text()
        ));
    }
    Ok(res)
}

fn page_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// The URLs a list names, resolved against the list's address.
pub fn entries(list: &str, base: &str) -> Vec<String> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(MAX_FILES)
        .map(|l| {
            web_sys::Url::new_with_base(l, base)
                .map(|u| u.href())
                .unwrap_or_else(|_| l.to_owned())
        })
        .collect()
}

/// Downloads the list at `list_url` and every file it names, then opens them beside the match.
pub fn start(m: Monitor, list_url: String) {
    // A list named relative to the page (`?agents=logs/agents.txt`) is first made absolute:
    // its entries are relative to it, not to the page.
    let list_url = web_sys::Url::new_with_base(&list_url, &page_url())
        .map(|u| u.href())
        .unwrap_or(list_url);
    let agents = m.agents;
    let problem = move |p: String| agents.problems.update(|ps| ps.push(p));
    leptos::task::spawn_local(async move {
        agents
            .progress
            .set(Some("downloading the list of agent files…".into()));
        let list = match get(&list_url).await {
            Ok(res) => match res.text().map(JsFuture::from) {
                Ok(f) => f.await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
                Err(_) => String::new(),
            },
            Err(why) => {
                agents.progress.set(None);
                problem(format!(
                    "The list of agent files ({list_url}) cannot be read: {why}"
                ));
                return;
            }
        };
        let urls = entries(&list, &list_url);
        if urls.is_empty() {
            agents.progress.set(None);
            problem(format!(
                "The list of agent files ({list_url}) names no file."
            ));
            return;
        }
        let mut files = Vec::new();
        let total = urls.len();
        for (k, url) in urls.into_iter().enumerate() {
            let name = crate::source::url::file_name(&url);
            if super::looks_like_game_log(&name) {
                problem(format!(
                    "{name}: a game log in the list of agent files is not opened (the match is the one in log=)"
                ));
                continue;
            }
            agents.progress.set(Some(format!(
                "downloading agent files: {} of {total} ({name})",
                k + 1
            )));
            let blob = match get(&url).await {
                Ok(res) => match res.blob().map(JsFuture::from) {
                    Ok(f) => f
                        .await
                        .ok()
                        .and_then(|b| b.dyn_into::<web_sys::Blob>().ok()),
                    Err(_) => None,
                },
                Err(why) => {
                    problem(format!("{name}: cannot be downloaded: {why}"));
                    continue;
                }
            };
            let parts = js_sys::Array::new();
            let Some(blob) = blob else {
                problem(format!("{name}: the download broke off"));
                continue;
            };
            parts.push(&blob);
            match web_sys::File::new_with_blob_sequence(&parts, &name) {
                Ok(f) => files.push(f),
                Err(_) => problem(format!("{name}: cannot be kept as a file")),
            }
        }
        // Paired with the match's teams and cycles: wait until its log is read (a log that
        // never shows a frame within a minute of its end is not waited for).
        let mut idle = 0;
        while m.loading.get_untracked() || (m.count.get_untracked() == 0 && idle < 300) {
            if !m.loading.get_untracked() {
                idle += 1;
            }
            let _ = super::sleep(200).await;
        }
        agents.progress.set(None);
        if m.count.get_untracked() == 0 {
            problem("The match in log= did not open, so its agents' files were not opened.".into());
            return;
        }
        if !files.is_empty() {
            super::open_files(m, files);
        }
    });
}
