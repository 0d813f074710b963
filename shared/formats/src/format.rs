//! Types every format layer shares, kept in a leaf module so that the layers stand one above
//! the other: [`crate::text`], [`crate::json`] and [`crate::binary`] read records and know
//! nothing of the decoder; [`crate::log`] drives them and knows nothing of their syntax.
//! Nothing here imports another module of the crate.

/// Log format versions rcssserver writes (`server::game_log_version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum LogVersion {
    V1,
    V2,
    V3,
    V4,
    V5,
    V6,
    /// The 2.5D fork of rcssserver: ULG6 with the ball's height.
    V7,
    /// rcssserver 19 JSON (`game_log_version = -1`).
    Json,
    /// rcssserver 18 JSON (first line `JSON`), read where its records match the 19 format.
    Json18,
}

impl LogVersion {
    /// Every version the writers write ([`crate::write::LogWriter`]): rcssserver 18's JSON
    /// is written as 19's.
    pub const WRITTEN: [LogVersion; 8] = [
        LogVersion::V1,
        LogVersion::V2,
        LogVersion::V3,
        LogVersion::V4,
        LogVersion::V5,
        LogVersion::V6,
        LogVersion::V7,
        LogVersion::Json,
    ];

    /// 1..7, or `None` for JSON.
    pub fn number(self) -> Option<u8> {
        Some(match self {
            LogVersion::V1 => 1,
            LogVersion::V2 => 2,
            LogVersion::V3 => 3,
            LogVersion::V4 => 4,
            LogVersion::V5 => 5,
            LogVersion::V6 => 6,
            LogVersion::V7 => 7,
            LogVersion::Json | LogVersion::Json18 => return None,
        })
    }

    /// The version a user names to write: `1` to `7`, or `json` (also `JSON`, or `-1` as
    /// `server::game_log_version` names it).
    pub fn from_name(name: &str) -> Option<LogVersion> {
        match name {
            "json" | "JSON" | "-1" => Some(LogVersion::Json),
            n => LogVersion::WRITTEN
                .into_iter()
                .find(|v| v.number().is_some_and(|k| n == k.to_string())),
        }
    }

    /// One record per line (text and JSON logs), as opposed to binary records (v1-v3).
    pub fn is_line_based(self) -> bool {
        !matches!(self, LogVersion::V1 | LogVersion::V2 | LogVersion::V3)
    }

    /// A JSON log (rcssserver 19 or 18).
    pub fn is_json(self) -> bool {
        matches!(self, LogVersion::Json | LogVersion::Json18)
    }
}

impl std::fmt::Display for LogVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.number() {
            Some(n) => write!(f, "{n}"),
            None if *self == LogVersion::Json18 => f.write_str("json (rcssserver 18)"),
            None => f.write_str("json"),
        }
    }
}

/// What a show record carried beyond positions: whether its play mode and teams came with
/// it (live shows, v1/v2 structs) or must be filled in from the last `playmode` and `team`
/// records (log shows, which carry neither).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShowShape {
    /// `(pm N)` was present (live shows); log shows take the mode from playmode lines.
    pub has_mode: bool,
    /// `(tm …)` was present.
    pub has_teams: bool,
}

/// How much of each show a decoder reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Every field.
    #[default]
    Full,
    /// The time, ball, and each player's side, number, type, state and position: what match
    /// events, scores and summaries need. Every show is still read whole, so a log is
    /// accepted or refused exactly as with [`Detail::Full`] (the inspector and the page give
    /// the same answer on every file); the rest of each player is not kept.
    Light,
}

/// What a JSON log's first two records say (a text or binary log says neither).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonHeader {
    /// The server's version, `"19.0.0"` when not known.
    pub version: Option<String>,
    /// When the match started, as rcssserver prints it (`2026-11-22T13:27:46+0000`); left out
    /// when not known.
    pub timestamp: Option<String>,
}
