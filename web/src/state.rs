//! The monitor's state, which every part of the page reads: the match on screen (the library's
//! match model, whatever source fed it), where in it the user is, and how it plays.

use crate::settings::Settings;
use leptos::prelude::*;
use pitchside_shared::log::Match;
use pitchside_shared::{Frame, Record};

/// Where the frames on screen come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The relay's feed (a live server, or a log the relay replays as live).
    Live,
    /// A logfile opened in this page.
    File,
}

/// How long opening the last file took, read by the browser benchmark from `#timings`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// From the file being handed to the page to its first frame drawn.
    pub first_frame_ms: f64,
    /// To every frame parsed, once done.
    pub all_frames_ms: Option<f64>,
    /// Of that, the time spent in the decoder (the rest is reading, inflating, yielding).
    pub decode_ms: f64,
    /// Of that, the time spent waiting for input (reading, and inflating in the browser).
    pub wait_ms: f64,
}

/// The page's state. The match lives in a [`StoredValue`] (not reactive, so appending 6000
/// frames does not clone them); `count` and `revision` are its reactive handles.
#[derive(Clone, Copy)]
pub struct Monitor {
    /// Frames, messages, team graphics, parameters and player types of the match on screen:
    /// the live feed and an opened file both push the library's records into it.
    pub game: StoredValue<Match>,
    /// Number of frames in `game`.
    pub count: RwSignal<usize>,
    /// Bumped whenever `game` changes in a way other than gaining frames (parameters, team
    /// graphics, messages, a new match), so views of those can follow.
    pub revision: RwSignal<u64>,
    /// Index of the frame on screen.
    pub index: RwSignal<usize>,
    /// Live: keep showing the newest frame. Turned off when the user seeks back.
    pub follow: RwSignal<bool>,
    /// File: advancing one frame per 100 ms.
    pub playing: RwSignal<bool>,
    pub mode: RwSignal<Mode>,
    /// What the badge says about the source, e.g. "Replay of … (no live server)".
    pub source: RwSignal<String>,
    pub error: RwSignal<Option<String>>,
    pub progress: RwSignal<Option<String>>,
    /// Opening a file: ms from the file being handed to the page to the first frame drawn,
    /// and to all frames parsed. Read by the browser benchmark.
    pub timings: RwSignal<Option<Timings>>,
    pub settings: RwSignal<Settings>,
    /// How the field is looked at, and who is selected.
    pub field: FieldView,
    /// What the message board holds besides the match's own messages.
    pub board: Board,
}

impl Monitor {
    pub fn new() -> Self {
        Monitor {
            game: StoredValue::new(Match::default()),
            count: RwSignal::new(0),
            revision: RwSignal::new(0),
            index: RwSignal::new(0),
            follow: RwSignal::new(true),
            playing: RwSignal::new(false),
            mode: RwSignal::new(Mode::Live),
            source: RwSignal::new("connecting to the relay…".into()),
            error: RwSignal::new(None),
            progress: RwSignal::new(None),
            timings: RwSignal::new(None),
            settings: RwSignal::new(crate::settings::load()),
            field: FieldView::new(),
            board: Board::new(),
        }
    }

    /// Forgets the match on screen: a new one starts.
    pub fn clear(&self) {
        self.game.set_value(Match::default());
        self.count.set(0);
        self.index.set(0);
        self.board.notices.set(Vec::new());
        self.revision.update(|r| *r += 1);
    }

    /// Adds what a source decoded to the match.
    pub fn push_records(&self, records: impl IntoIterator<Item = Record>) {
        let mut len = 0;
        let mut other = false;
        self.game.update_value(|g| {
            for r in records {
                other |= !matches!(r, Record::Show(_));
                g.push(r);
            }
            len = g.frames.len();
        });
        if other {
            self.revision.update(|r| *r += 1);
        }
        if len != self.count.get_untracked() {
            self.count.set(len);
            if self.follow.get_untracked() && len > 0 {
                self.index.set(len - 1);
            }
        }
    }

    /// Replaces the match on screen with one decoded elsewhere.
    pub fn set_game(&self, game: Match) {
        let len = game.frames.len();
        self.game.set_value(game);
        self.count.set(len);
        self.revision.update(|r| *r += 1);
        if self.index.get_untracked() >= len {
            self.index.set(len.saturating_sub(1));
        }
    }

    /// Runs `f` on the frame at `index`, if there is one.
    pub fn with_frame<T>(&self, index: usize, f: impl FnOnce(&Frame) -> T) -> Option<T> {
        self.game.with_value(|g| g.frames.get(index).map(f))
    }

    /// A parameter of the match's `server_param`, if the source sent one.
    pub fn server_param(&self, name: &str) -> Option<f64> {
        self.game
            .with_value(|g| g.server_param.as_ref().and_then(|p| p.get_f64(name)))
    }

    pub fn step(&self, delta: i64) {
        let count = self.count.get_untracked();
        if count == 0 {
            return;
        }
        let i = self.index.get_untracked() as i64 + delta;
        let i = i.clamp(0, count as i64 - 1) as usize;
        self.index.set(i);
        self.follow
            .set(self.mode.get_untracked() == Mode::Live && i + 1 == count);
    }

    /// Shows frame `i` (clamped), leaving live following unless it is the newest frame.
    pub fn seek(&self, i: usize) {
        let count = self.count.get_untracked();
        let i = i.min(count.saturating_sub(1));
        self.index.set(i);
        self.follow
            .set(self.mode.get_untracked() == Mode::Live && i + 1 >= count);
    }

    pub fn toggle_play(&self) {
        if self.mode.get_untracked() == Mode::Live {
            let follow = !self.follow.get_untracked();
            self.follow.set(follow);
            if follow {
                self.index.set(self.count.get_untracked().saturating_sub(1));
            }
        } else {
            if !self.playing.get_untracked()
                && self.index.get_untracked() + 1 >= self.count.get_untracked()
            {
                self.index.set(0);
            }
            self.playing.update(|p| *p = !*p);
        }
    }
}

impl Default for Monitor {
    fn default() -> Self {
        Self::new()
    }
}

// ---- The field's view: camera and selection (issue 12). ----

/// How the user looks at the field: the camera (zoom, pan, follow, side), the player selected
/// by a click, and what the last drawing took.
#[derive(Clone, Copy)]
pub struct FieldView {
    pub camera: RwSignal<crate::field::Camera>,
    /// `(side, uniform number)` of the player whose panel, cone and areas are shown.
    pub selected: RwSignal<Option<(pitchside_shared::Side, u8)>>,
}

impl FieldView {
    pub fn new() -> Self {
        FieldView {
            camera: RwSignal::new(crate::field::Camera::default()),
            selected: RwSignal::new(None),
        }
    }
}

impl Default for FieldView {
    fn default() -> Self {
        Self::new()
    }
}

/// The relay's notices for the message board: `(frames received before it, cycle, text)`.
#[derive(Clone, Copy)]
pub struct Board {
    pub notices: RwSignal<Vec<(usize, u32, String)>>,
}

impl Board {
    pub fn new() -> Self {
        Board {
            notices: RwSignal::new(Vec::new()),
        }
    }
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

impl Monitor {
    /// Puts a notice of the relay on the message board, at the newest frame.
    pub fn notice(&self, text: String) {
        let (position, time) = self
            .game
            .with_value(|g| (g.frames.len(), g.frames.last().map_or(0, |f| f.time)));
        self.board
            .notices
            .update(|n| n.push((position, time, text)));
    }
}
