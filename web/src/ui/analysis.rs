//! The analysis panel: what each player did with the ball up to the frame on screen, from the
//! library's [`pitchside_analysis::actions`]: a table per team (kicks, passes, through passes,
//! shots, goals, assists, dribbles, tackles, recoveries, penalty-area entries, catches), where
//! every figure opens the list of its moments; each moment jumps to its cycle with the action
//! drawn on the field. Below, each team's pass map and shot map (where from, where to).
//!
//! Nothing after the frame on screen is counted (an action counts once it has ended: a pass
//! at its receiver's touch, a shot at its outcome), so watching a log is not spoiled.

use crate::settings::Panel;
use crate::state::Monitor;
use crate::ui::panel::{definitions, toggle};
use leptos::prelude::*;
use pitchside_analysis::actions::{Action, ActionKind, PlayerFigures, ShotOutcome, DEFINITIONS};
use rcss_formats::Side;
use wasm_bindgen::JsCast;

/// A figure of the table: its id (for `data-figure`), its heading, its full name, and which
/// actions it counts (for a player: his, or for `assists` the goals he set up).
#[derive(Clone, Copy)]
pub struct Column {
    pub id: &'static str,
    pub short: &'static str,
    pub name: &'static str,
    pub counts: fn(&Action, u8) -> bool,
}

fn of(a: &Action, unum: u8) -> bool {
    a.unum == unum
}

/// The columns of the tables, in order.
pub const COLUMNS: [Column; 14] = [
    Column {
        id: "kicks",
        short: "K",
        name: "kicks",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Kick),
    },
    Column {
        id: "passes",
        short: "P",
        name: "passes",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Pass { .. }),
    },
    Column {
        id: "passes_completed",
        short: "P✓",
        name: "passes completed",
        counts: |a, u| {
            of(a, u)
                && matches!(
                    a.kind,
                    ActionKind::Pass {
                        completed: true,
                        ..
                    }
                )
        },
    },
    Column {
        id: "through_passes",
        short: "Thr",
        name: "through passes",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Pass { through: true, .. }),
    },
    Column {
        id: "shots",
        short: "S",
        name: "shots",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Shot { .. }),
    },
    Column {
        id: "shots_on_target",
        short: "SoT",
        name: "shots on target",
        counts: |a, u| {
            of(a, u)
                && matches!(
                    a.kind,
                    ActionKind::Shot {
                        on_target: true,
                        ..
                    }
                )
        },
    },
    Column {
        id: "goals",
        short: "G",
        name: "goals",
        counts: |a, u| {
            of(a, u)
                && matches!(
                    a.kind,
                    ActionKind::Shot {
                        outcome: ShotOutcome::Goal { .. },
                        ..
                    }
                )
        },
    },
    Column {
        id: "assists",
        short: "A",
        name: "assists",
        counts: |a, u| matches!(a.kind, ActionKind::Shot { outcome: ShotOutcome::Goal { assist: Some(p) }, .. } if p == u),
    },
    Column {
        id: "dribbles",
        short: "Dr",
        name: "dribbles",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Dribble { .. }),
    },
    Column {
        id: "tackles_won",
        short: "Tk",
        name: "tackles won",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Tackle { won: true }),
    },
    Column {
        id: "tackles_failed",
        short: "Tk✗",
        name: "tackles failed",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Tackle { won: false }),
    },
    Column {
        id: "recoveries",
        short: "Rec",
        name: "ball recoveries",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Recovery),
    },
    Column {
        id: "penalty_area_entries",
        short: "PA",
        name: "penalty-area entries",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::PenaltyAreaEntry),
    },
    Column {
        id: "catches",
        short: "C",
        name: "catches",
        counts: |a, u| of(a, u) && matches!(a.kind, ActionKind::Catch),
    },
];

/// The actions of the match on screen that have ended by frame `index`, in match order.
pub fn actions_until(m: Monitor, index: usize) -> Vec<Action> {
    m.analysis.with_value(|a| {
        let Some(stats) = a else { return Vec::new() };
        let mut out: Vec<Action> = stats
            .actions()
            .actions()
            .iter()
            .filter(|a| a.end_frame.unwrap_or(a.frame) <= index)
            .copied()
            .collect();
        out.sort_by_key(|a| (a.frame, a.end_frame));
        out
    })
}

