//! The match's events (from the library's [`pitchside_analysis::events`]): the list to click,
//! and jumps to the next or previous goal or event (`G`, `N`, with Shift backwards). A jump
//! lands on the event's first frame, the first cycle where it shows.
//!
//! Event kinds the user hid in the settings are left out of the list, the timeline and the
//! `N` jumps; goals are always reachable with `G`.

use crate::settings::Panel;
use crate::state::Monitor;
use crate::ui::panel::toggle;
use leptos::prelude::*;
use pitchside_analysis::actions::{Action, ActionKind};
use pitchside_analysis::events::{Event, EventKind};
use rcss_formats::Side;

/// Every event kind a match can have, in the order the settings list them: `(id, label)`.
/// The last ones are players' actions ([`pitchside_analysis::actions`]) worth a marker.
pub const KINDS: [(&str, &str); 23] = [
    ("goal", "goals"),
    ("kick_off", "kick-offs"),
    ("half_time", "half time"),
    ("full_time", "full time"),
    ("foul", "fouls"),
    ("free_kick", "free kicks"),
    ("yellow_card", "yellow cards"),
    ("red_card", "red cards"),
    ("kick_in", "kick-ins"),
    ("corner_kick", "corner kicks"),
    ("goal_kick", "goal kicks"),
    ("offside", "offsides"),
    ("back_pass", "back passes"),
    ("free_kick_fault", "free-kick faults"),
    ("catch_fault", "catch faults"),
    ("illegal_defense", "illegal defense"),
    ("drop_ball", "drop balls"),
    ("penalty_kick", "penalty kicks"),
    ("shoot_out_kick", "shoot-out kicks"),
    ("player_off", "players off the field"),
    ("shot", "shots"),
    ("through_pass", "through passes"),
    ("tackle", "tackles won"),
];

/// The id of an action's marker, for the actions the timeline marks.
fn action_marker(a: &Action) -> Option<&'static str> {
    match a.kind {
        ActionKind::Shot { .. } => Some("shot"),
        ActionKind::Pass { through: true, .. } => Some("through_pass"),
        ActionKind::Tackle { won: true } => Some("tackle"),
        _ => None,
    }
}

/// Which events a jump considers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Goals,
    /// Every event whose kind is not hidden.
    Shown,
}

fn wanted(e: &Event, which: Which, hidden: &[String]) -> bool {
    match which {
        Which::Goals => matches!(e.kind, EventKind::Goal { .. }),
        Which::Shown => !hidden.iter().any(|h| h == e.kind.id()),
    }
}

/// The first frame of the next wanted event after frame `at` (strictly later, so that
/// pressing again moves on), or of the previous one before it.
pub fn jump_target(
    events: &[Event],
    at: usize,
    forward: bool,
    which: Which,
    hidden: &[String],
) -> Option<usize> {
    let frames = events
        .iter()
        .filter(|e| wanted(e, which, hidden))
        .map(|e| e.frame);
    if forward {
        frames.filter(|&f| f > at).min()
    } else {
        frames.filter(|&f| f < at).max()
    }
}

/// Jumps to the next (`forward`) or previous goal or event, pausing there.
pub fn jump(m: Monitor, which: Which, forward: bool) {
    let at = m.index.get_untracked();
    let hidden = m
        .settings
        .with_untracked(|s| s.timeline.hidden_kinds.clone());
    let target = m.analysis.with_value(|a| {
        a.as_ref()
            .and_then(|s| jump_target(s.events().events(), at, forward, which, &hidden))
    });
    if let Some(f) = target {
        m.seek(f);
    }
}

/// One event as the list and the timeline show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub cycle: u32,
    pub frame: usize,
    pub kind: &'static str,
    pub side: Option<Side>,
    /// "goal for HELIOS_R 11", "half time".
    pub text: String,
}

/// The events of the match on screen the settings let through, in frame order.
pub fn shown_events(m: Monitor) -> Vec<Shown> {
    let hidden = m.settings.with(|s| s.timeline.hidden_kinds.clone());
    m.analysis.with_value(|a| {
        let Some(stats) = a else { return Vec::new() };
        let events = stats.events();
        let names = events.team_names();
        let names = [names[0].unwrap_or("left"), names[1].unwrap_or("right")];
        let mut out: Vec<Shown> = events
            .events()
            .iter()
            .filter(|e| wanted(e, Which::Shown, &hidden))
            .map(|e| Shown {
                cycle: e.cycle,
                frame: e.frame,
                kind: e.kind.id(),
                side: e.side,
                text: e.describe(names),
            })
            .collect();
        let owned = [names[0].to_owned(), names[1].to_owned()];
        out.extend(stats.actions().actions().iter().filter_map(|a| {
            let kind = action_marker(a)?;
            (!hidden.iter().any(|h| h == kind)).then(|| Shown {
                cycle: a.cycle,
                frame: a.frame,
                kind,
                side: Some(a.side),
                text: crate::ui::analysis::describe(a, &owned),
            })
        }));
        // Actions settle after they began: merged in frame order, events first in a frame.
        out.sort_by_key(|e| e.frame);
        out
    })
}

