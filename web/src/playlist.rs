//! Playlists: `?playlist=QUERY` plays the logs that `/api/archive?QUERY` lists (book, "The
//! archive"), one after another: "all matches of a team" is `?playlist=team%3DHELIOS`, and the
//! archive page's *Play all* makes one from its search. When a log has played to its end the
//! next one opens after [`PAUSE_MS`]. The address keeps `playlist=` beside the `log=` on
//! screen, so a reload or a shared link goes on from the same log.

use crate::state::{Mode, Monitor};
use leptos::prelude::*;
use pitchside_wire::link::{query_value, PLAYLIST_KEY};
use std::cell::RefCell;

/// Time at the end of a log before the next opens: the final score stays on screen a moment.
pub const PAUSE_MS: u32 = 3000;
/// Most logs one playlist holds (one page of `/api/archive`).
const MAX_LOGS: usize = 200;

/// One log of the list: its address and what to call it.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub url: String,
    pub title: String,
}

thread_local! {
    static LIST: RefCell<Vec<Item>> = const { RefCell::new(Vec::new()) };
}

/// The position after the log at `current` in `list`, if there is one.
pub fn next_after(list: &[Item], current: &str) -> Option<usize> {
    let at = list.iter().position(|i| i.url == current)?;
    (at + 1 < list.len()).then_some(at + 1)
}

/// The archive query in the address, if the page was opened with one.
pub fn startup_query() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    query_value(&search, PLAYLIST_KEY).filter(|q| !q.trim().is_empty())
}

/// Fetches the list and, unless a log is already opening, opens its first log. Then opens
/// each next one when the one on screen has played to its end.
pub fn start(m: Monitor, query: String) {
    let status = RwSignal::new(None::<String>);
    provide_context(Status(status));
    leptos::task::spawn_local(async move {
        let query =
            pitchside_wire::link::with_query_value(&query, "per_page", Some(&MAX_LOGS.to_string()));
        match crate::ui::archive::fetch(query).await {
            Ok(listing) => {
                let items: Vec<Item> = listing
                    .logs
                    .into_iter()
                    .map(|l| Item {
                        title: format!(
                            "{} {} – {} {}",
                            l.teams[0], l.score[0], l.score[1], l.teams[1]
                        ),
                        url: l.url,
                    })
                    .collect();
                if items.is_empty() {
                    m.error.set(Some(
                        "The playlist is empty: no log in the archive matches it.".into(),
                    ));
                    return;
                }
                if m.log_url.get_untracked().is_none() {
                    crate::source::file::open_url(m, items[0].url.clone());
                }
                LIST.with(|l| *l.borrow_mut() = items);
                describe(m, status);
            }
            Err(e) => m.error.set(Some(format!(
                "Cannot read the playlist from the archive: {e}."
            ))),
        }
    });
    // The log on screen has played to its end: the next one, after a pause.
    Effect::new(move |_| {
        // Played to its end, or could not be opened at all (a damaged or vanished log): the
        // list goes on either way.
        let failed = !m.loading.get() && m.count.get() == 0 && m.error.with(Option::is_some);
        let ended = m.mode.get() == Mode::File
            && !m.playing.get()
            && !m.loading.get()
            && (failed || m.count.get() > 0 && m.index.get() + 1 >= m.count.get());
        describe(m, status);
        let Some(current) = m.log_url.get() else {
            return;
        };
        if !ended {
            return;
        }
        let Some(next) = LIST.with(|l| next_after(&l.borrow(), &current)) else {
            return;
        };
        set_timeout(
            move || {
                let still = m.log_url.get_untracked().as_deref() == Some(current.as_str())
                    && !m.playing.get_untracked()
                    && (m.count.get_untracked() == 0
                        || m.index.get_untracked() + 1 >= m.count.get_untracked());
                if still {
                    if let Some(item) = LIST.with(|l| l.borrow().get(next).cloned()) {
                        crate::source::file::open_url(m, item.url);
                    }
                }
            },
            std::time::Duration::from_millis(u64::from(PAUSE_MS)),
        );
    });
}

/// "Playlist: 2 of 14 · next: A 1 – 0 B", or nothing outside a playlist.
#[derive(Clone, Copy)]
pub struct Status(pub RwSignal<Option<String>>);

fn describe(m: Monitor, status: RwSignal<Option<String>>) {
    let current = m.log_url.get_untracked();
    let text = LIST.with(|l| {
        let l = l.borrow();
        let at = l.iter().position(|i| Some(&i.url) == current.as_ref())?;
        let next = l
            .get(at + 1)
            .map_or("the last log".to_owned(), |n| format!("next: {}", n.title));
        Some(format!("Playlist: {} of {} · {next}", at + 1, l.len()))
    });
    if status.get_untracked() != text {
        status.set(text);
    }
}

/// The playlist line under the score bar.
#[component]
pub fn PlaylistLine() -> impl IntoView {
    let status = use_context::<Status>();
    move || {
        status
            .and_then(|s| s.0.get())
            .map(|t| view! { <p id="playlist" class="hint" role="status">{t}</p> })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_log_follows_the_one_on_screen() {
        let list: Vec<Item> = ["a", "b", "c"]
            .iter()
            .map(|u| Item {
                url: (*u).into(),
                title: String::new(),
            })
            .collect();
        assert_eq!(next_after(&list, "a"), Some(1));
        assert_eq!(next_after(&list, "b"), Some(2));
        assert_eq!(next_after(&list, "c"), None);
        assert_eq!(next_after(&list, "elsewhere"), None);
    }
}
