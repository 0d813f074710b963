//! A whole log in memory ([`Match`]) and where its record of the match stops ([`LogEnd`],
//! [`Ending`]).

use crate::error::LogError;
use crate::format::LogVersion;
use crate::model::{Record, Team};
use crate::params::MatchParams;
use crate::playmode::PlayMode;

/// Where a log's record of the match stops: the last cycle shown and the play mode then.
///
/// A text or binary log has no end marker: one that stops before `time_over` (the server was
/// stopped, or the file was cut at a record boundary) reads without error, and this is how a
/// reader still tells it apart from a finished game. A JSON log that stops early is an
/// error besides ([`LogError::Incomplete`]), since its array is never closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogEnd {
    last_cycle: Option<u32>,
    last_mode: Option<PlayMode>,
}

impl LogEnd {
    /// Takes note of one record, in log order.
    pub fn push(&mut self, record: &Record) {
        match record {
            Record::PlayMode { time, mode } => {
                self.last_mode = Some(*mode);
                self.last_cycle = Some(self.last_cycle.map_or(*time, |c| c.max(*time)));
            }
            Record::Show(f) => self.note_show(f.time, f.mode),
            _ => {}
        }
    }

    /// Takes note of a show of cycle `time` in play mode `mode`, for a reader that does not
    /// make records of its shows (the tracking table of `pitchside-analysis`).
    pub fn note_show(&mut self, time: u32, mode: PlayMode) {
        self.last_mode = Some(mode);
        self.last_cycle = Some(time);
    }

    /// The last cycle of the log, if it has shows or play modes.
    pub fn last_cycle(&self) -> Option<u32> {
        self.last_cycle
    }

    /// The last play mode of the log.
    pub fn last_mode(&self) -> Option<PlayMode> {
        self.last_mode
    }

    /// The last cycle, when the log stops before the game reached `time_over`.
    pub fn before_full_time(&self) -> Option<u32> {
        match self.last_mode {
            Some(PlayMode::TIME_OVER) => None,
            _ => self.last_cycle,
        }
    }

    /// "incomplete: the log stops at cycle N", when it does: the words of
    /// [`LogError::Incomplete`], so that a log cut short reads the same whatever its version.
    pub fn note(&self) -> Option<String> {
        self.before_full_time().map(incomplete_note)
    }
}

/// How a log's reading ended, the same way for every version: the inspector, the archive
/// and the page say this and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Read to its end, and the game reached time over.
    Whole,
    /// Every record was read, but the match stops at `cycle`, before time over: the server
    /// was stopped or killed. A text or binary log simply ends; a JSON log's array is never
    /// closed ([`LogError::Incomplete`]).
    Incomplete { cycle: u32 },
    /// Read up to damage; what came before it is kept.
    Damaged(LogError),
}

impl Ending {
    /// The ending of a log whose reading stopped with `error` (if it did) at `end`.
    pub fn of(end: &LogEnd, error: Option<&LogError>) -> Ending {
        match error {
            // A JSON log whose array was never closed, but after time over, holds the whole
            // match: as a text log cut after time over does.
            Some(LogError::Incomplete { cycle, .. }) => match end.last_mode() {
                Some(PlayMode::TIME_OVER) => Ending::Whole,
                _ => Ending::Incomplete { cycle: *cycle },
            },
            // A text or binary log, or a gzip stream, cut inside its last record before time
            // over is what a killed server leaves too: the same as one cut between records.
            Some(e @ (LogError::Truncated { .. } | LogError::GzipCut { .. })) => {
                match end.before_full_time() {
                    Some(cycle) => Ending::Incomplete { cycle },
                    None => Ending::Damaged(e.clone()),
                }
            }
            Some(e) => Ending::Damaged(e.clone()),
            None => match end.before_full_time() {
                Some(cycle) => Ending::Incomplete { cycle },
                None => Ending::Whole,
            },
        }
    }

    /// Where an incomplete log stops.
    pub fn incomplete(&self) -> Option<u32> {
        match self {
            Ending::Incomplete { cycle } => Some(*cycle),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Whole => f.write_str("whole: the game reached time over"),
            Ending::Incomplete { cycle } => f.write_str(&incomplete_note(*cycle)),
            Ending::Damaged(e) => write!(f, "damaged: {e}"),
        }
    }
}

