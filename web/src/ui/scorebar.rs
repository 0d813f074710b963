//! Team names, score, penalty tally, cycle and play mode of the frame on screen.

use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_shared::{PlayMode, Team};

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
    view! {
        <header class="scorebar">
            <div class="team left">
                <span class="name" id="team-l">{move || team_name(&h().teams[0])}</span>
                <span class="score" id="score-l">{move || h().teams[0].score}</span>
                <span class="pen" id="pen-l">{move || penalties(&h().teams[0])}</span>
            </div>
            <div class="clock">
                <span class="cycle" id="cycle">{move || h().time}</span>
                <span class="stime">{move || h().stime.map(|s| format!("+{s}")).unwrap_or_default()}</span>
                <span class="playmode" id="playmode">{move || h().mode.label()}</span>
            </div>
            <div class="team right">
                <span class="pen" id="pen-r">{move || penalties(&h().teams[1])}</span>
                <span class="score" id="score-r">{move || h().teams[1].score}</span>
                <span class="name" id="team-r">{move || team_name(&h().teams[1])}</span>
            </div>
        </header>
    }
}
