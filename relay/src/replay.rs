//! Plays a logfile to spectators as if a server were sending it live: one show per 100 ms
//! (stoppage repeats included, as the real server does), looping. This is what a newcomer sees
//! with no rcssserver running, and what "replay a log as live" builds on.

use crate::hub::{Hub, Kind};
use anyhow::Context;
use axum::body::Bytes;
use pitchside_shared::feed::FeedSource;
use pitchside_shared::{LogDecoder, Record};
use std::sync::Arc;
use std::time::Duration;

/// The real game played when no server and no file is given: a short rcssserver 19 game.
pub const BUNDLED_LOG: &[u8] =
    include_bytes!("../../static/replay/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz");
pub const BUNDLED_NAME: &str = "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg";

/// A log turned into the datagrams a v5 monitor would have received.
pub struct Script {
    pub name: String,
    items: Vec<(Kind, bool, Bytes)>,
}

impl Script {
    /// Decodes a log. A log that breaks part-way still plays up to the break.
    pub fn from_log(name: &str, bytes: &[u8]) -> anyhow::Result<Script> {
        let mut decoder = LogDecoder::new();
        let mut records = Vec::new();
        let res = decoder
            .feed(bytes, &mut records)
            .and_then(|_| decoder.finish(&mut records));
        if let Err(e) = &res {
            if !records.iter().any(|r| matches!(r, Record::Show(_))) {
                return Err(e.clone()).with_context(|| format!("cannot replay {name}"));
            }
            tracing::warn!("{name}: playing up to an error: {e}");
        }
        let items = records
            .iter()
            .filter_map(|r| {
                let mut text = pitchside_shared::write::monitor_datagram(r)?;
                text.push(0);
                let kind = crate::monitor::kind_of(std::slice::from_ref(r));
                Some((kind, matches!(r, Record::Show(_)), Bytes::from(text)))
            })
            .collect();
        Ok(Script {
            name: name.to_owned(),
            items,
        })
    }

    pub fn shows(&self) -> usize {
        self.items.iter().filter(|i| i.1).count()
    }
}

/// Plays `script` one show every `step`, looping, until `stop` completes.
pub async fn run(
    script: Script,
    hub: Arc<Hub>,
    step: Duration,
    stop: impl std::future::Future<Output = ()>,
) {
    tokio::select! {
        () = play(&script, &hub, step) => {}
        () = stop => {}
    }
}

async fn play(script: &Script, hub: &Hub, step: Duration) {
    loop {
        hub.set_feed(FeedSource::Replay, format!("replay of {}", script.name));
        hub.reset();
        let mut ticker = tokio::time::interval(step);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for (kind, is_show, bytes) in &script.items {
            if *is_show {
                ticker.tick().await;
            }
            hub.publish(*kind, bytes.clone());
        }
        tokio::time::sleep(step * 30).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_log_becomes_a_script_of_v5_datagrams() {
        let s = Script::from_log(BUNDLED_NAME, BUNDLED_LOG).unwrap();
        assert_eq!(s.shows(), 679);
        let first_show = s.items.iter().find(|i| i.1).unwrap();
        assert!(first_show
            .2
            .starts_with(b"(show 1 (pm 4) (tm SHORT_L_a SHORT_R_a 0 0)"));
        assert_eq!(s.items[0].0, Kind::ServerParam);
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        let e = Script::from_log("x.rcg", b"this is not a log")
            .err()
            .unwrap();
        assert!(
            format!("{e:#}").contains("not an rcssserver game log"),
            "{e:#}"
        );
    }
}
