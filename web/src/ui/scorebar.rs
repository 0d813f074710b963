//! Team names with their logos, score, penalty shoot-out kicks, cycle with stoppage time, and
//! the play mode in words, for the frame on screen.

use crate::state::Monitor;
use leptos::prelude::*;
use rcss_formats::team_graphic::{assemble, Logo};
use rcss_formats::{Frame, PlayMode, Side, Team};
use wasm_bindgen::JsCast;

/// What the score bar shows, taken from the current frame.
#[derive(Clone, Debug, PartialEq, Default)]
struct Header {
    time: u32,
    stime: Option<u32>,
    mode: PlayMode,
    teams: [Team; 2],
}

fn team_name(t: &Team) -> String {
    t.name.clone().unwrap_or_else(|| "—".into())
}

fn penalties(t: &Team) -> String {
    t.penalty
        .map(|p| format!("pen {}/{}", p.scored, p.scored + p.missed))
        .unwrap_or_default()
}

/// The play mode in words, naming the team a `_l`/`_r` mode is for: "free kick HELIOS_L".
pub fn mode_words(mode: PlayMode, teams: &[Team; 2]) -> String {
    let Some(side) = mode.side() else {
        return mode.label();
    };
    let team = teams[side.index()]
        .name
        .clone()
        .unwrap_or_else(|| if side == Side::Left { "left" } else { "right" }.into());
    let base = mode.base_name();
    let words = base.replace('_', " ");
    match base {
        "offside"
        | "foul_charge"
        | "foul_push"
        | "foul_multiple_attack"
        | "foul_ballout"
        | "back_pass"
        | "free_kick_fault"
        | "catch_fault"
        | "illegal_defense" => {
            format!("{words} by {team}")
        }
        "penalty_miss" => format!("penalty missed by {team}"),
        "penalty_score" => format!("penalty scored by {team}"),
        _ => format!("{words} {team}"),
    }
}

/// Every shoot-out kick's outcome up to a frame: `(frame index, side, scored)`.
fn shoot_out(frames: &[Frame]) -> Vec<(usize, Side, bool)> {
    let mut out = Vec::new();
    let mut last = None;
    for (i, f) in frames.iter().enumerate() {
        if last == Some(f.mode) {
            continue;
        }
        last = Some(f.mode);
        match f.mode.name() {
            "penalty_score_l" => out.push((i, Side::Left, true)),
            "penalty_score_r" => out.push((i, Side::Right, true)),
            "penalty_miss_l" => out.push((i, Side::Left, false)),
            "penalty_miss_r" => out.push((i, Side::Right, false)),
            _ => {}
        }
    }
    out
}

/// A team's logo on a small canvas, drawn from the RGBA image the library assembles from the
/// tiles (it resolves X11 colour names such as `gray20`, which CSS does not know).
#[component]
pub fn TeamLogo(side: Side) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let logo = Memo::new(move |_| {
        m.revision.track();
        m.game.with_value(|g| assemble(&g.team_graphics, side))
    });
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        let (
            Some(c),
            Some(Logo {
                width,
                height,
                rgba,
                ..
            }),
        ) = (canvas.get(), logo.get())
        else {
            return;
        };
        c.set_width(width);
        c.set_height(height);
        let Some(ctx) = c
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|x| x.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(&rgba),
            width,
            height,
        ) {
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
        }
    });
    let id = if side == Side::Left {
        "logo-l"
    } else {
        "logo-r"
    };
    view! {
        <Show when=move || logo.with(Option::is_some)>
            <canvas
                class="logo"
                aria-hidden="true"
                id=id
                node_ref=canvas
                data-width=move || logo.with(|l| l.as_ref().map(|l| l.width).unwrap_or(0))
                data-height=move || logo.with(|l| l.as_ref().map(|l| l.height).unwrap_or(0))
            ></canvas>
        </Show>
    }
}

