//! A tournament's page (`/t/NAME`): each group's standings, cross table and fixtures, the
//! knockout bracket, and the matches being played now with their live score and a link to
//! watch. It reads `/api/tournaments/NAME` (book, "Tournaments") and asks again every few
//! seconds, so a result shows within seconds of its log being written and a live score
//! moves while the organiser leaves the page on a screen.

use leptos::prelude::*;
use serde::Deserialize;

const ASK_EVERY_MS: i32 = 3000;

/// The tournament's name at `/t/NAME`.
pub fn tournament_name() -> Option<String> {
    let path = web_sys::window()?.location().pathname().ok()?;
    let name = path.strip_prefix("/t/")?.trim_end_matches('/');
    (!name.is_empty() && !name.contains('/')).then(|| name.to_owned())
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Game {
    status: String,
    score: Option<[u32; 2]>,
    penalties: Option<[u32; 2]>,
    link: Option<String>,
    cycle: Option<u32>,
    playmode: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Fixture {
    round: Option<u32>,
    field: Option<u32>,
    left: String,
    right: String,
    #[serde(flatten)]
    game: Game,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Standing {
    place: u32,
    team: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    goals_for: u32,
    goals_against: u32,
    goal_difference: i64,
    points: u32,
    tied: bool,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Cell {
    score: [u32; 2],
    penalties: Option<[u32; 2]>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Group {
    name: String,
    complete: bool,
    standings: Vec<Standing>,
    cross: Vec<Vec<Option<Cell>>>,
    fixtures: Vec<Fixture>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Side {
    label: String,
    team: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Tie {
    id: String,
    left: Side,
    right: Side,
    #[serde(flatten)]
    game: Game,
    winner: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Round {
    name: String,
    ties: Vec<Tie>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Doc {
    title: String,
    groups: Vec<Group>,
    knockout: Vec<Round>,
    fixtures: u32,
    played: u32,
    live: u32,
    extra_games: u32,
    file_error: Option<String>,
    #[serde(default)]
    indexing: usize,
}

fn score_text(g: &Game) -> String {
    match (g.score, g.penalties) {
        (Some([a, b]), Some([p, q])) => format!("{a} : {b} ({p} : {q} pen.)"),
        (Some([a, b]), None) => format!("{a} : {b}"),
        _ => "–".into(),
    }
}

/// rcssserver's play mode in words, without its side: the side is the live match's, which
/// need not be the fixture's way round.
fn mode_words(mode: &str) -> String {
    let bare = mode
        .strip_suffix("_l")
        .or_else(|| mode.strip_suffix("_r"))
        .unwrap_or(mode);
    bare.replace('_', " ")
}

/// What a fixture's last cell says and links to.
fn game_cell(g: &Game) -> impl IntoView {
    match g.status.as_str() {
        "played" => {
            let href = g.link.clone().unwrap_or_default();
            view! { <a class="t-played" href=href>{score_text(g)}</a> }.into_any()
        }
        "live" => {
            let href = g.link.clone().unwrap_or_default();
            let clock = format!(
                " · cycle {} · {}",
                g.cycle.unwrap_or(0),
                mode_words(g.playmode.as_deref().unwrap_or_default())
            );
            view! {
                <a class="t-live" href=href>
                    <span class="live-dot" aria-hidden="true"></span>
                    <span class="sr-only">"Live now: "</span>
                    <strong>{score_text(g)}</strong>
                    {clock}
                    " · watch"
                </a>
            }
            .into_any()
        }
        _ => view! { <span class="t-to-play">"to play"</span> }.into_any(),
    }
}

fn standings_view(g: &Group) -> impl IntoView {
    let rows = g.standings.clone();
    view! {
        <table class="series-table t-standings" data-group=g.name.clone()>
            <caption>"Ranked as rclmtableprinter ranks: points (a shoot-out decides a drawn game), then head-to-head, goal difference, goals"</caption>
            <thead><tr>
                <th scope="col">"#"</th><th scope="col">"Team"</th><th scope="col" class="num">"P"</th>
                <th scope="col" class="num">"W"</th><th scope="col" class="num">"D"</th><th scope="col" class="num">"L"</th>
                <th scope="col" class="num">"Goals"</th><th scope="col" class="num">"+/−"</th><th scope="col" class="num">"Pts"</th>
            </tr></thead>
            <tbody>
                {rows.into_iter().map(|s| view! {
                    <tr data-team=s.team.clone()>
                        <td class="num">{s.place}{s.tied.then_some(" =")}</td>
                        <th scope="row">{s.team.clone()}</th>
                        <td class="num">{s.games}</td><td class="num">{s.wins}</td>
                        <td class="num">{s.draws}</td><td class="num">{s.losses}</td>
                        <td class="num">{format!("{}:{}", s.goals_for, s.goals_against)}</td>
                        <td class="num">{format!("{:+}", s.goal_difference)}</td>
                        <td class="num pts">{s.points}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// The cross table. On a phone the column heads are the teams' places (the rows say whose
/// they are) and a shoot-out's score goes under the game's, so five teams fit the screen's
/// width; screen readers get the names.
fn cross_view(g: &Group) -> impl IntoView {
    let names: Vec<String> = g.standings.iter().map(|s| s.team.clone()).collect();
    let rows = g.cross.clone();
    let heads = names.clone();
    view! {
        <table class="series-table t-cross">
            <caption>"Cross table: the row team's goals first"</caption>
            <thead><tr><td></td>{heads.into_iter().enumerate().map(|(i, n)| view! {
                <th scope="col"><span class="t-full">{n}</span><span class="t-short" aria-hidden="true">{i + 1}</span></th>
            }).collect_view()}</tr></thead>
            <tbody>
                {rows.into_iter().zip(names).enumerate().map(|(i, (cells, name))| view! {
                    <tr>
                        <th scope="row"><span class="t-short" aria-hidden="true">{format!("{} ", i + 1)}</span>{name}</th>
                        {cells.into_iter().map(|c| match c {
                            Some(c) => {
                                let class = match c.score[0].cmp(&c.score[1]).then(
                                    c.penalties.map_or(std::cmp::Ordering::Equal, |[p, q]| p.cmp(&q)),
                                ) {
                                    std::cmp::Ordering::Greater => "win",
                                    std::cmp::Ordering::Less => "loss",
                                    std::cmp::Ordering::Equal => "draw",
                                };
                                let pens = c.penalties.map(|[p, q]| view! { <span class="t-pen">{format!(" ({p}:{q})")}</span> });
                                view! { <td class=class>{format!("{}:{}", c.score[0], c.score[1])}{pens}</td> }.into_any()
                            }
                            None => view! { <td class="none">"·"</td> }.into_any(),
                        }).collect_view()}
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// A table in a box of its own that scrolls sideways when the table is wider than the
/// screen (a cross table of five or more teams on a phone), so the page itself never is.
/// Focusable and named, so a keyboard can scroll it too.
fn scroller(label: String, table: impl IntoView) -> impl IntoView {
    view! {
        <div class="table-scroll t-scroll" role="region" tabindex="0" aria-label=label>
            {table}
        </div>
    }
}

fn fixtures_view(g: &Group) -> impl IntoView {
    let rows = g.fixtures.clone();
    view! {
        <table class="series-table t-fixtures" data-group=g.name.clone()>
            <caption>"Fixtures"</caption>
            <thead><tr><th scope="col">"Round"</th><th scope="col">"Field"</th><th scope="col">"Game"</th><th scope="col">"Result"</th></tr></thead>
            <tbody>
                {rows.into_iter().map(|f| view! {
                    <tr class=format!("t-{}", f.game.status.replace('_', "-"))>
                        <td class="num">{f.round.map(|r| r.to_string()).unwrap_or_default()}</td>
                        <td class="num">{f.field.map(|r| r.to_string()).unwrap_or_default()}</td>
                        <td>{format!("{} – {}", f.left, f.right)}</td>
                        <td>{game_cell(&f.game)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

fn side_view(s: &Side, winner: &Option<String>) -> impl IntoView {
    let won = s.team.is_some() && s.team == *winner;
    match &s.team {
        Some(t) => view! { <span class="t-side" class:won=won>{t.clone()}</span> }.into_any(),
        None => view! { <span class="t-side t-slot">{s.label.clone()}</span> }.into_any(),
    }
}

fn bracket_view(rounds: Vec<Round>) -> impl IntoView {
    view! {
        <div class="t-bracket" role="region" tabindex="0" aria-label="Knockout bracket">
            {rounds.into_iter().map(|r| view! {
                <section class="t-round" aria-label=r.name.clone()>
                    <h3>{r.name.clone()}</h3>
                    {r.ties.into_iter().map(|t| view! {
                        <div class="t-tie" data-tie=t.id.clone()>
                            <span class="t-id">{t.id.clone()}</span>
                            {side_view(&t.left, &t.winner)}
                            {side_view(&t.right, &t.winner)}
                            <span class="t-result">{game_cell(&t.game)}</span>
                        </div>
                    }).collect_view()}
                </section>
            }).collect_view()}
        </div>
    }
}

#[component]
pub fn TournamentPage() -> impl IntoView {
    let name = tournament_name().unwrap_or_default();
    let answer = RwSignal::new(None::<Result<Doc, String>>);
    let again = RwSignal::new(0u32);
    let url = format!("/api/tournaments/{name}");
    Effect::new(move |_| {
        again.track();
        let url = url.clone();
        leptos::task::spawn_local(async move {
            let got = crate::api::get_json::<Doc>(&url).await;
            if answer.try_set(Some(got)).is_none() {
                crate::api::ask_again_in(ASK_EVERY_MS, again);
            }
        });
    });
    Effect::new(move |_| {
        if let (Some(Ok(d)), Some(doc)) =
            (answer.get(), web_sys::window().and_then(|w| w.document()))
        {
            doc.set_title(&format!("{} · pitchside", d.title));
        }
    });
    view! {
        <main class="lobby archive series tournament">
            {move || match answer.get() {
                None => view! { <h1>"Tournament"</h1><p>"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! {
                    <h1>"Tournament"</h1>
                    <p class="error" role="alert">{format!("Cannot read the tournament {name:?}: {e}.")}</p>
                }.into_any(),
                Some(Ok(d)) => {
                    let status = format!(
                        "{} of {} games played{}{}",
                        d.played,
                        d.fixtures,
                        if d.live > 0 { format!(" · {} live now", d.live) } else { String::new() },
                        if d.indexing > 0 { format!(" · {} logs still being read", d.indexing) } else { String::new() },
                    );
                    let extra = (d.extra_games > 0).then(|| format!(
                        "{} more games between these teams fit no fixture (a pair that already had its result, another day than its fixture's, a knockout pair not known yet); they are not counted.",
                        d.extra_games
                    ));
                    view! {
                        <h1>{d.title.clone()}</h1>
                        <p class="lobby-empty"><a href="/">"Live matches"</a> " · " <a href="/archive">"Archive"</a></p>
                        {d.file_error.clone().map(|e| view! {
                            <p class="error" role="alert">{format!("The tournament file has a mistake; the page shows its last good version. {e}")}</p>
                        })}
                        <p id="t-status" class="hint" role="status">{status}" · updates by itself"</p>
                        {d.groups.into_iter().map(|g| view! {
                            <section class="t-group" aria-labelledby=format!("t-group-{}", g.name)>
                                <h2 id=format!("t-group-{}", g.name)>
                                    {format!("Group {}", g.name)}
                                    {g.complete.then(|| view! { <span class="t-badge">"complete"</span> })}
                                </h2>
                                <div class="t-tables">
                                    {scroller(format!("Group {}: standings", g.name), standings_view(&g))}
                                    {scroller(format!("Group {}: cross table", g.name), cross_view(&g))}
                                </div>
                                {fixtures_view(&g)}
                            </section>
                        }).collect_view()}
                        {(!d.knockout.is_empty()).then(|| view! {
                            <h2>"Knockout"</h2>
                            <p class="hint">"A level game is decided by its penalty shoot-out."</p>
                            {bracket_view(d.knockout.clone())}
                        })}
                        {extra.map(|e| view! { <p class="hint">{e}</p> })}
                    }.into_any()
                }
            }}
        </main>
    }
}
