//! The player panel: everything the frame says about the player selected on the field (click
//! one), what his agent did this cycle (the command counters that moved), and his player
//! type's parameters; below it, the table of every player type with the types in use marked.

use crate::scene::style::team_colour;
use crate::scene::FieldParams;
use crate::state::Monitor;
use leptos::prelude::*;
use rcss_formats::{Counts, Params, Player, Side, ViewQuality};

/// The player-type parameters the table shows, with short headings: the ones heterogeneous
/// types differ in, in the server's order.
const TYPE_COLUMNS: [(&str, &str); 14] = [
    ("player_speed_max", "speed max"),
    ("stamina_inc_max", "stamina inc"),
    ("player_decay", "decay"),
    ("inertia_moment", "inertia"),
    ("dash_power_rate", "dash rate"),
    ("player_size", "size"),
    ("kickable_margin", "kick margin"),
    ("kick_rand", "kick rand"),
    ("extra_stamina", "extra stamina"),
    ("effort_max", "effort max"),
    ("effort_min", "effort min"),
    ("kick_power_rate", "kick power"),
    ("foul_detect_probability", "foul detect"),
    ("catchable_area_l_stretch", "catch stretch"),
];

/// A number as the server would print it, at most 6 significant digits.
fn num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e9 {
        return format!("{v:.0}");
    }
    let digits = (5 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let s = format!("{v:.digits$}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn param(p: &Params, name: &str) -> String {
    match p.get(name) {
        Some(rcss_formats::ParamValue::Int(i)) => i.to_string(),
        Some(rcss_formats::ParamValue::Float(f)) => num(*f),
        Some(rcss_formats::ParamValue::Bool(b)) => b.to_string(),
        Some(rcss_formats::ParamValue::Text(t)) => t.clone(),
        None => "—".into(),
    }
}

/// Everything shown about one player, taken from the frame on screen and the one before.
#[derive(Clone, Debug, PartialEq)]
struct Facts {
    side: Side,
    unum: u8,
    id: String,
    team: String,
    colour: String,
    rows: Vec<(&'static str, String)>,
    states: Vec<&'static str>,
    counts: Vec<(&'static str, u32, bool)>,
    type_id: i16,
    type_params: Vec<(String, String)>,
    typed: bool,
}

fn facts(m: Monitor, side: Side, unum: u8, index: usize) -> Option<Facts> {
    m.game.with_value(|g| {
        let f = g.frames.get(index)?;
        let slot = |fr: &rcss_formats::Frame| -> Option<Player> {
            fr.players
                .iter()
                .find(|p| p.side == Some(side) && p.unum == unum)
                .cloned()
        };
        let p = slot(f)?;
        let before = index
            .checked_sub(1)
            .and_then(|i| g.frames.get(i))
            .and_then(slot);
        let params = FieldParams::of_match(g);
        let colour = team_colour(&m.colours_untracked(), side, p.is_goalie()).css();
        let team = f.teams[side.index()].name.clone().unwrap_or_default();
        let mut rows: Vec<(&'static str, String)> = Vec::new();
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        rows.push(("position", format!("({}, {})", num(x), num(y))));
        let (vx, vy) = (f64::from(p.vx), f64::from(p.vy));
        rows.push((
            "velocity",
            format!("({}, {}) · {} m/cycle", num(vx), num(vy), num(vx.hypot(vy))),
        ));
        let face = f64::from(p.body) + f64::from(p.neck);
        let face = (face + 180.0).rem_euclid(360.0) - 180.0;
        rows.push((
            "body · neck · face",
            format!(
                "{}° · {}° · {}°",
                num(f64::from(p.body)),
                num(f64::from(p.neck)),
                num(face)
            ),
        ));
        if let Some((q, w)) = p.view {
            let q = if q == ViewQuality::High {
                "high"
            } else {
                "low"
            };
            rows.push(("view", format!("{q}, {}°", num(f64::from(w)))));
        }
        if let Some((d, dir)) = p.focus {
            rows.push((
                "focus",
                format!("{} m at {}°", num(f64::from(d)), num(f64::from(dir))),
            ));
        }
        if let Some((px, py)) = p.point {
            rows.push((
                "points to",
                format!("({}, {})", num(f64::from(px)), num(f64::from(py))),
            ));
        }
        if let Some((s, u)) = p.attention {
            rows.push(("attention to", format!("{}{u}", s.letter())));
        }
        if let Some(st) = p.stamina {
            rows.push(("stamina", num(f64::from(st.stamina))));
            rows.push((
                "effort · recovery",
                format!(
                    "{} · {}",
                    num(f64::from(st.effort)),
                    num(f64::from(st.recovery))
                ),
            ));
            if let Some(c) = st.capacity {
                rows.push(("capacity", num(f64::from(c))));
            }
        }
        let ball = (f64::from(f.ball.x), f64::from(f.ball.y));
        let dist = (ball.0 - x).hypot(ball.1 - y);
        let reach = params.kickable_radius(p.player_type);
        rows.push((
            "ball",
            format!(
                "{} m away{}",
                num(dist),
                if dist <= reach { ", kickable" } else { "" }
            ),
        ));
        let counts = p
            .counts
            .map(|c| {
                let prev = before.as_ref().and_then(|b| b.counts);
                (0..usize::from(c.len).min(12))
                    .map(|i| {
                        let moved = prev.is_some_and(|pc| pc.values[i] != c.values[i]);
                        (Counts::NAMES[i], c.values[i], moved)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let t = g
            .player_types
            .iter()
            .find(|t| t.get_f64("id") == Some(f64::from(p.player_type)));
        let type_params = t
            .map(|t| {
                t.entries
                    .iter()
                    .filter(|(n, _)| n != "id")
                    .map(|(n, _)| (n.clone(), param(t, n)))
                    .collect()
            })
            .unwrap_or_default();
        Some(Facts {
            side,
            unum,
            id: format!("{}{unum}", side.letter()),
            team,
            colour,
            rows,
            states: rcss_formats::state::names(p.state).collect(),
            counts,
            type_id: p.player_type,
            type_params,
            typed: t.is_some(),
        })
    })
}

/// `l7` or `r11` as the picker writes them.
fn parse_player(v: &str) -> Option<(Side, u8)> {
    let side = match v.get(..1)? {
        "l" => Side::Left,
        "r" => Side::Right,
        _ => return None,
    };
    let unum: u8 = v.get(1..)?.parse().ok()?;
    (1..=11).contains(&unum).then_some((side, unum))
}

#[component]
pub fn PlayerPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let open = RwSignal::new(false);
    // Selecting a player opens the panel.
    Effect::new(move |prev: Option<Option<(Side, u8)>>| {
        let sel = m.field.selected.get();
        if sel.is_some() && prev.is_some() && prev != Some(sel) {
            open.set(true);
        }
        sel
    });
    let shown = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        m.revision.track();
        let (side, unum) = m.field.selected.get()?;
        facts(m, side, unum, i)
    });
    view! {
        <button id="player-toggle" class="panel-toggle" class:on=move || open.get() on:click=move |_| open.update(|o| *o = !*o)>
            {move || match m.field.selected.get() {
                Some((s, u)) => format!("Player {}{u}", s.letter()),
                None => "Player".into(),
            }}
        </button>
        <Show when=move || open.get()>
            <section id="player-panel" class="panel player" data-player=move || shown.get().map(|f| f.id).unwrap_or_default()>
                // The keyboard's way to what a click on the field does.
                <label class="setting">
                    "Player "
                    <select
                        id="player-select"
                        prop:value=move || m.field.selected.get().map(|(s, u)| format!("{}{u}", s.letter())).unwrap_or_default()
                        on:change=move |ev| m.field.selected.set(parse_player(&event_target_value(&ev)))
                    >
                        <option value="">"none"</option>
                        {[Side::Left, Side::Right].into_iter().flat_map(|side| (1..=11u8).map(move |u| {
                            let v = format!("{}{u}", side.letter());
                            let text = format!("{} {u}", if side == Side::Left { "left" } else { "right" });
                            view! { <option value=v>{text}</option> }
                        })).collect_view()}
                    </select>
                </label>
                {move || match shown.get() {
                    None => view! {
                        <p class="hint">"Click a player on the field, or pick one above, to see him here (Esc deselects)."</p>
                    }.into_any(),
                    Some(f) => {
                        let colour = format!("background:{}", f.colour);
                        view! {
                            <h2>
                                <span class="swatch" style=colour></span>
                                <span id="player-id">{f.id.clone()}</span>
                                " "
                                <span class="muted">{format!("{} · type {}", f.team, f.type_id)}</span>
                            </h2>
                            <div class="states">
                                {f.states.iter().map(|s| view! { <span class=format!("state state-{s}")>{*s}</span> }).collect_view()}
                            </div>
                            <dl class="facts">
                                {f.rows.iter().map(|(k, v)| view! { <dt>{*k}</dt><dd>{v.clone()}</dd> }).collect_view()}
                            </dl>
                            <PlayerActions side=f.side unum=f.unum/>
                            <Show when={let has = !f.counts.is_empty(); move || has}>
                                <h3>"Commands (highlighted: sent this cycle)"</h3>
                            </Show>
                            <div class="counts">
                                {f.counts.iter().map(|(n, v, moved)| view! {
                                    <span class="count" class:moved=*moved><b>{*v}</b>" "{*n}</span>
                                }).collect_view()}
                            </div>
                            <h3>{format!("Player type {}", f.type_id)}</h3>
                            {if f.typed {
                                view! {
                                    <dl class="facts type-params">
                                        {f.type_params.iter().map(|(k, v)| view! { <dt>{k.clone()}</dt><dd>{v.clone()}</dd> }).collect_view()}
                                    </dl>
                                }.into_any()
                            } else {
                                view! { <p class="hint">"The source sends no player types: drawn with rcssserver 19's default type."</p> }.into_any()
                            }}
                        }.into_any()
                    }
                }}
                <TypeTable/>
            </section>
        </Show>
    }
}

/// The player's figures from the analysis ([`crate::ui::analysis`]) up to the frame on
/// screen; each opens his moments there.
#[component]
fn PlayerActions(side: Side, unum: u8) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let figures = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        let list = crate::ui::analysis::actions_until(m, i);
        crate::ui::analysis::COLUMNS
            .iter()
            .map(|c| {
                (
                    c.name,
                    crate::ui::analysis::count(&list, side, Some(unum), c),
                )
            })
            .filter(|(_, n)| *n > 0)
            .collect::<Vec<_>>()
    });
    view! {
        <Show when=move || !figures.get().is_empty()>
            <h3>"With the ball so far"</h3>
            <div class="counts player-actions" id="player-actions">
                {move || figures.get().into_iter().map(|(name, n)| view! {
                    <span class="count"><b>{n}</b>" "{name}</span>
                }).collect_view()}
            </div>
        </Show>
    }
}

/// Every player type of the match, with who plays each one in the frame on screen.
#[component]
fn TypeTable() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let rows = Memo::new(move |_| {
        m.revision.track();
        let i = m.index.get();
        m.count.track();
        let selected = m.field.selected.get();
        m.game.with_value(|g| {
            let in_use = |id: f64| -> (Vec<String>, bool) {
                let f = g.frames.get(i);
                let users: Vec<String> = f
                    .map(|f| {
                        f.players
                            .iter()
                            .filter(|p| p.state != 0 && f64::from(p.player_type) == id)
                            .filter_map(|p| Some(format!("{}{}", p.side?.letter(), p.unum)))
                            .collect()
                    })
                    .unwrap_or_default();
                let mine = selected.is_some_and(|(s, u)| {
                    f.and_then(|f| f.players.iter().find(|p| p.side == Some(s) && p.unum == u))
                        .is_some_and(|p| f64::from(p.player_type) == id)
                });
                (users, mine)
            };
            let ball_size = FieldParams::of_match(g).ball_size;
            g.player_types
                .iter()
                .map(|t| {
                    let id = t.get_f64("id").unwrap_or(-1.0);
                    let (users, mine) = in_use(id);
                    let cells: Vec<String> =
                        TYPE_COLUMNS.iter().map(|(n, _)| param(t, n)).collect();
                    let kick = t.get_f64("player_size").unwrap_or(0.3)
                        + t.get_f64("kickable_margin").unwrap_or(0.7)
                        + ball_size;
                    (num(id), cells, num(kick), users, mine)
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <details class="types" open=false>
            <summary>{move || format!("All player types ({})", rows.with(Vec::len))}</summary>
            <Show when=move || rows.with(|r| !r.is_empty()) fallback=|| view! { <p class="hint">"The source sends no player types."</p> }>
                <div class="table-scroll">
                    <table id="player-types">
                        <thead>
                            <tr>
                                <th>"id"</th>
                                {TYPE_COLUMNS.iter().map(|(_, h)| view! { <th>{*h}</th> }).collect_view()}
                                <th>"kickable"</th>
                                <th>"in use"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || rows.get().into_iter().map(|(id, cells, kick, users, mine)| view! {
                                <tr class:used=!users.is_empty() class:mine=mine>
                                    <td>{id}</td>
                                    {cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                                    <td>{kick}</td>
                                    <td class="users">{users.join(" ")}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </Show>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_names_players_as_side_and_number() {
        assert_eq!(parse_player("l7"), Some((Side::Left, 7)));
        assert_eq!(parse_player("r11"), Some((Side::Right, 11)));
        assert_eq!(parse_player(""), None);
        assert_eq!(parse_player("l12"), None);
        assert_eq!(parse_player("x1"), None);
        assert_eq!(parse_player("lé"), None);
    }

    #[test]
    fn numbers_print_like_the_server() {
        assert_eq!(num(8000.0), "8000");
        assert_eq!(num(0.800302), "0.800302");
        assert_eq!(num(-50.0706), "-50.0706");
        assert_eq!(num(1.29959), "1.29959");
        assert_eq!(num(0.00640553), "0.006406");
    }
}
