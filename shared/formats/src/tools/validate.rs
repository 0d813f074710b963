//! Is a log sound? Everything librcsc's `rcgvalidator` checks, and what it misses, each
//! finding with where it is in the file (line, or byte offset of a binary log) and its cycle.
//!
//! `rcgvalidator` (librcsc) reads text logs of version 4 and later only and fails a log:
//! - that librcsc cannot parse to its end ([`FindingKind::Damaged`] here, with the place);
//! - whose last cycle is before `half_time × 10 × nr_normal_halfs - 1` (its words: "last game
//!   time: 756 << assumed count: 6000"; [`FindingKind::ShortGame`]; here only for logs with
//!   parameters: a v1 or v2 log does not say how long its game was meant to be);
//! - with 10 shows or more, outside `before_kick_off` and `time_over`, where some player is
//!   not on the field without having been sent off ("missing player count = 568";
//!   [`FindingKind::MissingPlayers`], reported from the first such show, with the 10-show
//!   threshold said).
//!
//! What it misses, checked here for every version: a log cut short (inside a record, a gzip
//! stream, a JSON array never closed, or simply before time over); shows whose cycle goes
//! back, repeats while the clock runs (`play_on`), repeats a show identically, or skips
//! cycles (but the one before a kick-off, which the server plays in `before_kick_off` and
//! does not log, at every half); a team whose name changes
//! mid-match; scores or penalty tallies that go down, or a score that goes up without a goal;
//! missing parameters (a v3 or later log without `server_param`, `player_param` or its
//! player types) and players of a type the log does not define; players on the field, or the
//! ball, beyond the field and its 5 m margin (where rcssserver keeps them) or at a position
//! that is not a number; a log without shows.
//!
//! Reading stops at damage, so nothing after it is checked (librcsc skips a bad show line and
//! reads on).
//!
//! The validator is fed records as the decoder gives them, with their places
//! ([`crate::LogDecoder::track_locations`]); memory does not grow with the log (a few
//! occurrences of each kind are kept, the others counted).

use crate::log::{Ending, LogDecoder, LogEnd};
use crate::model::{state, Frame, ParamValue, Params, Record, Team};
use crate::playmode::PlayMode;
use crate::{Location, LogError, LogVersion};

/// What is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The file cannot be read past a place: what follows is lost (rcgvalidator fails).
    Damaged,
    /// The log stops before the game is over.
    Incomplete,
    /// The last cycle is before the game's regular length (rcgvalidator's check).
    ShortGame,
    /// Shows in which a player is missing (rcgvalidator fails 10 or more).
    MissingPlayers,
    /// A show's cycle is before the previous show's.
    TimeBackwards,
    /// A cycle shown again while the clock runs, or a show identical to the one before.
    RepeatedShow,
    /// Cycles without a show.
    SkippedCycles,
    /// A team's name changes mid-match.
    TeamRenamed,
    /// A score or a penalty tally goes down.
    ScoreDown,
    /// A score goes up without a goal.
    ScoreWithoutGoal,
    /// Parameters the format carries are missing.
    MissingParams,
    /// A player of a type the log does not define.
    UnknownPlayerType,
    /// A player on the field, or the ball, beyond the field's margins.
    OffField,
    /// A position or velocity that is not a number.
    NotFinite,
    /// No show at all.
    NoShows,
}

impl FindingKind {
    /// A short name, as `--json` and the listing print it.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Damaged => "damaged",
            FindingKind::Incomplete => "incomplete",
            FindingKind::ShortGame => "short_game",
            FindingKind::MissingPlayers => "missing_players",
            FindingKind::TimeBackwards => "time_backwards",
            FindingKind::RepeatedShow => "repeated_show",
            FindingKind::SkippedCycles => "skipped_cycles",
            FindingKind::TeamRenamed => "team_renamed",
            FindingKind::ScoreDown => "score_down",
            FindingKind::ScoreWithoutGoal => "score_without_goal",
            FindingKind::MissingParams => "missing_params",
            FindingKind::UnknownPlayerType => "unknown_player_type",
            FindingKind::OffField => "off_field",
            FindingKind::NotFinite => "not_finite",
            FindingKind::NoShows => "no_shows",
        }
    }

    /// Whether librcsc's `rcgvalidator` reports it too (for the logs it reads).
    pub fn rcgvalidator(self) -> bool {
        matches!(
            self,
            FindingKind::Damaged | FindingKind::ShortGame | FindingKind::MissingPlayers
        )
    }
}