#[component]
pub fn ScoreBar() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let header = Memo::new(move |_| {
        let i = m.index.get();
        m.count.track();
        m.with_frame(i, |fr| Header {
            time: fr.time,
            stime: fr.stime,
            mode: fr.mode,
            teams: fr.teams.clone(),
        })
    });
    let h = move || header.get().unwrap_or_default();
    let kicks = Memo::new(move |_| {
        m.revision.track();
        m.count.track();
        m.game.with_value(|g| shoot_out(&g.frames))
    });
    let dots = move |side: Side| {
        let i = m.index.get();
        kicks.with(|k| {
            k.iter()
                .filter(|(at, s, _)| *at <= i && *s == side)
                .map(|(_, _, scored)| if *scored { '●' } else { '○' })
                .collect::<String>()
        })
    };
    let no_kicks =
        move |side: Side| h().teams[side.index()].penalty.is_none() && dots(side).is_empty();
    view! {
        <header class="scorebar">
            // The page's title for screen readers and the document outline; the bar shows it.
            <h1 class="sr-only" id="match-title">
                {move || { let h = h(); format!("{} against {}", team_name(&h.teams[0]), team_name(&h.teams[1])) }}
            </h1>
            <div class="team left">
                <TeamLogo side=Side::Left/>
                <span class="name" id="team-l" style:color=move || m.colours().left>{move || team_name(&h().teams[0])}</span>
                <span class="score" id="score-l">{move || h().teams[0].score}</span>
                // Hidden until the team's first shoot-out kick, so it takes no room (on a phone
                // it gets a line of its own).
                <span class="pen" id="pen-l" title="penalty shoot-out: ● scored, ○ missed" hidden=move || no_kicks(Side::Left)>
                    {move || penalties(&h().teams[0])}
                    " "
                    <span class="kicks">{move || dots(Side::Left)}</span>
                </span>
            </div>
            <div class="clock">
                <span class="cycle" id="cycle">{move || h().time}</span>
                <span class="stime" id="stime" title="stoppage time">{move || h().stime.map(|s| format!("+{s}")).unwrap_or_default()}</span>
                <span class="playmode" id="playmode">{move || { let h = h(); mode_words(h.mode, &h.teams) }}</span>
            </div>
            <div class="team right">
                <span class="pen" id="pen-r" title="penalty shoot-out: ● scored, ○ missed" hidden=move || no_kicks(Side::Right)>
                    <span class="kicks">{move || dots(Side::Right)}</span>
                    " "
                    {move || penalties(&h().teams[1])}
                </span>
                <span class="score" id="score-r">{move || h().teams[1].score}</span>
                <span class="name" id="team-r" style:color=move || m.colours().right>{move || team_name(&h().teams[1])}</span>
                <TeamLogo side=Side::Right/>
            </div>
        </header>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;

    #[test]
    fn play_modes_name_their_team() {
        let teams = [
            Team {
                name: Some("HELIOS_L".into()),
                ..Team::default()
            },
            Team {
                name: Some("HELIOS_R".into()),
                ..Team::default()
            },
        ];
        let pm = |n: &str| PlayMode::from_name(n.as_bytes()).unwrap();
        assert_eq!(mode_words(pm("free_kick_l"), &teams), "free kick HELIOS_L");
        assert_eq!(
            mode_words(pm("foul_charge_r"), &teams),
            "foul charge by HELIOS_R"
        );
        assert_eq!(mode_words(pm("time_over"), &teams), "time over");
        assert_eq!(mode_words(pm("goal_r"), &teams), "goal HELIOS_R");
    }

    #[test]
    fn shoot_out_kicks_in_order_match_the_final_tally() {
        let g = testutil::penalties();
        let kicks = shoot_out(&g.frames);
        let last = g.final_teams();
        for side in [Side::Left, Side::Right] {
            let mine: Vec<bool> = kicks.iter().filter(|k| k.1 == side).map(|k| k.2).collect();
            let tally = last[side.index()].penalty.unwrap();
            assert_eq!(
                mine.iter().filter(|s| **s).count() as u32,
                tally.scored,
                "{side:?}"
            );
            assert_eq!(
                mine.iter().filter(|s| !**s).count() as u32,
                tally.missed,
                "{side:?}"
            );
        }
    }
}