pub fn side_class(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::Left) => "left",
        Some(Side::Right) => "right",
        None => "",
    }
}

/// The events of the match on screen, as a memo that follows new frames and the settings.
pub fn events_memo(m: Monitor) -> Memo<Vec<Shown>> {
    Memo::new(move |_| {
        m.count.track();
        m.revision.track();
        shown_events(m)
    })
}

/// The list of events beside the field; the one before or at the frame on screen is marked.
#[component]
pub fn EventList() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let list = events_memo(m);
    // The last event at or before the frame on screen.
    let current = Memo::new(move |_| {
        let i = m.index.get();
        list.with(|l| l.iter().rposition(|e| e.frame <= i))
    });
    let open = move || m.settings.with(|s| s.timeline.events_panel);
    view! {
        {toggle(
            Panel::Events,
            "events-toggle",
            "The match's events (N / Shift+N: next / previous)",
            move || format!("Events ({})", list.with(Vec::len)),
        )}
        <Show when=open>
            <section id="events" class="panel events">
                <h2>"Events"</h2>
                <ol class="event-list">
                    {move || {
                        list.get()
                            .into_iter()
                            .enumerate()
                            .map(|(n, e)| {
                                let frame = e.frame;
                                view! {
                                    <li
                                        class=format!("event {} {}", e.kind, side_class(e.side))
                                        class:current=move || current.get() == Some(n)
                                        data-cycle=e.cycle.to_string()
                                    >
                                        <button on:click=move |_| m.seek(frame)>
                                            <span class="cycle">{e.cycle}</span>
                                            <span class="swatch"></span>
                                            <span class="text">{e.text}</span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ol>
                <p class="hint">"G / Shift+G: next / previous goal. N / Shift+N: next / previous event."</p>
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_analysis::stats::Stats;
    use rcss_formats::parse_log;

    fn full_game() -> (rcss_formats::Match, Stats) {
        let gz = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz"
        ))
        .unwrap();
        let game = parse_log(&gz);
        let stats = Stats::of_match(&game);
        (game, stats)
    }

    #[test]
    fn next_goal_visits_every_goal_of_the_full_game_and_back() {
        let (game, stats) = full_game();
        let events = stats.events().events();
        let mut at = 0;
        let mut cycles = Vec::new();
        while let Some(f) = jump_target(events, at, true, Which::Goals, &[]) {
            cycles.push(game.frames[f].time);
            assert!(
                f == 0 || game.frames[f - 1].mode != game.frames[f].mode,
                "first frame of the goal"
            );
            at = f;
        }
        assert_eq!(cycles, [272, 1863, 3166, 3456, 4871]);
        let mut back = Vec::new();
        while let Some(f) = jump_target(events, at, false, Which::Goals, &[]) {
            back.push(game.frames[f].time);
            at = f;
        }
        assert_eq!(back, [3456, 3166, 1863, 272]);
    }

    #[test]
    fn next_event_skips_hidden_kinds() {
        let (_, stats) = full_game();
        let events = stats.events().events();
        let all: Vec<&str> = {
            let mut at = 0;
            let mut kinds = Vec::new();
            while let Some(f) = jump_target(events, at, true, Which::Shown, &[]) {
                kinds.extend(events.iter().filter(|e| e.frame == f).map(|e| e.kind.id()));
                at = f;
            }
            kinds
        };
        assert!(all.contains(&"goal") && all.contains(&"kick_in"), "{all:?}");
        let hidden: Vec<String> = KINDS
            .iter()
            .map(|k| k.0.to_owned())
            .filter(|k| k != "goal")
            .collect();
        let mut at = 0;
        let mut n = 0;
        while let Some(f) = jump_target(events, at, true, Which::Shown, &hidden) {
            assert!(events.iter().any(|e| e.frame == f && e.kind.id() == "goal"));
            at = f;
            n += 1;
        }
        assert_eq!(n, 5, "with every other kind hidden, N visits the goals");
        // Every kind the library names is one the settings can hide.
        for e in events {
            assert!(KINDS.iter().any(|k| k.0 == e.kind.id()), "{}", e.kind.id());
        }
    }
}