/// One finding: what, where in the file, at which cycle.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    /// The line (text, JSON) or byte offset (binary) of the record, when there is one.
    pub at: Option<Location>,
    pub cycle: Option<u32>,
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.at, self.cycle) {
            (Some(at), Some(c)) => write!(f, "{at}, cycle {c}: ")?,
            (Some(at), None) => write!(f, "{at}: ")?,
            (None, Some(c)) => write!(f, "cycle {c}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.message)
    }
}

/// Occurrences of one kind kept in full; the rest are counted.
const KEEP: usize = 5;

/// The outcome: the findings (the first few of each kind), and how many of each kind there
/// were in all.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Validation {
    pub version: Option<LogVersion>,
    pub findings: Vec<Finding>,
    /// Every kind found, with its number of occurrences (more than listed when over 5).
    pub counts: Vec<(FindingKind, u64)>,
    pub shows: u64,
}

impl Validation {
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// Occurrences of `kind` beyond those listed.
    pub fn more(&self, kind: FindingKind) -> u64 {
        let listed = self.findings.iter().filter(|f| f.kind == kind).count() as u64;
        self.counts
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, n)| n.saturating_sub(listed))
    }
}

/// The field and the margin rcssserver keeps players in (`placePlayersInField`).
const MAX_X: f32 = crate::params::field::HALF_LENGTH + 5.0;
const MAX_Y: f32 = crate::params::field::HALF_WIDTH + 5.0;

/// Feed it a log's records in order with their places ([`Validator::push`]), then
/// [`Validator::finish`].
#[derive(Clone, Debug, Default)]
pub struct Validator {
    findings: Vec<Finding>,
    counts: Vec<(FindingKind, u64)>,
    server_param: Option<Params>,
    player_param: bool,
    player_types: u32,
    declared_types: Option<u32>,
    params_checked: bool,
    version: Option<LogVersion>,
    last: Option<LastShow>,
    shows: u64,
    /// rcgvalidator's `M_last_game_time`: the time of the last show or play-mode record.
    last_game_time: u32,
    missing_shows: u64,
    teams: Option<[Team; 2]>,
    mode: PlayMode,
    unknown_types: Vec<(usize, i16)>,
    end: LogEnd,
    /// Cycles without a show so far, `(first, last, where the show after them is)`: a show
    /// that comes later (out of order) fills its cycle.
    gaps: Vec<(u32, u32, Location)>,
    /// The latest cycle shown.
    max_time: Option<u32>,
}

#[derive(Clone, Debug)]
struct LastShow {
    frame: Frame,
    at: Location,
}

impl Validator {
    pub fn new() -> Validator {
        Validator::default()
    }

    /// The log's version, once known: what parameters it should carry depends on it.
    pub fn set_version(&mut self, v: Option<LogVersion>) {
        self.version = v;
    }