/// Each player's figures from `actions`: `[side][unum - 1]`.
pub fn figures(actions: &[Action]) -> [[PlayerFigures; 11]; 2] {
    let mut out = [[PlayerFigures::default(); 11]; 2];
    for a in actions {
        if let Some(f) = out[a.side.index()].get_mut(usize::from(a.unum).wrapping_sub(1)) {
            f.add(&a.kind);
        }
        if let ActionKind::Shot {
            outcome: ShotOutcome::Goal { assist: Some(p) },
            ..
        } = a.kind
        {
            if let Some(f) = out[a.side.index()].get_mut(usize::from(p).wrapping_sub(1)) {
                f.assists += 1;
            }
        }
    }
    out
}

/// How many of `actions` a column counts for `(side, unum)`, or for the whole team.
pub fn count(actions: &[Action], side: Side, unum: Option<u8>, col: &Column) -> usize {
    actions
        .iter()
        .filter(|a| a.side == side)
        .filter(|a| match unum {
            Some(u) => (col.counts)(a, u),
            None => (1..=11).any(|u| (col.counts)(a, u)),
        })
        .count()
}

/// An action in words for the list of moments: "HELIOS_L 7 → 9: pass (completed, forward)".
pub fn describe(a: &Action, names: &[String; 2]) -> String {
    let team = &names[a.side.index()];
    match a.kind {
        ActionKind::Pass {
            receiver,
            completed,
            ..
        } => {
            let to = if completed {
                receiver.to_string()
            } else {
                format!("{} {receiver}", names[a.side.other().index()])
            };
            format!("{team} {} → {to}: {}", a.unum, a.kind.label())
        }
        ActionKind::Shot {
            outcome: ShotOutcome::Goal { assist: Some(p) },
            ..
        } => format!("{team} {}: {} (assist {p})", a.unum, a.kind.label()),
        _ => format!("{team} {}: {}", a.unum, a.kind.label()),
    }
}

/// What the list of moments shows: a team, maybe a player, a column, and the frame the
/// figure was picked at (the list keeps to what was counted then, so that jumping to one of
/// its moments, back in the match, does not empty it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Chosen {
    side: Side,
    unum: Option<u8>,
    column: usize,
    until: usize,
}

/// Shows `a` on the field: to its first frame, paused, the action drawn.
pub fn show(m: Monitor, a: Action) {
    m.field.action.set(Some(a));
    m.seek(a.frame);
}

fn context_of(canvas: &web_sys::HtmlCanvasElement) -> Option<web_sys::CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// A small pitch with `side`'s passes (completed in green, intercepted in red) or shots (by
/// outcome), as seen from above with the left goal on the left.
fn draw_map(canvas: &web_sys::HtmlCanvasElement, actions: &[Action], side: Side, shots: bool) {
    let Some(ctx) = context_of(canvas) else {
        return;
    };
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    ctx.set_fill_style_str("#2f7d32");
    ctx.fill_rect(0.0, 0.0, w, h);
    let sx = w / 105.0;
    let sy = h / 68.0;
    let at = |(x, y): (f32, f32)| ((f64::from(x) + 52.5) * sx, (f64::from(y) + 34.0) * sy);
    ctx.set_stroke_style_str("rgba(255,255,255,0.7)");
    ctx.set_line_width(1.0);
    ctx.stroke_rect(0.5, 0.5, w - 1.0, h - 1.0);
    ctx.begin_path();
    ctx.move_to(w / 2.0, 0.0);
    ctx.line_to(w / 2.0, h);
    ctx.stroke();
    let (pw, ph) = (16.5 * sx, 40.32 * sy);
    ctx.stroke_rect(0.5, (h - ph) / 2.0, pw, ph);
    ctx.stroke_rect(w - pw - 0.5, (h - ph) / 2.0, pw, ph);
    ctx.set_line_width(1.5);
    for a in actions.iter().filter(|a| a.side == side) {
        let colour = match a.kind {
            ActionKind::Pass {
                completed: true, ..
            } if !shots => "rgba(180,255,160,0.85)",
            ActionKind::Pass {
                completed: false, ..
            } if !shots => "rgba(255,110,90,0.9)",
            ActionKind::Shot { outcome, .. } if shots => match outcome {
                ShotOutcome::Goal { .. } => "#ffd84a",
                ShotOutcome::Saved => "#8fd3ff",
                ShotOutcome::Blocked => "#d0d0d0",
                ShotOutcome::Missed => "#ff7a6b",
            },
            _ => continue,
        };
        let Some(to) = a.to else { continue };
        let (x0, y0) = at(a.from);
        let (x1, y1) = at(to);
        ctx.set_stroke_style_str(colour);
        ctx.set_fill_style_str(colour);
        ctx.begin_path();
        ctx.move_to(x0, y0);
        ctx.line_to(x1, y1);
        ctx.stroke();
        // An arrowhead at the end.
        let ang = (y1 - y0).atan2(x1 - x0);
        let len = 5.0;
        ctx.begin_path();
        ctx.move_to(x1, y1);
        ctx.line_to(x1 - len * (ang - 0.5).cos(), y1 - len * (ang - 0.5).sin());
        ctx.line_to(x1 - len * (ang + 0.5).cos(), y1 - len * (ang + 0.5).sin());
        ctx.close_path();
        ctx.fill();
    }
}

