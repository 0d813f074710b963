//! What a match's source task (live server or replay) hands its records to: the hub (history
//! and spectators) and the recorder, with the one rule that decides where a match begins.

use crate::hub::Hub;
use crate::recorder::Recorder;
use pitchside_wire::feed::FeedSource;
use rcss_formats::Record;
use std::sync::Arc;

/// Which server error this is, and what a person can do about it.
pub fn hint_for(error: &str) -> &'static str {
    match error.trim() {
        "no_more_monitor" => "rcssserver has as many monitors as server::max_monitors allows: raise it, or close another monitor; the relay keeps asking",
        "illegal_client_version" => "rcssserver does not speak this monitor protocol: start the relay with another --protocol (rcssserver 19 speaks 1, 2, 3, 4, 5 and json)",
        "illegal_command_form" => "rcssserver did not understand a command the relay sent on an operator's behalf",
        "only_init_allowed_on_init_port" => "a command went to rcssserver's player port instead of the monitor port",
        "unknown_command" => "rcssserver did not take the relay for a monitor",
        _ => "see rcssserver's output",
    }
}

pub struct Publisher {
    pub hub: Arc<Hub>,
    recorder: Option<Recorder>,
}

impl Publisher {
    pub fn new(hub: Arc<Hub>, recorder: Option<Recorder>) -> Self {
        Publisher { hub, recorder }
    }

    pub fn set_feed(&self, source: FeedSource, label: impl Into<String>) {
        self.hub.set_feed(source, label);
    }

    /// Starts a new match for spectators and the recorder.
    pub fn new_match(&mut self) {
        self.hub.new_match();
        self.begin_recording();
    }

    fn begin_recording(&mut self) {
        let started = self.hub.started().unwrap_or_else(chrono::Local::now);
        if let Some(rec) = &mut self.recorder {
            if let Err(e) = rec.begin(started) {
                tracing::error!("{}: {e}; the match goes on unrecorded", self.hub.name);
            }
        }
    }

    /// Publishes the records of one datagram. A `server_param` after anything else means the
    /// server sent a new match's parameters: a new match begins.
    pub fn records(&mut self, records: &[Record]) {
        self.records_from_server(records, true);
    }

    /// [`Publisher::records`]; `errors_are_refusals` false when an `(error …)` among them
    /// answers an operator's command, which the operator is told of, rather than a refusal
    /// of the relay that every page must explain.
    pub fn records_from_server(&mut self, records: &[Record], errors_are_refusals: bool) {
        if records.is_empty() {
            return;
        }
        if matches!(records.first(), Some(Record::ServerParam(_))) && !self.hub.is_empty() {
            self.new_match();
        }
        let first = self.hub.started().is_none();
        self.hub.publish(records);
        if first {
            self.begin_recording();
        }
        for r in records.iter().filter(|_| errors_are_refusals) {
            if let Record::Msg(m) = r {
                let text = m.text_lossy();
                if let Some(e) = text.strip_prefix("(error ") {
                    let e = e.trim_end_matches(')');
                    self.hub.server_error(e, hint_for(e));
                }
            }
        }
        if let Some(rec) = &mut self.recorder {
            if let Err(e) = rec.record(records) {
                tracing::error!("{}: {e}; recording stopped", self.hub.name);
                self.recorder = None;
            }
        }
    }

    /// Writes buffered log lines to disk (called every second).
    pub fn flush(&mut self) {
        if let Some(rec) = &mut self.recorder {
            if let Err(e) = rec.flush() {
                tracing::error!("{}: {e}; recording stopped", self.hub.name);
                self.recorder = None;
            }
        }
    }

    /// The server went quiet before time over: the recording ends as the server's own log
    /// does when the server is stopped, and is named as it stands.
    pub fn server_gone(&mut self) {
        if let Some(rec) = &mut self.recorder {
            if let Err(e) = rec.end_server_gone() {
                tracing::error!("{}: {e}", self.hub.name);
            }
        }
    }

    /// The match ended without time over (relay stopping, replay over): the recording is
    /// closed and named as it stands.
    pub fn end_recording(&mut self) {
        if let Some(rec) = &mut self.recorder {
            if let Err(e) = rec.end() {
                tracing::error!("{}: {e}", self.hub.name);
            }
        }
    }
}
