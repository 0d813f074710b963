//! The monitor's state, which every part of the page reads: the match on screen (the library's
//! match model, whatever source fed it), where in it the user is, and how it plays.

use crate::settings::Settings;
use crate::timeline::{CycleIndex, Direction};
use leptos::prelude::*;
use pitchside_analysis::stats::Stats;
use rcss_formats::log::Match;
use rcss_formats::params::MatchParams;
use rcss_formats::{Frame, Record};

/// Where the frames on screen come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The relay's feed (a live server, or a log the relay replays as live).
    Live,
    /// A logfile opened in this page.
    File,
}

/// The panel or overlay open over the page (one at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Overlay {
    #[default]
    None,
    /// The keyboard shortcuts.
    Help,
    /// Opening a log: drop, file picker, web address.
    Open,
    /// Saving a PNG or a video clip.
    Export,
    /// The settings panel.
    Settings,
    /// The `<iframe>` snippet for other sites.
    Embed,
}

/// The relay's kits for a match: the colours, and the teams (left, right) they are for.
#[derive(Clone, Debug, PartialEq)]
pub struct Kits {
    pub colours: crate::settings::Colours,
    pub teams: [String; 2],
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
    /// A view drives `index` itself (the broadcast view, which trails live play by the
    /// relay's delay and plays replays): new frames do not move it.
    pub steered: RwSignal<bool>,
    /// The kits the relay chose from its colours file, for the teams it names: used for a
    /// live match of those teams unless the user chose colours of his own
    /// ([`Monitor::colours`]).
    pub kits: RwSignal<Option<Kits>>,
    /// Matches this page has shown: bumped whenever the match on screen is replaced, so that a
    /// view that keeps something per match knows a new one began even when it arrives whole.
    pub matches: StoredValue<u64>,
    /// Playing at the chosen speed, in `direction` (a followed live match is not "playing":
    /// it shows frames as they arrive).
    pub playing: RwSignal<bool>,
    pub mode: RwSignal<Mode>,
    /// What the badge says about the source, e.g. "Replay of … (no live server)".
    pub source: RwSignal<String>,
    pub error: RwSignal<Option<String>>,
    /// Something worth knowing about the match on screen that is no error, e.g. a log that
    /// ends before full time.
    pub notice: RwSignal<Option<String>>,
    pub progress: RwSignal<Option<String>>,
    /// The relay is skipping frames for this page to keep it live (it cannot send it every
    /// frame in time); the page says so while it lasts.
    pub skipping: RwSignal<bool>,
    /// Opening a file: ms from the file being handed to the page to the first frame drawn,
    /// and to all frames parsed. Read by the browser benchmark.
    pub timings: RwSignal<Option<Timings>>,
    pub settings: RwSignal<Settings>,
    /// How the field is looked at, and who is selected.
    pub field: FieldView,
    /// What the message board holds besides the match's own messages.
    pub board: Board,

    // ---- Time control, links and loading ----
    /// First frame of every cycle of `game`, kept in step with it: the seek slider, the cycle
    /// box, links and ±100 jumps count in cycles through it.
    pub cycles: StoredValue<CycleIndex>,
    /// Which way playback runs (`playing` says whether it does).
    pub direction: RwSignal<Direction>,
    /// A cycle asked for (by `#t=`) that has not arrived yet: the page jumps there, paused,
    /// as soon as it does.
    pub pending_cycle: RwSignal<Option<u32>>,
    /// The web address of the log on screen (`?log=`); `None` for the live feed and files
    /// opened from the disk.
    pub log_url: RwSignal<Option<String>>,
    /// A log is still being read: playback that reaches the last frame waits for more instead
    /// of stopping.
    pub loading: RwSignal<bool>,
    /// How much of the log has been read, 0..1, when its size is known.
    pub load_fraction: RwSignal<Option<f64>>,
    /// The panel or overlay open over the page.
    pub overlay: RwSignal<Overlay>,
    /// The match's events and statistics, computed by the library as frames arrive (for a
    /// live match and a log alike); `None` before the first frame. Follows `count`.
    pub analysis: StoredValue<Option<Stats>>,
    /// The agents' own files opened beside the match (debug logs, world models, commands).
    pub agents: crate::agents::store::Agents,
}

impl Monitor {
    pub fn new() -> Self {
        Monitor {
            game: StoredValue::new(Match::default()),
            count: RwSignal::new(0),
            revision: RwSignal::new(0),
            index: RwSignal::new(0),
            follow: RwSignal::new(true),
            steered: RwSignal::new(false),
            kits: RwSignal::new(None),
            matches: StoredValue::new(0),
            playing: RwSignal::new(false),
            mode: RwSignal::new(Mode::Live),
            source: RwSignal::new("connecting to the relay…".into()),
            error: RwSignal::new(None),
            notice: RwSignal::new(None),
            progress: RwSignal::new(None),
            skipping: RwSignal::new(false),
            timings: RwSignal::new(None),
            settings: RwSignal::new(crate::settings::load()),
            field: FieldView::new(),
            board: Board::new(),
            cycles: StoredValue::new(CycleIndex::new()),
            direction: RwSignal::new(Direction::Forward),
            pending_cycle: RwSignal::new(None),
            log_url: RwSignal::new(None),
            loading: RwSignal::new(false),
            load_fraction: RwSignal::new(None),
            overlay: RwSignal::new(Overlay::None),
            analysis: StoredValue::new(None),
            agents: crate::agents::store::Agents::new(),
        }
    }

