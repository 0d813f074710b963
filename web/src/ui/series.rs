//! The series page (`/series?team=…&dir=…`, and `b_dir=…` / `b_q=…` for A/B): a team's games
//! in the archive as one result with its uncertainty, the win rate drawn game by game with
//! its 95 % band, the invalid games with why, and every match linked at its first goal. It
//! reads `/api/series` (book, "Series") and asks again every few seconds, so a folder an
//! autotest script is filling converges on screen.

use leptos::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// How often the page asks again: a game shows within this of its log being indexed.
const ASK_EVERY_MS: i32 = 3000;

/// True at `/series`.
pub fn is_series_page() -> bool {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .is_some_and(|p| p.trim_end_matches('/') == "/series")
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Rate {
    value: f64,
    ci: [f64; 2],
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct MeanCi {
    mean: f64,
    ci: Option<[f64; 2]>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Row {
    name: String,
    side: String,
    opponent: String,
    goals_for: u32,
    goals_against: u32,
    outcome: String,
    shootout: Option<[u32; 2]>,
    first_goal: Option<u32>,
    invalid: Vec<String>,
    link: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Shootouts {
    played: u32,
    won: u32,
    lost: u32,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Doc {
    team: Option<String>,
    #[serde(default)]
    opponents: Vec<String>,
    games: u32,
    invalid_games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    win_rate: Option<Rate>,
    expected_win_rate: Option<Rate>,
    points: u32,
    points_per_game: Option<MeanCi>,
    goals_for: Option<MeanCi>,
    goals_against: Option<MeanCi>,
    goal_difference: Option<MeanCi>,
    histograms: Histograms,
    shootouts: Shootouts,
    /// Name → {ours, theirs}.
    figures: serde_json::Map<String, Value>,
    /// `[games, rate, lo, hi]` after each game.
    curve: Vec<[f64; 4]>,
    matches: Vec<Row>,
    invalid: Vec<Row>,
    /// The run `pitchside-play` is playing into the folder, when it is one.
    #[serde(default)]
    run: Option<pitchside_wire::run::Run>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Histograms {
    goals_for: Vec<[i64; 2]>,
    goals_against: Vec<[i64; 2]>,
    difference: Vec<[i64; 2]>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Diff {
    estimate: f64,
    ci: [f64; 2],
    p_value: f64,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
struct Comparison {
    win_rate: Option<Diff>,
    goal_difference: Option<Diff>,
    /// `better`, `worse` or `undecided` (a relay older than the key sends none: undecided).
    #[serde(default)]
    finding: String,
    verdict: String,
}

/// How the verdict looks for each finding: its class, a mark and a word, so that the colour
/// is not the only thing that tells "A is worse" from "A is better".
fn finding_look(finding: &str) -> (&'static str, &'static str, &'static str) {
    match finding {
        "better" => ("verdict better", "▲", "A better"),
        "worse" => ("verdict worse", "▼", "A worse"),
        _ => ("verdict undecided", "≈", "Not told apart"),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Answer {
    One(Box<Doc>),
    Two(Box<Doc>, Box<Doc>, Comparison),
}

fn search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

fn param(key: &str) -> String {
    pitchside_wire::link::query_value(&search(), key).unwrap_or_default()
}

async fn fetch(query: &str) -> Result<(Answer, usize), String> {
    let v: Value = crate::api::get_json(&format!("/api/series{query}")).await?;
    let bad = |e: serde_json::Error| format!("an answer this page cannot read: {e}");
    let indexing = v["indexing"].as_u64().unwrap_or(0) as usize;
    let answer = if v.get("comparison").is_some() {
        Answer::Two(
            Box::new(serde_json::from_value(v["a"].clone()).map_err(bad)?),
            Box::new(serde_json::from_value(v["b"].clone()).map_err(bad)?),
            serde_json::from_value(v["comparison"].clone()).map_err(bad)?,
        )
    } else {
        Answer::One(Box::new(serde_json::from_value(v).map_err(bad)?))
    };
    Ok((answer, indexing))
}

/// "12 min", "2 h 05 min".
fn duration_words(seconds: u64) -> String {
    let minutes = seconds.div_ceil(60);
    if minutes < 60 {
        format!("{minutes} min")
    } else {
        format!("{} h {:02} min", minutes / 60, minutes % 60)
    }
}

/// How far the folder's run of games is: game k of N, what each field plays, the time left
/// at the pace so far; said plainly when the runner has stopped writing.
pub(crate) fn run_view(r: pitchside_wire::run::Run, id: String) -> impl IntoView {
    let what = if r.kind == "tournament" {
        "Tournament"
    } else {
        "Batch"
    };
    let now = (js_sys::Date::now() / 1000.0) as u64;
    let silent = r.running && now.saturating_sub(r.updated) > 15 * 60;
    let headline = if r.running {
        format!("{what}: {} of {} games played", r.played, r.games)
    } else {
        format!("{what} ended: {} of {} games played", r.played, r.games)
    };
    let invalid = (r.invalid > 0).then(|| format!(", {} invalid in this run", r.invalid));
    let left = r
        .seconds_left
        .filter(|_| r.running && !silent)
        .map(|s| format!(" · about {} left at this pace", duration_words(s)));
    let silence = silent.then_some(" · no news from the runner for over 15 minutes");
    let fields = r
        .fields
        .iter()
        .filter(|_| r.running && !silent)
        .map(|f| {
            let playing = match (&f.game, &f.teams) {
                (Some(g), Some([a, b])) => format!("{a} – {b} ({g})"),
                (Some(g), None) => g.clone(),
                (None, _) => "between games".to_owned(),
            };
            view! { <li>{format!("field {}: {playing}", f.port)}</li> }
        })
        .collect_view();
    view! {
        <section id=id class="series-run" aria-label="The run of games">
            <p>
                <strong>{headline}</strong>{invalid}{left}{silence}
            </p>
            <progress max=r.games value=r.played aria-hidden="true"></progress>
            <ul>{fields}</ul>
        </section>
    }
}

fn pct(v: f64) -> String {
    format!("{:.1} %", v * 100.0)
}

fn rate_text(r: &Option<Rate>) -> String {
    match r {
        Some(r) => format!(
            "{} (95 % CI {:.1}–{:.1} %)",
            pct(r.value),
            r.ci[0] * 100.0,
            r.ci[1] * 100.0
        ),
        None => "–".into(),
    }
}

fn mean_text(m: &Option<MeanCi>, signed: bool) -> String {
    let Some(m) = m else { return "–".into() };
    let f = |v: f64| {
        if signed {
            format!("{v:+.2}")
        } else {
            format!("{v:.2}")
        }
    };
    match m.ci {
        Some([lo, hi]) => format!("{} (95 % CI {} to {})", f(m.mean), f(lo), f(hi)),
        None => f(m.mean),
    }
}

/// The win rate after each game with its band, as an SVG (several series overlaid).
fn curve_svg(curves: Vec<(&'static str, Vec<[f64; 4]>)>) -> impl IntoView {
    const W: f64 = 640.0;
    const H: f64 = 220.0;
    const L: f64 = 44.0;
    const B: f64 = 26.0;
    let n = curves
        .iter()
        .map(|(_, c)| c.len())
        .max()
        .unwrap_or(0)
        .max(2) as f64;
    let x = move |g: f64| L + (g - 1.0) / (n - 1.0) * (W - L - 10.0);
    let y = move |r: f64| 8.0 + (1.0 - r) * (H - B - 8.0);
    let label = curves
        .iter()
        .map(|(k, c)| match c.last() {
            Some(p) => format!(
                "{k}: {} after {} games, 95 % band {:.0}–{:.0} %",
                pct(p[1]),
                p[0],
                p[2] * 100.0,
                p[3] * 100.0
            ),
            None => format!("{k}: no game yet"),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let grid = [0.0, 0.25, 0.5, 0.75, 1.0]
        .into_iter()
        .map(|r| {
            view! {
                <line x1=L x2=W - 10.0 y1=y(r) y2=y(r) class="grid"/>
                <text x=L - 6.0 y=y(r) + 4.0 text-anchor="end">{format!("{:.0}%", r * 100.0)}</text>
            }
        })
        .collect_view();
    let paths = curves
        .into_iter()
        .map(|(class, c)| {
            let band: String = c
                .iter()
                .map(|p| format!("{:.1},{:.1}", x(p[0]), y(p[3])))
                .chain(
                    c.iter()
                        .rev()
                        .map(|p| format!("{:.1},{:.1}", x(p[0]), y(p[2]))),
                )
                .collect::<Vec<_>>()
                .join(" ");
            let line: String = c
                .iter()
                .map(|p| format!("{:.1},{:.1}", x(p[0]), y(p[1])))
                .collect::<Vec<_>>()
                .join(" ");
            view! {
                <g class=format!("curve {class}")>
                    <polygon class="band" points=band/>
                    <polyline class="rate" points=line/>
                </g>
            }
        })
        .collect_view();
    view! {
        <svg class="series-curve" viewBox=format!("0 0 {W} {H}") role="img" aria-label=format!("Win rate game by game. {label}")>
            {grid}
            <text x=W - 10.0 y=H - 6.0 text-anchor="end">{format!("games ({})", n as u32)}</text>
            {paths}
        </svg>
    }
}

fn histogram(title: &'static str, h: Vec<[i64; 2]>) -> impl IntoView {
    let max = h.iter().map(|b| b[1]).max().unwrap_or(1).max(1) as f64;
    view! {
        <figure class="series-hist">
            <figcaption>{title}</figcaption>
            <table>
                <tbody>
                    {h.into_iter().map(|[v, c]| view! {
                        <tr>
                            <th scope="row">{v}</th>
                            <td><span class="bar" style=format!("width:{:.0}%", c as f64 / max * 100.0)></span></td>
                            <td class="num">{c}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </figure>
    }
}

fn rows_view(rows: Vec<Row>, id: &'static str) -> impl IntoView {
    view! {
        <table id=id class="series-table series-matches">
            <thead><tr>
                <th scope="col">"#"</th><th scope="col">"Result"</th><th scope="col">"Against"</th>
                <th scope="col">"Log"</th><th scope="col"><span class="sr-only">"Watch"</span></th>
            </tr></thead>
            <tbody>
                {rows.into_iter().enumerate().map(|(i, r)| {
                    let so = r.shootout.map(|[a, b]| format!(" ({a}–{b} on penalties)")).unwrap_or_default();
                    let why = r.invalid.join("; ");
                    let watch = r.link.clone().unwrap_or_default();
                    let at = match r.first_goal { Some(c) => format!("Watch from the first goal (cycle {c})"), None => "Watch".into() };
                    view! {
                        <tr class=r.outcome.clone()>
                            <td class="num">{i + 1}</td>
                            <td>{format!("{} {}–{}{so}", r.outcome, r.goals_for, r.goals_against)}</td>
                            <td>{format!("{} ({})", r.opponent, if r.side == "l" { "we were left" } else { "we were right" })}</td>
                            <td class="hint">{r.name.rsplit('/').next().unwrap_or_default().to_owned()}
                                {(!why.is_empty()).then(|| view! { <div class="why">{why}</div> })}
                            </td>
                            <td class="actions"><a class="watch" href=watch>{at}</a></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

fn figures_view(d: &Doc) -> impl IntoView {
    let team = d.team.clone().unwrap_or_else(|| "left team".into());
    // In the order a match report reads (the JSON object has no order of its own).
    const ORDER: [&str; 6] = [
        "possession",
        "shots",
        "shots_on_target",
        "passes",
        "fouls",
        "cards",
    ];
    let rows: Vec<(String, String, String)> = ORDER
        .iter()
        .filter_map(|name| d.figures.get(*name).map(|v| (*name, v)))
        .map(|(name, v)| {
            let scale = if name == "possession" { 100.0 } else { 1.0 };
            let cell = |m: &Value| match (m["mean"].as_f64(), m["ci"].as_array()) {
                (Some(mean), Some(ci)) if ci.len() == 2 => format!(
                    "{:.1} ({:.1}–{:.1})",
                    mean * scale,
                    ci[0].as_f64().unwrap_or(0.0) * scale,
                    ci[1].as_f64().unwrap_or(0.0) * scale
                ),
                (Some(mean), _) => format!("{:.1}", mean * scale),
                _ => "–".into(),
            };
            let label = if name == "possession" {
                "possession %".to_owned()
            } else {
                name.replace('_', " ")
            };
            (label, cell(&v["ours"]), cell(&v["theirs"]))
        })
        .collect();
    view! {
        <table class="series-table series-figures">
            <caption>"Per match: mean (95 % CI)"</caption>
            <thead><tr><th scope="col">""</th><th scope="col">{team}</th><th scope="col">"Opponents"</th></tr></thead>
            <tbody>
                {rows.into_iter().map(|(l, a, b)| view! { <tr><th scope="row">{l}</th><td>{a}</td><td>{b}</td></tr> }).collect_view()}
            </tbody>
        </table>
    }
}

fn headline(d: &Doc, label: &'static str) -> impl IntoView {
    let so = (d.shootouts.played > 0).then(|| {
        format!(
            "{} shoot-outs: {} won, {} lost (each counted a draw above)",
            d.shootouts.played, d.shootouts.won, d.shootouts.lost
        )
    });
    view! {
        <dl class="series-headline" data-series=label>
            <dt>"Games"</dt><dd class="games">{format!("{} counted, {} invalid left out", d.games, d.invalid_games)}</dd>
            <dt>"Won – drawn – lost"</dt><dd class="wdl">{format!("{} – {} – {}", d.wins, d.draws, d.losses)}</dd>
            <dt>"Win rate"</dt><dd class="win-rate">{rate_text(&d.win_rate)}</dd>
            <dt>"Expected win rate"</dt><dd>{rate_text(&d.expected_win_rate)} <span class="hint">" wins of decided games"</span></dd>
            <dt>"Points"</dt><dd>{format!("{}, {} a game", d.points, mean_text(&d.points_per_game, false))}</dd>
            <dt>"Goals for"</dt><dd>{mean_text(&d.goals_for, false)}</dd>
            <dt>"Goals against"</dt><dd>{mean_text(&d.goals_against, false)}</dd>
            <dt>"Goal difference"</dt><dd class="difference">{mean_text(&d.goal_difference, true)}</dd>
            {so.map(|s| view! { <dt>"Shoot-outs"</dt><dd>{s}</dd> })}
        </dl>
    }
}

fn one_view(d: Doc, label: &'static str) -> impl IntoView {
    let h = d.histograms.clone();
    let invalid = d.invalid.clone();
    let matches = d.matches.clone();
    view! {
        {headline(&d, label)}
        {figures_view(&d)}
        <div class="series-hists">
            {histogram("Goals for", h.goals_for)}
            {histogram("Goals against", h.goals_against)}
            {histogram("Goal difference", h.difference)}
        </div>
        {(!invalid.is_empty()).then(|| view! {
            <h3>"Invalid games (left out)"</h3>
            {rows_view(invalid, if label == "B" { "series-invalid-b" } else { "series-invalid" })}
        })}
        <h3>"Matches"</h3>
        {rows_view(matches, if label == "B" { "series-matches-b" } else { "series-matches" })}
    }
}

fn diff_text(d: &Option<Diff>, scale: f64, places: usize, unit: &str, method: &str) -> String {
    match d {
        Some(d) => format!(
            "{:+.places$}{unit} (95 % CI {:+.places$} to {:+.places$}, {method}), p = {:.3}",
            d.estimate * scale,
            d.ci[0] * scale,
            d.ci[1] * scale,
            d.p_value
        ),
        None => "–".into(),
    }
}

#[component]
pub fn SeriesPage() -> impl IntoView {
    let answer = RwSignal::new(None::<Result<(Answer, usize), String>>);
    let again = RwSignal::new(0u32);
    let query = search();
    let q2 = query.clone();
    Effect::new(move |_| {
        again.track();
        let query = q2.clone();
        leptos::task::spawn_local(async move {
            let got = fetch(&query).await;
            if answer.try_set(Some(got)).is_none() {
                crate::api::ask_again_in(ASK_EVERY_MS, again);
            }
        });
    });
    let (team, dir, q, b_dir, b_q) = (
        param("team"),
        param("dir"),
        param("q"),
        param("b_dir"),
        param("b_q"),
    );
    let source = |dir: &str, q: &str| match (dir.is_empty(), q.is_empty()) {
        (true, true) => "the whole archive".to_owned(),
        (false, true) => format!("folder {dir}"),
        (true, false) => format!("search “{q}”"),
        (false, false) => format!("folder {dir}, search “{q}”"),
    };
    let title = if team.is_empty() {
        "Series".to_owned()
    } else {
        format!("Series: {team}")
    };
    let src_a = source(&dir, &q);
    let src_b = source(&b_dir, &b_q);
    view! {
        <main class="lobby archive series">
            <h1>{title}</h1>
            <p class="lobby-empty"><a href="/">"Live matches"</a> " · " <a href="/archive">"Archive"</a></p>
            <form class="archive-filters" method="get" action="/series">
                <label>"Team " <input id="series-team" name="team" value=team.clone() placeholder="left team of each game"/></label>
                <label>"Folder " <input id="series-dir" name="dir" value=dir.clone() placeholder="e.g. 0/night-12"/></label>
                <label>"Search " <input id="series-q" name="q" type="search" value=q.clone()/></label>
                <label>"Compare with folder " <input id="series-b-dir" name="b_dir" value=b_dir.clone()/></label>
                <button type="submit">"Show"</button>
            </form>
            {move || match answer.get() {
                None => view! { <p>"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" role="alert">{format!("Cannot read the series: {e}.")}</p> }.into_any(),
                Some(Ok((Answer::One(d), indexing))) => {
                    let d = *d;
                    let against = if d.opponents.is_empty() { String::new() } else { format!(" against {}", d.opponents.join(", ")) };
                    view! {
                        <p id="series-status" class="hint" role="status">
                            {format!("{}{against}: {} games counted", src_a, d.games)}
                            {(indexing > 0).then(|| format!(" ({indexing} logs still being read)"))}
                            " · updates by itself while games are added"
                        </p>
                        {d.run.clone().map(|r| run_view(r, "series-run".into()))}
                        <h2>"Win rate, game by game"</h2>
                        {curve_svg(vec![("a", d.curve.clone())])}
                        {one_view(d, "A")}
                    }.into_any()
                }
                Some(Ok((Answer::Two(a, b, c), _))) => {
                    let (a, b) = (*a, *b);
                    view! {
                        <section class="series-compare" aria-labelledby="series-verdict-h">
                            <h2 id="series-verdict-h">"A against B"</h2>
                            {
                                let (class, mark, word) = finding_look(&c.finding);
                                view! {
                                    <p id="series-verdict" class=class data-finding=c.finding.clone()>
                                        <span class="verdict-badge"><span aria-hidden="true">{mark}" "</span>{word}</span>
                                        " "
                                        <span class="verdict-text">{c.verdict.clone()}</span>
                                    </p>
                                }
                            }
                            <dl class="series-headline">
                                <dt>"Win rate, A − B"</dt><dd id="series-diff-win">{diff_text(&c.win_rate, 100.0, 1, " points", "Newcombe; two-proportion z-test")}</dd>
                                <dt>"Goal difference, A − B"</dt><dd id="series-diff-goals">{diff_text(&c.goal_difference, 1.0, 2, " a game", "Welch's t-test")}</dd>
                            </dl>
                            <h3>"Win rate, game by game"</h3>
                            {curve_svg(vec![("a", a.curve.clone()), ("b", b.curve.clone())])}
                            <p class="hint"><span class="key-a">"■ A: "</span>{src_a.clone()}" · "<span class="key-b">"■ B: "</span>{src_b.clone()}</p>
                        </section>
                        <div class="series-two">
                            <section aria-label="Series A"><h2>{format!("A: {src_a}")}</h2>{one_view(a, "A")}</section>
                            <section aria-label="Series B"><h2>{format!("B: {src_b}")}</h2>{one_view(b, "B")}</section>
                        </div>
                    }.into_any()
                }
            }}
        </main>
    }
}
