//! What the relay tells browsers besides the server's own datagrams.
//!
//! On the WebSocket, binary messages are server datagrams exactly as rcssserver sent them
//! (inflated if the server compressed them), so the browser decodes them with the same
//! [`crate::datagram`] parser as the relay; text messages are these JSON notices.

use serde::{Deserialize, Serialize};

/// Where the frames on a feed come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedSource {
    /// A live rcssserver.
    Live,
    /// A logfile played back as if live.
    Replay,
    /// No server is answering yet.
    Waiting,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// Sent first to every spectator and whenever the source changes.
    Feed { source: FeedSource, label: String },
    /// A new match starts: drop what was shown so far.
    Reset,
}

impl Notice {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(s: &str) -> Option<Notice> {
        serde_json::from_str(s).ok()
    }
}
