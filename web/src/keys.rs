//! Keyboard shortcuts: one table, which both the key handler and the help text read.

use crate::state::Monitor;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What a shortcut does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    PlayPause,
    StepForward,
    StepBack,
    JumpForward,
    JumpBack,
    First,
    Last,
    /// The field's own shortcuts (zoom, follow, flip, selection), run by [`crate::ui::canvas`].
    Field(FieldAction),
}

/// What the field's shortcuts do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldAction {
    ZoomIn,
    ZoomOut,
    Fit,
    FollowBall,
    FollowSelected,
    Flip,
    Deselect,
    Interpolation,
}

/// A key (as `KeyboardEvent.key` names it), whether Shift is held, and what it does.
pub struct Shortcut {
    pub key: &'static str,
    pub shift: bool,
    pub action: Action,
    /// How the help overlay names it.
    pub label: &'static str,
    pub help: &'static str,
}

pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        key: " ",
        shift: false,
        action: Action::PlayPause,
        label: "Space",
        help: "play / pause (live: pause on a frame, again to follow the match)",
    },
    Shortcut {
        key: "ArrowRight",
        shift: false,
        action: Action::StepForward,
        label: "→",
        help: "one cycle forward",
    },
    Shortcut {
        key: "ArrowLeft",
        shift: false,
        action: Action::StepBack,
        label: "←",
        help: "one cycle back",
    },
    Shortcut {
        key: "ArrowRight",
        shift: true,
        action: Action::JumpForward,
        label: "Shift+→",
        help: "100 cycles forward",
    },
    Shortcut {
        key: "ArrowLeft",
        shift: true,
        action: Action::JumpBack,
        label: "Shift+←",
        help: "100 cycles back",
    },
    Shortcut {
        key: "Home",
        shift: false,
        action: Action::First,
        label: "Home",
        help: "first frame",
    },
    Shortcut {
        key: "End",
        shift: false,
        action: Action::Last,
        label: "End",
        help: "last frame",
    },
    // ---- the field (issue 12) ----
    Shortcut {
        key: "+",
        shift: true,
        action: Action::Field(FieldAction::ZoomIn),
        label: "+",
        help: "zoom in",
    },
    Shortcut {
        key: "+",
        shift: false,
        action: Action::Field(FieldAction::ZoomIn),
        label: "numpad +",
        help: "zoom in",
    },
    Shortcut {
        key: "=",
        shift: false,
        action: Action::Field(FieldAction::ZoomIn),
        label: "=",
        help: "zoom in",
    },
    Shortcut {
        key: "-",
        shift: false,
        action: Action::Field(FieldAction::ZoomOut),
        label: "−",
        help: "zoom out",
    },
    Shortcut {
        key: "0",
        shift: false,
        action: Action::Field(FieldAction::Fit),
        label: "0",
        help: "whole field",
    },
    Shortcut {
        key: "f",
        shift: false,
        action: Action::Field(FieldAction::FollowBall),
        label: "F",
        help: "follow the ball (again: stop)",
    },
    Shortcut {
        key: "F",
        shift: true,
        action: Action::Field(FieldAction::FollowSelected),
        label: "Shift+F",
        help: "follow the selected player",
    },
    Shortcut {
        key: "R",
        shift: true,
        action: Action::Field(FieldAction::Flip),
        label: "Shift+R",
        help: "view from the other side",
    },
    Shortcut {
        key: "Escape",
        shift: false,
        action: Action::Field(FieldAction::Deselect),
        label: "Esc",
        help: "deselect the player",
    },
    Shortcut {
        key: "i",
        shift: false,
        action: Action::Field(FieldAction::Interpolation),
        label: "I",
        help: "smooth motion on / off",
    },
];

/// The shortcut for a key press, if any.
pub fn lookup(key: &str, shift: bool) -> Option<Action> {
    SHORTCUTS
        .iter()
        .find(|s| s.key == key && s.shift == shift)
        .map(|s| s.action)
}

pub fn run(m: Monitor, action: Action) {
    match action {
        Action::PlayPause => m.toggle_play(),
        Action::StepForward => m.step(1),
        Action::StepBack => m.step(-1),
        Action::JumpForward => m.step(100),
        Action::JumpBack => m.step(-100),
        Action::First => m.step(i64::MIN / 2),
        Action::Last => m.step(i64::MAX / 2),
        Action::Field(a) => crate::ui::canvas::run(m, a),
    }
}

/// Listens for shortcuts on the whole page, except while the user types in a text field.
pub fn listen(m: Monitor) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        let typing = ev.target().is_some_and(|t| {
            t.dyn_ref::<web_sys::HtmlInputElement>()
                .is_some_and(|i| i.type_() != "range" && i.type_() != "checkbox")
                || t.dyn_ref::<web_sys::HtmlTextAreaElement>().is_some()
        });
        if typing || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        if let Some(action) = lookup(&ev.key(), ev.shift_key()) {
            ev.prevent_default();
            run(m, action);
        }
    });
    on_cleanup(move || handle.remove());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_combination_means_one_thing() {
        for (i, a) in SHORTCUTS.iter().enumerate() {
            for b in &SHORTCUTS[i + 1..] {
                assert!(
                    !(a.key == b.key && a.shift == b.shift),
                    "{} is bound twice",
                    a.label
                );
            }
        }
        assert_eq!(lookup("ArrowLeft", true), Some(Action::JumpBack));
        assert_eq!(lookup("x", false), None);
    }
}
