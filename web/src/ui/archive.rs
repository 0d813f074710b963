//! The archive page (`/archive`): the relay's logs with search, filters, sorting and paging,
//! each opening in the monitor by its `?log=` link or downloading as it is stored. It reads
//! `/api/archive` (book, "The archive") and asks again whenever a filter changes.

use leptos::prelude::*;
use pitchside_wire::link::{with_query_value, LOG_KEY, PLAYLIST_KEY};
use serde::Deserialize;

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Log {
    pub id: String,
    pub name: String,
    pub url: String,
    pub teams: [String; 2],
    pub score: [u32; 2],
    pub penalties: Option<[u32; 2]>,
    pub date: String,
    pub cycles: u32,
    pub version: String,
    pub size: u64,
    pub live: bool,
    pub error: Option<String>,
    /// Where a log cut short stops (any version).
    #[serde(default)]
    pub incomplete: Option<u32>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Listing {
    pub version: u32,
    pub total: usize,
    pub page: usize,
    pub per_page: usize,
    pub indexing: usize,
    pub logs: Vec<Log>,
}

/// True at `/archive`.
pub fn is_archive_page() -> bool {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .is_some_and(|p| p.trim_end_matches('/') == "/archive")
}

/// The query string for the filters: only what is set, each value percent-encoded.
pub fn filters(q: &str, shootout: bool, from: &str, to: &str, sort: &str) -> String {
    let mut s = String::new();
    for (k, v) in [("q", q.trim()), ("from", from), ("to", to), ("sort", sort)] {
        if !v.is_empty() {
            s = with_query_value(&s, k, Some(v));
        }
    }
    if shootout {
        s = with_query_value(&s, "shootout", Some("1"));
    }
    s
}

/// The filters and the page.
pub fn query(q: &str, shootout: bool, from: &str, to: &str, sort: &str, page: usize) -> String {
    with_query_value(
        &filters(q, shootout, from, to, sort),
        "page",
        Some(&page.to_string()),
    )
}

/// The monitor's address that plays every log the filters find, one after another.
pub fn play_all(filters: &str) -> String {
    let q = filters.trim_start_matches('?');
    format!("/{}", with_query_value("", PLAYLIST_KEY, Some(q)))
}

/// A size for people: "2.3 MB".
pub fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / f64::from(1 << 20)),
        b if b >= 1 << 10 => format!("{:.0} KB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

/// `/api/archive` with `query` (`?…`).
pub(crate) async fn fetch(query: String) -> Result<Listing, String> {
    crate::api::get_json(&format!("/api/archive{query}")).await
}

/// How often the page asks again while the relay says logs are still being read.
const ASK_AGAIN_MS: i32 = 1000;

#[component]
pub fn ArchivePage() -> impl IntoView {
    let q = RwSignal::new(String::new());
    let shootout = RwSignal::new(false);
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let sort = RwSignal::new("date".to_owned());
    let page = RwSignal::new(1usize);
    let listing = RwSignal::new(None::<Result<Listing, String>>);
    // Answers can come back out of order while the visitor types: only the last asked counts.
    let asked = StoredValue::new(0u64);
    // Bumped to ask again while the relay is still reading logs (a relay just started, a
    // folder just filled): the list grows on screen rather than until a reload.
    let again = RwSignal::new(0u32);
    Effect::new(move |_| {
        again.track();
        let query = query(
            &q.get(),
            shootout.get(),
            &from.get(),
            &to.get(),
            &sort.get(),
            page.get(),
        );
        asked.update_value(|n| *n += 1);
        let this = asked.get_value();
        leptos::task::spawn_local(async move {
            let answer = fetch(query).await;
            if asked.get_value() == this {
                let reading = matches!(&answer, Ok(l) if l.indexing > 0);
                listing.set(Some(answer));
                if reading {
                    crate::api::ask_again_in(ASK_AGAIN_MS, again);
                }
            }
        });
    });
    let pages = move || {
        listing.with(|l| match l {
            Some(Ok(l)) => l.total.div_ceil(l.per_page.max(1)).max(1),
            _ => 1,
        })
    };
    let first = move || page.get() <= 1;
    let last = move || page.get() >= pages();
    let input = move |sig: RwSignal<String>| {
        move |ev| {
            sig.set(event_target_value(&ev));
            page.set(1);
        }
    };
    view! {
        <main class="lobby archive">
            <h1>"Archive"</h1>
            <p class="lobby-empty"><a href="/">"Live matches"</a></p>
            <form class="archive-filters" role="search" on:submit=|ev| ev.prevent_default()>
                <label>"Search " <input id="archive-q" type="search" placeholder="team or file name" on:input=input(q)/></label>
                <label>"From " <input id="archive-from" type="date" on:change=input(from)/></label>
                <label>"To " <input id="archive-to" type="date" on:change=input(to)/></label>
                <label>
                    <input id="archive-shootout" type="checkbox" on:change=move |ev| {
                        shootout.set(event_target_checked(&ev));
                        page.set(1);
                    }/>
                    " shoot-out"
                </label>
                <label>"Sort "
                    <select id="archive-sort" on:change=input(sort)>
                        <option value="date">"newest first"</option>
                        <option value="-date">"oldest first"</option>
                        <option value="teams">"teams"</option>
                        <option value="duration">"longest first"</option>
                        <option value="size">"largest first"</option>
                    </select>
                </label>
            </form>
            {move || match listing.get() {
                None => view! { <p>"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" role="alert">{format!("Cannot list the archive: {e}.")}</p> }.into_any(),
                Some(Ok(l)) => view! {
                    <p id="archive-count" class="hint" role="status">
                        {format!("{} logs", l.total)}
                        {(l.indexing > 0).then(|| format!(" ({} more being read)", l.indexing))}
                    </p>
                    <p>
                        <a id="archive-play-all" href=move || play_all(&filters(&q.get(), shootout.get(), &from.get(), &to.get(), &sort.get()))>
                            {format!("▶ Play all {} one after another", l.total.min(200))}
                        </a>
                        " · "
                        <a id="archive-series" href=move || format!("/series{}", filters(&q.get(), false, &from.get(), &to.get(), ""))>
                            "Results of these logs as a series"
                        </a>
                    </p>
                    <table id="archive-table" class="archive-table">
                        <thead><tr>
                            <th scope="col">"Date"</th><th scope="col">"Match"</th><th scope="col">"Cycles"</th>
                            <th scope="col">"Log"</th><th scope="col">"Size"</th><th scope="col"><span class="sr-only">"Actions"</span></th>
                        </tr></thead>
                        <tbody>
                            {l.logs.into_iter().map(|log| {
                                let watch = format!("/{}", with_query_value("", LOG_KEY, Some(&log.url)));
                                let score = match log.penalties {
                                    Some([a, b]) => format!("{} – {} (pen. {a}–{b})", log.score[0], log.score[1]),
                                    None => format!("{} – {}", log.score[0], log.score[1]),
                                };
                                let status = match (&log.error, log.incomplete) {
                                    _ if log.live => "live, being recorded".to_owned(),
                                    (Some(e), _) => format!("damaged: {e}"),
                                    (None, Some(c)) => rcss_formats::log::incomplete_note(c),
                                    (None, None) => String::new(),
                                };
                                view! {
                                    <tr data-id=log.id.clone()>
                                        <td class="date">{log.date.replace('T', " ")}</td>
                                        <td class="match">
                                            <span class="team-l">{log.teams[0].clone()}</span>
                                            " " {score} " "
                                            <span class="team-r">{log.teams[1].clone()}</span>
                                            <div class="hint">{log.name.clone()} " " {status}</div>
                                        </td>
                                        <td class="cycles">{log.cycles}</td>
                                        <td class="log">{version_text(&log.version)}</td>
                                        <td class="size">{size_text(log.size)}</td>
                                        <td class="actions">
                                            <a class="watch" href=watch>"Watch"</a>
                                            " "
                                            <a href=log.url.clone() download=log.name.clone()>"Download"</a>
                                        </td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            }}
            <nav class="pager" aria-label="Pages">
                <button id="archive-prev" disabled=first on:click=move |_| page.update(|p| *p = p.saturating_sub(1).max(1))>"← Newer"</button>
                <span id="archive-page">{move || format!("page {} of {}", page.get(), pages())}</span>
                <button id="archive-next" disabled=last on:click=move |_| page.update(|p| *p += 1)>"Older →"</button>
            </nav>
        </main>
    }
}

/// The Log column: `v6` for the numbered versions, `JSON` for JSON logs, nothing for a file
/// that is not a log.
fn version_text(version: &str) -> String {
    match version {
        "" => String::new(),
        "json" => "JSON".into(),
        n => format!("v{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_make_the_query_and_sizes_read_well() {
        assert_eq!(query("", false, "", "", "date", 1), "?sort=date&page=1");
        assert_eq!(
            query(" helios cup ", true, "2026-07-01", "", "duration", 3),
            "?q=helios%20cup&from=2026-07-01&sort=duration&shootout=1&page=3"
        );
        assert_eq!(
            play_all(&filters("", false, "", "", "date")),
            "/?playlist=sort=date"
        );
        assert_eq!(
            play_all(&filters("HELIOS", true, "", "", "date")),
            "/?playlist=q=HELIOS%26sort=date%26shootout=1"
        );
        assert_eq!(size_text(2_287_141), "2.2 MB");
        assert_eq!(size_text(4096), "4 KB");
        assert_eq!(size_text(10), "10 B");
        assert_eq!(version_text("6"), "v6");
        assert_eq!(version_text("json"), "JSON");
        assert_eq!(version_text(""), "");
    }
}
