//! The lobby: at `/`, when the relay follows several matches, a live card per match (teams,
//! score, cycle) that opens the match at its own address, `/m/NAME`. It asks the relay's
//! `/api/matches` every two seconds. The tournaments the relay serves are linked above.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// One entry of `/api/matches` (book, "/api/matches").
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Card {
    pub name: String,
    pub source: String,
    #[serde(default)]
    pub label: String,
    pub teams: [Option<String>; 2],
    pub score: [u32; 2],
    #[serde(default)]
    pub penalties: Option<[u32; 2]>,
    pub cycle: u32,
    pub playmode: String,
    pub spectators: usize,
    /// The run of games whose field this match follows, when `pitchside-play` is playing one.
    #[serde(default)]
    pub run: Option<CardRun>,
}

/// A card's run: which game the field plays, and how far the run is.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct CardRun {
    pub kind: String,
    pub game: Option<String>,
    pub played: u32,
    pub games: u32,
}

impl CardRun {
    /// "Batch: game-0014 · 12 of 300 played".
    fn words(&self) -> String {
        let what = if self.kind == "tournament" {
            "Tournament"
        } else {
            "Batch"
        };
        let game = self.game.as_deref().unwrap_or("between games");
        format!("{what}: {game} · {} of {} played", self.played, self.games)
    }
}

const REFRESH_MS: i32 = 2000;

/// The relay's matches, or `None` if it could not be asked (an old relay, a page opened from
/// a file server): the page then shows the monitor as before.
pub async fn fetch_matches() -> Option<Vec<Card>> {
    crate::api::get_json("/api/matches").await.ok()
}

fn team(name: &Option<String>) -> String {
    name.clone().unwrap_or_else(|| "—".into())
}

/// One entry of `/api/tournaments` (book, "Tournaments").
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct TournamentLink {
    pub name: String,
    pub title: String,
    pub url: String,
    pub fixtures: u32,
    pub played: u32,
    pub live: u32,
}

#[derive(serde::Deserialize)]
struct TournamentList {
    tournaments: Vec<TournamentLink>,
}

#[component]
pub fn Lobby(cards: Vec<Card>) -> impl IntoView {
    let cards = RwSignal::new(cards);
    let tournaments = RwSignal::new(Vec::<TournamentLink>::new());
    // A relay without tournaments (or an older one) lists none: nothing is shown.
    let ask_tournaments = move || {
        leptos::task::spawn_local(async move {
            if let Ok(list) = crate::api::get_json::<TournamentList>("/api/tournaments").await {
                let _ = tournaments.try_set(list.tournaments);
            }
        });
    };
    ask_tournaments();
    let tick = Closure::<dyn FnMut()>::new(move || {
        leptos::task::spawn_local(async move {
            if let Some(c) = fetch_matches().await {
                cards.set(c);
            }
        });
        ask_tournaments();
    });
    let timer = web_sys::window().and_then(|w| {
        w.set_interval_with_callback_and_timeout_and_arguments_0(
            tick.as_ref().unchecked_ref(),
            REFRESH_MS,
        )
        .ok()
    });
    tick.forget();
    on_cleanup(move || {
        if let (Some(w), Some(id)) = (web_sys::window(), timer) {
            w.clear_interval_with_handle(id);
        }
    });
    view! {
        <main class="lobby">
            <h1>"Matches"</h1>
            <p class="lobby-empty"><a id="archive-link" href="/archive">"Archive of past matches"</a></p>
            <Show when=move || cards.with(Vec::is_empty)>
                <p class="lobby-empty">
                    "No match is being relayed yet. This page lists each one as it starts."
                </p>
            </Show>
            <ul id="matches" class="cards">
                <For each=move || cards.get() key=|c| c.name.clone() let:c>
                    {
                        let name = c.name.clone();
                        let href = format!("/m/{}", c.name);
                        let live = c.source == "live";
                        view! {
                            <li class="card" data-match=name.clone()>
                                <a href=href>
                                    <span class="card-name">{name.clone()}</span>
                                    <span class="card-source" class:live=live>{c.source.clone()}</span>
                                    <span class="card-teams">
                                        <span class="left">{team(&c.teams[0])}</span>
                                        <span class="card-score">
                                            {format!("{} : {}", c.score[0], c.score[1])}
                                        </span>
                                        <span class="right">{team(&c.teams[1])}</span>
                                    </span>
                                    <span class="card-clock">
                                        {format!("cycle {} · {}", c.cycle, c.playmode.replace('_', " "))}
                                    </span>
                                    <span class="card-watchers">
                                        {format!("{} watching", c.spectators)}
                                    </span>
                                    {c.run.as_ref().map(|r| view! { <span class="card-run">{r.words()}</span> })}
                                </a>
                            </li>
                        }
                    }
                </For>
            </ul>
            <Show when=move || tournaments.with(|t| !t.is_empty())>
                <h2>"Tournaments"</h2>
                <ul id="tournaments" class="lobby-tournaments">
                    <For each=move || tournaments.get() key=|t| t.name.clone() let:t>
                        <li>
                            <a href=t.url.clone() data-tournament=t.name.clone()>{t.title.clone()}</a>
                            <span class="hint">
                                {format!(" {} of {} games played{}", t.played, t.fixtures,
                                    if t.live > 0 { format!(", {} live", t.live) } else { String::new() })}
                            </span>
                        </li>
                    </For>
                </ul>
            </Show>
        </main>
    }
}
