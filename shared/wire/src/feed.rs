//! Where a relayed match's frames come from, as the relay tells every page (in
//! [`crate::Notice::Feed`]) and lists in `/api/matches`.

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