/// "incomplete: the log stops at cycle N".
pub fn incomplete_note(cycle: u32) -> String {
    format!("incomplete: the log stops at cycle {cycle}")
}

/// Everything a whole log holds, accumulated from its records.
#[derive(Clone, Debug, Default)]
pub struct Match {
    pub version: Option<LogVersion>,
    pub compressed: bool,
    pub server_param: Option<crate::model::Params>,
    pub player_param: Option<crate::model::Params>,
    pub player_types: Vec<crate::model::Params>,
    pub frames: Vec<crate::model::Frame>,
    pub messages: Vec<crate::model::Message>,
    /// For each message, how many frames came before it, so a writer keeps the interleaving.
    pub message_positions: Vec<usize>,
    pub team_graphics: Vec<crate::model::TeamGraphic>,
    /// Drawings and blank-screen orders (v1/v2 binary logs only), in log order.
    pub drawings: Vec<crate::model::Drawing>,
    /// Every play-mode change with its cycle, from mode records or from the shows themselves.
    pub mode_changes: Vec<(u32, PlayMode)>,
    /// The last team record (text/JSON/v3 logs), which holds the final score and penalties.
    pub last_team: Option<[Team; 2]>,
    /// Why decoding stopped early, if it did; every frame before it is kept.
    pub error: Option<LogError>,
    /// Where the record of the match stops (see [`LogEnd::before_full_time`]).
    pub end: LogEnd,
    last_mode: Option<PlayMode>,
}

/// Cap on frames kept from one log: a week of play, far beyond any real game, but bounded.
pub(super) const MAX_FRAMES: usize = 4_000_000;

impl Match {
    pub fn push(&mut self, record: Record) {
        self.end.push(&record);
        match record {
            Record::ServerParam(p) => self.server_param = Some(p),
            Record::PlayerParam(p) => self.player_param = Some(p),
            Record::PlayerType(p) => {
                if self.player_types.len() < 256 {
                    self.player_types.push(p)
                }
            }
            Record::PlayMode { time, mode } => {
                self.mode_changes.push((time, mode));
                self.last_mode = Some(mode);
            }
            Record::Team { teams, .. } => self.last_team = Some(teams),
            Record::Show(frame) => {
                if self.last_mode != Some(frame.mode) {
                    self.mode_changes.push((frame.time, frame.mode));
                    self.last_mode = Some(frame.mode);
                }
                if self.frames.len() < MAX_FRAMES {
                    self.frames.push(frame);
                }
            }
            Record::Msg(m) => {
                self.message_positions.push(self.frames.len());
                self.messages.push(m);
            }
            Record::TeamGraphic(t) => self.team_graphics.push(t),
            Record::Draw(d) => {
                if self.drawings.len() < MAX_FRAMES {
                    self.drawings.push(d)
                }
            }
        }
    }

    /// Team names and score at the end: the last team record, else the last frame.
    pub fn final_teams(&self) -> [Team; 2] {
        if let Some(t) = &self.last_team {
            return t.clone();
        }
        self.frames
            .last()
            .map(|f| f.teams.clone())
            .unwrap_or_default()
    }

    /// `(cycle, side)` of every goal, one per `goal_l`/`goal_r` play mode.
    pub fn goals(&self) -> Vec<(u32, crate::Side)> {
        self.mode_changes
            .iter()
            .filter_map(|(t, m)| m.goal_side().map(|s| (*t, s)))
            .collect()
    }

    /// The last cycle when the log stops before `time_over` (see [`LogEnd`]).
    pub fn ends_before_full_time(&self) -> Option<u32> {
        self.end.before_full_time()
    }

    /// How the reading ended: whole, incomplete or damaged, the same for every version.
    pub fn ending(&self) -> Ending {
        Ending::of(&self.end, self.error.as_ref())
    }

    /// Number of distinct show times.
    pub fn distinct_cycles(&self) -> usize {
        let mut times: Vec<u32> = self.frames.iter().map(|f| f.time).collect();
        times.sort_unstable();
        times.dedup();
        times.len()
    }
}

impl MatchParams {
    /// The parameters of `log::Match`'s source, defaults where it has none.
    pub fn of_match(m: &Match) -> MatchParams {
        MatchParams::new(m.server_param.as_ref(), &m.player_types)
    }
}
