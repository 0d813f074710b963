//! The export panel: the frame on screen as a PNG, a range of cycles as a WebM video, and the
//! log itself rewritten or validated ([`super::save_as`]).

use crate::export::{self, ExportState};
use crate::state::{Monitor, Overlay};
use crate::timeline::speed_label;
use crate::ui::inputs::cycle_box;
use leptos::prelude::*;
use pitchside_analysis::broadcast::highlights::{reel, reel_frames, Clip, ClipKind};

#[component]
pub fn ExportPanel() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let state = RwSignal::from(export::state());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    // Each time the panel opens, the range starts at the cycle on screen and spans 100 cycles.
    Effect::new(move |_| {
        if m.overlay.get() == Overlay::Export {
            let here = m.cycle_at(m.index.get_untracked()).unwrap_or(0);
            let last = m.cycles.with_value(|ix| ix.last_cycle()).unwrap_or(here);
            from.set(here.to_string());
            to.set(here.saturating_add(100).min(last.max(here)).to_string());
        }
    });
    let record = move |_| {
        let (Ok(a), Ok(b)) = (
            from.get_untracked().trim().parse::<u32>(),
            to.get_untracked().trim().parse::<u32>(),
        ) else {
            state.set(ExportState::Failed(
                "give the first and last cycle as numbers".into(),
            ));
            return;
        };
        export::record_clip(m, a, b);
    };
    let seconds = move || {
        let (a, b) = (
            from.get().trim().parse::<u32>().unwrap_or(0),
            to.get().trim().parse::<u32>().unwrap_or(0),
        );
        let speed = m.settings.with(|s| s.playback.speed);
        f64::from(a.abs_diff(b)) * 0.1 / speed
    };
    view! {
        <Show when=move || m.overlay.get() == Overlay::Export>
            // A drawer, not a modal: the pitch stays in view while a clip records.
            <section id="export-panel" class="dialog drawer" role="dialog" aria-label="Export">
                    <button class="close" title="Close (Esc)" on:click=move |_| m.overlay.set(Overlay::None)>"×"</button>
                    <h2>"Export"</h2>
                    <fieldset>
                        <legend>"Picture"</legend>
                        <button id="export-png" on:click=move |_| export::save_png(m)>"Save this frame as PNG"</button>
                    </fieldset>
                    <fieldset>
                        <legend>"Video clip (WebM)"</legend>
                        {cycle_box("from cycle ", "clip-from", from)}
                        {cycle_box("to cycle ", "clip-to", to)}
                        <Show
                            when=move || matches!(state.get(), ExportState::Recording { .. })
                            fallback=move || view! {
                                <button id="export-clip" on:click=record disabled=move || !export::clips_supported()>
                                    "Record clip"
                                </button>
                            }
                        >
                            <button id="export-stop" on:click=move |_| m.pause()>"Stop and save"</button>
                        </Show>
                        <div class="hint">
                            {move || format!(
                                "The clip plays on the page while it records, at the current speed ({}): about {:.0} s.",
                                speed_label(m.settings.with(|s| s.playback.speed)),
                                seconds().ceil()
                            )}
                        </div>
                    </fieldset>
                    <HighlightsSection/>
                    <div id="export-status" class="export-status" role="status"
                        data-bytes=move || match state.get() { ExportState::Saved { bytes, .. } => bytes.to_string(), _ => String::new() }>
                        {move || match state.get() {
                            ExportState::Idle => String::new(),
                            ExportState::Recording { from, to } => format!("recording cycles {from} to {to}…"),
                            ExportState::Saved { name, bytes } => format!("saved {name} ({:.0} KB)", bytes / 1024.0),
                            ExportState::Failed(why) => format!("not saved: {why}"),
                        }}
                    </div>
                    <super::save_as::SaveAsSection/>
            </section>
        </Show>
    }
}

/// The match's highlights (every goal with its build-up, the best chances), as the library
/// finds them from the frames so far.
pub fn highlights(m: Monitor) -> Vec<Clip> {
    m.analysis.with_value(|a| {
        m.game.with_value(|g| {
            a.as_ref()
                .map(|s| reel(s.actions(), &g.frames))
                .unwrap_or_default()
        })
    })
}

/// Plays the highlights on the page, or records them as one WebM.
#[component]
fn HighlightsSection() -> impl IntoView {
    let m = expect_context::<Monitor>();
    let clips = Memo::new(move |_| {
        m.count.track();
        highlights(m)
    });
    let summary = move || {
        let c = clips.get();
        // Goals counted as goals, not clips: two goals close together share one clip.
        let goals = m.analysis.with_value(|a| {
            a.as_ref()
                .map_or(0, |s| s.actions().events().goals().count())
        });
        let chances = c.iter().filter(|c| c.kind == ClipKind::Chance).count();
        let speed = m.settings.with(|s| s.playback.speed);
        format!(
            "{goals} goal{} and {chances} chance{}: about {:.0} s at {}.",
            if goals == 1 { "" } else { "s" },
            if chances == 1 { "" } else { "s" },
            reel_frames(&c) as f64 * 0.1 / speed,
            speed_label(speed)
        )
    };
    let ranges = move || {
        clips
            .get_untracked()
            .iter()
            .map(|c| (c.from, c.to))
            .collect::<Vec<_>>()
    };
    view! {
        <fieldset>
            <legend>"Highlights"</legend>
            <p class="hint" id="highlights-summary">{summary}</p>
            <button id="highlights-play" disabled=move || clips.with(Vec::is_empty)
                on:click=move |_| export::play_reel(m, ranges(), false)>"Play highlights"</button>
            <button id="highlights-record" disabled=move || clips.with(Vec::is_empty) || !export::clips_supported()
                on:click=move |_| export::play_reel(m, ranges(), true)>"Record highlights (WebM)"</button>
        </fieldset>
    }
}