    /// The team colours to draw: the user's own if he changed them in the settings, else the
    /// relay's kits for this match, else the defaults. Tracked.
    pub fn colours(&self) -> crate::settings::Colours {
        let own = self.settings.with(|s| s.colours.clone());
        if own != crate::settings::Colours::default() || self.mode.get() != Mode::Live {
            return own;
        }
        self.count.track();
        let Some(kits) = self.kits.get() else {
            return own;
        };
        // The kits of the teams on screen only: with a delay, the relay already dresses the
        // next match while the last one still shows.
        let on_screen = self.game.with_value(|g| {
            g.frames
                .last()
                .map(|f| [0, 1].map(|k| f.teams[k].name.clone().unwrap_or_default()))
        });
        if on_screen.as_ref() == Some(&kits.teams) {
            kits.colours
        } else {
            own
        }
    }

    /// [`Monitor::colours`], untracked.
    pub fn colours_untracked(&self) -> crate::settings::Colours {
        untrack(|| self.colours())
    }

    /// Forgets the match on screen: a new one starts.
    pub fn clear(&self) {
        self.matches.update_value(|n| *n += 1);
        self.game.set_value(Match::default());
        self.cycles.update_value(CycleIndex::clear);
        self.analysis.set_value(None);
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
            self.cycles.update_value(|ix| {
                for r in records {
                    if let Record::Show(f) = &r {
                        ix.push(f.time);
                    } else {
                        other = true;
                    }
                    g.push(r);
                }
            });
            self.analyse(g);
            len = g.frames.len();
        });
        if other {
            self.revision.update(|r| *r += 1);
        }
        if len != self.count.get_untracked() {
            self.count.set(len);
            if self.follow.get_untracked() && !self.steered.get_untracked() && len > 0 {
                self.index.set(len - 1);
            }
            self.resolve_pending();
        }
    }

    /// Brings the events and statistics up to the match's frames. They start with the first
    /// frame, when the parameters (kickable areas, ball decay) have arrived: every source
    /// sends them before its shows.
    fn analyse(&self, g: &Match) {
        self.analysis.update_value(|a| {
            if g.frames.is_empty() {
                return;
            }
            let stats = a.get_or_insert_with(|| Stats::new(MatchParams::of_match(g)));
            for f in g.frames.iter().skip(stats.frames()) {
                stats.push(f);
            }
        });
    }

    /// Jumps to the cycle a link asked for, once it has arrived.
    fn resolve_pending(&self) {
        let Some(cycle) = self.pending_cycle.get_untracked() else {
            return;
        };
        if let Some(i) = self.cycles.with_value(|ix| ix.frame_at_or_after(cycle)) {
            self.pending_cycle.set(None);
            self.playing.set(false);
            self.follow.set(false);
            self.index.set(i);
        }
    }

    /// Opens the match at `cycle` (the first frame of it or of the next cycle that exists),
    /// paused: now if it is there, else as soon as it arrives.
    pub fn open_at(&self, cycle: u32) {
        self.follow.set(false);
        self.playing.set(false);
        self.pending_cycle.set(Some(cycle));
        self.resolve_pending();
    }

    /// A log finished loading without reaching the cycle a link asked for: show its end.
    pub fn settle_pending(&self) {
        if self.pending_cycle.get_untracked().is_some() {
            self.pending_cycle.set(None);
            let count = self.count.get_untracked();
            if count > 0 {
                self.playing.set(false);
                self.index.set(count - 1);
            }
        }
    }

    /// Replaces the match on screen with one decoded elsewhere.
    pub fn set_game(&self, game: Match) {
        let len = game.frames.len();
        self.cycles.update_value(|ix| {
            ix.clear();
            for f in &game.frames {
                ix.push(f.time);
            }
        });
        self.analysis.set_value(None);
        self.analyse(&game);
        self.game.set_value(game);
        self.count.set(len);
        self.revision.update(|r| *r += 1);
        if self.index.get_untracked() >= len {
            self.index.set(len.saturating_sub(1));
        }
    }

    /// Replaces the match on screen with the same match, more complete (the frames the relay
    /// skipped for a live page, fetched again from its history): the frame on screen and the
    /// relay's notices on the board stay where they were in the match.
    pub fn fill_in(&self, game: Match) {
        let before = self.cycles.get_value();
        let index = self.index.get_untracked();
        self.set_game(game);
        let count = self.count.get_untracked();
        let to = if self.follow.get_untracked() && !self.steered.get_untracked() {
            count.saturating_sub(1)
        } else {
            self.cycles
                .with_value(|now| crate::timeline::same_place(&before, now, index))
        };
        self.index.set(to);
        self.cycles.with_value(|ix| {
            self.board.notices.update(|n| {
                for (position, time, _) in n.iter_mut() {
                    *position = ix
                        .frame_at_or_after(time.saturating_add(1))
                        .unwrap_or(count);
                }
            });
        });
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

    /// Opens `overlay`, or closes it if it is the one open.
    pub fn toggle_overlay(&self, overlay: Overlay) {
        self.overlay.update(|o| {
            *o = if *o == overlay {
                Overlay::None
            } else {
                overlay
            }
        });
    }

    /// The cycle of frame `i`, if it exists.
    pub fn cycle_at(&self, i: usize) -> Option<u32> {
        self.with_frame(i, |f| f.time)
    }

    /// Whether the newest frame of a live match is followed.
    pub fn following_live(&self) -> bool {
        self.mode.get_untracked() == Mode::Live && self.follow.get_untracked()
    }

    /// Moves `delta` frames (one frame is one cycle, or one step of a stoppage), pausing.
    pub fn step(&self, delta: i64) {
        let count = self.count.get_untracked();
        if count == 0 {
            return;
        }
        let i = self.index.get_untracked() as i64 + delta;
        self.seek(i.clamp(0, count as i64 - 1) as usize);
    }

    /// Moves `delta` cycles, to the first frame of the target cycle (or of the next one that
    /// exists), pausing.
    pub fn jump_cycles(&self, delta: i64) {
        let i = self.index.get_untracked();
        if let Some(to) = self.cycles.with_value(|ix| ix.jump(i, delta)) {
            self.seek(to);
        }
    }

    /// Goes to the first frame of `cycle` or of the next cycle that exists (the last frame if
    /// the match has not got that far), pausing.
    pub fn seek_cycle(&self, cycle: u32) {
        if let Some(to) = self.cycles.with_value(|ix| ix.seek_cycle(cycle)) {
            self.seek(to);
        }
    }

    /// Shows frame `i` (clamped), pausing; a live match is followed again when `i` is the
    /// newest frame.
    pub fn seek(&self, i: usize) {
        let count = self.count.get_untracked();
        let i = i.min(count.saturating_sub(1));
        self.pending_cycle.set(None);
        self.playing.set(false);
        self.index.set(i);
        self.follow
            .set(self.mode.get_untracked() == Mode::Live && i + 1 >= count);
    }

    /// The last frame; for a live match, following it again.
    pub fn go_last(&self) {
        self.seek(usize::MAX);
    }

    /// Space: pauses whatever moves (a followed live match stops on its frame); otherwise
    /// plays in the current direction, starting over from the far end if already there.
    pub fn toggle_play(&self) {
        if self.following_live() || self.playing.get_untracked() {
            self.pause();
        } else {
            self.play(self.direction.get_untracked());
        }
    }

    pub fn pause(&self) {
        self.playing.set(false);
        if self.following_live() {
            self.follow.set(false);
        }
    }

    /// Plays in `direction` from the frame on screen. At the end of a file, forward play
    /// starts over; at the newest frame of a live match it follows the match.
    pub fn play(&self, direction: Direction) {
        let count = self.count.get_untracked();
        if count == 0 {
            return;
        }
        let i = self.index.get_untracked();
        self.pending_cycle.set(None);
        self.direction.set(direction);
        match direction {
            Direction::Forward if i + 1 >= count => {
                if self.mode.get_untracked() == Mode::Live {
                    self.follow.set(true);
                    return;
                }
                if !self.loading.get_untracked() {
                    self.index.set(0);
                }
            }
            Direction::Backward if i == 0 => return,
            _ => {}
        }
        self.follow.set(false);
        self.playing.set(true);
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
    pub selected: RwSignal<Option<(rcss_formats::Side, u8)>>,
    /// An action picked in the analysis panel, drawn on the field while its frames show.
    pub action: RwSignal<Option<pitchside_analysis::actions::Action>>,
    /// The picture and 3D camera the page's link asked for (`view=3d`, `cam=goal`), over the
    /// settings until the user chooses in the settings.
    pub link_picture: RwSignal<Option<crate::settings::Picture>>,
    pub link_camera: RwSignal<Option<crate::settings::Camera3d>>,
    /// Why the 3D view could not be drawn (no WebGL2, a worker that failed): the field then
    /// stays 2D and says so.
    pub failed3d: RwSignal<Option<String>>,
}

impl FieldView {
    pub fn new() -> Self {
        FieldView {
            camera: RwSignal::new(crate::field::Camera::default()),
            selected: RwSignal::new(None),
            action: RwSignal::new(None),
            link_picture: RwSignal::new(None),
            link_camera: RwSignal::new(None),
            failed3d: RwSignal::new(None),
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
