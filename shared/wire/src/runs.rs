//! The runs of games a relay may start, pause and stop for its operator (`GET /api/runs`,
//! `POST /api/runs/NAME/ACTION`): only those its command line or config file names
//! (`--run FILE`), each a `pitchside-play` with the arguments its file holds. A page names a
//! run and an action, never a program or an argument. Version [`RUNS_FORMAT`]; the relay
//! writes it, the page reads it, both through these types.

use crate::run::Run;
use serde::{Deserialize, Serialize};

/// The version of the document (`"format"`): bumped when a key changes meaning or goes.
pub const RUNS_FORMAT: &str = "pitchside.runs.v1";

/// `GET /api/runs`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runs {
    pub format: String,
    pub runs: Vec<RunEntry>,
}

/// Where a run is, as the relay sees its process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Not started since the relay started.
    #[default]
    Idle,
    Running,
    /// Asked to pause: the games under way are played to their end (a tournament's round).
    Pausing,
    /// Asked to stop: the games under way are being stopped.
    Stopping,
    /// Every game played, each counted.
    Over,
    /// Paused as asked: start it again to go on.
    Paused,
    /// Stopped as asked: start it again to go on.
    Stopped,
    /// Ended with games that went wrong (a tournament: the rest waits on them).
    Invalid,
    /// Could not run: `said` says why.
    Failed,
}

impl Phase {
    /// Whether its process runs.
    pub fn active(self) -> bool {
        matches!(self, Phase::Running | Phase::Pausing | Phase::Stopping)
    }
}

/// One run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunEntry {
    /// Its name: the run file's name without its extension.
    pub name: String,
    pub phase: Phase,
    /// The last line the runner printed.
    #[serde(default)]
    pub said: Option<String>,
    /// The series page of its folder, once the archive lists a game of it.
    #[serde(default)]
    pub series: Option<String>,
    /// Its folder's status file, as the runner last wrote it.
    #[serde(default)]
    pub progress: Option<Run>,
}

/// What the operator may ask of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start it (or go on where it stopped: the runner is started with `--continue`).
    Start,
    /// End it once the games under way are over (a tournament: after the round).
    Pause,
    /// Stop it now: the games under way are stopped and marked invalid.
    Stop,
}

impl Action {
    /// The action a URL's last segment names.
    pub fn parse(word: &str) -> Option<Action> {
        match word {
            "start" => Some(Action::Start),
            "pause" => Some(Action::Pause),
            "stop" => Some(Action::Stop),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Action::Start => "start",
            Action::Pause => "pause",
            Action::Stop => "stop",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_list_reads_back_as_written_with_the_book_s_keys() {
        let runs = Runs {
            format: RUNS_FORMAT.into(),
            runs: vec![RunEntry {
                name: "night".into(),
                phase: Phase::Pausing,
                said: Some("game 3 of 300".into()),
                series: Some("/series?dir=0/night".into()),
                progress: None,
            }],
        };
        let text = serde_json::to_string(&runs).expect("writes");
        assert_eq!(
            text,
            r#"{"format":"pitchside.runs.v1","runs":[{"name":"night","phase":"pausing","said":"game 3 of 300","series":"/series?dir=0/night","progress":null}]}"#
        );
        let back: Runs = serde_json::from_str(&text).expect("reads");
        assert_eq!(back, runs);
    }

    #[test]
    fn only_the_three_actions_are_named() {
        for a in [Action::Start, Action::Pause, Action::Stop] {
            assert_eq!(Action::parse(a.word()), Some(a));
        }
        assert_eq!(Action::parse("exec"), None);
        assert_eq!(Action::parse("Start"), None);
    }
}