    fn report(&mut self, kind: FindingKind, at: Option<Location>, cycle: Option<u32>, msg: String) {
        let n = match self.counts.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counts.push((kind, 1));
                1
            }
        };
        if n as usize <= KEEP {
            self.findings.push(Finding {
                kind,
                at,
                cycle,
                message: msg,
            });
        }
    }

    /// Takes the next record of the log and where it is.
    pub fn push(&mut self, r: &Record, at: Location) {
        self.end.push(r);
        match r {
            Record::ServerParam(p) => self.server_param = Some(p.clone()),
            Record::PlayerParam(p) => {
                self.player_param = true;
                self.declared_types = p
                    .get("player_types")
                    .and_then(ParamValue::as_f64)
                    .map(|v| v as u32);
            }
            Record::PlayerType(_) => self.player_types += 1,
            Record::PlayMode { time, mode } => {
                self.last_game_time = *time;
                self.mode = *mode;
            }
            Record::Team { time, teams } => self.teams_change(teams, at, *time),
            Record::Show(f) => self.show(f, at),
            Record::Msg(_) | Record::TeamGraphic(_) | Record::Draw(_) => {}
        }
    }

    fn teams_change(&mut self, teams: &[Team; 2], at: Location, time: Option<u32>) {
        if let Some(old) = self.teams.clone() {
            for (side, (a, b)) in old.iter().zip(teams).enumerate() {
                let who = if side == 0 { "left" } else { "right" };
                if let (Some(x), Some(y)) = (&a.name, &b.name) {
                    if x != y {
                        self.report(
                            FindingKind::TeamRenamed,
                            Some(at),
                            time,
                            format!("the {who} team's name changes from {x} to {y}"),
                        );
                    }
                }
                if b.score < a.score {
                    self.report(
                        FindingKind::ScoreDown,
                        Some(at),
                        time,
                        format!(
                            "the {who} team's score goes down from {} to {}",
                            a.score, b.score
                        ),
                    );
                } else if b.score > a.score {
                    let goal = if side == 0 {
                        PlayMode::GOAL_L
                    } else {
                        PlayMode::GOAL_R
                    };
                    if self.mode != goal {
                        self.report(
                            FindingKind::ScoreWithoutGoal,
                            Some(at),
                            time,
                            format!(
                                "the {who} team's score goes up from {} to {} in {}, not {}",
                                a.score,
                                b.score,
                                mode_name(self.mode),
                                goal.name()
                            ),
                        );
                    }
                }
                if let (Some(p), Some(q)) = (a.penalty, b.penalty) {
                    if q.scored < p.scored || q.missed < p.missed {
                        self.report(
                            FindingKind::ScoreDown,
                            Some(at),
                            time,
                            format!(
                                "the {who} team's penalty tally goes down from {}/{} to {}/{} (scored/missed)",
                                p.scored, p.missed, q.scored, q.missed
                            ),
                        );
                    }
                }
            }
        }
        self.teams = Some(teams.clone());
    }

    fn show(&mut self, f: &Frame, at: Location) {
        self.shows += 1;
        self.last_game_time = f.time;
        self.mode = f.mode;
        if !self.params_checked {
            self.params_checked = true;
            self.check_params(at, f.time);
        }
        // The teams a show carries (binary v1, v2) or was given from the team records.
        if self.teams.as_ref() != Some(&f.teams) {
            self.teams_change(&f.teams, at, Some(f.time));
        }
        if let Some(last) = &self.last {
            let (t0, t1) = (last.frame.time, f.time);
            let max = self.max_time.unwrap_or(t0);
            if t1 < t0 {
                self.report(
                    FindingKind::TimeBackwards,
                    Some(at),
                    Some(t1),
                    format!("cycle {t1} comes after cycle {t0}"),
                );
                self.fill_gap(t1);
            } else if t1 == max + 2 && f.mode.base_name() == "kick_off" {
                // The cycle before a kick-off (a half's end) is played in before_kick_off,
                // which the server does not log.
            } else if t1 > max + 1 {
                if self.gaps.len() < 1024 {
                    self.gaps.push((max + 1, t1 - 1, at));
                }
            } else if t1 == t0 && last.frame.players == f.players && last.frame.ball == f.ball {
                self.report(
                    FindingKind::RepeatedShow,
                    Some(at),
                    Some(t1),
                    format!("the show of cycle {t1} is the one before, again"),
                );
            } else if t1 == t0
                && f.mode == PlayMode::PLAY_ON
                && last.frame.mode == PlayMode::PLAY_ON
            {
                self.report(
                    FindingKind::RepeatedShow,
                    Some(at),
                    Some(t1),
                    format!("cycle {t1} is shown twice in play_on, when the clock runs"),
                );
            }
        }
        self.max_time = Some(self.max_time.map_or(f.time, |m| m.max(f.time)));
        self.check_players(f, at);
        self.last = Some(LastShow {
            frame: f.clone(),
            at,
        });
    }

    /// A show of cycle `t` came late: `t` is not missing.
    fn fill_gap(&mut self, t: u32) {
        let Some(i) = self
            .gaps
            .iter()
            .position(|(a, b, _)| (*a..=*b).contains(&t))
        else {
            return;
        };
        let (a, b, at) = self.gaps.remove(i);
        if a < t {
            self.gaps.push((a, t - 1, at));
        }
        if t < b {
            self.gaps.push((t + 1, b, at));
        }
        self.gaps.sort_by_key(|g| g.0);
    }

    fn check_params(&mut self, at: Location, cycle: u32) {
        // v1 and v2 logs carry no parameters at all.
        let carries = self
            .version
            .is_none_or(|v| !matches!(v, LogVersion::V1 | LogVersion::V2));
        if !carries {
            return;
        }
        let mut missing = Vec::new();
        if self.server_param.is_none() {
            missing.push("server_param".to_owned());
        }
        if !self.player_param {
            missing.push("player_param".to_owned());
        }
        if self.player_types == 0 {
            missing.push("player_type".to_owned());
        } else if let Some(n) = self.declared_types.filter(|n| *n > self.player_types) {
            missing.push(format!(
                "player types {} to {} (player_param says {n}, {} given)",
                self.player_types,
                n - 1,
                self.player_types
            ));
        }
        if !missing.is_empty() {
            self.report(
                FindingKind::MissingParams,
                Some(at),
                Some(cycle),
                format!("no {} before the first show", missing.join(", ")),
            );
        }
    }

    fn check_players(&mut self, f: &Frame, at: Location) {
        let b = &f.ball;
        if ![b.x, b.y, b.vx, b.vy].iter().all(|v| v.is_finite()) {
            self.report(
                FindingKind::NotFinite,
                Some(at),
                Some(f.time),
                format!(
                    "the ball is at ({}, {}) moving ({}, {})",
                    b.x, b.y, b.vx, b.vy
                ),
            );
        } else if b.x.abs() > MAX_X || b.y.abs() > MAX_Y {
            self.report(
                FindingKind::OffField,
                Some(at),
                Some(f.time),
                format!(
                    "the ball is at ({}, {}), beyond the field's margins",
                    b.x, b.y
                ),
            );
        }
        let counted = f.mode != PlayMode::BEFORE_KICK_OFF && f.mode != PlayMode::TIME_OVER;
        let mut missing = None;
        for (i, p) in f.players.iter().enumerate() {
            let who = format!("{}{}", if i < 11 { 'l' } else { 'r' }, i % 11 + 1);
            // librcsc's "not alive and no red card": a player sent off keeps his card bit
            // (state not 0), so only state 0 counts.
            if p.state == state::DISABLE {
                if counted && missing.is_none() {
                    missing = Some(who);
                }
                continue;
            }
            if ![p.x, p.y, p.vx, p.vy, p.body, p.neck]
                .iter()
                .all(|v| v.is_finite())
            {
                self.report(
                    FindingKind::NotFinite,
                    Some(at),
                    Some(f.time),
                    format!("player {who} is at ({}, {}) facing {}", p.x, p.y, p.body),
                );
            } else if p.x.abs() > MAX_X || p.y.abs() > MAX_Y {
                self.report(
                    FindingKind::OffField,
                    Some(at),
                    Some(f.time),
                    format!(
                        "player {who} is at ({}, {}), beyond the field's margins (±{MAX_X}, ±{MAX_Y})",
                        p.x, p.y
                    ),
                );
            }
            if self.player_types > 0
                && (p.player_type < 0 || p.player_type as u32 >= self.player_types)
            {
                let key = (i, p.player_type);
                if !self.unknown_types.contains(&key) && self.unknown_types.len() < 64 {
                    self.unknown_types.push(key);
                    self.report(
                        FindingKind::UnknownPlayerType,
                        Some(at),
                        Some(f.time),
                        format!(
                            "player {who} is of type {}, the log defines types 0 to {}",
                            p.player_type,
                            self.player_types - 1
                        ),
                    );
                }
            }
        }
        if let Some(who) = missing {
            self.missing_shows += 1;
            if self.missing_shows == 1 {
                self.report(
                    FindingKind::MissingPlayers,
                    Some(at),
                    Some(f.time),
                    format!("player {who} is not on the field in {}", mode_name(f.mode)),
                );
            }
        }
    }

    /// Ends the log; `error` is what stopped the decoder, if anything did.
    pub fn finish(mut self, error: Option<&LogError>) -> Validation {
        let ending = Ending::of(&self.end, error);
        match &ending {
            Ending::Damaged(e) => {
                let at = e.location();
                self.report(
                    FindingKind::Damaged,
                    at,
                    self.last.as_ref().map(|l| l.frame.time),
                    format!("{e}; nothing after it can be read"),
                );
            }
            Ending::Incomplete { cycle } => {
                let why = match error {
                    Some(e @ (LogError::Truncated { .. } | LogError::GzipCut { .. })) => {
                        format!(" ({e})")
                    }
                    Some(LogError::Incomplete { .. }) => {
                        " (its JSON array is never closed)".to_owned()
                    }
                    _ => " (no time_over)".to_owned(),
                };
                let at = error
                    .and_then(LogError::location)
                    .or(self.last.as_ref().map(|l| l.at));
                self.report(
                    FindingKind::Incomplete,
                    at,
                    Some(*cycle),
                    format!("{}{why}", crate::log::incomplete_note(*cycle)),
                );
            }
            Ending::Whole => {}
        }
        if self.shows == 0 {
            self.report(
                FindingKind::NoShows,
                None,
                None,
                "the log has no show".into(),
            );
        }
        for (a, b, at) in std::mem::take(&mut self.gaps) {
            let msg = if a == b {
                format!("cycle {a} has no show")
            } else {
                format!("cycles {a} to {b} have no show")
            };
            self.report(FindingKind::SkippedCycles, Some(at), Some(b + 1), msg);
        }
        // rcgvalidator's two checks, with its numbers.
        let get = |name: &str, default: f64| -> f64 {
            self.server_param
                .as_ref()
                .and_then(|p| p.get(name))
                .and_then(ParamValue::as_f64)
                .unwrap_or(default)
        };
        let assumed = (get("half_time", 300.0) * 10.0) as i64 * get("nr_normal_halfs", 2.0) as i64;
        // A v1 or v2 log has no parameters: the game's length is not known, and rcgvalidator's
        // default of 6000 cycles says nothing about it. (A later version without its
        // `server_param` is judged on the defaults, as rcgvalidator does.)
        let has_params = self
            .version
            .is_none_or(|v| !matches!(v, LogVersion::V1 | LogVersion::V2));
        if self.shows > 0 && has_params && i64::from(self.last_game_time) < assumed - 1 {
            let at = self.last.as_ref().map(|l| l.at);
            self.report(
                FindingKind::ShortGame,
                at,
                Some(self.last_game_time),
                format!(
                    "last game time: {} << assumed count: {assumed} (half_time × 10 × nr_normal_halfs, as rcgvalidator counts)",
                    self.last_game_time
                ),
            );
        }
        if self.missing_shows > 0 {
            let n = self.missing_shows;
            let verdict = if n >= 10 {
                "rcgvalidator fails the log"
            } else {
                "rcgvalidator lets fewer than 10 pass"
            };
            if let Some(f) = self
                .findings
                .iter_mut()
                .find(|f| f.kind == FindingKind::MissingPlayers)
            {
                f.message = format!(
                    "missing player count = {n} (shows with a player not on the field, from here; {verdict}): {}",
                    f.message
                );
            }
        }
        let mut findings = self.findings;
        findings.sort_by_key(|f| f.kind);
        let mut counts = self.counts;
        counts.sort_by_key(|(k, _)| *k);
        Validation {
            version: self.version,
            findings,
            counts,
            shows: self.shows,
        }
    }
}

