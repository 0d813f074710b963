//! A run of games in a folder, as `pitchside-play` writes it (`pitchside-play.json`) and the
//! relay's `/api/series` passes it on under `run`: how far the batch or tournament is, what
//! each field plays now and the time left at the pace so far. Version [`RUN_FORMAT`]; the
//! runner writes it, the page reads it, both through these types.

use serde::{Deserialize, Serialize};

/// The version of the document (`"format"`): bumped when a key changes meaning or goes.
pub const RUN_FORMAT: &str = "pitchside.play.v1";

/// One field of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunField {
    /// The field's player port (6000, 7000, …).
    pub port: u16,
    /// The game it plays now (its logs' name); none between two games.
    #[serde(default)]
    pub game: Option<String>,
    /// Its teams, left first, where the runner knows them (a tournament's fixture).
    #[serde(default)]
    pub teams: Option<[String; 2]>,
}

/// The whole document.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub format: String,
    /// `batch` or `tournament`.
    pub kind: String,
    /// Games in all (a tournament's fixtures and ties).
    pub games: u32,
    /// Games played that count, in this run and before it.
    pub played: u32,
    /// Games marked invalid in this run.
    pub invalid: u32,
    pub fields: Vec<RunField>,
    /// Still playing; false once the run ended (over, paused, stopped, or waiting on
    /// invalid games).
    pub running: bool,
    /// Seconds to the last game at this run's pace so far; none before a game has ended.
    #[serde(default)]
    pub seconds_left: Option<u64>,
    /// When it was written, in seconds since 1970: a run whose writer died stops changing.
    pub updated: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document as the runner writes it reads back the same, and its keys are those the
    /// book gives.
    #[test]
    fn a_run_reads_back_as_written() {
        let run = Run {
            format: RUN_FORMAT.into(),
            kind: "batch".into(),
            games: 300,
            played: 41,
            invalid: 1,
            fields: vec![
                RunField {
                    port: 6000,
                    game: Some("game-0043".into()),
                    teams: None,
                },
                RunField {
                    port: 7000,
                    game: None,
                    teams: Some(["ALPHA".into(), "BRAVO".into()]),
                },
            ],
            running: true,
            seconds_left: Some(5120),
            updated: 1_795_875_444,
        };
        let text = serde_json::to_string(&run).expect("a run writes");
        let keys: Vec<&str> = [
            "format",
            "kind",
            "games",
            "played",
            "invalid",
            "fields",
            "running",
            "seconds_left",
            "updated",
        ]
        .to_vec();
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        for k in keys {
            assert!(v.get(k).is_some(), "{k} in {text}");
        }
        assert_eq!(serde_json::from_str::<Run>(&text).expect("reads"), run);
    }
}
