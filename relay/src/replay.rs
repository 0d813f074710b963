//! Plays a logfile to spectators as if a server were sending it live: one show per step
//! (100 ms at normal speed, stoppage repeats included, as the real server does), looping, each
//! round a new match. This is what a newcomer sees with no rcssserver running, and how an
//! organiser shows a past match on a screen between rounds.

use crate::monitor::ControlRequest;
use crate::publisher::Publisher;
use pitchside_wire::feed::FeedSource;
use rcss_formats::{LogDecoder, LogError, Record};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// The real game played when no server and no file is given: a short rcssserver 19 game.
pub const BUNDLED_LOG: &[u8] =
    include_bytes!("../../static/replay/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
pub const BUNDLED_NAME: &str = "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg";

/// Pause between the end of a replay and its next round.
const BETWEEN_ROUNDS: Duration = Duration::from_secs(3);

#[derive(Debug, thiserror::Error)]
#[error("cannot replay {name}: {source}")]
pub struct ReplayError {
    pub name: String,
    pub source: LogError,
}

/// A log cut into steps: the records up to and including each show.
pub struct Script {
    pub name: String,
    steps: Vec<Vec<Record>>,
}

impl Script {
    /// Decodes a log. A log that breaks part-way still plays up to the break.
    pub fn from_log(name: &str, bytes: &[u8]) -> Result<Script, ReplayError> {
        let mut decoder = LogDecoder::new();
        let mut records = Vec::new();
        let res = decoder
            .feed(bytes, &mut records)
            .and_then(|_| decoder.finish(&mut records));
        if let Err(e) = res {
            if !records.iter().any(|r| matches!(r, Record::Show(_))) {
                return Err(ReplayError {
                    name: name.to_owned(),
                    source: e,
                });
            }
            tracing::warn!("{name}: playing up to an error: {e}");
        }
        let steps = Record::split_at_shows(records);
        Ok(Script {
            name: name.to_owned(),
            steps,
        })
    }

    pub fn shows(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s.last(), Some(Record::Show(_))))
            .count()
    }

    pub fn steps(&self) -> &[Vec<Record>] {
        &self.steps
    }
}

#[derive(Clone)]
pub struct ReplayConfig {
    pub script: Arc<Script>,
    /// Time per show: 100 ms is real time.
    pub step: Duration,
    /// Start again after the end.
    pub looping: bool,
}

/// Plays until `stop` turns true.
pub async fn run(
    config: ReplayConfig,
    mut publisher: Publisher,
    mut control: mpsc::Receiver<ControlRequest>,
    mut stop: watch::Receiver<bool>,
) {
    tokio::select! {
        () = play(&config, &mut publisher) => {}
        () = crate::stopped(&mut stop) => {}
        () = refuse(&mut control) => {}
    }
    publisher.end_recording();
}

async fn refuse(control: &mut mpsc::Receiver<ControlRequest>) {
    while let Some(req) = control.recv().await {
        let _ = req.reply.send(Err(crate::monitor::ControlError::Replay));
    }
    std::future::pending::<()>().await
}

async fn play(config: &ReplayConfig, publisher: &mut Publisher) {
    let script = &config.script;
    let mut round = 0u32;
    loop {
        publisher.set_feed(FeedSource::Replay, format!("replay of {}", script.name));
        if round > 0 {
            publisher.new_match();
        }
        round += 1;
        let mut ticker = tokio::time::interval(config.step);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut flushed = tokio::time::Instant::now();
        for step in &script.steps {
            ticker.tick().await;
            publisher.records(step);
            if flushed.elapsed() >= Duration::from_secs(1) {
                publisher.flush();
                flushed = tokio::time::Instant::now();
            }
        }
        publisher.end_recording();
        if !config.looping {
            publisher.set_feed(
                FeedSource::Replay,
                format!("replay of {} (ended)", script.name),
            );
            std::future::pending::<()>().await;
        }
        tokio::time::sleep(BETWEEN_ROUNDS.min(config.step * 30)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_log_becomes_a_script_of_steps() {
        let s = Script::from_log(BUNDLED_NAME, BUNDLED_LOG).unwrap();
        assert_eq!(s.shows(), 679);
        assert!(matches!(s.steps()[0][0], Record::ServerParam(_)));
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        let e = Script::from_log("x.rcg", b"this is not a log")
            .err()
            .unwrap();
        assert!(e.to_string().contains("not an rcssserver game log"), "{e}");
    }
}
