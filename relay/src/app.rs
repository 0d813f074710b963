//! What every request handler of the relay shares: the matches, the connection table, the
//! operator's gate, the archive, tournaments and broadcast state; and the control endpoint's
//! answer, which a page here and a page at an edge both get. The HTTP side (`web`) and the
//! NATS edges (`nats`) both build on it, so neither imports the other.

use crate::spectator;
use crate::MatchHandle;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Arc;
use tokio::sync::watch;

pub struct Shared {
    pub matches: crate::Matches,
    /// Every client connection, and why some were refused or closed.
    pub connections: Arc<crate::connections::Table>,
    /// Protective headers, CORS for the control endpoint, CSP reports.
    pub policy: Arc<crate::headers::Policy>,
    pub max_spectators: usize,
    pub spectator: spectator::Options,
    /// Turns true when the relay shuts down: spectators are told goodbye.
    pub stop: watch::Receiver<bool>,
    pub spectators: AtomicUsize,
    pub refused: AtomicU64,
    /// The operator's token and the failed attempts to give it.
    pub gate: crate::control::Gate,
    /// `--debug-port`: the agents' debug messages of one match, for its teams' keys.
    pub debug: Option<Arc<crate::agents::DebugLog>>,
    /// Set at an edge relay (`--edge`): its link to the origin, for operator commands.
    pub edge: Option<EdgeLink>,
    /// The logs below `--archive` and `--record`.
    pub archive: Arc<crate::archive::Archive>,
    /// `--tournament`: what `/api/tournaments` answers from.
    pub tournaments: Arc<crate::tournament::Tournaments>,
    /// `--broadcast-delay`, `--team-colours` and the captions kept per match.
    pub broadcast: crate::broadcast::Broadcast,
    /// `--run`: the runs of games the operator may start, pause and stop.
    pub runs: Arc<crate::runs::Runs>,
}

/// What an edge's routes need of NATS.
pub struct EdgeLink {
    pub client: async_nats::Client,
    pub stats: Arc<EdgeStats>,
}

impl Shared {
    pub(crate) fn find(&self, name: &str) -> Option<Arc<MatchHandle>> {
        self.matches.find(name)
    }
}

pub type AppState = Arc<Shared>;

/// Counters for `/metrics` at an edge.
#[derive(Default)]
pub struct EdgeStats {
    /// Envelopes applied.
    pub applied: AtomicU64,
    /// Envelopes seen twice and dropped.
    pub duplicates: AtomicU64,
    /// Times items were missing and a match was started afresh.
    pub gaps: AtomicU64,
    /// Envelopes that did not decode.
    pub damaged: AtomicU64,
}

/// What the control endpoint answers: a status, a JSON body and maybe a `Retry-After`.
#[derive(Debug)]
pub struct ControlAnswer {
    pub status: u16,
    pub body: serde_json::Value,
    pub retry_after: Option<u64>,
}

impl From<crate::control::Refusal> for ControlAnswer {
    fn from(r: crate::control::Refusal) -> Self {
        ControlAnswer {
            status: r.status(),
            body: serde_json::json!({ "error": r.to_string() }),
            retry_after: r.retry_after(),
        }
    }
}

/// The control endpoint itself, for a page here and for a page at an edge (its request
/// carried over NATS) alike: the token checked first, against the page's address, then the
/// status (`command` is `None`) or one command ([`crate::control::handle`]).
pub async fn control_answer(
    app: &Shared,
    name: &str,
    client: std::net::IpAddr,
    authorization: Option<&str>,
    command: Option<&[u8]>,
    via: &str,
) -> ControlAnswer {
    if let Err(r) = app
        .gate
        .check(client, authorization, std::time::Instant::now())
    {
        return r.into();
    }
    let Some(m) = app.find(name) else {
        return crate::control::Refusal::UnknownMatch(name.to_owned()).into();
    };
    let Some(body) = command else {
        let view = m.hub.control_view();
        let kickoff = view
            .now
            .is_none_or(|(t, mode)| rcss_formats::command::kick_off_acts(t, mode, &view.params));
        return ControlAnswer {
            status: 200,
            body: serde_json::json!({
                "match": name,
                "live": m.kind == "live",
                "coach": view.coach,
                "kickoff": kickoff,
            }),
            retry_after: None,
        };
    };
    match crate::control::handle(&m, true, body, &format!("{client}{via}")).await {
        Ok(sent) => ControlAnswer {
            status: 200,
            body: serde_json::to_value(&sent).unwrap_or_default(),
            retry_after: None,
        },
        Err(r) => r.into(),
    }
}
