//! Event markers on the timeline, placed by cycle under the seek slider, coloured by kind and
//! team, each with its event in words as a tooltip; a click jumps to the event's first frame.

use crate::state::Monitor;
use crate::ui::events::side_class;
use leptos::prelude::*;

/// Where a cycle sits along a slider covering `first..=last`, in percent.
pub fn position(cycle: u32, first: u32, last: u32) -> f64 {
    if last <= first {
        return 0.0;
    }
    (f64::from(cycle.saturating_sub(first)) / f64::from(last - first) * 100.0).clamp(0.0, 100.0)
}

#[component]
pub fn Markers(range: Memo<(u32, u32)>) -> impl IntoView {
    let m = expect_context::<Monitor>();
    let events = crate::ui::events::events_memo(m);
    let on = move || m.settings.with(|s| s.timeline.markers);
    view! {
        <div class="markers" id="markers">
            {move || {
                if !on() {
                    return Vec::new();
                }
                let (first, last) = range.get();
                events
                    .get()
                    .into_iter()
                    .map(|e| {
                        let frame = e.frame;
                        view! {
                            <button
                                class=format!("marker {} {}", e.kind, side_class(e.side))
                                style=format!("left: {:.3}%", position(e.cycle, first, last))
                                title=format!("{}: {}", e.cycle, e.text)
                                data-cycle=e.cycle.to_string()
                                tabindex="-1"
                                on:click=move |_| m.seek(frame)
                            ></button>
                        }
                    })
                    .collect::<Vec<_>>()
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
