//! The help overlay (`?`): every keyboard shortcut, read from the one table in
//! [`crate::keys::SHORTCUTS`], and the mouse gestures.

use crate::keys::SHORTCUTS;
use crate::state::Overlay;
use crate::ui::dialog::Dialog;
use leptos::prelude::*;

#[component]
pub fn Help() -> impl IntoView {
    view! {
        <Dialog which=Overlay::Help id="help" title="Keyboard shortcuts">
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
        </Dialog>
    }
}
