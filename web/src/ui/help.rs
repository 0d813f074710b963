//! The help overlay (`?`): every keyboard shortcut, read from the one table in
//! [`crate::keys::SHORTCUTS`], and the mouse gestures.

use crate::keys::SHORTCUTS;
use crate::state::{Monitor, Overlay};
use leptos::prelude::*;

#[component]
pub fn Help() -> impl IntoView {
    let m = expect_context::<Monitor>();
    view! {
        <Show when=move || m.overlay.get() == Overlay::Help>
            <div class="overlay" on:click=move |_| m.overlay.set(Overlay::None)>
                <section
                    id="help"
                    class="dialog"
                    role="dialog"
                    aria-label="Keyboard shortcuts"
                    on:click=|ev| ev.stop_propagation()
                >
                    <button class="close" title="Close (Esc)" on:click=move |_| m.overlay.set(Overlay::None)>"×"</button>
                    <h2>"Keyboard shortcuts"</h2>
                    <table class="keys">
                        <tbody>
                            {SHORTCUTS
                                .iter()
                                .map(|s| view! {
                                    <tr><td><kbd>{s.label}</kbd></td><td>{s.help}</td></tr>
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                    <h3>"Mouse"</h3>
                    <ul class="gestures">
                        <li>"Drop a .rcg or .rcg.gz file anywhere on the page to replay it."</li>
                        <li>"Drag the timeline to move in cycles; click a marker to jump to its event."</li>
                        <li>"Type a cycle in the cycle box and press Enter to go there."</li>
                        <li>"The address always holds the cycle on screen: copy it to send someone to this moment."</li>
                    </ul>
                </section>
            </div>
        </Show>
    }
}
