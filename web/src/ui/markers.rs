//! Event markers on the timeline, placed by cycle over the seek slider; a click jumps to the
//! event's first cycle.

use crate::state::Monitor;
use leptos::prelude::*;
use pitchside_shared::Side;

/// One marker: where, what, and how it reads in its tooltip.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub cycle: u32,
    /// Stable kind id, used as a CSS class (`goal`, `foul`, …).
    pub kind: &'static str,
    pub side: Option<Side>,
    pub title: String,
}

/// Where a cycle sits along a slider covering `first..=last`, in percent.
pub fn position(cycle: u32, first: u32, last: u32) -> f64 {
    if last <= first {
        return 0.0;
    }
    (f64::from(cycle.saturating_sub(first)) / f64::from(last - first) * 100.0).clamp(0.0, 100.0)
}

/// The markers of the match on screen.
fn markers(m: Monitor) -> Vec<Marker> {
    m.game.with_value(|g| {
        g.goals()
            .into_iter()
            .map(|(cycle, side)| Marker {
                cycle,
                kind: "goal",
                side: Some(side),
                title: format!("cycle {cycle}: goal {}", side.letter()),
            })
            .collect()
    })
}

#[component]
pub fn Markers(range: Memo<(u32, u32)>) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let list = Memo::new(move |_| {
        m.count.track();
        m.revision.track();
        if m.settings.with(|s| s.timeline.markers) {
            markers(m)
        } else {
            Vec::new()
        }
    });
    view! {
        <div class="markers" aria-hidden="true">
            {move || {
                let (first, last) = range.get();
                list.get()
                    .into_iter()
                    .map(|mk| {
                        let side = match mk.side {
                            Some(Side::Left) => "left",
                            Some(Side::Right) => "right",
                            None => "",
                        };
                        let cycle = mk.cycle;
                        view! {
                            <button
                                class=format!("marker {} {side}", mk.kind)
                                style=format!("left: {:.3}%", position(mk.cycle, first, last))
                                title=mk.title
                                data-cycle=cycle.to_string()
                                tabindex="-1"
                                on:click=move |_| m.seek_cycle(cycle)
                            ></button>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_sit_where_their_cycle_is() {
        assert_eq!(position(1, 1, 6000), 0.0);
        assert_eq!(position(6000, 1, 6000), 100.0);
        assert!((position(3000, 1, 6000) - 49.99).abs() < 0.01);
        assert_eq!(position(5, 5, 5), 0.0);
        assert_eq!(position(9000, 1, 6000), 100.0);
    }
}
