//! Keyboard shortcuts: one table, which both the key handler and the help overlay read.
//!
//! Letters are matched whatever the Caps Lock state (`G` and `Shift+G` differ by `shift`);
//! other printable keys (`?`, `[`) are matched by the character alone, since which of them
//! need Shift depends on the keyboard layout.

use crate::state::{Monitor, Overlay};
use crate::ui::events::{self, Which};
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
    /// Plays backward, or forward again.
    Reverse,
    Slower,
    Faster,
    /// Puts the cursor in the cycle box.
    GoToCycle,
    CopyLink,
    SavePng,
    OpenPanel,
    Help,
    /// Closes whatever overlay or panel is on top.
    Close,
    NextGoal,
    PreviousGoal,
    NextEvent,
    PreviousEvent,
    /// The field's own shortcuts (zoom, follow, flip, selection), run by [`crate::ui::canvas`].
    Field(FieldAction),
}

pub use crate::ui::drawn::FieldAction;

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
        help: "last frame (live: back to live)",
    },
    Shortcut {
        key: "g",
        shift: false,
        action: Action::NextGoal,
        label: "G",
        help: "next goal",
    },
    Shortcut {
        key: "g",
        shift: true,
        action: Action::PreviousGoal,
        label: "Shift+G",
        help: "previous goal",
    },
    Shortcut {
        key: "n",
        shift: false,
        action: Action::NextEvent,
        label: "N",
        help: "next event (of the kinds shown)",
    },
    Shortcut {
        key: "n",
        shift: true,
        action: Action::PreviousEvent,
        label: "Shift+N",
        help: "previous event",
    },
    Shortcut {
        key: "r",
        shift: false,
        action: Action::Reverse,
        label: "R",
        help: "play backward / forward",
    },
    Shortcut {
        key: "[",
        shift: false,
        action: Action::Slower,
        label: "[",
        help: "slower (0.25× … 16×)",
    },
    Shortcut {
        key: "]",
        shift: false,
        action: Action::Faster,
        label: "]",
        help: "faster",
    },
    Shortcut {
        key: "t",
        shift: false,
        action: Action::GoToCycle,
        label: "T",
        help: "go to a cycle: type it, then Enter",
    },
    Shortcut {
        key: "l",
        shift: false,
        action: Action::CopyLink,
        label: "L",
        help: "copy a link to this moment",
    },
    Shortcut {
        key: "p",
        shift: false,
        action: Action::SavePng,
        label: "P",
        help: "save this frame as a PNG",
    },
    Shortcut {
        key: "o",
        shift: false,
        action: Action::OpenPanel,
        label: "O",
        help: "open a log (file or web address)",
    },
    Shortcut {
        key: "?",
        shift: false,
        action: Action::Help,
        label: "?",
        help: "this list of shortcuts",
    },
    Shortcut {
        key: "Escape",
        shift: false,
        action: Action::Close,
        label: "Esc",
        help: "close the open panel or overlay, else deselect the player",
    },
    // ---- the field (issue 12) ----
    Shortcut {
        key: "+",
        shift: false,
        action: Action::Field(FieldAction::ZoomIn),
        label: "+",
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
        key: "f",
        shift: true,
        action: Action::Field(FieldAction::FollowSelected),
        label: "Shift+F",
        help: "follow the selected player",
    },
    Shortcut {
        key: "r",
        shift: true,
        action: Action::Field(FieldAction::Flip),
        label: "Shift+R",
        help: "view from the other side",
    },
    Shortcut {
        key: "i",
        shift: false,
        action: Action::Field(FieldAction::Interpolation),
        label: "I",
        help: "smooth motion on / off",
    },
    Shortcut {
        key: "a",
        shift: false,
        action: Action::Field(FieldAction::TurnLeft),
        label: "A",
        help: "3D free camera: turn left (Shift: move left)",
    },
    Shortcut {
        key: "d",
        shift: false,
        action: Action::Field(FieldAction::TurnRight),
        label: "D",
        help: "3D free camera: turn right (Shift: move right)",
    },
    Shortcut {
        key: "w",
        shift: false,
        action: Action::Field(FieldAction::TiltUp),
        label: "W",
        help: "3D free camera: look from higher (Shift: move forward)",
    },
    Shortcut {
        key: "s",
        shift: false,
        action: Action::Field(FieldAction::TiltDown),
        label: "S",
        help: "3D free camera: look from lower (Shift: move back)",
    },
    Shortcut {
        key: "a",
        shift: true,
        action: Action::Field(FieldAction::MoveLeft),
        label: "Shift+A",
        help: "3D free camera: move left",
    },
    Shortcut {
        key: "d",
        shift: true,
        action: Action::Field(FieldAction::MoveRight),
        label: "Shift+D",
        help: "3D free camera: move right",
    },
    Shortcut {
        key: "w",
        shift: true,
        action: Action::Field(FieldAction::MoveForward),
        label: "Shift+W",
        help: "3D free camera: move forward",
    },
    Shortcut {
        key: "s",
        shift: true,
        action: Action::Field(FieldAction::MoveBack),
        label: "Shift+S",
        help: "3D free camera: move back",
    },
];

