//! The statistics panel: both teams' figures up to the frame on screen (possession, kicks,
//! passes, shots, shots on target, goals, fouls, cards, corners, free kicks, offsides), a heat
//! map of where the ball was, and how each figure is counted, all from the library's
//! [`pitchside_analysis::stats`].

use crate::settings::Panel;
use crate::state::Monitor;
use crate::ui::panel::{definitions, toggle};
use leptos::prelude::*;
use pitchside_analysis::stats::{HeatFilter, HeatMap, TeamStats, DEFINITIONS};
use rcss_formats::Side;
use wasm_bindgen::JsCast;

/// How to read one figure from a team's stats.
type Figure = fn(&TeamStats) -> u32;

/// The rows of the table: a label and its figure.
const ROWS: [(&str, Figure); 11] = [
    ("goals", |t| t.goals),
    ("shots", |t| t.shots),
    ("shots on target", |t| t.shots_on_target),
    ("kicks", |t| t.kicks),
    ("passes", |t| t.passes),
    ("fouls", |t| t.fouls),
    ("yellow cards", |t| t.yellow_cards),
    ("red cards", |t| t.red_cards),
    ("corners", |t| t.corners),
    ("free kicks", |t| t.free_kicks),
    ("offsides", |t| t.offsides),
];

/// Possession as the panel prints it: "54%", or "–" before any play.
pub fn percent(share: Option<f32>) -> String {
    share.map_or_else(|| "–".to_owned(), |p| format!("{:.0}%", p * 100.0))
}

/// The colour of a heat-map cell holding `count` of at most `max`: transparent when empty,
/// then from a faint yellow to a strong red, in proportion (a root scale made the whole pitch
/// look hot).
pub fn heat_colour(count: u32, max: u32) -> Option<String> {
    if count == 0 || max == 0 {
        return None;
    }
    let f = f64::from(count) / f64::from(max);
    let hue = 60.0 * (1.0 - f);
    let alpha = 0.15 + 0.7 * f;
    Some(format!("hsla({hue:.0}, 100%, 50%, {alpha:.2})"))
}

fn draw_heat(canvas: &web_sys::HtmlCanvasElement, map: &HeatMap) {
    let Ok(Some(ctx)) = canvas.get_context("2d") else {
        return;
    };
    let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
        return;
    };
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    ctx.set_fill_style_str("#2f7d32");
    ctx.fill_rect(0.0, 0.0, w, h);
    let max = map.max();
    let (cw, ch) = (w / map.cols as f64, h / map.rows as f64);
    for row in 0..map.rows {
        for col in 0..map.cols {
            if let Some(c) = heat_colour(map.get(col, row), max) {
                ctx.set_fill_style_str(&c);
                ctx.fill_rect(col as f64 * cw, row as f64 * ch, cw + 0.5, ch + 0.5);
            }
        }
    }
    // Touch lines, half-way line, centre circle and penalty areas, for orientation.
    ctx.set_stroke_style_str("rgba(255,255,255,0.8)");
    ctx.set_line_width(1.0);
    let sx = w / 105.0;
    let sy = h / 68.0;
    ctx.stroke_rect(0.5, 0.5, w - 1.0, h - 1.0);
    ctx.begin_path();
    ctx.move_to(w / 2.0, 0.0);
    ctx.line_to(w / 2.0, h);
    ctx.stroke();
    ctx.begin_path();
    let _ = ctx.arc(w / 2.0, h / 2.0, 9.15 * sx, 0.0, std::f64::consts::TAU);
    ctx.stroke();
    let (pw, ph) = (16.5 * sx, 40.32 * sy);
    ctx.stroke_rect(0.5, (h - ph) / 2.0, pw, ph);
    ctx.stroke_rect(w - pw - 0.5, (h - ph) / 2.0, pw, ph);
}

#[component]
pub fn StatsPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let open = move || m.settings.with(|s| s.timeline.stats_panel);
    let summary = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        m.analysis
            .with_value(|a| a.as_ref().map(|s| s.summary_at_frame(i)))
            .unwrap_or_default()
    });
    let names = Memo::new(move |_| {
        m.count.track();
        m.analysis.with_value(|a| {
            a.as_ref()
                .map(|s| {
                    let n = s.events().team_names();
                    [
                        n[0].unwrap_or("left").to_owned(),
                        n[1].unwrap_or("right").to_owned(),
                    ]
                })
                .unwrap_or_else(|| ["left".into(), "right".into()])
        })
    });
    let filter = RwSignal::new(HeatFilter::All);
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        let i = m.index.get();
        m.count.track();
        let f = filter.get();
        if let Some(map) = m
            .analysis
            .with_value(|a| a.as_ref().map(|s| s.heat_map(Some(i), f)))
        {
            draw_heat(&c, &map);
        }
    });
    let cell = move |side: Side, get: Figure| move || get(summary.get().team(side)).to_string();
    view! {
        {toggle(Panel::Stats, "stats-toggle", "Match statistics up to the frame on screen", "Statistics")}
        <Show when=open>
            <section id="stats" class="panel stats">
                <h2>{move || format!("Statistics up to cycle {}", summary.get().cycle)}</h2>
                <table class="stats-table">
                    <thead>
                        <tr>
                            <th class="team left">{move || names.get()[0].clone()}</th>
                            <th></th>
                            <th class="team right">{move || names.get()[1].clone()}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <tr id="stat-possession">
                            <td class="num">{move || percent(summary.get().possession(Side::Left))}</td>
                            <td class="label">"possession"</td>
                            <td class="num">{move || percent(summary.get().possession(Side::Right))}</td>
                        </tr>
                        {ROWS
                            .iter()
                            .map(|&(label, get)| view! {
                                <tr>
                                    <td class="num">{cell(Side::Left, get)}</td>
                                    <td class="label">{label}</td>
                                    <td class="num">{cell(Side::Right, get)}</td>
                                </tr>
                            })
                            .collect_view()}
                    </tbody>
                </table>
                <div class="heat">
                    <div class="heat-head">
                        "Where the ball was "
                        <select on:change=move |ev| {
                            filter.set(match event_target_value(&ev).as_str() {
                                "l" => HeatFilter::Possession(Side::Left),
                                "r" => HeatFilter::Possession(Side::Right),
                                _ => HeatFilter::All,
                            })
                        }>
                            <option value="all">"in play"</option>
                            <option value="l">{move || format!("held by {}", names.get()[0])}</option>
                            <option value="r">{move || format!("held by {}", names.get()[1])}</option>
                        </select>
                    </div>
                    <canvas id="heat-map" node_ref=canvas width="420" height="272"></canvas>
                </div>
                {definitions(&DEFINITIONS)}
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_people_write_them() {
        assert_eq!(percent(None), "–");
        assert_eq!(percent(Some(0.536)), "54%");
        assert_eq!(heat_colour(0, 10), None);
        assert_eq!(heat_colour(3, 0), None);
        assert_eq!(
            heat_colour(10, 10).as_deref(),
            Some("hsla(0, 100%, 50%, 0.85)")
        );
        assert_eq!(
            heat_colour(1, 100).as_deref(),
            Some("hsla(59, 100%, 50%, 0.16)")
        );
    }
}