fn mode_name(m: PlayMode) -> &'static str {
    if m == PlayMode::NULL {
        "no play mode"
    } else {
        m.name()
    }
}

/// Validates a whole log held in memory (fed in slices, as a file is).
pub fn validate(bytes: &[u8]) -> Validation {
    let mut s = Streaming::new();
    for chunk in bytes.chunks(256 << 10) {
        s.feed(chunk);
    }
    s.finish()
}

/// Validation of a log fed in chunks, for files of any size.
pub struct Streaming {
    decoder: LogDecoder,
    validator: Validator,
    records: Vec<Record>,
}

impl Default for Streaming {
    fn default() -> Self {
        Self::new()
    }
}

impl Streaming {
    pub fn new() -> Streaming {
        let mut decoder = LogDecoder::new();
        decoder.set_detail(crate::format::Detail::Full);
        decoder.track_locations();
        Streaming {
            decoder,
            validator: Validator::new(),
            records: Vec::new(),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) {
        if self.decoder.error().is_some() {
            return;
        }
        let _ = self.decoder.feed(chunk, &mut self.records);
        self.drain();
    }

    fn drain(&mut self) {
        self.validator.set_version(self.decoder.version());
        let at = self.decoder.take_locations();
        for (r, at) in self.records.drain(..).zip(at) {
            self.validator.push(&r, at);
        }
    }

    pub fn finish(mut self) -> Validation {
        let err = match self.decoder.error() {
            Some(e) => Some(e.clone()),
            None => self.decoder.finish(&mut self.records).err(),
        };
        self.drain();
        self.validator.finish(err.as_ref())
    }
}