/// The shortcut for a key press, if any.
pub fn lookup(key: &str, shift: bool) -> Option<Action> {
    let mut chars = key.chars();
    let (key, shift) = match (chars.next(), chars.next()) {
        // One letter: `G` with Shift is `g` + shift, whatever Caps Lock says.
        (Some(c), None) if c.is_alphabetic() => (c.to_lowercase().to_string(), shift),
        // Another printable character: the character says it all.
        (Some(_), None) => (key.to_owned(), false),
        _ => (key.to_owned(), shift),
    };
    SHORTCUTS
        .iter()
        .find(|s| s.key == key && s.shift == shift)
        .map(|s| s.action)
}

pub fn run(m: Monitor, action: Action) {
    use crate::timeline::Direction;
    match action {
        Action::PlayPause => m.toggle_play(),
        Action::StepForward => m.step(1),
        Action::StepBack => m.step(-1),
        Action::JumpForward => m.jump_cycles(100),
        Action::JumpBack => m.jump_cycles(-100),
        Action::First => m.seek(0),
        Action::Last => m.go_last(),
        Action::Reverse => {
            let flipped = match m.direction.get_untracked() {
                Direction::Forward => Direction::Backward,
                Direction::Backward => Direction::Forward,
            };
            if m.playing.get_untracked() || m.following_live() {
                m.pause();
                m.play(flipped);
            } else {
                m.direction.set(flipped);
            }
        }
        Action::Slower => crate::ui::transport::change_speed(m, -1),
        Action::Faster => crate::ui::transport::change_speed(m, 1),
        Action::GoToCycle => crate::ui::transport::focus_cycle_box(),
        Action::CopyLink => crate::ui::transport::copy_link(m),
        Action::SavePng => crate::export::save_png(m),
        Action::OpenPanel => m.toggle_overlay(Overlay::Open),
        Action::Help => m.toggle_overlay(Overlay::Help),
        // Esc closes what is on top; with nothing open it lets go of the selected player.
        Action::Close if m.overlay.get_untracked() != Overlay::None => m.overlay.set(Overlay::None),
        Action::Close => crate::ui::drawn::run(m, FieldAction::Deselect),
        Action::NextGoal => events::jump(m, Which::Goals, true),
        Action::PreviousGoal => events::jump(m, Which::Goals, false),
        Action::NextEvent => events::jump(m, Which::Shown, true),
        Action::PreviousEvent => events::jump(m, Which::Shown, false),
        Action::Field(a) => crate::ui::drawn::run(m, a),
    }
}

/// Listens for shortcuts on the whole page, except while the user types in a text field.
pub fn listen(m: Monitor) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        let typing = ev.target().is_some_and(|t| {
            t.dyn_ref::<web_sys::HtmlInputElement>()
                .is_some_and(|i| i.type_() != "range" && i.type_() != "checkbox")
                || t.dyn_ref::<web_sys::HtmlTextAreaElement>().is_some()
                || t.dyn_ref::<web_sys::HtmlSelectElement>().is_some()
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
        // Caps Lock and layouts: letters by letter and Shift, symbols by character.
        assert_eq!(lookup("R", false), Some(Action::Reverse));
        assert_eq!(lookup("r", false), Some(Action::Reverse));
        assert_eq!(lookup("?", true), Some(Action::Help));
        assert_eq!(lookup("?", false), Some(Action::Help));
        assert_eq!(lookup("]", true), Some(Action::Faster));
        assert_eq!(lookup("G", true), Some(Action::PreviousGoal));
        assert_eq!(lookup("g", false), Some(Action::NextGoal));
        assert_eq!(lookup("N", true), Some(Action::PreviousEvent));
        for s in SHORTCUTS {
            assert!(!s.help.is_empty() && !s.label.is_empty());
            assert_eq!(
                lookup(s.key, s.shift),
                Some(s.action),
                "{} is reachable",
                s.label
            );
        }
    }
}