#[component]
pub fn AnalysisPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let open = move || m.settings.with(|s| s.timeline.analysis_panel);
    let actions = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        actions_until(m, i)
    });
    let names = Memo::new(move |_| {
        m.count.track();
        m.analysis.with_value(|a| {
            let n = a
                .as_ref()
                .map(|s| s.events().team_names())
                .unwrap_or([None, None]);
            [
                n[0].unwrap_or("left").to_owned(),
                n[1].unwrap_or("right").to_owned(),
            ]
        })
    });
    let chosen = RwSignal::new(None::<Chosen>);
    let map_side = RwSignal::new(Side::Left);
    let pass_map = NodeRef::<leptos::html::Canvas>::new();
    let shot_map = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let list = actions.get();
        let side = map_side.get();
        if let Some(c) = pass_map.get() {
            draw_map(&c, &list, side, false);
        }
        if let Some(c) = shot_map.get() {
            draw_map(&c, &list, side, true);
        }
    });
    let table = move |side: Side| {
        let cell = move |unum: Option<u8>, col: usize| {
            let c = COLUMNS[col];
            let n = count(&actions.get(), side, unum, &c);
            let who = unum.map_or_else(|| "team".to_owned(), |u| u.to_string());
            if n == 0 {
                return view! { <td class="num zero">"0"</td> }.into_any();
            }
            let same = move |c: Option<Chosen>| {
                c.is_some_and(|c| c.side == side && c.unum == unum && c.column == col)
            };
            view! {
                <td class="num">
                    <button
                        class="figure"
                        class:picked=move || same(chosen.get())
                        data-figure=c.id
                        data-player=who.clone()
                        title=format!("{} of {}: list them", c.name, who)
                        on:click=move |_| chosen.set(if same(chosen.get_untracked()) {
                            None
                        } else {
                            Some(Chosen { side, unum, column: col, until: m.index.get_untracked() })
                        })
                    >{n}</button>
                </td>
            }
            .into_any()
        };
        view! {
            <table class="analysis-table" id=format!("analysis-{}", side.letter())>
                <caption class=format!("team {}", if side == Side::Left { "left" } else { "right" })>{move || names.get()[side.index()].clone()}</caption>
                <thead>
                    <tr>
                        <th scope="col">"#"</th>
                        {COLUMNS.iter().map(|c| view! { <th scope="col"><abbr title=c.name>{c.short}</abbr></th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        let list = actions.get();
                        let f = figures(&list);
                        (1..=11u8)
                            .filter(|u| f[side.index()][usize::from(*u) - 1] != PlayerFigures::default())
                            .map(|u| view! {
                                <tr data-unum=u.to_string()>
                                    <th scope="row">{u}</th>
                                    {(0..COLUMNS.len()).map(|col| cell(Some(u), col)).collect_view()}
                                </tr>
                            })
                            .collect_view()
                    }}
                    <tr class="total">
                        <th scope="row">"all"</th>
                        {move || (0..COLUMNS.len()).map(|col| cell(None, col)).collect_view()}
                    </tr>
                </tbody>
            </table>
        }
    };
    let moments = move || {
        let c = chosen.get()?;
        let col = COLUMNS[c.column];
        m.count.track();
        let list: Vec<Action> = actions_until(m, c.until)
            .into_iter()
            .filter(|a| a.side == c.side)
            .filter(|a| match c.unum {
                Some(u) => (col.counts)(a, u),
                None => (1..=11).any(|u| (col.counts)(a, u)),
            })
            .collect();
        let names = names.get();
        let who = match c.unum {
            Some(u) => format!("{} {u}", names[c.side.index()]),
            None => names[c.side.index()].clone(),
        };
        Some(view! {
            <div class="moments">
                <h3>{format!("{} of {who} ({})", col.name, list.len())}</h3>
                <ol id="analysis-moments">
                    {list.into_iter().map(|a| {
                        let text = describe(&a, &names);
                        view! {
                            <li>
                                <button
                                    class="moment"
                                    class:current=move || m.field.action.get() == Some(a)
                                    data-cycle=a.cycle.to_string()
                                    on:click=move |_| show(m, a)
                                >
                                    <span class="cycle">{a.cycle}</span>" "{text}
                                </button>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </div>
        })
    };
    view! {
        {toggle(Panel::Analysis, "analysis-toggle", "What each player did with the ball", "Analysis")}
        <Show when=open>
            <section id="analysis" class="panel analysis" aria-label="Analysis: each player's actions">
                <h2>{move || {
                    let c = m.game.with_value(|g| g.frames.get(m.index.get()).map(|f| f.time)).unwrap_or(0);
                    format!("Analysis up to cycle {c}")
                }}</h2>
                <p class="hint">"Click a figure for its moments, a moment to see it on the field."</p>
                <div class="analysis-tables">
                    {table(Side::Left)}
                    {table(Side::Right)}
                </div>
                {moments}
                <div class="maps">
                    <div class="maps-head">
                        <label for="analysis-map-side">"Maps of "</label>
                        <select id="analysis-map-side" on:change=move |ev| {
                            map_side.set(if event_target_value(&ev) == "r" { Side::Right } else { Side::Left });
                        }>
                            <option value="l">{move || names.get()[0].clone()}</option>
                            <option value="r">{move || names.get()[1].clone()}</option>
                        </select>
                    </div>
                    <figure>
                        <canvas id="pass-map" node_ref=pass_map width="420" height="272"></canvas>
                        <figcaption>"Passes: completed (green), intercepted (red), from kick to receiver"</figcaption>
                    </figure>
                    <figure>
                        <canvas id="shot-map" node_ref=shot_map width="420" height="272"></canvas>
                        <figcaption>"Shots: goal (gold), saved (blue), blocked (grey), missed (red)"</figcaption>
                    </figure>
                </div>
                {definitions(&DEFINITIONS)}
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_analysis::actions::Direction;

    fn pass(side: Side, unum: u8, receiver: u8, completed: bool) -> Action {
        Action {
            kind: ActionKind::Pass {
                receiver,
                completed,
                direction: Direction::Forward,
                through: false,
            },
            side,
            unum,
            cycle: 10,
            frame: 9,
            from: (0.0, 0.0),
            to: Some((10.0, 0.0)),
            end_frame: Some(12),
        }
    }

    #[test]
    fn figures_count_a_players_actions_and_the_goals_he_set_up() {
        let goal = Action {
            kind: ActionKind::Shot {
                on_target: true,
                outcome: ShotOutcome::Goal { assist: Some(7) },
            },
            unum: 9,
            ..pass(Side::Left, 9, 0, true)
        };
        let list = [
            pass(Side::Left, 7, 9, true),
            pass(Side::Left, 7, 3, false),
            goal,
        ];
        let col = |id| COLUMNS.iter().find(|c| c.id == id).copied().unwrap();
        assert_eq!(count(&list, Side::Left, Some(7), &col("passes")), 2);
        assert_eq!(
            count(&list, Side::Left, Some(7), &col("passes_completed")),
            1
        );
        assert_eq!(count(&list, Side::Left, Some(7), &col("assists")), 1);
        assert_eq!(count(&list, Side::Left, Some(9), &col("goals")), 1);
        assert_eq!(count(&list, Side::Left, None, &col("passes")), 2);
        assert_eq!(count(&list, Side::Right, None, &col("passes")), 0);
        let f = figures(&list);
        assert_eq!((f[0][6].passes, f[0][6].assists, f[0][8].goals), (2, 1, 1));
        let names = ["A".to_owned(), "B".to_owned()];
        assert_eq!(
            describe(&list[0], &names),
            "A 7 → 9: pass (completed, forward)"
        );
        assert_eq!(
            describe(&list[1], &names),
            "A 7 → B 3: pass (intercepted, forward)"
        );
        assert_eq!(
            describe(&goal, &names),
            "A 9: shot (goal, on target) (assist 7)"
        );
    }
}
