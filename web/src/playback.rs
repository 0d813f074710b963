//! Playing an opened file: the clock that advances the frame on screen.

use crate::state::{Mode, Monitor};
use leptos::prelude::*;
use std::time::Duration;

/// One frame per 100 ms, as the server's cycle. Call once from the app; the timer is dropped
/// with it.
pub fn start(m: Monitor) {
    if let Ok(handle) = set_interval_with_handle(
        move || {
            if m.mode.get_untracked() == Mode::File && m.playing.get_untracked() {
                let next = m.index.get_untracked() + 1;
                if next < m.count.get_untracked() {
                    m.index.set(next);
                } else {
                    m.playing.set(false);
                }
            }
        },
        Duration::from_millis(100),
    ) {
        on_cleanup(move || handle.clear());
    }
}
